"""CPN202 (rebind-in-loop) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

import pytest

from cpn_lint import lint_source


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


def _lines(code: str, source: str) -> list[int]:
    return [f.line for f in _findings(code, source)]


# ---------------------------------------------------------------------- CPN202
def test_cpn202_reports_at_the_assignment_with_the_ufunc_chain() -> None:
    (finding,) = _findings("CPN202", "import numpy as np\nx = np.ones(4)\ny = np.ones(4)\nfor _ in range(9):\n    x = y - x\n")
    assert (finding.line, finding.col) == (5, 4)
    assert "np.subtract(y, x, out=x)" in finding.message and finding.data["name"] == "x"


@pytest.mark.parametrize(
    "loop",
    [
        "for _ in range(9):\n    x = np.add(x, y, out=x)\n",  # already writes into x
        "while x > 0.5:\n    x = x * 0.5\n",  # a truth test: a single number
        "for _ in range(9):\n    z = x\n    z = z * 2.0\n",  # fresh in the iteration
        "for _ in range(9):\n    x = (x + y)[::2]\n",  # not x's buffer any more
    ],
)
def test_cpn202_quiet_cases(loop: str) -> None:
    assert _lines("CPN202", "import numpy as np\nx = np.ones(4)\ny = np.ones(4)\n" + loop) == []


def test_cpn202_follows_a_name_back_to_a_reduction() -> None:
    source = (
        "import numpy as np\nu = np.ones(4)\nbeta = np.linalg.norm(u)\nphibar = beta\n"
        "for k in range(9):\n    phibar = 0.5 * phibar\n"
    )
    assert _lines("CPN202", source) == []
