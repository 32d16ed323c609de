"""Helpers of the loop work classification (:mod:`.loops`).

Syntax tests and small tables the rooms of
:class:`~cpn_lint.model.loops.WorkAnalysis` share: which names an
expression mentions, an index's components, views that keep an array's
size, element-wise and contracting calls, the flow of values between a
function's names, boolean masks of indices (:func:`mask_indices`, also read
by CPN204 and its fix), and the tests that take one element of a value.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .scopes import BindKind, LoopFrame, Scope
from .spatial import SliceForm, slice_form
from .syntax import callee_name, names_in, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel



def _handed_to_unread_parameter(model: "FileModel", node: ast.expr) -> bool:
    """Is ``node`` part of an argument (``t``, ``t + dt / 2``) that a
    function of the file receives and never reads?"""
    child: ast.AST = node
    parent = model.parent(node)
    while isinstance(parent, (ast.BinOp, ast.UnaryOp)):
        child, parent = parent, model.parent(parent)
    return isinstance(parent, ast.Call) and isinstance(child, ast.expr) and model.calls.unread_argument(parent, child)


# Attributes that are the same array seen another way (a transpose, a part).
_SAME_SIZE_VIEWS = frozenset({"T", "mT", "real", "imag"})

# Builtins that compute with the device values they are given (CPN110's
# subject) rather than show or store them: their arguments are the loop's work.
_COMPUTING_BUILTINS = frozenset({"min", "max", "sum"})

# NumPy calls that combine their array arguments element by element or by a
# contraction: a filter or weights passed beside a window is bounded by it.
_CONTRACTIONS = frozenset({"dot", "matmul", "inner", "vdot", "tensordot", "einsum"})
_COMBINERS = _CONTRACTIONS | frozenset({"multiply", "add", "subtract", "divide", "true_divide", "convolve", "correlate", "kron"})


_ARRAY_EVIDENCE_METHODS = frozenset({"sum", "mean", "dot", "reshape", "copy", "astype", "ravel", "flatten", "transpose", "std", "var", "cumsum", "argmax", "argmin"})


def _attribute_key(model: "FileModel", node: ast.Attribute) -> tuple[int, str, str] | None:
    """(class, receiver, attribute) for ``self.X`` inside a method: the same
    attribute wherever the class's methods use it."""
    if not isinstance(node.value, ast.Name):
        return None
    for ancestor in model.ancestors(node):
        if isinstance(ancestor, ast.ClassDef):
            return id(ancestor), node.value.id, node.attr
    return None


def _array_evidence(model: "FileModel", use: ast.Attribute) -> bool:
    """Is this use of a value one only arrays support (``.shape``, ``.T``,
    ``[i, j]``, ``@``, an array method, the array argument of a NumPy call)?"""
    parent = model.parent(use)
    if isinstance(parent, ast.Attribute) and parent.value is use:
        if parent.attr in ("shape", "ndim", "dtype", "T"):
            return True
        return parent.attr in _ARRAY_EVIDENCE_METHODS and isinstance(model.parent(parent), ast.Call)
    if isinstance(parent, ast.Subscript) and parent.value is use:
        return isinstance(parent.slice, ast.Tuple) and len(parent.slice.elts) >= 2
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.MatMult):
        return True
    if isinstance(parent, ast.Call) and parent.args and parent.args[0] is use:
        from .numpy_api import NOT_ARRAY_FIRST_ARGUMENT

        api = model.call_api(parent)
        return api is not None and api not in NOT_ARRAY_FIRST_ARGUMENT and not api.startswith("random.")
    return False


def _is_elementwise(api: str | None) -> bool:
    from .numpy_api import ELEMENTWISE

    return api is not None and api in ELEMENTWISE


def _only_new_axes(index: ast.expr) -> bool:
    """``[None]``, ``[:, None]``, ``[..., np.newaxis]``, ``[::-1]``: a view
    of the whole array with axes added or reversed."""
    parts = list(index.elts) if isinstance(index, ast.Tuple) else [index]
    for part in parts:
        if isinstance(part, ast.Constant) and part.value in (None, Ellipsis):
            continue
        if isinstance(part, ast.Attribute) and part.attr == "newaxis":
            continue
        if isinstance(part, ast.Slice) and part.lower is None and part.upper is None:
            continue
        return False
    return True


