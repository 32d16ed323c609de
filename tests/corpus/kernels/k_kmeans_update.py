"""Lloyd iterations for k-means on an (n, d) point array, with k-means++ seeding."""
import numpy as np


def assign(X, centers):
    """Nearest centre of every point, and the squared distances."""
    d2 = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
    return np.argmin(d2, axis=1), d2


def update_centers(X, labels, centers):
    """New centre of each cluster from a mask over all points."""
    k = centers.shape[0]
    new = np.empty_like(centers)
    for c in range(k):
        mask = labels == c
        if np.any(mask):
            new[c] = X[mask].mean(axis=0)
        else:
            new[c] = centers[c]
    return new


def kmeans_pp_init(X, k, rng):
    """k-means++ seeding."""
    n = X.shape[0]
    centers = np.empty((k, X.shape[1]))
    first = int(rng.integers(n))
    centers[0] = X[first]
    closest = np.sum((X - centers[0]) ** 2, axis=1)
    for c in range(1, k):
        probs = closest / closest.sum()
        idx = rng.choice(n, p=probs)
        centers[c] = X[idx]
        closest = np.minimum(closest, np.sum((X - centers[c]) ** 2, axis=1))
    return centers


def kmeans(X, k, n_iter=100, tol=1e-6, seed=0, init="k-means++"):
    rng = np.random.default_rng(seed)
    if init == "k-means++":
        centers = kmeans_pp_init(X, k, rng)
    else:
        centers = X[rng.choice(X.shape[0], size=k, replace=False)]
    history = []
    for it in range(n_iter):
        labels, d2 = assign(X, centers)
        inertia = float(np.sum(np.min(d2, axis=1)))
        history.append(inertia)
        new = update_centers(X, labels, centers)
        shift = np.max(np.linalg.norm(new - centers, axis=1))
        centers = new
        if shift < tol:
            break
    return centers, labels, history


def cluster_sizes(labels, k):
    return np.bincount(labels, minlength=k)
