"""The model's tables are a fixpoint of the file, not of the order of questions.

The value engine solves kinds and shapes of every binding, parameter,
attribute and return summary before it answers (model/fixpoint.py); the
small-array check and the draw tracker are monotone and solved on demand.
Checked on the shapes of the three order bugs model-review.md §2 describes,
with Hypothesis choosing the order of the questions."""

from __future__ import annotations

import ast
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpn_lint.model import FileModel, Kind
from cpn_lint.model.fixpoint import Solver, _components

# A helper's tuple return feeding the loop that calls it (review §2, first
# bullet: rho, vx, P = primitives(...) came out UNKNOWN or DEVICE).
TUPLE_RETURN = """
import numpy as np

def primitives(U, gamma):
    rho = U[0]
    vx = U[1] / rho
    P = (gamma - 1.0) * (U[2] - 0.5 * rho * vx ** 2)
    return rho, vx, P

def fluxes(U, gamma):
    rho, vx, P = primitives(U, gamma)
    return np.array([rho * vx, rho * vx ** 2 + P, (U[2] + P) * vx])

def run(n, steps, gamma=1.4):
    U = np.ones((3, n))
    for _ in range(steps):
        rho, vx, P = primitives(U, gamma)
        U = U - 0.1 * fluxes(U, gamma)
        if np.max(P) < 0:
            break
    return U
"""

# A state whose shape comes back through a helper (review §2, second bullet:
# a Game-of-Life grid's shape became None instead of its literal shape).
SHAPE_CYCLE = """
import numpy as np

def life(grid):
    neighbours = np.roll(grid, 1, 0) + np.roll(grid, -1, 0) + np.roll(grid, 1, 1) + np.roll(grid, -1, 1)
    return (neighbours == 3) | (grid & (neighbours == 2))

grid = np.random.rand(64, 64) > 0.5
for step in range(100):
    new = life(grid)
    grid = new
    frame = np.zeros((64, 64))
"""

# A small state in a loop (review §2, third bullet: PENDING meant both "in a
# cycle" and "nothing contributes").
SMALL_CYCLE = """
import numpy as np

def power(steps):
    A = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    v = np.ones(3)
    for _ in range(steps):
        w = A @ v
        v = w / np.linalg.norm(w)
    return v

def filt(x):
    state = np.zeros(2)
    out = np.zeros_like(x)
    for i in range(len(x)):
        state = 0.5 * state + x[i]
        out[i] = state[0]
    return out

y = filt(np.linspace(0.0, 1.0, 1000))
"""

# Names that feed each other and nothing else: no information, unknown.
EMPTY_CYCLE = """
import numpy as np
side = sideo2
sideo2 = side // 2
a = np.zeros(4)
def f(x):
    return g(x)
def g(y):
    return f(y)
b = f(a)
"""

PROGRAMS = {"tuple-return": TUPLE_RETURN, "shape-cycle": SHAPE_CYCLE, "small-cycle": SMALL_CYCLE, "empty-cycle": EMPTY_CYCLE}


def _model(source: str) -> FileModel:
    text = textwrap.dedent(source)
    return FileModel(ast.parse(text), text)


def _questions(model: FileModel) -> list[ast.expr]:
    return [n for n in model.nodes(ast.Name, ast.Subscript, ast.Call, ast.BinOp, ast.Attribute)
            if isinstance(getattr(n, "ctx", ast.Load()), ast.Load)]


def _answers(source: str, order: list[int] | None) -> list[tuple[object, ...]]:
    model = _model(source)
    nodes = _questions(model)
    positions = order if order is not None else list(range(len(nodes)))
    found: dict[int, tuple[object, ...]] = {}
    for i in positions:
        if i < len(nodes):
            node = nodes[i]
            ask = (model.values.small_by_construction, model.shape, model.kind, model.unit_draw)
            rotated = ask[i % 4:] + ask[:i % 4]  # each kind of question comes first for some node
            answers = {f.__name__: f(node) for f in rotated}
            found[i] = (answers["kind"], answers["shape"], answers["small_by_construction"], answers["unit_draw"] is not None)
    return [found[i] for i in sorted(found)]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_any_order_of_questions_gives_the_same_answers(name: str, data: st.DataObject) -> None:
    source = PROGRAMS[name]
    count = len(_questions(_model(source)))
    order = data.draw(st.permutations(range(count)))
    assert _answers(source, list(order)) == _answers(source, None)


