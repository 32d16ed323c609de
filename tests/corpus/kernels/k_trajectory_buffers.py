"""Path simulations that record their history: growing buffers, per-step
draws and reshapes inside the time loop, next to the fixed forms."""
import numpy as np


def gbm_paths_growing(s0, mu, sigma, dt, n_steps, n_paths, seed=0):
    """Geometric Brownian motion; the path table grows by one row per step."""
    rng = np.random.default_rng(seed)
    s = np.full(n_paths, s0, dtype=float)
    table = s[None, :]
    for step in range(n_steps):
        z = rng.normal(0.0, 1.0, size=n_paths)
        s = s * np.exp((mu - 0.5 * sigma ** 2) * dt + sigma * np.sqrt(dt) * z)
        table = np.vstack([table, s])
    return table


def gbm_paths_list(s0, mu, sigma, dt, n_steps, n_paths, seed=0):
    """Same paths, rows collected in a list and stacked once."""
    rng = np.random.default_rng(seed)
    s = np.full(n_paths, s0, dtype=float)
    rows = [s]
    drift = (mu - 0.5 * sigma ** 2) * dt
    vol = sigma * np.sqrt(dt)
    for step in range(n_steps):
        s = s * np.exp(drift + vol * rng.normal(0.0, 1.0, size=n_paths))
        rows.append(s)
    return np.stack(rows)


def ring_diffusion_energy(u0, c, n_steps):
    """Diffusion on a ring, appending the energy to a growing array."""
    u = u0.copy()
    energies = np.array([])
    for _ in range(n_steps):
        padded = np.concatenate([u[-1:], u, u[:1]])
        u = u + c * (padded[2:] - 2.0 * u + padded[:-2])
        energies = np.append(energies, np.sum(u * u))
    return u, energies


def smooth_with_scratch(u, n_steps):
    """Three-point smoothing with a scratch array made every step."""
    for _ in range(n_steps):
        tmp = np.zeros_like(u)
        tmp[1:-1] = 0.5 * (u[2:] + u[:-2])
        u[1:-1] = tmp[1:-1]
    return u


def reweighted_column_scores(data, weights, rows, cols, n_rounds):
    """Column scores of a matrix stored flat, re-weighted every round."""
    scores = np.ones(cols)
    for _ in range(n_rounds):
        table = data.reshape(rows, cols)
        w = weights.reshape((rows, 1))
        scores = np.sum(table * w * scores, axis=0)
        scores = scores / np.linalg.norm(scores)
    return scores


def reweighted_column_scores_hoisted(data, weights, rows, cols, n_rounds):
    table = data.reshape(rows, cols)
    w = weights[:, None]
    scores = np.ones(cols)
    for _ in range(n_rounds):
        scores = np.sum(table * w * scores, axis=0)
        scores /= np.linalg.norm(scores)
    return scores
