"""The report as SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.

* ``tool.driver.rules`` lists every registered code: ``id``, ``name`` (the
  slug), short and full descriptions, the rule's page as ``help`` (text and
  Markdown), ``defaultConfiguration.level`` from its category, and
  ``helpUri`` only when a documentation URL is given (a relative link would
  be dead from the user's repository).
* One result per problem: what scales (SCALES) is left out unless asked for
  (then ``kind: "pass"``), and so are the findings a ``# noqa``, flake8's
  ignore settings or a baseline accepted, which ``flake8 --format=cpn-sarif``
  does not list either (the verdict still weighs them; the run's
  ``properties.acceptedLeftOut`` counts them). Levels fit code review: BLOCKS and SCOPE are
  ``warning``, REFACTOR, API and INFO ``note``, internal errors ``error``;
  each can be changed per category.
* ``partialFingerprints`` (:mod:`cpn_lint.fingerprint`) survive lines moving.
* A notebook result points at the line of the ``.ipynb`` file that holds the
  cell's source line, and its message names the cell.
* The verdict, its summary and the six gates go in the run's ``properties``;
  unreadable inputs become tool execution notifications.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from ..fingerprint import KEY_VERSION, finding_key, numbered
from ..registry import Category
from ..rules import load_rules
from .ipynb_lines import notebook_line
from .report_items import Item, Report, site_key

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {
    Category.BLOCKS: "warning",
    Category.SCOPE: "warning",
    Category.INTERNAL: "error",
    Category.REFACTOR: "note",
    Category.API: "note",
    Category.INFO: "note",
    Category.SCALES: "none",
}
LEVEL_NAMES = ("error", "warning", "note", "none")


@dataclass(frozen=True)
class SarifOptions:
    scales: bool = False  # include what scales (kind "pass")
    levels: tuple[tuple[str, str], ...] = ()  # (category, level) overrides
    docs_url: str | None = None  # where the rule pages are: helpUri = URL/CODE.md

    def level(self, category: Category | None) -> str:
        if category is None:
            return "warning"
        return dict(self.levels).get(category.value, LEVELS.get(category, "warning"))


def parse_level(text: str) -> tuple[str, str]:
    """``BLOCKS=error`` -> ("BLOCKS", "error"); ValueError naming the problem."""
    category, _, level = text.partition("=")
    category, level = category.strip().upper(), level.strip().lower()
    if category not in {c.value for c in Category}:
        raise ValueError(f"unknown category {category!r} (one of {', '.join(c.value for c in Category)})")
    if level not in LEVEL_NAMES:
        raise ValueError(f"unknown level {level!r} (one of {', '.join(LEVEL_NAMES)})")
    return category, level


def rule_level(code: str, category: Category, options: SarifOptions = SarifOptions()) -> str:
    return options.level(category)


def _first_paragraph(doc: str, heading: str = "What it does") -> str:
    match = re.search(rf"^## {re.escape(heading)}\s*\n(.*?)(?:\n\s*\n|\n## |\Z)", doc, re.S | re.M)
    text = match.group(1) if match else doc
    return " ".join(text.split())


def driver_rules(options: SarifOptions = SarifOptions()) -> list[dict[str, Any]]:
    rules = []
    for code, rule in load_rules().items():
        doc = rule.doc()
        entry: dict[str, Any] = {
            "id": code,
            "name": rule.slug,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": _first_paragraph(doc) or rule.summary},
            "help": {"text": _first_paragraph(doc) or rule.summary, "markdown": doc or rule.summary},
            "defaultConfiguration": {"level": rule_level(code, rule.category, options)},
            "properties": {"category": rule.category.value, "recipe": rule.recipe, "tags": [rule.category.value.lower()]},
        }
        if options.docs_url:
            entry["helpUri"] = f"{options.docs_url.rstrip('/')}/{code}.md"
        rules.append(entry)
    return rules


def artifact_uri(path: str) -> tuple[str, bool]:
    """A URI reference for ``path``; True when relative to the source root."""
    pure = PurePath(path)
    if pure.is_absolute():
        return "file://" + quote(pure.as_posix()), False
    posix = pure.as_posix()
    while posix.startswith("./"):
        posix = posix[2:]
    return quote(posix), True


def _result(item: Item, index: dict[str, int], rules: dict[str, Any], options: SarifOptions,
            fingerprint: str) -> dict[str, Any]:
    rule = rules.get(item.code or "")
    category = rule.category if rule else None
    loc = item.location
    uri, relative = artifact_uri(loc.path)
    artifact: dict[str, Any] = {"uri": uri}
    if relative:
        artifact["uriBaseId"] = "%SRCROOT%"
    physical: dict[str, Any] = {"artifactLocation": artifact}
    message = item.message
    if loc.cell is not None:
        message = f"cell {loc.cell}:line {loc.cell_line}: {message}"
        physical["region"] = {"startLine": notebook_line(loc.path, loc.cell, loc.cell_line or 1)}
    else:
        physical["region"] = {"startLine": loc.line, "startColumn": loc.column}
        if item.quote:
            physical["region"]["snippet"] = {"text": item.quote}
    result: dict[str, Any] = {
        "ruleId": item.code or f"doctor/{item.data.get('doctor_check', 'runtime')}",
        "message": {"text": f"{item.code + ' ' if item.code else ''}{message}"},
        "locations": [{"physicalLocation": physical}],
        "partialFingerprints": {KEY_VERSION: fingerprint},
        "properties": {
            "category": item.category,
            "recipe": item.recipe,
            "inLoop": item.in_loop,
            "source": item.source,
            "citation": item.citation,
            "function": item.function,
            "confirmedByDoctor": bool(item.runtime),
        },
    }
    if item.code in index:
        result["ruleIndex"] = index[item.code]  # type: ignore[index]
    if category is Category.SCALES:
        result["kind"] = "pass"
        result["level"] = "none"
    else:
        result["kind"] = "fail"
        result["level"] = options.level(category)
    return result


def fingerprints(items: list[Item]) -> list[str]:
    """One key per item (see :mod:`cpn_lint.fingerprint`), numbered within a file."""
    keys = [finding_key(i.code or "", i.location.path, i.function, i.quote) for i in items]
    by_file: dict[str, list[int]] = {}
    for n, item in enumerate(items):
        by_file.setdefault(item.location.path, []).append(n)
    out = [""] * len(items)
    for positions in by_file.values():
        ordered = sorted(positions, key=lambda n: (items[n].location.line, items[n].location.column))
        for n, key in zip(ordered, numbered(keys[n] for n in ordered)):
            out[n] = key
    return out


def to_sarif(report: Report, options: SarifOptions = SarifOptions()) -> dict[str, Any]:
    rules = load_rules()
    driver = driver_rules(options)
    index = {r["id"]: i for i, r in enumerate(driver)}
    listed = [i for i in report.all_items() + report.internal_errors if options.scales or i.category != Category.SCALES.value]
    items = [i for i in listed if site_key(i) not in report.accepted]
    results = [_result(item, index, rules, options, key) for item, key in zip(items, fingerprints(items))]
    notifications = [
        {"level": "error", "message": {"text": error}, "descriptor": {"id": "input-error"}}
        for error in report.input_errors
    ]
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "cpn-lint",
                "version": report.tool_version,
                "semanticVersion": report.tool_version,
                "rules": driver,
            }
        },
        "invocations": [{"executionSuccessful": not report.input_errors, "toolExecutionNotifications": notifications}],
        "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "the directory cpn-verdict ran in"}}},
        "results": results,
        "columnKind": "unicodeCodePoints",
        "properties": {
            "verdict": report.verdict.value,
            "summary": report.summary.replace("**", ""),
            "verdictNotes": list(report.verdict_notes),
            "decisionRule": report.decision.rule,
            "acceptedLeftOut": len(listed) - len(items),
            "gates": [
                {"number": gate.number, "name": gate.name, "status": gate.status.value, "reason": gate.reason}
                for gate in report.gates
            ],
        },
    }
    return {"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def no_verdict_sarif(reason: str, errors: list[str], version: str, successful: bool) -> dict[str, Any]:
    """The log written instead of a report when there is nothing to judge:
    no results, each unreadable input and the reason as notifications, and
    ``properties.verdict`` null with ``noVerdict`` saying why. ``successful``
    (something was read and nothing failed) matches the exit status 0."""
    notes = [{"level": "error", "message": {"text": error}, "descriptor": {"id": "input-error"}} for error in errors]
    notes.append({"level": "note" if successful else "error", "message": {"text": f"NO VERDICT: {reason}"},
                  "descriptor": {"id": "no-verdict"}})
    run = {
        "tool": {"driver": {"name": "cpn-lint", "version": version, "semanticVersion": version}},
        "invocations": [{"executionSuccessful": successful, "toolExecutionNotifications": notes}],
        "results": [],
        "properties": {"verdict": None, "noVerdict": reason},
    }
    return {"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def render_sarif(report: Report, options: SarifOptions = SarifOptions()) -> str:
    return json.dumps(to_sarif(report, options), indent=2, ensure_ascii=False) + "\n"
