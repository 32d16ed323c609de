"""flake8 report formatters (``flake8 --format=cpn-json``).

``cpn-json`` writes one JSON document for the whole run, counting every file
flake8 checked (clean ones included, which a verdict needs) and carrying each
finding's rule metadata from the registry. ``cpn-verdict --from-flake8`` reads
it back.
"""

from __future__ import annotations

import json
from typing import Any

from flake8.formatting.base import BaseFormatter

from . import __version__
from .registry import load_rules

SCHEMA = "cpn-lint/flake8-findings"
SCHEMA_VERSION = 1


class CpnJsonFormatter(BaseFormatter):
    """One JSON document: ``{schema, version, tool, files_scanned, findings}``."""

    def after_init(self) -> None:
        self._files: list[str] = []
        self._findings: list[dict[str, Any]] = []

    def beginning(self, filename: str) -> None:
        self._files.append(filename)

    def handle(self, error: Any) -> None:
        rules = load_rules()
        rule = rules.get(error.code)
        self._findings.append(
            {
                "code": error.code,
                "name": rule.slug if rule else None,
                "category": rule.category.value if rule else None,
                "recipe": rule.recipe if rule else None,
                "message": error.text,
                "filename": error.filename,
                "location": {"row": error.line_number, "column": error.column_number},
                "physical_line": (error.physical_line or "").rstrip("\n") or None,
            }
        )

    def stop(self) -> None:
        document = {
            "schema": SCHEMA,
            "schema_version": SCHEMA_VERSION,
            "tool": {"name": "cpn-lint", "version": __version__},
            "files_scanned": sorted(set(self._files)),
            "findings": self._findings,
        }
        self._write(json.dumps(document, indent=2, ensure_ascii=False))
        super().stop()  # closes --output-file; forgetting it loses the output

    def show_statistics(self, statistics: Any) -> None:  # statistics would corrupt the JSON
        return

    def show_benchmarks(self, benchmarks: Any) -> None:
        return
