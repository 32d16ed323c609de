"""Precision and recall against a hand-labelled corpus (the real-world trial).

A labelled corpus is a folder of programs and a folder of label files, one
``<program>.json`` per program, written by reading the program — never from
cpn-lint's output::

    {"program": "nbody", "set": "dev", "verdict": "LIGHT REFACTOR",
     "findings": [{"line": 40, "code": "CPN101", "reason": "...", "confidence": "sure"}],
     "quiet":    [{"line": 88, "not": "CPN101", "reason": "time-step loop"}]}

A finding matches a label of the same code on the same line. "sure" labels
count for precision and recall; a finding on a "debatable" label counts for
neither; every other finding of a default-on code is a false alarm. The
programs are analysed in-process by whatever ``cpn_lint`` is importable, so
one run under ``PYTHONPATH=<another checkout>`` measures that version::

    python -m benchmarks.trial CORPUS [--set dev] [--json out.json] [--show-errors]

CORPUS holds one folder per set (``dev/``, ``holdout/``, ``kernels-look/`` ...)
and ``labels/``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_CODES = tuple(f"CPN{n}" for n in (*range(101, 112), *range(201, 207), 401, 404, 410))


@dataclass
class Tally:
    true: int = 0
    false: int = 0
    missed: int = 0
    debatable: int = 0

    @property
    def precision(self) -> float | None:
        reported = self.true + self.false
        return self.true / reported if reported else None

    @property
    def recall(self) -> float | None:
        expected = self.true + self.missed
        return self.true / expected if expected else None


@dataclass
class ProgramResult:
    name: str
    set: str
    expected_verdict: str
    errors: list[str] = field(default_factory=list)  # false alarms and misses, for reading


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def score(corpus: Path, only_set: str | None = None) -> tuple[dict[str, Tally], list[ProgramResult]]:
    from cpn_lint.engine import LintOptions, analyze_source

    options = LintOptions(assessment=False)
    tallies: dict[str, Tally] = {code: Tally() for code in DEFAULT_CODES}
    results: list[ProgramResult] = []
    for label_path in sorted((corpus / "labels").glob("*.json")):
        label = json.loads(label_path.read_text(encoding="utf-8"))
        if only_set and label["set"] != only_set:
            continue
        program = corpus / label["set"] / f"{label['program']}.py"
        analysed = analyze_source(program.read_bytes(), str(program), options)
        found = {(f.line, f.code): f.message for f in analysed.findings if f.code in tallies}
        sure = {(e["line"], e["code"]) for e in label["findings"] if e.get("confidence", "sure") == "sure"}
        debatable = {(e["line"], e["code"]) for e in label["findings"] if e.get("confidence") == "debatable"}
        result = ProgramResult(label["program"], label["set"], label.get("verdict", ""))
        for key, message in sorted(found.items()):
            line, code = key
            if key in sure:
                tallies[code].true += 1
            elif key in debatable:
                tallies[code].debatable += 1
            else:
                tallies[code].false += 1
                result.errors.append(f"FALSE {label['program']}:{line} {code} {message[:140]}")
        for line, code in sorted(sure - set(found)):
            if code in tallies:
                tallies[code].missed += 1
                reason = next(e["reason"] for e in label["findings"] if e["line"] == line and e["code"] == code)
                result.errors.append(f"MISSED {label['program']}:{line} {code} ({reason[:100]})")
        results.append(result)
    return tallies, results


def table(tallies: dict[str, Tally]) -> str:
    rows = ["| code | true | false | missed | debatable | precision | recall |", "|---|---:|---:|---:|---:|---:|---:|"]
    total = Tally()
    for code, t in tallies.items():
        if not (t.true or t.false or t.missed or t.debatable):
            continue
        rows.append(f"| {code} | {t.true} | {t.false} | {t.missed} | {t.debatable} | {_percent(t.precision)} | {_percent(t.recall)} |")
        total.true += t.true
        total.false += t.false
        total.missed += t.missed
        total.debatable += t.debatable
    rows.append(
        f"| **all** | {total.true} | {total.false} | {total.missed} | {total.debatable} | "
        f"{_percent(total.precision)} | {_percent(total.recall)} |"
    )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.trial", description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, help="folder with dev/, holdout/ and labels/")
    parser.add_argument("--set", dest="only_set", choices=("dev", "holdout", "holdout2", "kernels-look"), help="score one set only")
    parser.add_argument("--json", type=Path, help="also write the tallies as JSON here")
    parser.add_argument("--show-errors", action="store_true", help="list every false alarm and miss")
    ns = parser.parse_args(argv)
    tallies, results = score(ns.corpus, ns.only_set)
    print(table(tallies))
    if ns.show_errors:
        for result in results:
            for line in result.errors:
                print(line)
    if ns.json:
        ns.json.write_text(json.dumps({c: vars(t) for c, t in tallies.items()}, indent=1), encoding="utf-8")
    counts = Counter(r.set for r in results)
    print(f"\n{sum(counts.values())} programs ({', '.join(f'{n} {s}' for s, n in sorted(counts.items()))})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
