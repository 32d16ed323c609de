"""Vectorised numerical kernels with no Python element loops: distances,
softmax, normalisation, masks and small bookkeeping loops."""
import numpy as np


def pairwise_sq_distances(X, Y):
    """Squared Euclidean distances between the rows of X and of Y."""
    xx = np.sum(X * X, axis=1)[:, None]
    yy = np.sum(Y * Y, axis=1)[None, :]
    return np.maximum(xx + yy - 2.0 * (X @ Y.T), 0.0)


def softmax(z, axis=-1):
    shifted = z - np.max(z, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def standardise(X):
    mu = X.mean(axis=0)
    sd = np.sqrt(X.var(axis=0))
    return (X - mu) / np.where(sd > 0, sd, 1.0)


def clamp_negative(arr):
    arr[arr < 0.0] = 0.0
    return arr


def gradient_magnitude(field):
    """Central differences along every axis."""
    total = np.zeros_like(field)
    for axis in range(field.ndim):
        d = (np.roll(field, -1, axis=axis) - np.roll(field, 1, axis=axis)) / 2.0
        total += d * d
    return np.sqrt(total)


def diagonal_matrix(v):
    """Square matrix with v on its diagonal, then one corner set."""
    D = np.diag(v)
    D[0, -1] = 1.0
    return D


def shifted_diagonal(M):
    d = np.diag(M).copy()
    d += 1.0
    return d


def flattened_scaled(a):
    flat = a.flatten()
    flat *= 2.0
    return flat


def summary(a):
    """Host-side summary of an array's metadata."""
    dims = list(a.shape)
    n = len(a)
    biggest = max(n, 1)
    return {"dims": dims, "rows": n, "size": biggest * a.size // n}


def block_totals(a, n_blocks):
    """Sum of each of n_blocks pieces of a vector."""
    totals = []
    for part in np.array_split(a, n_blocks):
        totals.append(part.sum())
    return np.array(totals)


def as_c_contiguous(a):
    return np.asarray(a, order="C")


def topk_rows(scores, k):
    idx = np.argpartition(-scores, k, axis=1)[:, :k]
    return np.take_along_axis(scores, idx, axis=1)
