"""Kernels of a D2Q9 lattice-Boltzmann code and its post-processing.

Some kernels are compiled with Numba, some are NumPy; the driver lives in
another module. Populations are stored as f[q, x, y].
"""
import math

import numba
import numpy as np
from numba import cfunc, jit, njit

CX = (0, 1, 0, -1, 0, 1, -1, -1, 1)
CY = (0, 0, 1, 0, -1, 1, 1, -1, -1)
W = (4 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 36, 1 / 36, 1 / 36, 1 / 36)
OPPOSITE = (0, 3, 4, 1, 2, 7, 8, 5, 6)


@njit(cache=True)
def collide_bgk(f, feq, omega):
    """Relax every population towards equilibrium."""
    nq, nx, ny = f.shape
    for q in range(nq):
        for i in range(nx):
            for j in range(ny):
                f[q, i, j] += omega * (feq[q, i, j] - f[q, i, j])


@jit(nopython=True, nogil=True)
def bounce_back(f, solid):
    """Full-way bounce-back on solid nodes."""
    nq, nx, ny = f.shape
    tmp = np.empty(nq)
    for i in range(nx):
        for j in range(ny):
            if solid[i, j]:
                for q in range(nq):
                    tmp[q] = f[q, i, j]
                for q in range(nq):
                    f[q, i, j] = tmp[OPPOSITE[q]]


@numba.jit("float64[:, :](float64[:, :, :])", nopython=True)
def density(f):
    return f.sum(axis=0)


@njit
def viscosity(tau, dx, dt):
    """Lattice kinematic viscosity for a relaxation time."""
    return (tau - 0.5) * dx * dx / (3.0 * dt)


@cfunc("float64(float64, float64)")
def inlet_profile(y, height):
    """Poiseuille inlet velocity at height y, for a C callback."""
    s = y / height
    return 4.0 * s * (1.0 - s)


@jit(forceobj=True)
def label_counts(labels, values):
    """Mean of values per region label (object mode: Python dicts)."""
    sums = {}
    counts = {}
    for k in range(values.shape[0]):
        key = int(labels[k])
        sums[key] = sums.get(key, 0.0) + values[k]
        counts[key] = counts.get(key, 0) + 1
    return {key: sums[key] / counts[key] for key in sums}


def equilibrium(rho, ux, uy):
    """D2Q9 equilibrium populations, one direction at a time."""
    feq = np.empty((9,) + rho.shape)
    usq = 1.5 * (ux * ux + uy * uy)
    for q in range(9):
        cu = 3.0 * (CX[q] * ux + CY[q] * uy)
        feq[q] = W[q] * rho * (1.0 + cu + 0.5 * cu * cu - usq)
    return feq


def stream(f):
    """Periodic streaming along each lattice velocity."""
    for q in range(9):
        f[q] = np.roll(np.roll(f[q], CX[q], axis=0), CY[q], axis=1)
    return f


def velocity_field(f, rho):
    """Macroscopic velocity, node by node."""
    nq, nx, ny = f.shape
    ux = np.zeros((nx, ny))
    uy = np.zeros((nx, ny))
    for i in range(nx):
        for j in range(ny):
            col = f[:, i, j]
            ux[i, j] = (col * np.array(CX)).sum() / rho[i, j]
            uy[i, j] = (col * np.array(CY)).sum() / rho[i, j]
    return ux, uy


def fluid_fraction(solid: np.ndarray) -> float:
    """Share of fluid nodes, counted row by row."""
    fluid = 0
    for row in solid:
        fluid += int(np.count_nonzero(~row))
    return fluid / solid.size


def vorticity_strided(ux, uy, every=4):
    """Vorticity on a coarse grid for quick-look plots."""
    dudy = np.gradient(ux, axis=1)
    dvdx = np.gradient(uy, axis=0)
    return (dvdx - dudy)[::every, ::every]


def reynolds(u_max, height, tau):
    return u_max * height / viscosity(tau, 1.0, 1.0) if tau > 0.5 else math.inf
