"""The order= keyword under cuPyNumeric 26.6.1 (CPN109): which NumPy calls
take it and which refuse it outright. Prints, as JSON, "ok" or the exception
for each call; the same calls all run under NumPy. Run by
tests/test_oracle_order_keyword.py."""

import json

import numpy as np

a = np.arange(6.0).reshape(2, 3)
CASES = {
    "asarray": lambda: np.asarray(a, order="F"),
    "asarray_C": lambda: np.asarray(a, order="C"),
    "zeros": lambda: np.zeros((2, 3), order="F"),
    "zeros_None": lambda: np.zeros((2, 3), order=None),
    "ones": lambda: np.ones((2, 3), order="F"),
    "empty": lambda: np.empty((2, 3), order="F"),
    "full": lambda: np.full((2, 3), 1.0, order="F"),
    "zeros_like": lambda: np.zeros_like(a, order="F"),
    "ones_like": lambda: np.ones_like(a, order="F"),
    "empty_like": lambda: np.empty_like(a, order="F"),
    "full_like": lambda: np.full_like(a, 1.0, order="F"),
    "eye": lambda: np.eye(3, order="F"),
    "copy": lambda: np.copy(a, order="F"),
    # accepted: ignored, or (a reshape) sent through host NumPy
    "array": lambda: np.array(a, order="F"),
    "reshape": lambda: np.reshape(a, (3, 2), order="F"),
    "ravel": lambda: np.ravel(a, order="F"),
    "method_reshape": lambda: a.reshape((3, 2), order="F"),
    "method_flatten": lambda: a.flatten(order="F"),
    "method_copy": lambda: a.copy(order="F"),
    "method_astype": lambda: a.astype(float, order="F"),
    "ufunc_add": lambda: np.add(a, a, order="F"),
}


def outcome(case):
    try:
        case()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return "ok"


print(json.dumps({name: outcome(case) for name, case in CASES.items()}))
