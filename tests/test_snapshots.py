"""Functional snapshots, one per rule fixture: ``fixtures/rules/NAME.py`` and
beside it ``fixtures/rules/NAME.expected``, every finding a plain run shows
(the assessment codes too for a ``# cpn-fixture: assessment`` file) as
``line:col CODE headline`` and, indented below, the whole message. The inline ``# expect:`` marks
(tests/test_fixtures.py) say *where*; the snapshot says *what the user reads*.

After changing a rule or its messages, regenerate and review the diff:

    CPN_REGEN_SNAPSHOTS=1 python -m pytest tests/test_snapshots.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cpn_lint import lint_source
from cpn_lint.registry import Default
from cpn_lint.rules import load_rules

from .conftest import FIXTURES

RULE_FIXTURES = sorted((FIXTURES / "rules").glob("*.py"))
RULES = load_rules()


def snapshot_of(path: Path) -> str:
    head = "\n".join(path.read_text(encoding="utf-8").splitlines()[:5])
    shown = set(RULES) if "cpn-fixture: assessment" in head else {
        code for code, rule in RULES.items() if rule.default is Default.ON}
    findings = lint_source(path.read_bytes(), str(path), assessment=True)
    shown_findings = sorted((f for f in findings if f.code in shown), key=lambda f: (f.line, f.col, f.code, f.message))
    # the headline flake8 and editors show, then the whole message (--cpn-verbose, the report)
    return "".join(f"{f.line}:{f.col + 1} {f.headline}\n    {f.message}\n" for f in shown_findings)


@pytest.mark.parametrize("path", RULE_FIXTURES, ids=lambda p: p.stem)
def test_rule_fixture_matches_its_snapshot(path: Path) -> None:
    expected_path = path.with_suffix(".expected")
    actual = snapshot_of(path)
    if os.environ.get("CPN_REGEN_SNAPSHOTS"):
        expected_path.write_text(actual, encoding="utf-8")
    assert expected_path.exists(), f"no snapshot; create it with CPN_REGEN_SNAPSHOTS=1 pytest {__file__}"
    assert actual == expected_path.read_text(encoding="utf-8"), (
        f"{path.name}: findings changed; if intended, regenerate with "
        "CPN_REGEN_SNAPSHOTS=1 python -m pytest tests/test_snapshots.py and review the diff")


def test_every_rule_has_a_fixture_with_a_snapshot() -> None:
    covered = {line.split()[1] for p in RULE_FIXTURES for line in p.with_suffix(".expected").read_text().splitlines()
               if not line.startswith(" ")}
    wanted = {code for code, rule in RULES.items() if code != "CPN000"}
    assert wanted - covered == set()
