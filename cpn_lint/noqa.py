"""``cpn-lint noqa PATH...``: mark today's findings with ``# noqa: CODE`` so
that a project adopting cpn-lint starts from a clean run (the convention of
``ruff --add-noqa``); new findings are then reported as usual.

A comment goes where flake8 looks for it: on the reported line, or on the
last line of a multi-line string that holds it (a comment inside the string
would change the program). Codes merge into an existing ``# noqa: X``; a
line with a bare ``# noqa`` already hides everything and is left alone.
Only the files named (or found under the folders named) are rewritten, each
in its own encoding, line endings and permissions, in one step
(:mod:`cpn_lint.safe_write`); a file that does not parse, or that changes
on disk while it is being marked, is reported and left as it is.
"""

from __future__ import annotations

import argparse
import io
import re
import tokenize
import sys
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Sequence

from .cache import ResultCache, open_cache, register, transient
from .engine import FileResult, LintOptions, analyze_source, decode_source
from .findings import Finding
from .jobs import add_arguments as add_jobs_arguments
from .jobs import ordered_map, workers_for
from .registry import Default
from .rules import codes_with_prefixes, load_rules
from .safe_write import WriteRefused, atomic_write
from .verdict.suppress import NOQA, noqa_codes, noqa_ranges, noqa_text

register(FileResult, Finding)


@dataclass
class Outcome:
    path: str
    added: int = 0  # codes added
    lines: int = 0  # lines changed
    error: str | None = None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="cpn-lint noqa",
        description="Add '# noqa: CODE' comments for the findings flake8 shows today, so only new ones are reported.")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders (.py files; notebooks are not changed)")
    parser.add_argument("--select", metavar="CODES",
                        help="comma-separated codes or prefixes to mark (default: the codes flake8 shows by default)")
    add_jobs_arguments(parser)
    ns = parser.parse_args(argv)
    codes = selected_codes(ns.select)
    if not codes:
        parser.error(f"--select {ns.select!r} names no cpn-lint code")
    files, problems = _python_files(ns.paths)
    for problem in problems:
        print(f"cpn-lint noqa: {problem}", file=sys.stderr)
    outcomes = add_noqa_all(files, codes, jobs=ns.jobs, cache=open_cache(ns.no_cache))
    for outcome in outcomes:
        if outcome.error:
            print(f"cpn-lint noqa: {outcome.path}: {outcome.error}", file=sys.stderr)
        elif outcome.added:
            print(f"{outcome.path}: {outcome.added} finding(s) marked on {outcome.lines} line(s)")
    added = sum(o.added for o in outcomes)
    changed = sum(1 for o in outcomes if o.added)
    print(f"Added noqa for {added} finding(s) in {changed} file(s).")
    return 2 if problems or any(o.error for o in outcomes) else 0


def selected_codes(select: str | None) -> frozenset[str]:
    rules = load_rules()
    if select is None:
        return frozenset(code for code, rule in rules.items() if rule.default is Default.ON and code != "CPN000")
    return frozenset(codes_with_prefixes(select, exclude=frozenset({"CPN000"}))[0])


def _python_files(paths: Sequence[str]) -> tuple[list[Path], list[str]]:
    """The .py files under ``paths`` (found as every command finds them;
    notebooks are left alone), and the paths that could not be used."""
    from .verdict.collect import discover

    files, problems = discover(paths)
    return [Path(f) for f in files if not f.endswith(".ipynb")], problems


def add_noqa_all(files: Sequence[Path], codes: frozenset[str], *, jobs: int | None = 1,
                 cache: ResultCache | None = None) -> list[Outcome]:
    """:func:`add_noqa` for every file, in order: files whose findings are
    cached in process, the others in ``jobs`` worker processes (None: the cores)."""
    from .jobs import file_size

    outcomes: list[Outcome | None] = [None] * len(files)
    pending: list[int] = []
    sizes: list[int] = []
    for index, path in enumerate(files):
        if cache is not None and _cached_findings(path, codes, cache) is not None:
            outcomes[index] = add_noqa(path, codes, cache)  # no analysis left to do
        else:
            pending.append(index)
            sizes.append(file_size(path))
    task = partial(add_noqa, codes=codes, cache=cache)
    results = ordered_map(task, [files[i] for i in pending], workers_for(jobs, sizes), sizes)
    for position, outcome in enumerate(results):  # the workers' generator runs to its end
        outcomes[pending[position]] = outcome
    return [outcome for outcome in outcomes if outcome is not None]


