"""2-D correlation and convolution kernels for single-channel images and for
NHWC batches."""
import numpy as np


def correlate2d_naive(image, kernel):
    """'valid' cross-correlation, one output pixel at a time."""
    kh, kw = kernel.shape
    H, W = image.shape
    out = np.zeros((H - kh + 1, W - kw + 1))
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = np.sum(image[i:i + kh, j:j + kw] * kernel)
    return out


def window_sums3(img, k):
    """3x3 weighted window sums over the interior."""
    out = np.zeros_like(img)
    for i in range(1, img.shape[0] - 1):
        for j in range(1, img.shape[1] - 1):
            out[i, j] = np.sum(img[i - 1:i + 2, j - 1:j + 2] * k)
    return out


def conv2d_nhwc(x, w, b):
    """Batched 'valid' convolution: x (N, H, W, C), w (KH, KW, C, F), b (F,)."""
    N, H, W, C = x.shape
    KH, KW, _, F = w.shape
    out = np.zeros((N, H - KH + 1, W - KW + 1, F))
    for i in range(H - KH + 1):
        for j in range(W - KW + 1):
            window = x[:, i:i + KH, j:j + KW, :]
            out[:, i, j, :] = np.tensordot(window, w, axes=([1, 2, 3], [0, 1, 2])) + b
    return out


def correlate2d_taps(image, kernel):
    """Same result as ``correlate2d_naive``, looping over the kernel taps:
    every pass is a whole-image multiply-add."""
    kh, kw = kernel.shape
    H, W = image.shape
    oh, ow = H - kh + 1, W - kw + 1
    out = np.zeros((oh, ow))
    for di in range(kh):
        for dj in range(kw):
            out += kernel[di, dj] * image[di:di + oh, dj:dj + ow]
    return out


def strided_correlate(image, kernel, stride=2):
    """Correlation with a stride: compute densely, keep every stride-th pixel."""
    dense = correlate2d_taps(image, kernel)
    return dense[::stride, ::stride]


def gaussian_kernel(size, sigma):
    ax = np.arange(size) - (size - 1) / 2.0
    g = np.exp(-0.5 * (ax / sigma) ** 2)
    k = np.outer(g, g)
    return k / k.sum()


def convolve2d(image, kernel):
    """True convolution flips the kernel first."""
    return correlate2d_taps(image, np.flip(kernel))
