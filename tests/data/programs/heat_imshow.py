"""2-D heat diffusion: explicit five-point stencil, a frame every 50 steps."""

import os
import tempfile

import matplotlib.pyplot as plt
import numpy as np

N = 64
STEPS = 200
ALPHA = 0.2
FRAME_EVERY = 50

outdir = tempfile.mkdtemp(prefix="heat-frames-")


def initial_field(n):
    u = np.zeros((n, n))
    u[n // 4: 3 * n // 4, n // 4: 3 * n // 4] = 100.0
    return u


def step(u, out):
    out[1:-1, 1:-1] = u[1:-1, 1:-1] + ALPHA * (
        u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1]
    )
    return out


def main():
    u = initial_field(N)
    nxt = u.copy()
    for n in range(STEPS):
        step(u, nxt)
        u, nxt = nxt, u
        if n % FRAME_EVERY == 0:
            fig, ax = plt.subplots()
            ax.imshow(u, cmap="inferno", vmin=0.0, vmax=100.0)
            ax.set_title(f"step {n}")
            fig.savefig(os.path.join(outdir, f"heat_{n:04d}.png"))
            plt.close(fig)
    print("heat left:", float(u.sum()))


if __name__ == "__main__":
    main()
