"""Run the reference skill's evaluation suite through ``cpn-verdict`` and
compare each report with :mod:`.expectations`.

The suite is read where it lives (``../shared/reference/skill-evals`` from
the repository root, or ``$CPN_SKILL_EVALS``); nothing of it is copied into
the project. ``python -m tests.acceptance`` prints the score card.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cpn_lint.verdict.command import main as verdict_main

from .expectations import CASES, Expect, Site

ROOT = Path(__file__).resolve().parents[2]
ENV_PATH = "CPN_SKILL_EVALS"
ENV_REQUIRED = "CPN_ACCEPTANCE_REQUIRED"
ENV_STRICT = "CPN_ACCEPTANCE_STRICT"
DEFAULT_PATH = ROOT.parent / "shared" / "reference" / "skill-evals"


def suite_path() -> Path:
    return Path(os.environ.get(ENV_PATH) or DEFAULT_PATH)


def suite_missing() -> str | None:
    """Why the suite cannot be read, or None when it can."""
    path = suite_path()
    if not (path / "cases.json").is_file() or not (path / "files").is_dir():
        return (f"the reference skill's evaluation suite is not at {path} "
                f"(no cases.json or files/); set {ENV_PATH} to its folder")
    return None


def required() -> bool:
    return os.environ.get(ENV_REQUIRED) == "1"


def strict() -> bool:
    return os.environ.get(ENV_STRICT) == "1"


@dataclass(frozen=True)
class Case:
    id: str
    file: str
    args: tuple[str, ...]
    verdicts: frozenset[str]  # "A|B" in cases.json: either is right

    @property
    def program(self) -> Path:
        return suite_path() / "files" / self.file


def load_cases() -> list[Case]:
    raw = json.loads((suite_path() / "cases.json").read_text(encoding="utf-8"))
    return [Case(c["id"], c["file"], tuple(c.get("args", ())), frozenset(c["verdict"].split("|"))) for c in raw]


def load_evals() -> list[dict[str, Any]]:
    return json.loads((suite_path() / "evals.json").read_text(encoding="utf-8"))


# ----------------------------------------------------------------- the report
def run_report(case: Case) -> dict[str, Any]:
    """The JSON report of ``cpn-verdict PROGRAM ARGS --isolated`` (in process)."""
    with tempfile.TemporaryDirectory(prefix="cpn-acceptance-") as scratch:
        out = Path(scratch) / "report.json"
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            status = verdict_main([str(case.program), *case.args, "--isolated", "--format", "json", "--output", str(out)])
        if status != 0:
            raise RuntimeError(f"cpn-verdict exited {status} on {case.id}: {stderr.getvalue().strip()}")
        return json.loads(out.read_text(encoding="utf-8"))


def reported(report: dict[str, Any]) -> set[tuple[str, int]]:
    """Every (code, line) the report's sections cite."""
    sections = report["sections"]
    found: set[tuple[str, int]] = set()
    for group in sections["what_works"]["groups"]:
        for citation in group["sites"]:
            found.add((group["code"], int(citation.rsplit(":", 1)[1])))
    items = [
        *sections["what_blocks"]["items"], *sections["what_blocks"]["out_of_scope"],
        *sections["compatibility_notes"]["items"], *sections["api_support_gaps"]["items"],
        *(i for group in sections["whats_fixable"]["groups"] for i in group["items"]),
    ]
    found |= {(i["code"], int(i["location"]["line"])) for i in items if i.get("code")}
    return found


def gate_statuses(report: dict[str, Any]) -> dict[int, tuple[str, str]]:
    return {g["number"]: (g["status"], g["reason"]) for g in report["sections"]["decision_framework"]["gates"]}