def _binding(model: FileModel, name: str, line: int) -> tuple[Kind, object]:
    for scope in model.scopes:
        for b in scope.bindings.get(name, ()):
            if b.pos[0] == line:
                return model.values.binding_kind(b), model.values.binding_shape(b)
    raise KeyError((name, line))


def test_the_review_cases_get_the_fixpoint_answers() -> None:
    model = _model(TUPLE_RETURN)
    assert _binding(model, "P", 17)[0] is Kind.DEVICE  # a row of U, through the tuple
    assert _binding(model, "rho", 11)[0] is Kind.DEVICE
    model = _model(SHAPE_CYCLE)
    assert _binding(model, "grid", 11) == (Kind.DEVICE, (64, 64))
    assert _binding(model, "new", 10) == (Kind.DEVICE, (64, 64))
    model = _model(SMALL_CYCLE)
    (state,) = [n for n in model.nodes(ast.Name) if n.id == "state" and n.lineno == 17 and isinstance(n.ctx, ast.Load)]
    assert model.values.small_by_construction(state)
    (v,) = [n for n in model.nodes(ast.Name) if n.id == "v" and n.lineno == 10]
    assert model.values.small_by_construction(v)
    model = _model(EMPTY_CYCLE)
    assert _binding(model, "side", 3) == (Kind.UNKNOWN, None)
    assert _binding(model, "b", 10)[0] is Kind.UNKNOWN


# ------------------------------------------------------------- the solver
def _least_fixpoint(edges: dict[int, list[int]], seeds: dict[int, int], order: list[int]) -> dict[int, int]:
    """x = max(seed, max of what x reads): monotone; every order must agree."""
    solver: Solver[int, int] = Solver(lambda k: max([seeds.get(k, 0)] + [solver.value(j) for j in edges.get(k, [])]), 0, 99,
                                      max_depth=3)
    for k in order:
        solver.solve(k)
        solver.drain()
    return {k: solver.known(k) for k in order}


@settings(max_examples=60, deadline=None)
@given(
    edges=st.dictionaries(st.integers(0, 9), st.lists(st.integers(0, 9), max_size=4), max_size=10),
    seeds=st.dictionaries(st.integers(0, 9), st.integers(0, 5), max_size=10),
    data=st.data(),
)
def test_a_monotone_system_solves_to_its_least_fixpoint_in_any_order(edges, seeds, data) -> None:  # type: ignore[no-untyped-def]
    keys = list(range(10))
    order = data.draw(st.permutations(keys))
    expected = {k: max([seeds.get(j, 0) for j in _reachable(edges, k)]) for k in keys}
    assert _least_fixpoint(edges, seeds, list(order)) == expected


def _reachable(edges: dict[int, list[int]], start: int) -> set[int]:
    seen, stack = {start}, [start]
    while stack:
        for j in edges.get(stack.pop(), []):
            if j not in seen:
                seen.add(j)
                stack.append(j)
    return seen


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(0, 7), max_size=3), min_size=0, max_size=8))
def test_components_are_the_strongly_connected_ones(adjacency: list[list[int]]) -> None:
    edges = [[j for j in targets if j < len(adjacency)] for targets in adjacency]
    component = _components(edges)
    for i in range(len(edges)):
        for j in range(len(edges)):
            both_ways = j in _reachable(dict(enumerate(edges)), i) and i in _reachable(dict(enumerate(edges)), j)
            assert (component[i] == component[j]) == both_ways


def test_a_variable_that_never_settles_is_top() -> None:
    flip: Solver[str, int] = Solver(lambda k: 1 - flip.value(k), 0, 7, max_changes=5)
    flip.solve("x")
    assert flip.known("x") == 7
