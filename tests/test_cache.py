"""The result cache (cpn_lint.cache): cached results equal fresh ones, every
change that matters is a miss, and a bad, torn, unwritable or crowded cache
never fails a run or changes its output."""

from __future__ import annotations

import ast
import dataclasses
import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpn_lint import cache as cache_module
from cpn_lint import flake8_plugin
from cpn_lint.cache import ResultCache, decode, encode
from cpn_lint.engine import LintOptions, lint_tree
from cpn_lint.findings import Finding
from cpn_lint.rules import load_rules
from cpn_lint.verdict.collect import Unit, assess_paths

from .conftest import FIXTURES, ROOT, run_flake8
from .numpy_programs import Program, programs

CACHE_SETTINGS = settings(max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
CODES = sorted(code for code in load_rules() if code != "CPN000")
option_sets = st.builds(
    lambda assessment, codes: LintOptions(assessment=assessment, codes=codes),
    st.booleans(),
    st.one_of(st.none(), st.frozensets(st.sampled_from(CODES), min_size=1, max_size=6)),
)
VECTORIZE = "import numpy as np\nf = np.vectorize(abs)\nfor i in range(len(a)):\n    a[i] = 0\n"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("CPN_LINT_CACHE_DIR", str(folder))
    monkeypatch.delenv("CPN_LINT_NO_CACHE", raising=False)
    return folder


def _fresh_cache() -> ResultCache:
    return ResultCache(Path(tempfile.mkdtemp(prefix="cache-")))


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("??/*.json"))


