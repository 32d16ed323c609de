"""Recurrences whose loop is the caller's: a method that carries state from
one call to the next.

``def process(self, x): y = b0 * x + ... - a1 * self.y_buf[1]; ...;
self.y_buf[1] = y`` filters one sample per call. The loop that feeds it
samples is in the caller, out of the file's sight, but every call needs the
state the last one left on the object: a sequential recurrence of a few
numbers, like the sample loop written out. A method is such an update when
it writes a small attribute of ``self`` from a value computed from its own
arguments and from that state (read before the write), and no loop of the
file calls it (a loop that does is judged as a loop). A running total
(``self.total += x``) or a counter is a reduction, not such a chain.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .kinds import Kind
from .scopes import ScopeKind
from .syntax import walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import Scope

_SETUP_METHODS = frozenset({"__init__", "__new__", "__post_init__", "__setstate__", "reset", "setup", "set_params"})


@dataclass(frozen=True)
class CallRecurrence:
    method: "Scope"
    state: tuple[str, ...]  # the attributes carried from call to call


def call_recurrences(model: "FileModel") -> list[CallRecurrence]:
    """The file's methods that carry small state from one call to the next."""
    return model.derived(_KEY, _find)


_KEY = "call-recurrences"


def _find(model: "FileModel") -> list[CallRecurrence]:
    found = []
    for scope, writes in _attribute_writes(model).items():
        parent = scope.parent
        if parent is None or parent.kind is not ScopeKind.CLASS or len(scope.params) < 2 \
                or scope.name in _SETUP_METHODS or not isinstance(scope.node, ast.FunctionDef):
            continue
        state = _carried_attributes(scope, writes)
        if state and _small_state(model, parent, state) and not _called_in_a_loop(model, scope):
            found.append(CallRecurrence(scope, tuple(sorted(state))))
    return found


def _attribute_writes(model: "FileModel") -> "dict[Scope, list[tuple[str, ast.stmt]]]":
    """Per method, the attributes of its first parameter it writes (one pass
    over the file's assignments, not a walk of every method)."""
    found: "dict[Scope, list[tuple[str, ast.stmt]]]" = {}
    for node in model.nodes(ast.Assign, ast.AugAssign):
        scope = model.scope_of(node).function_like()
        if scope.kind is not ScopeKind.FUNCTION or not scope.params:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
        for target in targets:
            attr = _self_attribute(target, scope.params[0])
            if attr is not None:
                found.setdefault(scope, []).append((attr, node))
    return found


def _carried_attributes(method: "Scope", writes: list[tuple[str, ast.stmt]]) -> set[str]:
    """Attributes of ``self`` the method writes from a value that reads both
    an argument and state the method writes (not as a plain running sum)."""
    this, arguments = method.params[0], set(method.params[1:])
    counters = {attr for attr, stmt in writes if isinstance(stmt, ast.AugAssign) and isinstance(stmt.value, ast.Constant)}
    written = {attr for attr, _ in writes} - counters  # (self.k += 1 counts the calls: no state of the data)
    carried: set[str] = set()
    for attr, stmt in writes:
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, (ast.Add, ast.Sub)):
            continue  # self.total += x: a running sum
        if isinstance(stmt.value, (ast.BoolOp, ast.IfExp)):  # type: ignore[attr-defined]
            continue  # self.n = n or self.n: a setting, not a step
        reads = _feeding_reads(method, stmt.value, this)  # type: ignore[attr-defined]
        if reads[0] & arguments and reads[1] & written:
            carried |= reads[1] & written
    return carried


def _feeding_reads(method: "Scope", value: ast.expr, this: str) -> tuple[set[str], set[str]]:
    """(names, self attributes) ``value`` reads, directly or through the
    method's local names bound before it."""
    names: set[str] = set()
    attrs: set[str] = set()
    todo, seen = [value], set()
    while todo:
        expr = todo.pop()
        for node in walk(expr):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == this:
                attrs.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in seen:
                seen.add(node.id)
                names.add(node.id)
                todo += [b.value for b in method.bindings.get(node.id, ()) if b.value is not None
                         and getattr(b.node, "lineno", 0) <= getattr(value, "lineno", 0)]
    return names, attrs


def _self_attribute(target: ast.expr, this: str) -> str | None:
    """``x`` for ``self.x`` or ``self.x[k]``."""
    while isinstance(target, ast.Subscript):
        target = target.value
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == this:
        return target.attr
    return None


def _small_state(model: "FileModel", cls: "Scope", state: set[str]) -> bool:
    """Every carried attribute is a number or a few numbers where the class
    sets it up (``self.y_buf = np.zeros(2)``, ``self._mu = 0.0``). State
    sized by the problem (a CMA-ES covariance, an optimiser's velocity) is
    whole-array work per call, which ports."""
    values = model.values
    for attr in state:
        bindings = model._class_attrs.get((id(cls), attr), [])
        initial = [b.value for b in bindings if b.value is not None and _in_setup(model, b.value)]
        if not initial:
            return False
        for value in initial:
            if model.kind(value) not in (Kind.SCALAR, Kind.DEVICE_SCALAR) and not values.small_by_construction(value) \
                    and not values.written_out(value):
                return False
    return True


def _in_setup(model: "FileModel", node: ast.AST) -> bool:
    function = model.scope_of(node).function_like()
    return function.kind is ScopeKind.FUNCTION and function.name in _SETUP_METHODS


def _called_in_a_loop(model: "FileModel", method: "Scope") -> bool:
    """Does a loop of the file call the method (judged there, as a loop)?"""
    return any(model.loop_of(call) is not None for call in model.calls.sites(method))
