"""Pooling layers as plain kernels (forward and backward passes)."""
from numpy import zeros, empty, maximum
import numpy as np


def max_pool2d(x, size=2):
    """Non-overlapping max pooling of one (H, W) feature map."""
    H, W = x.shape
    out = zeros((H // size, W // size))
    for i in range(H // size):
        for j in range(W // size):
            out[i, j] = np.max(x[i * size:(i + 1) * size, j * size:(j + 1) * size])
    return out


def avg_pool_nhwc(x, pool, stride):
    """Average pooling over an (N, H, W, C) batch, output pixel by output pixel."""
    n, h, w, c = x.shape
    oh = (h - pool) // stride + 1
    ow = (w - pool) // stride + 1
    out = empty((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            h0, w0 = i * stride, j * stride
            out[:, i, j, :] = x[:, h0:h0 + pool, w0:w0 + pool, :].mean(axis=(1, 2))
    return out


def max_pool_reshape(x):
    """2x2 max pooling by a reshape and one whole-array reduction."""
    n, h, w, c = x.shape
    return x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def max_pool_by_offsets(x):
    """2x2, stride-2 max pooling as the maximum of four strided views."""
    a = x[:, 0::2, 0::2, :]
    b = x[:, 1::2, 0::2, :]
    c = x[:, 0::2, 1::2, :]
    d = x[:, 1::2, 1::2, :]
    return maximum(maximum(a, b), maximum(c, d))


def global_avg_pool(x):
    return x.mean(axis=(1, 2))


def max_pool_backward(dout, x, size=2):
    """Route each output gradient to the maxima of its window."""
    dx = np.zeros_like(x)
    n, h, w, c = x.shape
    for i in range(h // size):
        for j in range(w // size):
            hs, ws = i * size, j * size
            win = x[:, hs:hs + size, ws:ws + size, :]
            mask = win == win.max(axis=(1, 2), keepdims=True)
            dx[:, hs:hs + size, ws:ws + size, :] = mask * dout[:, i:i + 1, j:j + 1, :]
    return dx