def _notebook(source: str) -> str:
    """The program as a notebook: one code cell per blank-line-free chunk, a markdown cell between."""
    lines = source.splitlines(keepends=True)
    half = max(1, len(lines) // 2)
    cells = [{"cell_type": "code", "source": lines[:half], "metadata": {}, "outputs": [], "execution_count": None},
             {"cell_type": "markdown", "source": ["notes"], "metadata": {}},
             {"cell_type": "code", "source": ["%matplotlib inline\n", *lines[half:]], "metadata": {}, "outputs": [],
              "execution_count": None}]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


# ------------------------------------------------------------------ equality
def _plugin_findings(source: str, name: str, options: LintOptions, cache: ResultCache | None) -> list[Finding]:
    saved = flake8_plugin._Shared.options, flake8_plugin._Shared.cache
    flake8_plugin._Shared.options, flake8_plugin._Shared.cache = options, cache
    try:
        return flake8_plugin._findings(ast.parse(source), source, name, cacheable=True)
    finally:
        flake8_plugin._Shared.options, flake8_plugin._Shared.cache = saved


@CACHE_SETTINGS
@given(programs, option_sets)
def test_cached_plugin_findings_equal_fresh_ones(program: Program, options: LintOptions) -> None:
    source = program.render()
    cache = _fresh_cache()
    fresh = lint_tree(ast.parse(source), source, "prog.py", options)
    first = _plugin_findings(source, "prog.py", options, cache)
    assert _entries(cache.folder), "the first run stores its findings"
    second = _plugin_findings(source, "prog.py", options, cache)
    # repr shows every field (the headline and the data too) and their types
    assert [repr(f) for f in first] == [repr(f) for f in second] == [repr(f) for f in fresh]
    shutil.rmtree(cache.folder)


@CACHE_SETTINGS
@given(programs, option_sets, st.booleans())
def test_cached_verdict_units_equal_fresh_ones(tmp_path: Path, program: Program, options: LintOptions,
                                               notebook: bool) -> None:
    path = tmp_path / ("prog.ipynb" if notebook else "prog.py")
    source = program.render()
    path.write_text(_notebook(source) if notebook else source, encoding="utf-8")
    cache = _fresh_cache()
    (fresh,) = assess_paths([str(path)], options)
    (first,) = assess_paths([str(path)], options, cache=cache)
    assert len(_entries(cache.folder)) == 1
    (second,) = assess_paths([str(path)], options, cache=cache)
    assert _same(first, fresh) and _same(second, fresh)
    shutil.rmtree(cache.folder)


# ------------------------------------------------------------------ misses
def _manifest_copy(folder: Path, changed: bool) -> str:
    from cpn_lint.manifest import bundled_path

    data = bundled_path().read_bytes()
    target = folder / ("changed.json" if changed else "same.json")
    target.write_bytes(data + (b" " if changed else b""))  # one more byte, still the same JSON
    return str(target)


@CACHE_SETTINGS
@given(programs, option_sets, st.data())
def test_each_change_that_matters_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, program: Program,
                                            options: LintOptions, data: st.DataObject) -> None:
    source = program.render().encode("utf-8")
    cache = _fresh_cache()
    key = cache.key("flake8-findings", "prog.py", source, options)
    assert key is not None and cache.put(key, ["stored"])
    assert cache.get(cache.key("flake8-findings", "prog.py", source, options)) == ["stored"]
    # one byte of the file
    at = data.draw(st.integers(0, len(source) - 1))
    byte = data.draw(st.integers(0, 255).filter(lambda b: b != source[at]))
    changed = source[:at] + bytes([byte]) + source[at + 1:]
    assert cache.get(cache.key("flake8-findings", "prog.py", changed, options)) is None
    # the file's name, the kind of result
    assert cache.get(cache.key("flake8-findings", "other.py", source, options)) is None
    assert cache.get(cache.key("verdict-unit", "prog.py", source, options)) is None
    # an option
    flipped = LintOptions(assessment=not options.assessment, codes=options.codes)
    assert cache.get(cache.key("flake8-findings", "prog.py", source, flipped)) is None
    other_codes = frozenset(CODES) - (options.codes or frozenset()) if options.codes else frozenset(CODES[:1])
    assert cache.get(cache.key("flake8-findings", "prog.py", source,
                               LintOptions(assessment=options.assessment, codes=other_codes))) is None
    # the manifest: its content counts, not its path
    same = LintOptions(options.assessment, options.codes, _manifest_copy(tmp_path, changed=False))
    edited = LintOptions(options.assessment, options.codes, _manifest_copy(tmp_path, changed=True))
    assert cache.get(cache.key("flake8-findings", "prog.py", source, same)) == ["stored"]
    assert cache.get(cache.key("flake8-findings", "prog.py", source, edited)) is None
    # the version, or the package's code
    with monkeypatch.context() as patch:
        patch.setattr(cache_module, "environment_identity", lambda: "cpn-lint 9.9.9|other code")
        assert cache.get(cache.key("flake8-findings", "prog.py", source, options)) is None
    with monkeypatch.context() as patch:
        patch.setattr(cache_module, "code_fingerprint", lambda: "edited code")
        cache_module.environment_identity.cache_clear()
        assert cache.get(cache.key("flake8-findings", "prog.py", source, options)) is None
    cache_module.environment_identity.cache_clear()
    assert cache.get(cache.key("flake8-findings", "prog.py", source, options)) == ["stored"]
    shutil.rmtree(cache.folder)


def test_the_fingerprint_covers_the_package_code_and_is_cheap() -> None:
    cache_module.code_fingerprint.cache_clear()
    times = []
    for _ in range(3):
        start = time.perf_counter()
        cache_module.code_fingerprint.__wrapped__()
        times.append(time.perf_counter() - start)
    assert min(times) < 0.2, times  # measured: about 3 ms on the project's machine (budget 20 ms)
    assert cache_module.code_fingerprint() == cache_module.code_fingerprint.__wrapped__()
    assert f"|{cache_module.code_fingerprint()}|" in cache_module.environment_identity()


