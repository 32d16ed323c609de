"""Bad input, containment, the crawl, and static read-only behaviour.

A linter that crashes a user's flake8 run or dies on one odd file gets
uninstalled. Every case here gets one clear message and loses nothing else.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from pathlib import Path

import pytest

from cpn_lint import LintOptions, analyze_source, lint_source
from cpn_lint.rules import load_rules

from .conftest import run_flake8

OPTIONS = LintOptions(assessment=True)
LOUD = "import numpy as np\na = np.ones(8)\nf = np.vectorize(abs)\n"


# -- bad input to the engine -------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"import numpy as np\ndef f(:\n", "does not parse"),
        (b"import numpy as np\nx = '\xff\xfe'\n", "not valid UTF-8"),
        (b"import numpy as np\nx = 1\x00\n", "NUL byte"),
        (b"import numpy as np\nx = (" + b"(" * 300 + b"1" + b")" * 300 + b")\n", "parse"),
    ],
    ids=["syntax-error", "non-utf8", "nul-byte", "too-deep-for-the-parser"],
)
def test_unreadable_source_gives_one_clear_error(raw: bytes, reason: str) -> None:
    result = analyze_source(raw, "bad.py", OPTIONS)
    assert result.findings == []
    assert result.error is not None and reason in result.error
    assert "\n" not in result.error


def test_empty_file_is_fine() -> None:
    result = analyze_source(b"", "empty.py", OPTIONS)
    assert result.error is None and result.findings == []


def test_encoding_cookie_is_honoured() -> None:
    raw = "# -*- coding: latin-1 -*-\nimport numpy as np\ns = 'caf\xe9'\nf = np.vectorize(abs)\n".encode("latin-1")
    result = analyze_source(raw, "latin.py", OPTIONS)
    assert result.error is None
    assert [f.code for f in result.findings if f.code == "CPN102"] == ["CPN102"]


def test_expression_deep_enough_to_exhaust_recursion_is_survived() -> None:
    # A long flat chain parses (no parentheses) but is tens of thousands of
    # levels deep: the model must not blow Python's recursion limit.
    chain = " + ".join(["a"] * 30_000)
    source = f"import numpy as np\na = np.ones(4)\nfor i in range(4):\n    b = {chain}\n"
    try:
        result = analyze_source(source.encode(), "deep.py", OPTIONS)
    except RecursionError:  # pragma: no cover - the failure this test exists for
        pytest.fail("RecursionError escaped the engine")
    assert result.error is None or "deep" in result.error or "parse" in result.error
    assert not [f for f in result.findings if f.code == "CPN000" and "Recursion" not in f.message]


@pytest.mark.slow
def test_fifty_thousand_line_file_is_linted_whole() -> None:
    """A huge file is analysed completely (linear growth is a budget of the
    benchmarks' scaling measure, ``python3 -m benchmarks --only scaling``)."""
    block = (
        "def step_{i}(u):\n"
        "    for t in range(10):\n"
        "        u[1:-1] = 0.5 * (u[:-2] + u[2:])\n"
        "    for i in range(u.shape[0]):\n"
        "        u[i] = u[i] * 2.0\n"
        "    return float(np.sum(u))\n\n"
    )
    source = "import numpy as np\n" + "".join(block.format(i=i) for i in range(7_143))
    assert source.count("\n") >= 50_000
    result = analyze_source(source.encode(), "big.py", OPTIONS)
    assert result.error is None
    assert sum(f.code == "CPN101" for f in result.findings) == 7_143


# -- containment -----------------------------------------------------------------
def _explode(monkeypatch: pytest.MonkeyPatch, code: str = "CPN102") -> None:
    rule = load_rules()[code]

    def broken(self, model):  # type: ignore[no-untyped-def]
        raise KeyError("boom")

    monkeypatch.setattr(rule, "check", broken)


def test_a_failing_rule_becomes_one_cpn000_and_others_still_report(monkeypatch: pytest.MonkeyPatch) -> None:
    _explode(monkeypatch, "CPN102")
    source = LOUD + "for i in range(100):\n    a[i] = a[i] * 2\n"
    findings = lint_source(source, assessment=True)
    internal = [f for f in findings if f.code == "CPN000"]
    assert len(internal) == 1
    assert internal[0].message.startswith("internal error in CPN102: KeyError")
    assert any(f.code == "CPN101" for f in findings)


def test_a_failing_rule_does_not_abort_flake8(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from flake8.api import legacy
    from flake8.main.options import JobsArgument

    _explode(monkeypatch, "CPN102")
    path = tmp_path / "prog.py"
    path.write_text(LOUD + "for i in range(100):\n    a[i] = a[i] * 2\n", encoding="utf-8")
    guide = legacy.get_style_guide(select=["CPN"], jobs=JobsArgument("1"))
    report = guide.check_files([str(path)])
    internal = report.get_statistics("CPN000")
    assert report.get_statistics("CPN101"), "the other rules' findings must still appear"
    assert len(internal) == 1 and "internal error in CPN102: KeyError" in internal[0]


def test_checkers_share_one_analysis_and_keep_no_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every checker of a file reads one analysis; once flake8 drops the
    file's tree, the plugin holds nothing of it (a kept tree makes every full
    collection of flake8's process slower)."""
    import ast
    import gc
    import weakref

    from cpn_lint import flake8_plugin

    runs: list[str] = []
    real = flake8_plugin.lint_tree

    def counting(tree, source, filename, options):  # type: ignore[no-untyped-def]
        runs.append(filename)
        return real(tree, source, filename, options)

    monkeypatch.setattr(flake8_plugin, "lint_tree", counting)
    monkeypatch.setattr(flake8_plugin._Shared, "options", flake8_plugin.LintOptions())
    source = LOUD + "for i in range(100):\n    a[i] = a[i] * 2\n"
    lines = source.splitlines(keepends=True)
    results = []
    for name in ("one.py", "two.py"):
        tree = ast.parse(source)
        for checker in flake8_plugin.CHECKERS.values():
            results += [r[2].split()[0] for r in checker(tree, name, lines).run()]
        alive = weakref.ref(tree)
        del tree
        gc.collect()
        assert alive() is None, "the plugin kept the file's tree alive"
    assert runs == ["one.py", "two.py"]
    assert results.count("CPN101") == 2 and results.count("CPN102") == 2


def test_sarif_function_spans_survive_deep_nesting_and_stay_silent(tmp_path: Path) -> None:
    """The SARIF formatter reads each reported file again for its functions:
    a file too deeply nested to parse gives none, and a file with an invalid
    escape parses without a warning on the user's terminal."""
    import warnings

    from cpn_lint.flake8_sarif import file_spans

    deep = tmp_path / "deep.py"
    deep.write_text("x = " + "(" * 5000 + "1" + ")" * 5000 + "\n", encoding="utf-8")
    escape = tmp_path / "escape.py"
    escape.write_text("def f():\n    return '\\d'\n", encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert file_spans(str(deep)) == []
        assert file_spans(str(escape)) == [(1, 2, "f")]
    assert not caught


def test_cpn000_is_shown_by_a_plain_flake8_run() -> None:
    from cpn_lint import flake8_plugin

    assert "CPN000" in flake8_plugin.CHECKERS  # an entry point, hence default-selected


# -- flake8 on bad files ---------------------------------------------------------
@pytest.mark.e2e
def test_flake8_survives_odd_files_and_checks_the_rest(tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text(LOUD, encoding="utf-8")
    (tmp_path / "broken.py").write_text("import numpy as np\ndef f(:\n", encoding="utf-8")
    (tmp_path / "latin.py").write_bytes(b"import numpy as np\nx = '\xff'\n")
    (tmp_path / "empty.py").write_text("", encoding="utf-8")
    (tmp_path / "dir with space").mkdir()
    (tmp_path / "dir with space" / "n\u00e4me.py").write_text(LOUD, encoding="utf-8")
    result = run_flake8("--select", "CPN,E902,E999", str(tmp_path))
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stdout.count("CPN102") == 2, result.stdout
    assert "E999" in result.stdout  # flake8's own report of the unparsable file


# -- the crawl -------------------------------------------------------------------
def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)  # locates without importing
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


@pytest.mark.crawl
@pytest.mark.slow
@pytest.mark.parametrize("package", ["numpy", "scipy"])
def test_crawl_installed_packages_without_internal_errors(package: str) -> None:
    root = _package_dir(package)
    if root is None:
        pytest.skip(f"{package} is not installed")
    files = sorted(root.rglob("*.py"))
    lines = 0
    failures: list[str] = []
    start = time.perf_counter()
    for path in files:
        result = analyze_source(path.read_bytes(), str(path), OPTIONS)
        lines += result.lines
        failures += [f"{path}:{f.line}: {f.message}" for f in result.findings if f.code == "CPN000"]
    elapsed = time.perf_counter() - start
    print(f"\ncrawl {package}: {len(files)} files, {lines} lines, {elapsed:.1f}s, {len(failures)} internal errors")
    assert len(files) > 100
    assert failures == []


# -- static and read-only --------------------------------------------------------
HOSTILE = """import os, sys, pathlib
import numpy as np
pathlib.Path({marker!r}).write_text("executed")
print(dict(os.environ))
os.system("touch {marker}.sh")
sys.exit(3)
f = np.vectorize(abs)
"""


def test_linting_never_executes_the_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    marker = tmp_path / "was-run"
    source = HOSTILE.format(marker=str(marker))
    os.environ["CPN_LINT_CANARY"] = "canary-value-not-to-be-printed"
    try:
        findings = lint_source(source, assessment=True)
    finally:
        del os.environ["CPN_LINT_CANARY"]
    out = capsys.readouterr()
    assert [f.code for f in findings if f.code == "CPN102"] == ["CPN102"]
    assert not marker.exists() and not Path(f"{marker}.sh").exists()
    assert "canary-value" not in out.out + out.err


@pytest.mark.e2e
def test_flake8_run_never_executes_the_code(tmp_path: Path) -> None:
    marker = tmp_path / "was-run"
    prog = tmp_path / "prog.py"
    prog.write_text(HOSTILE.format(marker=str(marker)), encoding="utf-8")
    env_marker = "canary-value-not-to-be-printed"
    os.environ["CPN_LINT_CANARY"] = env_marker
    try:
        result = run_flake8("--select", "CPN", str(prog))
    finally:
        del os.environ["CPN_LINT_CANARY"]
    assert "CPN102" in result.stdout
    assert not marker.exists()
    assert env_marker not in result.stdout + result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prog.py"]


def test_the_engine_imports_no_user_module(monkeypatch: pytest.MonkeyPatch) -> None:
    before = set(sys.modules)
    lint_source("import numpy as np\nimport totally_unknown_user_module as u\nf = np.vectorize(u.f)\n")
    assert "totally_unknown_user_module" not in set(sys.modules) - before
