"""The runtime as judge, at scale (issue 31, item 2).

Runs every program of a folder under the oracle (cuPyNumeric 26.6.1 on this
machine's CPUs, Doctor on), lints the same file with cpn-lint's default
codes, and reports how many of Doctor's in-scope diagnostics a static
finding predicts, per Doctor check, and which programs stop with a Python
traceback and whether a breaking finding (CPN401, CPN404, CPN106, CPN107) names the failing line::

    python -m benchmarks.doctor_trial FOLDER [--json OUT] [--timeout SECONDS] [--jobs 1]
    python -m benchmarks.doctor_trial FOLDER --rescore RESULTS.json [--json OUT]   # no runs: today's findings

A program is every ``*.py`` at any depth that parses; notebooks are not run
in this first version (the summary says how many were left out). Each
program runs with its folder as working directory, matplotlib on its Agg
backend and no standard input. A program that reaches the time limit is
stopped with an exception where it is (so Doctor, which writes at exit,
still reports what it saw; a hard kill follows 30 s later); one that times
out or asks for input did not finish, and its Doctor findings still count.

Matching is :func:`cpn_lint.doctor.reconcile`'s: the same line, the loop a
loop finding covers, a folded finding through its root. A check is in scope
when it has a CPN code; a float()/int()/bool() outside every loop is set
aside, as reconcile does (SPEC section 4 exempts it from CPN104).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import sys
import tempfile
from collections import Counter
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Iterator, Sequence

from cpn_lint import oracle
from cpn_lint.doctor import DOCTOR_CHECKS, UNRECOGNIZED, DoctorFinding, codes_of, load_doctor_report, reconcile
from cpn_lint.engine import FileResult, LintOptions, analyze_source
from cpn_lint.verdict.breaks import BREAKING_CODES

from .results_file import write_results

DEFAULT_TIMEOUT = 120.0
# Exceptions that mean the program waited for something the run cannot give
# (input() reads an empty stdin): it did not finish, it did not fail.
NEEDS_INPUT = frozenset({"EOFError"})
_MISSING_MODULE = re.compile(r"No module named '(?P<name>[^']+)'")
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)')

# How a run ended; "failed" alone counts as a runtime failure.
FINISHED, FAILED, TIMED_OUT, NEEDS_STDIN, EXITED, CRASHED, ORACLE_ERROR = (
    "finished", "failed", "timed out", "needs input", "exited non-zero", "crashed", "oracle error")
DID_NOT_FINISH = (TIMED_OUT, NEEDS_STDIN)


@dataclass
class Diagnostic:
    """One Doctor finding located in the program, and what predicts it."""

    check: str
    code: str | None
    line: int
    source: str
    description: str
    in_scope: bool
    set_aside: bool = False  # a conversion outside every loop (reconcile's boundary)
    predicted_by: list[str] = field(default_factory=list)  # "CPN101:40" of each static finding

    @property
    def predicted(self) -> bool:
        return bool(self.predicted_by)


@dataclass
class Failure:
    """Where and how a program stopped with a traceback."""

    exception: str
    message: str
    line: int | None  # the last traceback frame in the program file
    named: bool
    finding: str = ""  # the breaking finding on that line
    # Not cuPyNumeric's (see is_environment): a module this environment lacks
    # (not numpy's), a data file the program expects beside it, a name the
    # program never defines, or a failure Doctor itself causes.
    environment: bool = False


@dataclass
class ProgramReport:
    program: str  # relative to the trial folder
    status: str
    seconds: float = 0.0
    returncode: int | None = None
    static: dict[str, int] = field(default_factory=dict)  # code -> findings
    diagnostics: list[Diagnostic] = field(default_factory=list)
    elsewhere: int = 0  # Doctor findings in other files of the folder (sibling modules)
    failure: Failure | None = None
    note: str = ""  # an oracle error, or a problem reading Doctor's report


# -- finding the programs --------------------------------------------------------


def discover(folder: Path) -> tuple[list[Path], list[str], list[str]]:
    """(programs that parse, files that do not, notebooks left out), sorted."""
    programs, unparsable = [], []
    for path in sorted(folder.rglob("*.py")):
        if _parses(path):
            programs.append(path)
        else:
            unparsable.append(_relative(path, folder))
    notebooks = [_relative(p, folder) for p in sorted(folder.rglob("*.ipynb"))]
    return programs, unparsable, notebooks


def _parses(path: Path) -> bool:
    try:
        ast.parse(path.read_bytes(), str(path))
    except (SyntaxError, ValueError, RecursionError, MemoryError, OSError):
        return False
    return True


def _relative(path: Path, folder: Path) -> str:
    try:
        return path.relative_to(folder).as_posix()
    except ValueError:
        return str(path)


# -- one program -------------------------------------------------------------------


def lint(path: Path) -> FileResult:
    """The default codes, with the model kept for reconcile's loop spans."""
    return analyze_source(path.read_bytes(), str(path), LintOptions(), keep_model=True)


