"""A boolean mask taken from a value that may be a number (CPN404's
"scalar path through TypeError"): NumPy math on a Python number gives a
NumPy scalar, which refuses item assignment with TypeError, so code written
for scalars and arrays alike catches TypeError and takes its scalar branch.
Under cuPyNumeric 26.6.1 the value is a 0-d array: storing through the 0-d
mask raises nothing, and reading through it makes Legion abort the whole
process (no Python exception can catch it). The recipe, which tests the
rank first, runs under both. Prints one line per step, flushed, so the
lines before an abort survive. Run by tests/test_oracle_zero_d_mask.py."""

import numpy as np


def clamp_pole(lat):
    """The idiom: arrays take the mask, scalars raise TypeError."""
    try:
        near = abs(np.pi / 2 - abs(lat)) < 1e-10
        lat[near] = np.sign(lat[near]) * (np.pi / 2 - 1e-10)
        return "array branch"
    except TypeError:
        return "scalar branch"


def recipe_clamp_pole(lat):
    """Decide by rank, not by an exception."""
    if np.ndim(lat) == 0:
        return "scalar branch"
    near = abs(np.pi / 2 - abs(lat)) < 1e-10
    lat[near] = np.sign(lat[near]) * (np.pi / 2 - 1e-10)
    return "array branch"


if __name__ == "__main__":
    print("recipe:", recipe_clamp_pole(np.radians(40.0)), flush=True)
    print("recipe on an array:", recipe_clamp_pole(np.radians(np.array([40.0, 90.0]))), flush=True)
    print("idiom on an array:", clamp_pole(np.radians(np.array([40.0, 90.0]))), flush=True)
    print("idiom on a number:", clamp_pole(np.radians(40.0)), flush=True)
