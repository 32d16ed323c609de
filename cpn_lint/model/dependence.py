"""Element access and loop-carried dependence inside index loops.

An *element access* is a subscript of a device array whose index mentions a
loop's index variable (``u[i]``, ``a[i, j]``, ``b[:, k]``, ``c[i:i+2]``).

A *recurrence* is an element write that reads what an earlier iteration wrote:
``y[n] = a * y[n - 1] + x[n]``, or a scalar carried through the loop by a
non-additive update and stored per element (``acc = a * acc + x[i]; y[i] = acc``).
Recurrences are Gate 4 evidence (sequential dependence, CPN410), not a
vectorisable element loop (CPN101).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

from .iteration import fresh_in_iteration

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import LoopFrame


@dataclass(frozen=True)
class Recurrence:
    loop: "LoopFrame"
    node: ast.stmt  # the assignment that carries the dependence
    array: str  # the array written
    via: str  # what carries it: the array itself or the scalar's name


def names_in(expr: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}


def index_components(sub: ast.Subscript) -> list[ast.expr]:
    index = sub.slice
    return list(index.elts) if isinstance(index, ast.Tuple) else [index]


def offset_of(expr: ast.expr, var: str) -> int | None:
    """``i`` -> 0, ``i - 1`` -> -1, ``i + 2`` -> 2, ``2 + i`` -> 2; else None."""
    if isinstance(expr, ast.Name) and expr.id == var:
        return 0
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)):
        left, right = expr.left, expr.right
        if isinstance(left, ast.Name) and left.id == var and isinstance(right, ast.Constant) and isinstance(right.value, int):
            return right.value if isinstance(expr.op, ast.Add) else -right.value
        if isinstance(right, ast.Name) and right.id == var and isinstance(left, ast.Constant) and isinstance(left.value, int) and isinstance(expr.op, ast.Add):
            return left.value
    return None


def element_accesses(model: "FileModel", loop: "LoopFrame", index_vars: frozenset[str]) -> Iterator[ast.Subscript]:
    """Subscripts of device arrays in ``loop`` whose index uses ``index_vars``."""
    for sub in _subscripts_in(model, loop):
        if names_in(sub.slice) & index_vars and model.is_array(sub.value):
            yield sub


def _subscripts_in(model: "FileModel", loop: "LoopFrame") -> list[ast.Subscript]:
    return model.nodes_in_loop(loop, ast.Subscript)


def recurrences(model: "FileModel", loop: "LoopFrame") -> list[Recurrence]:
    """Loop-carried dependences in ``loop`` (over any of its index variables)."""
    found: list[Recurrence] = []
    index_vars = loop.index_vars
    if not index_vars:
        return found
    carried = _carried_scalars(model, loop)
    for stmt in _assignments_in(model, loop):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
        value = stmt.value
        if value is None:
            continue
        for target in targets:
            if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)):
                continue
            name = target.value.id
            if not model.is_array(target.value):
                continue
            if _reads_earlier_element(target, value, name, index_vars):
                found.append(Recurrence(loop, stmt, name, name))
                continue
            carriers = names_in(value) & carried
            if carriers and names_in(target.slice) & index_vars:
                found.append(Recurrence(loop, stmt, name, sorted(carriers)[0]))
    return found


def _assignments_in(model: "FileModel", loop: "LoopFrame") -> list[ast.Assign | ast.AugAssign]:
    return model.nodes_in_loop(loop, ast.Assign, ast.AugAssign)  # type: ignore[return-value]


def _reads_earlier_element(target: ast.Subscript, value: ast.expr, name: str, index_vars: frozenset[str]) -> bool:
    written = index_components(target)
    for read in ast.walk(value):
        if not (isinstance(read, ast.Subscript) and isinstance(read.value, ast.Name) and read.value.id == name):
            continue
        components = index_components(read)
        if len(components) != len(written):
            continue
        for w, r in zip(written, components):
            for var in index_vars:
                w_off, r_off = offset_of(w, var), offset_of(r, var)
                if w_off is not None and r_off is not None and r_off < w_off:
                    return True
    return False


def _carried_scalars(model: "FileModel", loop: "LoopFrame") -> set[str]:
    """Names updated from themselves in a non-additive way inside the loop."""
    carried: set[str] = set()
    for stmt in _assignments_in(model, loop):
        if isinstance(stmt, ast.AugAssign):
            if isinstance(stmt.target, ast.Name) and isinstance(stmt.op, (ast.Mult, ast.Div)):
                carried.add(stmt.target.id)
            continue
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
            continue
        name = stmt.targets[0].id
        if _self_reference_is_multiplicative(stmt.value, name):
            carried.add(name)
    # A name that each iteration starts afresh (`acc = 1.0` before the
    # updates, or the loop's own target) carries nothing to the next one.
    return {name for name in carried if not _restarted(model, loop, name)}


def _restarted(model: "FileModel", loop: "LoopFrame", name: str) -> bool:
    updates = [
        stmt
        for stmt in _assignments_in(model, loop)
        if (isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name)
        or (isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets) and name in names_in(stmt.value))
    ]
    return bool(updates) and all(fresh_in_iteration(model, stmt, loop, name) for stmt in updates)


def _self_reference_is_multiplicative(value: ast.expr, name: str) -> bool:
    for node in ast.walk(value):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
            if name in names_in(node.left) or name in names_in(node.right):
                return True
        if isinstance(node, ast.Call) and any(name in names_in(a) for a in node.args):
            return True
    return False
