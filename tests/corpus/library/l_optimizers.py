"""First-order optimisers with a step() interface, a small MLP and the
training loop that drives them."""
import numpy as np


class SGD:
    """Stochastic gradient descent with momentum over a list of parameter arrays."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = params
        self.lr = lr
        self.momentum = momentum
        self.velocity = [np.zeros_like(p) for p in params]

    def step(self, grads):
        for p, g, v in zip(self.params, grads, self.velocity):
            v *= self.momentum
            v -= self.lr * g
            p += v


class Adam:
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        self.params = params
        self.lr = lr
        self.b1, self.b2 = betas
        self.eps = eps
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads):
        self.t += 1
        c1 = 1.0 - self.b1 ** self.t
        c2 = 1.0 - self.b2 ** self.t
        for k in range(len(self.params)):
            g = grads[k]
            self.m[k] = self.b1 * self.m[k] + (1.0 - self.b1) * g
            self.v[k] = self.b2 * self.v[k] + (1.0 - self.b2) * g * g
            m_hat = self.m[k] / c1
            v_hat = self.v[k] / c2
            self.params[k] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


class MLP:
    """One tanh hidden layer, linear output."""

    def __init__(self, n_in, n_hidden, n_out, seed=0):
        rng = np.random.default_rng(seed)
        self.W1 = rng.normal(0.0, 1.0 / np.sqrt(n_in), size=(n_in, n_hidden))
        self.b1 = np.zeros(n_hidden)
        self.W2 = rng.normal(0.0, 1.0 / np.sqrt(n_hidden), size=(n_hidden, n_out))
        self.b2 = np.zeros(n_out)

    @property
    def params(self):
        return [self.W1, self.b1, self.W2, self.b2]

    def forward(self, X):
        self._X = X
        self._H = np.tanh(X @ self.W1 + self.b1)
        return self._H @ self.W2 + self.b2

    def backward(self, dout):
        dW2 = self._H.T @ dout
        db2 = dout.sum(axis=0)
        dH = (dout @ self.W2.T) * (1.0 - self._H ** 2)
        dW1 = self._X.T @ dH
        db1 = dH.sum(axis=0)
        return [dW1, db1, dW2, db2]


def train(model, X, y, optimizer, n_epochs=50, batch=64, seed=0):
    """Mini-batch training; returns the loss of every batch."""
    rng = np.random.default_rng(seed)
    n = X.shape[0]
    losses = []
    for epoch in range(n_epochs):
        perm = rng.permutation(n)
        Xs, ys = X[perm], y[perm]
        for start in range(0, n, batch):
            xb = Xs[start:start + batch]
            yb = ys[start:start + batch]
            pred = model.forward(xb)
            diff = pred - yb
            optimizer.step(model.backward(diff / xb.shape[0]))
            losses.append(float(np.mean(diff ** 2)))
        if not np.all(np.isfinite(model.W1)):
            raise FloatingPointError(f"diverged at epoch {epoch}")
    return losses


def nesterov_quadratic(A, b, lr, n_steps):
    """Nesterov accelerated gradient on 0.5 x^T A x - b^T x."""
    x = np.zeros_like(b)
    v = np.zeros_like(b)
    for k in range(n_steps):
        look = x + 0.9 * v
        g = A @ look - b
        v = 0.9 * v - lr * g
        x = x + v
    return x


if __name__ == "__main__":
    data_rng = np.random.default_rng(1)
    X = data_rng.normal(size=(1024, 8))
    y = np.sin(X[:, :1])
    net = MLP(8, 32, 1)
    print(train(net, X, y, Adam(net.params))[-1])
