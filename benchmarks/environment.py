"""The benchmark environment: a virtual environment with the corpus, flake8 and this repo.

``python -m benchmarks setup`` creates ``.bench-venv`` at the repository root
with the interpreter that runs the command, then installs scipy, numpy and
flake8 from the package index and this repository in editable mode, so a run
always measures the working tree as it is now.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_VENV = REPO_ROOT / ".bench-venv"
BENCHMARKS_DIR = Path(__file__).resolve().parent
WORKER = "benchmarks.worker"
PLUGIN_DIST = "cpn-lint"

# What `setup` installs besides the repository; a requirement given on the
# command line replaces the default of the same name ("scipy==1.17.1").
DEFAULT_REQUIREMENTS = ("scipy", "numpy", "flake8")


class EnvironmentProblem(Exception):
    """The benchmark environment is missing or unusable; the message says what to do."""


def venv_python(venv: Path) -> Path:
    if os.name == "nt":  # pragma: no cover
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def _requirement_name(spec: str) -> str:
    name = spec
    for stop in "<>=!~[; @":
        name = name.split(stop, 1)[0]
    return name.strip().lower().replace("_", "-")


def merged_requirements(extra: Sequence[str]) -> list[str]:
    """The default requirements with same-named ones from ``extra`` substituted."""
    chosen = {_requirement_name(r): r for r in DEFAULT_REQUIREMENTS}
    for spec in extra:
        chosen[_requirement_name(spec)] = spec
    return list(chosen.values())


def _run(argv: Sequence[str]) -> None:
    print("+ " + " ".join(str(a) for a in argv), file=sys.stderr, flush=True)
    subprocess.run([str(a) for a in argv], check=True)


def setup(venv: Path, base_python: str, requirements: Sequence[str], recreate: bool = False) -> Path:
    """Create (or refresh) the environment; return its interpreter."""
    python = venv_python(venv)
    if recreate and venv.exists():
        import shutil

        shutil.rmtree(venv)
    if not python.exists():
        _run([base_python, "-m", "venv", venv])
    _run([python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    _run([python, "-m", "pip", "install", "--quiet", *merged_requirements(requirements)])
    install_plugin(python)
    return python


def install_plugin(python: Path) -> None:
    """(Re)install this repository in editable mode: refreshes its entry points.

    The build backend's chatter is shown only when the install fails."""
    argv = [str(python), "-m", "pip", "install", "--quiet", "--editable", str(REPO_ROOT)]
    print("+ " + " ".join(argv), file=sys.stderr, flush=True)
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        raise EnvironmentProblem(f"installing the repository failed:\n{done.stdout}{done.stderr}")


def worker(python: Path | str, *args: str, timeout: float | None = 600) -> Any:
    """Run a worker task that prints JSON and return the parsed answer."""
    done = subprocess.run(
        [str(python), "-m", WORKER, *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-8:])
        raise EnvironmentProblem(f"worker task {args[0]!r} failed (exit {done.returncode}):\n{tail}")
    return json.loads(done.stdout)


@dataclass(frozen=True)
class Interpreter:
    """The interpreter the measurements run in, and what it has installed."""

    python: Path
    managed: bool  # a venv created by `setup` (the harness may refresh its plugin install)
    facts: dict[str, Any]

    @property
    def scripts(self) -> Path:
        return Path(self.facts["scripts"])

    @property
    def stale_entry_points(self) -> bool:
        return sorted(self.facts["entry_points"]) != sorted(self.facts["registry"])


def resolve(python: str | None, venv: Path) -> Interpreter:
    """The interpreter to measure with: ``--python`` if given, else the venv's."""
    if python is not None:
        path, managed = Path(python), False
    else:
        path, managed = venv_python(venv), True
        if not path.exists():
            raise EnvironmentProblem(
                f"no benchmark environment at {venv}; create it with `python -m benchmarks setup`"
            )
    facts = worker(path, "probe")
    if managed and sorted(facts["entry_points"]) != sorted(facts["registry"]):
        # New or renamed rules since `setup`: flake8 would not run them.
        print("benchmarks: the plugin's entry points are stale; reinstalling the repository", file=sys.stderr, flush=True)
        install_plugin(path)
        facts = worker(path, "probe")
    if not facts.get("flake8"):
        raise EnvironmentProblem(f"{path} has no flake8; run `python -m benchmarks setup`")
    return Interpreter(path, managed, facts)


def git_revision() -> dict[str, Any]:
    """The repository's commit and whether the package sources differ from it."""

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--", "cpn_lint")
    return {"commit": commit, "cpn_lint_modified": bool(status) if status is not None else None}
