"""``cpn-lint fix [--select CODES] [--diff] PATH...``

Without ``--diff`` the files are rewritten in place and every fix is listed
on stdout, then every finding left with the reason it was left. With
``--diff`` a unified diff goes to stdout, the rest to stderr, and nothing is
written.

Exit status, as ``ruff check --fix`` / ``--diff``: 0 when nothing is left to
fix (or, with ``--diff``, nothing would change); 1 when findings are left
(with ``--diff``: when a fix would change a file); 2 for a usage error or
input that could not be read or parsed, which is reported once while every
other file is still fixed.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence, TextIO

from ..rules import load_rules
from ..safe_write import WriteRefused, atomic_write
from ..verdict.collect import discover
from .files import FileFix, fix_path
from .planner import default_codes


class UsageError(Exception):
    """A one-line reason; the command exits 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cpn-lint fix",
        description="Rewrite the findings the model proves safe to change; list the rest with the reason.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or notebooks to fix")
    parser.add_argument("--select", metavar="CODES",
                        help="comma-separated codes or prefixes to fix and report (default: the codes flake8 shows)")
    parser.add_argument("--diff", action="store_true", help="print a unified diff instead of writing the files")
    return parser


def selected_codes(select: str | None) -> frozenset[str]:
    rules = load_rules()
    if select is None:
        return default_codes()
    codes: set[str] = set()
    for raw in select.split(","):
        prefix = raw.strip().upper()
        if not prefix:
            continue
        matched = {c for c in rules if c.startswith(prefix) and c != "CPN000"}
        if not matched:
            raise UsageError(f"--select: no rule code starts with {raw.strip()!r}")
        codes |= matched
    if not codes:
        raise UsageError("--select names no codes")
    return frozenset(codes)


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    ns = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        codes = selected_codes(ns.select)
    except UsageError as exc:
        print(f"cpn-lint fix: {exc}", file=err)
        return 2
    files, problems = discover(ns.paths)
    for problem in problems:
        print(f"cpn-lint fix: {problem}", file=err)
    outcomes = [fix_path(path, codes, for_diff=ns.diff) for path in files]
    failed = bool(problems)
    for outcome in outcomes:
        if outcome.error:
            failed = True
            print(f"cpn-lint fix: {outcome.path}: {outcome.error}", file=err)
        elif not ns.diff and outcome.new_bytes is not None:
            failed |= not _write(outcome, err)
    if ns.diff:
        _report_diff(outcomes, out, err)
    else:
        _report_fixed(outcomes, out)
    if failed:
        return 2
    if ns.diff:
        return 1 if any(o.diff for o in outcomes) else 0
    return 1 if any(o.left for o in outcomes) else 0


def _write(outcome: FileFix, err: TextIO) -> bool:
    """Replace the file in one step, unless it changed since it was read."""
    try:
        atomic_write(outcome.path, outcome.new_bytes or b"", expect=outcome.old_bytes)
    except WriteRefused as exc:
        outcome.error = str(exc)
        outcome.applied = []
        print(f"cpn-lint fix: {outcome.error}", file=err)
        return False
    return True


def _report_fixed(outcomes: list[FileFix], out: TextIO) -> None:
    for outcome in outcomes:
        for line in outcome.applied:
            print(f"{line.citation}: {line.code} fixed: {line.text}", file=out)
    for outcome in outcomes:
        for line in outcome.left:
            print(f"{line.citation}: {line.code} left: {line.text}", file=out)
    fixed = sum(len(o.applied) for o in outcomes)
    changed = sum(1 for o in outcomes if o.applied)
    left = sum(len(o.left) for o in outcomes)
    print(f"Fixed {_count(fixed, 'finding')} in {_count(changed, 'file')}; {left} left.", file=out)


def _report_diff(outcomes: list[FileFix], out: TextIO, err: TextIO) -> None:
    for outcome in outcomes:
        if outcome.diff:
            out.write(outcome.diff)
    for outcome in outcomes:
        for line in outcome.left:
            print(f"{line.citation}: {line.code} left: {line.text}", file=err)
    fixable = sum(len(o.applied) for o in outcomes)
    changed = sum(1 for o in outcomes if o.diff)
    left = sum(len(o.left) for o in outcomes)
    print(f"Would fix {_count(fixable, 'finding')} in {_count(changed, 'file')}; {left} left.", file=err)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
