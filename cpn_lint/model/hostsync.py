"""Host synchronisation in loops: what really pulls a device value, and how often.

The host-sync rules (CPN104 conversions, CPN105 branches) share these facts:

* a **device value** is an array or a 0-d device scalar: on cuPyNumeric a
  reduction, an element and even NumPy math on Python numbers
  (``np.sqrt(2)``, ``np.ceil(t / dt)``) are device arrays, and a Python
  number that accumulates one (``t += dt``) becomes one too; when such a
  scalar comes from NumPy math on numbers alone, the fix is Python's ``math``
  module or one ``float()`` outside the loop (:func:`scalar_math_origin`);
* a loop is **hot** unless it and every loop around it walk a handful of
  constants (``for axis in range(3)``, ``for f in (u, v)``): a sync per
  axis at a boundary is not a per-iteration cost;
* a site is **throttled** when, inside its innermost loop, it runs only under
  a modulo test on a loop counter (``if step % CHECK_EVERY == 0:``) — the
  RR-sync / RR-converge fix itself, once every N iterations;
* a site **leaves the loop** when it sits in a ``return``/``raise`` or in a
  branch that ends by leaving the loop, so it runs once, not per iteration.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from . import numpy_api as api
from .kinds import Kind
from .loop_iterations import hot_loop  # noqa: F401  (re-exported for the sync rules)
from .scopes import BindKind, LoopFrame

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_MAX_DEPTH = 6


# ------------------------------------------------------------- device values
def is_device_value(model: FileModel, expr: ast.expr) -> bool:
    """True when evaluating ``expr`` yields a value cuPyNumeric holds — an
    array or a 0-d device scalar (a reduction, an element, NumPy math on
    Python numbers such as ``np.sqrt(2)``): turning it into a Python value
    waits for the runtime."""
    return model.is_device(expr)


def scalar_math_origin(model: FileModel, expr: ast.expr, depth: int = 0) -> ast.Call | None:
    """The NumPy call on Python numbers (``np.sqrt(2)``, ``np.ceil(t / 3)``)
    that makes ``expr`` a 0-d device array, followed through names
    (``t += dt`` after ``dt = np.sqrt(2) * dx``); None when an array feeds
    the value (then the sync is the cost of the array work itself).

    Callers ask about values Python converts or tests (``float(v)``, ``if
    v:``), which must be single numbers: an operand of unknown kind there is
    a number, not an array."""
    if depth > _MAX_DEPTH or not model.kind(expr).is_device:
        return None
    if isinstance(expr, ast.Call):
        tail = model.call_api(expr)
        if tail is None or tail in api.BUILDERS or tail.startswith("random.") or tail in api.REDUCTIONS:
            return None
        operands = [a.value if isinstance(a, ast.Starred) else a for a in expr.args] + [k.value for k in expr.keywords]
        if not operands or any(not _may_be_number(model, o, depth) for o in operands):
            return None
        inner = [scalar_math_origin(model, o, depth + 1) for o in operands if model.kind(o).is_device]
        return next((i for i in inner if i is not None), expr)
    if isinstance(expr, (ast.BinOp, ast.UnaryOp, ast.Compare)):
        operands = [expr.left, expr.right] if isinstance(expr, ast.BinOp) else [expr.operand] if isinstance(expr, ast.UnaryOp) else [expr.left, *expr.comparators]
        if any(not _may_be_number(model, o, depth) for o in operands):
            return None
        device = [o for o in operands if model.kind(o).is_device]
        found = [scalar_math_origin(model, o, depth + 1) for o in device]
        return found[0] if found and all(f is not None for f in found) else None
    if isinstance(expr, ast.Name):
        bindings = model.reaching_bindings(expr)
        origins: list[ast.Call] = []
        for b in bindings:
            if b.value is None or b.kind not in (BindKind.VALUE, BindKind.AUG):
                return None
            if not model.kind(b.value).is_device:
                if _may_be_number(model, b.value, depth):
                    continue
                return None
            origin = scalar_math_origin(model, b.value, depth + 1)
            if origin is None:
                return None
            origins.append(origin)
        return origins[0] if origins else None
    return None


def _may_be_number(model: FileModel, expr: ast.expr, depth: int = 0) -> bool:
    """Not known to be an array: a number, a device scalar, an unknown, or
    NumPy math on such values (``np.minimum(0.75 * g, 1.5)``)."""
    kind = model.kind(expr)
    if kind in (Kind.SCALAR, Kind.DEVICE_SCALAR, Kind.UNKNOWN):
        return True
    return kind is Kind.DEVICE and scalar_math_origin(model, expr, depth + 1) is not None


# ---------------------------------------------------------------- throttling
def is_throttled(model: FileModel, node: ast.AST, frame: LoopFrame) -> bool:
    """``node`` runs only when a modulo test on a loop counter holds, between
    it and ``frame``'s header: once every N iterations of ``frame``."""
    child: ast.AST = node
    for ancestor in model.ancestors(node):
        if isinstance(ancestor, ast.If) and any(s is child for s in ancestor.body):
            if is_modulo_check(model, ancestor.test):
                return True
        elif isinstance(ancestor, ast.IfExp) and child is ancestor.body:
            if is_modulo_check(model, ancestor.test):
                return True
        elif isinstance(ancestor, ast.BoolOp) and isinstance(ancestor.op, ast.And):
            position = next(i for i, v in enumerate(ancestor.values) if v is child)
            if any(is_modulo_check(model, v) for v in ancestor.values[:position]):
                return True
        if ancestor is frame.node:
            return _filtered_by_modulo(model, ancestor, child)
        if isinstance(ancestor, _FUNCTIONS):
            return False
        child = ancestor
    return False


