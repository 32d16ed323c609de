"""Denoising filters for fluorescence microscopy frames.

The neighbourhood operators are Numba stencils; the 3 x 3 median is written
as plain loops and compiled with ``numba.njit`` at import time. ``Denoiser``
chains them into the pipeline used by the acquisition software.
"""
from __future__ import annotations

import numba
import numpy as np
from numba import stencil


@stencil
def _laplace5(a):
    return a[-1, 0] + a[1, 0] + a[0, -1] + a[0, 1] - 4.0 * a[0, 0]


@stencil(neighborhood=((-1, 1), (-1, 1)))
def _box3(a):
    acc = 0.0
    for di in range(-1, 2):
        for dj in range(-1, 2):
            acc += a[di, dj]
    return acc / 9.0


def _median3_loops(img, out):
    """3 x 3 median of every interior pixel into out."""
    h, w = img.shape
    window = np.empty(9)
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            k = 0
            for di in range(-1, 2):
                for dj in range(-1, 2):
                    window[k] = img[i + di, j + dj]
                    k += 1
            out[i, j] = np.median(window)
    return out


median3 = numba.njit(_median3_loops)


def hot_pixels(img: np.ndarray, n_sigma: float = 6.0) -> list[tuple[int, int]]:
    """Coordinates of pixels far above the frame's noise level."""
    level = img.mean() + n_sigma * img.std()
    found = []
    h, w = img.shape
    for i in range(h):
        for j in range(w):
            if img[i, j] > level:
                found.append((i, j))
    return found


class Denoiser:
    """Perona-Malik diffusion, box blur and median despeckling."""

    def __init__(self, n_iter: int = 20, kappa: float = 0.1, dt: float = 0.2) -> None:
        self.n_iter = n_iter
        self.kappa = kappa
        self.dt = dt

    def diffuse(self, img: np.ndarray) -> np.ndarray:
        u = img.astype(np.float64)
        for _ in range(self.n_iter):
            gy, gx = np.gradient(u)
            g = 1.0 / (1.0 + (gx * gx + gy * gy) / self.kappa ** 2)
            u = u + self.dt * g * _laplace5(u)
        return u

    def blur(self, img: np.ndarray) -> np.ndarray:
        return _box3(img.astype(np.float64))

    def despeckle(self, img: np.ndarray) -> np.ndarray:
        out = img.astype(np.float64)
        return median3(img.astype(np.float64), out)

    def repair(self, img: np.ndarray, bad: np.ndarray) -> np.ndarray:
        """Replace the masked pixels with the local median."""
        fixed = img.astype(np.float64)
        med = self.despeckle(img)
        rows, cols = np.nonzero(bad)
        fixed[rows, cols] = med[rows, cols]
        return fixed

    def coverage(self, img: np.ndarray, levels: list[float]) -> np.ndarray:
        """Fraction of the frame above each intensity level."""
        fractions = []
        for level in levels:
            fractions.append(np.mean(img > level))
        return np.array(fractions)
