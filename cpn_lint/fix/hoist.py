"""CPN201: an allocation a loop repeats with the same shape moves before the loop.

Three forms, each with its own proof that every iteration sees the same
values as before:

* a fresh buffer (``np.zeros``, ``np.empty``, ``np.full``, their ``_like``
  forms): moved when the statements after it in the same block write every
  element (``t[:] = ...``, ``np.add(a, b, out=t)``, ``np.copyto(t, a)``,
  ``t.fill(v)``) before anything reads it, so the zeros (or garbage) it was
  made with are never seen;
* a constant array (``np.arange``, ``np.linspace``, ``np.eye``,
  ``np.identity``): moved when the loop never writes into it;
* a copy (``un = u.copy()``, ``np.copy(u)``, ``np.array(u)``): the buffer
  is made once with ``np.empty_like`` before the loop and refreshed with
  ``np.copyto(un, u)`` where the copy was.

In every form the name is bound nowhere else, what the allocation reads is
bound before the loop and never rebound in it (``hoist_frame``), and
nothing in the loop keeps the buffer beyond the iteration (another name, a
container, a callee that may keep it), so reusing one buffer is invisible.
"""

from __future__ import annotations

import ast

from ..findings import Finding
from ..model import BindKind, Kind
from ..model.hoisting import hoist_frame, uses_reached_by
from ..model.scopes import LoopFrame, Scope, ScopeKind
from .base import Fix, FixContext, Refused
from .collect import inside, inside_pos
from .inplace import UFUNCS
from .ownership import keeping_site, loads_of

BUFFERS = frozenset({"empty", "empty_like"})
FILLED = frozenset({"zeros", "ones", "full", "zeros_like", "ones_like", "full_like"})
CONSTANTS = frozenset({"arange", "linspace", "eye", "identity"})
COPIES = frozenset({"copy", "array"})
# Functions that write every element of their out= argument.
_WRITES_ALL_OF_OUT = frozenset(UFUNCS) | {"sum", "prod", "mean", "max", "min", "amax", "amin", "dot", "matmul", "cumsum"}
# Methods and functions that write into an array they are given.
_WRITING_METHODS = frozenset({"fill", "sort", "put", "itemset", "resize", "partition", "setfield", "byteswap"})
_WRITING_FUNCTIONS = frozenset({"copyto", "putmask", "place", "put", "fill_diagonal", "random.shuffle"})
_LEAVES = (ast.Break, ast.Continue, ast.Return, ast.Raise, ast.Yield, ast.YieldFrom)


def fix_allocation(ctx: FixContext, finding: Finding) -> Fix:
    model = ctx.model
    if finding.data.get("through_call"):
        raise Refused("the allocation is in a helper the loop calls: pass a buffer in by hand")
    call = ctx.node_at(finding, ast.Call)
    stmt = model.parent(call)
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        raise Refused("the allocation is not assigned to a plain name")
    name = stmt.targets[0].id
    form, source = _form(model, call)
    reads = [*call.args, *(k.value for k in call.keywords)] + ([source] if source is not None else [])
    frame = hoist_frame(model, call, reads, shape_only=True)
    if frame is None or frame.is_comprehension:
        raise Refused("what the allocation reads is rebound in the loop")
    scope = model.lookup(stmt.targets[0])
    if scope is None or scope.kind is ScopeKind.CLASS:
        raise Refused(f"'{name}' is a class attribute")
    _check_only_binding(model, name, scope, stmt, frame)
    _check_stable_reads(model, reads, frame)
    _check_bound_before(model, reads, frame)
    _check_not_shared(model, name, scope, frame)
    loop = frame.node
    _check_placeable(ctx, stmt, loop)  # type: ignore[arg-type]
    if form == "copy":
        return _copy_fix(ctx, finding, stmt, name, call, source, loop)  # type: ignore[arg-type]
    if form == "buffer":
        _check_overwritten(model, stmt, name)
    elif form == "constant":
        _check_never_written(model, name, scope, frame)
    else:
        _check_filled(model, stmt, name, scope, frame)
    text = ctx.text(stmt)
    comment = ctx.rewriter.trailing_comment(stmt)
    moved = text + (f"  {comment}" if comment else "")
    edits = [ctx.rewriter.insert_line_before(loop, moved), ctx.edit(ctx.rewriter.delete_lines(stmt))]  # type: ignore[arg-type]
    return Fix(finding, f"moved '{model.segment(stmt, 50)}' before the loop at line {loop.lineno}", edits,  # type: ignore[attr-defined]
               ctx.scope_node(stmt), moves_statements=True)


