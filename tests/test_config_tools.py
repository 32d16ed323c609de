"""The documented companions: settings in pyproject.toml through
Flake8-pyproject (flake8 itself does not read pyproject.toml, cpn-verdict
reads the same table), and notebooks linted through nbqa."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT
from .verdict_helpers import run_verdict

LOOP = "import numpy as np\na = np.zeros(100_000)\nfor i in range(a.shape[0]):\n    a[i] = a[i] * 2.0\n"


def _flake8(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "flake8", *args], capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.mark.e2e
def test_flake8_settings_in_pyproject_through_flake8_pyproject(tmp_path: Path) -> None:
    pytest.importorskip("flake8p", reason="Flake8-pyproject (test extra) reads [tool.flake8]")
    (tmp_path / "m.py").write_text(LOOP)
    assert "CPN101" in _flake8("--select", "CPN", "m.py", cwd=tmp_path).stdout
    (tmp_path / "pyproject.toml").write_text('[tool.flake8]\nextend-ignore = ["CPN101"]\n')
    assert _flake8("--select", "CPN", "m.py", cwd=tmp_path).stdout == ""
    report = run_verdict("m.py", cwd=tmp_path).stdout  # cpn-verdict reads the same table (and still weighs it)
    assert "**LIGHT REFACTOR**" in report and "settings from `pyproject.toml`" in report
    assert "**Accepted, still weighed:** 1 finding (flake8 ignore settings 1)" in report


@pytest.mark.e2e
def test_notebooks_through_nbqa() -> None:
    pytest.importorskip("nbqa", reason="nbqa (test extra) runs flake8 on notebooks")
    notebook = "fixtures/projects/notebook_demo/explore.ipynb"
    proc = subprocess.run([sys.executable, "-m", "nbqa", "flake8", notebook, "--select=CPN"], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 1, proc.stderr
    (line,) = [x for x in proc.stdout.splitlines() if "CPN104" in x]
    assert line.startswith(f"{notebook}:cell_3:5:") and "(RR-sync)" in line  # nbqa counts code cells only
