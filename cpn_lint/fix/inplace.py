"""CPN202: ``x = x + y`` in a loop becomes ``x += y``; ``x = np.mod(x, L)``
becomes ``np.mod(x, L, out=x)``.

The rewrite keeps every value and changes one thing: the loop now updates
one array instead of making a new one each time. That is safe when

* the loop owns the array: every binding of ``x`` that reaches the loop or
  is made in it creates a new array (never a parameter, another name, a
  view), and no read of ``x`` anywhere keeps it (assigned to another name,
  stored, passed to a function that may keep it, read by another function);
* the update cannot widen it: ``y`` broadcasts into ``x``'s known shape, and
  with ``x``'s dtype known, the result has that dtype — by induction over
  the loop, for every rebinding of ``x`` in it.
"""

from __future__ import annotations

import ast

from ..findings import Finding
from ..model import BindKind
from ..model.scopes import Binding, LoopFrame, Scope, ScopeKind
from ..model.numpy_api import COMMUTATIVE_OPERATORS, IN_PLACE_OPERATORS
from .base import Fix, FixContext, Refused
from .dtypes import dtype_of, is_weak
from .ownership import fresh, sharing_reason
from .shapes import broadcasts_into

OPERATORS = IN_PLACE_OPERATORS
_COMMUTATIVE = COMMUTATIVE_OPERATORS
# Ufuncs the call form rewrites, with how many inputs they take.
UFUNCS: dict[str, int] = {
    **{name: 2 for name in ("add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power",
                            "remainder", "mod", "fmod", "maximum", "minimum", "fmax", "fmin", "arctan2",
                            "hypot", "copysign")},
    **{name: 1 for name in ("negative", "positive", "absolute", "fabs", "sqrt", "cbrt", "square", "exp",
                            "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin",
                            "arccos", "arctan", "sinh", "cosh", "tanh", "floor", "ceil", "trunc", "rint",
                            "sign", "deg2rad", "rad2deg")},
}
_WRAP = (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Lambda, ast.IfExp)


def fix_rebind(ctx: FixContext, finding: Finding) -> Fix:
    model = ctx.model
    stmt = ctx.node_at(finding, ast.Assign)
    frame = model.loop_of(stmt)
    target = stmt.targets[0]
    if frame is None or len(stmt.targets) != 1 or not isinstance(target, ast.Name):
        raise Refused("not a single-name assignment in a loop")
    use, others, replacement = _form(ctx, stmt, target.id)
    scope = model.lookup(target)
    if scope is None or scope.kind is ScopeKind.CLASS:
        raise Refused(f"'{target.id}' is a class attribute")
    family = _family(model, target.id, scope, frame)
    _check_owned(model, target.id, scope, family, frame, use)
    _check_shape(ctx, use, others)
    _check_dtype(model, target.id, scope, family, frame)
    edit = ctx.edit(ctx.rewriter.replace(stmt, replacement))
    return Fix(finding, f"{model.segment(stmt, 60)} -> {replacement}", [edit], ctx.scope_node(stmt))


def _form(ctx: FixContext, stmt: ast.Assign, name: str) -> tuple[ast.Name, list[ast.expr], str]:
    """(the read of ``name`` updated, the other operands, the new statement)."""
    value = stmt.value
    if isinstance(value, ast.BinOp) and type(value.op) in OPERATORS:
        symbol, ufunc = OPERATORS[type(value.op)]
        left, right = value.left, value.right
        if _is_name(left, name):
            return left, [right], f"{name} {symbol}= {_operand(ctx, right)}"  # type: ignore[return-value]
        if _is_name(right, name) and isinstance(value.op, _COMMUTATIVE):
            return right, [left], f"{name} {symbol}= {_operand(ctx, left)}"  # type: ignore[return-value]
        if _is_name(right, name):
            alias = ctx.numpy_alias(stmt)
            return right, [left], f"{alias}.{ufunc}({ctx.text(left)}, {name}, out={name})"  # type: ignore[return-value]
    if isinstance(value, ast.Call) and not value.keywords and ctx.model.call_api(value) in UFUNCS:
        api = ctx.model.call_api(value) or ""
        args = value.args
        direct = [a for a in args if _is_name(a, name)]
        if len(args) == UFUNCS[api] and len(direct) == 1 and not any(isinstance(a, ast.Starred) for a in args):
            texts = ", ".join(ctx.text(a) for a in args)
            others = [a for a in args if a is not direct[0]]
            return direct[0], others, f"{ctx.text(value.func)}({texts}, out={name})"  # type: ignore[return-value]
    raise Refused(
        f"only '{name} = {name} <op> y' and '{name} = np.<ufunc>(..., {name}, ...)' are rewritten automatically; "
        f"write the steps with out={name} by hand"
    )


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _operand(ctx: FixContext, node: ast.expr) -> str:
    text = ctx.text(node)
    return f"({text})" if isinstance(node, _WRAP) else text


def _family(model, name: str, scope: Scope, frame: LoopFrame) -> list[Binding]:  # type: ignore[no-untyped-def]
    """The bindings of ``name`` whose array the loop may update: those that
    reach a read of it in the loop, and those made in the loop."""
    found: dict[int, Binding] = {}
    for node in ast.walk(frame.node):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load) and model.lookup(node) is scope:
            for b in model.reaching_bindings(node):
                found[id(b)] = b
    for b in scope.bindings.get(name, ()):
        if _in_loop(b, frame):
            found[id(b)] = b
    return list(found.values())


def _in_loop(b: Binding, frame: LoopFrame) -> bool:
    return b.loop is not None and frame.contains(b.loop)


def _check_owned(model, name: str, scope: Scope, family: list[Binding], frame: LoopFrame, use: ast.Name) -> None:  # type: ignore[no-untyped-def]
    if not family:
        raise Refused(f"where '{name}' comes from is not known")
    for b in family:
        if b.kind is BindKind.AUG and _in_loop(b, frame):
            continue
        if b.kind is BindKind.PARAM:
            raise Refused(f"'{name}' is a parameter: the caller's array would change too (copy it once before the loop)")
        if b.kind is not BindKind.VALUE or b.value is None or not fresh(model, b.value):
            raise Refused(f"'{name}' may hold an array that is also known by another name (line {b.pos[0]})")
    reason = sharing_reason(model, name, scope, frozenset({id(use)}))
    if reason is not None:
        raise Refused(reason)


def _check_shape(ctx: FixContext, use: ast.Name, others: list[ast.expr]) -> None:
    for other in others:
        if not broadcasts_into(ctx.model, other, use):
            raise Refused(f"'{ctx.model.segment(other, 30)}' is not known to keep the shape of '{use.id}' "
                          "(an in-place update cannot grow it)")


def _check_dtype(model, name: str, scope: Scope, family: list[Binding], frame: LoopFrame) -> None:  # type: ignore[no-untyped-def]
    """The dtype the loop starts from, and every rebinding in the loop keeps it."""
    start = {dtype_of(model, b.value) for b in family if not _in_loop(b, frame)}
    if len(start) != 1 or None in start:
        raise Refused(f"the dtype of '{name}' is not known")
    dtype = start.pop()
    assert dtype is not None
    if is_weak(dtype):
        raise Refused(f"'{name}' starts as a Python number")
    for b in family:
        if _in_loop(b, frame) and b.kind is BindKind.VALUE:
            result = dtype_of(model, b.value, {name: dtype}, scope)
            if result != dtype:
                raise Refused(
                    f"'{model.segment(b.value, 40)}' may change the dtype of '{name}' ({dtype} to {result or 'unknown'})"
                )
