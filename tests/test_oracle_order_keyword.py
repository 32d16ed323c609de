"""CPN109 under the runtime: cuPyNumeric 26.6.1's constructors and converters
take no order= (TypeError, whatever the value), the other calls accept it.
The rule's list of refusing functions is exactly what the oracle shows, and
the verdict lists those findings in What breaks first."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cpn_lint.engine import lint_source
from cpn_lint.rules.cpn109_order_keyword import REJECTS_ORDER

from . import oracle_support as support

PROBE = support.ROOT / "tests" / "data" / "oracle" / "order_keyword.py"


def _function(case: str) -> str:
    return case.split("_C")[0].split("_None")[0]


def test_every_call_runs_under_numpy_and_cpn109_marks_the_refused_ones() -> None:
    done = subprocess.run([sys.executable, str(PROBE)], capture_output=True, text=True, check=True, timeout=120)
    assert set(json.loads(done.stdout).values()) == {"ok"}
    source = PROBE.read_text(encoding="utf-8")
    refused = [f for f in lint_source(source, str(PROBE)) if f.code == "CPN109" and f.data.get("effect") == "raises"]
    lines = source.splitlines()
    assert {lines[f.line - 1].split('"')[1] for f in refused} == {
        name for name in json.loads(done.stdout) if _function(name) in REJECTS_ORDER}


@pytest.mark.oracle
def test_cupynumeric_refuses_order_exactly_where_cpn109_says() -> None:
    venv: Path = support.require_oracle_venv()
    run = support.cached_run(PROBE, venv)
    assert run.ok, run.stderr_tail
    outcomes = json.loads(run.stdout.strip().splitlines()[-1])
    refused = {name for name, result in outcomes.items() if result != "ok"}
    assert {_function(name) for name in refused} == REJECTS_ORDER
    assert all("unexpected keyword argument 'order'" in outcomes[name] for name in refused)