def _form(model, call: ast.Call) -> tuple[str, ast.expr | None]:  # type: ignore[no-untyped-def]
    api = model.call_api(call)
    if api in BUFFERS:
        return "buffer", None
    if api in FILLED:
        return "filled", None
    if api in CONSTANTS:
        return "constant", None
    if api in COPIES and len(call.args) == 1 and not call.keywords:
        return "copy", call.args[0]
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "copy" and not call.args and not call.keywords:
        return "copy", func.value
    raise Refused("only fresh buffers, constant arrays and plain copies are moved automatically")


def _copy_fix(ctx: FixContext, finding: Finding, stmt: ast.Assign, name: str, call: ast.Call,
              source: ast.expr, loop: ast.stmt) -> Fix:
    alias = ctx.numpy_alias(stmt)
    text = ctx.text(source)
    refresh = f"{alias}.copyto({name}, {text})"
    method = isinstance(call.func, ast.Attribute) and call.func.attr == "copy" and ctx.model.call_api(call) is None
    if method and _buffer_ready(ctx.model, name, source, loop):
        edit = ctx.edit(ctx.rewriter.replace(stmt, refresh))
        return Fix(finding, f"'{ctx.model.segment(stmt, 40)}' -> '{refresh}' into the buffer made before the loop",
                   [edit], ctx.scope_node(stmt), moves_statements=True)
    # np.copy and np.array return a base ndarray; u.copy() keeps a subclass, as empty_like does
    made = f"{name} = {alias}.empty_like({text}{'' if method else ', subok=False'})"
    edits = [ctx.rewriter.insert_line_before(loop, made), ctx.edit(ctx.rewriter.replace(stmt, refresh))]
    return Fix(finding, f"'{ctx.model.segment(stmt, 40)}' -> '{made}' before the loop at line {loop.lineno}, '{refresh}' in it",
               edits, ctx.scope_node(stmt), moves_statements=True)


_LIKE = frozenset({"empty_like", "zeros_like", "ones_like", "copy"})


def _buffer_ready(model, name: str, source: ast.expr, loop: ast.stmt) -> bool:  # type: ignore[no-untyped-def]
    """The statement right before the loop already makes ``name`` a buffer
    like ``source`` (``pn = np.empty_like(p)``; the buffer is unread until the
    loop's copy fills it): the copy can fill that buffer instead of a new one."""
    block = _block_of(model, loop)
    position = next(i for i, s in enumerate(block) if s is loop)
    if position == 0 or not isinstance(source, ast.Name):
        return False
    before = block[position - 1]
    if not (isinstance(before, ast.Assign) and len(before.targets) == 1 and _is_name(before.targets[0], name)):
        return False
    value = before.value
    if isinstance(value, ast.Call) and not value.keywords and len(value.args) == 1 and model.call_api(value) in _LIKE:
        made_from = value.args[0]
    elif isinstance(value, ast.Call) and not value.args and not value.keywords and isinstance(value.func, ast.Attribute) \
            and value.func.attr == "copy" and model.call_api(value) is None:
        made_from = value.func.value
    else:
        return False
    return isinstance(made_from, ast.Name) and made_from.id == source.id and {
        id(b) for b in model.reaching_bindings(made_from)} == {id(b) for b in model.reaching_bindings(source)}


