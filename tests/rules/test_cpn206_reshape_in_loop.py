"""CPN206 (reshape-in-loop) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

import pytest

from cpn_lint import lint_source


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


def _lines(code: str, source: str) -> list[int]:
    return [f.line for f in _findings(code, source)]


# ---------------------------------------------------------------------- CPN206
@pytest.mark.parametrize(
    "write",
    ["data[0] = 1.0", "np.multiply(data, 2.0, out=data)", "np.copyto(data, 1.0)", "data.fill(0.0)"],
)
def test_cpn206_quiet_when_the_loop_writes_the_original(write: str) -> None:
    source = f"import numpy as np\ndata = np.ones(16)\nfor t in range(10):\n    {write}\n    g = data.reshape(4, 4)\n"
    assert _lines("CPN206", source) == []


def test_cpn206_reports_at_the_call() -> None:
    (finding,) = _findings("CPN206", "import numpy as np\ndata = np.ones(16)\nfor t in range(10):\n    s = 2.0 * data.reshape(4, 4)\n")
    assert (finding.line, finding.col) == (4, 14) and "reshapes 'data'" in finding.message
