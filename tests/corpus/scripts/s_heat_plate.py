"""Explicit finite-difference solution of the 2-D heat equation on a square plate.

The left edge is held hot and the other edges cold. The script records the
total heat after every step and draws the plate every PLOT_EVERY steps.
(The domain-decomposed version for clusters uses mpi4py; see heat_mpi.py.)
"""
import numpy as np
import matplotlib.pyplot as plt

# demo sizes; the production runs use a 4096 x 4096 plate
NX = 128
NY = 128
LX = 1.0
LY = 1.0
ALPHA = 1.0e-2
T_HOT = 100.0
N_STEPS = 2000
PLOT_EVERY = 500

dx = LX / (NX - 1)
dy = LY / (NY - 1)
dt = 0.2 * min(dx * dx, dy * dy) / ALPHA


def apply_boundaries(u, t_hot):
    """Dirichlet edges: hot on the left, cold elsewhere."""
    u[:, 0] = t_hot
    u[:, -1] = 0.0
    u[0, :] = 0.0
    u[-1, :] = 0.0


def step(u, u_new, r_x, r_y):
    """One explicit step of the interior, written into u_new."""
    u_new[1:-1, 1:-1] = (
        u[1:-1, 1:-1]
        + r_x * (u[1:-1, 2:] - 2.0 * u[1:-1, 1:-1] + u[1:-1, :-2])
        + r_y * (u[2:, 1:-1] - 2.0 * u[1:-1, 1:-1] + u[:-2, 1:-1])
    )


def main():
    u = np.zeros((NY, NX))
    u_new = np.zeros_like(u)
    total_heat = np.empty(N_STEPS)
    apply_boundaries(u, T_HOT)
    apply_boundaries(u_new, T_HOT)
    r_x = ALPHA * dt / dx**2
    r_y = ALPHA * dt / dy**2

    fig, axes = plt.subplots(1, N_STEPS // PLOT_EVERY, figsize=(14, 3))
    panel = 0
    for n in range(N_STEPS):
        step(u, u_new, r_x, r_y)
        apply_boundaries(u_new, T_HOT)
        u, u_new = u_new, u
        total_heat[n] = np.sum(u) * dx * dy
        if (n + 1) % PLOT_EVERY == 0:
            ax = axes[panel]
            ax.imshow(u, origin="lower", cmap="inferno", vmin=0.0, vmax=T_HOT)
            ax.set_title(f"step {n + 1}")
            panel += 1

    print(f"final heat content {float(total_heat[-1]):.4f}")
    fig.tight_layout()
    fig.savefig("heat_plate.png")

    ys, xs = np.mgrid[0:LY:NY * 1j, 0:LX:NX * 1j]
    plt.figure()
    plt.contour(xs, ys, u, levels=10)
    plt.savefig("heat_contours.png")

    plt.figure()
    plt.plot(np.arange(N_STEPS) * dt, total_heat)
    plt.xlabel("time")
    plt.ylabel("heat content")
    plt.savefig("heat_content.png")


if __name__ == "__main__":
    main()
