"""Fixture files under fixtures/ declare their findings inline and are
checked line by line: every declared finding appears and nothing else does.

``# expect: CPN101`` on a line declares a finding there. By default only the
codes a plain flake8 run shows are compared; a file whose first lines contain
``# cpn-fixture: assessment`` is compared on every code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cpn_lint import lint_source
from cpn_lint.registry import Default
from cpn_lint.rules import load_rules

from .conftest import FIXTURES, expected_findings

RULES = load_rules()
FIXTURE_FILES = sorted(FIXTURES.rglob("*.py"))


def _compared_codes(path: Path) -> set[str]:
    head = "\n".join(path.read_text(encoding="utf-8").splitlines()[:5])
    if "cpn-fixture: assessment" in head:
        return set(RULES)
    return {code for code, rule in RULES.items() if rule.default is Default.ON}


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_findings_match_inline_expectations(path: Path) -> None:
    compared = _compared_codes(path)
    findings = lint_source(path.read_bytes(), str(path), assessment=True)
    actual = {(f.line, f.code) for f in findings if f.code in compared}
    expected = {e for e in expected_findings(path) if e[1] in compared}
    missing = sorted(expected - actual)
    unexpected = sorted(actual - expected)
    assert not missing and not unexpected, f"missing={missing} unexpected={unexpected}"


def test_every_on_by_default_code_has_a_positive_fixture() -> None:
    declared = {code for path in FIXTURE_FILES for _, code in expected_findings(path)}
    wanted = {code for code, rule in RULES.items() if rule.default is Default.ON and code != "CPN000"}
    assert wanted <= declared, f"codes without a positive fixture: {sorted(wanted - declared)}"