@contextmanager
def _agg_backend() -> Iterator[None]:
    """The oracle's child inherits this process's environment: force Agg
    there (the bootstrap only sets a default), and put back what was set."""
    before = os.environ.get("MPLBACKEND")
    os.environ["MPLBACKEND"] = "Agg"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("MPLBACKEND", None)
        else:
            os.environ["MPLBACKEND"] = before


# Runs in the oracle's child in place of the program: Doctor writes its report
# when the interpreter exits, so a program the oracle kills at its timeout
# leaves none. At the time limit this raises TimeLimit (a SystemExit) where
# the program is, the interpreter exits normally and Doctor writes what it
# saw; the oracle's own timeout, GRACE seconds later, is the backstop.
_LIMITED = """\
import os, runpy, signal, sys
program, limit = sys.argv[1], float(sys.argv[2])
class TimeLimit(SystemExit):
    pass
def _stop(signum, frame):
    raise TimeLimit(f"cpn-lint doctor_trial: stopped at the {limit:.0f} s time limit")
os.chdir(os.path.dirname(program))
sys.path.insert(0, os.path.dirname(program))
sys.argv = [program]
signal.signal(signal.SIGALRM, _stop)
signal.setitimer(signal.ITIMER_REAL, limit)
runpy.run_path(program, run_name="__main__")
"""
TIME_LIMIT = "TimeLimit"
GRACE = 30.0


def run(path: Path, timeout: float, venv: Path | None = None) -> oracle.OracleRun:
    with _agg_backend(), tempfile.TemporaryDirectory(prefix="cpn-doctor-trial-") as scratch:
        wrapper = Path(scratch) / "time_limit.py"
        wrapper.write_text(_LIMITED, encoding="utf-8")
        return oracle.run_program(wrapper, venv=venv, args=[str(path.resolve()), str(timeout)],
                                  timeout=timeout + GRACE)


def assess(path: Path, folder: Path, outcome: oracle.OracleRun, result: FileResult | None = None) -> ProgramReport:
    """Judge one finished (or stopped) run against the static findings."""
    result = result or lint(path)
    report = ProgramReport(_relative(path, folder), status_of(outcome), round(outcome.seconds, 1), outcome.returncode,
                           dict(sorted(Counter(f.code for f in result.findings).items())))
    try:
        doctor = load_doctor_report(json.dumps(outcome.report), origin=report.program)
    except ValueError as exc:  # an entry Doctor cut short is not worth losing the program for
        report.note = str(exc)
        doctor = []
    mine = [d for d in doctor if _same_file(d.filename, path)]
    report.elsewhere = len(doctor) - len(mine)
    report.diagnostics = diagnostics(result, mine)
    if report.status == FAILED:
        report.failure = failure_of(outcome, path, result)
    elif report.status in (EXITED, CRASHED) and not report.note:
        report.note = (outcome.stderr_tail.strip().splitlines() or [""])[-1][:200]  # the only clue there is
    return report


def status_of(outcome: oracle.OracleRun) -> str:
    if outcome.timed_out or (outcome.stop or {}).get("error") == TIME_LIMIT:
        return TIMED_OUT
    if outcome.returncode == 0:
        return FINISHED
    error = (outcome.stop or {}).get("error")
    if error in NEEDS_INPUT:
        return NEEDS_STDIN
    if error == "SystemExit":
        return EXITED  # the program chose its exit status; no traceback
    if error:
        return FAILED
    # No stop record: killed by a signal, or Legate stopped the process itself.
    return CRASHED if outcome.returncode < 0 else EXITED


def _same_file(filename: str, path: Path) -> bool:
    try:
        return Path(filename).resolve() == path.resolve()
    except (OSError, ValueError):
        return False


