"""Spectral smoothing that hands FFTs to CuPy and keeps the rest in NumPy."""
import numpy as np
import cupy as cp


def spectral_smooth(u, k_cut, n_steps):
    """Repeatedly low-pass a periodic field: FFT on the GPU, clipping on the host."""
    n = u.shape[0]
    mask = np.abs(np.fft.fftfreq(n)) < k_cut
    mask_gpu = cp.asarray(mask)
    for step in range(n_steps):
        spec = cp.fft.fft(cp.asarray(u))
        spec *= mask_gpu
        u = cp.asnumpy(cp.fft.ifft(spec).real)
        u = np.clip(u, -1.0, 1.0)
    return u


def denoise_frames(frames, kernel_hat):
    """Per frame: filter on the GPU, threshold with NumPy."""
    k_gpu = cp.asarray(kernel_hat)
    result = np.empty_like(frames)
    for t in range(frames.shape[0]):
        g = cp.asarray(frames[t])
        g = cp.real(cp.fft.ifft2(cp.fft.fft2(g) * k_gpu))
        h = g.get()
        result[t] = np.where(h > 0.1, h, 0.0)
    return result


def to_host_once(u_gpu):
    """A single conversion at the boundary."""
    return cp.asnumpy(u_gpu)
