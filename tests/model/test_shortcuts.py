"""The engine's shortcuts give the answers the long way gives.

Speed work added shortcuts to hot paths: a lone binding reaches every use,
``join`` returns a
shared kind at once, ``names_in`` walks with its own stack, CPN401-403 skip
names that cannot resolve. Each is checked here against the long way, over
every bundled program, so that a later change to either side cannot make
them drift apart silently.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cpn_lint import manifest
from cpn_lint.model import FileModel, Kind
from cpn_lint.model.kinds import join
from cpn_lint.model.reaching import Reaching
from cpn_lint.model.syntax import names_in
from cpn_lint.rules import _api_support

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted(
    p for folder in ("fixtures", "tests/data/programs") for p in (ROOT / folder).rglob("*.py")
    if p.name != "__init__.py"
)


def _model(path: Path) -> FileModel:
    source = path.read_text(encoding="utf-8")
    return FileModel(ast.parse(source), source, str(path))


def _join_the_long_way(kinds: list[Kind]) -> Kind:
    # BOTTOM (no information yet, inside the solve) adds nothing
    if all(k is Kind.BOTTOM for k in kinds):
        return Kind.BOTTOM
    kinds = [k for k in kinds if k is not Kind.BOTTOM]
    informative = {k for k in kinds if k not in (Kind.SCALAR, Kind.UNKNOWN)}
    if not informative:
        return Kind.SCALAR if Kind.SCALAR in kinds and Kind.UNKNOWN not in kinds else Kind.UNKNOWN
    if Kind.NOT in informative:
        return Kind.NOT
    if len(informative) == 1:
        return next(iter(informative))
    return Kind.DEVICE if informative == {Kind.DEVICE, Kind.DEVICE_SCALAR} else Kind.UNKNOWN


@given(st.lists(st.sampled_from(list(Kind)), min_size=1, max_size=6))
def test_join_shortcut_agrees_with_the_definition(kinds: list[Kind]) -> None:
    assert join(kinds) is _join_the_long_way(kinds)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_lone_binding_is_what_the_reaching_walk_finds(path: Path) -> None:
    model = _model(path)
    reaching = Reaching(model)
    lone = 0
    for use in model.nodes(ast.Name):
        scope = model.lookup(use)
        if scope is None or len(scope.bindings.get(use.id, ())) != 1:
            continue
        lone += 1
        assert reaching._walk(scope, use) == reaching._compute(scope, use), ast.dump(use)
    assert lone or not model.nodes(ast.Name)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_names_in_matches_ast_walk(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in itertools.islice(ast.walk(tree), 5000):
        expected = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        assert names_in(node) == expected


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_api_name_filter_never_drops_a_resolvable_name(path: Path) -> None:
    model = _model(path)
    table = manifest.active()
    listed = _api_support._name_filter(model, _api_support._method_names(table, listed=True))
    lacking = _api_support._name_filter(model, _api_support._method_names(table, listed=False))

    def lacks(name: str) -> bool:
        entry = table.lookup(name)
        return entry is not None and entry.status is manifest.Status.NOT_IMPLEMENTED and entry.lacks is not False

    for call in model.nodes(ast.Call):
        if _api_support.api_name(model, call, table) is not None:
            assert listed(call.func), ast.unparse(call)
    for node in [*model.nodes(ast.Attribute), *model.nodes(ast.Name)]:
        name = _api_support.resolved_name(model, node, table, lacks)
        if name is not None and lacks(name):
            assert lacking(node), ast.unparse(node)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_reference_candidates_are_the_filtered_scan(path: Path) -> None:
    model = _model(path)
    methods = _api_support._method_names(manifest.active(), listed=False)
    could_name = _api_support._name_filter(model, methods)

    def references(nodes: list) -> set[int]:  # type: ignore[type-arg]
        return {id(n) for n in nodes if isinstance(n.ctx, ast.Load) and could_name(n)
                and _api_support._is_reference(model, n)}

    every = [*model.nodes(ast.Attribute), *model.nodes(ast.Name)]
    assert references(_api_support._reference_candidates(model, methods)) == references(every)
