"""European and Asian call prices with every random increment drawn at once.

Runs on cuPyNumeric; host NumPy (onp) is used only to write the results.
"""
import cupynumeric as np
import numpy as onp

S0 = 100.0
STRIKE = 100.0
RATE = 0.02
SIGMA = 0.3
MATURITY = 0.5
N_STEPS = 126
N_PATHS = 200_000  # demo size

dt = MATURITY / N_STEPS
drift = (RATE - 0.5 * SIGMA**2) * dt
vol = SIGMA * dt**0.5

rng = np.random.default_rng(7)
z = rng.normal(0.0, 1.0, size=(N_STEPS, N_PATHS))

S = np.full(N_PATHS, S0)
path_sum = np.zeros(N_PATHS)
for t in range(N_STEPS):
    S *= np.exp(drift + vol * z[t])
    path_sum += S

discount = np.exp(-RATE * MATURITY)
euro = discount * np.maximum(S - STRIKE, 0.0)
asian = discount * np.maximum(path_sum / N_STEPS - STRIKE, 0.0)
prices = [float(np.mean(p)) for p in (euro, asian)]
print(f"European {prices[0]:.4f}  Asian {prices[1]:.4f}")

host_euro = onp.asarray(euro)
spread = onp.std(host_euro) / N_PATHS**0.5
counts, edges = onp.histogram(host_euro, bins="auto")
call_payoff = onp.vectorize(lambda s: max(s - STRIKE, 0.0))
print("host check of the first payoffs:", call_payoff(onp.asarray(S[:5])) * float(discount))
onp.savez("mc_prices.npz", prices=onp.asarray(prices), counts=counts, edges=edges, stderr=spread)
