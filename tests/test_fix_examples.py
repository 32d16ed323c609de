"""Every rule's fix examples run as tests: a FixExample must be rewritten to
exactly its ``after`` text, a NoFix must be reported by the rule and left
unchanged with a reason containing its ``reason``."""

from __future__ import annotations

import pytest

from cpn_lint import lint_source
from cpn_lint.fix.planner import FIXERS, fix_text
from cpn_lint.registry import FixExample, NoFix
from cpn_lint.rules import load_rules

RULES = load_rules()


def _cases(kind: type) -> list[object]:
    return [
        pytest.param(code, example, id=f"{code}-{kind.__name__}-{i}")
        for code, rule in RULES.items()
        for i, example in enumerate(rule.fix_examples)
        if isinstance(example, kind)
    ]


@pytest.mark.parametrize(("code", "example"), _cases(FixExample))
def test_fix_example_is_rewritten_exactly(code: str, example: FixExample) -> None:
    assert any(f.code == code for f in lint_source(example.before, codes=[code])), f"{code} does not fire"
    result = fix_text(example.before, "<example>", frozenset({code}))
    assert result.fixed == example.after, [r.reason for r in result.left]
    assert result.applied and all(a.code == code for a in result.applied)
    assert not any(f.code == code for f in lint_source(result.fixed, codes=[code])), "the finding survived its fix"


@pytest.mark.parametrize(("code", "example"), _cases(NoFix))
def test_no_fix_example_is_left_with_its_reason(code: str, example: NoFix) -> None:
    assert any(f.code == code for f in lint_source(example.source, codes=[code])), f"{code} does not fire"
    result = fix_text(example.source, "<example>", frozenset({code}))
    assert not result.changed
    reasons = [r.reason for r in result.left if r.finding.code == code]
    assert any(example.reason in reason for reason in reasons), reasons


@pytest.mark.parametrize("code", sorted(RULES))
def test_fixers_and_examples_agree(code: str) -> None:
    rule = RULES[code]
    if code in FIXERS:
        assert rule.fixable(), f"{code} has a fixer but no FixExample"
        assert sum(isinstance(e, NoFix) for e in rule.fix_examples) >= 2, f"{code} needs two NoFix examples"
        assert rule.fix_note, f"{code} needs a fix_note for its docs"
    else:
        assert not rule.fixable(), f"{code} has a FixExample but no fixer"
