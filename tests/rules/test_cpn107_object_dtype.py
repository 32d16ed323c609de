"""CPN107 (object-dtype) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

from cpn_lint import lint_source


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


# ---------------------------------------------------------------------- CPN107
def test_object_dtype_reports_at_keyword_and_positional_argument() -> None:
    source = "import numpy as np\na = np.array([1], dtype=object)\nb = np.empty(2, 'O')\n"
    findings = _findings("CPN107", source)
    assert [(f.line, f.col) for f in findings] == [(2, len("a = np.array([1], ")), (3, len("b = np.empty(2, "))]


def test_object_dtype_string_only_in_dtype_position() -> None:
    # 'O' as the fill value of np.full is data, not a dtype.
    assert _findings("CPN107", "import numpy as np\na = np.full(3, 'O')\nb = np.array(['O'])\n") == []


def test_object_dtype_column_on_non_ascii_line() -> None:
    (finding,) = _findings("CPN107", "import numpy as np\nlabel = 'ü'; a = np.empty(2, dtype=object)\n")
    assert finding.col == len("label = 'ü'; a = np.empty(2, ".encode())
