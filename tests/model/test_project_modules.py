"""A call into another module of the same project is work the file cannot
see: a loop that stores one number per such call is a parameter sweep, not
an element loop. A module counts as the project's when the import is
relative or a file or package of that name sits beside the linted file."""

from __future__ import annotations

from pathlib import Path

from cpn_lint.engine import LintOptions, analyze_source

SWEEP = """\
import numpy as np
from utilities import simulate

energy = np.zeros(40)
for j in range(40):
    energy[j] = simulate(32, 0.5 + 0.05 * j)
"""


def _codes(path: Path) -> list[str]:
    return [f.code for f in analyze_source(path.read_bytes(), str(path), LintOptions()).findings]


def test_a_sweep_over_a_sibling_module_is_quiet(tmp_path: Path) -> None:
    (tmp_path / "utilities.py").write_text("def simulate(n, t):\n    return n * t\n", encoding="utf-8")
    main = tmp_path / "main.py"
    main.write_text(SWEEP, encoding="utf-8")
    assert "CPN101" not in _codes(main)


def test_a_sibling_package_counts_too(tmp_path: Path) -> None:
    (tmp_path / "utilities").mkdir()
    (tmp_path / "utilities" / "__init__.py").write_text("def simulate(n, t):\n    return n * t\n", encoding="utf-8")
    main = tmp_path / "main.py"
    main.write_text(SWEEP, encoding="utf-8")
    assert "CPN101" not in _codes(main)


def test_without_the_sibling_the_element_loop_is_reported(tmp_path: Path) -> None:
    # utilities may then be any installed library: a cheap scalar function
    main = tmp_path / "main.py"
    main.write_text(SWEEP, encoding="utf-8")
    assert "CPN101" in _codes(main)


def test_a_standard_library_name_beside_the_file_is_not_the_project(tmp_path: Path) -> None:
    (tmp_path / "math.py").write_text("def sin(x):\n    return x\n", encoding="utf-8")
    main = tmp_path / "main.py"
    main.write_text(SWEEP.replace("from utilities import simulate", "from math import sin as simulate"),
                    encoding="utf-8")
    assert "CPN101" in _codes(main)


def test_source_without_a_file_never_looks_at_the_disk(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "utilities.py").write_text("def simulate(n, t):\n    return n * t\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    codes = [f.code for f in analyze_source(SWEEP.encode(), "<string>", LintOptions()).findings]
    assert "CPN101" in codes