_CACHE_KIND = "noqa-findings"


def _cached_findings(path: Path, codes: frozenset[str], cache: ResultCache) -> FileResult | None:
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    return _lookup(path, raw, codes, cache)[0]


def _lookup(path: Path, raw: bytes, codes: frozenset[str], cache: ResultCache | None) -> tuple[FileResult | None, str | None]:
    if cache is None:
        return None, None
    key = cache.key(_CACHE_KIND, str(path), raw, LintOptions(codes=codes))
    hit = cache.get(key, FileResult)
    return (hit if hit is not None and hit.filename == str(path) else None), key


def _analysis(path: Path, raw: bytes, codes: frozenset[str], cache: ResultCache | None) -> FileResult:
    """The file's findings for ``codes``, from the result cache when unchanged."""
    hit, key = _lookup(path, raw, codes, cache)
    if hit is not None:
        return hit
    result = analyze_source(raw, str(path), LintOptions(codes=codes))
    if cache is not None and key is not None and not transient(result.findings, [result.error]):
        cache.put(key, result)
    return result


def add_noqa(path: Path, codes: frozenset[str], cache: ResultCache | None = None) -> Outcome:
    outcome = Outcome(str(path))
    try:
        raw = path.read_bytes()
    except OSError as exc:
        outcome.error = f"cannot be read ({exc.strerror or exc})"
        return outcome
    result = _analysis(path, raw, codes, cache)
    if result.error is not None:
        outcome.error = result.error  # unreadable or unparsable: left as it is
        return outcome
    text, encoding = decode_source(raw), _encoding_of(raw)
    new_text, outcome.added, outcome.lines = marked(text, [(f.line, f.code) for f in result.findings if f.code in codes])
    if outcome.added:
        try:
            atomic_write(path, new_text.encode(encoding), expect=raw)
        except WriteRefused as exc:
            outcome.error, outcome.added, outcome.lines = str(exc).removeprefix(f"{path} "), 0, 0
    return outcome


def _encoding_of(raw: bytes) -> str:
    """The encoding Python reads ``raw`` in (a BOM is kept on writing)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError:
        return "utf-8"
    return encoding


def marked(text: str, findings: Sequence[tuple[int, str]]) -> tuple[str, int, int]:
    """``text`` with ``# noqa`` codes for ``findings`` ((line, code) pairs);
    and how many codes and lines it added."""
    lines = text.splitlines(keepends=True)
    ranges = noqa_ranges(lines)
    wanted: dict[int, set[str]] = {}
    for line, code in findings:
        present = noqa_codes(noqa_text(lines, line, ranges))
        if present is not None and (not present or code.startswith(present)):
            continue  # already hidden
        target = ranges.get(line, (line, line))[1]
        if 1 <= target <= len(lines):
            wanted.setdefault(target, set()).add(code)
    added = 0
    for target, new_codes in wanted.items():
        lines[target - 1] = _with_codes(lines[target - 1], new_codes)
        added += len(new_codes)
    return "".join(lines), added, len(wanted)


def _with_codes(line: str, codes: set[str]) -> str:
    body = line.rstrip("\r\n")
    ending = line[len(body):]
    match = NOQA.search(body)
    if match is not None and match.group("codes"):
        merged = sorted(set(re.split(r"[,\s]+", match.group("codes").upper())) - {""} | codes)
        return body[:match.start()] + "# noqa: " + ",".join(merged) + body[match.end():] + ending
    return body.rstrip() + "  # noqa: " + ",".join(sorted(codes)) + ending
