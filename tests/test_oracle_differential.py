"""Differential tier: cpn-lint against the real cuPyNumeric Doctor.

Every runnable program (a fixture or a captured program with a
``if __name__ == "__main__":`` driver) runs under cuPyNumeric on CPUs with
Doctor on (cpn_lint.oracle; results cached in .cpn-oracle-cache/). Each
Doctor finding that maps to a CPN code must be reported by cpn-lint at that
line or on the statement that contains it, unless it is one of the reviewed
disagreements in tests/data/doctor_disagreements.json; a listed disagreement
that no longer occurs fails as stale. A program must finish, or stop exactly
where that file says and why.

The tier skips only when the oracle environment cannot be created (no
network, no C compiler); with CPN_ORACLE_REQUIRED=1 (set by CI) it fails.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from cpn_lint import oracle
from cpn_lint.doctor import DoctorFinding, load_doctor_report, reconcile
from cpn_lint.engine import FileResult, LintOptions, analyze_source

from . import oracle_support as support

pytestmark = pytest.mark.oracle

PROGRAMS = support.runnable_programs()
TALLY: Counter[str] = Counter()


@pytest.fixture(scope="module")
def oracle_venv() -> Path:
    return support.require_oracle_venv()


@pytest.fixture(scope="module")
def expectations() -> support.Expectations:
    return support.load_expectations()


class _TallyReport:
    """Prints the tier's figures in pytest's closing summary and keeps them in the cache folder."""

    def pytest_terminal_summary(self, terminalreporter) -> None:  # pytest hook
        if not TALLY:
            return
        terminalreporter.write_line(
            f"oracle: {TALLY['programs']} programs, {TALLY['checked']} mapped Doctor findings checked, "
            f"{TALLY['matched']} matched a static finding, {TALLY['disagreements']} reviewed disagreements, "
            f"{TALLY['unmapped']} unmapped, {TALLY['boundary']} boundary conversions, {TALLY['stops']} reviewed stops")
        summary = support.cache_dir() / "summary.json"
        summary.parent.mkdir(parents=True, exist_ok=True)
        summary.write_text(json.dumps(dict(TALLY), indent=1) + "\n")


@pytest.fixture(scope="module", autouse=True)
def _summary(request: pytest.FixtureRequest) -> None:
    manager = request.config.pluginmanager
    if not manager.has_plugin("cpn-oracle-tally"):
        manager.register(_TallyReport(), "cpn-oracle-tally")


def _lint(path: str) -> FileResult:
    return analyze_source(Path(path).read_bytes(), path, LintOptions(), keep_model=True)


def _describe(finding: DoctorFinding) -> str:
    return (f"{support.relative(finding.filename)}:{finding.line} {finding.check} -> {finding.code}: "
            f"{finding.source!r}")


def _check_outcome(program: Path, run: oracle.OracleRun, expected: support.Stop | None) -> None:
    name = support.relative(program)
    assert not run.timed_out, f"{name} did not finish within {oracle.DEFAULT_TIMEOUT:.0f} s under cuPyNumeric"
    if expected is None:
        assert run.ok, (f"{name} stopped under cuPyNumeric ({run.stop}); fix its driver or list the stop, "
                        f"with the reason, in {support.EXPECTATIONS.name}\n{run.stderr_tail}")
        return
    assert not run.ok, f"{name} now finishes under cuPyNumeric: remove its stale stop from {support.EXPECTATIONS.name}"
    stop = run.stop or {}
    actual = (support.relative(stop.get("filename") or "?"), stop.get("line"), stop.get("error"))
    assert actual == (name, expected.line, expected.error), (
        f"{name} stops at {actual}, but {support.EXPECTATIONS.name} expects "
        f"{(name, expected.line, expected.error)}: {stop.get('message')}")
    if expected.code:
        codes = {f.code for f in _lint(str(program)).findings if f.line == expected.line}
        assert expected.code in codes, (
            f"{name}:{expected.line}: the stop ({expected.error}) is listed as predicted by {expected.code}, "
            f"but cpn-lint reports {sorted(codes) or 'nothing'} there")


@pytest.mark.parametrize("program", PROGRAMS, ids=support.relative)
def test_every_doctor_finding_is_reported_statically(
        program: Path, oracle_venv: Path, expectations: support.Expectations) -> None:
    run = support.cached_run(program, oracle_venv)
    TALLY["programs"] += 1
    stop = expectations.stop_of(support.relative(program))
    _check_outcome(program, run, stop)
    TALLY["stops"] += stop is not None

    findings = load_doctor_report(json.dumps(run.report), origin=f"Doctor on {support.relative(program)}")
    # library frames (matplotlib, NumPy's own Python code) are dropped by the reader
    outside = [f for f in findings if not support.relative(f.filename).startswith(("fixtures/", "tests/"))]
    assert not outside, f"Doctor located findings outside the program's tree: {[_describe(f) for f in outside]}"
    files = sorted({support.relative(f.filename) for f in findings} | {support.relative(program)})
    results = [_lint(str(support.ROOT / name)) for name in files]

    listed = expectations.disagreements_in(files)
    unexplained: list[str] = []
    disagreed: set[tuple[str, int, str, str]] = set()
    for finding in findings:
        if finding.code is None:
            TALLY["unmapped"] += 1
            continue
        outcome = reconcile(results, [finding])
        if outcome.boundary:  # float() once outside every loop: not R104
            TALLY["boundary"] += 1
            continue
        TALLY["checked"] += 1
        if outcome.confirmed:
            TALLY["matched"] += 1
            continue
        key = (support.relative(finding.filename), finding.line, finding.check, finding.code)
        if key in listed:
            disagreed.add(key)
            TALLY["disagreements"] += 1
        else:
            unexplained.append(_describe(finding))
    stale = [f"{d.file}:{d.line} {d.check} ({d.code})" for key, d in listed.items() if key not in disagreed]
    assert not unexplained, (
        "Doctor found these at run time and cpn-lint reports nothing there (a static false negative, "
        f"or a reviewed disagreement to list in {support.EXPECTATIONS.name}):\n  " + "\n  ".join(unexplained))
    assert not stale, (
        f"stale entries in {support.EXPECTATIONS.name} (Doctor no longer reports them, or cpn-lint now "
        "does):\n  " + "\n  ".join(stale))


def test_every_listed_expectation_names_a_runnable_program(expectations: support.Expectations) -> None:
    runnable = {support.relative(p) for p in PROGRAMS}
    for disagreement in expectations.disagreements:
        assert (support.ROOT / disagreement.file).is_file(), f"{disagreement.file} does not exist"
    for stop in expectations.stops:
        assert stop.program in runnable, f"{stop.program} is listed as stopping but is not a runnable program"


@pytest.mark.parametrize("program", support.captured_programs(), ids=support.relative)
def test_captured_reports_are_what_doctor_writes_now(program: Path, oracle_venv: Path) -> None:
    """tests/data/doctor/*.json must stay real: rerunning the program under
    Doctor gives the same findings (files compared by name, as the report
    was captured in another checkout)."""
    run = support.cached_run(program, oracle_venv)
    captured = json.loads(program.with_suffix(".json").read_text())

    def comparable(entries: list[dict]) -> list[tuple]:
        return [(Path(e["filename"]).name, e["lineno"], e["description"], e["source"]) for e in entries]

    assert comparable(run.report) == comparable(captured), (
        f"{support.relative(program)} no longer gives the captured report; "
        "rerun 'python -m tests.oracle_support capture' and review the diff")
