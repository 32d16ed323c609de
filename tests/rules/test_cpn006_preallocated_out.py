"""CPN006 (preallocated-out) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

from .assessment_support import assessment_at


# -------------------------------------------------------------- out= and swaps
def test_out_keyword_must_name_an_existing_device_buffer() -> None:
    source = """
        import cupynumeric as np
        import numpy as onp
        a = np.ones(8)
        r = np.empty(8)
        h = onp.ones(8)
        np.add(a, a, out=r)
        np.add(a, a, out=np.empty_like(a))
        np.add(a, a, out=None)
        onp.add(h, h, out=h)
        np.sqrt(a, out=(r,))
    """
    assert [line for line, code in assessment_at(source) if code == "CPN006"] == [7, 11]


def test_out_parameter_counts_when_every_caller_passes_one() -> None:
    source = """
        import numpy as np
        def scale(x: np.ndarray, out):
            np.multiply(x, 2.0, out=out)
        def total(x: np.ndarray, out=None):
            return np.sum(x, axis=0, out=out)
        def accumulate(x: np.ndarray, *, out):
            np.add.reduceat(x, [0, 2], out=out)
    """
    assert [line for line, code in assessment_at(source) if code == "CPN006"] == [4]


def test_swaps_and_rotations_of_arrays_in_loops() -> None:
    source = """
        import numpy as np
        a, b, c = np.ones(4), np.ones(4), np.ones(4)
        for step in range(3):
            a, b, c = b, c, a
            a, b = a, b
            n, m = 1, 2
            n, m = m, n
    """
    assert [line for line, code in assessment_at(source) if code == "CPN006"] == [5]
