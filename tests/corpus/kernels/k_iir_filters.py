"""Recursive (IIR) and FIR filters for 1-D signals, and a filter bank that
runs many channels side by side."""
import numpy as np


def ewma(x, alpha):
    """Exponentially weighted moving average."""
    out = np.empty_like(x, dtype=float)
    acc = x[0]
    for t in range(x.shape[0]):
        acc = alpha * x[t] + (1.0 - alpha) * acc
        out[t] = acc
    return out


def biquad(x, b, a):
    """Direct-form I second-order section, b = (b0, b1, b2), a = (1, a1, a2)."""
    y = np.zeros(x.shape[0])
    for n in range(2, x.shape[0]):
        y[n] = (b[0] * x[n] + b[1] * x[n - 1] + b[2] * x[n - 2]
                - a[1] * y[n - 1] - a[2] * y[n - 2])
    return y


def fir_taps(x, taps):
    """FIR filter by looping over the taps: every pass is a whole-signal
    multiply-add."""
    n = x.shape[0]
    y = np.zeros(n)
    for k in range(taps.shape[0]):
        y[k:] += taps[k] * x[:n - k]
    return y


def fir_valid(x, taps):
    return np.convolve(x, taps, mode="valid")


def fir_same(x, taps):
    return np.convolve(x, taps, mode="same")


def one_pole_bank(X, alpha):
    """Many independent one-pole filters: rows of X are channels; the loop runs
    over time and updates every channel at once."""
    Y = np.empty_like(X)
    Y[:, 0] = X[:, 0]
    for t in range(1, X.shape[1]):
        Y[:, t] = alpha * X[:, t] + (1.0 - alpha) * Y[:, t - 1]
    return Y


def remove_trend(x):
    """Subtract the least-squares line."""
    t = np.arange(x.shape[0])
    coeffs = np.polyfit(t, x, 1)
    return x - np.polyval(coeffs, t)
