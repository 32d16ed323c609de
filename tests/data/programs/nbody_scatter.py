"""Gravitational N-body with leapfrog steps; a scatter plot every 25 steps."""

import os
import tempfile

import matplotlib.pyplot as plt
import numpy as np

N = 48
STEPS = 100
DT = 0.01
SOFTENING = 0.1
G = 1.0

rng = np.random.default_rng(42)
outdir = tempfile.mkdtemp(prefix="nbody-frames-")


def accelerations(pos, mass):
    dx = pos[:, 0:1].T - pos[:, 0:1]
    dy = pos[:, 1:2].T - pos[:, 1:2]
    dz = pos[:, 2:3].T - pos[:, 2:3]
    inv_r3 = (dx**2 + dy**2 + dz**2 + SOFTENING**2) ** (-1.5)
    ax = G * (dx * inv_r3) @ mass
    ay = G * (dy * inv_r3) @ mass
    az = G * (dz * inv_r3) @ mass
    return np.hstack((ax, ay, az))


def main():
    mass = 20.0 * np.ones((N, 1)) / N
    pos = rng.random((N, 3)) * 2.0 - 1.0
    vel = (rng.random((N, 3)) - 0.5) * 0.1
    vel -= np.mean(mass * vel, 0) / np.mean(mass)
    acc = accelerations(pos, mass)
    for i in range(STEPS):
        vel += acc * DT / 2.0
        pos += vel * DT
        acc = accelerations(pos, mass)
        vel += acc * DT / 2.0
        if i % 25 == 0:
            fig, ax = plt.subplots()
            ax.scatter(pos[:, 0], pos[:, 1], s=10, color="tab:blue")
            ax.set_xlim(-2, 2)
            ax.set_ylim(-2, 2)
            fig.savefig(os.path.join(outdir, f"nbody_{i:04d}.png"))
            plt.close(fig)
    kinetic = 0.5 * np.sum(mass * vel**2)
    print("kinetic energy:", float(kinetic))


if __name__ == "__main__":
    main()
