"""Charged particles in crossed electric and magnetic fields (Boris pusher).

Tracks the guiding-centre drift and compares it with E x B / B^2.
"""
import numpy as np
import matplotlib.pyplot as plt

N_PART = 500  # demo
Q_OVER_M = 1.0
B = np.array([0.0, 0.0, 1.0])
E = np.array([0.1, 0.0, 0.0])
DT = 0.05
N_STEPS = 2000
RECORD_EVERY = 10
REPORT_EVERY = 500

rng = np.random.default_rng(1)
x = rng.normal(0.0, 1.0, size=(N_PART, 3))
v = rng.normal(0.0, 0.5, size=(N_PART, 3))


def boris_push(x, v, dt):
    """Advance positions and velocities in place by one step."""
    t = 0.5 * Q_OVER_M * dt * B
    s = 2.0 * t / (1.0 + np.dot(t, t))
    v_minus = v + 0.5 * Q_OVER_M * dt * E
    v_prime = v_minus + np.cross(v_minus, t)
    v_plus = v_minus + np.cross(v_prime, s)
    v[:] = v_plus + 0.5 * Q_OVER_M * dt * E
    x += v * dt


centre_track = np.empty((0, 3))
speeds = []
snapshots = []
for step in range(N_STEPS):
    boris_push(x, v, DT)
    centre_track = np.vstack([centre_track, x.mean(axis=0)])
    speeds.append(np.sqrt(np.sum(v * v, axis=1)))
    speed_table = np.vstack(speeds)
    if step % RECORD_EVERY == 0:
        snapshots.append(x.copy())
    if step % REPORT_EVERY == 0:
        print(f"step {step}: mean speed so far {speed_table.mean():.3f}")

trajectories = np.stack(snapshots)
drift = (centre_track[-1] - centre_track[0]) / (N_STEPS * DT)
expected = np.cross(E, B) / np.dot(B, B)
print("measured drift", drift, "expected", expected)

plt.plot(trajectories[:, :20, 0], trajectories[:, :20, 1], lw=0.5)
plt.plot(centre_track[:, 0], centre_track[:, 1], "k", lw=2)
plt.savefig("exb_drift.png")
