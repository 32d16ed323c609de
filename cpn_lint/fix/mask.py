"""CPN204: ``a[np.nonzero(m)]``, ``a[np.where(m)]`` and ``a[m.nonzero()]``
become ``a[m]`` when ``m`` is a boolean array of ``a``'s shape; for 1-D
arrays ``a[np.nonzero(m)[0]]``, ``a[np.where(m)[0]]`` and
``a[np.flatnonzero(m)]`` too.

Indexing with the tuple of index arrays ``np.nonzero(m)`` selects the
elements where ``m`` is true in row-major order, which is exactly what the
boolean index ``a[m]`` selects (and assigns, with ``a[...] = v``), provided
``m`` has ``a``'s shape. Indices bound to a name first are left alone: the
mask may change before they are used.
"""

from __future__ import annotations

import ast

from ..findings import Finding
from ..model import Kind
from ..model.loop_helpers import FLAT, TUPLE, mask_indices
from ..rules.cpn204_nonzero_then_index import _is_boolean
from .base import Fix, FixContext, Refused
from .shapes import known_shape, same_shape


def fix_nonzero(ctx: FixContext, finding: Finding) -> Fix:
    model = ctx.model
    call = ctx.node_at(finding, ast.Call)
    found = mask_indices(model, call)
    if found is None:
        raise Refused("the call is not a one-argument nonzero/where")
    mask, form = found
    index, whole = _index_expression(model, call, form)
    holder = model.parent(index)
    if not (isinstance(holder, ast.Subscript) and holder.slice is index):
        raise Refused("the indices are bound to a name or are part of a larger index: replace them with the mask by hand")
    array = holder.value
    if model.kind(array) is not Kind.DEVICE:
        raise Refused("the indexed value is not known to be an array")
    if not _is_boolean(model, mask):
        raise Refused(f"'{model.segment(mask, 30)}' is not known to be boolean (index with '... != 0' by hand)")
    shape = known_shape(model, array)
    if not same_shape(model, mask, array) if isinstance(array, ast.Name) else True:
        if shape is None or known_shape(model, mask) != shape:
            raise Refused("the mask is not known to have the indexed array's shape")
    if not whole and (shape is None or len(shape) != 1):
        raise Refused("one axis of the indices is used: the mask replaces it only for arrays known to be 1-D")
    text = ctx.text(mask)
    if isinstance(mask, (ast.NamedExpr, ast.Starred)):
        text = f"({text})"
    edit = ctx.edit(ctx.rewriter.replace(index, text))
    before = model.segment(holder, 50)
    return Fix(finding, f"{before} -> {model.segment(array, 30)}[{text}]", [edit], ctx.scope_node(call))


def _index_expression(model, call: ast.Call, form: str) -> tuple[ast.expr, bool]:  # type: ignore[no-untyped-def]
    """The expression that indexes (the call, or ``call[0]``) and whether it
    stands for every axis of the mask."""
    parent = model.parent(call)
    if form == TUPLE and isinstance(parent, ast.Subscript) and parent.value is call:
        index = parent.slice
        if isinstance(index, ast.Constant) and index.value == 0 and isinstance(parent.ctx, ast.Load):
            return parent, False
        raise Refused("one axis of the indices other than the first is used")
    if form == FLAT:
        return call, False
    if form != TUPLE:
        raise Refused("np.argwhere gives one row per hit: rewrite the indexing with the mask by hand")
    return call, True
