"""Scans and histograms written as loops, next to their one-call forms."""
import numpy as np


def prefix_sum(a):
    """Inclusive running sum."""
    out = np.empty_like(a)
    out[0] = a[0]
    for i in range(1, a.shape[0]):
        out[i] = out[i - 1] + a[i]
    return out


def running_max(a):
    """Running maximum (np.maximum.accumulate is not available in cuPyNumeric)."""
    out = np.empty_like(a)
    m = a[0]
    for i in range(a.shape[0]):
        m = max(m, a[i])
        out[i] = m
    return out


def histogram_loop(x, lo, hi, n_bins):
    """Counts per bin, one sample at a time."""
    counts = np.zeros(n_bins, dtype=np.int64)
    width = (hi - lo) / n_bins
    for i in range(x.shape[0]):
        b = int((x[i] - lo) / width)
        if 0 <= b < n_bins:
            counts[b] += 1
    return counts


def histogram_vectorised(x, lo, hi, n_bins):
    idx = np.floor((x - lo) / (hi - lo) * n_bins).astype(np.int64)
    keep = (idx >= 0) & (idx < n_bins)
    return np.bincount(idx[keep], minlength=n_bins)


def auto_histogram(x):
    return np.histogram(x, bins="auto")


def total_by_flat(a: np.ndarray) -> float:
    """Sum of all entries, item by item."""
    total = 0.0
    for v in a.flat:
        total += v
    return total


def cumulative_counts(labels, n_classes):
    """Occurrences of each class seen so far, one row per sample."""
    counts = np.zeros((labels.shape[0], n_classes), dtype=np.int64)
    running = np.zeros(n_classes, dtype=np.int64)
    for i, lab in enumerate(labels):
        running[lab] += 1
        counts[i] = running
    return counts


def cumulative_counts_vectorised(labels, n_classes):
    onehot = labels[:, None] == np.arange(n_classes)[None, :]
    return np.cumsum(onehot, axis=0)
