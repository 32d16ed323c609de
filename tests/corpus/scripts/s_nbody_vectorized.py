"""Vectorised gravitational N-body (leapfrog): all pair forces at once with
broadcasting, the result written into a preallocated buffer."""
import numpy as np
import matplotlib.pyplot as plt

N = 256  # particles (demo; production runs use 20k)
G = 1.0
SOFT = 0.05
DT = 0.005
N_STEPS = 1000
TRAIL_EVERY = 10


def accelerations(pos, mass, out):
    """Fill out[i, k] with the acceleration of particle i along axis k."""
    diff = pos[None, :, :] - pos[:, None, :]  # diff[i, j] = pos[j] - pos[i]
    inv_r3 = (np.sum(diff**2, axis=2) + SOFT**2) ** -1.5
    np.fill_diagonal(inv_r3, 0.0)
    for k in range(3):
        out[:, k] = G * np.sum(mass[None, :] * diff[:, :, k] * inv_r3, axis=1)


def total_energy(pos, vel, mass):
    kinetic = 0.5 * np.sum(mass[:, None] * vel**2)
    dist = np.sqrt(np.sum((pos[None, :, :] - pos[:, None, :]) ** 2, axis=2) + SOFT**2)
    pair = mass[:, None] * mass[None, :] / dist
    potential = -0.5 * G * (np.sum(pair) - np.sum(np.diag(pair)))
    return kinetic + potential


rng = np.random.default_rng(3)
pos = rng.normal(0.0, 1.0, size=(N, 3))
vel = rng.normal(0.0, 0.2, size=(N, 3))
mass = np.full(N, 1.0 / N)
acc = np.zeros_like(pos)
energy = np.zeros(N_STEPS)
trail = []

accelerations(pos, mass, acc)
for step in range(N_STEPS):
    vel += 0.5 * DT * acc
    pos += DT * vel
    accelerations(pos, mass, acc)
    vel += 0.5 * DT * acc
    energy[step] = total_energy(pos, vel, mass)
    if step % TRAIL_EVERY == 0:
        trail.append(pos[:, :2].copy())

trail = np.stack(trail)
drift = abs(energy[-1] - energy[0]) / abs(energy[0])
print(f"relative energy error {float(drift):.2e}")

plt.plot(trail[:, :8, 0], trail[:, :8, 1])
plt.gca().set_aspect("equal")
plt.savefig("nbody_trails.png")
