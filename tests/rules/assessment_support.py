"""What the assessment-family tests (SCALES CPN001-CPN007, INFO CPN301-CPN305)
share: their codes and the findings of a snippet restricted to them."""

from __future__ import annotations

import textwrap

from cpn_lint import lint_source
from cpn_lint.findings import Finding
from cpn_lint.rules._scales import SCALES_CODES

SCALES = set(SCALES_CODES)
INFO = {"CPN301", "CPN302", "CPN303", "CPN304", "CPN305"}
MINE = SCALES | INFO


def assessment_findings(source: str, codes: set[str] = MINE) -> list[Finding]:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code in codes]


def assessment_at(source: str, codes: set[str] = MINE) -> list[tuple[int, str]]:
    return sorted((f.line, f.code) for f in assessment_findings(source, codes))
