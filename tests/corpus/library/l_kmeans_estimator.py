"""A k-means estimator with a scikit-learn-like interface (fit / predict)."""
import numpy as np


class KMeans:
    def __init__(self, n_clusters=8, max_iter=300, tol=1e-4, seed=None):
        self.n_clusters = n_clusters
        self.max_iter = max_iter
        self.tol = tol
        self.seed = seed

    def _init_centers(self, X):
        rng = np.random.RandomState(self.seed)
        idx = rng.permutation(X.shape[0])[: self.n_clusters]
        return X[idx].copy()

    def _assign(self, X, centers):
        d2 = (np.sum(X * X, axis=1)[:, None] - 2.0 * X @ centers.T
              + np.sum(centers * centers, axis=1)[None, :])
        return np.argmin(d2, axis=1), np.min(d2, axis=1)

    def _assign_slow(self, X, centers):
        """Reference assignment, one point at a time."""
        labels = np.empty(X.shape[0], dtype=np.int64)
        for i in range(X.shape[0]):
            d = np.sum((centers - X[i]) ** 2, axis=1)
            labels[i] = np.argmin(d)
        return labels

    def fit(self, X):
        X = np.asarray(X, dtype=float)
        centers = self._init_centers(X)
        for it in range(self.max_iter):
            labels, dist = self._assign(X, centers)
            new = np.vstack([X[labels == c].mean(axis=0) for c in range(self.n_clusters)])
            shift = np.linalg.norm(new - centers)
            centers = new
            if shift <= self.tol:
                break
        self.cluster_centers_ = centers
        self.labels_ = labels
        self.inertia_ = sum(dist)
        self.n_iter_ = it + 1
        return self

    def predict(self, X):
        return self._assign(np.asarray(X, dtype=float), self.cluster_centers_)[0]

    def predict_reference(self, X):
        return self._assign_slow(np.asarray(X, dtype=float), self.cluster_centers_)

    def cluster_report(self):
        values, counts = np.unique(self.labels_, return_counts=True)
        spread = self.cluster_centers_.std(axis=0)
        return dict(zip(values.tolist(), counts.tolist())), spread
