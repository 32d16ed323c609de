"""CPN107's runtime effect: cuPyNumeric 26.6.1 refuses object dtype with a
TypeError (the rule page and the report's "What breaks first" say so)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cpn_lint.engine import lint_source

from . import oracle_support as support

PROBE = support.ROOT / "tests" / "data" / "oracle" / "object_dtype.py"
REFUSED = "TypeError: cuPyNumeric does not support dtype=object"
CASES = ("array_of_records", "empty_object_array", "astype_object")


def test_every_case_runs_under_numpy_and_is_a_cpn107_finding() -> None:
    done = subprocess.run([sys.executable, str(PROBE)], capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(done.stdout) == {name: "ok" for name in CASES}
    lines = {f.line for f in lint_source(PROBE.read_text(encoding="utf-8"), str(PROBE)) if f.code == "CPN107"}
    assert len(lines) == len(CASES)


@pytest.mark.oracle
def test_cupynumeric_refuses_object_dtype() -> None:
    venv: Path = support.require_oracle_venv()
    run = support.cached_run(PROBE, venv)
    assert run.ok, run.stderr_tail
    assert json.loads(run.stdout.strip().splitlines()[-1]) == {name: REFUSED for name in CASES}
