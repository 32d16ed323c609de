"""The same file gives the same findings in every run. Python randomises the
order of sets of strings per process (PYTHONHASHSEED); the model must never
let that order decide which question it answers first, since answers inside
a cycle of names can depend on it. Checked in separate processes, on a
program whose loop rebinds names through a helper (the case that once
varied: CPN201 in ``relax`` came and went between runs) and on the fixtures."""

from __future__ import annotations

import os
import subprocess
import sys

from ..conftest import ROOT

SCRIPT = """
import sys
from pathlib import Path
from cpn_lint.engine import LintOptions, analyze_source
for root in sys.argv[1:]:
    path = Path(root)
    for f in ([path] if path.is_file() else sorted(path.rglob("*.py"))):
        for assessment in (False, True):  # flake8's default run and cpn-verdict's ask in different orders
            for x in analyze_source(f.read_bytes(), str(f), LintOptions(assessment=assessment)).findings:
                print(f, assessment, x.line, x.col, x.code, x.message)
"""
TARGETS = [str(ROOT / "tests" / "data" / "determinism"), str(ROOT / "fixtures" / "projects"), str(ROOT / "fixtures" / "rules")]


def _run(seed: int) -> str:
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    proc = subprocess.run([sys.executable, "-c", SCRIPT, *TARGETS], capture_output=True, text=True, env=env,
                          timeout=300, check=True)
    return proc.stdout


def test_findings_do_not_depend_on_the_hash_seed() -> None:
    first = _run(0)
    # the copy in relax's loop sits in a cycle (p = relax(p, b) feeds relax's
    # parameter); it is found in flake8's order and in cpn-verdict's
    relax_copy = [line for line in first.splitlines() if "channel.py" in line and " 9 13 CPN201 " in line]
    assert len(relax_copy) == 2, first
    for seed in (1, 2, 4, 7, 8):
        assert _run(seed) == first, f"PYTHONHASHSEED={seed} changed the findings"
