"""Poisson equation -lap(u) = f on the unit square with zero boundary values,
solved by Jacobi iteration until the update falls below a tolerance."""
import numpy as np
import matplotlib.pyplot as plt

N = 128  # grid points per side (demo)
TOL = 1.0e-5
MAX_ITER = 20_000
REPORT_EVERY = 1000

h = 1.0 / (N - 1)
x = np.linspace(0.0, 1.0, N)
X, Y = np.meshgrid(x, x, indexing="ij")
f = 2.0 * np.pi**2 * np.sin(np.pi * X) * np.sin(np.pi * Y)
exact = np.sin(np.pi * X) * np.sin(np.pi * Y)

u = np.zeros((N, N))
un = np.ones((N, N))
it = 0
while np.max(np.abs(u - un)) > TOL and it < MAX_ITER:
    un = u.copy()
    u[1:-1, 1:-1] = 0.25 * (un[2:, 1:-1] + un[:-2, 1:-1] + un[1:-1, 2:] + un[1:-1, :-2] + h * h * f[1:-1, 1:-1])
    it += 1
    if it % REPORT_EVERY == 0:
        print(f"iteration {it}: max change {float(np.max(np.abs(u - un))):.3e}")

err = np.max(np.abs(u - exact))
print(f"Jacobi: {it} iterations, max error {float(err):.2e}")


def weighted_jacobi(u, f, omega, check_every=50):
    """Weighted Jacobi; the convergence test runs every check_every sweeps."""
    done = False
    sweeps = 0
    prev = np.empty_like(u)
    while not done and sweeps < MAX_ITER:
        np.copyto(prev, u)
        u[1:-1, 1:-1] = (1.0 - omega) * prev[1:-1, 1:-1] + omega * 0.25 * (
            prev[2:, 1:-1] + prev[:-2, 1:-1] + prev[1:-1, 2:] + prev[1:-1, :-2] + h * h * f[1:-1, 1:-1]
        )
        sweeps += 1
        if sweeps % check_every == 0:
            done = float(np.max(np.abs(u - prev))) < TOL
    return sweeps


u2 = np.zeros((N, N))
n2 = weighted_jacobi(u2, f, 0.9)
print(f"weighted Jacobi: {n2} sweeps, max error {float(np.max(np.abs(u2 - exact))):.2e}")

plt.contourf(X, Y, u, levels=30)
plt.colorbar()
plt.savefig("poisson.png")
