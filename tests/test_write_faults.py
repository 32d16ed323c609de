"""Fault injection for every command that writes: nothing the user owns is lost.

Each writing command (``baseline write``, ``fix``, ``noqa``, ``cpn-verdict
--output`` and ``--brief``, ``manifest refresh``) runs in a fresh copy of a
small project while ``tests/fault_driver.py`` strikes its file writing: a
kill at every step, a full disk, a read-only folder, Ctrl-C; and it runs
against wrong targets and twice at once. Afterwards every file of the tree
must be byte-identical to what it was before or to what a clean run writes.
The only other file a run may leave is the hidden temporary file of a write
that was killed mid-way (``.<name>.*.cpn-tmp``), never a torn target.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from cpn_lint.manifest import bundled
from cpn_lint.safe_write import TEMP_SUFFIX

from .test_manifest import render_comparison_page

pytestmark = pytest.mark.faults

ROOT = Path(__file__).resolve().parents[1]
DRIVER = ROOT / "tests" / "fault_driver.py"
FIX_PROGRAMS = ROOT / "tests" / "data" / "fix_programs"
KERNEL = ("import numpy as np\n\n\ndef scale(a):\n    for i in range(a.shape[0]):\n        a[i] = a[i] * 2.0\n"
          "    return a\n")

Tree = dict[str, bytes]


@dataclass(frozen=True)
class Command:
    name: str
    program: str
    args: tuple[str, ...]


COMMANDS = [
    Command("baseline", "cpn-lint", ("baseline", "write", "-o", "base.json", "src")),
    Command("fix", "cpn-lint", ("fix", "src")),
    Command("noqa", "cpn-lint", ("noqa", "src")),
    Command("verdict", "cpn-verdict", ("src", "--isolated", "-o", "report.md")),
    Command("brief", "cpn-verdict", ("src", "--isolated", "--brief", "-o", "report.md")),
    Command("refresh", "cpn-lint", ("manifest", "refresh", "--from-html", "page.html", "--snapshot-date",
                                    "2026-05-22", "--no-previous", "--output", "manifest.json", "--force")),
]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with fixable code, a loop to mark, and an earlier baseline,
    report and manifest, each different from what a new run writes."""
    root = write_sources(tmp_path_factory.mktemp("project"))
    (root / "src" / "kernel.py").chmod(0o640)
    (root / "notes.txt").write_text("the user's own notes\n")
    _run(root, "none", 0, Command("seed", "cpn-lint", ("baseline", "write", "-o", "base.json", "src/kernel.py")))
    _run(root, "none", 0, Command("seed", "cpn-verdict", ("src/kernel.py", "--isolated", "-o", "report.md")))
    shipped = bundled()
    (root / "page.html").write_text(render_comparison_page(shipped), encoding="utf-8")
    (root / "manifest.json").write_text(json.dumps({"format": "cpn-lint/api-manifest", "entries": {}}))
    return root


def write_sources(root: Path) -> Path:
    """``src/`` with two fixable programs and an element-loop kernel."""
    (root / "src").mkdir()
    for name in ("hoisted_buffers.py", "inplace_updates.py"):
        shutil.copy(FIX_PROGRAMS / name, root / "src" / name)
    (root / "src" / "kernel.py").write_text(KERNEL)
    return root


