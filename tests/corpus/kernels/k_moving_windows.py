"""Rolling-window statistics for 1-D series."""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def block_means(a, k):
    """Means of consecutive non-overlapping blocks of length k."""
    out = np.empty(a.shape[0] // k)
    i = 0
    o = 0
    while i + k <= a.shape[0]:
        out[o] = np.mean(a[i:i + k])
        i += k
        o += 1
    return out


def rolling_mean(a, k):
    """Rolling mean from one cumulative sum."""
    c = np.cumsum(a)
    out = c[k - 1:].copy()
    out[1:] -= c[:-k]
    return out / k


def rolling_std(a, k):
    windows = sliding_window_view(a, k)
    return windows.std(axis=1)


def rolling_median(a, k):
    n = a.shape[0]
    out = np.empty(n - k + 1)
    for i in range(n - k + 1):
        out[i] = np.median(a[i:i + k])
    return out


def rolling_extrema(a, k):
    """Rolling maximum and minimum with Python builtins."""
    n = a.shape[0]
    hi = np.empty(n - k + 1)
    lo = np.empty(n - k + 1)
    for i in range(n - k + 1):
        window = a[i:i + k]
        hi[i] = max(window)
        lo[i] = min(window)
    return hi, lo


def zscore_anomalies(a, k, thresh=3.0):
    """Positions more than thresh rolling deviations away from the rolling mean."""
    mu = rolling_mean(a, k)
    sq = rolling_mean(a * a, k)
    sd = np.sqrt(np.maximum(sq - mu * mu, 0.0))
    z = np.abs(a[k - 1:] - mu) / np.where(sd > 0, sd, 1.0)
    flagged = np.nonzero(z > thresh)[0]
    return flagged + (k - 1)


def peak_to_peak(a):
    return np.ptp(a)
