"""``cpn-lint check [PATH...]``: lint as ``ruff check`` does, without flake8.

Every finding flake8 shows with the plugin (the same codes, the same one-line
headlines, ``# noqa`` and flake8's ignore settings honoured), one line each:
``path:line:col: CODE message``; a notebook's as Jupyter numbers it,
``path:cell N:line:col: ...``. A last line sums up. ``--format json`` and
``--format sarif`` write the documents of ``flake8 --format=cpn-json`` and
``--format=cpn-sarif`` instead (the summary then goes to stderr).

The files are found and analysed by :mod:`cpn_lint.verdict.collect`, as for
``cpn-verdict``; this module only selects, suppresses and prints.

Exit status: 0 when nothing is reported, 1 when something is, 2 for a usage
error or input that could not be read (the findings of the other files are
still printed).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence, TextIO

from .engine import LintOptions
from .findings import Finding
from .jobs import add_arguments as add_jobs_arguments
from .registry import Default
from .rules import codes_with_prefixes, load_rules

FORMATS = ("text", "json", "sarif")


class UsageError(Exception):
    """A one-line reason; the command exits 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cpn-lint check",
        description="Lint files, folders and notebooks with cpn-lint's codes and print one line per finding, "
                    "as flake8 shows them with the plugin.",
        epilog="Exit status: 0 when nothing is reported, 1 when something is, 2 for a usage error or input that "
               "could not be read. '# noqa' comments and flake8's ignore, extend-ignore, per-file-ignores, exclude "
               "and extend-exclude apply, as with flake8.")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files, folders or notebooks (default: .)")
    parser.add_argument("--select", metavar="CODES",
                        help="comma-separated codes or prefixes to report (default: the codes flake8 shows)")
    parser.add_argument("--ignore", metavar="CODES", help="comma-separated codes or prefixes not to report")
    parser.add_argument("--assessment", action="store_true",
                        help="also report the assessment codes (SCALES, INFO, CPN402, CPN403), as flake8's "
                             "--cpn-assessment does")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (default), json (as flake8 --format=cpn-json) or sarif (as --format=cpn-sarif)")
    parser.add_argument("--exclude", action="append", metavar="GLOB", help="do not read files matching GLOB")
    parser.add_argument("--baseline", metavar="FILE",
                        help="report only the findings this baseline does not list ('cpn-lint baseline write')")
    parser.add_argument("--isolated", action="store_true", help="read no flake8 configuration file")
    add_jobs_arguments(parser)
    return parser


def selected(select: str | None, ignore: str | None, assessment: bool) -> frozenset[str]:
    """The codes to report: flake8's default ones (and the assessment codes
    when asked), narrowed by ``--select`` and ``--ignore`` prefixes."""
    codes = {c for c, r in load_rules().items() if r.default is Default.ON or assessment}
    if select is not None:
        codes &= _matching(select, "--select")
    if ignore is not None:
        codes -= _matching(ignore, "--ignore")
    return frozenset(codes)


def _matching(text: str, option: str) -> set[str]:
    codes, unmatched = codes_with_prefixes(text)
    if unmatched:
        raise UsageError(f"{option}: no cpn-lint code starts with {unmatched[0]!r}")
    return codes


@dataclass(frozen=True)
class Shown:
    """One reported finding, with what each format needs."""

    path: str
    finding: Finding
    message: str  # the headline, a notebook's lines given as cells
    place: str  # "12:5" or "cell 3:4:5"
    line_text: str
    function: str | None
    ipynb_line: int | None  # a notebook finding's line in the .ipynb file


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    out, err = stdout or sys.stdout, stderr or sys.stderr
    try:
        ns = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:  # argparse has printed its message
        return int(exc.code or 0)
    try:
        return run(ns, out, err)
    except UsageError as exc:
        print(f"cpn-lint check: {exc}", file=err)
        return 2


