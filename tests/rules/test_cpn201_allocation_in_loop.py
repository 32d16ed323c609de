"""CPN201 (allocation-in-loop) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

import pytest

from cpn_lint import lint_source


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


def _lines(code: str, source: str) -> list[int]:
    return [f.line for f in _findings(code, source)]


# ---------------------------------------------------------------------- CPN201
def test_cpn201_reports_at_the_call_and_names_the_hoisting_loop() -> None:
    (finding,) = _findings(
        "CPN201",
        """
        import numpy as np
        field = np.ones((4, 4))
        for epoch in range(3):
            for batch in range(10):
                grad = np.empty((4, 4))
        """,
    )
    assert (finding.line, finding.col) == (6, 15)
    assert "loop 'for epoch in range(3)' (line 4)" in finding.message
    assert finding.in_loop and finding.data == {"kind": "allocation", "loop_line": 4}


@pytest.mark.parametrize(
    "body",
    [
        "if it == 0:\n            buf = np.zeros(n)",  # first iteration only
        "if it % 50 == 0:\n            snap = u.copy()",  # every N steps
        "if u[0] > 3.0:\n            keep = u.copy()\n            break",  # leaves the loop
        "try:\n            pass\n        except ValueError:\n            buf = np.zeros(n)",
        "v = np.array(u, copy=False)",
        "v = np.asarray(u)",
        "w = [np.zeros(n) for _ in range(3)]",
        "yield np.zeros(n)",
    ],
)
def test_cpn201_quiet_cases(body: str) -> None:
    source = f"import numpy as np\ndef f(n, steps):\n    u = np.ones(n)\n    for it in range(steps):\n        {body}\n"
    assert _lines("CPN201", source) == []


def test_cpn201_copy_message_points_at_copyto_and_the_swap() -> None:
    (finding,) = _findings(
        "CPN201",
        "import numpy as np\nu = np.ones(8)\nfor n in range(10):\n    un = u.copy()\n    u[1:] = un[1:] - 0.5 * un[:-1]\n",
    )
    assert "np.copyto(un, u)" in finding.message and "(u, un = un, u)" in finding.message
