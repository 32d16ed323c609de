"""Streaming histograms and smoothing for sensor telemetry.

Numba speeds up the inner kernels when it is installed. It is an optional
dependency: without it, ``njit`` below is a stand-in that returns the
function unchanged, so the same kernels run as plain Python (slowly).
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

try:
    from numba import njit
except ImportError:  # pragma: no cover - exercised on minimal installs
    def njit(*args, **kwargs):
        """Stand-in for numba.njit: decorate without compiling."""
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]

        def wrap(func):
            return func

        return wrap


@njit(cache=True)
def _clamp_bin(k, nbins):
    """Index of the edge bin for out-of-range values."""
    if k < 0:
        return 0
    if k >= nbins:
        return nbins - 1
    return k


@njit(cache=True)
def _bin_counts(values, lo, width, nbins):
    """Counts per bin; values outside [lo, lo + nbins * width) go to the edge bins."""
    counts = np.zeros(nbins, dtype=np.int64)
    for v in values:
        if v != v:
            continue
        counts[_clamp_bin(int((v - lo) / width), nbins)] += 1
    return counts


@njit(cache=True)
def _ewma(x, alpha):
    """Exponentially weighted moving average, one sample at a time."""
    out = np.empty_like(x)
    acc = x[0]
    for i in range(x.shape[0]):
        acc = alpha * x[i] + (1.0 - alpha) * acc
        out[i] = acc
    return out


class StreamingHistogram:
    """Fixed-bin histogram that is fed chunk by chunk."""

    def __init__(self, lo: float, hi: float, nbins: int = 64) -> None:
        self.lo = float(lo)
        self.hi = float(hi)
        self.nbins = int(nbins)
        self.width = (self.hi - self.lo) / self.nbins
        self.counts = np.zeros(self.nbins, dtype=np.int64)

    def add(self, values: np.ndarray) -> None:
        self.counts += _bin_counts(values, self.lo, self.width, self.nbins)

    def add_chunks(self, chunks: Iterable[np.ndarray]) -> None:
        for chunk in chunks:
            self.add(np.asarray(chunk, dtype=np.float64))

    def edges(self) -> np.ndarray:
        return self.lo + self.width * np.arange(self.nbins + 1)

    def quantile(self, q: float) -> float:
        """Approximate quantile by linear interpolation of the empirical CDF."""
        cdf = np.cumsum(self.counts) / self.counts.sum()
        return float(np.interp(q, cdf, self.edges()[1:]))


def smooth(x: np.ndarray, alpha: float = 0.05) -> np.ndarray:
    """EWMA-smoothed copy of a 1-D signal."""
    return _ewma(np.asarray(x, dtype=np.float64), alpha)


def rolling_range(x: np.ndarray, window: int) -> tuple[np.ndarray, np.ndarray]:
    """Minimum and maximum over each full window of the signal."""
    n = x.shape[0] - window + 1
    lo = np.empty(n)
    hi = np.empty(n)
    for i in range(n):
        seg = x[i:i + window]
        lo[i] = seg.min()
        hi[i] = seg.max()
    return lo, hi


def channel_summary(table: np.ndarray) -> list[str]:
    """One line of mean and spread per channel (row) of a channels x samples table."""
    lines = []
    for k, row in enumerate(table):
        lines.append(f"ch{k}: {row.mean():.3f} +/- {row.std():.3f}")
    return lines


def spikes(x: np.ndarray, threshold: float) -> np.ndarray:
    """Samples that jump by more than threshold from the smoothed baseline."""
    base = smooth(x)
    jump = np.abs(x - base)
    return x[jump > threshold]
