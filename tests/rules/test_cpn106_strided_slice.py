"""CPN106 (strided-slice) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

from cpn_lint import lint_source


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


# ---------------------------------------------------------------------- CPN106
def test_strided_slice_reports_once_per_subscript_and_lists_steps() -> None:
    (finding,) = _findings("CPN106", "import numpy as np\ng = np.zeros((4, 4))\nh = g[::2, ::3]\n")
    assert "step 2 and step 3" in finding.message


def test_chained_strided_slices_report_once() -> None:
    assert len(_findings("CPN106", "import numpy as np\na = np.arange(8)\nb = a[::2][::2]\n")) == 1


def test_strided_slice_steps_from_constants() -> None:
    source = "import numpy as np\nSTEP = 2\nONE = 1\na = np.arange(8)\nb = a[::STEP]\nc = a[::ONE]\nd = a[::+1]\n"
    findings = _findings("CPN106", source)
    assert [(f.line, "step 2" in f.message) for f in findings] == [(5, True)]


def test_strided_slice_column_is_a_byte_offset() -> None:
    (finding,) = _findings("CPN106", "import numpy as np\na = np.arange(4)\ns = 'é'; b = a[::2]\n")
    assert finding.col == len("s = 'é'; b = ".encode())


def test_strided_slice_in_loop_is_marked() -> None:
    (finding,) = _findings("CPN106", "import numpy as np\na = np.arange(8)\nfor i in range(3):\n    a[::2] += 1\n")
    assert finding.in_loop


def test_strided_slice_of_shadowed_slice_is_quiet() -> None:
    source = "import numpy as np\ndef slice(a, b, c):\n    return 0\na = np.arange(4)\nb = a[slice(0, 4, 2)]\n"
    assert _findings("CPN106", source) == []


def test_unknown_steps_are_named_once() -> None:
    source = "import numpy as np\ndef f(a, s, t, u):\n    a = np.asarray(a)\n    return a[::s, ::t, ::u]\n"
    (finding,) = _findings("CPN106", source)
    assert "steps 's', 't' and 'u', which are not known to be 1:" in finding.message
    assert finding.message.count("not known to be 1") == 1
