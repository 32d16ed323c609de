"""Object-dtype arrays under cuPyNumeric 26.6.1 (CPN107): every spelling the
rule reports raises. Prints, as JSON, "ok" or the exception for each case.
Run under NumPy and under cuPyNumeric by tests/test_oracle_object_dtype.py."""

import json

import numpy as np


def array_of_records():
    return np.array([("a", 1.5), ("bb", 2.0)], dtype=object)


def empty_object_array():
    return np.empty(3, dtype=object)


def astype_object():
    return np.zeros(3).astype(object)


CASES = [array_of_records, empty_object_array, astype_object]


def outcome(case):
    try:
        case()
    except Exception as exc:  # the outcome is the point
        return f"{type(exc).__name__}: {exc}"
    return "ok"


if __name__ == "__main__":
    print(json.dumps({case.__name__: outcome(case) for case in CASES}))
