"""The acceptance tier (SPEC §4): the reference skill's own evaluation suite.

For every case of ``../shared/reference/skill-evals/cases.json`` (or
``$CPN_SKILL_EVALS``): ``cpn-verdict`` with the case's context gives the
case's verdict, reports every code :mod:`.expectations` requires at the
line its anchor locates, reports none of the codes it forbids, and shows the
gate statuses the case states. Each case's test lists all of its
mismatches, not the first.

Without the suite the tier skips, unless ``CPN_ACCEPTANCE_REQUIRED=1``
(``.ci/run`` sets it when the folder is there): then it fails. A known,
owned mismatch (``pending`` in the expectations) is an expected failure
naming its owner, a failure once it passes (drop the marker), and a failure
like any other with ``CPN_ACCEPTANCE_STRICT=1``.
"""

from __future__ import annotations

import re

import pytest

from . import suite
from .expectations import CASES

pytestmark = pytest.mark.acceptance


def _case_ids() -> list[str]:
    if suite.suite_missing():
        return sorted(CASES)
    return [case.id for case in suite.load_cases()]


@pytest.fixture(scope="module")
def cases() -> dict[str, suite.Case]:
    missing = suite.suite_missing()
    if missing:
        if suite.required():
            pytest.fail(f"{missing}; {suite.ENV_REQUIRED}=1 says it must be there")
        pytest.skip(missing)
    return {case.id: case for case in suite.load_cases()}


def test_every_case_has_expectations_and_every_expectation_a_case(cases):
    assert sorted(cases) == sorted(CASES), "cases.json and tests/acceptance/expectations.py list different cases"


def test_every_program_question_of_the_suite_is_a_case(cases):
    """evals.json entries that hand over a program are the cases of cases.json
    (the others ask no verdict: a manifest question, requests out of scope)."""
    with_program = {e["id"] for e in suite.load_evals() if re.search(r"evals/files/\w+\.py", e["question"])}
    unmatched = sorted(i for i in with_program if not any(i == c or i.startswith(c + "-") for c in cases))
    assert not unmatched, f"evals.json cases with a program but no cases.json entry: {unmatched}"


@pytest.mark.parametrize("case_id", _case_ids())
def test_case(cases, case_id):
    outcome = suite.assess(cases[case_id])
    failures = list(outcome.mismatches) + list(outcome.stale)
    if suite.strict():
        failures += outcome.pending
    if failures:
        pytest.fail(f"{case_id}: {len(failures)} mismatch(es)\n  " + "\n  ".join(failures + (
            [] if suite.strict() else [f"(also pending) {p}" for p in outcome.pending])), pytrace=False)
    if outcome.pending:
        pytest.xfail("; ".join(outcome.pending))
