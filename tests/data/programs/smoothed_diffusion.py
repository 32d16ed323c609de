"""Diffusion of a random field smoothed once with SciPy; a picture and the variance history at the end."""

import os
import tempfile

import matplotlib.pyplot as plt
import numpy as np
from scipy import ndimage

N = 32
STEPS = 150
NU = 0.2

outdir = tempfile.mkdtemp(prefix="smoothed-")


def main():
    noise = np.random.default_rng(1).random((N, N))
    field = np.asarray(ndimage.gaussian_filter(noise, sigma=3.0))
    history = np.zeros(STEPS)
    for n in range(STEPS):
        field[1:-1, 1:-1] += NU * (field[2:, 1:-1] + field[:-2, 1:-1] + field[1:-1, 2:]
                                   + field[1:-1, :-2] - 4.0 * field[1:-1, 1:-1])
        history[n] = np.var(field)
    fig, (left, right) = plt.subplots(1, 2)
    left.imshow(field, cmap="magma")
    right.plot(history)
    fig.savefig(os.path.join(outdir, "diffusion.png"))
    plt.close(fig)
    print("variance:", float(history[-1]))


if __name__ == "__main__":
    main()
