"""Fault injection into the result cache's writes (the fault tier).

Each command that uses the cache runs against a fresh cache folder while
``tests/cache_fault_driver.py`` strikes the cache's writing: a kill at every
step, a full disk, a read-only folder, Ctrl-C. A failed cache write never
changes what a command prints or its exit status; a killed run leaves only
whole entries (and perhaps a hidden temporary file); and the next run over
that cache prints exactly what a run without a cache prints.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cpn_lint.fix.command  # noqa: F401  (registers what the cache stores of each command)
import cpn_lint.flake8_plugin  # noqa: F401
import cpn_lint.verdict.collect  # noqa: F401
from cpn_lint.cache import ResultCache

from .test_write_faults import Command, steps_counted, write_sources

pytestmark = pytest.mark.faults

ROOT = Path(__file__).resolve().parents[1]
DRIVER = ROOT / "tests" / "cache_fault_driver.py"

COMMANDS = [
    Command("verdict", "cpn-verdict", ("src", "--isolated", "--jobs", "1")),
    Command("flake8", "flake8", ("--isolated", "-j1", "--select", "CPN", "--cpn-assessment", "src")),
    Command("fix-diff", "cpn-lint", ("fix", "--diff", "--jobs", "1", "src")),
    Command("baseline", "cpn-lint", ("baseline", "write", "--jobs", "1", "-o", "base.json", "src")),
]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_sources(tmp_path_factory.mktemp("project"))


def _run(tree: Path, cache: Path, fault: str, step: int, command: Command) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CPN_LINT_CACHE_DIR": str(cache)}
    env.pop("CPN_LINT_NO_CACHE", None)
    argv = [sys.executable, str(DRIVER), fault, str(step), command.program, *command.args]
    return subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, timeout=300)


def _output(run: subprocess.CompletedProcess[str], tree: Path) -> tuple[int, str, str, bytes | None]:
    """What a run shows: status, stdout, stderr (without the driver's count), and the file it wrote."""
    err = "\n".join(line for line in run.stderr.splitlines() if not line.startswith("STEPS "))
    written = tree / "base.json"
    return run.returncode, run.stdout, err, written.read_bytes() if written.exists() else None




def _check_entries(cache: Path) -> int:
    """Every file at an entry's name is a whole entry; returns how many there are."""
    store = ResultCache(cache)
    entries = sorted(cache.glob("??/*.json"))
    for entry in entries:
        assert store.get(entry.stem) is not None, f"{entry.name} is not a whole entry"
    for other in cache.glob("??/*"):
        assert other in entries or (other.name.startswith(".") and other.name.endswith(".tmp")), other
    return len(entries)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_cache_faults_never_change_the_output(project: Path, tmp_path: Path, command: Command) -> None:
    def fresh(name: str) -> Path:
        tree = tmp_path / name
        shutil.copytree(project, tree)
        return tree

    tree = fresh("clean")
    clean = _run(tree, tmp_path / "cache-clean", "none", 0, command)
    expected = _output(clean, tree)
    assert expected[0] in (0, 1) and "Traceback" not in clean.stderr, clean.stderr
    steps = steps_counted(clean.stderr)
    assert steps >= 4 * 3, "every file's entry was written (four calls each)"
    offline = fresh("offline")
    assert _output(_run(offline, tmp_path / "cache-clean", "none", 0, command), offline) == expected, "warm"
    faults = [("kill", step) for step in range(1, steps + 1)]
    faults += [("enospc", 2), ("erofs", 1), ("interrupt", max(1, steps // 2))]
    for fault, step in faults:
        cache = tmp_path / f"cache-{fault}-{step}"
        tree = fresh(f"{fault}-{step}")
        struck = _run(tree, cache, fault, step, command)
        if fault == "kill":
            assert struck.returncode == 137, (step, struck.stderr)
        elif fault == "interrupt":
            assert struck.returncode != 0 and "Traceback" not in struck.stderr, struck.stderr
            assert not list(cache.glob("??/.*")), "an interrupted write leaves no temporary file"
        else:  # a full disk or a read-only folder: no cache, silently
            assert _output(struck, tree) == expected, (fault, struck.stderr)
        _check_entries(cache)
        tree = fresh(f"{fault}-{step}-again")
        again = _run(tree, cache, "none", 0, command)
        assert _output(again, tree) == expected, (fault, step, again.stderr)
        _check_entries(cache)
        shutil.rmtree(cache)
