"""Drossel-Schwabl forest-fire cellular automaton on a periodic square grid."""
import numpy as np
import matplotlib.pyplot as plt

N = 200  # grid (demo)
P_GROW = 0.05
F_LIGHTNING = 1.0e-5
N_STEPS = 1000
PLOT_EVERY = 200
EMPTY, TREE, FIRE = 0, 1, 2

rng = np.random.default_rng(8)
forest = np.where(rng.random((N, N)) < 0.5, TREE, EMPTY)


def burning_neighbour(state):
    """True where at least one of the four neighbours is on fire."""
    fire = state == FIRE
    return np.roll(fire, 1, 0) | np.roll(fire, -1, 0) | np.roll(fire, 1, 1) | np.roll(fire, -1, 1)


tree_count = np.zeros(N_STEPS)
fire_count = np.zeros(N_STEPS)
for step in range(N_STEPS):
    new = forest.copy()
    burning = np.nonzero(forest == FIRE)
    new[burning] = EMPTY
    strike = rng.random((N, N)) < F_LIGHTNING
    new[(forest == TREE) & (burning_neighbour(forest) | strike)] = FIRE
    sprout = rng.random((N, N)) < P_GROW
    new[(forest == EMPTY) & sprout] = TREE
    forest[:] = new
    tree_count[step] = np.count_nonzero(forest == TREE)
    fire_count[step] = np.count_nonzero(forest == FIRE)
    if step % PLOT_EVERY == 0:
        rows, cols = np.nonzero(forest == FIRE)
        plt.figure()
        plt.scatter(cols, rows, s=1, c="red")
        plt.savefig(f"fire_{step:04d}.png")
        plt.close()

big = np.where(fire_count > np.percentile(fire_count, 95))[0]
trees_at_big_fires = tree_count[big]
first = np.nonzero(fire_count)[0][0]
print(f"first fire at step {first}; mean forest before big fires {float(trees_at_big_fires.mean()):.0f}")
plt.figure()
plt.plot(tree_count / N**2, label="trees")
plt.plot(fire_count / N**2, label="fire")
plt.legend()
plt.savefig("forest_counts.png")
