"""Covariance estimators with shrinkage; some helpers still use numpy.matrix
(legacy code)."""
import numpy as np


class EmpiricalCovariance:
    def fit(self, X):
        X = np.asarray(X, dtype=float)
        self.location_ = X.mean(axis=0)
        Xc = X - self.location_
        self.covariance_ = Xc.T @ Xc / (X.shape[0] - 1)
        return self

    def mahalanobis(self, X):
        P = np.linalg.inv(self.covariance_)
        Xc = X - self.location_
        return np.sum((Xc @ P) * Xc, axis=1)

    def correlation(self, X):
        return np.corrcoef(X, rowvar=False)


class ShrunkCovariance(EmpiricalCovariance):
    def __init__(self, shrinkage=0.1):
        self.shrinkage = shrinkage

    def fit(self, X):
        super().fit(X)
        S = (1.0 - self.shrinkage) * self.covariance_
        mu = np.trace(self.covariance_) / S.shape[0]
        S.flat[:: S.shape[0] + 1] += self.shrinkage * mu
        self.covariance_ = S
        return self


def clip_correlations(C, limit=0.99):
    """Clip correlations in place, then restore the unit diagonal."""
    flat = C.ravel()
    np.clip(flat, -limit, limit, out=flat)
    np.fill_diagonal(C, 1.0)
    return C


def rolling_covariance(X, window):
    """Covariance matrix of each trailing window of rows."""
    n, d = X.shape
    out = np.empty((n - window + 1, d, d))
    for t in range(n - window + 1):
        W = X[t:t + window]
        Wc = W - W.mean(axis=0)
        out[t] = Wc.T @ Wc / (window - 1)
    return out


def legacy_whiten(X):
    """Whitening through numpy.matrix, kept from an older module."""
    M = np.matrix(X)
    C = M.T * M / M.shape[0]
    U, s, Vt = np.linalg.svd(C)
    W = np.asmatrix(U) * np.asmatrix(np.diag(1.0 / np.sqrt(s))) * np.asmatrix(U).T
    return np.asarray(M * W)


def vec(S):
    """Column-stacking vectorisation used in the Kronecker identities."""
    return S.flatten("F")


def kron_identity_holds(A, X, B):
    """vec(A X B) == (B^T kron A) vec(X)."""
    return np.allclose(vec(A @ X @ B), np.kron(B.T, A) @ vec(X))
