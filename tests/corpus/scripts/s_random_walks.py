"""Diffusion from unbiased random walks: many independent walkers advanced
together, checked against a single-walker reference implementation."""
import numpy as np
import matplotlib.pyplot as plt

N_WALKERS = 5000  # demo
N_STEPS = 1000
P_RIGHT = 0.5
STEP = 1.0
N_REFERENCE = 200

rng = np.random.default_rng(99)

# all walkers at once: column t is built from column t - 1
steps = np.where(rng.random((N_WALKERS, N_STEPS)) < P_RIGHT, STEP, -STEP)
walk = np.zeros((N_WALKERS, N_STEPS + 1))
msd = np.zeros(N_STEPS + 1)
for t in range(1, N_STEPS + 1):
    walk[:, t] = walk[:, t - 1] + steps[:, t - 1]
    msd[t] = np.mean(walk[:, t] ** 2)


def single_walker(n_steps, p_right):
    """Reference: one walker, one step at a time."""
    x = np.zeros(n_steps + 1)
    for t in range(1, n_steps + 1):
        step = 2 * int(np.random.random() < p_right) - 1
        x[t] = x[t - 1] + step
    return x


np.random.seed(5)
reference = np.array([single_walker(N_STEPS, P_RIGHT)[-1] for _ in range(N_REFERENCE)])

slope = msd[-1] / N_STEPS
print(f"MSD slope {float(slope):.3f} (expected {STEP**2:.3f})")
print("reference walkers: mean square end", float(np.mean(reference**2)))

plt.loglog(np.arange(1, N_STEPS + 1), msd[1:])
plt.xlabel("steps")
plt.ylabel("mean square displacement")
plt.savefig("msd.png")
counts, edges = np.histogram(walk[:, -1], bins=50)
plt.figure()
plt.stairs(counts, edges)
plt.savefig("end_positions.png")
