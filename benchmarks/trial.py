"""Precision and recall against a hand-labelled corpus (the real-world trial).

A labelled corpus is a folder of programs, one sub-folder per set (or style),
and a folder of label files, one ``<program>.json`` per program, written by
reading the program — never from cpn-lint's output::

    {"program": "nbody", "set": "dev", "verdict": "LIGHT REFACTOR",
     "findings": [{"line": 40, "code": "CPN101", "reason": "...", "confidence": "sure"}],
     "quiet":    [{"line": 88, "not": "CPN101", "reason": "time-step loop"}]}

The program is ``<set>/<program>.py`` or, for a notebook,
``<set>/<program>.ipynb``. A notebook's lines are labelled as the engine cites
them, ``"cell:line"`` strings (``"4:2"`` is line 2 of cell 4, cells counted
from 1 over every cell of the notebook, markdown included); ``"cell 4:line 2"``
is read the same way.

A finding matches a label of the same code on the same line. "sure" labels
count for precision and recall; a finding on a "debatable" label counts for
neither; every other finding of a default-on code is a false alarm. "quiet"
entries document traps and are not scored separately: a finding there is a
false alarm like any other. The programs are analysed in-process by whatever
``cpn_lint`` is importable, so one run under ``PYTHONPATH=<another checkout>``
measures that version::

    python -m benchmarks.trial CORPUS [--set NAME] [--by-style] [--json out.json]
                                      [--show-errors] [--floors FLOORS.json] [--raise-floors]

CORPUS holds one folder per set (``dev/`` and ``holdout/`` for the external
trial; ``kernels/``, ``scripts/``, ``library/``, ``notebooks/`` for the
in-repo regression corpus ``tests/corpus``) and ``labels/``. ``--floors``
checks every code's precision and recall, over the whole corpus and per set,
against the floors in the file (exit 1 and a list of the lost sites when one
drops); ``--raise-floors`` writes today's values into that file wherever they
are higher (floors never move down).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .results_file import write_results

DEFAULT_CODES = tuple(f"CPN{n}" for n in (*range(101, 113), *range(201, 207), 401, 404, 410))
PROGRAM_SUFFIXES = (".py", ".ipynb")
_NOTEBOOK_LINE = re.compile(r"^\s*(?:cell\s*)?(\d+)\s*:\s*(?:line\s*)?(\d+)\s*$")

Line = int | str  # a .py line, or "cell:line" in a notebook


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

    def add(self, other: "Tally") -> None:
        self.true += other.true
        self.false += other.false
        self.missed += other.missed
        self.debatable += other.debatable

    def empty(self) -> bool:
        return not (self.true or self.false or self.missed or self.debatable)


@dataclass
class Site:
    """One false alarm or miss, for reading and for the floor check."""

    program: str
    set: str
    line: Line
    code: str
    kind: str  # "FALSE" or "MISSED"
    text: str  # the finding's message, or the label's reason

    def __str__(self) -> str:
        return f"{self.kind} {self.program}:{self.line} {self.code} {self.text}"


@dataclass
class ProgramResult:
    name: str
    set: str
    expected_verdict: str
    errors: list[str] = field(default_factory=list)  # false alarms and misses, for reading
    sites: list[Site] = field(default_factory=list)
    tallies: dict[str, Tally] = field(default_factory=lambda: {code: Tally() for code in DEFAULT_CODES})
    problems: list[str] = field(default_factory=list)  # input problems (a cell that does not parse)


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def label_line(value: object) -> Line:
    """A label's line: an int for a .py file, ``"cell:line"`` for a notebook."""
    if isinstance(value, bool):
        raise ValueError(f"not a line: {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        match = _NOTEBOOK_LINE.match(value)
        if match:
            return f"{int(match.group(1))}:{int(match.group(2))}"
        if value.strip().isdigit():
            return int(value)
    raise ValueError(f"not a line: {value!r} (an int, or 'cell:line' in a notebook)")


def program_path(corpus: Path, label: dict) -> Path:
    """``<set>/<program>.py`` or ``<set>/<program>.ipynb``."""
    for suffix in PROGRAM_SUFFIXES:
        path = corpus / label["set"] / f"{label['program']}{suffix}"
        if path.exists():
            return path
    raise FileNotFoundError(f"no program for label {label['program']!r} in {corpus / label['set']}")


def findings_of(path: Path, options) -> tuple[dict[tuple[Line, str], str], list[str]]:  # type: ignore[no-untyped-def]
    """(line, code) -> message of every finding of ``path``, with a notebook's
    lines as ``"cell:line"``; and the input problems the engine reported."""
    raw = path.read_bytes()
    if path.suffix == ".ipynb":
        from cpn_lint.verdict.collect import assess_notebook

        unit = assess_notebook(str(path), raw, options)
        cells = unit.cells or []
        found: dict[tuple[Line, str], str] = {}
        for f in unit.result.findings:
            cell, line = cells[f.line - 1] if 0 < f.line <= len(cells) else (0, f.line)
            found[(f"{cell}:{line}", f.code)] = f.message
        return found, list(unit.errors)
    from cpn_lint.engine import analyze_source

    result = analyze_source(raw, str(path), options)
    problems = [f"{path}: {result.error}"] if result.error else []
    return {(f.line, f.code): f.message for f in result.findings}, problems


def sets_in(corpus: Path) -> list[str]:
    """The set names the labels use, in sorted order."""
    names = {json.loads(p.read_text(encoding="utf-8"))["set"] for p in (corpus / "labels").glob("*.json")}
    return sorted(names)


def score(corpus: Path, only_set: str | None = None) -> tuple[dict[str, Tally], list[ProgramResult]]:
    from cpn_lint.engine import LintOptions

    options = LintOptions(assessment=False)
    tallies: dict[str, Tally] = {code: Tally() for code in DEFAULT_CODES}
    results: list[ProgramResult] = []
    for label_path in sorted((corpus / "labels").glob("*.json")):
        label = json.loads(label_path.read_text(encoding="utf-8"))
        if only_set and label["set"] != only_set:
            continue
        found, problems = findings_of(program_path(corpus, label), options)
        found = {key: message for key, message in found.items() if key[1] in tallies}
        entries = [(label_line(e["line"]), e) for e in label["findings"]]
        sure = {(line, e["code"]): e["reason"] for line, e in entries if e.get("confidence", "sure") == "sure"}
        debatable = {(line, e["code"]) for line, e in entries if e.get("confidence") == "debatable"}
        result = ProgramResult(label["program"], label["set"], label.get("verdict", ""), problems=problems)
        for key, message in sorted(found.items(), key=lambda item: _site_order(item[0])):
            line, code = key
            if key in sure:
                result.tallies[code].true += 1
            elif key in debatable:
                result.tallies[code].debatable += 1
            else:
                result.tallies[code].false += 1
                result.sites.append(Site(result.name, result.set, line, code, "FALSE", message[:140]))
        for key in sorted(set(sure) - set(found), key=_site_order):
            line, code = key
            if code in tallies:
                result.tallies[code].missed += 1
                result.sites.append(Site(result.name, result.set, line, code, "MISSED", f"({sure[key][:100]})"))
        result.errors = [str(site) for site in result.sites]
        for code, tally in result.tallies.items():
            tallies[code].add(tally)
        results.append(result)
    return tallies, results


def _site_order(key: tuple[Line, str]) -> tuple:
    line, code = key
    if isinstance(line, int):
        return (0, line, 0, code)
    cell, _, within = line.partition(":")
    return (1, int(cell), int(within), code)


def by_set(results: list[ProgramResult]) -> dict[str, dict[str, Tally]]:
    """Per-code tallies of each set."""
    out: dict[str, dict[str, Tally]] = {}
    for result in results:
        per_code = out.setdefault(result.set, {code: Tally() for code in DEFAULT_CODES})
        for code, tally in result.tallies.items():
            per_code[code].add(tally)
    return dict(sorted(out.items()))


def _total(tallies: dict[str, Tally]) -> Tally:
    total = Tally()
    for tally in tallies.values():
        total.add(tally)
    return total


def table(tallies: dict[str, Tally]) -> str:
    rows = ["| code | true | false | missed | debatable | precision | recall |", "|---|---:|---:|---:|---:|---:|---:|"]
    for code, t in tallies.items():
        if t.empty():
            continue
        rows.append(f"| {code} | {t.true} | {t.false} | {t.missed} | {t.debatable} | {_percent(t.precision)} | {_percent(t.recall)} |")
    total = _total(tallies)
    rows.append(
        f"| **all** | {total.true} | {total.false} | {total.missed} | {total.debatable} | "
        f"{_percent(total.precision)} | {_percent(total.recall)} |"
    )
    return "\n".join(rows)


def style_table(results: list[ProgramResult]) -> str:
    """One row per set: programs and the totals over every default-on code."""
    rows = ["| set | programs | true | false | missed | debatable | precision | recall |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    counts = Counter(r.set for r in results)
    for name, per_code in by_set(results).items():
        t = _total(per_code)
        rows.append(f"| {name} | {counts[name]} | {t.true} | {t.false} | {t.missed} | {t.debatable} | "
                    f"{_percent(t.precision)} | {_percent(t.recall)} |")
    return "\n".join(rows)


def style_matrix(results: list[ProgramResult]) -> str:
    """Precision / recall of every code (rows) in every set (columns)."""
    sets = by_set(results)
    names = list(sets)
    rows = ["| code | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for code in DEFAULT_CODES:
        cells = []
        for name in names:
            t = sets[name][code]
            cells.append("" if t.empty() else f"{_percent(t.precision)} / {_percent(t.recall)}")
        if any(cells):
            rows.append(f"| {code} | " + " | ".join(cells) + " |")
    return "precision / recall\n\n" + "\n".join(rows)


# ------------------------------------------------------------------ floors
def _floor2(value: float) -> float:
    """Rounded down to two decimals (a measured 0.666 gives a floor of 0.66)."""
    return math.floor(value * 100 + 1e-9) / 100


def measured(tallies: dict[str, Tally]) -> dict[str, dict[str, float]]:
    """{code: {"recall": r, "precision": p}} rounded down, for codes with a value."""
    out: dict[str, dict[str, float]] = {}
    for code, t in tallies.items():
        values = {name: _floor2(v) for name, v in (("recall", t.recall), ("precision", t.precision)) if v is not None}
        if values:
            out[code] = values
    return out


def current_floors(tallies: dict[str, Tally], results: list[ProgramResult]) -> dict:
    """Today's values in the floors file's layout."""
    floors: dict = dict(measured(tallies))
    floors["by_style"] = {name: measured(per_code) for name, per_code in by_set(results).items()}
    return floors


def raise_floors(old: dict, new: dict) -> dict:
    """``old`` with every value raised to ``new`` where higher; never lowered."""
    merged: dict = json.loads(json.dumps(old))
    for key, value in new.items():
        if key == "by_style":
            styles = merged.setdefault("by_style", {})
            for name, codes in value.items():
                styles[name] = raise_floors(styles.get(name, {}), codes)
            continue
        target = merged.setdefault(key, {})
        for metric, number in value.items():
            target[metric] = max(target.get(metric, 0.0), number)
    return merged


def check_floors(floors: dict, tallies: dict[str, Tally], results: list[ProgramResult]) -> list[str]:
    """One message per code (and set) whose recall or precision is below its
    floor, listing the sites behind it: the misses for recall, the false
    alarms for precision. An empty list means every floor holds."""
    failures: list[str] = []
    scopes: list[tuple[str | None, dict[str, dict[str, float]], dict[str, Tally]]] = [
        (None, {k: v for k, v in floors.items() if k != "by_style"}, tallies)]
    sets = by_set(results)
    for name, codes in floors.get("by_style", {}).items():
        scopes.append((name, codes, sets.get(name, {code: Tally() for code in DEFAULT_CODES})))
    for scope, codes, scope_tallies in scopes:
        for code, limits in codes.items():
            t = scope_tallies.get(code, Tally())
            for metric, floor in limits.items():
                value = t.recall if metric == "recall" else t.precision
                if metric == "precision" and value is None and t.false == 0:
                    continue  # nothing reported: no false alarm either
                if value is not None and value + 1e-9 >= floor:
                    continue
                kind = "MISSED" if metric == "recall" else "FALSE"
                sites = [s for r in results for s in r.sites
                         if s.code == code and s.kind == kind and (scope is None or s.set == scope)]
                where = "whole corpus" if scope is None else f"style {scope}"
                shown = "no sure labels left" if value is None else f"{value:.2f}"
                lines = [f"{code} {metric} {shown} < floor {floor:.2f} ({where}); "
                         f"{'misses' if kind == 'MISSED' else 'false alarms'} now:"]
                lines.extend(f"    {site}" for site in sites)
                failures.append("\n".join(lines))
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.trial", description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, help="folder with one sub-folder per set and labels/")
    parser.add_argument("--set", dest="only_set", help="score one set only (any set the labels name)")
    parser.add_argument("--by-style", action="store_true", help="also print per-set tables")
    parser.add_argument("--json", type=Path, help="also write the tallies as JSON here")
    parser.add_argument("--show-errors", action="store_true", help="list every false alarm and miss")
    parser.add_argument("--floors", type=Path, help="check precision and recall against this floors file")
    parser.add_argument("--raise-floors", action="store_true", help="raise the --floors file to today's values")
    ns = parser.parse_args(argv)
    names = sets_in(ns.corpus)
    if ns.only_set and ns.only_set not in names:
        parser.error(f"no set {ns.only_set!r} in {ns.corpus} (sets: {', '.join(names) or 'none'})")
    if ns.raise_floors and not ns.floors:
        parser.error("--raise-floors needs --floors FILE")
    tallies, results = score(ns.corpus, ns.only_set)
    print(table(tallies))
    if ns.by_style:
        print()
        print(style_table(results))
        print()
        print(style_matrix(results))
        for name, per_code in by_set(results).items():
            print(f"\n### {name}\n")
            print(table(per_code))
    if ns.show_errors:
        for result in results:
            for line in result.errors:
                print(line)
    for result in results:
        for problem in result.problems:
            print(f"input problem: {problem}", file=sys.stderr)
    if ns.json:
        data: dict = {c: vars(t) for c, t in tallies.items()}
        data["by_set"] = {name: {c: vars(t) for c, t in per_code.items()} for name, per_code in by_set(results).items()}
        write_results(ns.json, json.dumps(data, indent=1))
    counts = Counter(r.set for r in results)
    print(f"\n{sum(counts.values())} programs ({', '.join(f'{n} {s}' for s, n in sorted(counts.items()))})", file=sys.stderr)
    status = 0
    if ns.floors:
        floors = json.loads(ns.floors.read_text(encoding="utf-8")) if ns.floors.exists() else {}
        if ns.raise_floors:
            floors = raise_floors(floors, current_floors(tallies, results))
            write_results(ns.floors, json.dumps(floors, indent=1, sort_keys=True) + "\n")
            print(f"floors written to {ns.floors}", file=sys.stderr)
        failures = check_floors(floors, tallies, results)
        for failure in failures:
            print(failure, file=sys.stderr)
        status = 1 if failures else 0
    return status


if __name__ == "__main__":
    raise SystemExit(main())