def _check_only_binding(model, name: str, scope: Scope, stmt: ast.Assign, frame: LoopFrame) -> None:  # type: ignore[no-untyped-def]
    """The allocation is the name's only live binding: others (outside the
    loop) reach no read, like ``un = np.zeros_like(u)`` that a loop's
    ``un = u.copy()`` always replaces before anything reads it."""
    if name in scope.global_names:
        raise Refused(f"'{name}' is declared global")
    for b in scope.bindings.get(name, ()):
        if b.node is stmt.targets[0] or b.kind is BindKind.AUG:
            continue
        dead = (not inside_pos(b.pos, frame.node) and b.kind is BindKind.VALUE and isinstance(b.node, ast.Name)
                and not uses_reached_by(model, b.node))
        if not dead:
            raise Refused(f"'{name}' is also bound at line {b.pos[0]}")


def _names_read(reads: list[ast.expr]) -> list[ast.Name]:
    return [n for e in reads for n in ast.walk(e) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]


def _check_stable_reads(model, reads: list[ast.expr], frame: LoopFrame) -> None:  # type: ignore[no-untyped-def]
    """A name read for more than its shape (``np.zeros_like(u)`` reads u's
    dtype too; ``u.copy()`` its values) is rebound in the loop only by
    in-place updates of the array, which keep shape and dtype."""
    for node in _names_read(reads):
        parent = model.parent(node)
        if isinstance(parent, ast.Attribute) and parent.attr in ("shape", "size", "ndim"):
            continue  # hoist_frame has proven the shape does not change
        scope = model.lookup(node)
        for b in scope.bindings.get(node.id, ()) if scope is not None else ():
            if inside_pos(b.pos, frame.node) and not (b.kind is BindKind.AUG and model.kind(b.node) is Kind.DEVICE):
                raise Refused(f"'{node.id}' is rebound in the loop (line {b.pos[0]})")


def _check_bound_before(model, reads: list[ast.expr], frame: LoopFrame) -> None:  # type: ignore[no-untyped-def]
    """Every name the allocation reads already has its value when the loop starts."""
    start = (frame.node.lineno, frame.node.col_offset)  # type: ignore[attr-defined]
    for node in _names_read(reads):
        owner = model.lookup(node)
        if owner is None:
            continue  # a builtin
        home = model.scope_of(node).function_like()
        if owner.function_like() is not home:
            continue  # a global or a closure variable: bound when the function runs
        before = [b for b in model.reaching_bindings(node) if not inside_pos(b.pos, frame.node)]
        if not before:
            raise Refused(f"'{node.id}' has no value before the loop")
        for b in before:
            if b.pos >= start:
                raise Refused(f"'{node.id}' is bound after the loop (line {b.pos[0]})")


def _check_not_shared(model, name: str, scope: Scope, frame: LoopFrame) -> None:  # type: ignore[no-untyped-def]
    """No read of the buffer in the loop keeps it, and no other function reads it."""
    home = scope.function_like()
    for load in loads_of(model, name, scope):
        if model.scope_of(load).function_like() is not home:
            raise Refused(f"'{name}' is read in another function (line {load.lineno})")
        if not inside(load, frame.node):
            continue
        site = keeping_site(model, load)
        if site is not None:
            raise Refused(f"'{name}' may be kept beyond the iteration at line {getattr(site, 'lineno', load.lineno)} "
                          f"('{model.segment(site, 40)}'): one buffer would then be shared")




def _check_placeable(ctx: FixContext, stmt: ast.stmt, loop: ast.stmt) -> None:
    rewriter = ctx.rewriter
    if not rewriter.statement_alone(stmt):
        raise Refused("the allocation shares its line with other statements")
    line = rewriter.line_text(loop.lineno)
    if line[: rewriter.point(loop.lineno, loop.col_offset)[1]].strip():
        raise Refused("the loop does not start its own line")


