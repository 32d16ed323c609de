"""Smoothed-particle hydrodynamics toy star in 2-D.

A polytropic gas held by a linear gravity-like force relaxes to hydrostatic
equilibrium. Density and pressure forces are summed over particle pairs.
"""
import numpy as np
import matplotlib.pyplot as plt

N = 200  # particles (demo)
H = 0.15  # smoothing length
MASS = 2.0 / N
K_POLY = 0.1
N_POLY = 1.0
LAMBDA = 2.0
DAMPING = 1.0
DT = 0.04
N_STEPS = 300
PLOT_EVERY = 50


def kernel(r, h):
    """2-D cubic spline kernel W(r, h) for one distance."""
    q = r / h
    sigma = 10.0 / (7.0 * np.pi * h * h)
    if q < 1.0:
        return sigma * (1.0 - 1.5 * q**2 + 0.75 * q**3)
    if q < 2.0:
        return sigma * 0.25 * (2.0 - q) ** 3
    return 0.0


def kernel_slope(r, h):
    """dW/dr of the cubic spline, written without branches."""
    q = r / h
    sigma = 10.0 / (7.0 * np.pi * h * h)
    inner = -3.0 * q + 2.25 * q**2
    outer = -0.75 * (2.0 - q) ** 2
    return sigma / h * np.where(q < 1.0, inner, np.where(q < 2.0, outer, 0.0))


def density(pos):
    rho = np.zeros(pos.shape[0])
    for i in range(pos.shape[0]):
        for j in range(pos.shape[0]):
            r = np.sqrt((pos[i, 0] - pos[j, 0]) ** 2 + (pos[i, 1] - pos[j, 1]) ** 2)
            rho[i] += MASS * kernel(r, H)
    return rho


def pressure_acceleration(pos, rho, pressure):
    acc = np.zeros_like(pos)
    n = pos.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            dx = pos[i, 0] - pos[j, 0]
            dy = pos[i, 1] - pos[j, 1]
            r = np.sqrt(dx * dx + dy * dy)
            if r >= 2.0 * H or r == 0.0:
                continue
            grad = kernel_slope(r, H) / r
            f = MASS * (pressure[i] / rho[i] ** 2 + pressure[j] / rho[j] ** 2) * grad
            acc[i, 0] -= f * dx
            acc[i, 1] -= f * dy
            acc[j, 0] += f * dx
            acc[j, 1] += f * dy
    return acc


rng = np.random.default_rng(0)
pos = rng.uniform(-1.0, 1.0, size=(N, 2))
vel = np.zeros((N, 2))
for step in range(N_STEPS):
    rho = density(pos)
    pressure = K_POLY * rho ** (1.0 + 1.0 / N_POLY)
    acc = pressure_acceleration(pos, rho, pressure) - LAMBDA * pos - DAMPING * vel
    vel += acc * DT
    pos += vel * DT
    if step % PLOT_EVERY == 0:
        plt.figure()
        plt.scatter(pos[:, 0], pos[:, 1], c=rho, s=8)
        plt.savefig(f"star_{step:04d}.png")
        plt.close()

r_plot = np.linspace(0.0, 2.5 * H, 100)
w_profile = np.vectorize(kernel)(r_plot, H)
plt.figure()
plt.plot(r_plot, w_profile)
plt.savefig("sph_kernel.png")
