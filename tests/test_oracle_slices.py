"""Stepped slices under cuPyNumeric 26.6.1 (CPN106) and the recipes its
messages give.

tests/data/oracle/slices.py holds one reproduction per form. Under NumPy
all run; under the real cuPyNumeric every stepped slice, read or written,
reversal included, raises NotImplementedError, while ``np.flip``, a range
built in descending order and a mask made on the host run. CPN106 must
report each failing form and none of the recipes.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cpn_lint.engine import lint_source

from . import oracle_support as support

PROBE = support.ROOT / "tests" / "data" / "oracle" / "slices.py"
UNSUPPORTED = "NotImplementedError: Unsupported slice: "
EXPECTED = {
    "every_second_element": UNSUPPORTED + "slice(None, None, 2)",
    "every_second_element_from_one": UNSUPPORTED + "slice(1, None, 2)",
    "reversed_vector": UNSUPPORTED + "slice(None, None, -1)",
    "reversed_columns": UNSUPPORTED + "slice(None, None, -1)",
    "reversed_range_builder": UNSUPPORTED + "slice(None, None, -1)",
    "stepped_write": UNSUPPORTED + "slice(None, None, 2)",
    "recipe_flip_vector": "ok",
    "recipe_flip_columns": "ok",
    "recipe_descending_linspace": "ok",
    "recipe_host_built_mask": "ok",
    # a negative step between bounds whose start is not below its stop: no
    # error, an empty array (silently wrong)
    "bounded_reversal_to_zero": "ok, 0 elements",
    "bounded_reversal_from_the_end": "ok, 0 elements",
    "bounded_step_back_by_two": "ok, 0 elements",
}
UNDER_NUMPY = {"bounded_reversal_to_zero": "ok, 9 elements", "bounded_reversal_from_the_end": "ok, 9 elements",
               "bounded_step_back_by_two": "ok, 3 elements"}


def test_every_form_runs_under_numpy() -> None:
    done = subprocess.run([sys.executable, str(PROBE)], capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(done.stdout) == {name: UNDER_NUMPY.get(name, "ok") for name in EXPECTED}


def test_cpn106_reports_each_failing_form_and_no_recipe() -> None:
    source = PROBE.read_text(encoding="utf-8")
    findings = [f for f in lint_source(source, str(PROBE)) if f.code == "CPN106"]
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name in EXPECTED:
            inside = [f for f in findings if node.lineno <= f.line <= (node.end_lineno or node.lineno)]
            should = EXPECTED[node.name] != "ok"
            assert bool(inside) == should, f"{node.name}: CPN106 {'misses it' if should else 'reports a recipe'}"
            if node.name.startswith("reversed"):
                assert all("np.flip(" in f.message for f in inside), inside
            # the message states the effect the runtime shows
            silent = EXPECTED[node.name] == "ok, 0 elements"
            assert all(("empty array" in f.message) == silent for f in inside), inside
            assert all(("NotImplementedError" in f.message) != silent for f in inside), inside


@pytest.fixture(scope="module")
def venv() -> Path:
    return support.require_oracle_venv()


@pytest.mark.oracle
def test_each_form_has_its_outcome_on_cupynumeric(venv: Path) -> None:
    run = support.cached_run(PROBE, venv)
    assert run.ok, run.stderr_tail
    assert json.loads(run.stdout.strip().splitlines()[-1]) == EXPECTED
