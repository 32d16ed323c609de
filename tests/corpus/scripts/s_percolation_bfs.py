"""Site percolation on a square lattice: clusters labelled by breadth-first
search, spanning probability estimated over a range of occupation probabilities."""
from collections import deque

import numpy as np
import matplotlib.pyplot as plt

L = 64  # lattice side (demo)
PROBS = np.linspace(0.45, 0.75, 13)
N_SAMPLES = 20

rng = np.random.default_rng(17)


def neighbours(i, j, n):
    """The up-to-four lattice neighbours of (i, j)."""
    if i > 0:
        yield i - 1, j
    if i < n - 1:
        yield i + 1, j
    if j > 0:
        yield i, j - 1
    if j < n - 1:
        yield i, j + 1


def label_clusters(occupied):
    """Label connected occupied sites 1, 2, ...; returns labels and count."""
    n = occupied.shape[0]
    labels = np.zeros((n, n), dtype=int)
    current = 0
    for i in range(n):
        for j in range(n):
            if occupied[i, j] and labels[i, j] == 0:
                current += 1
                labels[i, j] = current
                queue = deque([(i, j)])
                while queue:
                    ci, cj = queue.popleft()
                    for ni, nj in neighbours(ci, cj, n):
                        if occupied[ni, nj] and labels[ni, nj] == 0:
                            labels[ni, nj] = current
                            queue.append((ni, nj))
    return labels, current


def spans(labels):
    """True when one cluster touches both the top and the bottom row."""
    top = set(labels[0, :].tolist()) - {0}
    bottom = set(labels[-1, :].tolist()) - {0}
    return bool(top & bottom)


span_prob = np.zeros(PROBS.shape[0])
mean_clusters = np.zeros(PROBS.shape[0])
for k, p in enumerate(PROBS):
    hits = 0
    n_total = 0
    for s in range(N_SAMPLES):
        occupied = rng.random((L, L)) < p
        labels, n_clusters = label_clusters(occupied)
        hits += spans(labels)
        n_total += n_clusters
    span_prob[k] = hits / N_SAMPLES
    mean_clusters[k] = n_total / N_SAMPLES

sizes = np.bincount(labels.ravel())[1:]
print("largest cluster in the last sample:", sizes.max())
plt.plot(PROBS, span_prob, "o-")
plt.axvline(0.5927, color="gray", ls="--")
plt.xlabel("occupation probability")
plt.ylabel("spanning probability")
plt.savefig("percolation.png")
