"""Baselines: accept today's findings once, then report only new ones.

``cpn-lint baseline write -o FILE [PATH...]`` records every finding flake8
shows by default under the paths (default: the working folder) as a key
(:mod:`cpn_lint.fingerprint`: code, file, function and the line's text with
spacing normalised, so lines moving or code reformatted around a finding do
not make it new). ``flake8 --cpn-baseline FILE`` and ``cpn-lint check
--baseline FILE`` then leave those findings out; ``cpn-verdict --baseline
FILE`` still weighs them and counts them among the suppressed, unless
``--new-only`` leaves them out of its report and verdict too. Paths are recorded relative to the
baseline file's folder, so a baseline matches from any working folder.
Writing follows :mod:`cpn_lint.safe_write`: only a new file or an existing
baseline is replaced, atomically, and only once every input path exists.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Callable, Iterable, Sequence

from . import __version__
from .engine import LintOptions
from .findings import Finding
from .fingerprint import KEY_VERSION, finding_key, numbered
from .jobs import add_arguments as add_jobs_arguments
from .safe_write import BASELINE, WriteRefused, atomic_write, check_target

SCHEMA = "cpn-lint/baseline"
SCHEMA_VERSION = 1


class BaselineError(ValueError):
    """A baseline file that cannot be used (one-line reason)."""


def keyed(path: str, findings: Iterable[Finding], function_at: Callable[[int], str | None],
          line_text: Callable[[int], str]) -> list[tuple[Finding, str]]:
    """Each finding of one file with its numbered key, in file order."""
    ordered = sorted(findings, key=lambda f: (f.line, f.col, f.code))
    keys = [finding_key(f.code, path, function_at(f.line), line_text(f.line)) for f in ordered]
    return list(zip(ordered, numbered(keys)))


def load(path: str) -> frozenset[str]:
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise BaselineError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except ValueError:  # a NUL byte in the name
        raise BaselineError(f"{path!r}: cannot be read (no such file)") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BaselineError(f"{path}: not a cpn-lint baseline (not JSON: {exc})") from None
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        raise BaselineError(f"{path}: not a cpn-lint baseline (write one with 'cpn-lint baseline write')")
    if document.get("schema_version") != SCHEMA_VERSION or document.get("key") != KEY_VERSION:
        raise BaselineError(f"{path}: a baseline of another cpn-lint version; write it again")
    entries = document.get("findings")
    if not isinstance(entries, list) or not all(isinstance(e, dict) and isinstance(e.get("key"), str) for e in entries):
        raise BaselineError(f"{path}: malformed baseline (findings must be a list of objects with a key)")
    return frozenset(e["key"] for e in entries)


def document(entries: Sequence[dict[str, object]]) -> dict[str, object]:
    return {"schema": SCHEMA, "schema_version": SCHEMA_VERSION, "key": KEY_VERSION,
            "tool": {"name": "cpn-lint", "version": __version__}, "findings": list(entries)}


def key_path(path: str, folder: Path) -> str:
    """How a baseline names a file: relative to the baseline file's folder,
    so the baseline matches from whatever folder a command runs in."""
    if path in ("-", "stdin"):
        return path
    return Path(os.path.relpath(Path(path).resolve(), folder)).as_posix()


def folder_of(baseline_file: str) -> Path:
    return Path(baseline_file).resolve().parent


# ------------------------------------------------------------------ command
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cpn-lint baseline",
                                     description="Record today's findings, so that only new ones are reported.")
    sub = parser.add_subparsers(dest="action", required=True)
    write = sub.add_parser(
        "write", help="write a baseline of the findings under PATH...",
        description="Write a baseline of today's findings under PATH... to the file named by -o/--output "
                    "(or, the older form, by a first argument ending in .json). Only a new file or an existing "
                    "cpn-lint baseline is ever replaced, and only once every PATH exists and was read.")
    write.add_argument("-o", "--output", metavar="FILE", help="the baseline file to write (JSON)")
    write.add_argument("paths", nargs="*", metavar="PATH", help="files, folders or notebooks (default: .)")
    add_jobs_arguments(write)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        ns = build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse has printed its message
        return int(exc.code or 0)
    try:
        return write_baseline(ns.output, list(ns.paths), jobs=ns.jobs, no_cache=ns.no_cache)
    except (BaselineError, WriteRefused) as exc:
        print(f"cpn-lint baseline: {exc}", file=sys.stderr)
        return 2


def _output_and_paths(output: str | None, paths: list[str]) -> tuple[str, list[str]]:
    """The baseline file and the paths to lint. Without -o, a first argument
    is taken as the baseline only when it cannot be mistaken for an input:
    it ends in .json and is not an existing folder."""
    if output is not None:
        return output, paths
    if paths and paths[0].lower().endswith(".json") and not Path(paths[0]).is_dir():
        return paths[0], paths[1:]
    first = f" ({paths[0]!r} is not a .json file)" if paths else ""
    raise BaselineError(f"name the baseline file to write with -o/--output FILE{first}; nothing was written")


def write_baseline(output: str | None, paths: list[str], *, jobs: int | None = 1, no_cache: bool = False) -> int:
    from .cache import open_cache
    from .verdict.collect import assess_paths, discover_with_roots

    target_name, inputs = _output_and_paths(output, paths)
    target = check_target(target_name, BASELINE)  # before any work: a wrong target costs nothing
    found, errors = discover_with_roots(inputs or ["."])
    missing = [e for e in errors if e.endswith(": no such file or directory")]
    if missing:
        raise BaselineError(f"{missing[0]}; nothing was written")
    units = assess_paths([path for path, _ in found], LintOptions(), jobs=jobs, cache=open_cache(no_cache))
    folder = target.resolve().parent
    entries: list[dict[str, object]] = []
    unread: set[str] = set()
    for unit in units:
        if unit.errors or unit.result.error is not None:
            unread.add(key_path(unit.path, folder))
        errors += unit.errors
        shown = key_path(unit.path, folder)
        for finding, key in keyed(shown, unit.result.findings, unit.function_at, unit.raw_line):
            if finding.code != "CPN000":
                entries.append({"key": key, "code": finding.code, "path": shown, "line": finding.line,
                                "function": unit.function_at(finding.line)})
    for error in errors:
        print(f"cpn-lint baseline: {error}", file=sys.stderr)
    if units and len(unread) == len(units):
        raise BaselineError(f"none of the {len(units)} file(s) could be read; {target_name} was left as it is")
    carried = _carried_entries(target, unread)
    atomic_write(target, (json.dumps(document(entries + carried), indent=1) + "\n").encode("utf-8"))
    kept = f" (kept {len(carried)} entr{'y' if len(carried) == 1 else 'ies'} of unreadable files)" if carried else ""
    print(f"Wrote {len(entries)} finding(s) from {len(units) - len(unread)} file(s) to {target_name}{kept}.")
    return 2 if errors else 0


def _carried_entries(target: Path, unread: set[str]) -> list[dict[str, object]]:
    """The previous baseline's entries for files that could not be read this
    time: a file with a syntax error today keeps what was accepted for it."""
    if not unread or not target.exists():
        return []
    try:
        document = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return []
    entries = document.get("findings") if isinstance(document, dict) else None
    return [e for e in entries or [] if isinstance(e, dict) and e.get("path") in unread and isinstance(e.get("key"), str)]
