"""CPN109 (order-keyword) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

import pytest

from cpn_lint import lint_source


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


# ---------------------------------------------------------------------- CPN109
@pytest.mark.parametrize("value", ["'c'", "'C'", "None"])
def test_order_default_values_are_quiet(value: str) -> None:
    assert _findings("CPN109", f"import numpy as np\na = np.ones(4)\nb = a.reshape(2, 2, order={value})\n") == []


def test_order_keyword_position_is_the_keyword() -> None:
    (finding,) = _findings("CPN109", "import numpy as np\na = np.ones(4)\nb = a.reshape(2, 2, order='F')\n")
    assert (finding.line, finding.col) == (3, len("b = a.reshape(2, 2, "))


def test_order_on_unknown_receiver_is_quiet() -> None:
    source = "import numpy as np\nimport scipy.sparse as sp\nm = sp.eye(3)\nr = m.reshape((9, 1), order='F')\n"
    assert _findings("CPN109", source) == []
