"""Smoothed-particle hydrodynamics kernels (2-D, cubic spline).

Hot kernels are written as plain Python and compiled by wrapping them with
Numba after their definition; the bookkeeping around them is NumPy. The time
integrator lives in the application package.
"""
import math

import numba
import numpy as np
from numba import guvectorize, njit

SOUND_SPEED = 10.0
GAMMA = 7.0


def _cubic_w(r, h):
    """Cubic spline kernel W(r, h), normalised in 2-D."""
    q = r / h
    sigma = 10.0 / (7.0 * math.pi * h * h)
    if q < 1.0:
        return sigma * (1.0 - 1.5 * q * q + 0.75 * q * q * q)
    if q < 2.0:
        return sigma * 0.25 * (2.0 - q) ** 3
    return 0.0


cubic_w = njit(_cubic_w)


def _density_sum(pos, mass, h, order, start, count, n_cells):
    """Density of every particle from the particles in its 3 x 3 cell block."""
    n = pos.shape[0]
    rho = np.zeros(n)
    size = 2.0 * h
    for i in range(n):
        ci = int(pos[i, 0] / size) % n_cells
        cj = int(pos[i, 1] / size) % n_cells
        for di in range(-1, 2):
            for dj in range(-1, 2):
                c = ((ci + di) % n_cells) * n_cells + (cj + dj) % n_cells
                for s in range(start[c], start[c] + count[c]):
                    j = order[s]
                    dx = pos[i, 0] - pos[j, 0]
                    dy = pos[i, 1] - pos[j, 1]
                    rho[i] += mass[j] * cubic_w(math.sqrt(dx * dx + dy * dy), h)
    return rho


density = numba.njit(_density_sum)


@njit
def lattice_positions(n_side, spacing):
    """Particles on a square lattice, the usual initial condition."""
    pos = np.zeros((n_side * n_side, 2))
    for a in range(n_side):
        for b in range(n_side):
            pos[a * n_side + b, 0] = (a + 0.5) * spacing
            pos[a * n_side + b, 1] = (b + 0.5) * spacing
    return pos


@guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)")
def tait_pressure(rho, rho0, p):
    """Weakly compressible equation of state."""
    b = rho0 * SOUND_SPEED * SOUND_SPEED / GAMMA
    for i in range(rho.shape[0]):
        p[i] = b * ((rho[i] / rho0) ** GAMMA - 1.0)


def cell_lists(pos, h, n_cells):
    """Particles sorted by cell, with each cell's start and count."""
    size = 2.0 * h
    cell = (pos // size).astype(np.int64) % n_cells
    key = cell[:, 0] * n_cells + cell[:, 1]
    order = np.argsort(key, kind="stable")
    count = np.bincount(key, minlength=n_cells * n_cells)
    start = np.concatenate(([0], np.cumsum(count)[:-1]))
    return order, start, count


def xsph_correction(pos, vel, mass, rho, h, eps=0.5):
    """XSPH velocity smoothing, one particle against all the others."""
    corr = np.zeros_like(vel)
    for i in range(pos.shape[0]):
        d = pos - pos[i]
        r = np.sqrt((d * d).sum(axis=1))
        w = np.where(r < 2.0 * h, mass / (0.5 * (rho + rho[i])) * (1.0 - r / (2.0 * h)), 0.0)
        corr[i] = eps * (w[:, None] * (vel - vel[i])).sum(axis=0)
    return vel + corr


def kinetic_energy_per_cell(vel, mass, cell_index, n_cells):
    """Kinetic energy gathered into cells."""
    energy = np.zeros(n_cells * n_cells)
    for i in range(vel.shape[0]):
        energy[cell_index[i]] += 0.5 * mass[i] * (vel[i, 0] ** 2 + vel[i, 1] ** 2)
    return energy


def relax_probe(signal, alpha=0.2):
    """First-order low-pass filter of a probe's time series."""
    out = np.empty_like(signal)
    out[0] = signal[0]
    for n in range(1, signal.shape[0]):
        out[n] = alpha * signal[n] + (1.0 - alpha) * out[n - 1]
    return out
