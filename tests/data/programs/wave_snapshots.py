"""1-D wave equation, leapfrog in time, with an energy history and snapshots."""

import os
import tempfile

import matplotlib.pyplot as plt
import numpy as np

NX = 400
STEPS = 300
C = 1.0
DX = 1.0 / (NX - 1)
DT = 0.5 * DX / C
SNAP_EVERY = 100

outdir = tempfile.mkdtemp(prefix="wave-")


def main():
    x = np.linspace(0.0, 1.0, NX)
    u_prev = np.exp(-200.0 * (x - 0.3) ** 2)
    u = u_prev.copy()
    u_next = np.zeros(NX)
    r2 = (C * DT / DX) ** 2
    energy = np.zeros(STEPS)
    fig, ax = plt.subplots()
    for n in range(STEPS):
        u_next[1:-1] = 2.0 * u[1:-1] - u_prev[1:-1] + r2 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        u_next[0] = 0.0
        u_next[-1] = 0.0
        u_prev, u, u_next = u, u_next, u_prev
        energy[n] = np.sum(u * u) * DX
        if n % SNAP_EVERY == 0:
            ax.plot(x, u, label=f"t={n * DT:.3f}")
            plt.pause(0.001)
    ax.legend()
    fig.savefig(os.path.join(outdir, "wave.png"))
    plt.close(fig)
    print("final energy:", float(energy[-1]))


if __name__ == "__main__":
    main()
