"""SARIF 2.1.0 from the errors of one flake8 run (``flake8 --format=cpn-sarif``).

The log matches ``cpn-verdict --format sarif``: the registry's rules
(:func:`cpn_lint.verdict.sarif.driver_rules`), the same levels, and the same
``partialFingerprints`` (:mod:`cpn_lint.fingerprint`), so one finding is one
code scanning alert whichever command made the file.

* Files flake8 could not read or parse (E902, E999) are not results but
  tool execution notifications, and the run is marked unsuccessful.
* Problems only, as ``cpn-verdict --format sarif`` lists them: what scales
  (SCALES, shown with ``--cpn-assessment``) is left out.
* Other plugins' codes are kept as results without a ``ruleIndex`` (the log
  does not describe their rules) at the level ``warning``.
* A finding's function is read from each file's syntax tree, once per file,
  at the end of the run (flake8 hands a formatter only the finding's text).
* Columns are counted in characters (``columnKind: unicodeCodePoints``).
  flake8 passes cpn-lint's columns on as the syntax tree gives them, in
  UTF-8 bytes; they are converted with the finding's line.
"""

from __future__ import annotations

import ast
import os
import warnings
from typing import Any, Protocol, Sequence

from . import __version__
from .fingerprint import KEY_VERSION, finding_key, function_at, function_spans, numbered
from .registry import Category
from .rules import load_rules
from .verdict.sarif import SARIF_SCHEMA_URI, SARIF_VERSION, SarifOptions, artifact_uri, driver_rules

INPUT_CODES = frozenset({"E902", "E999"})
_FROM_FILE = object()
Spans = list[tuple[int, int, str]]


class Flake8Error(Protocol):
    """What flake8 hands a formatter (``flake8.violation.Violation``)."""

    code: str
    filename: str
    line_number: int
    column_number: int  # 1-based
    text: str
    physical_line: str | None


def sarif_log(errors: Sequence[Flake8Error], options: SarifOptions = SarifOptions()) -> dict[str, Any]:
    """One SARIF log with one run for ``errors``."""
    problems = [e for e in errors if e.code in INPUT_CODES]
    findings = sorted((e for e in errors if e.code not in INPUT_CODES and not _scales(e.code)),
                      key=lambda e: (e.filename, e.line_number, e.column_number, e.code))
    driver = driver_rules(options)
    index = {rule["id"]: n for n, rule in enumerate(driver)}
    results = [_result(e, key, index, options) for e, key in zip(findings, finding_keys(findings))]
    run = {
        "tool": {"driver": {"name": "cpn-lint", "version": __version__, "semanticVersion": __version__,
                            "rules": driver}},
        "invocations": [{"executionSuccessful": not problems,
                         "toolExecutionNotifications": [_notification(e) for e in problems]}],
        "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "the directory flake8 ran in"}}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return {"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def _scales(code: str) -> bool:
    rule = load_rules().get(code)
    return rule is not None and rule.category is Category.SCALES


def _notification(error: Flake8Error) -> dict[str, Any]:
    return {"level": "error", "message": {"text": f"{error.filename}: {error.code} {error.text}"},
            "descriptor": {"id": "input-error"}}


def _result(error: Flake8Error, key: str, index: dict[str, int], options: SarifOptions) -> dict[str, Any]:
    rule = load_rules().get(error.code)
    result: dict[str, Any] = {
        "ruleId": error.code,
        "level": options.level(rule.category if rule else None),
        "kind": "fail",
        "message": {"text": f"{error.code} {error.text}"},
        "locations": [{"physicalLocation": {"artifactLocation": _artifact(error.filename), "region": _region(error)}}],
        "partialFingerprints": {KEY_VERSION: key},
    }
    if error.code in index:
        result["ruleIndex"] = index[error.code]
    return result


def _artifact(filename: str) -> dict[str, str]:
    uri, relative = artifact_uri(report_path(filename))
    return {"uri": uri, "uriBaseId": "%SRCROOT%"} if relative else {"uri": uri}


def _region(error: Flake8Error) -> dict[str, int]:
    column = max(1, int(error.column_number or 1))
    if error.code.startswith("CPN") and error.physical_line:
        column = character_column(error.physical_line, column)
    return {"startLine": max(1, int(error.line_number)), "startColumn": column}


def character_column(line: str, byte_column: int) -> int:
    """The 1-based character column of a 1-based UTF-8 byte column of ``line``."""
    head = line.encode("utf-8")[: byte_column - 1]
    return len(head.decode("utf-8", errors="ignore")) + 1


def report_path(filename: str) -> str:
    """``filename`` as the log names it: relative to the working directory,
    with forward slashes (the fingerprint uses the same text)."""
    try:
        return os.path.relpath(filename).replace(os.sep, "/")
    except ValueError:  # another drive
        return filename.replace(os.sep, "/")


def finding_keys(findings: Sequence[Flake8Error]) -> list[str]:
    """The fingerprint of each finding (in file order), numbered within a file."""
    spans: dict[str, Spans] = {}
    keys = []
    for error in findings:
        function = getattr(error, "function", _FROM_FILE)  # a caller that knows it (a notebook's cells) says so
        if function is _FROM_FILE:
            if error.filename not in spans:
                spans[error.filename] = file_spans(error.filename)
            function = function_at(spans[error.filename], int(error.line_number))
        keys.append(finding_key(error.code, report_path(error.filename), function, error.physical_line or ""))
    by_file: dict[str, list[int]] = {}
    for n, error in enumerate(findings):
        by_file.setdefault(error.filename, []).append(n)
    out = [""] * len(findings)
    for positions in by_file.values():
        for n, key in zip(positions, numbered(keys[n] for n in positions)):
            out[n] = key
    return out


def file_spans(filename: str) -> Spans:
    """The functions of a file; none when it cannot be read or parsed."""
    try:
        with open(filename, "rb") as handle:
            data = handle.read()
        with warnings.catch_warnings():  # the user's invalid escapes are not ours to report
            warnings.simplefilter("ignore")
            return function_spans(ast.parse(data))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return []
