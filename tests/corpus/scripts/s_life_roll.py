"""Game of Life on a torus, whole-board updates with shifted copies."""
import numpy as np
import matplotlib.pyplot as plt

N = 256  # board (demo)
GENERATIONS = 500
PLOT_EVERY = 100

rng = np.random.default_rng(11)
alive = rng.random((N, N)) < 0.25


def count_neighbours(board):
    """Live neighbours of every cell, by summing the eight shifted boards."""
    cells = board.astype(np.int8)
    return sum(
        np.roll(np.roll(cells, di, axis=0), dj, axis=1)
        for di in (-1, 0, 1)
        for dj in (-1, 0, 1)
        if (di, dj) != (0, 0)
    )


population = np.zeros(GENERATIONS, dtype=int)
for gen in range(GENERATIONS):
    n = count_neighbours(alive)
    alive = (n == 3) | (alive & (n == 2))
    population[gen] = np.count_nonzero(alive)
    if gen % PLOT_EVERY == 0:
        plt.imshow(alive, cmap="binary")
        plt.savefig(f"torus_{gen:04d}.png")

print("largest population", max(population))
settled = all(population[-10:] == population[-1])
print("settled" if settled else "still changing")
plt.figure()
plt.plot(population)
plt.savefig("torus_population.png")