def _filtered_by_modulo(model: FileModel, loop: ast.AST, child: ast.AST) -> bool:
    """``[float(x) for i, x in enumerate(xs) if i % 10 == 0]``: the element
    is computed only for the items the modulo filter lets through."""
    if not isinstance(loop, _COMPREHENSIONS):
        return False
    produced = [loop.key, loop.value] if isinstance(loop, ast.DictComp) else [loop.elt]
    return any(child is p for p in produced) and any(
        is_modulo_check(model, cond) for gen in loop.generators for cond in gen.ifs
    )


def is_modulo_check(model: FileModel, test: ast.expr) -> bool:
    """``step % N == 0``, ``not it % 50``, ``(i + 1) % N == 0 and verbose``,
    ``step % N == 0 or step == last``: true once every N iterations.

    ``step % N != 0`` and a bare ``step % N`` are true almost every time and
    do not count.
    """
    if isinstance(test, ast.BoolOp):
        if isinstance(test.op, ast.And):
            return any(is_modulo_check(model, v) for v in test.values)
        checks = [is_modulo_check(model, v) for v in test.values]
        return any(checks) and all(c or _is_counter_equality(model, v) for c, v in zip(checks, test.values))
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _is_counter_modulo(model, test.operand)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        return _is_counter_modulo(model, test.left) or _is_counter_modulo(model, test.comparators[0])
    return False


def _is_counter_modulo(model: FileModel, expr: ast.expr) -> bool:
    return (
        isinstance(expr, ast.BinOp)
        and isinstance(expr.op, ast.Mod)
        and _is_counter(model, expr.left)
        and not model.kind(expr.right).is_array
    )


def _is_counter_equality(model: FileModel, expr: ast.expr) -> bool:
    """``step == n_steps - 1``: a single iteration."""
    return (
        isinstance(expr, ast.Compare)
        and len(expr.ops) == 1
        and isinstance(expr.ops[0], ast.Eq)
        and (_is_counter(model, expr.left) or _is_counter(model, expr.comparators[0]))
    )


def _is_counter(model: FileModel, expr: ast.expr) -> bool:
    """A name a loop around ``expr`` steps (``for step in ...``, ``it += 1``),
    possibly offset by a constant (``step + 1``)."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)):
        if isinstance(expr.right, ast.Constant):
            return _is_counter(model, expr.left)
        if isinstance(expr.left, ast.Constant):
            return _is_counter(model, expr.right)
        return False
    if not isinstance(expr, ast.Name) or model.kind(expr).is_array:
        return False
    frame = model.loop_of(expr)
    loops = frame.chain() if frame is not None else []
    return any(any(b.loop is loop for loop in loops) for b in model.reaching_bindings(expr))


# -------------------------------------------------------------- leaving loops
def leaves_loop(model: FileModel, node: ast.AST, frame: LoopFrame) -> bool:
    """``node`` runs at most once per run of its loop nest: it is part of a
    ``return``/``raise``, or of a branch that ends by returning, raising, or
    breaking out of a loop that no other loop repeats."""
    if frame.is_comprehension:
        return False  # a comprehension in a return statement still iterates
    statement = model.statement_of(node)
    if statement is None or statement is frame.node:
        return False  # a while test runs on every pass
    if isinstance(statement, (ast.Return, ast.Raise)):
        return True
    current: ast.AST = statement
    while True:
        parent = model.parent(current)
        if parent is None or parent is frame.node or isinstance(parent, _FUNCTIONS):
            return False
        for block in _blocks(parent):
            if any(s is current for s in block) and _exits(block[-1], frame):
                return True
        current = parent


def _blocks(statement: ast.AST) -> list[list[ast.stmt]]:
    blocks = [getattr(statement, name, None) for name in ("body", "orelse", "finalbody")]
    return [b for b in blocks if isinstance(b, list) and b and isinstance(b[0], ast.stmt)]


def _exits(last: ast.stmt, frame: LoopFrame) -> bool:
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    return isinstance(last, ast.Break) and frame.parent is None
