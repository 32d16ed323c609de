"""Copy versus view (issue 12): which NumPy views are copies in cuPyNumeric.

tests/data/oracle/views.py writes through the result of each view-making
function and method and reads the base back. Under NumPy every case but the
copies (flatten, roll, triu) and the read-only views (diagonals,
broadcast_to) writes through; under cuPyNumeric 26.6.1 the cases below do
not, and the model's table (numpy_api.VIEW_BECOMES_COPY, which CPN205
reads) must know each one a static check can tell apart. Issue 23 added
offsets and axes, strided slices (refused by cuPyNumeric), reshapes that are
copies in NumPy too, and the views that stay views (atleast_*d, .mT).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cpn_lint.model import numpy_api
from cpn_lint.rules import cpn205_write_to_copy as cpn205

from . import oracle_support as support

PROBE = support.ROOT / "tests" / "data" / "oracle" / "views.py"
# View (or read-only view) in NumPy, copy in cuPyNumeric 26.6.1.
COPIES_IN_CUPYNUMERIC = {
    "diag", "diagonal", "ndarray.diagonal", "flip", "fliplr", "flipud", "rot90", "ravel", "ndarray.ravel",
    "reshape", "ndarray.reshape", "ndarray.reshape(-1)", "real(complex)", "imag(complex)",
    "ndarray.real(complex)", "ndarray.imag(complex)", "flip(axis)", "diagonal(offset)", "ndarray.diagonal(offset)",
}
# Copies whose being a copy depends on the dtype (complex), which a static check does not know.
DTYPE_DEPENDENT = {"real(complex)", "imag(complex)", "ndarray.real(complex)", "ndarray.imag(complex)"}
READ_ONLY_IN_NUMPY = {"diag", "diagonal", "ndarray.diagonal", "broadcast_to", "diagonal(offset)", "ndarray.diagonal(offset)"}
COPIES_IN_BOTH = {
    "ndarray.flatten", "roll", "triu", "tril", "take", "a[[0, 1]]", "a[a > 3]", "ndarray.flat[:]", "diag(vector)",
    # a reshape or ravel that cannot be a view (of a transposed array, in Fortran order)
    "ndarray.T.reshape", "ravel(transposed)", "ndarray.ravel(order=F)",
}
# Views in NumPy that cuPyNumeric 26.6.1 refuses: slices with a step other
# than 1 (CPN106) and functions it lacks (CPN401).
FAIL_IN_CUPYNUMERIC = {
    "a[::-1]": "NotImplementedError", "a[::2]": "NotImplementedError", "a[:, ::-1]": "NotImplementedError",
    "rollaxis": "AttributeError", "ascontiguousarray": "AttributeError", "asanyarray": "AttributeError",
}


def _api(label: str) -> tuple[str, bool]:
    """``("diagonal", True)`` for ``ndarray.diagonal(offset)``: the name a
    case calls and whether it is a method."""
    name = label.split("(")[0]
    return (name[len("ndarray."):], True) if name.startswith("ndarray.") else (name, False)


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


def test_the_model_table_is_what_the_runtime_showed() -> None:
    """numpy_api's copy and view tables name only what a probe proved: each
    copy is a copy in some case, each view a view in every case of it."""
    copied = {_api(label) for label in COPIES_IN_CUPYNUMERIC - DTYPE_DEPENDENT}
    assert {(n, False) for n in numpy_api.VIEW_BECOMES_COPY} <= copied
    assert {(n, True) for n in numpy_api.VIEW_BECOMES_COPY_METHODS} <= copied
    assert copied <= {(n, False) for n in numpy_api.VIEW_BECOMES_COPY} | {(n, True) for n in numpy_api.VIEW_BECOMES_COPY_METHODS}
    outcomes = _numpy_outcomes()
    views = {_api(label) for label in outcomes} - copied - {_api(label) for label in COPIES_IN_BOTH | FAIL_IN_CUPYNUMERIC.keys()}
    assert {(n, False) for n in numpy_api.VIEWS_IN_BOTH} <= views
    assert {(n, True) for n in numpy_api.VIEW_METHODS_IN_BOTH} <= views


@pytest.fixture(scope="module")
def venv() -> Path:
    return support.require_oracle_venv()


@pytest.mark.oracle
def test_which_views_are_copies_in_cupynumeric(venv: Path) -> None:
    run = support.cached_run(PROBE, venv)
    assert run.ok, run.stderr_tail
    outcomes = json.loads(run.stdout.strip().splitlines()[-1])
    copies = {k for k, v in outcomes.items() if v == "copy"}
    assert copies == COPIES_IN_CUPYNUMERIC | COPIES_IN_BOTH
    assert outcomes["broadcast_to"].startswith("ValueError")  # read-only in both
    failing = {k: v.split(":")[0] for k, v in outcomes.items() if v not in ("view", "copy") and k != "broadcast_to"}
    assert failing == FAIL_IN_CUPYNUMERIC
    assert {k for k, v in outcomes.items() if v == "view"} == set(outcomes) - copies - {"broadcast_to"} - set(failing)
