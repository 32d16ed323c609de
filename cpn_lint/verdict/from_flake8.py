"""``cpn-verdict --from-flake8 FILE|-``: assess an existing flake8 run.

Two inputs are understood:

* flake8's default text format, ``path:line:col: CODE message`` per line
  (``--show-source`` blocks, ``--count`` totals and ``--statistics`` lines are
  recognised and passed over);
* the plugin's own document, ``flake8 --format=cpn-json`` (see
  :mod:`cpn_lint.formatters`), which also lists the files that had no finding
  and carries each finding's loop context and facts.

The verdict needs two facts of API and out-of-scope findings (CPN40x, CPN410):
whether the call sits in a loop, and the API or workload kind. Where the input
does not carry them they are read back from the message through the rule's
own message template (its ``where`` field says "inside the loop at line N").

When the files the input names are still here, :func:`join_analysis`
replaces each with a fresh analysis (``cpn-verdict`` then reports what a
direct run reports); the facts above matter for the files that are not.

Nothing is dropped silently: a line that is neither raises
:class:`Flake8InputError` naming it; codes of other plugins are counted and
reported; flake8's own E902 (file not readable) and E999 (does not parse)
become input errors for the file, because cpn-lint's checks did not run there.
"""

from __future__ import annotations

import json
import os
import re
import string
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import FileResult
from ..findings import Finding
from ..formatters import SCHEMA, SCHEMA_VERSION
from ..registry import Category
from ..rules import load_rules
from .collect import Unit

_FINDING = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z][A-Z0-9]*\d) ?(?P<text>.*)$")
_COUNT = re.compile(r"^\d+$")
_STATISTIC = re.compile(r"^\d+\s+[A-Z][A-Z0-9]*\d\s")
_CARET = re.compile(r"^\s*\^\s*$")
_FACT_CATEGORIES = (Category.API, Category.SCOPE)
FLAKE8_INPUT_ERRORS = {"E902": "flake8 could not read it", "E999": "flake8 could not parse it"}


# Template fields whose text the verdict needs back, from a message alone.
_FACT_FIELDS = ("api", "kind")


def _template_regex(template: str) -> re.Pattern[str]:
    """A rule's message template as a regex with one group per field."""
    parts: list[str] = []
    seen: set[str] = set()
    for literal, name, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name is not None:
            if name.isidentifier() and name not in seen:
                seen.add(name)
                parts.append(f"(?P<{name}>.*?)")
            else:
                parts.append(".*?")
    return re.compile("".join(parts) + r"\Z", re.S)


def facts_from_message(rule: Any, message: str) -> tuple[bool, dict[str, Any]] | None:
    """(in_loop, data) read back from a message made from ``rule.message``;
    None when the message does not fit the template (another version).

    In-loop is known from a ``where`` field (", inside the loop at line 12")."""
    template = getattr(rule, "message", None)
    if not isinstance(template, str):
        return None
    match = _template_regex(template).match(message)
    if match is None:
        return None
    fields = match.groupdict()
    data = {k: fields[k] for k in _FACT_FIELDS if fields.get(k)}
    in_loop = bool(fields.get("where"))
    return in_loop, data


class Flake8InputError(ValueError):
    """Input that is not flake8 output; the message names the line."""


@dataclass
class Flake8Input:
    units: list[Unit]
    errors: list[str] = field(default_factory=list)  # files flake8 could not check
    other_codes: Counter[str] = field(default_factory=Counter)  # other plugins' codes
    unknown_codes: Counter[str] = field(default_factory=Counter)  # CPN codes this version lacks
    format: str = "text"
    complete_file_list: bool = False  # the input lists clean files too (cpn-json)
    loop_context: bool = False  # every API/SCOPE finding's loop context is known


def read_flake8_output(text: str, origin: str = "flake8 output") -> Flake8Input:
    if text.lstrip().startswith("{"):
        return _read_cpn_json(text, origin)
    return _read_text(text, origin)


