"""Gray-Scott reaction-diffusion on a periodic grid; a frame every 100 steps."""

import os
import tempfile

import matplotlib.pyplot as plt
import numpy as np

N = 48
STEPS = 200
DU, DV = 0.16, 0.08
F, K = 0.035, 0.065

outdir = tempfile.mkdtemp(prefix="gray-scott-")


def laplacian(z):
    return (np.roll(z, 1, axis=0) + np.roll(z, -1, axis=0)
            + np.roll(z, 1, axis=1) + np.roll(z, -1, axis=1) - 4.0 * z)


def main():
    u = np.ones((N, N))
    v = np.zeros((N, N))
    r = N // 8
    u[N // 2 - r: N // 2 + r, N // 2 - r: N // 2 + r] = 0.5
    v[N // 2 - r: N // 2 + r, N // 2 - r: N // 2 + r] = 0.25
    for n in range(STEPS):
        uvv = u * v * v
        u += DU * laplacian(u) - uvv + F * (1.0 - u)
        v += DV * laplacian(v) + uvv - (F + K) * v
        if n % 100 == 0:
            fig, ax = plt.subplots()
            image = ax.imshow(v, cmap="viridis")
            fig.colorbar(image, ax=ax)
            fig.savefig(os.path.join(outdir, f"gs_{n:04d}.png"))
            plt.close(fig)
    print("mean v:", float(v.mean()))


if __name__ == "__main__":
    main()
