"""``--jobs N``: the same output byte for byte whatever N, with or without
the result cache; one clear message for bad input; a clean end on Ctrl-C."""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cpn_lint import jobs
from cpn_lint.jobs import WorkerFailed, jobs_value, ordered_map, workers_for

from .conftest import FIXTURES, ROOT

CORPUS = ROOT / "tests" / "corpus"
FIX_PROGRAMS = ROOT / "tests" / "data" / "fix_programs"


@pytest.fixture
def always_parallel(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Start workers for any amount of source, and use a cache of this test's own."""
    monkeypatch.setattr(jobs, "MIN_BYTES_PER_WORKER", 1)
    monkeypatch.setenv("CPN_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CPN_LINT_NO_CACHE", raising=False)


def _run(main, args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.slow  # two full verdicts over the corpus, with worker processes (about 25 s of the fast tier)
@pytest.mark.parametrize("fmt", ["markdown", "json"])
def test_the_verdict_is_the_same_for_any_jobs(always_parallel: None, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    from cpn_lint.verdict.command import main

    monkeypatch.chdir(ROOT)
    paths = ["fixtures", "tests/corpus", "--isolated", "--format", fmt]
    serial = _run(main, [*paths, "--jobs", "1", "--no-cache"], capsys)
    assert serial[0] == 0 and serial[1]
    for extra in (["--jobs", "2", "--no-cache"], ["--jobs", "3"], ["--jobs", "2"], ["--jobs", "1"]):
        # cold cache with three workers, then warm with two and with one
        assert _run(main, [*paths, *extra], capsys) == serial, extra


def test_baseline_write_is_the_same_for_any_jobs(always_parallel: None, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from cpn_lint.baseline import main

    monkeypatch.chdir(ROOT)
    written = []
    for number, extra in enumerate((["--jobs", "1", "--no-cache"], ["--jobs", "2"], ["--jobs", "2"])):
        target = tmp_path / f"base{number}.json"
        status, out, err = _run(main, ["write", "-o", str(target), "fixtures", *extra], capsys)
        written.append((status, out.replace(str(target), "B"), err, target.read_text()))
    assert written[0] == written[1] == written[2]


def test_fix_diff_is_the_same_for_any_jobs(always_parallel: None, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from cpn_lint.fix.command import main

    monkeypatch.chdir(ROOT)
    args = ["--diff", "tests/data/fix_programs", "fixtures/rules"]
    serial = _run(main, [*args, "--jobs", "1", "--no-cache"], capsys)
    assert serial[1], "the diff shows fixes"
    for extra in (["--jobs", "2"], ["--jobs", "2"], ["--jobs", "1"]):
        assert _run(main, [*args, *extra], capsys) == serial, extra


@pytest.mark.parametrize("command", ["fix", "noqa"])
def test_rewriting_commands_write_the_same_files_for_any_jobs(always_parallel: None, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str],
                                                              command: str) -> None:
    from cpn_lint import cli

    results = []
    for number, extra in enumerate((["--jobs", "1", "--no-cache"], ["--jobs", "2"], ["--jobs", "2"])):
        tree = tmp_path / f"tree{number}"
        shutil.copytree(FIX_PROGRAMS, tree / "src")
        monkeypatch.chdir(tree)
        status, out, err = _run(cli.main, [command, "src", *extra], capsys)
        files = {p.relative_to(tree).as_posix(): p.read_bytes() for p in sorted(tree.rglob("*")) if p.is_file()}
        results.append((status, out, err, files))
    assert results[0] == results[1] == results[2]
    assert results[0][3] != {p.relative_to(FIX_PROGRAMS.parent).as_posix().replace("fix_programs", "src"):
                             p.read_bytes() for p in FIX_PROGRAMS.rglob("*") if p.is_file()}, "files were rewritten"


def test_bad_input_is_one_clear_message_whatever_jobs(always_parallel: None, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from cpn_lint.verdict.command import main

    shutil.copytree(FIXTURES / "projects", tmp_path / "project")
    (tmp_path / "project" / "broken.py").write_text("import numpy as np\ndef f(:\n")
    (tmp_path / "project" / "binary.py").write_bytes(b"\xff\xfe\x00numpy")
    (tmp_path / "project" / "bad.ipynb").write_text("{not json")
    monkeypatch.chdir(tmp_path / "project")
    serial = _run(main, [".", "--isolated", "--jobs", "1", "--no-cache"], capsys)
    assert serial[0] == 2
    for name in ("broken.py: does not parse", "binary.py:", "bad.ipynb: not valid JSON"):
        assert sum(name in line for line in serial[1].splitlines()) == 1, name
    for extra in (["--jobs", "2"], ["--jobs", "2"]):
        assert _run(main, [".", "--isolated", *extra], capsys) == serial


def test_warm_runs_start_no_worker(always_parallel: None, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    from cpn_lint.verdict import collect
    from cpn_lint.verdict.command import main

    monkeypatch.chdir(ROOT)
    cold = _run(main, ["fixtures", "--isolated", "--jobs", "2"], capsys)
    workers: list[int] = []
    real = collect.ordered_map

    def counting(task, items, count, *rest):  # type: ignore[no-untyped-def]
        workers.append(count)
        return real(task, items, count, *rest)

    monkeypatch.setattr(collect, "ordered_map", counting)
    assert _run(main, ["fixtures", "--isolated", "--jobs", "2"], capsys) == cold
    assert workers == [1], "every unit came from the cache: nothing left for a worker"


# ------------------------------------------------------------------ the runner
def _square(n: int) -> int:
    return n * n


def _die(n: int) -> int:
    if n == 3:
        os._exit(3)
    return n


def _fail(n: int) -> int:
    if n == 2:
        raise ValueError("bad item 2")
    return n


def test_results_come_back_in_order() -> None:
    assert list(ordered_map(_square, list(range(40)), 2)) == [n * n for n in range(40)]
    assert list(ordered_map(_square, list(range(5)), 1)) == [0, 1, 4, 9, 16]
    # workers take the largest files first; the results still come in the items' order
    assert list(ordered_map(_square, list(range(40)), 2, [n % 7 for n in range(40)])) == [n * n for n in range(40)]


def test_an_error_in_a_worker_reaches_the_caller() -> None:
    with pytest.raises(ValueError, match="bad item 2"):
        list(ordered_map(_fail, list(range(6)), 2))


def test_a_dead_worker_is_one_clear_error() -> None:
    with pytest.raises(WorkerFailed, match="--jobs 1"):
        list(ordered_map(_die, list(range(8)), 2))


def test_how_many_workers() -> None:
    assert workers_for(1, [10**6] * 10) == 1
    assert workers_for(4, [10**6] * 2) == 2, "never more workers than files"
    assert workers_for(4, [100] * 50) == 1, "a few kilobytes run in process"
    assert workers_for(None, [10**6] * 64) == jobs.default_jobs()
    assert jobs_value("auto") == jobs.default_jobs() and jobs_value("3") == 3
    for bad in ("0", "-1", "two"):
        with pytest.raises(argparse.ArgumentTypeError):
            jobs_value(bad)


def test_ctrl_c_ends_every_process_cleanly(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the terminal's process group) while workers run:
    one line, status 130, no traceback, and no process left behind."""
    from benchmarks.synth import generate

    tree = tmp_path / "tree"
    tree.mkdir()
    for number in range(12):
        (tree / f"big{number}.py").write_text(generate(4000, seed=number))
    env = {**os.environ, "CPN_LINT_NO_CACHE": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "cpn_lint", "verdict", "--isolated", "--jobs", "2", str(tree)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline and len(_children(proc.pid)) < 2:  # wait for the workers to be busy
        time.sleep(0.2)
    assert len(_children(proc.pid)) >= 2, "the workers did not start"
    time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "cpn-verdict: interrupted" and "Traceback" not in err, err
    deadline = time.time() + 10
    while time.time() < deadline and _alive_in_group(proc.pid):
        time.sleep(0.2)
    assert not _alive_in_group(proc.pid), "every process of the group is gone"


def _alive_in_group(pgid: int) -> list[int]:
    """Processes of the group still running (a zombie waiting for init to reap it is not)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(entry.name))
    return alive


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


if not Path("/proc/self/task").exists():  # pragma: no cover - not Linux
    test_ctrl_c_ends_every_process_cleanly = pytest.mark.skip("reads /proc")(test_ctrl_c_ends_every_process_cleanly)


def test_workers_never_import_from_the_users_folder(always_parallel: None, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A worker starts as ``python -c``, which puts its folder first on
    sys.path: a ``signal`` package or a ``tokenize.py`` in the user's tree
    must not be imported (the scipy sources hold ``signal/``)."""
    from cpn_lint.verdict.command import main

    tree = tmp_path / "tree"
    (tree / "signal").mkdir(parents=True)
    marker = tmp_path / "imported"
    for module in (tree / "signal" / "__init__.py", tree / "tokenize.py", tree / "json.py"):
        module.write_text(f"open({str(marker)!r}, 'a').write({module.name!r})\n")
    for name in ("kernels.py", "stencil.py"):
        shutil.copy(FIXTURES / "rules" / "cpn101_element_loop.py", tree / name)
    monkeypatch.chdir(tree)
    serial = _run(main, [".", "--isolated", "--jobs", "1", "--no-cache"], capsys)
    assert _run(main, [".", "--isolated", "--jobs", "2", "--no-cache"], capsys) == serial
    assert not marker.exists(), marker.read_text()
