"""Lennard-Jones fluid in 2-D with a cell list for the neighbour search."""
import numpy as np
import matplotlib.pyplot as plt

N_SIDE = 20
N = N_SIDE * N_SIDE  # particles (demo)
BOX = 24.0
R_CUT = 2.5
DT = 0.002
N_STEPS = 200
REBUILD_EVERY = 10

n_cells = int(BOX // R_CUT)
cell_size = BOX / n_cells


def build_cells(pos):
    """Lists of particle indices per cell, stored in an object array."""
    cells = np.empty((n_cells, n_cells), dtype=object)
    for a in range(n_cells):
        for b in range(n_cells):
            cells[a, b] = []
    idx = np.floor(pos / cell_size).astype(int) % n_cells
    for p in range(pos.shape[0]):
        cells[idx[p, 0], idx[p, 1]].append(p)
    return cells


def lj_forces(pos, cells):
    forces = np.zeros_like(pos)
    for a in range(n_cells):
        for b in range(n_cells):
            for da in (-1, 0, 1):
                for db in (-1, 0, 1):
                    others = cells[(a + da) % n_cells, (b + db) % n_cells]
                    for i in cells[a, b]:
                        for j in others:
                            if j <= i:
                                continue
                            d = pos[j] - pos[i]
                            d -= BOX * np.round(d / BOX)
                            r2 = d @ d
                            if r2 < R_CUT**2:
                                inv6 = 1.0 / r2**3
                                f = 24.0 * (2.0 * inv6**2 - inv6) / r2 * d
                                forces[i] -= f
                                forces[j] += f
    return forces


grid = (np.arange(N_SIDE) + 0.5) * (BOX / N_SIDE)
gx, gy = np.meshgrid(grid, grid)
pos = np.stack([gx.ravel(), gy.ravel()], axis=1)
rng = np.random.default_rng(4)
vel = rng.normal(0.0, 0.5, size=pos.shape)
vel -= vel.mean(axis=0)
species = np.array(["Ar"] * N, dtype=object)
ekin = np.zeros(N_STEPS)

cells = build_cells(pos)
for step in range(N_STEPS):
    if step % REBUILD_EVERY == 0:
        cells = build_cells(pos)
    vel += lj_forces(pos, cells) * DT
    pos += vel * DT
    pos %= BOX
    ekin[step] = 0.5 * np.sum(vel**2)

with open("final.xyz", "w") as fh:
    fh.write(f"{N}\nLJ fluid, box {BOX}\n")
    for name, (px, py) in zip(species, pos):
        fh.write(f"{name} {px:.4f} {py:.4f} 0.0\n")

plt.plot(np.arange(N_STEPS) * DT, ekin)
plt.savefig("lj_kinetic.png")
