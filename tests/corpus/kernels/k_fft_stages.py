"""Radix-2 FFT written out by stages, used to check the library transform, and
a dithered spectrum estimate."""
import numpy as np


def bit_reverse_indices(n):
    """Bit-reversed order of 0..n-1 for a power-of-two n."""
    bits = n.bit_length() - 1
    idx = np.arange(n)
    rev = np.zeros(n, dtype=np.int64)
    for b in range(bits):
        rev |= ((idx >> b) & 1) << (bits - 1 - b)
    return rev


def fft_iterative(x):
    """Decimation-in-time FFT of a signal whose length is a power of two."""
    n = x.shape[0]
    if n & (n - 1):
        raise ValueError("length must be a power of two")
    data = x.astype(np.complex128)[bit_reverse_indices(n)]
    half = 1
    while half < n:
        span = 2 * half
        twiddle = np.exp(-2j * np.pi * np.arange(half) / span)
        blocks = data.reshape(n // span, span)
        top = blocks[:, :half]
        bottom = blocks[:, half:] * twiddle.reshape(1, half)
        data = np.concatenate([top + bottom, top - bottom], axis=1).reshape(n)
        half = span
    return data


def fft_recursive(x):
    """Recursive radix-2 FFT by the even/odd split."""
    n = x.shape[0]
    if n == 1:
        return x.astype(np.complex128)
    even = fft_recursive(x[0::2])
    odd = fft_recursive(x[1::2])
    factor = np.exp(-2j * np.pi * np.arange(n // 2) / n)
    return np.concatenate([even + factor * odd, even - factor * odd])


def frequency_axis(n, dt):
    return np.fft.fftfreq(n, dt)


def dithered_spectrum(samples, frame_len, n_trials, noise, seed=0):
    """Average power spectrum of a framed signal over fresh dither draws."""
    rng = np.random.default_rng(seed)
    n_frames = samples.shape[0] // frame_len
    window = np.hanning(frame_len)
    acc = np.zeros(frame_len)
    for t in range(n_trials):
        frames = samples[:n_frames * frame_len].reshape(n_frames, frame_len)
        dither = rng.normal(0.0, noise, size=(n_frames, frame_len))
        spec = np.fft.fft((frames + dither) * window, axis=1)
        acc += np.mean(np.abs(spec) ** 2, axis=0)
    return acc / n_trials


def check_against_library(x):
    return np.allclose(fft_iterative(x), np.fft.fft(x))
