"""CPN203 (stack-in-loop) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

from cpn_lint import lint_source


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


# ---------------------------------------------------------------------- CPN203
def test_cpn203_one_finding_per_statement() -> None:
    source = (
        "import numpy as np\nH = np.ones((1, 1))\nfor i in range(levels):\n"
        "    H = np.vstack((np.hstack((H, H)), np.hstack((H, -H))))\n"
    )
    (finding,) = _findings("CPN203", source)
    assert (finding.line, finding.col) == (4, 19)  # the first join that grows 'H'
    assert "grows 'H'" in finding.message


def test_cpn203_rebuilt_form_names_the_outer_loop_and_r_is_reported_at_the_subscript() -> None:
    source = (
        "import numpy as np\nu = np.ones(8)\nxs = np.zeros(0)\nfor step in range(5):\n    for k in range(50):\n"
        "        p = np.concatenate([u[-1:], u, u[:1]])\n        xs = np.r_[xs, u]\n"
    )
    rebuilt, grown = _findings("CPN203", source)
    assert rebuilt.data["form"] == "rebuilt" and "for step in range(5)" in rebuilt.message
    assert grown.data["form"] == "growing" and (grown.line, grown.col) == (7, 13)