def diagnostics(result: FileResult, doctor: Sequence[DoctorFinding]) -> list[Diagnostic]:
    """Each Doctor finding of the program with the static findings that
    predict it, by reconcile's rules."""
    matched = reconcile([result], doctor)
    predicted: dict[tuple, list[str]] = {}
    for _, static, evidence in matched.confirmed:
        for finding in evidence:
            predicted.setdefault(_key(finding), []).append(f"{static.code}:{static.line}")
    boundary = {_key(d) for d in [*matched.boundary, *matched.per_step_accesses]}
    out = []
    for finding in doctor:
        key = _key(finding)
        out.append(Diagnostic(finding.check, finding.code, finding.line, finding.source, finding.description,
                              in_scope=_in_scope(finding.check), set_aside=key in boundary,
                              predicted_by=sorted(set(predicted.get(key, [])))))
    return out


def _key(finding: DoctorFinding) -> tuple:
    """Reconcile cites findings under the linted file's name: compare without it."""
    return (finding.line, finding.check, finding.code, finding.description, finding.source)


def _in_scope(check: str) -> bool:
    known = DOCTOR_CHECKS.get(check)
    return bool(known and known.codes)


def failure_of(outcome: oracle.OracleRun, path: Path, result: FileResult) -> Failure:
    stop = outcome.stop or {}
    line = failing_line(outcome, path)
    error, message = str(stop.get("error") or "?"), str(stop.get("message") or "")
    return _named(Failure(error, message[:200], line, False, environment=is_environment(error, message)), result)


def _named(failure: Failure, result: FileResult) -> Failure:
    """``failure`` with the breaking finding (CPN401, CPN404, CPN106, CPN107) that covers its line, if any."""
    line = failure.line
    namer = next((f for f in result.findings if f.code in BREAKING_CODES and line is not None
                  and f.line <= line <= (f.end_line or f.line)), None)
    return replace(failure, named=namer is not None,
                   finding=f"{namer.code}:{namer.line} {namer.short or namer.message}"[:160] if namer else "")


# Failures Doctor's own checks cause (the same line runs without Doctor:
# tests/test_oracle_doctor_artefacts.py): the instrument's, not the program's.
_DOCTOR_ARTEFACTS = ("'_MGridClass' object has no attribute 'ndim'",)


def is_environment(error: str, message: str) -> bool:
    """A missing third-party or sibling module, a missing data file, a name
    the program never defines, or a failure Doctor itself causes: the run
    says nothing about cuPyNumeric. A missing ``cupynumeric.x`` (the
    program's ``numpy.x``) is cuPyNumeric's."""
    if error in ("FileNotFoundError", "NameError") or any(artefact in message for artefact in _DOCTOR_ARTEFACTS):
        return True  # NameError: the program's own bug (a name NumPy lacks is an AttributeError)
    missing = _MISSING_MODULE.search(message)
    return error == "ModuleNotFoundError" and bool(missing) and missing["name"].split(".")[0] not in (
        "numpy", "cupynumeric")


def failing_line(outcome: oracle.OracleRun, path: Path) -> int | None:
    """The last traceback frame in the program file: the oracle's stop record
    when it is there (the innermost frame outside the installation), else the
    last such frame of the traceback's tail (the stop can be in a sibling module)."""
    stop = outcome.stop or {}
    if stop.get("filename") and stop.get("line") and _same_file(stop["filename"], path):
        return int(stop["line"])
    frames = [int(m["line"]) for m in map(_FRAME.match, outcome.stderr_tail.splitlines())
              if m and _same_file(m["file"], path)]
    return frames[-1] if frames else None


def oracle_error(path: Path, folder: Path, message: str) -> ProgramReport:
    return ProgramReport(_relative(path, folder), ORACLE_ERROR, note=message)


# -- the whole folder --------------------------------------------------------------


def trial(folder: Path, timeout: float = DEFAULT_TIMEOUT, venv: Path | None = None,
          progress: bool = True) -> dict:
    """Run, lint and judge every program of ``folder``, one at a time."""
    folder = folder.resolve()
    programs, unparsable, notebooks = discover(folder)
    # Lint everything before the long runs: one consistent static pass, and a
    # broken checkout fails in seconds rather than an hour in.
    static = [lint(path) for path in programs]
    reports = []
    for index, (path, result) in enumerate(zip(programs, static), start=1):
        try:
            report = assess(path, folder, run(path, timeout, venv), result)
        except oracle.OracleError as exc:
            report = oracle_error(path, folder, str(exc))
        reports.append(report)
        if progress:
            print(f"[{index}/{len(programs)}] {report.program}: {report.status} in {report.seconds:.0f} s, "
                  f"{len(report.diagnostics)} Doctor finding(s)", file=sys.stderr, flush=True)
    return summarise(folder, timeout, reports, unparsable, notebooks)


