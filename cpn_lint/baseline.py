"""Baselines: accept today's findings once, then report only new ones.

``cpn-lint baseline write FILE [PATH...]`` records every finding flake8
shows by default under the paths (default: the working folder) as a key
(:mod:`cpn_lint.fingerprint`: code, file, function and the line's text with
spacing normalised, so lines moving or code reformatted around a finding do
not make it new). ``cpn-verdict --baseline FILE`` and ``flake8
--cpn-baseline FILE`` then leave those findings out; the verdict report
counts them among the suppressed. Paths are recorded relative to the
working folder: write and use the baseline from the same folder (the
repository root).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable, Iterable, Sequence

from . import __version__
from .engine import LintOptions
from .findings import Finding
from .fingerprint import KEY_VERSION, finding_key, numbered

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


# ------------------------------------------------------------------ command
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cpn-lint baseline",
                                     description="Record today's findings, so that only new ones are reported.")
    sub = parser.add_subparsers(dest="action", required=True)
    write = sub.add_parser("write", help="write a baseline of the findings under PATH...")
    write.add_argument("file", metavar="FILE", help="where to write the baseline (JSON)")
    write.add_argument("paths", nargs="*", metavar="PATH", help="files, folders or notebooks (default: .)")
    ns = parser.parse_args(argv)
    from .verdict.collect import assess_paths, discover_with_roots
    from .verdict.command import display_path

    found, errors = discover_with_roots(ns.paths or ["."])
    units = assess_paths([path for path, _ in found], LintOptions())
    roots = dict(found)
    cwd = Path.cwd().resolve()
    entries: list[dict[str, object]] = []
    for unit in units:
        errors += unit.errors
        shown = display_path(unit.path, roots.get(unit.path), cwd)
        for finding, key in keyed(shown, unit.result.findings, unit.function_at, unit.raw_line):
            if finding.code != "CPN000":
                entries.append({"key": key, "code": finding.code, "path": shown, "line": finding.line,
                                "function": unit.function_at(finding.line)})
    Path(ns.file).write_text(json.dumps(document(entries), indent=1) + "\n", encoding="utf-8")
    for error in errors:
        print(f"cpn-lint baseline: {error}", file=sys.stderr)
    print(f"Wrote {len(entries)} finding(s) from {len(units)} file(s) to {ns.file}.")
    return 2 if errors else 0
