"""Elementwise transforms written with NumPy's iterator helpers and Python
iteration, as found in older utility modules."""
import numpy as np


def clip_outliers(Z, thr):
    """Clamp entries whose magnitude exceeds thr, keeping their sign."""
    out = np.empty_like(Z)
    for idx, v in np.ndenumerate(Z):
        if abs(v) > thr:
            out[idx] = np.sign(v) * thr
        else:
            out[idx] = v
    return out


def sum_positive(a):
    """Sum of the positive entries, item by item."""
    total = 0.0
    for x in np.nditer(a):
        if x > 0:
            total += float(x)
    return total


def scale_in_place(a, factor):
    """Multiply every entry in place through a read-write iterator."""
    with np.nditer(a, op_flags=["readwrite"]) as it:
        for x in it:
            x[...] = x * factor
    return a


def window_max(img):
    """3x3 maximum filter over the interior, pixel by pixel."""
    out = np.zeros_like(img)
    H, W = img.shape
    for i, j in np.ndindex(H - 2, W - 2):
        out[i + 1, j + 1] = img[i:i + 3, j:j + 3].max()
    return out


def count_above(a: np.ndarray, level: float) -> int:
    count = 0
    for v in a.flat:
        if v > level:
            count += 1
    return count


def row_peaks(X):
    """Column of the largest entry of each row, as a list."""
    peaks = []
    for i, row in enumerate(X):
        peaks.append(int(np.argmax(row)))
    return peaks


def row_peaks_matrix(X):
    """Same for a 2-D array, into an integer array."""
    peaks = np.empty(X.shape[0], dtype=np.int64)
    for i, row in enumerate(X):
        peaks[i] = np.argmax(row)
    return peaks


def frame_energies(X, hop):
    """Energy of consecutive frames of a 1-D signal known only through np.shape."""
    n = np.shape(X)[0]
    energies = []
    for start in range(0, n - hop + 1, hop):
        energies.append(np.sum(X[start:start + hop] ** 2))
    return energies


def frame_energies_vectorised(X, hop):
    n = (X.shape[0] // hop) * hop
    return np.sum(X[:n].reshape(-1, hop) ** 2, axis=1)


def squares_list(a: np.ndarray) -> list:
    """Python list of squares (the array goes to the host once)."""
    return [v * v for v in a.tolist()]
