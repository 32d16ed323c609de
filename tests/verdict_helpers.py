"""Shared helpers for the cpn-verdict tests: synthetic units and stand-in rules.

The verdict logic is tested on synthetic findings so that it does not depend
on which rules exist yet. Codes the framework treats specially (CPN108,
CPN401, CPN402, CPN410) are the real rules when registered and stand-ins
otherwise; the other stand-ins use the unused CPN9xx range.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

from cpn_lint.engine import FileResult
from cpn_lint.findings import Finding
from cpn_lint.registry import REGISTRY, Category, Default
from cpn_lint.rules import load_rules
from cpn_lint.verdict.collect import Unit
from cpn_lint.verdict.context import Context
from cpn_lint.verdict.report import build_report
from cpn_lint.verdict.report_items import Report

from .conftest import ROOT


@dataclass(frozen=True)
class StandIn:
    """Just enough of a Rule for the report (never registered as a class)."""

    code: str
    category: Category
    recipe: str | None = None
    default: Default = Default.ON

    @property
    def slug(self) -> str:
        return f"stand-in-{self.code.lower()}"

    @property
    def summary(self) -> str:
        return f"stand-in {self.category.value.lower()} rule"

    message = "stand-in"

    def doc(self) -> str:
        return f"## What it does\nStands in for {self.code} in tests."


STAND_INS = {
    "CPN901": StandIn("CPN901", Category.BLOCKS, "RR-loop"),
    "CPN902": StandIn("CPN902", Category.BLOCKS, "RR-sync"),
    "CPN903": StandIn("CPN903", Category.BLOCKS, "RR-where"),
    "CPN904": StandIn("CPN904", Category.BLOCKS, "RR-converge"),
    "CPN911": StandIn("CPN911", Category.REFACTOR, "RR-alloc"),
    "CPN912": StandIn("CPN912", Category.REFACTOR, "RR-stack"),
    "CPN913": StandIn("CPN913", Category.REFACTOR, "RR-inplace"),
    "CPN921": StandIn("CPN921", Category.SCALES, None, Default.ASSESSMENT),
    "CPN931": StandIn("CPN931", Category.INFO, None, Default.ASSESSMENT),
    "CPN108": StandIn("CPN108", Category.BLOCKS, "RR-mpi"),
    "CPN401": StandIn("CPN401", Category.API, "RR-host-fallback"),
    "CPN402": StandIn("CPN402", Category.API, None, Default.ASSESSMENT),
    "CPN410": StandIn("CPN410", Category.SCOPE, None),
}
BLOCKS = ("CPN901", "CPN902", "CPN903", "CPN904")
REFACTOR = ("CPN911", "CPN912", "CPN913")


@contextlib.contextmanager
def stand_in_rules() -> Iterator[None]:
    """Register the stand-ins for the duration (real rules win where they exist)."""
    load_rules()  # the real rules first, so a stand-in never hides one
    added = [code for code in STAND_INS if code not in REGISTRY]
    for code in added:
        REGISTRY[code] = STAND_INS[code]  # type: ignore[assignment]
    try:
        yield
    finally:
        for code in added:
            REGISTRY.pop(code, None)


def finding(code: str, line: int = 1, *, in_loop: bool = False, **data: Any) -> Finding:
    return Finding(code, line, 0, f"{code} finding at line {line}", in_loop=in_loop, data=data)


def unit(path: str, findings: Sequence[Finding], lines: int = 100) -> Unit:
    return Unit(path, FileResult(path, findings=list(findings), lines=lines), line_count=lines)


def report_for(findings_by_file: dict[str, Sequence[Finding]], context: Context | None = None, **kwargs: Any) -> Report:
    units = [unit(path, items) for path, items in sorted(findings_by_file.items())]
    return build_report(units, context or Context(), **kwargs)


def run_verdict(*args: str, cwd: Path = ROOT, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m cpn_lint verdict ...`` in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "cpn_lint", "verdict", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


STALE_WARNING = "> **Warning:** the API manifest describes"


def dated_lines_removed(report: str) -> str:
    """The report without the manifest's staleness warning, which depends on
    the day the test runs (tests/test_manifest.py checks it)."""
    lines = report.split("\n")
    kept = [line for i, line in enumerate(lines)
            if not line.startswith(STALE_WARNING) and not (i > 0 and lines[i - 1].startswith(STALE_WARNING))]
    return "\n".join(kept)


_NEW_BLOCK = re.compile(r"^(- |\d+\. |#|\||```|>$)")


def unwrapped(markdown: str) -> str:
    """The Markdown report with each wrapped paragraph, list item and quote
    on one line again, so that a test finds a phrase wherever the report's
    lines broke (the report wraps prose near 100 columns)."""
    out: list[str] = []
    fenced = False
    for line in markdown.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        previous = out[-1] if out else ""
        continues = (not fenced and line.strip() and previous.strip() and not _NEW_BLOCK.match(line)
                     and not previous.startswith(("#", "|", "```")) and line.startswith(">") == previous.startswith(">"))
        if continues:
            out[-1] = previous + " " + (line[2:] if line.startswith("> ") else line.strip())
        else:
            out.append(line)
    return "\n".join(out)