# ----------------------------------------------------------------- comparison
def anchor_line(lines: list[str], site: Site) -> int | str:
    """The 1-based line the site's anchor locates, or why it locates none."""
    hits = [n for n, text in enumerate(lines, start=1) if site.anchor in text]
    if site.nth is None:
        if len(hits) == 1:
            return hits[0]
        return f"on lines {hits}: give nth" if hits else "not found (the suite changed?)"
    return hits[site.nth - 1] if len(hits) >= site.nth else f"on {len(hits)} lines, nth={site.nth} asked"


@dataclass
class Outcome:
    """One case's comparison: what failed, split by whether it is a known, owned class."""

    case: Case
    verdict: str = ""
    rule: str = ""
    mismatches: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)  # known mismatches: "what (owner)"
    stale: list[str] = field(default_factory=list)  # pending markers that now pass
    sites_found: int = 0
    sites_total: int = 0

    @property
    def verdict_agrees(self) -> bool:
        return self.verdict in self.case.verdicts


def compare(case: Case, expect: Expect, report: dict[str, Any]) -> Outcome:
    outcome = Outcome(case, report["verdict"], report["decision"]["rule"])
    lines = case.program.read_text(encoding="utf-8").splitlines()
    found = reported(report)

    def record(ok: bool, check: str, failure: str, pending: str | None) -> None:
        if pending is None:
            if not ok:
                outcome.mismatches.append(failure)
        elif ok:
            outcome.stale.append(f"{check} now passes: remove its pending marker ({pending})")
        else:
            outcome.pending.append(f"{failure} [pending: {pending}]")

    expected = " or ".join(sorted(case.verdicts))
    record(outcome.verdict_agrees, f"verdict {expected}", f"verdict {outcome.verdict} ({outcome.rule}), expected {expected}",
           expect.verdict_pending)
    for site in expect.required:
        outcome.sites_total += 1
        line = anchor_line(lines, site)
        if isinstance(line, str):
            outcome.mismatches.append(f"anchor {site.anchor!r} in {case.file} {line}")
            continue
        here = sorted(code for code, at in found if at == line)
        ok = any((code, line) in found for code in site.codes)
        outcome.sites_found += ok
        wanted = "/".join(site.codes)
        record(ok, f"{wanted} at {case.file}:{line}",
               f"{wanted} missing at {case.file}:{line} ({site.anchor!r}; reported there: {', '.join(here) or 'nothing'})",
               site.pending)
    for code, line in sorted(found):
        if code in expect.forbidden:
            outcome.mismatches.append(f"{code} reported at {case.file}:{line}, which the case says must not be flagged")
    gates = gate_statuses(report)
    for number, status in sorted(expect.gates.items()):
        got, reason = gates.get(number, ("absent", ""))
        if got != status:
            outcome.mismatches.append(f"Gate {number} is {got}, expected {status} ({reason[:140]})")
    context = {row["key"]: row["value"] for row in report["context"]}
    for key, text in sorted(expect.context.items()):
        if text not in context.get(key, ""):
            outcome.mismatches.append(f"context {key} is {context.get(key)!r}, expected it to say {text!r}")
    return outcome


def assess(case: Case) -> Outcome:
    return compare(case, CASES[case.id], run_report(case))


def score_card(outcomes: list[Outcome]) -> str:
    agree = sum(o.verdict_agrees for o in outcomes)
    found = sum(o.sites_found for o in outcomes)
    total = sum(o.sites_total for o in outcomes)
    clean = sum(not (o.mismatches or o.pending or o.stale) for o in outcomes)
    out = [f"verdicts {agree}/{len(outcomes)}; required sites {found}/{total}; cases with nothing open {clean}/{len(outcomes)}"]
    for o in outcomes:
        mark = "ok " if o.verdict_agrees else "NO "
        out.append(f"{mark} {o.case.id:16} {o.verdict:22} ({o.rule}) sites {o.sites_found}/{o.sites_total}")
        out += [f"      MISMATCH {m}" for m in o.mismatches]
        out += [f"      pending  {m}" for m in o.pending]
        out += [f"      stale    {m}" for m in o.stale]
    return "\n".join(out)