def rescore(stored: dict, folder: Path) -> dict:
    """The stored runs of an earlier trial judged against today's static
    findings: Doctor's diagnostics and each failure's line are what the
    runtime said then (the programs are not run again), the findings are
    what cpn-lint says now. ``folder`` holds the programs under the
    relative names the results give them."""
    reports = []
    for detail in stored["details"]:
        path = folder / detail["program"]
        result = lint(path)
        # Doctor's own words are what was stored; their codes are read again
        # (an entry stored once per code it stood for is one diagnostic).
        said = dict.fromkeys((d["line"], d["check"], d["description"], d["source"]) for d in detail["diagnostics"])
        doctor = [DoctorFinding(str(path), line, check, description, source, code)
                  for line, check, description, source in said
                  for code in codes_of(check, description, source)]
        report = ProgramReport(detail["program"], detail["status"], detail["seconds"], detail["returncode"],
                               dict(sorted(Counter(f.code for f in result.findings).items())),
                               diagnostics(result, doctor), detail.get("elsewhere", 0), note=detail.get("note", ""))
        if detail.get("failure"):
            failure = Failure(**detail["failure"])  # environment read again: the list of causes grows
            failure = replace(failure, environment=is_environment(failure.exception, failure.message))
            report.failure = _named(failure, result)
        reports.append(report)
    return summarise(folder, stored["timeout"], reports, stored.get("not_parsed", []), stored.get("notebooks_left_out", []))


def summarise(folder: Path, timeout: float, reports: list[ProgramReport], unparsable: list[str],
              notebooks: list[str]) -> dict:
    return {
        "folder": str(folder),
        "cupynumeric": oracle.CUPYNUMERIC_VERSION,
        "timeout": timeout,
        "programs": len(reports),
        "status": dict(Counter(r.status for r in reports)),
        "not_parsed": unparsable,
        "notebooks_left_out": notebooks,
        "checks": check_table(reports),
        "failures": [dict(program=r.program, **asdict(r.failure)) for r in reports if r.failure],
        "misses": misses(reports),
        "details": [asdict(r) for r in reports],
    }


def check_table(reports: list[ProgramReport]) -> dict[str, dict[str, int]]:
    """Per Doctor check: diagnostics, in scope, set aside, predicted."""
    table = {name: dict(diagnostics=0, in_scope=0, set_aside=0, predicted=0) for name in (*DOCTOR_CHECKS, UNRECOGNIZED)}
    for report in reports:
        for d in report.diagnostics:
            row = table.setdefault(d.check, dict(diagnostics=0, in_scope=0, set_aside=0, predicted=0))
            row["diagnostics"] += 1
            if d.in_scope and d.set_aside:
                row["set_aside"] += 1
            elif d.in_scope:
                row["in_scope"] += 1
                row["predicted"] += d.predicted
    return table


def misses(reports: list[ProgramReport]) -> list[dict]:
    """Unpredicted in-scope diagnostics grouped by (check, code), with an example each."""
    groups: dict[tuple[str, str], list[tuple[str, Diagnostic]]] = {}
    for report in reports:
        for d in report.diagnostics:
            if d.in_scope and not d.set_aside and not d.predicted:
                groups.setdefault((d.check, d.code or ""), []).append((report.program, d))
    out = []
    for (check, code), items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        program, first = items[0]
        out.append(dict(check=check, code=code, count=len(items), programs=len({p for p, _ in items}),
                        example=f"{program}:{first.line}", source=first.source[:100],
                        description=first.description[:160]))
    return out


# -- the markdown summary ------------------------------------------------------------


def markdown(summary: dict) -> str:
    return "\n\n".join([_header(summary), _checks_markdown(summary["checks"]),
                        _failures_markdown(summary["failures"]), _misses_markdown(summary["misses"])]) + "\n"


