"""Stationary iterative solvers: Jacobi (matrix and grid forms), Gauss-Seidel
and red-black SOR."""
import numpy as np


def jacobi_matrix(A, b, tol=1e-8, max_iter=5000):
    """Jacobi iteration for a diagonally dominant system."""
    D = np.diag(A)
    R = A - np.diagflat(D)
    x = np.zeros_like(b)
    x_new = b / D
    it = 0
    while np.linalg.norm(x_new - x, ord=np.inf) > tol and it < max_iter:
        x = x_new
        x_new = (b - R @ x) / D
        it += 1
    return x_new


def jacobi_poisson(f, h, tol=1e-6, max_iter=20000):
    """Jacobi sweeps for -lap(u) = f on a square grid with zero boundary."""
    u = np.zeros_like(f)
    un = np.ones_like(f)
    it = 0
    while np.max(np.abs(u - un)) > tol:
        un = u.copy()
        u[1:-1, 1:-1] = 0.25 * (un[:-2, 1:-1] + un[2:, 1:-1] + un[1:-1, :-2] + un[1:-1, 2:]
                                + h * h * f[1:-1, 1:-1])
        it += 1
        if it >= max_iter:
            break
    return u, it


def gauss_seidel(A, b, n_sweeps=50):
    n = b.shape[0]
    x = np.zeros(n)
    for sweep in range(n_sweeps):
        for i in range(n):
            x[i] = (b[i] - A[i, :i] @ x[:i] - A[i, i + 1:] @ x[i + 1:]) / A[i, i]
    return x


def sor_red_black(u: np.ndarray, f: np.ndarray, h: float, omega: float = 1.5, n_sweeps: int = 100) -> np.ndarray:
    """Red-black SOR for a 1-D Poisson problem: odd points, then even points."""
    assert u.shape == f.shape
    for _ in range(n_sweeps):
        gs = 0.5 * (u[0:-2:2] + u[2::2] + h * h * f[1:-1:2])
        u[1:-1:2] += omega * (gs - u[1:-1:2])
        gs = 0.5 * (u[1:-2:2] + u[3::2] + h * h * f[2:-1:2])
        u[2:-1:2] += omega * (gs - u[2:-1:2])
    return u
