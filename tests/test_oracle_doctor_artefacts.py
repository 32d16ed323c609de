"""Failures the oracle sees only while cuPyNumeric's Doctor is on.

``np.mgrid[...]`` raises AttributeError under Doctor (its checks ask the
grid object for ``.ndim``) and runs without it, so a Doctor run that stops
there says nothing about the ported program: CPN401 stays quiet on
``np.mgrid`` (its valid example), and the Doctor trial counts such a stop
as the instrument's, not as an unnamed failure."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from benchmarks.doctor_trial import is_environment
from cpn_lint import oracle
from cpn_lint.engine import lint_source

from . import oracle_support as support

pytestmark = pytest.mark.oracle

PROGRAM = Path(__file__).parent / "data" / "oracle" / "doctor_artefacts.py"
# what each form does without Doctor (the runtime's own answer)
DOCTOR_OFF = {"mgrid_with_real_steps": "ok (2, 4, 3)", "mgrid_with_point_count": "TypeError",
              "recipe_meshgrid_of_linspace": "ok (2, 5, 3)"}


@pytest.mark.parametrize("doctor", [True, False], ids=["doctor-on", "doctor-off"])
def test_mgrid_fails_only_under_doctor(doctor: bool) -> None:
    venv = support.require_oracle_venv()
    run = oracle.run_program(PROGRAM, venv=venv, timeout=300, doctor=doctor)
    assert run.returncode == 0, run.stderr_tail
    found = json.loads(run.stdout.strip().splitlines()[-1])
    if doctor:
        assert found == {**DOCTOR_OFF, "mgrid_with_real_steps": "AttributeError", "mgrid_with_point_count": "AttributeError"}
    else:
        assert found == DOCTOR_OFF


def test_cpn404_reports_the_point_count_and_nothing_else() -> None:
    source = PROGRAM.read_text(encoding="utf-8")
    findings = [f for f in lint_source(source, str(PROGRAM)) if f.code == "CPN404"]
    tree = ast.parse(source)
    reported = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)
                and any(node.lineno <= f.line <= (node.end_lineno or node.lineno) for f in findings)}
    assert reported == {name for name, outcome in DOCTOR_OFF.items() if not outcome.startswith("ok")}


def test_the_trial_counts_the_doctor_artefact_as_the_instruments() -> None:
    assert is_environment("AttributeError", "'_MGridClass' object has no attribute 'ndim'")
    assert not is_environment("AttributeError", "module 'cupynumeric' has no attribute 'ogrid'")
