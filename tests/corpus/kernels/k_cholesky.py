"""Cholesky factorisation in the two textbook orders, plus the library form."""
import numpy as np


def cholesky_banachiewicz(A):
    """Row-by-row Cholesky: ``A = L L^T`` for a symmetric positive-definite ``A``."""
    n = A.shape[0]
    L = np.zeros_like(A, dtype=float)
    for i in range(n):
        for j in range(i + 1):
            s = np.dot(L[i, :j], L[j, :j])
            if i == j:
                L[i, j] = np.sqrt(A[i, i] - s)
            else:
                L[i, j] = (A[i, j] - s) / L[j, j]
    return L


def cholesky_crout(A):
    """Column-by-column Cholesky with a positive-definiteness check."""
    n = A.shape[0]
    L = np.zeros((n, n))
    for j in range(n):
        d = A[j, j] - L[j, :j] @ L[j, :j]
        if d <= 0.0:
            raise ValueError(f"matrix is not positive definite (pivot {j})")
        L[j, j] = np.sqrt(d)
        L[j + 1:, j] = (A[j + 1:, j] - L[j + 1:, :j] @ L[j, :j]) / L[j, j]
    return L


def cholesky_solve(A, b):
    """Solve ``A x = b`` with the library factorisation (the port-ready form)."""
    L = np.linalg.cholesky(A)
    y = np.linalg.solve(L, b)
    return np.linalg.solve(L.T, y)


def is_spd(A, tol=1e-12):
    """Symmetric and with positive eigenvalues."""
    if not np.allclose(A, A.T):
        return False
    return bool(np.all(np.linalg.eigvalsh(A) > tol))


def batched_logdet(covs):
    """Log-determinants of a stack of covariance matrices of shape (k, d, d)."""
    out = np.empty(covs.shape[0])
    for k in range(covs.shape[0]):
        L = np.linalg.cholesky(covs[k])
        out[k] = 2.0 * np.sum(np.log(np.diag(L)))
    return out


def batched_logdet_vectorised(covs):
    L = np.linalg.cholesky(covs)
    return 2.0 * np.sum(np.log(np.diagonal(L, axis1=1, axis2=2)), axis=1)
