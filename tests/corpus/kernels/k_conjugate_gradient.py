"""Krylov and gradient solvers for symmetric positive-definite systems."""
import numpy as np


def conjugate_gradient(A, b, x0=None, tol=1e-8, max_iter=None):
    n = b.shape[0]
    if max_iter is None:
        max_iter = n
    x = np.zeros(n) if x0 is None else x0.copy()
    r = b - A @ x
    p = r.copy()
    rs_old = r @ r
    for it in range(max_iter):
        Ap = A @ p
        alpha = rs_old / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rs_new = r @ r
        if np.sqrt(rs_new) < tol:
            break
        p = r + (rs_new / rs_old) * p
        rs_old = rs_new
    return x, it + 1


def preconditioned_cg(A, b, tol=1e-8, max_iter=500):
    """CG with a Jacobi preconditioner; records the residual history."""
    inv_diag = 1.0 / np.diag(A)
    x = np.zeros_like(b)
    r = b.copy()
    z = inv_diag * r
    p = z.copy()
    rz = r @ z
    residuals = []
    for k in range(max_iter):
        Ap = A @ p
        alpha = rz / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        residuals.append(float(np.linalg.norm(r)))
        if residuals[-1] < tol:
            break
        z = inv_diag * r
        rz_new = r @ z
        p = z + (rz_new / rz) * p
        rz = rz_new
    return x, residuals


def steepest_descent(A, b, n_iter=100):
    x = np.zeros_like(b)
    for _ in range(n_iter):
        r = b - A @ x
        alpha = (r @ r) / (r @ (A @ r))
        x = x + alpha * r
    return x
