"""Stepped slices under cuPyNumeric 26.6.1 (CPN106), and the reversal its
message recommends instead: one case per form. Prints, as JSON, "ok" or the
exception type and message for each. Run under NumPy and under cuPyNumeric
by tests/test_oracle_slices.py."""

import json

import numpy as np


def every_second_element():
    return np.arange(10.0)[::2]


def every_second_element_from_one():
    return np.arange(10.0)[1::2]


def reversed_vector():
    return np.arange(10.0)[::-1]


def reversed_columns():
    return np.zeros((4, 4))[:, ::-1]


def reversed_range_builder():
    return np.linspace(0.0, 1.0, 5)[::-1]


def stepped_write():
    a = np.zeros(10)
    a[::2] = 1.0
    return a


def bounded_reversal_to_zero():
    return np.arange(10.0)[:0:-1]  # NumPy: 9 elements


def bounded_reversal_from_the_end():
    return np.arange(10.0)[-1:0:-1]  # NumPy: 9 elements


def bounded_step_back_by_two():
    return np.arange(10.0)[8:2:-2]  # NumPy: 3 elements


def recipe_flip_vector():
    return np.flip(np.arange(10.0))


def recipe_flip_columns():
    return np.flip(np.zeros((4, 4)), axis=1)


def recipe_descending_linspace():
    return np.linspace(1.0, 0.0, 5)


def recipe_host_built_mask():
    keep = [i % 2 == 0 for i in range(10)]  # the selection, made on the host
    return np.arange(10.0)[np.asarray(keep)]


CASES = [every_second_element, every_second_element_from_one, reversed_vector, reversed_columns,
         reversed_range_builder, stepped_write, recipe_flip_vector, recipe_flip_columns, recipe_descending_linspace,
         recipe_host_built_mask]
# forms that run but whose size is the point: the outcome records it
SIZED = [bounded_reversal_to_zero, bounded_reversal_from_the_end, bounded_step_back_by_two]


def main():
    outcomes = {}
    for case in CASES:
        try:
            result = case()
            float(result.sum())  # make the runtime finish the work
            outcomes[case.__name__] = "ok"
        except Exception as exc:  # the outcome is the point
            outcomes[case.__name__] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    for case in SIZED:
        outcomes[case.__name__] = f"ok, {int(case().size)} elements"
    print(json.dumps(outcomes))


if __name__ == "__main__":
    main()
