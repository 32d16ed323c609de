"""Resampling, filtering and peak picking for multichannel recordings."""
import numpy as np


class Resampler:
    def __init__(self, rate_out):
        self.rate_out = rate_out

    def __call__(self, t, x):
        t_new = np.arange(t[0], t[-1], 1.0 / self.rate_out)
        return t_new, np.interp(t_new, t, x)


class FilterBank:
    """One FIR filter applied to every channel."""

    def __init__(self, taps):
        self.taps = np.asarray(taps, dtype=float)

    def filter(self, X):
        out = np.empty_like(X, dtype=float)
        for ch in range(X.shape[0]):
            out[ch] = np.convolve(X[ch], self.taps, mode="same")
        return out

    def filtfilt(self, x):
        """Zero-phase filtering: forward, then backward on the reversed signal."""
        n = x.shape[0]
        y = np.convolve(x, self.taps, mode="full")[:n]
        y = np.convolve(y[::-1], self.taps, mode="full")[:n]
        return y[::-1]


def cross_correlation(a, b):
    return np.correlate(a, b, mode="full")


def signal_energy(t, x):
    return np.trapz(x * x, t)


def local_peaks(x, min_height):
    """Indices of local maxima above min_height, one sample at a time."""
    peaks = []
    for i in range(1, x.shape[0] - 1):
        if x[i] > x[i - 1] and x[i] >= x[i + 1] and x[i] > min_height:
            peaks.append(i)
    return np.array(peaks)


def local_peaks_vectorised(x, min_height):
    mid = x[1:-1]
    is_peak = (mid > x[:-2]) & (mid >= x[2:]) & (mid > min_height)
    return np.flatnonzero(is_peak) + 1


def decimate(x: np.ndarray, q: int) -> np.ndarray:
    return x[::q]


def rms_by_channel(X):
    return np.sqrt(np.mean(X * X, axis=1))
