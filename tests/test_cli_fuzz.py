"""Random argument lists for every command: a clear message and an exit
status, never a traceback, and never a user's source destroyed."""

from __future__ import annotations

import ast
import io
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpn_lint import cli

KERNEL = "import numpy as np\n\n\ndef scale(a):\n    for i in range(a.shape[0]):\n        a[i] = a[i] * 2.0\n    return a\n"
NOTEBOOK = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                       "source": ["import numpy as np\n", "u = np.zeros(10)\n", "for t in range(5):\n",
                                  "    u = u + 1.0\n"]}],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
FILES = {
    "src/kernel.py": KERNEL.encode(),
    "src/broken.py": b"def f(:\n",
    "src/latin.py": b"# \xe9\nx = 1\n",
    "nb.ipynb": json.dumps(NOTEBOOK).encode(),
    "bad.ipynb": b"{not json",
    "flake8.txt": b"src/kernel.py:5:5: CPN101 loop 'for i' indexes 'a' element by element (RR-loop)\ngarbage\n",
}

COMMANDS = [[], ["rules"], ["rule"], ["verdict"], ["manifest"], ["manifest", "show"], ["manifest", "refresh"],
            ["manifest", "surface"], ["fix"], ["noqa"], ["baseline"], ["baseline", "write"], ["--version"]]
TOKENS = ["src", "src/kernel.py", "src/broken.py", "src/latin.py", "nb.ipynb", "bad.ipynb", "missing", ".",
          "base.json", "report.md", "flake8.txt", "-", "-o", "--output", "--format", "json", "sarif", "html", "xml",
          "--select", "CPN1", "CPN101", "ZZZ", "--diff", "--brief", "--elements", "abc", "-5", "1e9", "--gpus",
          "0", "--nodes", "--gpu", "P100", "--fail-on", "READY", "--baseline", "--from-flake8", "--doctor",
          "--isolated", "--manifest", "--force", "--from-json", "--from-html", "--snapshot-date", "2026-13-45",
          "--include-tests", "--exclude", "*", "--config", "--help", "", "\x00", "é"]
# Working command lines, which the fuzzer mutates, so most examples reach the
# commands' real work instead of stopping in argparse.
WORKING = [
    ("cpn-verdict", ["src"]), ("cpn-verdict", ["src", "--format", "json", "-o", "report.json"]),
    ("cpn-verdict", ["nb.ipynb", "--brief", "-o", "report.md"]), ("cpn-verdict", ["--from-flake8", "flake8.txt"]),
    ("cpn-verdict", [".", "--elements", "1e9", "--gpus", "4", "--format", "sarif"]),
    ("cpn-lint", ["baseline", "write", "-o", "base.json", "src"]), ("cpn-lint", ["fix", "--diff", "src"]),
    ("cpn-lint", ["fix", "src", "nb.ipynb"]), ("cpn-lint", ["noqa", "src"]), ("cpn-lint", ["rule", "CPN101"]),
    ("cpn-lint", ["manifest", "show", "np.interp"]), ("cpn-lint", ["rules"]),
]


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, list[str], list[str]]:
    program, argv = draw(st.sampled_from(WORKING))
    argv = list(argv)
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.integers(0, len(argv)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        token = draw(st.one_of(st.sampled_from(TOKENS), st.text(max_size=6)))
        if action == "insert" or not argv:
            argv.insert(where, token)
        elif action == "delete":
            del argv[min(where, len(argv) - 1)]
        else:
            argv[min(where, len(argv) - 1)] = token
    return program, [], argv


argument_lists = st.one_of(
    st.tuples(st.sampled_from(["cpn-lint", "cpn-verdict"]), st.sampled_from(COMMANDS),
              st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=6)), max_size=6)),
    mutated(),
)


def _populate(root: Path) -> None:
    for name, data in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _sources_intact(root: Path) -> None:
    """A source may be fixed or marked, never turned into something else."""
    for name, data in FILES.items():
        path = root / name
        assert path.is_file(), f"{name} was removed or replaced by a folder"
        now = path.read_bytes()
        if now == data:
            continue
        if name.endswith(".py"):
            ast.parse(now)  # still Python
        elif name.endswith(".ipynb"):
            assert isinstance(json.loads(now).get("cells"), list)
        else:
            raise AssertionError(f"{name} was changed")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@settings(max_examples=int(os.environ.get("CPN_FUZZ_EXAMPLES", "40")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(argument_lists)
def test_no_traceback_for_any_argument_list(workdir: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str], case) -> None:  # type: ignore[no-untyped-def]
    program, command, rest = case
    root = workdir / "tree"
    if root.exists():
        import shutil

        shutil.rmtree(root)
    root.mkdir()
    _populate(root)
    monkeypatch.chdir(root)
    monkeypatch.setenv("XDG_CACHE_HOME", str(workdir / "cache"))  # manifest refresh's default target
    monkeypatch.setattr("sys.stdin", io.StringIO("src/kernel.py:1:1: CPN101 x\n"))
    monkeypatch.setenv("CPN_LINT_DEBUG", "1")  # a bug must surface here as an exception
    argv = command + rest if program == "cpn-lint" else rest
    entry = cli.main if program == "cpn-lint" else cli.verdict_main
    try:
        status = entry(argv)
    except SystemExit as exc:  # argparse: --help, --version or a usage error, already printed
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    err = capsys.readouterr().err
    assert status in (0, 1, 2), (argv, status, err)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    _sources_intact(root)


@pytest.mark.slow
def test_many_argument_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same property over many more examples (slow tier)."""
    import subprocess
    import sys

    env = {**os.environ, "CPN_FUZZ_EXAMPLES": "400"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__,
                           "-k", "test_no_traceback_for_any_argument_list", "-m", "not slow"],
                          capture_output=True, text=True, env=env, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-3000:]


@pytest.mark.parametrize("program, argv", [
    ("cpn-verdict", ["--from-flake8", "\x00"]), ("cpn-verdict", ["--baseline", "\x00", "."]),
    ("cpn-verdict", ["--manifest", "\x00", "."]), ("cpn-verdict", ["--doctor", "\x00", "."]),
    ("cpn-verdict", ["-o", "\x00", "."]), ("cpn-lint", ["manifest", "show", "--manifest", "\x00"]),
    ("cpn-lint", ["noqa", "\x00"]), ("cpn-lint", ["fix", "\x00"]), ("cpn-lint", ["baseline", "write", "-o", "\x00"]),
])
def test_a_nul_byte_in_any_path_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str], program: str,
                                                 argv: list[str]) -> None:
    _populate(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CPN_LINT_DEBUG", "1")
    entry = cli.main if program == "cpn-lint" else cli.verdict_main
    assert entry(argv) == 2
    assert capsys.readouterr().err.strip()
