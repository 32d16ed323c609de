"""CPN404's "scalar path through TypeError": a boolean mask read from a value
that NumPy hands out as a scalar. NumPy's scalar refuses the assignment with
TypeError and the code takes its scalar branch; cuPyNumeric 26.6.1 gives a
0-d array, and reading it through the 0-d mask aborts the process (Legion,
no Python exception). The recipe (decide by np.ndim) runs under both."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cpn_lint.engine import lint_source

from . import oracle_support as support

PROBE = support.ROOT / "tests" / "data" / "oracle" / "zero_d_mask.py"


def test_numpy_takes_the_scalar_branch_and_cpn404_marks_only_the_idiom() -> None:
    done = subprocess.run([sys.executable, str(PROBE)], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.splitlines()[-1] == "idiom on a number: scalar branch"
    source = PROBE.read_text(encoding="utf-8")
    found = [f for f in lint_source(source, str(PROBE)) if f.code == "CPN404"]
    idiom = next(i for i, line in enumerate(source.splitlines(), 1) if "lat[near] = np.sign(lat[near])" in line)
    assert [f.line for f in found] == [idiom]  # the recipe, which tests the rank, is quiet
    assert "aborts" in found[0].message


@pytest.mark.oracle
def test_cupynumeric_aborts_on_the_zero_d_mask() -> None:
    venv: Path = support.require_oracle_venv()
    run = support.cached_run(PROBE, venv)
    assert run.returncode < 0, run.stdout  # killed by a signal: nothing to catch
    lines = run.stdout.strip().splitlines()  # (Legion prints its backtrace after them)
    assert "idiom on an array: array branch" in lines  # everything before the scalar call ran
    assert "recipe: scalar branch" in lines
    assert not any(line.startswith("idiom on a number") for line in lines)  # the call never returned
    assert "LEGION" in run.stdout + run.stderr_tail
