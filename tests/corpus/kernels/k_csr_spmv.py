"""Compressed-sparse-row kernels on plain NumPy arrays (indptr, indices, data).

No scipy here: the arrays come from a mesh generator that writes CSR directly.
"""
import numpy as np


def csr_matvec(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray, x: np.ndarray) -> np.ndarray:
    """y = A @ x, one row at a time."""
    n_rows = indptr.shape[0] - 1
    y = np.zeros(n_rows, dtype=data.dtype)
    for r in range(n_rows):
        lo, hi = indptr[r], indptr[r + 1]
        y[r] = np.dot(data[lo:hi], x[indices[lo:hi]])
    return y


def csr_matvec_segments(indptr, indices, data, x):
    """Same product without a Python loop: gather, multiply, segment-sum."""
    n_rows = indptr.shape[0] - 1
    row_of = np.repeat(np.arange(n_rows), np.diff(indptr))
    return np.bincount(row_of, weights=data * x[indices], minlength=n_rows)


def csr_from_dense(A, tol=0.0):
    """CSR arrays of a dense matrix."""
    rows, cols = np.nonzero(np.abs(A) > tol)
    data = A[rows, cols]
    counts = np.bincount(rows, minlength=A.shape[0])
    indptr = np.concatenate(([0], np.cumsum(counts)))
    return indptr, cols, data


def csr_row_norms(indptr, data):
    """Euclidean norm of every row."""
    n_rows = len(indptr) - 1
    sq = data * data
    out = np.empty(n_rows)
    for r in range(n_rows):
        out[r] = np.sqrt(sq[indptr[r]:indptr[r + 1]].sum())
    return out


def csr_transpose_dense(indptr, indices, data, n_cols):
    """Dense transpose, scattering each row into a column."""
    n_rows = indptr.shape[0] - 1
    T = np.zeros((n_cols, n_rows))
    for r in range(n_rows):
        lo, hi = indptr[r], indptr[r + 1]
        T[indices[lo:hi], r] = data[lo:hi]
    return T


def spmv_power(indptr, indices, data, x0, n_iter):
    """Repeated products x <- A x / |A x|: a step loop around the row loop."""
    x = x0 / np.linalg.norm(x0)
    for _ in range(n_iter):
        y = csr_matvec(indptr, indices, data, x)
        x = y / np.linalg.norm(y)
    return x
