"""European and up-and-out call prices for a strip of strikes.

The closed-form Black-Scholes price and the payoff are Numba ufuncs
(@vectorize) so they broadcast over strikes and paths; the barrier check
uses a @guvectorize running maximum along each path. The Monte-Carlo
estimate is accumulated in batches and compared with the closed form, and
implied volatilities are backed out strike by strike.
"""
import math

import numpy as np
from numba import float64, guvectorize, vectorize

SPOT = 100.0
RATE = 0.03
SIGMA = 0.25
MATURITY = 1.0
BARRIER = 150.0
N_STRIKES = 41
BATCH = 20000
N_BATCHES = 50
N_MONITOR = 64


@vectorize([float64(float64, float64, float64, float64, float64)])
def bs_call(s, k, r, sigma, t):
    """Black-Scholes price of a European call."""
    vol = sigma * math.sqrt(t)
    d1 = (math.log(s / k) + (r + 0.5 * sigma * sigma) * t) / vol
    d2 = d1 - vol
    n1 = 0.5 * (1.0 + math.erf(d1 / math.sqrt(2.0)))
    n2 = 0.5 * (1.0 + math.erf(d2 / math.sqrt(2.0)))
    return s * n1 - k * math.exp(-r * t) * n2


@vectorize(["float64(float64, float64)"])
def call_payoff(s, k):
    return s - k if s > k else 0.0


@guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")
def running_max(path, out):
    """Highest level the path has reached up to each monitoring date."""
    best = path[0]
    for i in range(path.shape[0]):
        if path[i] > best:
            best = path[i]
        out[i] = best


def implied_vol(price, strike, lo=1e-3, hi=2.0, iters=60):
    """Volatility that reproduces a call price, by bisection."""
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        if bs_call(SPOT, strike, RATE, mid, MATURITY) > price:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


rng = np.random.default_rng(2024)
strikes = np.linspace(60.0, 140.0, N_STRIKES)
closed_form = bs_call(SPOT, strikes, RATE, SIGMA, MATURITY)

drift = (RATE - 0.5 * SIGMA * SIGMA) * MATURITY
diffusion = SIGMA * math.sqrt(MATURITY)
payoff_sum = np.zeros(N_STRIKES)
estimates = np.empty((0, N_STRIKES))
for b in range(N_BATCHES):
    z = rng.normal(0.0, 1.0, size=BATCH)
    s_T = SPOT * np.exp(drift + diffusion * z)
    payoff_sum += call_payoff(s_T[:, None], strikes[None, :]).mean(axis=0)
    estimates = np.append(estimates, (payoff_sum / (b + 1))[None, :], axis=0)

discount = math.exp(-RATE * MATURITY)
mc_price = discount * payoff_sum / N_BATCHES
errors = np.abs(discount * estimates - closed_form).max(axis=1)
batches = np.arange(1, N_BATCHES + 1)
slope, _ = np.polyfit(np.log(batches), np.log(errors), 1)
print(f"Monte-Carlo error falls like n^{slope:.2f}")

ivs = np.empty(N_STRIKES)
for j in range(N_STRIKES):
    ivs[j] = implied_vol(mc_price[j], strikes[j])

dt = MATURITY / N_MONITOR
steps = rng.normal(drift / N_MONITOR, diffusion * math.sqrt(1.0 / N_MONITOR), size=(BATCH, N_MONITOR))
paths = SPOT * np.exp(np.cumsum(steps, axis=1))
peaks = np.empty_like(paths)
running_max(paths, peaks)
alive = peaks[:, -1] < BARRIER
barrier_price = discount * np.mean(np.where(alive[:, None], call_payoff(paths[:, -1:], strikes), 0.0), axis=0)
print("smile:", np.round(ivs, 3))
print("knock-out discount:", np.round(barrier_price / mc_price, 3))
