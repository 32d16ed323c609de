"""Feature preprocessing transformers with a fit / transform interface."""
import numpy as np


class StandardScaler:
    def fit(self, X):
        X = np.asarray(X, dtype=float, order="F")
        self.mean_ = X.mean(axis=0)
        self.scale_ = X.std(axis=0)
        self.scale_[self.scale_ == 0.0] = 1.0
        return self

    def transform(self, X):
        return (X - self.mean_) / self.scale_

    def inverse_transform(self, Z):
        return Z * self.scale_ + self.mean_


class MinMaxScaler:
    def __init__(self, feature_range=(0.0, 1.0)):
        self.lo, self.hi = feature_range

    def fit(self, X):
        self.min_ = X.min(axis=0)
        self.span_ = np.maximum(X.max(axis=0) - self.min_, 1e-12)
        return self

    def transform(self, X):
        return self.lo + (X - self.min_) / self.span_ * (self.hi - self.lo)


class OneHotEncoder:
    """Categories of one column of labels."""

    def fit(self, column):
        column = np.asarray(column)
        self.categories_ = sorted(set(column))
        self.index_ = {c: k for k, c in enumerate(self.categories_)}
        return self

    def transform(self, column):
        column = np.asarray(column)
        out = np.zeros((column.shape[0], len(self.categories_)))
        for i, value in enumerate(column):
            out[i, self.index_[value]] = 1.0
        return out

    def inverse_transform(self, onehot):
        names = np.empty(onehot.shape[0], dtype=object)
        names[:] = [self.categories_[k] for k in np.argmax(onehot, axis=1)]
        return names


class PolynomialFeatures:
    """Degree-2 features: the inputs, then every pairwise product."""

    def transform(self, X):
        n, d = X.shape
        n_out = d + d * (d + 1) // 2
        out = np.empty((n, n_out))
        out[:, :d] = X
        k = d
        for i in range(d):
            for j in range(i, d):
                out[:, k] = X[:, i] * X[:, j]
                k += 1
        return out


class MeanImputer:
    def fit(self, X):
        self.fill_ = np.nanmean(X, axis=0)
        return self

    def transform(self, X):
        X = X.copy()
        rows, cols = np.nonzero(np.isnan(X))
        X[rows, cols] = self.fill_[cols]
        return X
