"""The model's work stays bounded where names feed one another: a chain of
calls each taking the previous call's results (scipy's Lebedev tables: six
hundred ``leb, start = step(leb, start)``), and a loop whose many names are
recomputed from each other (scipy's lobpcg). Counted in derivations, not in
seconds, so the test is the same on any machine. Before the bound a chain of
100 links took 10,304 derivations and one of 400 took 161,204 (quadratic);
now 305 and 1,205."""

from __future__ import annotations

import ast

import pytest

from cpn_lint.engine import LintOptions, analyze_source
from cpn_lint.model.values import ValueEngine


def _chain(links: int) -> str:
    body = "\n".join(f"    leb, start = step(leb, start, {k}.0)" for k in range(links))
    return ("import numpy as np\n\ndef step(leb, start, a):\n    leb[start] = a\n    return leb, start + 1\n\n"
            f"def table():\n    leb = np.zeros({links})\n    start = 0\n{body}\n    return leb\n")


def _loop(names: int) -> str:
    assigns = "\n".join(f"        v{k} = v{(k + 1) % names} * 0.5 + v{(k + 3) % names}" for k in range(names))
    init = "\n".join(f"    v{k} = np.ones(8)" for k in range(names))
    return f"import numpy as np\n\ndef solve(n):\n{init}\n    for _ in range(n):\n{assigns}\n    return v0\n"


def _derivations(source: str, monkeypatch: pytest.MonkeyPatch) -> int:
    count = 0
    original = ValueEngine._compute_binding_kind

    def counted(self, binding):  # type: ignore[no-untyped-def]
        nonlocal count
        count += 1
        return original(self, binding)

    monkeypatch.setattr(ValueEngine, "_compute_binding_kind", counted)
    analyze_source(source.encode(), "chain.py", LintOptions(assessment=True))
    return count


@pytest.mark.parametrize("source", [_chain(150), _loop(60)], ids=["call chain", "loop of names"])
def test_derivations_per_binding_stay_bounded(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    bindings = sum(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) for n in ast.walk(ast.parse(source)))
    assert _derivations(source, monkeypatch) <= 40 * bindings


def test_a_longer_chain_costs_proportionally(monkeypatch: pytest.MonkeyPatch) -> None:
    short, long = _derivations(_chain(100), monkeypatch), _derivations(_chain(400), monkeypatch)
    assert long <= 6 * short  # linear would be 4x; the quadratic chain was 16x


def _same_named_methods(classes: int) -> str:
    """Many classes with a method of one name (``step``), each called from a
    loop and also handed on as a value: every use resolves to its own
    class's method."""
    parts = ["import numpy as np\n"]
    for k in range(classes):
        parts.append(f"class Model{k}:\n    def step(self, u):\n        return u * {k}.0\n\n"
                     f"    def run(self, u, n):\n        hook = self.step\n"
                     f"        for _ in range(n):\n            u = self.step(u)\n        return u, hook\n")
    return "\n".join(parts)


def _resolutions(source: str, monkeypatch: pytest.MonkeyPatch) -> int:
    from cpn_lint.model.calls import CallGraph

    count = 0
    original = CallGraph._resolve

    def counted(self, func):  # type: ignore[no-untyped-def]
        nonlocal count
        count += 1
        return original(self, func)

    monkeypatch.setattr(CallGraph, "_resolve", counted)
    analyze_source(source.encode(), "methods.py", LintOptions(assessment=True))
    return count


def test_uses_of_a_shared_method_name_are_resolved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # each function's call sites used to be found by resolving every use of
    # its name again: quadratic in the number of same-named methods
    few, many = _resolutions(_same_named_methods(20), monkeypatch), _resolutions(_same_named_methods(80), monkeypatch)
    assert many <= 6 * few  # linear would be 4x; it was 16x
