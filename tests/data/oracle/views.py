"""Copy or view? Writes through each result to its base and reports, per
function, "view" (the base changed), "copy" (it did not) or the error the
write raised. Run under NumPy and under cuPyNumeric by tests/test_oracle_views.py."""

import json

import numpy as np


def matrix(complex_values=False):
    a = np.arange(16.0).reshape(4, 4)
    return a + 1j * a if complex_values else a


CASES = {
    "diag": lambda a: np.diag(a),
    "diagonal": lambda a: np.diagonal(a),
    "ndarray.diagonal": lambda a: a.diagonal(),
    "flip": lambda a: np.flip(a),
    "fliplr": lambda a: np.fliplr(a),
    "flipud": lambda a: np.flipud(a),
    "rot90": lambda a: np.rot90(a),
    "ravel": lambda a: np.ravel(a),
    "ndarray.ravel": lambda a: a.ravel(),
    "ndarray.flatten": lambda a: a.flatten(),
    "reshape": lambda a: np.reshape(a, (2, 8)),
    "ndarray.reshape": lambda a: a.reshape(2, 8),
    "ndarray.reshape(-1)": lambda a: a.reshape(-1),
    "transpose": lambda a: np.transpose(a),
    "ndarray.transpose": lambda a: a.transpose(),
    "ndarray.T": lambda a: a.T,
    "swapaxes": lambda a: np.swapaxes(a, 0, 1),
    "ndarray.swapaxes": lambda a: a.swapaxes(0, 1),
    "moveaxis": lambda a: np.moveaxis(a, 0, 1),
    "squeeze": lambda a: np.squeeze(a[None]),
    "ndarray.squeeze": lambda a: a[None].squeeze(),
    "expand_dims": lambda a: np.expand_dims(a, 0),
    "atleast_3d": lambda a: np.atleast_3d(a),
    "broadcast_to": lambda a: np.broadcast_to(a, (4, 4)),
    "real": lambda a: np.real(a),
    "ndarray.real": lambda a: a.real,
    "real(complex)": lambda a: np.real(a),
    "imag(complex)": lambda a: np.imag(a),
    "ndarray.real(complex)": lambda a: a.real,
    "ndarray.imag(complex)": lambda a: a.imag,
    "ndarray.view": lambda a: a.view(),
    "asarray": lambda a: np.asarray(a),
    "split": lambda a: np.split(a, 2)[0],
    "hsplit": lambda a: np.hsplit(a, 2)[0],
    "vsplit": lambda a: np.vsplit(a, 2)[0],
    "array_split": lambda a: np.array_split(a, 2)[0],
    "a[1:]": lambda a: a[1:],
    "a[:, 0]": lambda a: a[:, 0],
    "a[..., 1]": lambda a: a[..., 1],
    "a[None]": lambda a: a[None],
    "roll": lambda a: np.roll(a, 1),
    "triu": lambda a: np.triu(a),
    # issue 23: the rest of the view-making calls a program may write through
    "flip(axis)": lambda a: np.flip(a, axis=0),
    "a[::-1]": lambda a: a[::-1],
    "a[::2]": lambda a: a[::2],
    "a[:, ::-1]": lambda a: a[:, ::-1],
    "rollaxis": lambda a: np.rollaxis(a, 1),
    "atleast_1d": lambda a: np.atleast_1d(a),
    "atleast_2d": lambda a: np.atleast_2d(a),
    "ascontiguousarray": lambda a: np.ascontiguousarray(a),
    "asanyarray": lambda a: np.asanyarray(a),
    "ndarray.astype(copy=False)": lambda a: a.astype(a.dtype, copy=False),
    "ndarray.mT": lambda a: a.mT,
    "ndarray.T.reshape": lambda a: a.T.reshape(16),
    "ravel(transposed)": lambda a: np.ravel(a.T),
    "ndarray.ravel(order=F)": lambda a: a.ravel(order="F"),
    "ndarray.reshape(same shape)": lambda a: a.reshape(4, 4),
    "diag(vector)": lambda a: np.diag(a[0]),
    "diagonal(offset)": lambda a: np.diagonal(a, 1),
    "ndarray.diagonal(offset)": lambda a: a.diagonal(1),
    "squeeze(axis)": lambda a: np.squeeze(a[None], axis=0),
    "transpose(axes)": lambda a: np.transpose(a, (1, 0)),
    "tril": lambda a: np.tril(a),
    "ndarray.T.T": lambda a: a.T.T,
    "real(real)": lambda a: np.real(a),
    "ndarray.flat[:]": lambda a: a.flat[:],
    "take": lambda a: np.take(a, [0, 1], axis=0),
    "a[[0, 1]]": lambda a: a[[0, 1]],
    "a[a > 3]": lambda a: a[a > 3],
}


def outcome(name, make):
    a = matrix(complex_values="complex" in name)
    before = a.copy()
    try:
        result = make(a)
        result[(0,) * result.ndim] = -7.0
    except Exception as exc:  # a read-only view, or a function the library lacks
        return f"{type(exc).__name__}: {exc}"[:120]
    return "view" if bool((a != before).any()) else "copy"


if __name__ == "__main__":
    print(json.dumps({name: outcome(name, make) for name, make in CASES.items()}))
