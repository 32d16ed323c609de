"""Runtime facts the value engine encodes, checked under cuPyNumeric.

Each ``probe("label", value)`` records what the value is once the program
runs: tests/test_oracle_runtime_facts.py runs this file under the real
cuPyNumeric 26.6.1 and compares every recorded fact with the kind and shape
cpn-lint's model infers for the same expression, statically.
"""

import json
import math

import numpy as np

FACTS = {}


def probe(label, value):
    # (a probed value is not used again: the model joins every call's argument)
    shape = getattr(value, "shape", None)
    FACTS[label] = {
        "type": type(value).__module__.split(".")[0] + "." + type(value).__name__,
        "shape": list(shape) if shape is not None else None,
    }
    return value


def main():
    dx = 0.01
    a = np.arange(10.0)
    b = np.ones((4, 5))
    rng = np.random.default_rng(0)
    probe("sqrt_of_number", np.sqrt(2.0))
    dt = np.sqrt(2.0) * dx
    probe("number_times_sqrt", dt)
    t = 0.0
    t += dt
    probe("number_plus_device_scalar", t)
    probe("element_of_vector", a[3])
    probe("row_of_matrix", b[1])
    probe("element_of_matrix", b[1, 2])
    probe("sum_without_axis", np.sum(a))
    probe("sum_with_axis", np.sum(b, axis=0))
    probe("method_reduction", a.sum())
    probe("legacy_randint_scalar", np.random.randint(10))
    probe("legacy_random_no_size", np.random.random())
    probe("legacy_rand_no_args", np.random.rand())
    probe("legacy_normal_scalar", np.random.normal(0.0, 1.0))
    probe("legacy_normal_sized", np.random.normal(0.0, 1.0, 1000))
    probe("generator_random_no_size", rng.random())
    probe("generator_integers_scalar", rng.integers(5))
    probe("isnan_of_number", np.isnan(0.1))
    probe("pi_times_two", np.pi * 2)
    probe("numpy_scalar_type", np.float64(2.0))
    probe("len_of_array", len(a))
    probe("shape_entry", a.shape[0])
    probe("comparison_of_reduction", np.max(a) > 3)
    probe("math_module", math.sqrt(2.0))
    probe("item_of_element", a[3].item())
    probe("int_of_element", int(a[3]))
    probe("dot_of_vectors", np.dot(a, a))
    probe("norm_of_vector", np.linalg.norm(a))
    probe("matmul_matrix_vector", b @ np.ones(5))
    probe("logspace", np.logspace(0, 1, 1000))
    probe("binomial_sized", np.random.binomial(10, 0.5, 1000))
    probe("exponential_sized", np.random.exponential(1.0, 1000))
    probe("legacy_uniform_no_size", np.random.uniform(0.0, 1.0))
    probe("legacy_exponential_no_size", np.random.exponential(1.0))
    probe("legacy_randn_no_args", np.random.randn())
    probe("generator_normal_no_size", rng.normal())
    probe("draw_times_number", 2.0 * np.random.random() + 1.0)
    probe("element_times_draw", a[2] * np.random.random())
    print("RUNTIME-FACTS " + json.dumps(FACTS))


if __name__ == "__main__":
    main()
