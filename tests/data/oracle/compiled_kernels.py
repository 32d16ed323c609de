"""Numba-compiled functions handed cuPyNumeric data: one case per form.

Each case runs on its own; the script prints, as JSON, "ok" or the
exception type for each. Under NumPy (with Numba installed) every case runs;
under cuPyNumeric 26.6.1 every case but the object-mode one and the one on
Python numbers fails. tests/test_oracle_compiled_kernels.py runs it both ways
and checks CPN112 against the result.
"""

import json

import numba
import numpy as np
from numba import guvectorize, jit, njit, prange, stencil, vectorize


@njit
def njit_total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@jit
def jit_total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit(parallel=True)
def parallel_total(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


@vectorize(["float64(float64)"])
def vectorize_twice(x):
    return 2.0 * x


@guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")
def guvectorize_cumulative(x, out):
    acc = 0.0
    for i in range(x.shape[0]):
        acc += x[i]
        out[i] = acc


@stencil
def stencil_smooth(a):
    return 0.5 * (a[-1] + a[1])


@njit
def numbers_only(x, y):
    return x * y + 1.0


@numba.njit
def makes_an_array(n):
    return np.zeros(n)


@jit(forceobj=True)
def object_mode_total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


def njit_on_an_array():
    return njit_total(np.ones(100))


def jit_on_an_array():
    return jit_total(np.ones(100))


def parallel_on_an_array():
    return parallel_total(np.ones(100))


def vectorize_on_an_array():
    return vectorize_twice(np.linspace(0.0, 1.0, 100))


def guvectorize_on_an_array():
    return guvectorize_cumulative(np.ones(100))


def stencil_on_an_array():
    return stencil_smooth(np.ones(100))


def njit_on_a_device_scalar():
    return numbers_only(np.sum(np.ones(100)), 3.0)


def njit_calling_numpy_inside():
    return makes_an_array(10)


def njit_on_python_numbers():
    return numbers_only(2.0, 3.0)


def object_mode_on_an_array():
    return object_mode_total(np.ones(100))


CASES = [
    njit_on_an_array, jit_on_an_array, parallel_on_an_array, vectorize_on_an_array, guvectorize_on_an_array,
    stencil_on_an_array, njit_on_a_device_scalar, njit_calling_numpy_inside, njit_on_python_numbers,
    object_mode_on_an_array,
]


def outcome(case):
    try:
        result = case()
    except Exception as exc:
        return {"error": type(exc).__name__}
    return {"ok": type(result).__name__}


if __name__ == "__main__":
    print(json.dumps({case.__name__: outcome(case) for case in CASES}))
