"""Argument forms of implemented NumPy functions that cuPyNumeric 26.6.1
rejects: one minimal reproduction per form. Each case runs on its own; the
script prints, as JSON, "ok" or the exception type and message for each.
Run under NumPy and under cuPyNumeric by tests/test_oracle_api_forms.py; the
forms are listed in docs/design/cpn404-forms.md."""

import json

import numpy as np


def normal_with_array_mean():
    mu = np.linspace(0.0, 1.0, 8)
    return np.random.normal(mu, 0.1)


def normal_with_array_scale():
    return np.random.normal(0.0, np.full(8, 0.5))


def uniform_with_array_bounds():
    lo = np.zeros(8)
    return np.random.uniform(lo, lo + 1.0)


def randint_with_0d_bound():
    mask = np.arange(10) > 3
    n = np.sum(mask)  # a 0-d array under cuPyNumeric
    return np.random.randint(n)


def randint_with_array_high():
    return np.random.randint(0, np.full(4, 5))


def random_without_size_into_slot_picked_by_0d_index():
    x = np.zeros(4)
    i = np.argmax(np.arange(4.0))  # a 0-d array under cuPyNumeric
    x[i] = np.random.random()  # shape (1,) under cuPyNumeric, not a scalar
    return x


def normal_without_size_added_into_scalar_slot():
    x = np.zeros(4)
    x[0] += np.random.normal(0.0, 2.0)
    return x


def float_of_random_without_size():
    return float(np.random.random())


def random_without_size_into_scalar_slot():
    x = np.zeros(4)
    x[0] = np.random.random()  # works: the (1,) value broadcasts into the slot
    return x


def random_without_size_shape():
    return np.shape(np.random.random())


def generator_normal_with_array_mean():
    rng = np.random.default_rng(0)
    return rng.normal(np.linspace(0.0, 1.0, 8), 0.1)


def ufunc_where_keyword():
    a = np.arange(8.0)
    out = np.zeros(8)
    return np.add(a, 1.0, out=out, where=a > 3)


def ufunc_out_of_a_narrower_dtype():
    counts = np.zeros(8, dtype=np.int64)
    return np.multiply(np.arange(8.0), 0.5, out=counts)


def range_of_a_0d_array():
    n = np.sum(np.arange(5) > 1)
    return list(range(n))


def index_with_a_0d_array():
    a = np.arange(10.0)
    i = np.argmax(a)
    return float(a[i])


def convolve_default_mode():
    return np.convolve(np.ones(8), np.ones(3))


def matmul_with_keyword():
    a = np.ones((3, 3))
    return np.matmul(a, a, out=np.zeros((3, 3)), casting="same_kind")


def norm_of_order_two():
    return np.linalg.norm(np.eye(3), 2)


def matrix_power_negative():
    return np.linalg.matrix_power(2.0 * np.eye(3), -1)


def qr_of_a_wide_matrix():
    return np.linalg.qr(np.ones((2, 4)))


def unique_with_return_index():
    return np.unique(np.array([3, 1, 3, 2]), return_index=True)


CASES = [
    normal_with_array_mean, normal_with_array_scale, uniform_with_array_bounds, randint_with_0d_bound,
    randint_with_array_high, random_without_size_into_slot_picked_by_0d_index,
    normal_without_size_added_into_scalar_slot, float_of_random_without_size, random_without_size_into_scalar_slot,
    random_without_size_shape, generator_normal_with_array_mean, ufunc_where_keyword,
    ufunc_out_of_a_narrower_dtype, range_of_a_0d_array, index_with_a_0d_array, convolve_default_mode,
    matmul_with_keyword, norm_of_order_two, matrix_power_negative, qr_of_a_wide_matrix, unique_with_return_index,
]


def legate_reason(message):
    """The C++ exception of a Legate error report (the rest is a stack trace)."""
    for line in message.splitlines():
        if "#0 std::" in line:
            return line.split("#0 ", 1)[1].strip()
    return message


def outcome(case):
    try:
        result = case()
    except Exception as exc:
        return {"error": type(exc).__name__, "message": legate_reason(str(exc))}
    return {"ok": repr(result)[:80]}


if __name__ == "__main__":
    print(json.dumps({case.__name__: outcome(case) for case in CASES}))
