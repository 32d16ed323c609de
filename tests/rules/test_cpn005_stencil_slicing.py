"""CPN005 (stencil-slicing) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import pytest

from .assessment_support import assessment_at, assessment_findings


# -------------------------------------------------------------------- stencils
@pytest.mark.parametrize(
    ("expr", "loud"),
    [
        ("u[2:] - 2.0 * u[1:-1] + u[:-2]", True),
        ("u[1:n - 1] - u[0:n - 2]", True),
        ("u[4:] - u[:-4]", True),
        ("u[5:] - u[:-5]", False),  # wider than a small constant offset
        ("u[k:] - u[:-k]", False),  # offset in a variable
        ("u[1:] + u[:]", False),  # different extents
        ("u[1:-1] + u[1:-1]", False),  # one shift only
        ("u[0:98] + u[2:100]", True),
        ("u[:50] + u[50:]", False),
    ],
)
def test_stencil_offsets(expr: str, loud: bool) -> None:
    source = f"import numpy as np\nn = 100\nk = 3\nu = np.ones(n)\nd = {expr}\n"
    assert (("CPN005" in {c for _, c in assessment_at(source)})) is loud


def test_columns_and_rows_are_not_shifted_slices() -> None:
    source = "import numpy as np\nz = np.ones((8, 3))\nd = z[:, 0] - z[:, 1]\ne = z[0, 1:] - z[0, :-1]\n"
    assert [line for line, code in assessment_at(source) if code == "CPN005"] == [4]


def test_stencil_message_names_slices_arrays_and_shift() -> None:
    (finding,) = assessment_findings(
        """
        import numpy as np
        u = np.ones((32, 32))
        w = np.zeros((32, 32))
        w[1:-1, 1:-1] = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * u[1:-1, 1:-1]
        """,
        {"CPN005"},
    )
    assert "5 slices of 'u' shifted by up to 2 cells" in finding.message
    assert finding.data == {"arrays": ["u"], "slices": 5, "max_shift": 2, "limit": 4}
