"""The labelled regression corpus (tests/corpus): precision and recall of every
default-on code may not drop below the floors in tests/corpus/floors.json.

The whole corpus is scored in process with ``benchmarks.trial`` (under a
second), so this runs in the fast tier. When a floor fails, the message names
the code, the scope (whole corpus or one style) and the sites behind it: the
misses for recall, the false alarms for precision. Floors only move up:
after an improvement, raise them with
``python -m benchmarks.trial tests/corpus --floors tests/corpus/floors.json --raise-floors``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from benchmarks import trial

CORPUS = Path(__file__).resolve().parent / "corpus"
FLOORS = CORPUS / "floors.json"
STYLES = ("kernels", "scripts", "library", "notebooks")
CODE = re.compile(r"^CPN\d{3}$")


@pytest.fixture(scope="module")
def scored() -> tuple[dict[str, trial.Tally], list[trial.ProgramResult]]:
    return trial.score(CORPUS)


def _labels() -> list[tuple[Path, dict]]:
    return [(p, json.loads(p.read_text(encoding="utf-8"))) for p in sorted((CORPUS / "labels").glob("*.json"))]


def test_no_code_drops_below_its_floor(scored) -> None:
    tallies, results = scored
    floors = json.loads(FLOORS.read_text(encoding="utf-8"))
    failures = trial.check_floors(floors, tallies, results)
    assert not failures, "precision/recall below the floor in tests/corpus/floors.json:\n" + "\n".join(failures)


def test_every_program_is_read_without_input_problems(scored) -> None:
    _, results = scored
    problems = [p for r in results for p in r.problems]
    assert not problems, problems


def test_floors_name_known_codes_and_styles() -> None:
    floors = json.loads(FLOORS.read_text(encoding="utf-8"))
    scopes = [floors] + list(floors.get("by_style", {}).values())
    assert set(floors.get("by_style", {})) <= set(STYLES)
    for scope in scopes:
        for code, limits in scope.items():
            if code == "by_style":
                continue
            assert code in trial.DEFAULT_CODES, code
            assert set(limits) <= {"recall", "precision"}, (code, limits)
            assert all(0.0 <= v <= 1.0 for v in limits.values()), (code, limits)


def test_labels_are_well_formed() -> None:
    labels = _labels()
    assert labels, "no labels in tests/corpus/labels"
    names: dict[str, str] = {}
    for path, label in labels:
        where = path.name
        assert label["program"] == path.stem, where
        assert label["set"] in STYLES, (where, label["set"])
        assert label["program"] not in names, f"{label['program']} is in both {names.get(label['program'])} and {label['set']}"
        names[label["program"]] = label["set"]
        program = trial.program_path(CORPUS, label)
        notebook = program.suffix == ".ipynb"
        assert notebook == (label["set"] == "notebooks"), where
        lines = _program_lines(program)
        seen: set[tuple[object, str, str]] = set()
        for entry in label["findings"]:
            assert CODE.match(entry["code"]), (where, entry)
            assert entry.get("confidence", "sure") in ("sure", "debatable"), (where, entry)
            assert entry.get("reason"), (where, entry)
            line = trial.label_line(entry["line"])
            assert lines.get(line, "").strip(), f"{where}: {entry['code']} at {line!r}, an empty or missing line"
            key = (line, entry["code"], "finding")
            assert key not in seen, f"{where}: {entry['code']} at {line!r} is labelled twice"
            seen.add(key)
        for entry in label.get("quiet", []):
            assert CODE.match(entry["not"]), (where, entry)
            assert entry.get("reason"), (where, entry)
            line = trial.label_line(entry["line"])
            assert lines.get(line, "").strip(), f"{where}: quiet {entry['not']} at {line!r}, an empty or missing line"


def _program_lines(program: Path) -> dict[object, str]:
    """Line key -> text: ints for a .py file, "cell:line" for a notebook."""
    if program.suffix != ".ipynb":
        return dict(enumerate(program.read_text(encoding="utf-8").splitlines(), start=1))
    from cpn_lint.verdict.collect import notebook_cells

    out: dict[object, str] = {}
    for number, (_, source) in enumerate(notebook_cells(program.read_bytes()), start=1):
        for i, text in enumerate(source.splitlines(), start=1):
            out[f"{number}:{i}"] = text
    return out


def test_a_sure_label_and_a_quiet_trap_never_name_the_same_code_on_one_line() -> None:
    for path, label in _labels():
        sure = {(trial.label_line(e["line"]), e["code"]) for e in label["findings"]}
        quiet = {(trial.label_line(e["line"]), e["not"]) for e in label.get("quiet", [])}
        assert not sure & quiet, (path.name, sorted(sure & quiet, key=str))


# ------------------------------------------------------------ the scorer itself
def _tiny_corpus(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "labels").mkdir()
    (tmp_path / "scripts" / "loop.py").write_text(
        "import numpy as np\n"
        "a = np.ones(100)\n"
        "b = np.empty(100)\n"
        "for i in range(100):\n"
        "    b[i] = a[i] * 2.0\n",
        encoding="utf-8",
    )
    notebook = {
        "nbformat": 4, "nbformat_minor": 5, "metadata": {},
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# a title\n"]},
            {"cell_type": "code", "metadata": {}, "source": ["import numpy as np\n", "a = np.arange(10)\n"],
             "outputs": [], "execution_count": None},
            {"cell_type": "code", "metadata": {}, "source": ["%matplotlib inline\n", "evens = a[::2]\n"],
             "outputs": [], "execution_count": None},
        ],
    }
    (tmp_path / "notebooks" / "nb.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    (tmp_path / "labels" / "loop.json").write_text(json.dumps({
        "program": "loop", "set": "scripts", "verdict": "LIGHT REFACTOR",
        "findings": [{"line": 4, "code": "CPN101", "reason": "element loop", "confidence": "sure"},
                     {"line": 2, "code": "CPN201", "reason": "made up, to be missed", "confidence": "sure"}],
        "quiet": []}), encoding="utf-8")
    (tmp_path / "labels" / "nb.json").write_text(json.dumps({
        "program": "nb", "set": "notebooks", "verdict": "LIGHT REFACTOR",
        "findings": [{"line": "cell 3:line 2", "code": "CPN106", "reason": "stepped slice", "confidence": "sure"}],
        "quiet": []}), encoding="utf-8")
    return tmp_path


def test_scorer_reads_notebooks_by_cell_and_line_and_any_set_name(tmp_path: Path) -> None:
    corpus = _tiny_corpus(tmp_path)
    tallies, results = trial.score(corpus)
    assert trial.sets_in(corpus) == ["notebooks", "scripts"]
    assert tallies["CPN106"].true == 1 and tallies["CPN106"].false == 0
    assert tallies["CPN101"].true == 1
    assert tallies["CPN201"].missed == 1
    per_set = trial.by_set(results)
    assert per_set["notebooks"]["CPN106"].true == 1
    assert per_set["scripts"]["CPN106"].empty()
    only, _ = trial.score(corpus, "notebooks")
    assert only["CPN101"].empty()


def test_floor_failure_names_the_code_the_scope_and_the_lost_sites(tmp_path: Path) -> None:
    corpus = _tiny_corpus(tmp_path)
    tallies, results = trial.score(corpus)
    floors = {"CPN201": {"recall": 0.5}, "CPN101": {"recall": 1.0, "precision": 1.0},
              "by_style": {"scripts": {"CPN201": {"recall": 0.5}}}}
    failures = trial.check_floors(floors, tallies, results)
    assert len(failures) == 2
    assert failures[0].startswith("CPN201 recall 0.00 < floor 0.50 (whole corpus)")
    assert "MISSED loop:2 CPN201" in failures[0]
    assert "(style scripts)" in failures[1]


def test_floors_only_move_up() -> None:
    old = {"CPN101": {"recall": 0.5, "precision": 0.9}, "by_style": {"kernels": {"CPN101": {"recall": 0.4}}}}
    new = {"CPN101": {"recall": 0.6, "precision": 0.8}, "CPN102": {"recall": 1.0},
           "by_style": {"kernels": {"CPN101": {"recall": 0.3}}, "library": {"CPN102": {"precision": 1.0}}}}
    merged = trial.raise_floors(old, new)
    assert merged["CPN101"] == {"recall": 0.6, "precision": 0.9}
    assert merged["CPN102"] == {"recall": 1.0}
    assert merged["by_style"]["kernels"]["CPN101"] == {"recall": 0.4}
    assert merged["by_style"]["library"]["CPN102"] == {"precision": 1.0}
    assert trial.measured({"CPN101": trial.Tally(true=2, missed=1)}) == {"CPN101": {"recall": 0.66, "precision": 1.0}}


def test_cli_prints_per_style_tables_and_checks_floors(tmp_path: Path, capsys) -> None:
    corpus = _tiny_corpus(tmp_path)
    floors = tmp_path / "floors.json"
    floors.write_text(json.dumps({"CPN201": {"recall": 0.5}}), encoding="utf-8")
    assert trial.main([str(corpus), "--by-style", "--floors", str(floors)]) == 1
    out = capsys.readouterr()
    assert "| notebooks | 1 |" in out.out and "### scripts" in out.out
    assert "CPN201 recall 0.00 < floor 0.50" in out.err
    assert trial.main([str(corpus), "--set", "notebooks"]) == 0
    with pytest.raises(SystemExit):
        trial.main([str(corpus), "--set", "holdout"])
