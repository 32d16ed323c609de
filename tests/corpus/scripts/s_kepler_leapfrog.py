"""Kepler orbit of a planet around a fixed star (units AU, yr).

Velocity-Verlet over 2-D position and velocity vectors; energy and angular
momentum are recorded every step to check conservation.
"""
import numpy as np
import matplotlib.pyplot as plt

GM = 4.0 * np.pi**2  # AU^3 / yr^2
DT = 1.0e-3  # yr
N_STEPS = 10_000
ECC = 0.3


def acceleration(r):
    return -GM * r / np.linalg.norm(r) ** 3


r = np.array([1.0 + ECC, 0.0])
v = np.array([0.0, np.sqrt(GM * (1.0 - ECC) / (1.0 + ECC))])
traj = np.zeros((N_STEPS, 2))
energy = np.zeros(N_STEPS)
ang_mom = np.zeros(N_STEPS)

a = acceleration(r)
for n in range(N_STEPS):
    v = v + 0.5 * DT * a
    r = r + DT * v
    a = acceleration(r)
    v = v + 0.5 * DT * a
    traj[n] = r
    energy[n] = 0.5 * np.dot(v, v) - GM / np.linalg.norm(r)
    ang_mom[n] = r[0] * v[1] - r[1] * v[0]

rel_drift = np.abs(energy - energy[0]) / np.abs(energy[0])
print(f"max relative energy drift {float(rel_drift.max()):.2e}")
print(f"angular momentum spread {float(ang_mom.max() - ang_mom.min()):.2e}")

plt.plot(traj[:, 0], traj[:, 1], lw=0.5)
plt.plot(traj[::100, 0], traj[::100, 1], ".", ms=3)
plt.plot([0.0], [0.0], "y*", ms=15)
plt.gca().set_aspect("equal")
plt.savefig("kepler_orbit.png")
