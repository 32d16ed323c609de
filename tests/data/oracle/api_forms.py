"""Argument forms of implemented NumPy functions that cuPyNumeric 26.6.1
rejects: one minimal reproduction per form. Each case runs on its own; the
script prints, as JSON, "ok" or the exception type and message for each.
Run under NumPy and under cuPyNumeric by tests/test_oracle_api_forms.py; the
forms are listed in docs/design/cpn404-forms.md."""

import json
import math

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


def int_of_comparison_with_random_without_size():
    return int(np.random.random() < 0.3)  # a Bernoulli trial: the comparison keeps the shape (1,)


def int_of_ufunc_of_random_without_size():
    return int(np.floor(np.random.random() * 3))


def float_of_combined_comparisons_of_draws():
    return float((np.random.random() < 0.3) & (np.random.uniform(0.0, 1.0) < 0.5))


def round_of_random_without_size():
    return round(np.random.random())


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


def _headless():
    import matplotlib

    matplotlib.use("Agg")


def matplotlib_limits_of_0d_values():
    _headless()
    import matplotlib.pyplot as plt

    a = np.linspace(0.0, 1.0, 5)
    return plt.xlim(a[0], a[-1])


def matplotlib_patch_at_0d_point():
    _headless()
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle

    a = np.linspace(0.0, 1.0, 5)
    return plt.subplots()[1].add_patch(Circle((a[1], a[2]), 0.1))


def recipe_matplotlib_limits_of_floats():
    _headless()
    import matplotlib.pyplot as plt

    a = np.linspace(0.0, 1.0, 5)
    return plt.xlim(float(a[0]), float(a[-1]))


def ndim_of_a_string():
    return np.ndim("bs")


def array_of_strings():
    return np.array(["a", "b"])


def where_choosing_strings():
    return np.where(np.arange(3) > 1, "big", "small")


def recipe_strings_kept_in_a_list():
    labels = ["a", "b", "a"]
    return np.array([labels.index(x) for x in labels])


def scipy_special_ufunc_of_array():
    import scipy.special

    return scipy.special.jv(1, np.linspace(0.1, 1.0, 5))


def scipy_special_ufunc_of_0d_value():
    import scipy.special

    x = np.linspace(0.1, 1.0, 5)
    return scipy.special.gamma(x[1])


def recipe_scipy_special_ufunc_of_host_copy():
    import scipy.special

    x = np.linspace(0.1, 1.0, 5)
    return scipy.special.jv(1, x.__array__()) + scipy.special.gamma(float(x[1]))


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


# -- forms added with CPN404 ---------------------------------------------------


def gamma_with_list_shape():
    return np.random.gamma([1.0, 2.0], 1.0, size=2)


def generator_integers_with_array_high():
    return np.random.default_rng(0).integers(0, np.full(4, 5))


def seed_with_array():
    np.random.seed(np.arange(3))


def math_of_normal_without_size():
    return math.exp(np.random.normal(0.0, 1.0))


def format_of_random_without_size():
    return "%.3f" % np.random.random()


def norm_nuclear():
    return np.linalg.norm(np.eye(3), "nuc")


def isclose_with_equal_nan():
    return np.isclose(np.ones(3), np.ones(3), equal_nan=True)


def histogram_with_bin_rule():
    return np.histogram(np.arange(8.0), bins="auto")


class Tagged(np.ndarray):
    """An ndarray subclass made the documented NumPy way."""

    def __array_finalize__(self, obj):
        self.tag = getattr(obj, "tag", None)


def view_as_ndarray_subclass():
    return np.arange(4.0).view(Tagged)


def ndarray_new_of_subclass():
    made = np.ndarray.__new__(Tagged, (3,))
    made.fill(1.0)
    return made.sum()


def ndarray_new_with_buffer():
    class Quat(np.ndarray):
        def __new__(subtype, q):
            q = np.asarray(q, dtype=float)
            return super(Quat, subtype).__new__(subtype, q.shape, float, q)

    return Quat([1.0, 0.0, 0.0, 0.0]).sum()


def eig_of_a_symmetric_matrix():
    w, v = np.linalg.eig(np.array([[2.0, 1.0], [1.0, 3.0]]))
    return f"{w.dtype} {v.dtype}"


def isinstance_of_an_element():
    return isinstance(np.arange(3.0)[1], (int, float))


def isscalar_of_a_sum():
    return bool(np.isscalar(np.sum(np.arange(3.0))))


def true_in_a_mask():
    return True in (np.arange(4.0) > 2)


def ndarray_subscripted_as_type():
    from typing import Any, cast

    a = np.arange(3.0)
    return cast(np.ndarray[Any, Any], a).sum()


# -- forms that work: CPN404 stays quiet, and the recipes it gives run --------


def bool_of_comparison_with_random_without_size():
    return bool(np.random.random() < 0.3)


def int_of_comparison_with_rand():
    return int(np.random.rand() < 0.3)  # rand() without size is 0-d


def rand_without_size_as_float():
    return float(np.random.rand())


def randn_added_into_scalar_slot():
    x = np.zeros(4)
    x[0] += np.random.randn()
    return x


def draw_added_into_a_row():
    x = np.zeros((4, 4))
    x[1] += np.random.normal()
    return x


def draw_into_row_through_0d_index():
    x = np.zeros((4, 3))
    x[np.argmax(np.arange(4.0))] = np.random.random()
    return x


def generator_integers_with_0d_bound():
    n = np.sum(np.arange(10) > 3)
    return np.random.default_rng(0).integers(n)


