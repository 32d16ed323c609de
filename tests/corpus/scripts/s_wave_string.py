"""Plucked string: the 1-D wave equation with fixed ends, second-order leapfrog.

Keeps a snapshot every SNAP_EVERY steps and the discrete energy every step,
then plots the snapshots stacked and the energy drift.
"""
import numpy as np
import matplotlib.pyplot as plt

N = 400  # grid points (demo)
C = 1.0
LENGTH = 1.0
T_END = 2.0
SNAP_EVERY = 100

x = np.linspace(0.0, LENGTH, N)
dx = LENGTH / (N - 1)
dt = 0.9 * dx / C
n_steps = int(T_END / dt)
courant2 = (C * dt / dx) ** 2


def pluck(x, x0=0.3, width=0.05):
    """Initial displacement: a narrow Gaussian bump."""
    return np.exp(-(((x - x0) / width) ** 2))


u_prev = pluck(x)
u = u_prev.copy()
u_next = np.zeros(N)
energy = np.zeros(n_steps)
snapshots = []

for n in range(n_steps):
    u_old = u_prev.copy()
    u_next[1:-1] = 2.0 * u[1:-1] - u_old[1:-1] + courant2 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    u_next[0] = 0.0
    u_next[-1] = 0.0
    velocity = (u_next - u_old) / (2.0 * dt)
    energy[n] = 0.5 * np.sum(velocity**2) * dx + 0.5 * C**2 * np.sum(np.diff(u) ** 2) / dx
    u_prev, u, u_next = u, u_next, u_prev
    if n % SNAP_EVERY == 0:
        snapshots.append(u.copy())

snapshots = np.array(snapshots)

plt.figure(figsize=(6, 8))
for k, snap in enumerate(snapshots):
    plt.plot(x, snap + 1.5 * k, color="k", lw=0.8)
plt.yticks([])
plt.savefig("string_snapshots.png")

drift = np.ptp(energy[10:]) / energy[10]
print(f"relative energy drift over the run: {drift:.2e}")
plt.figure()
plt.plot(np.arange(n_steps) * dt, energy)
plt.savefig("string_energy.png")