# ------------------------------------------------------------------ bad entries
def _stored(cache: ResultCache) -> tuple[str, list[Finding]]:
    findings = [Finding("CPN102", 2, 4, "np.vectorize", short="short", data={"api": "numpy.vectorize", "n": [1, 2]})]
    key = cache.key("flake8-findings", "prog.py", VECTORIZE.encode(), LintOptions())
    assert key is not None and cache.put(key, findings)
    return key, findings


def test_an_entry_reads_back_whole(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    key, findings = _stored(cache)
    assert repr(cache.get(key, list[Finding])) == repr(findings)
    assert cache.get(key, list[Unit]) is None, "a value of another type is a miss"


@pytest.mark.parametrize("damage", [
    "torn", "empty", "garbage", "not-json", "json-list", "other-key", "other-schema", "altered-value",
    "wrong-type", "unknown-class", "deep",
])
def test_a_damaged_entry_is_a_miss(tmp_path: Path, damage: str) -> None:
    cache = ResultCache(tmp_path)
    key, _ = _stored(cache)
    path = cache.path_of(key)
    data = path.read_bytes()
    head, _, body = data.partition(b"\n")
    header = json.loads(head)

    def rewrite(value: object, text: bytes | None = None, **changes: object) -> bytes:
        import hashlib

        text = json.dumps(value).encode() if text is None else text
        fields = {**header, "sha256": hashlib.sha256(text).hexdigest(), **changes}
        return json.dumps(fields).encode() + b"\n" + text

    value = json.loads(body)
    damaged = {
        "torn": data[: len(data) // 2],
        "empty": b"",
        "garbage": os.urandom(200),
        "not-json": b"{\n" + body,
        "json-list": b"[1, 2, 3]",
        "other-key": rewrite(value, key="0" * 64),
        "other-schema": rewrite(value, schema=cache_module.SCHEMA + 1),
        "altered-value": head + b"\n" + body.replace(b'"line":2', b'"line":3'),
        "wrong-type": rewrite([{"c": "Finding", "v": {**value[0]["v"], "line": "two"}}]),
        "unknown-class": rewrite([{"c": "Popen", "v": {"args": "rm -rf /"}}]),
        "deep": rewrite(None, text=b"[" * 100_000 + b"]" * 100_000),
    }[damage]
    path.write_bytes(damaged)
    assert cache.get(key, list[Finding]) is None


def test_damaged_entries_never_change_a_report(tmp_path: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from cpn_lint.verdict.command import main

    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "projects", project)
    monkeypatch.chdir(project)
    assert main(["--isolated", "--jobs", "1", "--no-cache", "."]) == 0
    expected = capsys.readouterr().out
    assert main(["--isolated", "--jobs", "1", "."]) == 0
    assert capsys.readouterr().out == expected
    entries = _entries(cache_dir)
    assert entries
    for number, entry in enumerate(entries):  # tear one, garble one, empty one, ...
        data = entry.read_bytes()
        entry.write_bytes([data[: len(data) // 3], b"", os.urandom(64), data.replace(b'"line":', b'"line":1')][number % 4])
    assert main(["--isolated", "--jobs", "1", "."]) == 0
    assert capsys.readouterr().out == expected
    assert main(["--isolated", "--jobs", "1", "."]) == 0, "the damaged entries were replaced"
    assert capsys.readouterr().out == expected


# ------------------------------------------------------------------ unwritable
def _report(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from cpn_lint.verdict.command import main

    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_an_unwritable_cache_means_no_cache_silently(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CPN_LINT_CACHE_DIR", str(blocker / "cache"))  # mkdir fails, even for root
    monkeypatch.chdir(FIXTURES / "projects")
    expected = _report(["--isolated", "--jobs", "1", "--no-cache", "."], capsys)
    assert _report(["--isolated", "--jobs", "1", "."], capsys) == expected
    assert expected[2] == ""


@pytest.mark.parametrize("failing, error", [("mkstemp", errno.EROFS), ("write", errno.ENOSPC),
                                            ("replace", errno.EACCES)])
def test_a_read_only_or_full_disk_stores_nothing_and_raises_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    failing: str, error: int) -> None:
    import types

    def broken(*args: object, **kwargs: object) -> object:
        raise OSError(error, os.strerror(error))

    if failing == "mkstemp":
        monkeypatch.setattr(cache_module.tempfile, "mkstemp", broken)
    else:
        fake_os = types.SimpleNamespace(**{k: getattr(os, k) for k in dir(os) if not k.startswith("__")})
        setattr(fake_os, failing, broken)
        monkeypatch.setattr(cache_module, "os", fake_os)
    cache = ResultCache(tmp_path / "cache")
    key = cache.key("flake8-findings", "prog.py", b"x = 1\n", LintOptions())
    assert cache.put(key, []) is False
    assert cache.put(key, []) is False  # and it stops trying
    assert cache.get(key) is None
    assert not [p for p in (tmp_path / "cache").rglob("*") if p.is_file() and p.name != "CACHEDIR.TAG"], \
        "no entry and no temporary file is left"


def test_an_interrupted_write_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    def interrupted(*args: object) -> object:
        raise KeyboardInterrupt

    fake_os = types.SimpleNamespace(**{k: getattr(os, k) for k in dir(os) if not k.startswith("__")})
    fake_os.replace = interrupted
    monkeypatch.setattr(cache_module, "os", fake_os)
    cache = ResultCache(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        cache.put(cache.key("k", "prog.py", b"", None), [])
    assert not list(tmp_path.glob("??/*"))


# ------------------------------------------------------------------ concurrency
@pytest.mark.slow  # several flake8 processes over the fixtures
def test_two_processes_writing_at_once(tmp_path: Path) -> None:
    """Two cpn-verdict runs fill one cold cache at the same time: both print
    the report of a run without cache, and every entry left is whole."""
    env = {**os.environ, "CPN_LINT_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("CPN_LINT_NO_CACHE", None)
    argv = [sys.executable, "-m", "cpn_lint", "verdict", "--isolated", "--jobs", "1", "fixtures", "tests/corpus"]
    expected = subprocess.run([*argv, "--no-cache"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    runs = [subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert (run.returncode, out, err) == (expected.returncode, expected.stdout, expected.stderr)
    entries = _entries(tmp_path / "cache")
    assert len(entries) >= 100
    cache = ResultCache(tmp_path / "cache")
    for entry in entries:
        assert cache.get(entry.stem) is not None, f"{entry} is not a whole entry"
    assert not list((tmp_path / "cache").glob("??/.*")), "no temporary file is left"
    warm = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert (warm.returncode, warm.stdout, warm.stderr) == (expected.returncode, expected.stdout, expected.stderr)


@pytest.mark.slow  # several flake8 processes over the fixtures
def test_flake8_with_and_without_the_cache(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """flake8 -j2 twice over a cold then warm cache prints what it prints
    without one; --cpn-no-cache and CPN_LINT_NO_CACHE=1 store nothing."""
    folder = cache_dir
    args = ("--select", "CPN", "--cpn-assessment", "-j", "2", "fixtures", "tests/corpus")
    off = run_flake8(*args, "--cpn-no-cache", cwd=ROOT)
    assert not folder.exists()
    monkeypatch.setenv("CPN_LINT_NO_CACHE", "1")
    assert run_flake8(*args, cwd=ROOT).stdout == off.stdout and not folder.exists()
    monkeypatch.delenv("CPN_LINT_NO_CACHE")
    cold = run_flake8(*args, cwd=ROOT)
    stored = len(_entries(folder))
    warm = run_flake8(*args, cwd=ROOT)
    assert off.stdout and cold.stdout == warm.stdout == off.stdout
    assert cold.returncode == warm.returncode == off.returncode
    assert stored >= 100 and len(_entries(folder)) == stored, "the warm run found every file in the cache"


# ------------------------------------------------------------------ eviction
def test_least_recently_used_entries_are_evicted_first(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path, max_bytes=10**9)
    keys = [cache.key("k", f"f{i}.py", b"", None) for i in range(40)]
    for key in keys:
        assert cache.put(key, ["x" * 1000])
    size = cache.path_of(keys[0]).stat().st_size
    old = time.time() - 10 * cache_module.TOUCH_AFTER_S
    for age, key in enumerate(keys):  # keys[0] oldest ... keys[-1] newest
        os.utime(cache.path_of(key), (old + age, old + age))
    for key in keys[:5]:  # reading an entry makes it recently used
        assert cache.get(key) == ["x" * 1000]
    cache.max_bytes = 20 * size
    removed = cache.trim()
    left = {key for key in keys if cache.path_of(key).exists()}
    assert removed == 40 - len(left) and len(left) * size <= cache_module.TRIM_TO * cache.max_bytes
    assert set(keys[:5]) <= left, "the entries just read are kept"
    assert left == set(keys[:5]) | set(keys[40 - (len(left) - 5):]), "the rest: newest first"


def test_writing_past_the_cap_trims_by_itself(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path, max_bytes=40_000)
    for i in range(200):
        cache.put(cache.key("k", f"f{i}.py", b"", None), ["y" * 1000])
    assert cache.info().size <= cache.max_bytes
    assert cache.info().entries >= 10


def test_the_size_cap_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CPN_LINT_CACHE_MAX_SIZE", "64M")
    assert cache_module.max_bytes_from_environment() == 64_000_000
    monkeypatch.setenv("CPN_LINT_CACHE_MAX_SIZE", "lots")
    assert cache_module.max_bytes_from_environment() == cache_module.DEFAULT_MAX_BYTES
    monkeypatch.delenv("CPN_LINT_CACHE_MAX_SIZE")
    assert cache_module.max_bytes_from_environment() == 256_000_000


# ------------------------------------------------------------------ where, and the command
def test_the_cache_lives_in_the_users_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CPN_LINT_CACHE_DIR", raising=False)
    # the test run's own cache folder (tests/conftest.py), never the developer's
    assert cache_module.default_folder() == Path(os.environ["XDG_CACHE_HOME"]) / "cpn-lint" / "results"
    assert str(cache_module.default_folder()).startswith(tempfile.gettempdir())
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(cache_module.sys, "platform", "linux")
    assert cache_module.default_folder() == tmp_path / ".cache" / "cpn-lint" / "results"
    monkeypatch.setattr(cache_module.sys, "platform", "darwin")
    assert cache_module.default_folder() == tmp_path / "Library" / "Caches" / "cpn-lint" / "results"
    monkeypatch.setenv("CPN_LINT_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert cache_module.default_folder() == tmp_path / "elsewhere"


def test_turning_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CPN_LINT_NO_CACHE", raising=False)
    assert cache_module.open_cache() is not None and cache_module.open_cache(no_cache=True) is None
    for value in ("1", "true", "yes"):
        monkeypatch.setenv("CPN_LINT_NO_CACHE", value)
        assert cache_module.open_cache() is None
    monkeypatch.setenv("CPN_LINT_NO_CACHE", "0")
    assert cache_module.open_cache() is not None


def test_no_cache_options_store_nothing(tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from cpn_lint import cli

    (tmp_path / "v.py").write_text(VECTORIZE)
    monkeypatch.chdir(tmp_path)
    assert cli.verdict_main(["--isolated", "--no-cache", "v.py"]) == 0
    assert cli.main(["fix", "--diff", "--no-cache", "v.py"]) in (0, 1)
    assert cli.main(["baseline", "write", "--no-cache", "-o", "base.json", "v.py"]) == 0
    assert cli.main(["noqa", "--no-cache", "v.py"]) == 0
    assert not cache_dir.exists()
    (tmp_path / "w.py").write_text(VECTORIZE)
    assert cli.verdict_main(["--isolated", "w.py"]) == 0
    assert cli.main(["fix", "--diff", "w.py"]) in (0, 1)
    assert cli.main(["baseline", "write", "-o", "base.json", "w.py"]) == 0
    assert len(_entries(cache_dir)) == 3
    capsys.readouterr()


def test_cache_info_and_clean(tmp_path: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cpn_lint import cli

    cache = ResultCache(cache_dir)
    for i in range(3):
        cache.put(cache.key("k", f"f{i}.py", b"", None), [i])
    (cache_dir / "notes.txt").write_text("someone else's file\n")
    (cache_dir / "ab").mkdir(exist_ok=True)
    (cache_dir / "ab" / "mine.txt").write_text("not an entry\n")
    assert cli.main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    assert f"location: {cache_dir}" in out and "entries: 3" in out and "cap 256.0 MB" in out
    assert cli.main(["cache", "clean"]) == 0
    assert "Removed 3 entries" in capsys.readouterr().out
    assert not _entries(cache_dir)
    assert (cache_dir / "notes.txt").exists() and (cache_dir / "ab" / "mine.txt").exists(), \
        "clean removes only the cache's own files"
    assert cli.main(["cache", "info"]) == 0 and "entries: 0" in capsys.readouterr().out


# ------------------------------------------------------------------ the codec
values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.binary(max_size=8),
    lambda inner: (st.lists(inner, max_size=4) | st.tuples(inner, inner)
                   | st.frozensets(st.integers() | st.text(max_size=4), max_size=4)
                   | st.dictionaries(st.text(max_size=4), inner, max_size=4)
                   | st.dictionaries(st.integers(), inner, max_size=4)),
    max_leaves=12,
)


def _same(a: object, b: object) -> bool:
    """Equal, with the same types all the way down (True is not 1, a tuple not a list)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))  # type: ignore[arg-type]
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)  # type: ignore[index]
    if isinstance(a, (set, frozenset)):
        return a == b and {type(x) for x in a} == {type(x) for x in b}  # type: ignore[union-attr]
    if dataclasses.is_dataclass(a):
        return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    return a == b


@settings(max_examples=200, deadline=None)
@given(values)
def test_the_codec_round_trips_values_and_their_types(value: object) -> None:
    back = decode(json.loads(json.dumps(encode(value))))
    assert _same(back, value)


def test_the_codec_refuses_what_it_cannot_store_exactly() -> None:
    class Other:
        pass

    with pytest.raises(cache_module.Unencodable):
        encode([Other()])
    assert ResultCache(Path(tempfile.mkdtemp())).put("0" * 64, Other()) is False


def test_a_refreshed_default_manifest_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`cpn-lint manifest refresh` during a long process (an editor's) changes
    the manifest the engine reads by default: entries made before are not reused."""
    from cpn_lint import manifest

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    cache = ResultCache(tmp_path / "cache")
    before = cache.key("flake8-findings", "prog.py", VECTORIZE.encode(), LintOptions())
    target = manifest.user_manifest_path()
    target.parent.mkdir(parents=True)
    target.write_bytes(manifest.bundled_path().read_bytes() + b"\n")
    after = cache.key("flake8-findings", "prog.py", VECTORIZE.encode(), LintOptions())
    assert before is not None and after is not None and before != after


def test_every_field_of_a_unit_is_cached_exactly() -> None:
    """A field added to Unit (or to what it holds) that the cache cannot
    store would silently turn the cache off for cpn-verdict: every fixture's
    unit, notebooks included, must round-trip whole."""
    from cpn_lint.verdict.collect import discover

    files, _ = discover([str(FIXTURES), str(ROOT / "tests" / "corpus")])
    assert any(f.endswith(".ipynb") for f in files)
    for unit in assess_paths(files, LintOptions(assessment=True)):
        back = decode(json.loads(json.dumps(encode(unit))))
        assert _same(back, unit), unit.path
