"""Verdict agreement on a labelled trial set (issue 30's measure).

A trial folder holds one program per file (``.py`` or ``.ipynb``); its
labels file (``docs/trials/<look>/labels.json``, written before any
cpn-lint run) gives, per program, the verdict an expert would give, any
verdict that is also acceptable, and whether the program's core is
sequential. Every program is assessed on its own, in-process, by whatever
``cpn_lint`` is importable (so ``PYTHONPATH=<another checkout>`` measures
that version), at the default context::

    python -m benchmarks.verdict_trial TRIAL_DIR LABELS.json [--json out.json]

It prints one row per program and three figures: the verdicts that agree
with the label, those that agree with the label or an acceptable one, and
how many programs with a sequential core were called READY or LIGHT
REFACTOR (the expensive mistake: it should be none).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from .results_file import write_results

READY_OR_LIGHT = ("READY", "LIGHT REFACTOR")


@dataclass(frozen=True)
class Outcome:
    program: str
    style: str
    label: str
    acceptable: tuple[str, ...]
    sequential: bool
    verdict: str
    rule: str
    spec_label: str = ""  # the verdict SPEC §4 gives, read blind to the tool (when the labels have one)

    @property
    def agrees(self) -> bool:
        return self.verdict == self.label

    @property
    def acceptable_agrees(self) -> bool:
        return self.verdict == self.label or self.verdict in self.acceptable

    @property
    def spec_agrees(self) -> bool:
        return self.verdict == (self.spec_label or self.label)

    @property
    def sequential_missed(self) -> bool:
        return self.sequential and self.verdict in READY_OR_LIGHT


def assess(path: Path) -> tuple[str, str]:
    """(verdict, deciding rule) of one program at the default context."""
    from cpn_lint.verdict.command import main as verdict_main  # the checkout on the path

    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        verdict_main([str(path), "--format", "json"])
    data = json.loads(out.getvalue())
    decision = data.get("decision") or {}
    return str(data.get("verdict")), str(decision.get("rule", ""))


def run(trial: Path, labels_path: Path, sources_path: Path | None = None) -> list[Outcome]:
    labels = json.loads(labels_path.read_text(encoding="utf-8"))["programs"]
    styles: dict[str, str] = {}
    sources = sources_path or labels_path.with_name("sources.json")
    if sources.exists():
        styles = {f["program"]: f.get("style", "") for f in json.loads(sources.read_text(encoding="utf-8"))["files"]}
    outcomes = []
    for program, label in sorted(labels.items()):
        candidates = [trial / f"{program}.py", trial / f"{program}.ipynb"]
        path = next((c for c in candidates if c.exists()), None)
        if path is None:
            print(f"{program}: not in {trial}", file=sys.stderr)
            continue
        verdict, rule = assess(path)
        outcomes.append(Outcome(program, styles.get(program, ""), label["verdict"],
                                tuple(label.get("also_acceptable") or ()), bool(label.get("sequential_core")),
                                verdict, rule, str(label.get("spec_verdict") or "")))
    return outcomes


def summary(outcomes: list[Outcome]) -> dict[str, object]:
    n = len(outcomes)
    sequential = [o for o in outcomes if o.sequential]
    by_style: dict[str, list[int]] = {}
    for o in outcomes:
        row = by_style.setdefault(o.style or "?", [0, 0, 0])
        row[0] += o.agrees
        row[1] += o.acceptable_agrees
        row[2] += 1
    return {
        "programs": n,
        "agree": sum(o.agrees for o in outcomes),
        "agree_or_acceptable": sum(o.acceptable_agrees for o in outcomes),
        "agree_with_spec_verdict": sum(o.spec_agrees for o in outcomes),
        "sequential_cores": len(sequential),
        "sequential_called_ready_or_light": [o.program for o in sequential if o.sequential_missed],
        "by_style": {style: {"agree": a, "agree_or_acceptable": b, "programs": c} for style, (a, b, c) in sorted(by_style.items())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.verdict_trial", description=__doc__.splitlines()[0])
    parser.add_argument("trial", type=Path, help="folder of the trial's programs")
    parser.add_argument("labels", type=Path, help="labels.json written before any cpn-lint run")
    parser.add_argument("--json", type=Path, help="write the outcomes and the summary here")
    ns = parser.parse_args(argv)
    outcomes = run(ns.trial, ns.labels)
    width = max((len(o.program) for o in outcomes), default=10)
    for o in outcomes:
        mark = "=" if o.agrees else ("~" if o.acceptable_agrees else "x")
        seq = "seq" if o.sequential else "   "
        print(f"{mark} {o.program:<{width}} {o.style:<9} {seq} label {o.label:<21} got {o.verdict:<21} ({o.rule})")
    facts = summary(outcomes)
    n = facts["programs"] or 1
    print(f"\nagree {facts['agree']}/{facts['programs']} ({facts['agree'] / n:.0%}); "  # type: ignore[operator]
          f"agree or acceptable {facts['agree_or_acceptable']}/{facts['programs']} "
          f"({facts['agree_or_acceptable'] / n:.0%}); "  # type: ignore[operator]
          f"agree with the SPEC verdict {facts['agree_with_spec_verdict']}/{facts['programs']}; "
          f"sequential cores called READY/LIGHT: {len(facts['sequential_called_ready_or_light'])}"  # type: ignore[arg-type]
          f"/{facts['sequential_cores']} {facts['sequential_called_ready_or_light']}")
    if ns.json:
        write_results(ns.json, json.dumps({"outcomes": [asdict(o) for o in outcomes], "summary": facts}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
