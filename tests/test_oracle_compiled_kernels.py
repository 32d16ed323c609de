"""Numba-compiled functions on cuPyNumeric data (CPN112), settled by the runtime.

tests/data/oracle/compiled_kernels.py runs each form of compiled function
under NumPy, where all run, and under the real cuPyNumeric 26.6.1, where
every one handed cuPyNumeric data fails; CPN112 must report exactly the
compiled functions those failing cases call.
"""

from __future__ import annotations

import ast
import json
import subprocess
from pathlib import Path

import pytest

from cpn_lint import oracle
from cpn_lint.engine import lint_source

from . import oracle_support as support

PROBE = support.ROOT / "tests" / "data" / "oracle" / "compiled_kernels.py"
# case -> the exception cuPyNumeric 26.6.1 raises (None: it runs)
EXPECTED: dict[str, str | None] = {
    "njit_on_an_array": "TypingError",
    "jit_on_an_array": "TypingError",
    "parallel_on_an_array": "TypingError",
    "vectorize_on_an_array": "NotImplementedError",
    "guvectorize_on_an_array": "NotImplementedError",
    "stencil_on_an_array": "ValueError",
    "njit_on_a_device_scalar": "TypingError",
    "njit_calling_numpy_inside": "TypingError",
    "njit_on_python_numbers": None,
    "object_mode_on_an_array": None,
}
# the compiled function each case calls
CALLS = {
    "njit_on_an_array": "njit_total", "jit_on_an_array": "jit_total", "parallel_on_an_array": "parallel_total",
    "vectorize_on_an_array": "vectorize_twice", "guvectorize_on_an_array": "guvectorize_cumulative",
    "stencil_on_an_array": "stencil_smooth", "njit_on_a_device_scalar": "numbers_only",
    "njit_calling_numpy_inside": "makes_an_array", "njit_on_python_numbers": "numbers_only",
    "object_mode_on_an_array": "object_mode_total",
}


def test_cpn112_reports_the_functions_the_failing_cases_call() -> None:
    source = PROBE.read_text(encoding="utf-8")
    defs = {node.name: node.lineno for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)}
    reported = {f.data["function"] for f in lint_source(source, str(PROBE)) if f.code == "CPN112"}
    failing = {CALLS[case] for case, error in EXPECTED.items() if error is not None}
    assert reported == failing, f"reported {sorted(reported)}, failing {sorted(failing)}"
    assert all(name in defs for name in CALLS.values())


@pytest.fixture(scope="module")
def venv() -> Path:
    return support.require_oracle_venv()


def _outcomes(stdout: str) -> dict[str, dict[str, str]]:
    line = next(line for line in stdout.splitlines() if line.startswith("{"))
    return json.loads(line)


@pytest.mark.oracle
def test_every_case_runs_under_numpy_with_numba(venv: Path) -> None:
    done = subprocess.run([str(oracle.venv_python(venv)), str(PROBE)], capture_output=True, text=True,
                          check=True, timeout=600)
    outcomes = _outcomes(done.stdout)
    assert set(outcomes) == set(EXPECTED)
    assert all("ok" in result for result in outcomes.values()), outcomes


@pytest.mark.oracle
def test_each_case_fails_under_cupynumeric_as_recorded(venv: Path) -> None:
    run = support.cached_run(PROBE, venv)
    outcomes = _outcomes(run.stdout)
    assert {case: result.get("error") for case, result in outcomes.items()} == EXPECTED
