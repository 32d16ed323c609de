"""Layers of a small convolutional network (NCHW), forward and backward, with
a plain training loop."""
import numpy as np


class Dense:
    def __init__(self, n_in, n_out, rng):
        self.W = rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in)
        self.b = np.zeros(n_out)

    def forward(self, x):
        self.x = x
        return x @ self.W + self.b

    def backward(self, grad, lr):
        dW = self.x.T @ grad
        db = grad.sum(axis=0)
        dx = grad @ self.W.T
        self.W -= lr * dW
        self.b = self.b - lr * db
        return dx


class Conv2D:
    def __init__(self, c_in, c_out, k, rng):
        self.W = rng.normal(0.0, np.sqrt(2.0 / (c_in * k * k)), size=(c_out, c_in, k, k))
        self.b = np.zeros(c_out)
        self.k = k

    def forward(self, x):
        n, c, h, w = x.shape
        k = self.k
        oh, ow = h - k + 1, w - k + 1
        out = np.empty((n, self.W.shape[0], oh, ow))
        for i in range(oh):
            for j in range(ow):
                patch = x[:, :, i:i + k, j:j + k]
                out[:, :, i, j] = np.tensordot(patch, self.W, axes=([1, 2, 3], [1, 2, 3])) + self.b
        self.x = x
        return out

    def backward(self, grad, lr):
        k = self.k
        dW = np.zeros_like(self.W)
        dx = np.zeros_like(self.x)
        oh, ow = grad.shape[2], grad.shape[3]
        for i in range(oh):
            for j in range(ow):
                patch = self.x[:, :, i:i + k, j:j + k]
                g = grad[:, :, i, j]
                dW += np.tensordot(g, patch, axes=([0], [0]))
                dx[:, :, i:i + k, j:j + k] += np.tensordot(g, self.W, axes=([1], [0]))
        self.W -= lr * dW
        self.b -= lr * grad.sum(axis=(0, 2, 3))
        return dx


class ReLU:
    def forward(self, x):
        self.mask = x > 0
        return x * self.mask

    def backward(self, grad, lr):
        return grad * self.mask


class MaxPool2:
    def forward(self, x):
        n, c, h, w = x.shape
        blocks = x.reshape(n, c, h // 2, 2, w // 2, 2)
        out = blocks.max(axis=(3, 5))
        self.mask = blocks == out[:, :, :, None, :, None]
        return out

    def backward(self, grad, lr):
        up = grad[:, :, :, None, :, None] * self.mask
        n, c, h2, _, w2, _ = up.shape
        return up.reshape(n, c, 2 * h2, 2 * w2)


class Flatten:
    def forward(self, x):
        self.shape = x.shape
        return x.reshape(x.shape[0], -1)

    def backward(self, grad, lr):
        return grad.reshape(self.shape)


def softmax_cross_entropy(logits, labels):
    z = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    n = logits.shape[0]
    loss = -np.mean(np.log(p[np.arange(n), labels] + 1e-12))
    grad = p.copy()
    grad[np.arange(n), labels] -= 1.0
    return loss, grad / n


class Network:
    def __init__(self, layers):
        self.layers = layers

    def forward(self, x):
        for layer in self.layers:
            x = layer.forward(x)
        return x

    def backward(self, grad, lr):
        for layer in reversed(self.layers):
            grad = layer.backward(grad, lr)
        return grad

    def train(self, X, y, n_epochs, batch, lr):
        history = []
        for epoch in range(n_epochs):
            for start in range(0, X.shape[0], batch):
                logits = self.forward(X[start:start + batch])
                loss, grad = softmax_cross_entropy(logits, y[start:start + batch])
                self.backward(grad, lr)
                if np.isnan(loss):
                    raise FloatingPointError("loss is NaN")
                history.append(loss)
        return history


def build(seed=0):
    rng = np.random.default_rng(seed)
    return Network([Conv2D(1, 4, 3, rng), ReLU(), MaxPool2(), Flatten(), Dense(4 * 13 * 13, 10, rng)])
