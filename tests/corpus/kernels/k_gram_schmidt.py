"""Orthogonalisation kernels: classical and modified Gram-Schmidt, block
re-orthogonalisation, and a QR-based basis."""
import numpy as xp


def classical_gram_schmidt(A):
    """Thin QR of a tall matrix, one column at a time."""
    m, n = A.shape
    Q = xp.zeros((m, n))
    R = xp.zeros((n, n))
    for j in range(n):
        v = A[:, j]
        for i in range(j):
            R[i, j] = Q[:, i] @ A[:, j]
            v = v - R[i, j] * Q[:, i]
        R[j, j] = xp.linalg.norm(v)
        Q[:, j] = v / R[j, j]
    return Q, R


def modified_gram_schmidt(A):
    """Modified Gram-Schmidt: normalise column k, then remove it from the rest."""
    Q = A.astype(float)
    m, n = Q.shape
    R = xp.zeros((n, n))
    for k in range(n):
        R[k, k] = xp.linalg.norm(Q[:, k])
        Q[:, k] /= R[k, k]
        R[k, k + 1:] = Q[:, k] @ Q[:, k + 1:]
        Q[:, k + 1:] -= xp.outer(Q[:, k], R[k, k + 1:])
    return Q, R


def reorthogonalize(V, basis):
    """Remove the span of an orthonormal basis from a block, twice for stability."""
    for _ in range(2):
        V = V - basis @ (basis.T @ V)
    return V


def orthonormal_basis(A, tol=1e-10):
    """Basis of the column space through the library QR."""
    Q, R = xp.linalg.qr(A)
    keep = xp.abs(xp.diag(R)) > tol
    return Q[:, keep]


def orthogonality_error(Q):
    k = Q.shape[1]
    return xp.max(xp.abs(Q.T @ Q - xp.eye(k)))
