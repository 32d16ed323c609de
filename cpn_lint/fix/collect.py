"""CPN203: ``acc = np.append(acc, part)`` (or ``np.concatenate((acc, part))``,
``np.vstack``, ``np.hstack``) in a loop becomes a list the loop appends to
and one join after the loop::

    acc_parts = [acc]
    for ...:
        acc_parts.append(part)
    acc = np.concatenate(acc_parts)

Joining the parts once gives the array joining them one by one gave: the
joins are associative, and the dtype they promote to is the same. The
rewrite is made when

* ``acc`` is read nowhere in the loop but in the join and is bound there
  only (so nothing sees the half-built value), and no other function reads
  it;
* ``acc`` starts, before the loop, as a new NumPy array of a known rank the
  join keeps (1-D for ``np.append``, at least 2-D for ``np.vstack``), read
  by nothing that keeps it: with zero iterations the result is a copy of it,
  equal in shape, dtype and values;
* the part is a new array, or is copied as it is appended (the list must not
  hold a buffer the loop writes into later);
* the loop has no ``else`` clause (the join goes right after the loop).
"""

from __future__ import annotations

import ast

from ..findings import Finding
from ..model import BindKind, Kind
from ..model.scopes import LoopFrame, Scope, ScopeKind
from .base import Fix, FixContext, Refused
from .ownership import fresh, keeping_site, loads_of
from .shapes import known_rank

# The join that collects, the join after the loop, and the smallest rank of the start value.
_JOINS: dict[str, tuple[str, int]] = {
    "append": ("concatenate", 1),
    "concatenate": ("concatenate", 1),
    "vstack": ("vstack", 2),
    "row_stack": ("vstack", 2),
    "hstack": ("hstack", 1),
}


def fix_stack(ctx: FixContext, finding: Finding) -> Fix:
    model = ctx.model
    if finding.data.get("form") != "growing":
        raise Refused("the join rebuilds arrays of one shape every iteration: preallocate the joined array by hand")
    call = _join_call(ctx, finding)
    stmt = model.parent(call)
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        raise Refused("the joined array is not assigned to a plain name")
    name = stmt.targets[0].id
    api = model.call_api(call) or ""
    first, part, axis = _parts(ctx, call, api, name)
    frame = model.loop_of(stmt)
    if frame is None or frame.is_comprehension:
        raise Refused("the join is not directly in a loop")
    loop = frame.node
    if getattr(loop, "orelse", None):
        raise Refused("the loop has an else clause")
    scope = model.lookup(stmt.targets[0])
    if scope is None or scope.kind is ScopeKind.CLASS:
        raise Refused(f"'{name}' is a class attribute")
    _check_loop_reads(model, name, scope, frame, first, stmt)
    _check_start(model, name, scope, frame, first, api, axis)
    _check_placeable(ctx, loop)  # type: ignore[arg-type]
    alias = ctx.numpy_alias(stmt)
    parts = ctx.fresh_name(f"{name}_parts")
    final, _ = _JOINS[api]
    axis_text = f", axis={ctx.text(axis)}" if axis is not None else ""
    rewriter = ctx.rewriter
    edits = [
        rewriter.insert_line_before(loop, f"{parts} = [{name}]"),  # type: ignore[arg-type]
        ctx.edit(rewriter.replace(stmt, f"{parts}.append({_part_text(ctx, part, api, axis, alias)})")),
        rewriter.insert_line_after(loop, f"{name} = {alias}.{final}({parts}{axis_text})"),  # type: ignore[arg-type]
    ]
    return Fix(finding, f"'{model.segment(stmt, 50)}' -> '{parts}.append(...)' and one {alias}.{final} after the loop",
               edits, ctx.scope_node(stmt), moves_statements=True)


def _join_call(ctx: FixContext, finding: Finding) -> ast.Call:
    for call in ctx.model.nodes(ast.Call):
        if (call.lineno, call.col_offset) == (finding.line, finding.col):
            if ctx.model.call_api(call) in _JOINS:
                return call
            break
    raise Refused("only np.append, np.concatenate, np.vstack and np.hstack joins are rewritten automatically")


def _parts(ctx: FixContext, call: ast.Call, api: str, name: str) -> tuple[ast.Name, ast.expr, ast.expr | None]:
    """(the accumulated array, the new part, the axis expression or None)."""
    keywords = {k.arg: k.value for k in call.keywords}
    if api == "append":
        if len(call.args) not in (2, 3) or set(keywords) - {"axis"} or (len(call.args) == 3 and keywords):
            raise Refused("np.append with other arguments is not rewritten")
        first, part = call.args[0], call.args[1]
        axis = call.args[2] if len(call.args) == 3 else keywords.get("axis")
    else:
        allowed = {"axis"} if api == "concatenate" else set()
        if len(call.args) != 1 or set(keywords) - allowed:
            raise Refused(f"np.{api} with other arguments is not rewritten")
        sequence = call.args[0]
        if not isinstance(sequence, (ast.List, ast.Tuple)) or len(sequence.elts) != 2:
            raise Refused("only a join of the array and one new part is rewritten")
        first, part = sequence.elts
        axis = keywords.get("axis")
    if not (isinstance(first, ast.Name) and first.id == name):
        raise Refused(f"'{name}' is not the first part: the parts would have to be collected in reverse")
    if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(part)):
        raise Refused(f"the new part reads '{name}'")
    if axis is not None and not (isinstance(axis, ast.Constant) and isinstance(axis.value, int)) and not (
        isinstance(axis, ast.UnaryOp) and isinstance(axis.operand, ast.Constant)
    ):
        raise Refused("the axis is not a constant")
    if api == "append" and axis is not None and isinstance(axis, ast.Constant) and axis.value is None:
        axis = None
    return first, part, axis


