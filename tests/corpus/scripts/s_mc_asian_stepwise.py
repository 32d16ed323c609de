"""Monte-Carlo prices of an arithmetic-average Asian call and an up-and-out
barrier call under geometric Brownian motion, simulated step by step."""
import numpy as np

S0 = 100.0
STRIKE = 105.0
BARRIER = 140.0
RATE = 0.03
SIGMA = 0.25
MATURITY = 1.0
N_STEPS = 252
N_PATHS = 100_000  # demo; production pricing uses 50 million paths

np.random.seed(12345)
dt = MATURITY / N_STEPS
drift = (RATE - 0.5 * SIGMA**2) * dt
vol = SIGMA * np.sqrt(dt)

S = np.full(N_PATHS, S0)
running_sum = np.zeros(N_PATHS)
running_max = S.copy()
for step in range(N_STEPS):
    z = np.random.standard_normal(N_PATHS)
    S = S * np.exp(drift + vol * z)
    running_sum += S
    running_max = np.maximum(running_max, S)

discount = np.exp(-RATE * MATURITY)
asian_payoff = np.maximum(running_sum / N_STEPS - STRIKE, 0.0)
barrier_payoff = np.where(running_max < BARRIER, np.maximum(S - STRIKE, 0.0), 0.0)


def summarise(name, payoff):
    price = discount * np.mean(payoff)
    stderr = discount * np.std(payoff) / np.sqrt(payoff.shape[0])
    print(f"{name:>8s}: {float(price):8.4f} +/- {float(stderr):.4f}")
    return price


asian = summarise("asian", asian_payoff)
barrier = summarise("barrier", barrier_payoff)

print("convergence of the Asian price with the number of paths:")
for n in (1_000, 10_000, 100_000):
    estimate = discount * np.mean(asian_payoff[:n])
    print(f"{n:>7d} paths: {float(estimate):.4f}")
