"""Answers of the model do not depend on the order in which rules ask.

Every rule asks the one shared model its own questions, in its own order;
a value's kind must come out the same whichever question comes first. The
bundled programs (fixtures and the oracle programs, script-style code with
helpers, cycles through function returns and time loops) are asked about
every name, subscript and call in three orders: source order, reversed and
shuffled.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from cpn_lint.model import FileModel, Kind

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted(
    p for folder in ("fixtures", "tests/data/programs") for p in (ROOT / folder).rglob("*.py")
    if p.name != "__init__.py"
)


def _kinds(source: str, order: str) -> list[Kind]:
    model = FileModel(ast.parse(source), source)
    nodes = [n for n in model.nodes(ast.Name, ast.Subscript, ast.Call) if isinstance(getattr(n, "ctx", ast.Load()), ast.Load)]
    positions = list(range(len(nodes)))
    if order == "reversed":
        positions.reverse()
    elif order == "shuffled":
        random.Random(7).shuffle(positions)
    answers: dict[int, Kind] = {i: model.kind(nodes[i]) for i in positions}
    return [answers[i] for i in range(len(nodes))]


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_kinds_do_not_depend_on_the_order_of_questions(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    forward = _kinds(source, "source")
    assert _kinds(source, "reversed") == forward
    assert _kinds(source, "shuffled") == forward
