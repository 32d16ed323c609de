"""Golden reports for the project fixtures, and the tier each one reaches.

The golden files under ``tests/data/verdict/`` are the Markdown reports of
``cpn-verdict fixtures/projects/NAME --isolated``. When a rule is added or a
message changes they change too: regenerate them with

    CPN_REGEN_GOLDEN=1 python -m pytest tests/test_verdict_golden.py

and review the diff like code.
"""

from __future__ import annotations

import os

import pytest

from cpn_lint.rules import load_rules

from .conftest import ROOT, expected_findings
from .verdict_helpers import dated_lines_removed, run_verdict

GOLDEN = ROOT / "tests" / "data" / "verdict"
PROJECTS = ROOT / "fixtures" / "projects"
HEADINGS = [
    "## 1. Verdict", "## 2. What works", "## 3. What blocks", "## 4. What's fixable",
    "## 5. Compatibility / cost notes", "## 6. API support gaps", "## 7. Decision-framework summary",
    "## 8. Recommended next steps",
]
# project -> (verdict on its own, codes that must be registered for it)
TIERS = {
    "heat_stencil": ("READY", ()),
    "particle_relax": ("LIGHT REFACTOR", ("CPN104", "CPN201")),
    "mpi_halo": ("SIGNIFICANT REFACTOR", ("CPN108",)),
    "text_classifier": ("NOT RECOMMENDED", ("CPN410",)),
    # the code's own sizes never fail Gate 2 (SPEC §4): uncertain, and one line in the verdict section
    "tiny_orbits": ("READY", ()),
    "notebook_demo": ("LIGHT REFACTOR", ("CPN104",)),
}


def _report(name: str) -> str:
    proc = run_verdict(f"fixtures/projects/{name}", "--isolated", cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout




def test_every_project_fixture_has_a_tier():
    assert sorted(p.name for p in PROJECTS.iterdir() if p.is_dir()) == sorted(TIERS)


def test_every_tier_is_reached_by_some_project():
    assert {tier for tier, _ in TIERS.values()} == {"READY", "LIGHT REFACTOR", "SIGNIFICANT REFACTOR", "NOT RECOMMENDED"}


@pytest.mark.parametrize("name", sorted(TIERS))
def test_project_reaches_its_tier(name):
    tier, needs = TIERS[name]
    missing = [code for code in needs if code not in load_rules()]
    if missing:
        pytest.skip(f"needs {', '.join(missing)}, not registered yet")
    report = _report(name)
    assert f"# cuPyNumeric migration readiness: {tier}\n" in report
    assert f"**{tier}**" in report.split("## 1. Verdict")[1].split("## 2.")[0]


@pytest.mark.parametrize("name", sorted(TIERS))
def test_project_report_has_every_heading_and_cites_every_expected_line(name):
    report = _report(name)
    positions = [report.index(h) for h in HEADINGS]
    assert positions == sorted(positions)
    rules = load_rules()
    for path in sorted((PROJECTS / name).rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for line, code in expected_findings(path):
            if code in rules:
                assert f"`{rel}:{line}`" in report, f"{code} at {rel}:{line} is not cited"


@pytest.mark.parametrize("name", sorted(TIERS))
def test_project_report_matches_its_golden_file(name):
    report = dated_lines_removed(_report(name))
    golden = GOLDEN / f"{name}.md"
    if os.environ.get("CPN_REGEN_GOLDEN"):
        golden.write_text(report, encoding="utf-8")
    assert golden.exists(), f"no golden report; create it with CPN_REGEN_GOLDEN=1 pytest {__file__}"
    expected = golden.read_text(encoding="utf-8")
    assert report == expected, (
        f"{name}: the report differs from {golden.relative_to(ROOT)}; if the change is intended, regenerate with "
        "CPN_REGEN_GOLDEN=1 python -m pytest tests/test_verdict_golden.py and review the diff"
    )
