"""Potential in a box with a charged lid: Gauss-Seidel against red-black SOR."""
import numpy as np
import matplotlib.pyplot as plt

N = 64  # even grid size (the sublattice slices assume it)
TOL = 1.0e-6
MAX_SWEEPS = 5000
V_TOP = 1.0
OMEGA = 1.85


def gauss_seidel(phi, max_sweeps, tol):
    """Lexicographic Gauss-Seidel in place; returns the number of sweeps."""
    n = phi.shape[0]
    for sweep in range(max_sweeps):
        delta = 0.0
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                new = 0.25 * (phi[i + 1, j] + phi[i - 1, j] + phi[i, j + 1] + phi[i, j - 1])
                delta = max(delta, abs(new - phi[i, j]))
                phi[i, j] = new
        if delta.item() < tol:
            return sweep + 1
    return max_sweeps


def relax_sublattice(phi, r, c, omega):
    """Over-relax the interior points (r + 2a, c + 2b) in one whole-array step."""
    centre = phi[r:-1:2, c:-1:2]
    average = 0.25 * (
        phi[r - 1 : -2 : 2, c:-1:2] + phi[r + 1 :: 2, c:-1:2]
        + phi[r:-1:2, c - 1 : -2 : 2] + phi[r:-1:2, c + 1 :: 2]
    )
    phi[r:-1:2, c:-1:2] = (1.0 - omega) * centre + omega * average


def red_black_sor(phi, omega, max_sweeps, tol):
    for sweep in range(max_sweeps):
        old = phi.copy()
        for r, c in ((1, 1), (2, 2), (1, 2), (2, 1)):
            relax_sublattice(phi, r, c, omega)
        if np.max(np.abs(phi - old)) < tol:
            return sweep + 1
    return max_sweeps


phi0 = np.zeros((N, N))
phi0[0, :] = V_TOP
phi_gs = phi0.copy()
phi_rb = phi0.copy()
n_gs = gauss_seidel(phi_gs, MAX_SWEEPS, TOL)
n_rb = red_black_sor(phi_rb, OMEGA, MAX_SWEEPS, TOL)
print(f"Gauss-Seidel: {n_gs} sweeps, red-black SOR: {n_rb} sweeps")
print("largest difference", float(np.max(np.abs(phi_gs - phi_rb))))

ey, ex = np.gradient(-phi_rb)
plt.imshow(phi_rb, origin="upper", cmap="viridis")
plt.quiver(np.arange(0, N, 4), np.arange(0, N, 4), ex[::4, ::4], -ey[::4, ::4])
plt.savefig("laplace_box.png")
