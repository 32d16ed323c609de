"""flake8 report formatters (``flake8 --format=cpn-json``).

``cpn-json`` writes one JSON document for the whole run, counting every file
flake8 checked (clean ones included, which a verdict needs) and carrying each
finding's rule metadata from the registry. ``cpn-verdict --from-flake8`` reads
it back.

The document, schema ``cpn-lint/flake8-findings``:

* ``schema_version`` 2 (version 1 lacked ``in_loop`` and ``data``; readers
  accept both);
* ``tool``: ``{name, version}``; ``files_scanned``: every path flake8 checked;
* ``findings``: one object per finding: ``code``, ``name`` (the rule's slug),
  ``category``, ``recipe``, ``message`` (without the code), ``filename``,
  ``location`` ``{row, column}`` (1-based, as flake8 prints them),
  ``physical_line``, ``in_loop`` (true/false, or null when unknown) and
  ``data`` (the rule's machine-readable facts, such as the API name of a
  CPN401 or the workload kind of a CPN410; null when unknown).

flake8 hands a formatter only each finding's text, so ``in_loop`` and
``data`` are recovered at the end of the run by analysing again, with just
the codes found, the files that had findings; a file that changed meanwhile
or cannot be read gets nulls.
"""

from __future__ import annotations

import json
from typing import Any

from flake8.formatting.base import BaseFormatter

from . import __version__
from .engine import LintOptions, analyze_source
from .rules import load_rules

SCHEMA = "cpn-lint/flake8-findings"
SCHEMA_VERSION = 2


def finding_entry(code: str, filename: str, row: int, column: int, message: str, physical_line: str | None,
                  in_loop: bool | None = None, data: dict[str, Any] | None = None) -> dict[str, Any]:
    """One finding of the document (``column`` 1-based, as flake8 prints it)."""
    rule = load_rules().get(code)
    return {
        "code": code,
        "name": rule.slug if rule else None,
        "category": rule.category.value if rule else None,
        "recipe": rule.recipe if rule else None,
        "message": message,
        "filename": filename,
        "location": {"row": row, "column": column},
        "physical_line": (physical_line or "").rstrip("\n") or None,
        "in_loop": in_loop,
        "data": data,
    }


def findings_json(files: list[str], findings: list[dict[str, Any]]) -> str:
    """The whole document: ``flake8 --format=cpn-json`` and ``cpn-lint check --format json``."""
    document = {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "cpn-lint", "version": __version__},
        "files_scanned": sorted(set(files)),
        "findings": findings,
    }
    return json.dumps(document, indent=2, ensure_ascii=False, default=str)


class CpnJsonFormatter(BaseFormatter):
    """One JSON document: ``{schema, version, tool, files_scanned, findings}``."""

    def after_init(self) -> None:
        self._files: list[str] = []
        self._findings: list[dict[str, Any]] = []

    def beginning(self, filename: str) -> None:
        self._files.append(filename)

    def handle(self, error: Any) -> None:
        self._findings.append(finding_entry(error.code, error.filename, error.line_number, error.column_number,
                                            error.text, error.physical_line))

    def _add_facts(self) -> None:
        """Fill ``in_loop``/``data`` from a second analysis of each file with findings."""
        codes_by_file: dict[str, set[str]] = {}
        for item in self._findings:
            if item["code"].startswith("CPN"):
                codes_by_file.setdefault(item["filename"], set()).add(item["code"])
        facts: dict[tuple[str, str, int, int], tuple[bool, dict[str, Any]]] = {}
        for filename, codes in codes_by_file.items():
            try:
                with open(filename, "rb") as handle:
                    raw = handle.read()
                result = analyze_source(raw, filename, LintOptions(assessment=True, codes=frozenset(codes)))
            except Exception:  # unreadable or changed: leave the nulls
                continue
            for f in result.findings:
                facts[(filename, f.code, f.line, f.col + 1)] = (f.in_loop, dict(f.data))
        for item in self._findings:
            key = (item["filename"], item["code"], item["location"]["row"], item["location"]["column"])
            if key in facts:
                item["in_loop"], item["data"] = facts[key]

    def stop(self) -> None:
        self._add_facts()
        self._write(findings_json(self._files, self._findings))
        super().stop()  # closes --output-file; forgetting it loses the output

    def show_statistics(self, statistics: Any) -> None:  # statistics would corrupt the JSON
        return

    def show_benchmarks(self, benchmarks: Any) -> None:
        return


class CpnSarifFormatter(BaseFormatter):
    """``flake8 --format=cpn-sarif``: one SARIF 2.1.0 log for the run, for
    GitHub code scanning, with the same rules, levels and fingerprints as
    ``cpn-verdict --format sarif``. Files flake8 could not read or parse
    (E902, E999) become tool execution notifications; other plugins' codes
    are kept as results of rules the log does not describe. The log is built
    by :mod:`cpn_lint.flake8_sarif`."""

    def after_init(self) -> None:
        self._errors: list[Any] = []

    def handle(self, error: Any) -> None:
        self._errors.append(error)

    def stop(self) -> None:
        from .flake8_sarif import sarif_log

        self._write(json.dumps(sarif_log(self._errors), indent=2, ensure_ascii=False))
        super().stop()  # closes --output-file

    def show_statistics(self, statistics: Any) -> None:  # statistics would corrupt the JSON
        return

    def show_benchmarks(self, benchmarks: Any) -> None:
        return