def _check_loop_reads(model, name: str, scope: Scope, frame: LoopFrame, first: ast.Name, stmt: ast.Assign) -> None:  # type: ignore[no-untyped-def]
    home = scope.function_like()
    for load in loads_of(model, name, scope):
        if model.scope_of(load).function_like() is not home:
            raise Refused(f"'{name}' is read in another function (line {load.lineno})")
        if load is not first and inside(load, frame.node):
            raise Refused(f"'{name}' is read in the loop (line {load.lineno}): it must be complete there")
    for b in scope.bindings.get(name, ()):
        if inside_pos(b.pos, frame.node) and b.node is not stmt.targets[0]:
            raise Refused(f"'{name}' is also bound in the loop (line {b.pos[0]})")
    if name in scope.global_names:
        raise Refused(f"'{name}' is declared global")


def _check_start(model, name: str, scope: Scope, frame: LoopFrame, first: ast.Name, api: str,  # type: ignore[no-untyped-def]
                 axis: ast.expr | None) -> None:
    """``name`` enters the loop as a new array of a rank the join keeps, and
    nothing before the loop keeps it."""
    starts = [b for b in model.reaching_bindings(first) if not inside_pos(b.pos, frame.node)]
    if not starts:
        raise Refused(f"'{name}' has no value before the loop")
    least = 1 if api in ("append", "concatenate") and axis is not None else _JOINS[api][1]
    for b in starts:
        if b.kind is not BindKind.VALUE or b.value is None or not (fresh(model, b.value) or _array_literal(model, b.value)):
            raise Refused(f"'{name}' does not start as a new array (line {b.pos[0]})")
        rank = known_rank(model, b.value)
        if rank is None or rank < least or (api == "append" and axis is None and rank != 1):
            raise Refused(f"the rank '{name}' starts with is not known to be one the join keeps (line {b.pos[0]})")
    start_line = frame.node.lineno  # type: ignore[attr-defined]
    for load in loads_of(model, name, scope):
        if load.lineno < start_line and model.scope_of(load).function_like() is scope.function_like():
            site = keeping_site(model, load)
            if site is not None and not isinstance(site, ast.Return):
                raise Refused(f"'{name}' may also be kept at line {load.lineno} before the loop")


def _array_literal(model, value: ast.expr) -> bool:  # type: ignore[no-untyped-def]
    return isinstance(value, ast.Call) and model.call_api(value) in ("array", "asarray") and bool(value.args) and isinstance(
        value.args[0], (ast.List, ast.Tuple))


def _part_text(ctx: FixContext, part: ast.expr, api: str, axis: ast.expr | None, alias: str) -> str:
    """The part as the list keeps it: a new array, or a copy taken now."""
    model = ctx.model
    text = ctx.text(part)
    if isinstance(part, (ast.NamedExpr, ast.Starred, ast.Lambda, ast.IfExp)):
        text = f"({text})"
    owned = fresh(model, part) or isinstance(part, ast.Constant) or model.kind(part) is Kind.SCALAR
    if not owned:
        text = f"{text}.copy()" if model.kind(part) is Kind.DEVICE and _atom(part) else f"{alias}.array({text})"
    if api == "append" and axis is None:
        if not (owned and known_rank(model, part) == 1):
            text = f"{alias}.ravel({text})"
    return text


def _atom(node: ast.expr) -> bool:
    return isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call))


def inside(node: ast.AST, outer: ast.AST) -> bool:
    return inside_pos((node.lineno, node.col_offset), outer)  # type: ignore[attr-defined]


def inside_pos(pos: tuple[int, int], outer: ast.AST) -> bool:
    start = (outer.lineno, outer.col_offset)  # type: ignore[attr-defined]
    end = (outer.end_lineno, outer.end_col_offset)  # type: ignore[attr-defined]
    return start <= pos <= end  # type: ignore[operator]


def _check_placeable(ctx: FixContext, loop: ast.stmt) -> None:
    rewriter = ctx.rewriter
    line = rewriter.line_text(loop.lineno)
    if line[: rewriter.point(loop.lineno, loop.col_offset)[1]].strip():
        raise Refused("the loop does not start its own line")
