"""Cleaning a noisy signal the way a first NumPy draft often does.

Run under cuPyNumeric Doctor by ``python -m tests.oracle_support capture``;
the report beside this file is what Doctor wrote. Line numbers matter: the
tests pin findings to them.
"""

import numpy as np


def moving_average(signal, width):
    out = np.zeros_like(signal)
    for i in range(width, signal.shape[0]):
        out[i] = (signal[i - 1] + signal[i]) / 2.0
    return out


def row_energy(matrix):
    energies = np.zeros(matrix.shape[0])
    k = 0
    for row in matrix:
        energies[k : k + 1] = np.sum(row * row)
        k += 1
    return energies


def record(history, sample, steps):
    for _ in range(steps):
        history = np.vstack([history, sample])
    return history


def clip_outliers(x, limit):
    idx = np.nonzero(np.abs(x) > limit)
    x[idx] = limit
    return x


def relax(x, tol):
    for _ in range(40):
        x = 0.5 * x
        if float(np.max(np.abs(x))) < tol:
            break
    return x


def scaled(u, i):
    return u[i] * 2.0


def doubled_total(u):
    total = 0.0
    for i in range(u.shape[0]):
        total += scaled(u, i)
    return total


def main():
    rng = np.random.default_rng(7)
    signal = rng.random(64)
    smooth = moving_average(signal, 2)
    energies = row_energy(np.ones((12, 4)))
    history = record(np.zeros((1, 4)), np.ones((1, 4)), 5)
    clipped = clip_outliers((signal - 0.5).reshape(8, 8), 0.4)
    relaxed = relax(np.ones(16), 1e-3)
    largest = max(smooth)
    print(largest, energies.shape, history.shape, doubled_total(smooth[:16]))
    print(float(clipped.sum()), relaxed.shape, smooth.tolist()[:2])


if __name__ == "__main__":
    main()
