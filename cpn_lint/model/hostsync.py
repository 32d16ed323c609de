"""Host synchronisation in loops: what really pulls a device value, and how often.

The host-sync rules (CPN104 conversions, CPN105 branches) share these facts:

* a **device value** is an expression the model knows to be a device array
  that is not NumPy math on Python numbers: ``np.isnan(x)`` of a float or
  ``np.ceil(n / k)`` makes a tiny value cuPyNumeric computes eagerly, with
  nothing queued to wait for;
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

from .kinds import Kind
from .scopes import BindKind, IterKind, LoopFrame

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_MAX_DEPTH = 6
# NumPy calls that make a device array from shapes, sizes or host data.
_ARRAY_BUILDERS = frozenset(
    {
        "zeros", "ones", "empty", "full", "identity", "eye", "tri", "arange", "linspace", "logspace",
        "geomspace", "fromfunction", "fromiter", "fromstring", "frombuffer", "fromfile", "loadtxt",
        "genfromtxt", "array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray",
    }
)


# ------------------------------------------------------------- device values
def is_device_value(model: FileModel, expr: ast.expr, depth: int = 0) -> bool:
    """True when evaluating ``expr`` yields a device array that has to be
    waited for: the model knows it is a device array, and a NumPy call that
    computes from its arguments is not fed only Python numbers
    (``np.isnan(x)``, ``np.floor(t / dt)`` for ``t`` from a list), directly
    or through the names it is bound to."""
    if not model.is_array(expr):
        return False
    if depth > _MAX_DEPTH:
        return True
    if isinstance(expr, ast.Name):
        bindings = model.reaching_bindings(expr)
        values = [b.value for b in bindings if b.kind is BindKind.VALUE and b.value is not None]
        if not bindings or len(values) < len(bindings):
            return True
        return any(is_device_value(model, v, depth + 1) for v in values)
    if isinstance(expr, ast.BinOp):
        return is_device_value(model, expr.left, depth + 1) or is_device_value(model, expr.right, depth + 1)
    if isinstance(expr, ast.Compare):
        return any(is_device_value(model, o, depth + 1) for o in (expr.left, *expr.comparators))
    if isinstance(expr, ast.UnaryOp):
        return is_device_value(model, expr.operand, depth + 1)
    if isinstance(expr, ast.Call):
        return not _is_math_on_python_numbers(model, expr, depth + 1)
    return True


def _is_math_on_python_numbers(model: FileModel, call: ast.Call, depth: int) -> bool:
    """``np.sqrt(x)``, ``np.minimum(0.75 * g, 1.5)``: a NumPy function (not an
    array builder) whose every argument is a Python number."""
    api = model.call_api(call)
    if api is None or _builds_array(api):
        return False
    arguments = [a.value if isinstance(a, ast.Starred) else a for a in call.args]
    arguments += [k.value for k in call.keywords]
    return bool(arguments) and all(_is_python_number(model, a, depth) for a in arguments)


def _is_python_number(model: FileModel, expr: ast.expr, depth: int = 0) -> bool:
    """A value known not to be an array (``step * 0.5``, ``float(x)``), a
    name bound by iterating something that is not an array (``t`` in
    ``for t in times`` over an unknown ``times``), or arithmetic mixing such
    values with unknowns (``t / dt``)."""
    kind = model.kind(expr)
    if kind in (Kind.SCALAR, Kind.NOT):
        return True
    if depth > _MAX_DEPTH:
        return False
    if kind is Kind.DEVICE:
        return isinstance(expr, ast.Call) and _is_math_on_python_numbers(model, expr, depth + 1)
    if kind is not Kind.UNKNOWN:
        return False
    if isinstance(expr, ast.Name):
        bindings = model.reaching_bindings(expr)
        return bool(bindings) and all(
            b.kind is BindKind.ELEMENT and b.loop is not None and not model.kind(b.value).is_array for b in bindings
        )
    if isinstance(expr, (ast.BinOp, ast.UnaryOp)):
        operands = [expr.left, expr.right] if isinstance(expr, ast.BinOp) else [expr.operand]
        known = [o for o in operands if model.kind(o) is not Kind.UNKNOWN]
        if any(model.kind(o).is_array for o in known):
            return False
        return any(_is_python_number(model, o, depth + 1) for o in operands)
    return False


def _builds_array(api: str) -> bool:
    """``np.zeros(n)``, ``np.asarray(rows)``, ``np.random.rand(n)``: a device
    array made from shapes or host data, not math on its arguments."""
    return api in _ARRAY_BUILDERS or api.startswith("random.")


# ---------------------------------------------------------------- hot loops
def hot_loop(frame: LoopFrame) -> LoopFrame | None:
    """The innermost loop of ``frame``'s nest (itself included) that repeats
    more than a handful of constant times, or None."""
    return next((f for f in frame.chain() if f.iter_kind is not IterKind.SMALL_CONSTANT), None)


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
