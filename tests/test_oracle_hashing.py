"""CPN110's set()/frozenset() of a device array: cuPyNumeric 26.6.1 hands out
0-d arrays while iterating, and they are unhashable, so the call raises
TypeError (the report's "What breaks first" lists it; the recipe runs)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cpn_lint.engine import lint_source

from . import oracle_support as support

PROBE = support.ROOT / "tests" / "data" / "oracle" / "hashing.py"
BREAKING = ("set_of_items", "frozenset_of_items", "set_update_with_items")


def test_every_case_runs_under_numpy_and_the_breaking_ones_are_cpn110() -> None:
    done = subprocess.run([sys.executable, str(PROBE)], capture_output=True, text=True, check=True, timeout=120)
    assert set(json.loads(done.stdout).values()) == {"ok"}
    found = [f for f in lint_source(PROBE.read_text(encoding="utf-8"), str(PROBE)) if f.code == "CPN110"]
    assert len(found) == len(BREAKING)
    assert all(f.data.get("unhashable") for f in found)


@pytest.mark.oracle
def test_cupynumeric_cannot_hash_array_items() -> None:
    venv: Path = support.require_oracle_venv()
    run = support.cached_run(PROBE, venv)
    assert run.ok, run.stderr_tail
    outcomes = json.loads(run.stdout.strip().splitlines()[-1])
    assert all(outcomes[name].startswith("TypeError: unhashable type") for name in BREAKING), outcomes
    assert outcomes["recipe_unique_values"] == "ok"
