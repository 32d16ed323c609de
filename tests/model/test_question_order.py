"""Answers of the model do not depend on the order in which rules ask.

Every rule asks the one shared model its own questions, in its own order;
a value's kind and shape, a loop's work and role must come out the same
whichever question comes first, and so must every code's findings whichever
other codes run, and in whichever order (issue 23, "One answer per
question"). Checked on every bundled program: the fixtures, the model's
script programs, the verdict examples and the labelled corpus
(``tests/corpus``, picked up as programs are added), notebooks included.

The fast tier asks the model in three orders and runs each program three
ways (the default codes, ``--cpn-assessment``, the rule list reversed); the
slow tier runs each default-on code alone and lets Hypothesis choose rule
orders and subsets.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Callable
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpn_lint import engine
from cpn_lint.engine import INTERNAL_ERROR, LintOptions, analyze_source
from cpn_lint.model import FileModel
from cpn_lint.registry import Default, Rule
from cpn_lint.rules import load_rules
from cpn_lint.verdict.collect import _cell_problem, notebook_cells, python_of_cell

ROOT = Path(__file__).resolve().parents[2]
_FOLDERS = ("fixtures", "tests/data/programs", "tests/data/verdict", "tests/corpus")
PROGRAMS = sorted(
    p for folder in _FOLDERS for pattern in ("**/*.py", "**/*.ipynb") for p in (ROOT / folder).glob(pattern)
    if p.name != "__init__.py"
)

# The review's example (model-review.md §1): a loop's work was cached per
# expression whatever loop asked, so asking about the inner loop first (the
# assessment's SCALES pass) made the outer one time stepping (fixed in loops.py).
ELIM = """\
import numpy as np


def elim(m: np.ndarray):
    for r in range(m.shape[0] - 1):
        p = m[r, r]
        for c in range(r + 1, m.shape[0]):
            f = m[c, r] / p
            m[c, :] -= f * m[r, :]