def _run(root: Path, fault: str, step: int, command: Command, wait: bool = True):  # type: ignore[no-untyped-def]
    argv = [sys.executable, str(DRIVER), fault, str(step), command.program, *command.args]
    if not wait:
        return subprocess.Popen(argv, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return subprocess.run(argv, cwd=root, capture_output=True, text=True, timeout=300)


def _snapshot(root: Path) -> Tree:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _copy(project: Path, into: Path) -> Path:
    shutil.copytree(project, into, symlinks=True)
    return into


def steps_counted(stderr: str) -> int:
    """The fault driver's count of the calls it could strike (its last ``STEPS n`` line)."""
    lines = [line for line in stderr.splitlines() if line.startswith("STEPS ")]
    assert lines, stderr
    return int(lines[-1].split()[1])


def check_tree(before: Tree, intended: Tree, final: Tree, *, temporaries_allowed: bool) -> int:
    """Every file is as it was or as a clean run leaves it; returns how many
    files were compared."""
    for path in sorted(set(before) | set(intended) | set(final)):
        if path in final and path not in before and path not in intended:
            assert temporaries_allowed and path.endswith(TEMP_SUFFIX), f"unexpected file {path}"
            continue
        assert final.get(path) in (before.get(path), intended.get(path)), f"{path} is neither old nor new"
    return len(set(before) | set(intended))


class Tally:
    cases = 0
    files = 0


@pytest.fixture(scope="module")
def tally() -> Tally:
    counts = Tally()
    yield counts
    print(f"\nfault injection: {counts.cases} fault case(s) run, {counts.files} file comparison(s)")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_every_fault_leaves_old_or_new(project: Path, tmp_path: Path, command: Command, tally: Tally) -> None:
    before = _snapshot(project)
    clean = _copy(project, tmp_path / "clean")
    done = _run(clean, "none", 0, command)
    assert done.returncode in (0, 1), done.stderr
    intended = _snapshot(clean)
    assert intended != before, f"{command.name} wrote nothing; the test would prove nothing"
    steps = steps_counted(done.stderr)
    faults = [("kill", step) for step in range(1, steps + 1)]
    faults += [("enospc", 2), ("erofs", 1), ("interrupt", max(1, steps // 2))]
    for fault, step in faults:
        tree = _copy(project, tmp_path / f"{fault}-{step}")
        proc = _run(tree, fault, step, command)
        if fault == "kill":
            assert proc.returncode == 137, (step, proc.stderr)
        else:
            assert proc.returncode in (2, 130), (fault, proc.returncode, proc.stderr)
            assert "Traceback" not in proc.stderr, proc.stderr
            assert proc.stderr.strip(), "a failed write must say why"
        tally.files += check_tree(before, intended, _snapshot(tree), temporaries_allowed=fault == "kill")
        tally.cases += 1
        shutil.rmtree(tree)


WRONG_TARGETS = [
    ("cpn-lint", ("baseline", "write", "src/kernel.py")),  # forgot the baseline's name
    ("cpn-lint", ("baseline", "write", "-o", "src/kernel.py", "src")),
    ("cpn-lint", ("baseline", "write", "base.json", "sr0/")),  # a typo in an input path
    ("cpn-lint", ("baseline", "write", "src")),  # a folder where the file should be
    ("cpn-lint", ("baseline", "write", "-o", "src", "src")),
    ("cpn-lint", ("baseline", "write", "-o", "notes.txt", "src")),
    ("cpn-verdict", ("src", "--isolated", "-o", "src/kernel.py")),
    ("cpn-verdict", ("src", "--isolated", "-o", "src")),
    ("cpn-verdict", ("src", "--isolated", "-o", "notes.txt")),
    ("cpn-verdict", ("sr0", "--isolated", "-o", "report.md")),
    ("cpn-verdict", ("src", "--isolated", "--brief", "-o", "src/kernel.py")),
    ("cpn-lint", ("manifest", "refresh", "--from-html", "page.html", "--snapshot-date", "2026-05-22",
                  "--output", "src/kernel.py", "--force")),
    ("cpn-lint", ("manifest", "refresh", "--from-html", "page.html", "--snapshot-date", "2026-05-22",
                  "--output", "notes.txt", "--force")),
    ("cpn-lint", ("manifest", "refresh", "--from-html", "page.html", "--snapshot-date", "2026-05-22",
                  "--output", "src", "--force")),
    ("cpn-lint", ("fix", "sr0")),
    ("cpn-lint", ("noqa", "sr0")),
]


@pytest.mark.parametrize("program, args", WRONG_TARGETS, ids=lambda v: " ".join(v) if isinstance(v, tuple) else v)
def test_a_wrong_target_is_one_line_and_exit_2(project: Path, tmp_path: Path, program: str,
                                               args: tuple[str, ...], tally: Tally) -> None:
    tree = _copy(project, tmp_path / "tree")
    before = _snapshot(tree)
    proc = _run(tree, "none", 0, Command("wrong", program, args))
    messages = [line for line in proc.stderr.splitlines() if not line.startswith("STEPS ")]
    assert proc.returncode == 2 and len(messages) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert _snapshot(tree) == before
    tally.cases += 1
    tally.files += len(before)


@pytest.mark.parametrize("command", [c for c in COMMANDS if c.name in ("baseline", "fix", "noqa", "verdict")],
                         ids=lambda c: c.name)
def test_two_runs_at_once(project: Path, tmp_path: Path, command: Command, tally: Tally) -> None:
    before = _snapshot(project)
    clean = _copy(project, tmp_path / "clean")
    _run(clean, "none", 0, command)
    intended = _snapshot(clean)
    tree = _copy(project, tmp_path / "tree")
    first, second = (_run(tree, "none", 0, command, wait=False) for _ in range(2))
    for proc in (first, second):
        _, stderr = proc.communicate(timeout=300)
        assert "Traceback" not in stderr, stderr
    tally.files += check_tree(before, intended, _snapshot(tree), temporaries_allowed=False)
    tally.cases += 1


def test_docs_never_replace_a_projects_own_readme(tmp_path: Path) -> None:
    from cpn_lint import cli

    (tmp_path / "README.md").write_text("# My project\n")
    assert cli.main(["docs", str(tmp_path)]) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["README.md"]
    assert (tmp_path / "README.md").read_text() == "# My project\n"
    pages = tmp_path / "rules"
    assert cli.main(["docs", str(pages)]) == 0 and (pages / "CPN101.md").is_file()
    assert cli.main(["docs", str(pages)]) == 0  # its own pages: replaced (or left when unchanged)
