"""Linear and logistic regression estimators trained with gradient methods,
with a fit/predict interface."""
import numpy as np
from sklearn.datasets import make_regression


class LinearRegressionGD:
    """Least squares by full-batch gradient descent."""

    def __init__(self, lr=0.01, n_epochs=1000, tol=1e-8):
        self.lr = lr
        self.n_epochs = n_epochs
        self.tol = tol
        self.coef_ = None
        self.intercept_ = 0.0
        self.loss_history_ = []

    def fit(self, X, y):
        n, d = X.shape
        w = np.zeros(d)
        b = 0.0
        for epoch in range(self.n_epochs):
            resid = X @ w + b - y
            grad_w = X.T @ resid / n
            grad_b = resid.mean()
            w = w - self.lr * grad_w
            b -= self.lr * grad_b
            loss = 0.5 * np.mean(resid ** 2)
            self.loss_history_.append(loss.item())
            if np.linalg.norm(grad_w) < self.tol:
                break
        self.coef_ = w
        self.intercept_ = b
        return self

    def predict(self, X):
        return X @ self.coef_ + self.intercept_


class LogisticRegressionSGD:
    """Binary logistic regression by per-sample stochastic gradient descent."""

    def __init__(self, lr=0.1, n_epochs=20, seed=0):
        self.lr = lr
        self.n_epochs = n_epochs
        self.rng = np.random.default_rng(seed)

    @staticmethod
    def _sigmoid(z):
        return 1.0 / (1.0 + np.exp(-z))

    def fit(self, X, y):
        n, d = X.shape
        self.w = np.zeros(d)
        self.b = 0.0
        for epoch in range(self.n_epochs):
            order = self.rng.permutation(n)
            for i in order:
                p = self._sigmoid(X[i] @ self.w + self.b)
                g = p - y[i]
                self.w -= self.lr * g * X[i]
                self.b -= self.lr * g
        return self

    def predict_proba(self, X):
        return self._sigmoid(X @ self.w + self.b)

    def predict(self, X):
        return (self.predict_proba(X) >= 0.5).astype(int)

    def score(self, X, y):
        return float(np.mean(self.predict(X) == y))


class RidgeClosedForm:
    """Ridge regression by the normal equations."""

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y):
        d = X.shape[1]
        A = X.T @ X + self.alpha * np.eye(d)
        self.coef_ = np.linalg.solve(A, X.T @ y)
        return self

    def predict(self, X):
        return X @ self.coef_


def compare_with_sklearn(X, y):
    """Largest coefficient difference against scikit-learn's Ridge."""
    from sklearn.linear_model import Ridge
    ours = RidgeClosedForm(1.0).fit(X, y).coef_
    theirs = Ridge(alpha=1.0, fit_intercept=False).fit(X, y).coef_
    return np.max(np.abs(ours - theirs))


if __name__ == "__main__":
    X, y = make_regression(n_samples=500, n_features=8, noise=0.1, random_state=0)
    model = LinearRegressionGD(lr=0.1).fit(X, y)
    print(model.coef_, compare_with_sklearn(X, y))