# NumPy functions whose first argument comes back as a view or copy of the
# same elements, whatever its size: np.ravel(w) is as large as w.
VIEW_FUNCTIONS = frozenset({"ravel", "reshape", "transpose", "flip", "squeeze", "fliplr", "flipud", "rot90"})


def _through_views(model: "FileModel", node: ast.expr) -> tuple[ast.expr, ast.AST | None]:
    """``node`` and its parent, after climbing views of the whole array
    (``w[None]``, ``w.T``, ``w[::-1]``, ``w.reshape(...)``)."""
    child: ast.expr = node
    parent = model.parent(child)
    while True:
        if isinstance(parent, ast.Subscript) and parent.value is child and _only_new_axes(parent.slice):
            child, parent = parent, model.parent(parent)
        elif isinstance(parent, ast.Attribute) and parent.value is child and parent.attr == "T":
            child, parent = parent, model.parent(parent)
        elif (isinstance(parent, ast.Attribute) and parent.value is child and parent.attr in ("reshape", "ravel", "flatten")
              and isinstance(model.parent(parent), ast.Call)):
            child = model.parent(parent)  # type: ignore[assignment]
            parent = model.parent(child)
        elif isinstance(parent, ast.Call) and parent.args[:1] == [child] and model.call_api(parent) in VIEW_FUNCTIONS:
            child, parent = parent, model.parent(parent)  # np.ravel(w), np.reshape(w, ...)
        else:
            return child, parent


def _flow_edges(scope: "Scope") -> dict[str, set[str]]:
    """For a function: each name -> the names its assignments compute from
    it (``x_, y_ = np.floor(x), np.floor(y)``: x -> {x_}, y -> {y_})."""
    edges: dict[str, set[str]] = {}
    for stmt in walk(scope.node):
        if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or stmt.value is None:
            continue
        value = stmt.value
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
                pairs = list(zip(target.elts, value.elts))
            else:
                pairs = [(target, value)]
            for bound, made in pairs:
                if isinstance(bound, ast.Name):
                    for name in names_in(made):
                        edges.setdefault(name, set()).add(bound.id)
    return edges


def _reach(edges: dict[str, set[str]], seeds: frozenset[str]) -> frozenset[str]:
    """``seeds`` and every name ``edges`` lead to from them."""
    found = set(seeds)
    stack = list(seeds)
    while stack:
        for name in edges.get(stack.pop(), ()):
            if name not in found:
                found.add(name)
                stack.append(name)
    return frozenset(found)


def _chain_root(expr: ast.expr) -> ast.expr | None:
    """``X`` of ``X[i]``, ``X[i][j]``, ``X.T``, ``X[None]``; ``self.c`` of
    ``self.c[k]``; None for a computed value."""
    while isinstance(expr, ast.Subscript) or (isinstance(expr, ast.Attribute) and expr.attr in _SAME_SIZE_VIEWS):
        expr = expr.value
    return expr if isinstance(expr, (ast.Name, ast.Attribute)) else None


def _pixel(components: list[ast.expr], names: frozenset[str]) -> bool:
    """Two neighbouring axes picked by two different indices (or windows
    they move), beside axes left whole: ``out[:, i, j, :]``,
    ``inp[:, i:i + K, j:j + K, :]`` — one pixel of an image across the
    batch and channel axes."""
    picked = [names_in(c) & names if mentions(c, names) else set() for c in components]
    return any(a and b and len(a | b) >= 2 for a, b in zip(picked, picked[1:]))


