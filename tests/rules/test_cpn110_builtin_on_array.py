"""CPN110 (builtin-on-array) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

from cpn_lint import lint_source


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


# ---------------------------------------------------------------------- CPN110
def test_builtin_chain_reports_once_at_the_consumer() -> None:
    (finding,) = _findings("CPN110", "import numpy as np\na = np.arange(3)\nd = dict(enumerate(map(abs, a)))\n")
    assert finding.col == len("d = ")


def test_builtin_nested_consumers_report_the_inner_one() -> None:
    # sorted(a) builds a list; list() of that list iterates no array.
    (finding,) = _findings("CPN110", "import numpy as np\na = np.arange(3)\nb = list(sorted(a))\n")
    assert finding.col == len("b = list(")


def test_builtin_with_starred_argument_is_quiet() -> None:
    assert _findings("CPN110", "import numpy as np\na = np.arange(3)\nb = max(*a)\nc = list(zip(*a))\n") == []


def test_builtin_shadowed_by_import_is_quiet() -> None:
    assert _findings("CPN110", "from numpy import arange, max\na = arange(3)\nm = max(a)\n") == []
