"""The report as SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.

* ``tool.driver.rules`` lists every registered code: ``id``, ``name`` (the
  slug), short and full descriptions, ``helpUri`` (the rule's page,
  ``docs/rules/CODE.md``, relative to the project) and the rule's page as
  ``help.markdown``, and ``defaultConfiguration.level`` from its category.
* One result per finding. SCALES findings are ``kind: "pass"`` (what will
  speed up, not a problem); everything else is ``kind: "fail"`` with the level
  of its rule. Notebook findings name the notebook and the cell/line in the
  message, with no region (a region would count lines of the notebook's JSON).
* The verdict, its summary and the six gates go in the run's ``properties``;
  unreadable inputs become tool execution notifications.
"""

from __future__ import annotations

import json
import re
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from ..registry import Category
from ..rules import load_rules
from .report_items import Item, Report

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {
    Category.BLOCKS: "error",
    Category.SCOPE: "error",
    Category.INTERNAL: "error",
    Category.REFACTOR: "warning",
    Category.API: "warning",
    Category.INFO: "note",
    Category.SCALES: "none",
}
# API codes that describe support limits rather than a missing function
NOTE_CODES = {"CPN402", "CPN403"}


def rule_level(code: str, category: Category) -> str:
    return "note" if code in NOTE_CODES else LEVELS.get(category, "warning")


def _first_paragraph(doc: str, heading: str = "What it does") -> str:
    match = re.search(rf"^## {re.escape(heading)}\s*\n(.*?)(?:\n\s*\n|\n## |\Z)", doc, re.S | re.M)
    text = match.group(1) if match else doc
    return " ".join(text.split())


def driver_rules() -> list[dict[str, Any]]:
    rules = []
    for code, rule in load_rules().items():
        doc = rule.doc()
        rules.append({
            "id": code,
            "name": rule.slug,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": _first_paragraph(doc) or rule.summary},
            "helpUri": f"docs/rules/{code}.md",
            "help": {"text": _first_paragraph(doc) or rule.summary, "markdown": doc or rule.summary},
            "defaultConfiguration": {"level": rule_level(code, rule.category)},
            "properties": {"category": rule.category.value, "recipe": rule.recipe, "tags": [rule.category.value.lower()]},
        })
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


def _result(item: Item, index: dict[str, int], rules: dict[str, Any]) -> dict[str, Any]:
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
        message = f"cell {loc.cell}, line {loc.cell_line}: {message}"
    else:
        physical["region"] = {"startLine": loc.line, "startColumn": loc.column}
        if item.quote:
            physical["region"]["snippet"] = {"text": item.quote}
    result: dict[str, Any] = {
        "ruleId": item.code or f"doctor/{item.data.get('doctor_check', 'runtime')}",
        "message": {"text": f"{item.code + ' ' if item.code else ''}{message}"},
        "locations": [{"physicalLocation": physical}],
        "properties": {
            "category": item.category,
            "recipe": item.recipe,
            "inLoop": item.in_loop,
            "source": item.source,
            "citation": item.citation,
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
        result["level"] = rule_level(item.code or "", category) if category else "warning"
    return result


def to_sarif(report: Report) -> dict[str, Any]:
    rules = load_rules()
    driver = driver_rules()
    index = {r["id"]: i for i, r in enumerate(driver)}
    results = [_result(item, index, rules) for item in report.all_items() + report.internal_errors]
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
                "informationUri": "https://pypi.org/project/cpn-lint/",
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
            "decisionRule": report.decision.rule,
            "gates": [
                {"number": gate.number, "name": gate.name, "status": gate.status.value, "reason": gate.reason}
                for gate in report.gates
            ],
        },
    }
    return {"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def render_sarif(report: Report) -> str:
    return json.dumps(to_sarif(report), indent=2, ensure_ascii=False) + "\n"
