"""im2col / col2im: convolution as one matrix product on (C, H, W) images."""
import numpy as np


def im2col_loops(img, kh, kw, stride=1):
    """Columns of every kh x kw patch, patch by patch."""
    C, H, W = img.shape
    oh = (H - kh) // stride + 1
    ow = (W - kw) // stride + 1
    cols = np.empty((C * kh * kw, oh * ow))
    col = 0
    for i in range(oh):
        for j in range(ow):
            patch = img[:, i * stride:i * stride + kh, j * stride:j * stride + kw]
            cols[:, col] = patch.reshape(-1)
            col += 1
    return cols


def im2col_taps(img, kh, kw):
    """Same columns for stride 1, filled one kernel tap at a time (kh*kw
    passes, each copying a whole shifted image)."""
    C, H, W = img.shape
    oh, ow = H - kh + 1, W - kw + 1
    cols = np.empty((C, kh, kw, oh, ow))
    for di in range(kh):
        for dj in range(kw):
            cols[:, di, dj, :, :] = img[:, di:di + oh, dj:dj + ow]
    return cols.reshape(C * kh * kw, oh * ow)


def conv_as_gemm(img, weights, bias):
    """weights (F, C, kh, kw) and bias (F,) -> output (F, oh, ow)."""
    F, C, kh, kw = weights.shape
    cols = im2col_taps(img, kh, kw)
    out = weights.reshape(F, -1) @ cols + bias.reshape(F, 1)
    oh = img.shape[1] - kh + 1
    return out.reshape(F, oh, -1)


def col2im_loops(cols, shape, kh, kw):
    """Scatter-add the columns back into an image (the adjoint of im2col)."""
    C, H, W = shape
    oh, ow = H - kh + 1, W - kw + 1
    img = np.zeros(shape)
    for p in range(oh * ow):
        i, j = divmod(p, ow)
        img[:, i:i + kh, j:j + kw] += cols[:, p].reshape(C, kh, kw)
    return img


def conv_batch(images, weights, bias):
    """Convolve each image of an (N, C, H, W) batch."""
    assert images.ndim == 4
    return np.stack([conv_as_gemm(im, weights, bias) for im in images])
