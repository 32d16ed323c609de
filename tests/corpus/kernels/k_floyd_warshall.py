"""All-pairs shortest paths on dense distance matrices (np.inf = no edge)."""
import numpy as np


def floyd_warshall(W):
    """Vectorised Floyd-Warshall: one whole-matrix relaxation per pivot."""
    D = np.array(W, dtype=float)
    n = D.shape[0]
    for k in range(n):
        D = np.minimum(D, D[:, k, None] + D[None, k, :])
    return D


def floyd_warshall_loops(W):
    """Triple-loop form with a next-hop table for path reconstruction."""
    n = W.shape[0]
    D = W.copy()
    nxt = np.where(np.isfinite(W), np.arange(n)[None, :], -1)
    for k in range(n):
        for i in range(n):
            for j in range(n):
                alt = D[i, k] + D[k, j]
                if alt < D[i, j]:
                    D[i, j] = alt
                    nxt[i, j] = nxt[i, k]
    return D, nxt


def reconstruct_path(nxt, u, v):
    """Vertices of the shortest path from u to v."""
    if nxt[u, v] < 0:
        return []
    path = [u]
    while u != v:
        u = int(nxt[u, v])
        path.append(u)
    return path


def has_negative_cycle(D):
    return bool(np.any(np.diag(D) < 0))


def transitive_closure(adj):
    """Reachability by repeated boolean squaring (about log2 n products)."""
    n = adj.shape[0]
    R = (adj != 0) | np.eye(n, dtype=bool)
    while True:
        R2 = (R.astype(np.int64) @ R.astype(np.int64)) > 0
        if np.array_equal(R2, R):
            return R
        R = R2
