"""Each NumPy name cuPyNumeric 26.6.1 lacks that cpn-lint's CPN401 message
replaces with one line of supported calls (ONE_LINE_EQUIVALENTS): the name
must be missing under the runtime and the equivalent must compute what the
name computes in NumPy. Run by tests/test_oracle_equivalents.py; prints one
JSON object."""
import json
import warnings

import numpy as np


def submodule(name):
    """'present', or the error importing NumPy's submodule raises."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # NumPy 2's numpy.core shim warns per module
            __import__(name, globals(), None, ["*"])  # as an import statement of this file (the oracle swaps it)
    except Exception as exc:
        return type(exc).__name__
    return "present"


a = np.arange(12.0).reshape(3, 4) / 7.0
n, d = 10, 0.1
values = {
    "size": (a.size, a.shape[1]),
    "around": np.round(a, 2),
    "atan2": np.arctan2(a, a + 1),
    "pow": np.power(a, 2),
    "fix": np.trunc(a * 3 - 5),
    "spacing": np.nextafter(a * 3 - 5, np.copysign(np.inf, a * 3 - 5)) - (a * 3 - 5),
    "std": np.sqrt(np.var(a, axis=0)),
    "ptp": np.max(a, axis=0) - np.min(a, axis=0),
    "ascontiguousarray": np.asarray(a),
    "asanyarray": np.asarray(a),
    "fft.fftfreq": np.concatenate((np.arange((n - 1) // 2 + 1), np.arange(-(n // 2), 0))) / (d * n),
    "fft.rfftfreq": np.arange(n // 2 + 1) / (d * n),
    "fromfunction": (lambda x, y: (x - 2) ** 2 + y < 5)(*np.indices((3, 4), dtype=float)),
    "trapezoid": np.diff(a[1] * a[1]) @ (a[1][1:] + a[1][:-1]) / 2,
    "trapz": np.diff(a[1] * a[1]) @ (a[1][1:] + a[1][:-1]) / 2,
    "s_": a[(slice(1, None), slice(None, 2))],
    "index_exp": a[(slice(1, None), slice(None, 2))],
    "ogrid": np.arange(3)[:, None] * 10 + np.arange(4),
    "r_": np.hstack((2.5, a[0], a[1])),
    "c_": np.column_stack((a[0], a[1])),
    "ndarray.std": np.sqrt(a.var(axis=0, ddof=1)),
    "ndarray.ptp": a.max(axis=0) - a.min(axis=0),
}
rng = np.random.default_rng(7)
draws = {"random.standard_normal": np.random.normal(0.0, 1.0, (2, 3)).shape,
         "random.Generator.standard_normal": rng.normal(0.0, 1.0, (2, 3)).shape}
owners = {"fft": np.fft, "random": np.random, "random.Generator": rng, "ndarray": a}
missing = {name: not hasattr(owners.get(name.rpartition(".")[0], np), name.rpartition(".")[2])
           for name in [*values, *draws, "errstate", "seterr", "geterr", "double", "int_", "intc", "iterable"]}
dtypes = {"double": str(np.dtype(np.float64)), "int_": str(np.dtype(np.int64)), "intc": str(np.dtype(np.int32))}


def plain(value):
    if isinstance(value, tuple):
        return [int(v) for v in value]
    return [float(v) for v in np.ravel(value).tolist()]


print(json.dumps({"missing": missing, "values": {k: plain(v) for k, v in values.items()}, "dtypes": dtypes,
                  "draw_shapes": {k: list(v) for k, v in draws.items()},
                  "submodules": {name: submodule(name) for name in ("numpy.polynomial", "numpy.version", "numpy.emath", "numpy.rec",
                                                         "numpy.ctypeslib", "numpy.matlib", "numpy.dtypes", "numpy.exceptions",
                                                         "numpy.typing", "numpy.linalg", "numpy.fft", "numpy.ma",
                                                         "numpy.testing", "numpy.char", "numpy.core",
                                                         "numpy.lib.stride_tricks", "numpy.lib", "numpy.random")}}))