def _check_overwritten(model, stmt: ast.Assign, name: str) -> None:  # type: ignore[no-untyped-def]
    """The statements after the allocation in its block write every element
    before anything reads one, and none of those before leaves the block."""
    block = _block_of(model, stmt)
    position = next(i for i, s in enumerate(block) if s is stmt)
    for later in block[position + 1:]:
        if not _mentions(later, name):
            if any(isinstance(n, _LEAVES) for n in ast.walk(later)):
                raise Refused(f"the loop may move on at line {later.lineno} before '{name}' is written")
            continue
        if _writes_all(model, later, name):
            return
        raise Refused(f"'{name}' is read or partly written at line {later.lineno} before every element is written: "
                      "a reused buffer would show the previous iteration's values")
    raise Refused(f"'{name}' is not written in the statements after the allocation")


def _block_of(model, stmt: ast.stmt) -> list[ast.stmt]:  # type: ignore[no-untyped-def]
    parent = model.parent(stmt)
    for field in ("body", "orelse", "finalbody"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and any(s is stmt for s in block):
            return block
    raise Refused("the allocation's block could not be read")


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _writes_all(model, stmt: ast.stmt, name: str) -> bool:  # type: ignore[no-untyped-def]
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        return (isinstance(target, ast.Subscript) and _is_name(target.value, name) and _whole(target.slice)
                and not _mentions(stmt.value, name))
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    call = stmt.value
    api = model.call_api(call)
    if any(k.arg == "where" for k in call.keywords):
        return False
    out = [k for k in call.keywords if k.arg == "out"]
    if api in _WRITES_ALL_OF_OUT and len(out) == 1 and _is_name(out[0].value, name):
        return not any(_mentions(a, name) for a in call.args) and not any(
            _mentions(k.value, name) for k in call.keywords if k.arg != "out")
    if api == "copyto" and len(call.args) == 2 and not call.keywords and _is_name(call.args[0], name):
        return not _mentions(call.args[1], name)
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "fill" and _is_name(func.value, name) and len(call.args) == 1:
        return not _mentions(call.args[0], name)
    return False


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _whole(index: ast.expr) -> bool:
    """``:``, ``...`` or a tuple of them: every element."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return bool(parts) and all(
        (isinstance(p, ast.Slice) and p.lower is None and p.upper is None and p.step is None)
        or (isinstance(p, ast.Constant) and p.value is Ellipsis)
        for p in parts
    )


def _check_filled(model, stmt: ast.Assign, name: str, scope: Scope, frame: LoopFrame) -> None:  # type: ignore[no-untyped-def]
    """Zeros, ones or a fill value: the same values every iteration when the
    loop never writes into them, and never seen when it overwrites them."""
    try:
        _check_never_written(model, name, scope, frame)
    except Refused:
        _check_overwritten(model, stmt, name)


def _check_never_written(model, name: str, scope: Scope, frame: LoopFrame) -> None:  # type: ignore[no-untyped-def]
    """A constant array may be shared by every iteration only if none writes into it."""
    for b in scope.bindings.get(name, ()):
        if b.kind is BindKind.AUG:
            raise Refused(f"'{name}' is updated in place at line {b.pos[0]}")
    for load in loads_of(model, name, scope):
        if inside(load, frame.node) and _written_through(model, load):
            raise Refused(f"'{name}' is written into at line {load.lineno}")


def _written_through(model, load: ast.Name) -> bool:  # type: ignore[no-untyped-def]
    parent = model.parent(load)
    if isinstance(parent, ast.Subscript) and parent.value is load:
        return not isinstance(parent.ctx, ast.Load)
    if isinstance(parent, ast.keyword) and parent.arg == "out":
        return True
    if isinstance(parent, ast.Attribute) and parent.attr in _WRITING_METHODS:
        return True
    if isinstance(parent, ast.Call) and load in parent.args:
        api = model.call_api(parent) or ""
        if api in _WRITING_FUNCTIONS and parent.args[0] is load:
            return True
        if api in UFUNCS and parent.args.index(load) >= UFUNCS[api]:
            return True  # a positional out argument
    return False
