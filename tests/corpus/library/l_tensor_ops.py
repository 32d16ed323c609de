"""Small tensor utilities used by the model-export code: packing arrays into
one Fortran-ordered buffer, safe ratios and scalar helpers."""
import numpy as np


class TensorPacker:
    """Packs named arrays into one flat buffer in Fortran order, the layout
    the solver library expects."""

    def __init__(self):
        self.entries = {}

    def add(self, name, arr):
        self.entries[name] = np.asarray(arr)

    def pack(self):
        pieces = []
        for name in sorted(self.entries):
            a = self.entries[name]
            pieces.append(a.ravel(order="F"))
        return np.concatenate(pieces)

    def unpack(self, flat, shapes):
        out = {}
        offset = 0
        for name in sorted(shapes):
            shape = shapes[name]
            size = int(np.prod(shape))
            out[name] = flat[offset:offset + size].reshape(shape, order="F")
            offset += size
        return out


def safe_log_ratio(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.log(a / b)
    r[~np.isfinite(r)] = 0.0
    return r


def label_array(values):
    """Formatted labels for plotting, kept in an object array."""
    return np.array([f"{v:.2f}" for v in values], dtype=object)


leaky_relu = np.vectorize(lambda v: v if v > 0 else 0.01 * v)
clip_scalar = np.frompyfunc(lambda v, lo, hi: min(max(v, lo), hi), 3, 1)


def best_score(scores: np.ndarray) -> float:
    return max(scores)


def any_negative(x: np.ndarray) -> bool:
    return any(x < 0)


def to_matrix_fortran(a, m, n):
    return np.reshape(a, (m, n), "F")


def channels_last(x):
    """NCHW -> NHWC as a C-contiguous copy."""
    return np.ascontiguousarray(np.transpose(x, (0, 2, 3, 1)))
