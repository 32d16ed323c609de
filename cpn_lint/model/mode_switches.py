"""Mode switches: a state machine stepped over the data.

``position = 1`` under ``if position == 0 and z[i] < -1``, ``position = 0``
later under ``if position == 1 and z[i] > -0.5``: which mode a pass enters
depends on the one the last pass left, although no assigned value reads
the mode. Hysteresis like this has no closed form over the data (entry
and exit thresholds differ), so the loop is a sequential recurrence
(CPN410), not an element loop a mask could replace.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .kinds import Kind
from .recurrence_forms import _is_name
from .syntax import walk

if TYPE_CHECKING:  # pragma: no cover
    from .scopes import LoopFrame
    from .state_recurrences import StateRecurrences

_NOT_CONSTANT = object()


def mode_switches(analysis: "StateRecurrences", frame: "LoopFrame") -> dict[int, list[str]]:
    """The names ``frame`` switches as modes, keyed by the id of each
    switching statement. Only constants are assigned, at least two
    different ones (a one-way latch, ``found = True``, is a search
    ``argmax`` can do), and some switch is decided both by the mode and by
    an element of the data."""
    switches: dict[str, list[ast.Assign]] = {}
    for stmt in analysis.model.nodes_in_loop(frame, ast.Assign):
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                switches.setdefault(target.id, []).append(stmt)
    found: dict[int, list[str]] = {}
    for name, statements in switches.items():
        values = [_constant_of(stmt.value) for stmt in statements]
        if len(statements) < 2 or any(v is _NOT_CONSTANT for v in values) or len(set(map(repr, values))) < 2:
            continue
        if any(_switched_on_data(analysis, stmt, name, frame) for stmt in statements):
            for stmt in statements:
                found.setdefault(id(stmt), []).append(name)
    return found


def _switched_on_data(analysis: "StateRecurrences", stmt: ast.stmt, name: str, frame: "LoopFrame") -> bool:
    """Do the tests deciding ``stmt`` compare the mode ``name`` with a
    constant (``position == 0``, ``state != "idle"``) and read an element
    of the data? (A flag tested for truth, ``if x[i] > 0 and not
    reading``, is often the last element's sign again: run-length scans.)"""
    tests = analysis._deciding_tests(stmt, frame)
    if not any(_compares_to_constant(node, name) for test in tests for node in walk(test)):
        return False
    model = analysis.model
    picks = {id(pick) for pick in model.work(frame).picks}
    return any(id(node) in picks or (isinstance(node, ast.Name) and model.kind(node) is Kind.DEVICE_SCALAR)
               for test in tests for node in analysis._iteration_reads(test, frame))


def _constant_of(value: ast.expr) -> object:
    """The constant ``value`` spells (``-1`` included), else _NOT_CONSTANT."""
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub) and isinstance(value.operand, ast.Constant):
        return ("-", value.operand.value)
    return value.value if isinstance(value, ast.Constant) else _NOT_CONSTANT


def _compares_to_constant(node: ast.AST, name: str) -> bool:
    """``name == c`` or ``name != c`` (either side) for a constant ``c``."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq))):
        return False
    sides = (node.left, node.comparators[0])
    return any(_is_name(a, name) and _constant_of(b) is not _NOT_CONSTANT for a, b in (sides, sides[::-1]))
