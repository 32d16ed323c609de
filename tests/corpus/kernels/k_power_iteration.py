"""Eigenvalue kernels: power iteration, inverse and Rayleigh-quotient
iteration, and deflation for a few leading eigenpairs."""
import numpy as np


def power_iteration(A, tol=1e-10, max_iter=1000):
    """Dominant eigenpair of a square matrix."""
    n = A.shape[0]
    v = np.ones(n) / np.sqrt(n)
    lam = 0.0
    for it in range(max_iter):
        w = A @ v
        lam = v @ w
        r = w - lam * v
        v = w / np.linalg.norm(w)
        if np.linalg.norm(r) < tol:
            break
    return lam, v


def inverse_iteration(A, mu, tol=1e-10, max_iter=200):
    """Eigenvector of the eigenvalue nearest mu."""
    n = A.shape[0]
    shifted = A - mu * np.eye(n)
    v = np.random.rand(n)
    v /= np.linalg.norm(v)
    for _ in range(max_iter):
        w = np.linalg.solve(shifted, v)
        w /= np.linalg.norm(w)
        if np.linalg.norm(np.abs(w) - np.abs(v)) < tol:
            return w
        v = w
    return v


def rayleigh_quotient_iteration(A, v0, n_iter=20):
    n = A.shape[0]
    v = v0 / np.linalg.norm(v0)
    mu = v @ A @ v
    for _ in range(n_iter):
        M = A - mu * np.eye(n)
        w = np.linalg.solve(M, v)
        v = w / np.linalg.norm(w)
        mu = v @ A @ v
    return mu, v


def top_eigenpairs(A, k, n_iter=500):
    """The k largest eigenpairs by power iteration with deflation."""
    B = A.astype(float)
    vals = np.empty(k)
    vecs = np.empty((A.shape[0], k))
    for j in range(k):
        lam, v = power_iteration(B, max_iter=n_iter)
        vals[j] = lam
        vecs[:, j] = v
        B = B - lam * np.outer(v, v)
    return vals, vecs


def spectral_norm(A):
    """Largest singular value of a matrix."""
    assert A.ndim == 2
    return np.linalg.norm(A, 2)
