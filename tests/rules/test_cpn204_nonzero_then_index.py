"""CPN204 (nonzero-then-index) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

from cpn_lint import lint_source


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


def _lines(code: str, source: str) -> list[int]:
    return [f.line for f in _findings(code, source)]


# ---------------------------------------------------------------------- CPN204
def test_cpn204_suggests_the_mask_in_the_same_index_position() -> None:
    (finding,) = _findings("CPN204", "import numpy as np\nA = np.ones((3, 4))\ncm = A[0] > 0\nB = A[:, np.nonzero(cm)[0]]\n")
    assert "A[:, cm]" in finding.message and (finding.line, finding.col) == (4, 9)


def test_cpn204_single_name_unpacking_and_deduplication() -> None:
    source = "import numpy as np\na = np.ones(6)\n(idx,) = np.nonzero(a > 0.5)\na[idx] = 0.0\nb = a[idx] + a[idx]\n"
    (finding,) = _findings("CPN204", source)
    assert finding.data["lines"] == [4, 5]


def test_cpn204_quiet_when_an_index_array_sits_beside_one_component() -> None:
    source = "import numpy as np\nA = np.ones((3, 3, 2))\nm = A[..., 0] > 0\nA[np.nonzero(m)[0], np.nonzero(m)[1], 1] = 0\n"
    assert _lines("CPN204", source) == []