def _unclamped(bound: ast.expr | None, moving: frozenset[str]) -> ast.expr | None:
    """``max(0, y - r)`` -> ``y - r``, ``min(h, y + r + 1)`` -> ``y + r + 1``:
    a window clamped at the array's edges (what the loop does not move) is
    no wider than the window."""
    if isinstance(bound, ast.Call) and isinstance(bound.func, ast.Name) and bound.func.id in ("max", "min") \
            and len(bound.args) == 2 and not bound.keywords:
        with_index = [a for a in bound.args if mentions(a, moving)]
        if len(with_index) == 1:
            return with_index[0]
    return bound


def _has_window(sub: ast.Subscript, names: frozenset[str]) -> bool:
    """Does the access pick a window or block (a slice the index moves with
    both bounds), rather than elements, rows or prefixes?"""
    for part in _components(sub):
        if isinstance(part, ast.Slice) and part.lower is not None and part.upper is not None and mentions(part, names):
            form = slice_form(part, names)
            if form is not None and form.form in (SliceForm.WINDOW, SliceForm.BLOCK):
                return True
    return False


def _element_target(model: "FileModel", node: ast.AST, names: frozenset[str]) -> bool:
    """Is ``node`` computed for an element the index picks (``y[i] = ...``)?"""
    stmt = model.statement_of(node)
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AugAssign) else []
    for target in targets:
        if isinstance(target, ast.Subscript) and mentions(target.slice, names):
            if not any(isinstance(c, ast.Slice) for c in _components(target)):
                return True
    return False


_TRUTH_COMPARISONS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


def _tested_for_truth(model: "FileModel", node: ast.expr) -> bool:
    """``x`` in ``if x > 0:``, ``while a < b and c:``, ``y if x == 0 else z``:
    an operand of a comparison whose result is a test's truth value. On an
    array of several elements that raises, so the value is one element.
    (``in``/``is`` and comparisons passed to ``np.any`` do not count.)"""
    parent = model.parent(node)
    if not isinstance(parent, ast.Compare) or not all(isinstance(op, _TRUTH_COMPARISONS) for op in parent.ops):
        return False
    child: ast.AST = parent
    parent = model.parent(parent)
    while isinstance(parent, ast.BoolOp) or (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)):
        child, parent = parent, model.parent(parent)
    return isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)) and parent.test is child


def _builtin_extremum(model: "FileModel", call: ast.Call) -> bool:
    """``max(m, a[i])``, ``min(a, b, c)``: the builtin (not pylab's NumPy
    ``max`` from a star import) comparing two or more values."""
    func = call.func
    return (isinstance(func, ast.Name) and func.id in ("max", "min") and len(call.args) >= 2
            and not any(isinstance(a, ast.Starred) for a in call.args)
            and model.lookup(func) is None and model.qualname(func) is None)


def _truth_names(test: ast.expr) -> list[ast.Name]:
    """The names whose truth ``test`` takes: the test itself (``if x:``) and
    the operands of its truth comparisons (as in :func:`_tested_for_truth`),
    through ``and``/``or``/``not``."""
    found: list[ast.Name] = []
    stack = [test]
    while stack:
        expr = stack.pop()
        if isinstance(expr, ast.BoolOp):
            stack += expr.values
        elif isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
            stack.append(expr.operand)
        elif isinstance(expr, ast.Compare):
            if all(isinstance(op, _TRUTH_COMPARISONS) for op in expr.ops):
                found += [e for e in (expr.left, *expr.comparators) if isinstance(e, ast.Name)]
        elif isinstance(expr, ast.Name):
            found.append(expr)
    return found


def _arithmetic_operands(value: ast.expr) -> list[ast.Name]:
    """The names ``value`` combines by arithmetic alone (``+ - * / ** ...``
    and unary signs); a call, subscript or anything else stops the walk."""
    found: list[ast.Name] = []
    stack = [value]
    while stack:
        expr = stack.pop()
        if isinstance(expr, ast.BinOp):
            stack += [expr.left, expr.right]
        elif isinstance(expr, ast.UnaryOp) and not isinstance(expr.op, ast.Not):
            stack.append(expr.operand)
        elif isinstance(expr, ast.Name):
            found.append(expr)
    return found


_VARYING_BINDINGS = (BindKind.VALUE, BindKind.AUG, BindKind.ELEMENT, BindKind.COUNTER)