def _header(summary: dict) -> str:
    status = ", ".join(f"{n} {s}" for s, n in sorted(summary["status"].items()))
    notebooks = len(summary["notebooks_left_out"])
    return (f"{summary['programs']} programs run under cuPyNumeric {summary['cupynumeric']} with Doctor "
            f"(timeout {summary['timeout']:.0f} s): {status or 'none'}.\n"
            f"{len(summary['not_parsed'])} .py file(s) did not parse and were skipped; "
            f"{notebooks} notebook(s) left out (notebooks are not run in this version).")


def _ratio(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "—"


def _checks_markdown(checks: dict[str, dict[str, int]]) -> str:
    rows = ["| Doctor check | CPN codes | diagnostics | in scope | predicted | ratio | set aside |",
            "|---|---|---:|---:|---:|---:|---:|"]
    total = Counter()
    for name, row in checks.items():
        known = DOCTOR_CHECKS.get(name)
        codes = ", ".join(known.codes) if known and known.codes else "— (out of scope)"
        if not row["diagnostics"] and not known:
            continue  # no unrecognised findings: no row
        rows.append(f"| {name} | {codes} | {row['diagnostics']} | {row['in_scope']} | {row['predicted']} | "
                    f"{_ratio(row['predicted'], row['in_scope'])} | {row['set_aside']} |")
        total.update(row)
    rows.append(f"| **all** | | {total['diagnostics']} | {total['in_scope']} | {total['predicted']} | "
                f"{_ratio(total['predicted'], total['in_scope'])} | {total['set_aside']} |")
    return "\n".join(rows)


def _failures_markdown(failures: list[dict]) -> str:
    named = sum(f["named"] for f in failures)
    runtime = [f for f in failures if not f["environment"]]
    rows = [f"Runtime failures (non-zero exit with a traceback): {len(failures)}, named by a breaking finding: {named}; "
            f"{len(failures) - len(runtime)} of them the environment's (a missing module or data file, a name the program never defines, a Doctor artefact), "
            f"of the other {len(runtime)} named: {sum(f['named'] for f in runtime)}.",
            "", "| program | exception | line | named | environment | finding |", "|---|---|---:|---|---|---|"]
    for f in failures:
        finding = f["finding"].replace("|", "\\|")
        rows.append(f"| {f['program']} | {f['exception']} | {f['line'] or '?'} | {'yes' if f['named'] else 'no'} | "
                    f"{'yes' if f['environment'] else ''} | {finding} |")
    return "\n".join(rows)


def _misses_markdown(groups: list[dict]) -> str:
    rows = ["Unpredicted in-scope diagnostics, by check and code:", "",
            "| check | code | count | programs | example | Doctor's description |", "|---|---|---:|---:|---|---|"]
    for g in groups:
        description = g["description"].replace("|", "\\|")
        rows.append(f"| {g['check']} | {g['code']} | {g['count']} | {g['programs']} | {g['example']} | {description} |")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.doctor_trial", description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="folder of programs (every *.py at any depth)")
    parser.add_argument("--json", type=Path, help="write every program's details here")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per program (default 120)")
    parser.add_argument("--jobs", type=int, default=1, help="programs at a time (only 1 in this version)")
    parser.add_argument("--venv", type=Path, default=None, help="the oracle environment (default: the oracle's)")
    parser.add_argument("--rescore", type=Path, metavar="RESULTS",
                        help="judge the runs stored in an earlier --json file against today's findings, "
                             "without running the programs again")
    ns = parser.parse_args(argv)
    if ns.jobs != 1:
        parser.error("--jobs: only 1 is supported (programs run one at a time)")
    if not ns.folder.is_dir():
        parser.error(f"{ns.folder}: not a folder")
    if ns.rescore:
        summary = rescore(json.loads(ns.rescore.read_text()), ns.folder.resolve())
        sys.stdout.write(markdown(summary))
        if ns.json:
            write_results(ns.json, json.dumps(summary, indent=1) + "\n")
        return 0
    venv = (ns.venv or oracle.default_venv()).absolute()
    if not oracle.venv_python(venv).exists():
        print(f"cpn-lint oracle: no oracle environment at {venv}; run 'python -m cpn_lint.oracle setup'", file=sys.stderr)
        return 2
    summary = trial(ns.folder, ns.timeout, venv)
    sys.stdout.write(markdown(summary))
    if ns.json:
        write_results(ns.json, json.dumps(summary, indent=1) + "\n")
    return 2 if summary["status"].get(ORACLE_ERROR) == summary["programs"] and summary["programs"] else 0


if __name__ == "__main__":
    sys.exit(main())