# ----------------------------------------------------------------------- text
def _read_text(text: str, origin: str) -> Flake8Input:
    known = load_rules()
    by_file: dict[str, list[Finding]] = {}
    parsed = Flake8Input(units=[])
    lines = text.splitlines()
    unknown_context = 0  # API/SCOPE findings whose message did not give their loop context back
    source_lines: set[int] = set()  # --show-source: the line before a caret line
    for i, line in enumerate(lines):
        if _CARET.match(line) and i > 0:
            source_lines.add(i - 1)
    for i, raw in enumerate(lines):
        line = raw.rstrip("\r")
        if not line.strip() or i in source_lines or _CARET.match(line):
            continue
        match = _FINDING.match(line)
        if match is None:
            if _COUNT.match(line.strip()) or _STATISTIC.match(line):
                continue
            raise Flake8InputError(
                f"{origin}, line {i + 1}: not a flake8 finding (expected 'path:line:col: CODE message'): "
                f"{_snippet(line)}"
            )
        path, code, text = match["path"], match["code"], match["text"]
        in_loop, data = False, {}
        rule = known.get(code)
        if rule is not None and rule.category in _FACT_CATEGORIES:
            facts = facts_from_message(rule, text)
            if facts is None:
                unknown_context += 1
            else:
                in_loop, data = facts
        _take(parsed, by_file, known, path, code, int(match["line"]), int(match["col"]) - 1, text, in_loop, data)
    parsed.units = [_unit(path, findings) for path, findings in sorted(by_file.items())]
    parsed.loop_context = unknown_context == 0
    return parsed


def _take(
    parsed: Flake8Input,
    by_file: dict[str, list[Finding]],
    known: dict[str, Any],
    path: str,
    code: str,
    line: int,
    col: int,
    message: str,
    in_loop: bool = False,
    data: dict[str, Any] | None = None,
) -> None:
    path = os.path.normpath(path) if path not in ("stdin", "-") else path  # "./a.py" as flake8 prints it -> "a.py"
    if code in FLAKE8_INPUT_ERRORS:
        parsed.errors.append(f"{path}: {FLAKE8_INPUT_ERRORS[code]} ({_snippet(message)}); not assessed")
        return
    if not code.startswith("CPN"):
        parsed.other_codes[code] += 1
        return
    if code not in known:
        parsed.unknown_codes[code] += 1
        return
    finding = Finding(code, max(line, 1), max(col, 0), message, in_loop=in_loop, data=data or {})
    by_file.setdefault(path, []).append(finding)


def _unit(path: str, findings: list[Finding], quotes: dict[int, str] | None = None) -> Unit:
    """A unit with no model; quotes from the input, else from the file if it is here."""
    findings.sort(key=Finding.sort_key)
    line_count: int | None = None
    quotes = dict(quotes or {})
    try:
        source = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    except (OSError, ValueError):
        source = None
    if source is not None:
        line_count = len(source)
        for f in findings:
            if f.line not in quotes and f.line <= len(source):
                quotes[f.line] = source[f.line - 1]
    return Unit(path, FileResult(path, findings=findings, lines=line_count or 0), quotes=quotes, line_count=line_count)


def _snippet(line: str, limit: int = 80) -> str:
    line = line.strip()
    return repr(line if len(line) <= limit else line[: limit - 3] + "...")


