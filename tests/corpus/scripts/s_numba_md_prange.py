"""Soft-disc molecular dynamics in a periodic 2-D box.

Harmonic repulsion between discs closer than one diameter. The O(N^2) pair
forces and the potential energy run in Numba kernels parallelised over
particles with prange; velocity Verlet and a weak velocity-rescaling
thermostat run in NumPy. At the end the script bins the discs into cells and
reports the temperature history.
"""
import math

import numba
import numpy as np
from numba import prange

N_SIDE = 40
N = N_SIDE * N_SIDE
BOX = 44.0
DIAMETER = 1.0
DT = 5e-3
N_STEPS = 300
T_TARGET = 0.5
TAU = 0.1
CELL = 2.0


@numba.njit(parallel=True, fastmath=True)
def pair_forces(pos, box, diameter):
    """Force on every disc from all the others (minimum-image convention)."""
    n = pos.shape[0]
    forces = np.zeros((n, 2))
    for i in prange(n):
        fx = 0.0
        fy = 0.0
        for j in range(n):
            if j == i:
                continue
            dx = pos[i, 0] - pos[j, 0]
            dy = pos[i, 1] - pos[j, 1]
            dx -= box * np.rint(dx / box)
            dy -= box * np.rint(dy / box)
            r2 = dx * dx + dy * dy
            if r2 < diameter * diameter:
                r = math.sqrt(r2)
                mag = (diameter - r) / (diameter * r)
                fx += mag * dx
                fy += mag * dy
        forces[i, 0] = fx
        forces[i, 1] = fy
    return forces


@numba.njit(parallel=True)
def potential_energy(pos, box, diameter):
    """Total harmonic overlap energy, each pair once."""
    n = pos.shape[0]
    total = 0.0
    for i in prange(n):
        for j in range(i + 1, n):
            dx = pos[i, 0] - pos[j, 0]
            dy = pos[i, 1] - pos[j, 1]
            dx -= box * round(dx / box)
            dy -= box * round(dy / box)
            r = math.sqrt(dx * dx + dy * dy)
            if r < diameter:
                total += 0.5 * (1.0 - r / diameter) ** 2
    return total


@numba.njit
def wrap_into_box(pos, box):
    """Fold coordinates back into [0, box) in place."""
    for i in range(pos.shape[0]):
        for k in range(2):
            pos[i, k] = pos[i, k] % box


@numba.njit
def drift(pos, vel, dt, box):
    """Position update of velocity Verlet, then periodic wrapping."""
    pos += dt * vel
    wrap_into_box(pos, box)


rng = np.random.default_rng(11)
g = (np.arange(N_SIDE) + 0.5) * (BOX / N_SIDE)
X, Y = np.meshgrid(g, g)
pos = np.column_stack([X.ravel(), Y.ravel()])
pos += rng.uniform(-0.05, 0.05, size=pos.shape)
vel = rng.normal(0.0, math.sqrt(T_TARGET), size=pos.shape)
vel -= vel.mean(axis=0)

f = pair_forces(pos, BOX, DIAMETER)
temperature = np.empty(N_STEPS)
energy = np.empty(N_STEPS)
for step in range(N_STEPS):
    vel += 0.5 * DT * f
    drift(pos, vel, DT, BOX)
    f = pair_forces(pos, BOX, DIAMETER)
    vel += 0.5 * DT * f
    kinetic = 0.5 * np.sum(vel * vel)
    temp = kinetic / N
    temperature[step] = temp
    energy[step] = kinetic + potential_energy(pos, BOX, DIAMETER)
    if float(temp) > 10.0 * T_TARGET:
        raise RuntimeError(f"unstable at step {step}")
    vel *= np.sqrt(1.0 + DT / TAU * (T_TARGET / temp - 1.0))

n_cells = int(BOX // CELL)
cell_of = (pos // CELL).astype(np.int64) % n_cells
occupancy = np.zeros((n_cells, n_cells), dtype=np.int64)
for i in range(N):
    occupancy[cell_of[i, 0], cell_of[i, 1]] += 1

drift_e = (energy[-1] - energy[0]) / abs(energy[0])
print(f"energy drift {drift_e:.2e}")
print(f"temperature {temperature.mean():.3f} +/- {temperature.std():.3f}")
print("fullest cell holds", occupancy.max(), "discs")
