"""Conway's Game of Life, updated cell by cell, with dead borders."""
import numpy as np
import matplotlib.pyplot as plt

N = 64  # board size (demo)
GENERATIONS = 200
SHOW_EVERY = 50
ALIVE_FRACTION = 0.2

np.random.seed(3)
grid = np.random.choice([0, 1], size=(N, N), p=[1 - ALIVE_FRACTION, ALIVE_FRACTION])
grid[0, :] = grid[-1, :] = grid[:, 0] = grid[:, -1] = 0


def live_neighbours(g, i, j):
    """Number of live cells among the eight around (i, j)."""
    return (
        g[i - 1, j - 1] + g[i - 1, j] + g[i - 1, j + 1]
        + g[i, j - 1] + g[i, j + 1]
        + g[i + 1, j - 1] + g[i + 1, j] + g[i + 1, j + 1]
    )


population = []
for gen in range(GENERATIONS):
    new_grid = grid.copy()
    for i in range(1, N - 1):
        for j in range(1, N - 1):
            n = live_neighbours(grid, i, j)
            if grid[i, j] == 1 and (n < 2 or n > 3):
                new_grid[i, j] = 0
            elif grid[i, j] == 0 and n == 3:
                new_grid[i, j] = 1
    grid[:] = new_grid
    population.append(int(grid.sum()))
    if gen % SHOW_EVERY == 0:
        plt.imshow(grid, cmap="binary")
        plt.title(f"generation {gen}")
        plt.savefig(f"life_{gen:03d}.png")

plt.figure()
plt.plot(population)
plt.xlabel("generation")
plt.ylabel("live cells")
plt.savefig("life_population.png")
print("final population", population[-1])