def run(ns: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .cache import open_cache
    from .verdict.collect import assess_paths, discover_with_roots
    from .verdict.scope import plan_scope

    codes = selected(ns.select, ns.ignore, ns.assessment)
    settings = _settings(ns.isolated)
    found, errors = discover_with_roots(ns.paths or ["."])
    missing = [e for e in errors if e.endswith(": no such file or directory")]
    if missing:
        raise UsageError(missing[0])
    files, _ = plan_scope(found, [*settings.exclude, *(ns.exclude or [])], include_tests=True)
    options = LintOptions(assessment=ns.assessment, codes=codes)
    units = assess_paths(files, options, jobs=ns.jobs, cache=open_cache(ns.no_cache))
    accepted = _baseline(ns.baseline)
    shown: list[Shown] = []
    for unit in units:
        errors += unit.errors
        shown += _shown(unit, codes, settings, accepted)
    for error in errors:
        print(f"cpn-lint check: {error}", file=err)
    _print(ns.format, shown, [u.path for u in units if u.result.error is None], out, err)
    if errors:
        return 2
    return 1 if shown else 0


def _settings(isolated: bool):  # type: ignore[no-untyped-def]
    from .verdict.suppress import Flake8ConfigError, Flake8Settings, find_flake8_config, read_flake8_settings

    path = None if isolated else find_flake8_config(Path.cwd())
    if path is None:
        return Flake8Settings()
    try:
        return read_flake8_settings(path)
    except Flake8ConfigError as exc:
        raise UsageError(str(exc)) from None


def _baseline(path: str | None) -> tuple[Path, frozenset[str]] | None:
    if path is None:
        return None
    from .baseline import BaselineError, folder_of, load

    try:
        return folder_of(path), load(path)
    except BaselineError as exc:
        raise UsageError(str(exc)) from None


def _shown(unit, codes: frozenset[str], settings, accepted) -> list[Shown]:  # type: ignore[no-untyped-def]
    """The unit's findings flake8 would show: selected, not named by a
    ``# noqa`` or an ignore setting, not in the baseline."""
    from .verdict.report import cells_in_message
    from .verdict.suppress import split_findings

    findings = [f for f in unit.result.findings if f.code in codes or f.code == "CPN000"]
    kept, _ = split_findings(unit.path, findings, unit.source_lines, settings.ignored_for(unit.path))
    if accepted is not None:
        kept = new_findings(unit, kept, *accepted)
    shown = []
    for finding in sorted(kept, key=Finding.sort_key):
        cell = unit.cell_of(finding.line)
        place = f"cell {cell[0]}:{cell[1]}:{finding.col + 1}" if cell else f"{finding.line}:{finding.col + 1}"
        message = cells_in_message(unit, finding.short or finding.message)
        shown.append(Shown(unit.path, finding, message, place, unit.raw_line(finding.line),
                           unit.function_at(finding.line), _ipynb_line(unit.path, cell)))
    return shown


def new_findings(unit, findings: list[Finding], folder: Path, accepted: frozenset[str]) -> list[Finding]:  # type: ignore[no-untyped-def]
    """The findings of ``unit`` a baseline does not list (internal errors always)."""
    from .baseline import key_path, keyed

    named = key_path(unit.path, folder)
    return [f for f, key in keyed(named, findings, unit.function_at, unit.raw_line)
            if f.code == "CPN000" or key not in accepted]


def _ipynb_line(path: str, cell: tuple[int, int] | None) -> int | None:
    if cell is None:
        return None
    from .verdict.ipynb_lines import notebook_line

    return notebook_line(path, cell[0], cell[1])


def _print(fmt: str, shown: list[Shown], files: list[str], out: TextIO, err: TextIO) -> None:
    summary = summary_line(len(shown), len({s.path for s in shown}), len(files))
    if fmt == "json":
        out.write(_json(shown, files) + "\n")
        print(summary, file=err)
    elif fmt == "sarif":
        out.write(_sarif(shown) + "\n")
        print(summary, file=err)
    else:
        for item in shown:
            out.write(f"{item.path}:{item.place}: {item.finding.code} {item.message}\n")
        out.write(summary + "\n")


def summary_line(findings: int, with_findings: int, checked: int) -> str:
    files = f"{checked} file{'s' if checked != 1 else ''} checked"
    if not findings:
        return f"Found 0 findings ({files})."
    return (f"Found {findings} finding{'s' if findings != 1 else ''} in {with_findings} "
            f"file{'s' if with_findings != 1 else ''} ({files}).")


def _json(shown: list[Shown], files: list[str]) -> str:
    from .formatters import finding_entry, findings_json

    # a notebook's row is the line of its joined code cells, which `cpn-verdict --from-flake8` reads back
    entries = [finding_entry(item.finding.code, item.path, item.finding.line, item.finding.col + 1, item.message,
                             item.line_text, item.finding.in_loop, dict(item.finding.data)) for item in shown]
    return findings_json(files, entries)


@dataclass(frozen=True)
class _Violation:
    """What :func:`cpn_lint.flake8_sarif.sarif_log` reads of a finding."""

    code: str
    filename: str
    line_number: int
    column_number: int
    text: str
    physical_line: str
    function: str | None


def _sarif(shown: list[Shown]) -> str:
    import json

    from .flake8_sarif import sarif_log

    violations = []
    for item in shown:
        text = f"{item.place.rsplit(':', 1)[0]}: {item.message}" if item.ipynb_line else item.message
        violations.append(_Violation(item.finding.code, item.path, item.ipynb_line or item.finding.line,
                                     item.finding.col + 1, text, item.line_text, item.function))
    return json.dumps(sarif_log(violations), indent=2, ensure_ascii=False)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
