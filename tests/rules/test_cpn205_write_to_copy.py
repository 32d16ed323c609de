"""CPN205 (write-to-copy) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

from cpn_lint import lint_source


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


def _lines(code: str, source: str) -> list[int]:
    return [f.line for f in _findings(code, source)]


# ---------------------------------------------------------------------- CPN205
def test_cpn205_diagonal_writes_are_reported_even_when_the_copy_is_used() -> None:
    source = "import numpy as np\ndef f(m):\n    m[0, 1] = 0.0\n    d = np.diag(m)\n    d[0] = 1.0\n    return d.sum()\n"
    (finding,) = _findings("CPN205", source)
    assert finding.line == 4 and "raises in NumPy" in finding.message


def test_cpn205_scratch_flip_is_quiet_but_read_original_is_reported() -> None:
    scratch = "import numpy as np\ndef f(a: np.ndarray):\n    r = np.flip(a)\n    r[0] = 1.0\n    return r.sum()\n"
    assert _lines("CPN205", scratch) == []
    read_after = scratch.replace("return r.sum()", "return r.sum() + a.sum()")
    assert _lines("CPN205", read_after) == [3]


def test_cpn205_scratch_use_on_one_branch_ignores_reads_on_the_other() -> None:
    source = (
        "import numpy as np\ndef med(a: np.ndarray, kth, overwrite):\n    if overwrite:\n        part = a.ravel()\n"
        "        part.partition(kth)\n    else:\n        part = np.partition(a, kth)\n    return part[kth]\n"
    )
    assert _lines("CPN205", source) == []
    assert _lines("CPN205", source.replace("return part[kth]", "return part[kth] + a.sum()")) == [4]


def test_cpn205_diag_of_a_parameter_indexed_as_a_matrix() -> None:
    assert _lines("CPN205", "import numpy as np\ndef f(m):\n    x = m[0, 0]\n    d = np.diag(m)\n    d += x\n") == [4]
    assert _lines("CPN205", "import numpy as np\ndef f(v):\n    d = np.diag(v)\n    d += 1.0\n") == []
