"""Hashing array items under cuPyNumeric 26.6.1 (CPN110's set()/frozenset()):
iterating a device array gives 0-d arrays, which are unhashable, so a set of
the items raises TypeError where NumPy's scalars hash. Prints, as JSON, "ok"
or the exception for each case. Run under NumPy and under cuPyNumeric by
tests/test_oracle_hashing.py."""

import json

import numpy as np


def set_of_items():
    labels = np.array([[1, 2], [2, 0]])
    return len(set(labels.ravel()))


def frozenset_of_items():
    return len(frozenset(np.arange(4)))


def set_update_with_items():
    seen = set()
    seen.update(np.array([1, 2, 1]))
    return len(seen)


def recipe_unique_values():
    labels = np.array([[1, 2], [2, 0]])
    return len(np.unique(labels)) + len(set(labels.ravel().tolist()))


CASES = [set_of_items, frozenset_of_items, set_update_with_items, recipe_unique_values]


def outcome(case):
    try:
        case()
    except Exception as exc:  # the outcome is the point
        return f"{type(exc).__name__}: {exc}"
    return "ok"


if __name__ == "__main__":
    print(json.dumps({case.__name__: outcome(case) for case in CASES}))
