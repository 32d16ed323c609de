"""CPN110: ``sum(a)``, ``min(a)``, ``max(a)``, ``any(a)``, ``all(a)`` on an
array become the NumPy reduction along axis 0, which is what the builtin
computes by walking the array's first axis (for a 1-D array, the plain
``np.sum(a)``).

``sum`` is rewritten only when the array's dtype is known and at least as
wide as NumPy's accumulator (the builtin adds in the array's own dtype, so
an ``int8`` sum may wrap where ``np.sum`` would not). Floating-point sums
may differ in the last bits: NumPy adds pairwise, the builtin in order.
"""

from __future__ import annotations

import ast

from ..findings import Finding
from .base import Fix, FixContext, Refused
from .dtypes import dtype_of
from .shapes import known_rank

REDUCTIONS = frozenset({"sum", "min", "max", "any", "all"})
# dtypes whose builtin sum equals np.sum (NumPy accumulates in these too)
_SUMMABLE = frozenset({"bool", "int", "int64", "float32", "float64", "complex64", "complex128"})


def fix_builtin(ctx: FixContext, finding: Finding) -> Fix:
    model = ctx.model
    call = ctx.node_at(finding, ast.Call)
    func = call.func
    if not isinstance(func, ast.Name) or model.lookup(func) is not None:
        raise Refused("the builtin is shadowed or wrapped")
    name = func.id
    if name not in REDUCTIONS:
        raise Refused(f"'{name}(...)' has no one-call NumPy replacement that keeps the result's type")
    if call.keywords or len(call.args) != 1 or isinstance(call.args[0], ast.Starred):
        raise Refused(f"only the one-argument '{name}(a)' is rewritten (start values, key= and default= are not)")
    array = call.args[0]
    if not model.is_array(array):
        raise Refused("the argument is not known to be an array")
    if name == "sum" and dtype_of(model, array) not in _SUMMABLE:
        raise Refused("the array's dtype is not known (or is a narrow integer type): the builtin sum can wrap where np.sum widens")
    axis = "" if known_rank(model, array) == 1 else ", axis=0"
    replacement = f"{ctx.numpy_alias(call)}.{name}({ctx.text(array)}{axis})"
    edit = ctx.edit(ctx.rewriter.replace(call, replacement))
    return Fix(finding, f"{model.segment(call, 40)} -> {replacement}", [edit], ctx.scope_node(call))