def _header_end(frame: LoopFrame) -> tuple[int, int]:
    """The position up to which names are bound by the loop's header."""
    node = frame.node
    target = getattr(node, "target", None)
    if target is None and frame.is_comprehension:
        return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)
    if target is None:
        return (0, 0)
    return (target.end_lineno or target.lineno, target.end_col_offset or 0)


def _components(sub: ast.Subscript) -> list[ast.expr]:
    return list(sub.slice.elts) if isinstance(sub.slice, ast.Tuple) else [sub.slice]


# The forms of what a mask-to-indices call returns (mask_indices).
TUPLE = "tuple"  # one index array per axis: np.nonzero, one-argument np.where
MATRIX = "matrix"  # np.argwhere: one row per hit
FLAT = "flat"  # np.flatnonzero


def mask_indices(model: "FileModel", call: ast.Call) -> tuple[ast.expr, str] | None:
    """The mask a nonzero-family call turns into indices, and the form of
    the result: TUPLE (one index array per axis), MATRIX (argwhere: one row
    per hit) or FLAT (flatnonzero)."""
    func = call.func
    if callee_name(func) not in ("nonzero", "where", "argwhere", "flatnonzero"):
        return None  # cheap test before resolving the name through the imports
    api = model.call_api(call)
    if call.args and (api == "nonzero" or (api == "where" and len(call.args) == 1 and not call.keywords)):
        return call.args[0], TUPLE
    if call.args and api == "argwhere":
        return call.args[0], MATRIX
    if call.args and api == "flatnonzero":
        return call.args[0], FLAT
    if isinstance(func, ast.Attribute) and func.attr == "nonzero" and not call.args and model.is_array(func.value):
        return func.value, TUPLE
    return None


def _mask_of_indices(model: "FileModel", expr: ast.expr) -> ast.expr | None:
    """The mask :func:`mask_indices` finds behind ``expr``, also through one
    vector of the result (``np.where(m)[0]``); None for anything else."""
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Call):
        expr = expr.value
    found = mask_indices(model, expr) if isinstance(expr, ast.Call) else None
    return found[0] if found is not None else None


def _index_only(index: ast.expr) -> bool:
    """``[j]``, ``[0]``, ``[i, j + 1]``: integer positions, no slice or new axis."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return all(not isinstance(p, ast.Slice) and not (isinstance(p, ast.Constant) and p.value in (None, Ellipsis))
               for p in parts)


def _chain_picks(model: "FileModel", sub: ast.Subscript, names: frozenset[str]) -> bool:
    """Does ``sub`` pick by ``names``: its own index, or, when it completes a
    chain with integer positions (``pot[i][0]``), any index of the chain."""
    if isinstance(sub.value, ast.Subscript) and _index_only(sub.slice):
        return chain_mentions(model, sub, names)
    return mentions(sub.slice, names)


def chain_mentions(model: "FileModel", sub: ast.Subscript, names: frozenset[str]) -> bool:
    """Whether any pick of the chain ``sub`` is part of (``E[i][j][0]``: all three) uses ``names``."""
    node: ast.expr = sub
    parent = model.parent(node)
    while isinstance(parent, ast.Subscript) and parent.value is node:
        node, parent = parent, model.parent(parent)
    while isinstance(node, ast.Subscript):
        if mentions(node.slice, names):
            return True
        node = node.value
    return False


def mentions(expr: ast.AST, names: frozenset[str]) -> bool:
    return bool(names) and any(isinstance(n, ast.Name) and n.id in names for n in walk(expr))


def _offset(expr: ast.expr) -> tuple[str, int] | None:
    """``i`` -> ("i", 0), ``i + 2`` -> ("i", 2), ``i - 1`` -> ("i", -1)."""
    if isinstance(expr, ast.Name):
        return expr.id, 0
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)) and isinstance(expr.left, ast.Name):
        if isinstance(expr.right, ast.Constant) and isinstance(expr.right.value, int):
            return expr.left.id, expr.right.value if isinstance(expr.op, ast.Add) else -expr.right.value
    return None