"""


def _source(path: Path) -> str:
    """A program's Python: a notebook's code cells joined, as cpn-verdict reads it."""
    if path.suffix != ".ipynb":
        return path.read_text(encoding="utf-8")
    pieces: list[str] = []
    for cell_type, text in notebook_cells(path.read_bytes()):
        code = python_of_cell(text) if cell_type == "code" else None
        if code and code.strip() and _cell_problem(code) is None:
            pieces.extend(code.split("\n"))
    return "\n".join(pieces) + "\n"


def _programs() -> list:  # type: ignore[type-arg]
    found = [pytest.param(str(p), _source(p), id=str(p.relative_to(ROOT))) for p in PROGRAMS]
    return found + [pytest.param("elim.py", ELIM, id="review-elim")]


ALL = _programs()


def _ordered(positions: list[int], order: str) -> list[int]:
    positions = list(positions)
    if order == "reversed":
        positions.reverse()
    elif order == "shuffled":
        random.Random(7).shuffle(positions)
    return positions


# ------------------------------------------------------------- the model
def _values(source: str, order: str) -> list[tuple[object, object]]:
    model = FileModel(ast.parse(source), source)
    nodes = [n for n in model.nodes(ast.Name, ast.Subscript, ast.Call, ast.Attribute, ast.BinOp)
             if isinstance(getattr(n, "ctx", ast.Load()), ast.Load)]
    answers: dict[int, tuple[object, object]] = {}
    for i in _ordered(list(range(len(nodes))), order):
        node = nodes[i]
        # shapes first for half of them: a shape question may come before any kind question
        answers[i] = (model.shape(node), model.kind(node))[::-1] if i % 2 else (model.kind(node), model.shape(node))
    return [answers[i] for i in range(len(nodes))]


@pytest.mark.parametrize(("name", "source"), ALL)
def test_kinds_and_shapes_do_not_depend_on_the_order_of_questions(name: str, source: str) -> None:
    forward = _values(source, "source")
    assert _values(source, "reversed") == forward
    assert _values(source, "shuffled") == forward


def _loop_answers(source: str, order: str, values_first: bool) -> list[tuple[object, ...]]:
    model = FileModel(ast.parse(source), source)
    if values_first:
        for node in model.nodes(ast.Name):
            model.kind(node)
    loops = model.loops
    answers: dict[int, tuple[object, ...]] = {}
    for i in _ordered(list(range(len(loops))), order):
        frame = loops[i]
        work = model.work(frame)
        recurrences = [(_at(r.node), r.array, r.via, r.form) for r in model.recurrences(frame)]
        answers[i] = (work.work, _places(work.picks), _places(work.own_picks), _places(work.whole),
                      sorted(work.index_names), model.role(frame), sorted(recurrences),
                      sorted(model.loop_indices(frame)), sorted(model.loop_varying(frame)))
    return [answers[i] for i in range(len(loops))]


def _at(node: ast.AST) -> tuple[int, int, str]:
    return getattr(node, "lineno", 0), getattr(node, "col_offset", 0), type(node).__name__


def _places(nodes: list) -> list[tuple[int, int, str]]:  # type: ignore[type-arg]
    return [_at(n) for n in nodes]


@pytest.mark.parametrize(("name", "source"), ALL)
def test_loop_work_and_roles_do_not_depend_on_the_order_of_questions(name: str, source: str) -> None:
    forward = _loop_answers(source, "source", values_first=False)
    assert _loop_answers(source, "reversed", values_first=False) == forward  # inner loops first
    assert _loop_answers(source, "shuffled", values_first=True) == forward


# ------------------------------------------------------------- findings
_RULES = {code: rule for code, rule in load_rules().items() if code != INTERNAL_ERROR}
DEFAULT_ON = sorted(code for code, rule in _RULES.items() if rule.default is Default.ON)
EVERY = sorted(_RULES)

Findings = dict[str, list[tuple[int, int, str]]]


def _findings(name: str, source: str, order: list[str] | None = None, *, assessment: bool = False,
              codes: frozenset[str] | None = None) -> Findings:
    """Findings per code of one run; ``order``: the order the rules run in."""
    table: dict[str, type[Rule]] = {code: _RULES[code] for code in (order or EVERY)}
    table[INTERNAL_ERROR] = load_rules()[INTERNAL_ERROR]
    with mock.patch.object(engine, "load_rules", lambda: table):
        result = analyze_source(source, name, LintOptions(assessment=assessment, codes=codes))
    per_code: Findings = {}
    for finding in result.findings:
        per_code.setdefault(finding.code, []).append((finding.line, finding.col, finding.message))
    return per_code


def _same_per_code(expected: Findings, found: Findings, codes: list[str], how: str) -> None:
    for code in codes:
        assert found.get(code, []) == expected.get(code, []), f"{code} differs {how}"


@pytest.mark.parametrize(("name", "source"), ALL)
def test_findings_do_not_depend_on_the_other_codes_or_their_order(name: str, source: str) -> None:
    default = _findings(name, source)
    assessed = _findings(name, source, assessment=True)
    backwards = _findings(name, source, list(reversed(EVERY)), assessment=True)
    assert INTERNAL_ERROR not in assessed
    _same_per_code(default, assessed, DEFAULT_ON, "under --cpn-assessment")
    _same_per_code(assessed, backwards, EVERY, "with the rules run in reverse order")


_BASELINES: dict[str, tuple[Findings, Findings]] = {}


def _baseline(name: str, source: str) -> tuple[Findings, Findings]:
    if name not in _BASELINES:
        _BASELINES[name] = (_findings(name, source), _findings(name, source, assessment=True))
    return _BASELINES[name]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "source"), ALL)
def test_each_default_code_alone_finds_what_the_default_set_finds(name: str, source: str) -> None:
    default, assessed = _baseline(name, source)
    for code in DEFAULT_ON:
        alone = _findings(name, source, codes=frozenset({code}))
        assert alone.get(code, []) == default.get(code, []), f"{code} alone differs"
        alone = _findings(name, source, assessment=True, codes=frozenset({code}))
        assert alone.get(code, []) == assessed.get(code, []), f"{code} alone under --cpn-assessment differs"


def _shuffled_runs(test: Callable[[str, str, list[str], bool], None]) -> Callable[[str, str], None]:
    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(order=st.permutations(EVERY), size=st.integers(1, len(EVERY)), assessment=st.booleans())
    def run(name: str, source: str, order: list[str], size: int, assessment: bool) -> None:
        test(name, source, order[:size], assessment)

    return run


@pytest.mark.slow
@pytest.mark.parametrize(("name", "source"), ALL)
@_shuffled_runs
def test_any_order_and_subset_of_codes_finds_the_same(name: str, source: str, chosen: list[str], assessment: bool) -> None:
    default, assessed = _baseline(name, source)
    expected = assessed if assessment else default
    found = _findings(name, source, chosen, assessment=assessment, codes=frozenset(chosen))
    codes = [c for c in chosen if assessment or _RULES[c].default is Default.ON]
    _same_per_code(expected, found, codes, f"with only {chosen} run in that order (assessment={assessment})")
