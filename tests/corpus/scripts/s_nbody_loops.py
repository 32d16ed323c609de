"""Direct-summation gravitational N-body with a kick-drift-kick leapfrog.

Forces are summed pair by pair in Python loops; this is the reference
implementation the vectorised code is checked against.
"""
import numpy as np
import matplotlib.pyplot as plt

N = 100  # particles (demo size)
G = 1.0
SOFTENING = 0.05
CUTOFF = 5.0
DT = 0.01
N_STEPS = 500
PLOT_EVERY = 100

rng = np.random.default_rng(42)


def compute_accelerations(pos, mass):
    """Acceleration of every particle from every other one (softened, cut off)."""
    acc = np.zeros_like(pos)
    n = pos.shape[0]
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            dx = pos[j, 0] - pos[i, 0]
            dy = pos[j, 1] - pos[i, 1]
            dz = pos[j, 2] - pos[i, 2]
            r2 = dx * dx + dy * dy + dz * dz + SOFTENING**2
            if r2 > CUTOFF**2:
                continue
            inv_r3 = r2**-1.5
            acc[i, 0] += G * mass[j] * dx * inv_r3
            acc[i, 1] += G * mass[j] * dy * inv_r3
            acc[i, 2] += G * mass[j] * dz * inv_r3
    return acc


def kinetic_energy(vel, mass):
    return 0.5 * np.sum(mass * np.sum(vel * vel, axis=1))


pos = rng.normal(0.0, 1.0, size=(N, 3))
vel = rng.normal(0.0, 0.1, size=(N, 3))
mass = np.full(N, 20.0 / N)
vel -= np.sum(mass[:, None] * vel, axis=0) / np.sum(mass)  # zero total momentum

acc = compute_accelerations(pos, mass)
ke = np.zeros(N_STEPS)
com = np.zeros((N_STEPS, 3))
for step in range(N_STEPS):
    vel += 0.5 * DT * acc
    pos += DT * vel
    acc = compute_accelerations(pos, mass)
    vel += 0.5 * DT * acc
    ke[step] = kinetic_energy(vel, mass)
    com[step] = np.sum(mass[:, None] * pos, axis=0) / np.sum(mass)
    if step % PLOT_EVERY == 0:
        plt.scatter(pos[:, 0], pos[:, 1], s=2, label=f"step {step}")
        print(f"step {step}: KE = {float(ke[step]):.4f}")

plt.legend()
plt.savefig("nbody_loops.png")
print("kinetic energy change", float((ke[-1] - ke[0]) / ke[0]))
