"""Explicit finite-difference solvers written the port-ready way: whole-array
stencils, hoisted buffers, double buffering, checks every N steps."""
import numpy as np

CHECK_EVERY = 100


def heat_1d(u0, alpha, dx, dt, n_steps):
    """Explicit heat equation with Dirichlet ends; returns the field and the
    energy history."""
    u = u0.copy()
    un = np.empty_like(u)
    c = alpha * dt / dx ** 2
    energy = np.empty(n_steps)
    for step in range(n_steps):
        un[1:-1] = u[1:-1] + c * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        un[0] = 0.0
        un[-1] = 0.0
        energy[step] = np.sum(un * un)
        u, un = un, u
    return u, energy


def heat_2d(u, alpha, h, dt, n_steps, tol=1e-9):
    """2-D heat equation that stops once the field no longer changes."""
    work = np.empty_like(u)
    c = alpha * dt / (h * h)
    for step in range(n_steps):
        np.copyto(work, u)
        u[1:-1, 1:-1] = work[1:-1, 1:-1] + c * (work[2:, 1:-1] + work[:-2, 1:-1] + work[1:-1, 2:]
                                                + work[1:-1, :-2] - 4.0 * work[1:-1, 1:-1])
        if step % CHECK_EVERY == 0:
            change = float(np.max(np.abs(u - work)))
            if change < tol:
                break
    return u


def reaction_diffusion(conc, rates, D, dt, n_steps):
    """Three species on a periodic 1-D grid; conc has shape (3, n)."""
    lap = np.empty_like(conc)
    for step in range(n_steps):
        for s in range(3):
            lap[s] = np.roll(conc[s], 1) + np.roll(conc[s], -1) - 2.0 * conc[s]
        conc += dt * (D[:, None] * lap - rates[:, None] * conc)
    return conc


def max_temperature(u):
    return float(np.max(u))


def wave_1d(u, c, dx, dt, n_steps, probe):
    """Leapfrog wave equation; records the value at one probe point per step."""
    trace = np.empty(n_steps)
    k = (c * dt / dx) ** 2
    prev = u.copy()
    for n in range(n_steps):
        nxt = 2.0 * u - prev
        nxt[1:-1] += k * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        prev, u = u, nxt
        trace[n] = u[probe]
    return trace


def advect_upwind(q, vel, dx, dt, n_steps):
    """First-order upwind advection in place, with out= updates."""
    flux = np.empty_like(q)
    for _ in range(n_steps):
        np.multiply(vel, q, out=flux)
        q[1:] -= (dt / dx) * (flux[1:] - flux[:-1])
    return q
