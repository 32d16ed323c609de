"""Every rule's VALID and INVALID examples run as tests (Fixit's model)."""

from __future__ import annotations

import pytest

from cpn_lint import lint_source
from cpn_lint.registry import Invalid, Valid
from cpn_lint.rules import load_rules

RULES = load_rules()


def _cases(kind: str) -> list[object]:
    cases = []
    for code, rule in RULES.items():
        examples = rule.valid if kind == "valid" else rule.invalid
        for i, example in enumerate(examples):
            cases.append(pytest.param(code, example, id=f"{code}-{kind.upper()}-{i}"))
    return cases


def _lint(code: str, example: Valid | Invalid) -> list:
    options = dict(example.options)
    return [f for f in lint_source(example.source, assessment=True, **options) if f.code == code]


@pytest.mark.parametrize(("code", "example"), _cases("valid"))
def test_valid_example_is_quiet(code: str, example: Valid) -> None:
    assert _lint(code, example) == []


@pytest.mark.parametrize(("code", "example"), _cases("invalid"))
def test_invalid_example_is_reported(code: str, example: Invalid) -> None:
    findings = _lint(code, example)
    assert findings, f"{code} did not fire on:\n{example.source}"
    if example.line is not None:
        assert [f.line for f in findings] == [example.line], findings
    if example.contains is not None:
        assert any(example.contains in f.message for f in findings), [f.message for f in findings]


@pytest.mark.parametrize("code", [c for c in RULES if c != "CPN000"])
def test_every_rule_has_examples_both_ways(code: str) -> None:
    rule = RULES[code]
    assert len(rule.valid) >= 2, f"{code} needs at least two VALID examples"
    assert len(rule.invalid) >= 2, f"{code} needs at least two INVALID examples"


def test_no_internal_errors_on_examples() -> None:
    for rule in RULES.values():
        for example in (*rule.valid, *rule.invalid):
            codes = {f.code for f in lint_source(example.source, assessment=True)}
            assert "CPN000" not in codes, example.source
