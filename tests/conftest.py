"""Shared helpers for the test-suite."""

from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

# Everything the tests and the commands they start write to "the temporary
# folder" (--brief's full reports, caches) goes into one folder of this run,
# removed when it ends: a test run leaves nothing behind.
_RUN_TMP = tempfile.mkdtemp(prefix="cpn-lint-tests-")
os.environ["TMPDIR"] = _RUN_TMP
tempfile.tempdir = _RUN_TMP
atexit.register(shutil.rmtree, _RUN_TMP, ignore_errors=True)
# A manifest refreshed into the developer's own cache must not change what the
# tests see: every test (and every subprocess it starts) gets an empty cache.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="cache-", dir=_RUN_TMP)

EXPECT = re.compile(r"#\s*expect:\s*(CPN\d{3}(?:\s*,\s*CPN\d{3})*)")


def expected_findings(path: Path) -> set[tuple[int, str]]:
    """(line, code) pairs declared by ``# expect: CPNxxx[, CPNyyy]`` comments."""
    found: set[tuple[int, str]] = set()
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            for code in match.group(1).split(","):
                found.add((lineno, code.strip()))
    return found


def run_flake8(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Real flake8 in a subprocess, with only cpn-lint's codes unless told."""
    return subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def write(tmp_path: Path):
    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return _write
