"""Two-stream instability with a 1-D electrostatic particle-in-cell code.

Charge is deposited cloud-in-cell by looping over particles, the field is
solved with FFTs, and the field energy growth rate is fitted at the end.
"""
import numpy as np
import matplotlib.pyplot as plt

N_PARTICLES = 20000  # demo; production uses 10^7
N_GRID = 256
BOX = 50.0
V_BEAM = 3.0
V_TH = 0.5
DT = 0.1
N_STEPS = 400
DIAG_EVERY = 50

dx = BOX / N_GRID
k = 2.0 * np.pi * np.fft.fftfreq(N_GRID, d=dx)
k[0] = 1.0  # the mean mode is removed below; avoid dividing by zero


def deposit(x, q_per_particle):
    """Cloud-in-cell charge density on the periodic grid."""
    rho = np.zeros(N_GRID)
    for p in range(x.shape[0]):
        j = int(x[p] / dx)
        w = x[p] / dx - j
        rho[j % N_GRID] += q_per_particle * (1.0 - w)
        rho[(j + 1) % N_GRID] += q_per_particle * w
    return rho / dx


def solve_field(rho):
    """E from Gauss's law in Fourier space."""
    rho_k = np.fft.fft(rho - np.mean(rho))
    phi_k = rho_k / k**2
    phi_k[0] = 0.0
    return np.fft.ifft(-1j * k * phi_k).real


def gather(field, x):
    """Linear interpolation of the grid field to the particles."""
    j = np.floor(x / dx).astype(int)
    w = x / dx - j
    return field[j % N_GRID] * (1.0 - w) + field[(j + 1) % N_GRID] * w


rng = np.random.default_rng(7)
x = rng.uniform(0.0, BOX, N_PARTICLES)
v = V_TH * rng.normal(0.0, 1.0, N_PARTICLES)
half = N_PARTICLES // 2
v[:half] += V_BEAM
v[half:] -= V_BEAM
q_per_particle = -BOX / N_PARTICLES  # electrons at unit mean density

field_energy = []
E = solve_field(deposit(x, q_per_particle))
for step in range(N_STEPS):
    v -= gather(E, x) * DT
    x += v * DT
    x = np.mod(x, BOX)
    E = solve_field(deposit(x, q_per_particle))
    field_energy.append(0.5 * np.sum(E**2) * dx)
    if step % DIAG_EVERY == 0:
        plt.figure()
        plt.scatter(x[::50], v[::50], s=1)
        plt.savefig(f"phase_{step:04d}.png")
        plt.close()

field_energy = np.array(field_energy)
t = np.arange(N_STEPS) * DT
growth = np.polyfit(t[50:150], np.log(field_energy[50:150]), 1)[0] / 2.0
print(f"fitted growth rate {growth:.3f}")
plt.semilogy(t, field_energy)
plt.savefig("field_energy.png")
