"""Triangular solves written with explicit loops.

The factorisation routines of this package call these after LU or Cholesky.
They are kept loop-based so that the operation count can be read next to the
textbook derivation; ``solve_lower_batched`` is the one-call form.
"""
import numpy as np


def forward_substitution(L, b):
    """Solve ``L y = b`` for a lower-triangular ``L`` (row-oriented)."""
    if not np.allclose(L, np.tril(L)):
        raise ValueError("L is not lower triangular")
    n = L.shape[0]
    y = np.zeros(n, dtype=L.dtype)
    for i in range(n):
        if L[i, i] == 0.0:
            raise np.linalg.LinAlgError("singular triangular matrix")
        y[i] = (b[i] - L[i, :i] @ y[:i]) / L[i, i]
    return y


def back_substitution(U, y):
    """Solve ``U x = y`` for an upper-triangular ``U``."""
    n = U.shape[0]
    x = np.zeros(n, dtype=U.dtype)
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - np.dot(U[i, i + 1:], x[i + 1:])) / U[i, i]
    return x


def forward_substitution_columns(L, b):
    """Column-oriented variant: after fixing y[j], eliminate it from the rest."""
    y = b.astype(np.float64)
    n = y.shape[0]
    for j in range(n):
        y[j] /= L[j, j]
        y[j + 1:] -= y[j] * L[j + 1:, j]
    return y


def unit_lower_solve(L, B):
    """Solve ``L X = B`` for unit lower-triangular ``L`` and many right-hand sides."""
    n = L.shape[0]
    X = B.astype(np.float64)
    for i in range(1, n):
        X[i, :] -= L[i, :i] @ X[:i, :]
    return X


def solve_lower_batched(L, B):
    """The port-ready form: one library call for every right-hand side."""
    return np.linalg.solve(L, B)


def triangular_residual(L, x, b):
    """Relative residual of a solve, as a Python float."""
    r = L @ x - b
    return float(np.linalg.norm(r) / np.linalg.norm(b))