def int_of_generator_integers_without_size():
    # k_kmeans_update:28 (corpus label corrected): a size-less rng.integers(n) is 0-d, not (1,)
    return int(np.random.default_rng(0).integers(10))


def normal_with_0d_mean():
    return np.random.normal(np.sum(np.ones(3)), 1.0, size=4)


def recipe_one_element_draw_as_float():
    return float(np.random.random(1)[0])


def recipe_one_element_draw_added_into_scalar_slot():
    x = np.zeros(4)
    x[0] += np.random.normal(0.0, 2.0, 1)[0]
    return x


def recipe_shift_and_scale_standard_normals():
    mu = np.linspace(0.0, 1.0, 8)
    return mu + 0.5 * np.random.normal(0.0, 1.0, mu.shape)


def recipe_uniform_onto_array_bounds():
    lo = np.zeros(8)
    hi = lo + 2.0
    return lo + (hi - lo) * np.random.random(lo.shape)


def recipe_int_of_0d_bound():
    return np.random.randint(int(np.sum(np.arange(10) > 3)))


def recipe_singular_values_for_spectral_norm():
    return np.linalg.svd(np.eye(3))[1].max()


def recipe_bincount_for_unique_counts():
    return np.bincount(np.array([3, 1, 3, 2]))


def recipe_convolve_same_on_padded_input():
    return np.convolve(np.pad(np.ones(8), 1), np.ones(3), mode="same")


def _valid_convolution(a, v):
    """np.convolve(a, v, mode='valid') in plain Python, the reference the recipes must match."""
    a, v = [float(x) for x in a], [float(x) for x in v]
    m = len(v)
    return [sum(a[k + j] * v[m - 1 - j] for j in range(m)) for k in range(len(a) - m + 1)]


def _matches(got, reference):
    got = [float(x) for x in got]
    return len(got) == len(reference) and all(abs(g - r) < 1e-9 for g, r in zip(got, reference))


def recipe_convolve_valid_by_slicing_same():
    ok = True
    for n, m in ((20, 5), (20, 4), (16, 16), (9, 1)):
        a = np.sin(np.arange(n) * 0.7) + 0.1 * np.arange(n)
        v = np.cos(np.arange(m) * 0.3) + 1.0
        got = np.convolve(a, v, mode="same")[len(v) // 2 : len(a) - (len(v) - 1) // 2]
        ok = ok and _matches(got, _valid_convolution(a, v))
    return ok


def recipe_convolve_full_by_padding_then_slicing():
    ok = True
    for n, m in ((20, 5), (20, 4), (9, 1)):
        a = np.sin(np.arange(n) * 0.7) + 0.1 * np.arange(n)
        v = np.cos(np.arange(m) * 0.3) + 1.0
        padded = np.pad(a, len(v) - 1)
        got = np.convolve(padded, v, mode="same")[len(v) // 2 : len(padded) - (len(v) - 1) // 2]
        ok = ok and _matches(got, _valid_convolution(np.pad(a, m - 1), v))
    return ok


def recipe_where_instead_of_ufunc_where():
    a = np.arange(8.0)
    return np.where(a > 3, np.add(a, 1.0), np.zeros(8))


CASES = [
    normal_with_array_mean, normal_with_array_scale, uniform_with_array_bounds, randint_with_0d_bound,
    randint_with_array_high, random_without_size_into_slot_picked_by_0d_index,
    normal_without_size_added_into_scalar_slot, float_of_random_without_size, random_without_size_into_scalar_slot,
    random_without_size_shape, generator_normal_with_array_mean, ufunc_where_keyword,
    ufunc_out_of_a_narrower_dtype, range_of_a_0d_array, index_with_a_0d_array, convolve_default_mode,
    matmul_with_keyword, norm_of_order_two, matrix_power_negative, qr_of_a_wide_matrix, unique_with_return_index,
    gamma_with_list_shape, generator_integers_with_array_high, seed_with_array, math_of_normal_without_size,
    format_of_random_without_size, int_of_comparison_with_random_without_size, int_of_ufunc_of_random_without_size,
    float_of_combined_comparisons_of_draws, round_of_random_without_size, bool_of_comparison_with_random_without_size,
    int_of_comparison_with_rand, norm_nuclear, isclose_with_equal_nan, histogram_with_bin_rule,
    view_as_ndarray_subclass, ndarray_new_of_subclass, ndarray_new_with_buffer, ndarray_subscripted_as_type,
    eig_of_a_symmetric_matrix, isinstance_of_an_element, isscalar_of_a_sum, true_in_a_mask,
    rand_without_size_as_float, randn_added_into_scalar_slot, draw_added_into_a_row, draw_into_row_through_0d_index,
    generator_integers_with_0d_bound, int_of_generator_integers_without_size, normal_with_0d_mean,
    recipe_one_element_draw_as_float,
    recipe_one_element_draw_added_into_scalar_slot, recipe_shift_and_scale_standard_normals,
    recipe_uniform_onto_array_bounds, recipe_int_of_0d_bound, recipe_singular_values_for_spectral_norm,
    recipe_bincount_for_unique_counts, recipe_convolve_same_on_padded_input, recipe_where_instead_of_ufunc_where,
    recipe_convolve_valid_by_slicing_same, recipe_convolve_full_by_padding_then_slicing,
    scipy_special_ufunc_of_array, scipy_special_ufunc_of_0d_value, recipe_scipy_special_ufunc_of_host_copy,
    ndim_of_a_string, array_of_strings, where_choosing_strings, recipe_strings_kept_in_a_list,
    matplotlib_limits_of_0d_values, matplotlib_patch_at_0d_point, recipe_matplotlib_limits_of_floats,
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
