"""Dynamic-programming kernels: dynamic time warping and 0/1 knapsack."""
import numpy as np


def dtw_distance(s, t, window=None):
    """DTW distance between two 1-D series, with an optional Sakoe-Chiba band."""
    n, m = s.shape[0], t.shape[0]
    w = max(window if window is not None else max(n, m), abs(n - m))
    D = np.full((n + 1, m + 1), np.inf)
    D[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(max(1, i - w), min(m, i + w) + 1):
            cost = abs(s[i - 1] - t[j - 1])
            D[i, j] = cost + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
    return D[n, m]


def knapsack_table(weights, values, capacity):
    """Classic (n+1) x (capacity+1) table; row i is computed from row i-1."""
    n = weights.shape[0]
    K = np.zeros((n + 1, capacity + 1))
    for i in range(1, n + 1):
        for c in range(capacity + 1):
            if weights[i - 1] <= c:
                K[i, c] = max(K[i - 1, c], K[i - 1, c - weights[i - 1]] + values[i - 1])
            else:
                K[i, c] = K[i - 1, c]
    return K[n, capacity]


def knapsack_rows(weights, values, capacity):
    """Same optimum with one whole-row update per item."""
    best = np.zeros(capacity + 1)
    for i in range(weights.shape[0]):
        wi = int(weights[i])
        if wi > capacity:
            continue
        best[wi:] = np.maximum(best[wi:], best[:capacity + 1 - wi] + values[i])
    return best[capacity]


def warping_path_cost(D):
    """Cheapest total cost along the last row and column (vectorised)."""
    return min(D[-1, :].min(), D[:, -1].min())
