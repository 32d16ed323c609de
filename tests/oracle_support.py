"""Helpers of the differential tier (tests/test_oracle_differential.py).

* which programs are runnable (a ``if __name__ == "__main__":`` driver),
* a cache of Doctor runs keyed by the program's text (and the local modules
  it imports) and the cuPyNumeric version, so reruns cost nothing,
* the reviewed expectations in ``tests/data/doctor_disagreements.json``,
* ``python -m tests.oracle_support capture``: rerun the programs under
  ``tests/data/doctor/`` and store Doctor's reports beside them.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from cpn_lint import oracle

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "data" / "programs"  # script-style simulations that plot (issue 12)
PROGRAM_ROOTS = (ROOT / "fixtures", ROOT / "tests" / "data" / "doctor", PROGRAMS)
CAPTURED = ROOT / "tests" / "data" / "doctor"
EXPECTATIONS = ROOT / "tests" / "data" / "doctor_disagreements.json"
CACHE_FORMAT = 1  # bump when the cached record changes shape


def oracle_venv_path() -> Path:
    return Path(os.environ.get(oracle.VENV_ENV) or ROOT / oracle.DEFAULT_VENV)


def require_oracle_venv() -> Path:
    """The oracle's environment, created when missing; a test module's
    fixture returns it. Without it the module's tests skip, or fail where
    CI requires the oracle (``CPN_ORACLE_REQUIRED``)."""
    import pytest

    try:
        return oracle.ensure_venv(oracle_venv_path())
    except oracle.OracleError as exc:
        if os.environ.get("CPN_ORACLE_REQUIRED"):
            pytest.fail(f"the oracle environment is required here but could not be created: {exc}")
        pytest.skip(f"cuPyNumeric oracle environment cannot be created: {exc}")


def cache_dir() -> Path:
    return Path(os.environ.get("CPN_ORACLE_CACHE") or ROOT / ".cpn-oracle-cache")


def has_main_driver(path: Path) -> bool:
    """True when the module runs something as a script: ``if __name__ == "__main__":``."""
    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except (SyntaxError, ValueError):
        return False
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
            sides = [node.test.left, *node.test.comparators]
            names = {s.id for s in sides if isinstance(s, ast.Name)}
            texts = {s.value for s in sides if isinstance(s, ast.Constant)}
            if names == {"__name__"} and texts == {"__main__"} and isinstance(node.test.ops[0], ast.Eq):
                return True
    return False


def runnable_programs() -> list[Path]:
    found: list[Path] = []
    for root in PROGRAM_ROOTS:
        found.extend(p for p in sorted(root.rglob("*.py")) if has_main_driver(p))
    return found


def programs_without_driver() -> list[Path]:
    return [p for p in sorted((ROOT / "fixtures").rglob("*.py")) if p.name != "__init__.py" and not has_main_driver(p)]


def relative(path: str | Path) -> str:
    resolved = Path(path).resolve()
    try:
        return resolved.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def local_modules(program: Path) -> list[Path]:
    """The program's sibling modules it imports, transitively (they change what runs)."""
    seen: dict[Path, None] = {}
    pending = [program]
    while pending:
        current = pending.pop()
        try:
            tree = ast.parse(current.read_bytes(), str(current))
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level <= 1:
                if node.module:
                    names = [node.module.split(".")[0]]
                elif node.level == 1:
                    names = [alias.name for alias in node.names]
            for name in names:
                candidate = current.parent / f"{name}.py"
                if candidate.is_file() and candidate != program and candidate not in seen:
                    seen[candidate] = None
                    pending.append(candidate)
    return sorted(seen)


def cache_key(program: Path) -> str:
    digest = hashlib.sha256()
    digest.update(f"{CACHE_FORMAT}\0{oracle.CUPYNUMERIC_VERSION}\0{oracle.LEGATE_CONFIG}\0".encode())
    digest.update(oracle.LIBCUDA_STUB_C.encode())
    digest.update(oracle._BOOTSTRAP.encode())
    for path in [program, *local_modules(program)]:
        digest.update(f"\0{path.resolve()}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def cached_run(program: Path, venv: Path) -> oracle.OracleRun:
    """Doctor's run of ``program``, from the cache when nothing it depends on changed."""
    store = cache_dir() / f"{program.stem}-{cache_key(program)}.json"
    if store.is_file():
        try:
            return oracle.OracleRun(**json.loads(store.read_text()))
        except (TypeError, ValueError):
            pass
    run = oracle.run_program(program, venv=venv)
    if not run.timed_out:
        store.parent.mkdir(parents=True, exist_ok=True)
        temporary = store.with_suffix(".tmp")
        temporary.write_text(json.dumps(run.__dict__, indent=1))
        temporary.replace(store)
    return run


# -- reviewed expectations ------------------------------------------------------


@dataclass(frozen=True)
class Disagreement:
    """A Doctor finding cpn-lint deliberately does not report, and why."""

    file: str  # relative to the repository root
    line: int
    check: str
    code: str
    reason: str

    @property
    def key(self) -> tuple[str, int, str, str]:
        return (self.file, self.line, self.check, self.code)


@dataclass(frozen=True)
class Stop:
    """A program that cannot finish under cuPyNumeric, where it stops and why."""

    program: str
    line: int
    error: str
    reason: str
    code: str | None = None  # the cpn-lint code that predicts the stop at that line


@dataclass(frozen=True)
class Expectations:
    disagreements: tuple[Disagreement, ...]
    stops: tuple[Stop, ...]

    def disagreements_in(self, files: Iterable[str]) -> dict[tuple[str, int, str, str], Disagreement]:
        wanted = set(files)
        return {d.key: d for d in self.disagreements if d.file in wanted}

    def stop_of(self, program: str) -> Stop | None:
        return next((s for s in self.stops if s.program == program), None)


def load_expectations(path: Path = EXPECTATIONS) -> Expectations:
    data = json.loads(path.read_text(encoding="utf-8"))
    disagreements = tuple(Disagreement(**entry) for entry in data.get("disagreements", []))
    stops = tuple(Stop(**entry) for entry in data.get("stops", []))
    for entry in (*disagreements, *stops):
        if len(entry.reason.split()) < 5:
            raise ValueError(f"{path.name}: {entry} needs a reviewed reason, not a placeholder")
    keys = [d.key for d in disagreements]
    if len(keys) != len(set(keys)):
        raise ValueError(f"{path.name}: a disagreement is listed twice")
    return Expectations(disagreements, stops)


# -- captured reports -------------------------------------------------------------


def captured_programs() -> list[Path]:
    return sorted(p for p in CAPTURED.glob("*.py") if has_main_driver(p))


def capture(venv: Path) -> list[Path]:
    """Run every program under tests/data/doctor/ and store Doctor's report as NAME.json."""
    written: list[Path] = []
    for program in captured_programs():
        run = oracle.run_program(program, venv=venv)
        if not run.ok:
            raise SystemExit(f"{relative(program)} did not finish under cuPyNumeric:\n{run.stderr_tail}")
        target = program.with_suffix(".json")
        target.write_text(run.report_text())
        written.append(target)
    return written


if __name__ == "__main__":
    if sys.argv[1:] != ["capture"]:
        raise SystemExit("usage: python -m tests.oracle_support capture")
    venv = oracle.ensure_venv(oracle_venv_path())
    for path in capture(venv):
        print(f"wrote {relative(path)}")
