"""CPN007 (boolean-mask-indexing) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import pytest

from .assessment_support import SCALES, assessment_at


# --------------------------------------------------------------- boolean masks
@pytest.mark.parametrize(
    ("setup", "index", "loud"),
    [
        ("m = a > 0.5", "m", True),
        ("m = (a > 0.1) & (a < 0.9)", "m", True),
        ("m = ~np.isfinite(a)", "m", True),
        ("m = np.zeros(8, dtype=bool)", "m", True),
        ("m = np.ones(8, dtype=np.bool_)", "m", True),
        ("m = a.astype(bool)", "m", True),
        ("m = np.logical_and(a > 0, a < 1)", "m", True),
        ("m = np.argsort(a)", "m", False),
        ("m = np.nonzero(a > 0.5)", "m", False),
        ("m = a > 0.5\nm = np.arange(4)", "m", False),
        ("m = [True, False] * 4", "m", False),
        ("pass", "a > np.sum(a)", False),  # a comparison with a 0-d result is still a mask
    ],
)
def test_what_counts_as_a_boolean_mask(setup: str, index: str, loud: bool) -> None:
    source = f"import numpy as np\na = np.linspace(0.0, 1.0, 8)\n{setup}\nsel = a[{index}]\n"
    expected = loud or index == "a > np.sum(a)"
    assert ("CPN007" in {c for _, c in assessment_at(source)}) is expected


def test_only_masks_of_the_arrays_own_shape_count() -> None:
    # A row mask or a mask in a tuple index is advanced indexing (Doctor's
    # AdvancedIndexingCheck); cuPyNumeric 26.6.1 cannot write through a row mask.
    source = """
        import numpy as np
        g = np.ones((8, 8))
        a = np.linspace(0.0, 1.0, 64)
        b = np.linspace(1.0, 2.0, 64)
        rows = g[:, 0] > 0.5
        r1 = g[rows]
        r2 = g[rows, :]
        r3 = g[g[:, 1] > 0.5]
        r4 = a[b > 1.5]
        r5 = g[g > 1.0]
        flags = np.isfinite(g) & (g > 0.0)
        g[flags] = 0.0
        r6 = a[np.zeros(64, dtype=bool)]
        r7 = a[np.zeros(32, dtype=bool)]
    """
    assert [line for line, code in assessment_at(source) if code == "CPN007"] == [10, 11, 13, 14]


def test_writes_through_flat_and_constant_where_are_not_what_scales() -> None:
    source = """
        import numpy as np
        a = np.ones(8)
        m = a > 0.5
        a.flat[m] = 0.0
        np.copyto(a, 2.0, where=True)
        np.copyto(a, 2.0, where=m)
    """
    assert assessment_at(source, {"CPN004", "CPN007"}) == [(7, "CPN004")]


def test_a_ufunc_where_mask_is_not_what_scales() -> None:
    # cuPyNumeric 26.6.1 raises NotImplementedError for it
    source = """
        import numpy as np
        a = np.ones(8)
        c = np.zeros(8)
        np.divide(a, a, out=c, where=a != 0.0)
        d = np.add(a, 1.0, where=True) * 2.0
    """
    assert assessment_at(source, SCALES) == [(6, "CPN001")]
