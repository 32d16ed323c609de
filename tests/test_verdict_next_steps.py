"""The recommended next steps never contradict the body of the report
(issue 25 §4): checked on every project fixture and every program of the
labelled corpus (tests/corpus).

* a file the steps call clean ("which has nothing to fix") has no blocking,
  fixable, out-of-scope or program-stopping finding in the report;
* every recipe a step names exists, and every site a step cites is a site
  the report lists;
* every blocking, fixable and program-stopping site is in some step;
* a READY verdict asks for no re-assessment, and a Numba-compiled kernel
  has its own step, before the recipes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cpn_lint.registry import RECIPES
from cpn_lint.verdict.command import main

from .conftest import ROOT

STOPPING = {"CPN401", "CPN404"}
TARGETS = sorted(
    [p for p in (ROOT / "fixtures" / "projects").iterdir() if p.is_dir()]
    + [p for style in ("kernels", "scripts", "library", "notebooks")
       for p in (ROOT / "tests" / "corpus" / style).iterdir() if p.suffix in (".py", ".ipynb")]
)


def _report(target: Path, tmp_path: Path) -> dict:
    out = tmp_path / "report.json"
    status = main([str(target.relative_to(ROOT)), "--isolated", "--format", "json", "-o", str(out)])
    assert status in (0, 2), status
    return json.loads(out.read_text())


def _sites(report: dict) -> tuple[list[dict], list[dict]]:
    """(sites every step must cover, every site a step may cite)."""
    sections = report["sections"]
    blocks = sections["what_blocks"]["items"] + sections["what_blocks"]["runtime_only"]
    fixable = [i for g in sections["whats_fixable"]["groups"] for i in g["items"]]
    stopping = [i for i in sections["api_support_gaps"]["items"] if i["code"] in STOPPING]
    others = sections["what_blocks"]["out_of_scope"] + sections["api_support_gaps"]["items"]
    return blocks + fixable + stopping, blocks + fixable + others


@pytest.mark.parametrize("target", TARGETS, ids=lambda p: p.name)
def test_next_steps_agree_with_the_report(target: Path, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    report = _report(target, tmp_path)
    if report["verdict"] is None:
        return
    steps = report["sections"]["next_steps"]["steps"]
    must, may = _sites(report)
    listed = {i["location"]["citation"] for i in may}
    problems = {i["location"]["path"] for i in must + report["sections"]["what_blocks"]["out_of_scope"]}
    cited: set[str] = set()
    for step in steps:
        recipe = re.match(r"Apply (RR-[\w-]+)$", step["title"])
        if recipe:
            assert recipe.group(1) in RECIPES, step["title"]
        cited |= set(step["citations"])
        if step["title"].startswith("Let `cpn-lint fix`") or step["title"].startswith("Keep NumPy"):
            continue  # fixable lines (the fixer's own list) and Gate 2 size evidence
        for citation in step["citations"]:
            assert citation in listed, f"{step['title']}: {citation} is not a site of the report"
        clean = re.search(r" in (\S+), which has nothing to fix", step["detail"])
        if clean:
            assert clean.group(1) not in problems, f"{clean.group(1)} is called clean but has findings"
        dirty = re.search(r" in (\S+), the module with the fewest findings", step["detail"])
        if dirty:
            assert dirty.group(1) in problems, f"{dirty.group(1)} has nothing to fix"
    if report["decision"]["rule"] not in ("gate4-pattern", "gate2-size"):
        missing = {i["location"]["citation"] for i in must} - cited
        assert not missing, f"sites no step names: {sorted(missing)[:5]}"
    titles = [s["title"] for s in steps]
    if report["verdict"] == "READY":
        assert "Re-assess" not in titles
    if any(i["code"] == "CPN112" for i in must):
        kernel = titles.index("Rewrite the Numba-compiled kernels, or keep them on the host")
        assert all(kernel < i for i, t in enumerate(titles) if t.startswith("Apply "))