# ------------------------------------------------------------------- cpn-json
def _read_cpn_json(text: str, origin: str) -> Flake8Input:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Flake8InputError(f"{origin}, line {exc.lineno}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise Flake8InputError(f"{origin}: JSON nested too deeply") from None
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        raise Flake8InputError(f"{origin}: a JSON document, but not flake8 --format=cpn-json output (no \"schema\": \"{SCHEMA}\")")
    version = document.get("schema_version")
    if not isinstance(version, int) or not 1 <= version <= SCHEMA_VERSION:
        raise Flake8InputError(f"{origin}: cpn-json schema_version {version!r} is not supported (this cpn-lint reads 1 to {SCHEMA_VERSION})")
    findings = document.get("findings")
    files = document.get("files_scanned", [])
    if not isinstance(findings, list):
        raise Flake8InputError(f"{origin}: 'findings' is missing or not a list")
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise Flake8InputError(f"{origin}: 'files_scanned' is not a list of paths")
    known = load_rules()
    parsed = Flake8Input(units=[], format="cpn-json", complete_file_list=True)
    unknown_context = 0
    by_file: dict[str, list[Finding]] = {os.path.normpath(path): [] for path in files}
    quotes: dict[str, dict[int, str]] = {}
    for index, item in enumerate(findings, start=1):
        code, path, row, column, message, extra = _fields(item, index, origin)
        if isinstance(item.get("physical_line"), str):
            quotes.setdefault(os.path.normpath(path), {})[row] = item["physical_line"]
        in_loop = bool(extra.get("in_loop", False))
        data = extra.get("data") if isinstance(extra.get("data"), dict) else {}
        rule = known.get(code)
        if rule is not None and rule.category in _FACT_CATEGORIES and not isinstance(extra.get("in_loop"), bool):
            facts = facts_from_message(rule, message)  # version 1, or the file could not be read again
            if facts is None:
                unknown_context += 1
            else:
                in_loop, data = facts
        _take(parsed, by_file, known, path, code, row, column - 1, message, in_loop, data)
    parsed.units = [_unit(path, items, quotes.get(path)) for path, items in sorted(by_file.items())]
    parsed.loop_context = unknown_context == 0
    return parsed


def _fields(item: Any, index: int, origin: str) -> tuple[str, str, int, int, str, dict[str, Any]]:
    where = f"{origin}: finding {index}"
    if not isinstance(item, dict):
        raise Flake8InputError(f"{where} is not an object")
    location = item.get("location")
    if not isinstance(location, dict):
        raise Flake8InputError(f"{where}: 'location' is missing or not an object")
    code, path, message = item.get("code"), item.get("filename"), item.get("message")
    row, column = location.get("row"), location.get("column")
    for key, value, kind in (("code", code, str), ("filename", path, str), ("message", message, str),
                             ("location.row", row, int), ("location.column", column, int)):
        if not isinstance(value, kind) or isinstance(value, bool):
            raise Flake8InputError(f"{where}: '{key}' is missing or not a {kind.__name__}")
    if not re.fullmatch(r"[A-Z][A-Z0-9]*\d", code):  # type: ignore[arg-type]
        raise Flake8InputError(f"{where}: {code!r} is not a flake8 code")
    return code, path, row, column, message, item  # type: ignore[return-value]


# ------------------------------------------------------------- reading again
@dataclass
class Reread:
    """The flake8 input joined with a fresh analysis of the files still here."""

    units: list[Unit]
    unreported: set[int] = field(default_factory=set)  # ids of findings flake8's output did not show
    stale: int = 0  # findings of the input no longer in the files as they are now
    reread: int = 0  # files read again
    as_given: int = 0  # files taken as the input gave them (not here, or unreadable now)
    filled: bool = False  # the assessment codes came from the files, not from the input


def join_analysis(given: list[Unit], fresh: dict[str, Unit], assessment: frozenset[str]) -> Reread:
    """Each unit of ``given`` (from flake8's output) whose file was analysed
    again (``fresh``, by path) becomes the fresh unit: the same findings,
    functions, sizes and loops a direct run has. What flake8 showed decides
    nothing about what the code is: findings it did not show (a ``# noqa``,
    an ignore setting, ``--extend-ignore``) are still weighed, as in a
    direct run, and are named in ``unreported``. When the input has no
    assessment code at all (flake8 ran without ``--cpn-assessment``), they
    are taken from the files."""
    filled = not any(f.code in assessment for u in given for f in u.result.findings)
    joined = Reread(units=[], filled=filled and bool(fresh))
    for unit in given:
        again = fresh.get(unit.path)
        if again is None or again.result.error is not None:
            joined.units.append(unit)
            joined.as_given += 1
            continue
        shown = {(f.code, f.line, f.col) for f in unit.result.findings}
        have = {(f.code, f.line, f.col) for f in again.result.findings}
        for finding in again.result.findings:
            if (finding.code, finding.line, finding.col) not in shown and not (filled and finding.code in assessment):
                joined.unreported.add(id(finding))
        missing = [f for f in unit.result.findings if (f.code, f.line, f.col) not in have]
        joined.stale += len(missing)
        again.result.findings = sorted(again.result.findings + missing, key=Finding.sort_key)
        joined.units.append(again)
        joined.reread += 1
    return joined
