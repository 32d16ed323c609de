"""Copy versus view (issue 12): which NumPy views are copies in cuPyNumeric.

tests/data/oracle/views.py writes through the result of each view-making
function and method and reads the base back. Under NumPy every case but the
copies (flatten, roll, triu) and the read-only views (diagonals,
broadcast_to) writes through; under cuPyNumeric 26.6.1 the cases below do
not, and CPN205's table must know each one a static check can tell apart.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cpn_lint import oracle
from cpn_lint.rules import cpn205_write_to_copy as cpn205

from . import oracle_support as support

PROBE = support.ROOT / "tests" / "data" / "oracle" / "views.py"
# View (or read-only view) in NumPy, copy in cuPyNumeric 26.6.1.
COPIES_IN_CUPYNUMERIC = {
    "diag", "diagonal", "ndarray.diagonal", "flip", "fliplr", "flipud", "rot90", "ravel", "ndarray.ravel",
    "reshape", "ndarray.reshape", "ndarray.reshape(-1)", "real(complex)", "imag(complex)",
    "ndarray.real(complex)", "ndarray.imag(complex)",
}
# Copies whose being a copy depends on the dtype (complex), which a static check does not know.
DTYPE_DEPENDENT = {"real(complex)", "imag(complex)", "ndarray.real(complex)", "ndarray.imag(complex)"}
READ_ONLY_IN_NUMPY = {"diag", "diagonal", "ndarray.diagonal", "broadcast_to"}
COPIES_IN_BOTH = {"ndarray.flatten", "roll", "triu"}


def _numpy_outcomes() -> dict[str, str]:
    done = subprocess.run([sys.executable, str(PROBE)], capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout)


def test_numpy_writes_through_every_view() -> None:
    outcomes = _numpy_outcomes()
    assert {k for k, v in outcomes.items() if v == "copy"} == COPIES_IN_BOTH
    assert {k for k, v in outcomes.items() if v.startswith("ValueError")} == READ_ONLY_IN_NUMPY
    assert all(v == "view" for k, v in outcomes.items() if k not in COPIES_IN_BOTH | READ_ONLY_IN_NUMPY)


def test_cpn205_knows_every_copy_a_static_check_can_see() -> None:
    names = {name.split("(")[0] for name in COPIES_IN_CUPYNUMERIC - DTYPE_DEPENDENT}
    functions = {n for n in names if not n.startswith("ndarray.")}
    methods = {n[len("ndarray."):] for n in names if n.startswith("ndarray.")}
    assert functions <= set(cpn205._FUNCTION_COPIES), functions - set(cpn205._FUNCTION_COPIES)
    assert methods <= set(cpn205._METHOD_COPIES), methods - set(cpn205._METHOD_COPIES)


@pytest.fixture(scope="module")
def venv() -> Path:
    try:
        return oracle.ensure_venv(support.oracle_venv_path())
    except oracle.OracleError as exc:
        if os.environ.get("CPN_ORACLE_REQUIRED"):
            pytest.fail(f"the oracle environment is required here but could not be created: {exc}")
        pytest.skip(f"cuPyNumeric oracle environment cannot be created: {exc}")


@pytest.mark.oracle
def test_which_views_are_copies_in_cupynumeric(venv: Path) -> None:
    run = support.cached_run(PROBE, venv)
    assert run.ok, run.stderr_tail
    outcomes = json.loads(run.stdout.strip().splitlines()[-1])
    copies = {k for k, v in outcomes.items() if v == "copy"}
    assert copies == COPIES_IN_CUPYNUMERIC | COPIES_IN_BOTH
    assert outcomes["broadcast_to"].startswith("ValueError")  # read-only in both
    assert {k for k, v in outcomes.items() if v == "view"} == set(outcomes) - copies - {"broadcast_to"}
