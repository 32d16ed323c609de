"""``cpn-lint fix [--select CODES] [--diff] PATH...``

Without ``--diff`` the files are rewritten in place and every fix is listed
on stdout, then every finding left with the reason it was left, then a
summary line. With ``--diff`` a unified diff goes to stdout, the findings
left and the summary line to stderr after it, and nothing is written.
``-q``/``--quiet`` prints nothing but the diff.

Exit status, as ``ruff check --fix`` / ``--diff``: 0 when nothing is left to
fix (or, with ``--diff``, nothing would change); 1 when findings are left
(with ``--diff``: when a fix would change a file); 2 for a usage error or
input that could not be read or parsed, which is reported once while every
other file is still fixed.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Callable, Sequence, TextIO

from ..cache import ResultCache, open_cache, register, transient
from ..engine import LintOptions
from ..jobs import add_arguments as add_jobs_arguments
from ..jobs import file_size, ordered_map, workers_for
from ..rules import codes_with_prefixes
from ..safe_write import WriteRefused, atomic_write
from ..verdict.collect import discover
from .files import FileFix, Line, fix_path
from .planner import default_codes

register(FileFix, Line)


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
    parser.add_argument("--diff", action="store_true", help="print a unified diff instead of writing the files; "
                        "the findings left and a summary follow it on stderr")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print nothing but the diff (no list of fixes or findings left, no summary)")
    add_jobs_arguments(parser)
    return parser


def selected_codes(select: str | None) -> frozenset[str]:
    if select is None:
        return default_codes()
    codes, unmatched = codes_with_prefixes(select, exclude=frozenset({"CPN000"}))
    if unmatched:
        raise UsageError(f"--select: no rule code starts with {unmatched[0]!r}")
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
    outcomes = fix_paths(files, codes, ns.diff, jobs=ns.jobs, cache=open_cache(ns.no_cache))
    failed = bool(problems)
    for outcome in outcomes:
        if outcome.error:
            failed = True
            print(f"cpn-lint fix: {outcome.path}: {outcome.error}", file=err)
        elif not ns.diff and outcome.new_bytes is not None:
            failed |= not _write(outcome, err)
    if ns.diff:
        _report_diff(outcomes, out, None if ns.quiet else err)
    elif not ns.quiet:
        _report_fixed(outcomes, out)
    if failed:
        return 2
    if ns.diff:
        return 1 if any(o.diff for o in outcomes) else 0
    return 1 if any(o.left for o in outcomes) else 0


def fix_paths(files: Sequence[str], codes: frozenset[str], for_diff: bool, *, jobs: int | None = 1,
              cache: ResultCache | None = None) -> list[FileFix]:
    """Every file fixed in memory, in order: unchanged files from the result
    cache, the others in ``jobs`` worker processes (None: the cores)."""
    outcomes: list[FileFix | None] = [None] * len(files)
    pending: list[int] = []
    sizes: list[int] = []
    for index, path in enumerate(files):
        hit, size = _cached(path, codes, for_diff, cache)
        if hit is None:
            pending.append(index)
            sizes.append(size)
        outcomes[index] = hit
    task = partial(fix_file, codes=codes, for_diff=for_diff, cache=cache)
    results = ordered_map(task, [files[i] for i in pending], workers_for(jobs, sizes), sizes)
    for position, outcome in enumerate(results):  # the workers' generator runs to its end
        outcomes[pending[position]] = outcome
    return [outcome for outcome in outcomes if outcome is not None]


def fix_file(path: str, codes: frozenset[str], for_diff: bool, cache: ResultCache | None = None) -> FileFix:
    """:func:`~cpn_lint.fix.files.fix_path`, through the result cache."""
    raw, key = _key(path, codes, for_diff, cache)
    hit = _hit(path, raw, key, cache)
    if hit is not None:
        return hit
    outcome = fix_path(path, codes, for_diff=for_diff)
    # only what was computed from the very bytes of the key, and what a later
    # run can use (a file rewritten now will not hold these bytes again)
    if cache is not None and key is not None and outcome.old_bytes == raw and (for_diff or outcome.new_bytes is None) \
            and not transient(errors=[outcome.error, *(line.text for line in outcome.left)]):
        cache.put(key, replace(outcome, old_bytes=None))
    return outcome


_CACHE_KIND = "fix-outcome"


def _key(path: str, codes: frozenset[str], for_diff: bool, cache: ResultCache | None) -> tuple[bytes | None, str | None]:
    if cache is None:
        return None, None
    try:
        raw = Path(path).read_bytes()
    except OSError:
        return None, None
    # the fix lints with the default manifest; its identity is part of the options
    return raw, cache.key(_CACHE_KIND, path, raw, LintOptions(codes=codes), {"diff": for_diff})


def _hit(path: str, raw: bytes | None, key: str | None, cache: ResultCache | None) -> FileFix | None:
    if cache is None or key is None:
        return None
    hit = cache.get(key, FileFix)
    if hit is None or hit.path != path or hit.old_bytes is not None:
        return None
    return replace(hit, old_bytes=raw)


def _cached(path: str, codes: frozenset[str], for_diff: bool, cache: ResultCache | None) -> tuple[FileFix | None, int]:
    if cache is None:
        return None, file_size(path)
    raw, key = _key(path, codes, for_diff, cache)
    return _hit(path, raw, key, cache), len(raw or b"")


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
    _report_left(outcomes, out)
    print(summary_line(outcomes, "Fixed", lambda o: bool(o.applied)), file=out)


def _report_diff(outcomes: list[FileFix], out: TextIO, err: TextIO | None) -> None:
    for outcome in outcomes:
        if outcome.diff:
            out.write(outcome.diff)
    if err is None:  # --quiet
        return
    out.flush()  # the summary comes after the diff on a terminal too
    _report_left(outcomes, err)
    print(summary_line(outcomes, "Would fix", lambda o: bool(o.diff)), file=err)


def _report_left(outcomes: list[FileFix], out: TextIO) -> None:
    for outcome in outcomes:
        for line in outcome.left:
            print(f"{line.citation}: {line.code} left: {line.text}", file=out)


def summary_line(outcomes: list[FileFix], verb: str, changed: Callable[[FileFix], bool]) -> str:
    """``Would fix 3 findings in 2 files; 4 left (CPN201 ×3, CPN104; reasons above).``"""
    fixes = sum(len(o.applied) for o in outcomes)
    files = sum(1 for o in outcomes if changed(o))
    left = Counter(line.code for o in outcomes for line in o.left)
    codes = ", ".join(f"{code} ×{n}" if n > 1 else code for code, n in sorted(left.items()))
    why = f" ({codes}; reasons above)" if left else ""
    return f"{verb} {_count(fixes, 'finding')} in {_count(files, 'file')}; {sum(left.values())} left{why}."


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
