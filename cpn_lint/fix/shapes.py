"""Shape facts a rewrite may rest on.

The model's shapes (:meth:`FileModel.shape`) follow a function's parameters
to what the file's own call sites pass. That is the right guess for a
report, but not a proof: another module may call the function with other
shapes. A rewrite therefore trusts a shape only when it is built inside the
code it rewrites (:func:`from_callers` is False), or proves that two values
have one shape from how one is made from the other (:func:`same_shape`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..model import BindKind, Kind
from ..model.shapes import broadcast

if TYPE_CHECKING:  # pragma: no cover
    from ..model import FileModel

_MAX_DEPTH = 8
# Constructors whose shape is given by their size arguments.
_SIZED = frozenset({"zeros", "ones", "empty", "full", "arange", "linspace", "logspace", "eye", "identity"})
# Calls whose result has the shape of their (broadcast) array arguments.
_ELEMENTWISE = frozenset(
    {
        "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power", "remainder", "mod",
        "fmod", "negative", "positive", "absolute", "abs", "fabs", "sqrt", "cbrt", "square", "exp", "exp2",
        "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan",
        "arctan2", "sinh", "cosh", "tanh", "hypot", "maximum", "minimum", "fmax", "fmin", "clip", "sign",
        "floor", "ceil", "trunc", "rint", "isnan", "isinf", "isfinite", "signbit", "logical_and",
        "logical_or", "logical_not", "logical_xor", "greater", "greater_equal", "less", "less_equal",
        "equal", "not_equal", "where", "isclose", "conj", "conjugate", "real", "imag",
    }
)
# Keywords that say how, not what: they never change a result's shape.
_NOT_DATA = frozenset({"dtype", "order", "casting", "subok", "copy", "like"})
_SAME_AS_FIRST = frozenset({"zeros_like", "ones_like", "empty_like", "full_like", "copy"})


def from_callers(model: "FileModel", expr: ast.expr | None, depth: int = 0, seen: set[int] | None = None) -> bool:
    """May ``expr``'s shape depend on something outside the code at hand
    (a parameter, a loop item, a function's result)? Numbers count for
    nothing: as sizes they are symbolic extents the model compares by name."""
    seen = set() if seen is None else seen
    if expr is None or depth > _MAX_DEPTH:
        return True
    if isinstance(expr, ast.Constant) or model.kind(expr) is Kind.SCALAR:
        return False
    if isinstance(expr, ast.Name):
        return _name_from_callers(model, expr, depth, seen)
    if isinstance(expr, (ast.Tuple, ast.List)):
        return any(from_callers(model, e, depth + 1, seen) for e in expr.elts)
    if isinstance(expr, ast.BinOp):
        return from_callers(model, expr.left, depth + 1, seen) or from_callers(model, expr.right, depth + 1, seen)
    if isinstance(expr, ast.UnaryOp):
        return from_callers(model, expr.operand, depth + 1, seen)
    if isinstance(expr, ast.Compare):
        return any(from_callers(model, e, depth + 1, seen) for e in (expr.left, *expr.comparators))
    if isinstance(expr, ast.Attribute):
        return from_callers(model, expr.value, depth + 1, seen)
    if isinstance(expr, ast.Subscript):
        index_names = [n for n in ast.walk(expr.slice) if isinstance(n, ast.Name)]
        return from_callers(model, expr.value, depth + 1, seen) or any(
            from_callers(model, n, depth + 1, seen) for n in index_names)
    if isinstance(expr, ast.Call):
        return _call_from_callers(model, expr, depth, seen)
    return True


def _name_from_callers(model: "FileModel", name: ast.Name, depth: int, seen: set[int]) -> bool:
    bindings = model.reaching_bindings(name)
    if not bindings:
        return True
    for b in bindings:
        if b.kind in (BindKind.AUG, BindKind.NOT_ARRAY) or id(b) in seen:
            continue  # an in-place update keeps the shape; a module or a function is no data
        if b.kind is not BindKind.VALUE or b.value is None:
            return True
        seen.add(id(b))
        if from_callers(model, b.value, depth + 1, seen):
            return True
    return False


def _call_from_callers(model: "FileModel", call: ast.Call, depth: int, seen: set[int]) -> bool:
    api = model.call_api(call)
    func = call.func
    receiver_kind = model.kind(func.value) if isinstance(func, ast.Attribute) else None
    if api is None and receiver_kind is not Kind.GENERATOR and not (receiver_kind is not None and receiver_kind.is_device):
        return True  # the file's own functions, other libraries
    if api in _SIZED:
        sizes = call.args[:1] if api not in ("arange", "linspace", "logspace") else call.args
        inputs: list[ast.expr] = [*sizes, *(k.value for k in call.keywords if k.arg in ("shape", "num"))]
        return any(from_callers(model, a, depth + 1, seen) for a in inputs)
    inputs = [*call.args, *(k.value for k in call.keywords if k.arg not in _NOT_DATA)]
    if api is None and receiver_kind is not Kind.GENERATOR and isinstance(func, ast.Attribute):
        inputs.append(func.value)  # a method of an array
    return any(from_callers(model, a, depth + 1, seen) for a in inputs)


def same_shape(model: "FileModel", expr: ast.expr, ref: ast.Name, depth: int = 0) -> bool:
    """Is ``expr`` an array of ``ref``'s shape by construction: ``ref``
    itself, an elementwise expression of it and numbers, a ``_like`` or a
    copy of it, or a name bound only to those?"""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, ast.Name):
        if expr.id == ref.id and _same_bindings(model, expr, ref):
            return True
        bindings = model.reaching_bindings(expr)
        return bool(bindings) and all(
            b.kind is BindKind.AUG or (b.kind is BindKind.VALUE and b.value is not None and same_shape(model, b.value, ref, depth + 1))
            for b in bindings
        ) and any(b.kind is BindKind.VALUE for b in bindings)
    parts = _elementwise_parts(model, expr)
    if parts is None:
        return False
    arrays = [p for p in parts if not _is_number(model, p)]
    return bool(arrays) and all(same_shape(model, p, ref, depth + 1) for p in arrays)


def _same_bindings(model: "FileModel", a: ast.Name, b: ast.Name) -> bool:
    return {id(x) for x in model.reaching_bindings(a)} == {id(x) for x in model.reaching_bindings(b)}


def _elementwise_parts(model: "FileModel", expr: ast.expr) -> list[ast.expr] | None:
    """The operands of an expression whose shape is their broadcast shape."""
    if isinstance(expr, ast.BinOp) and not isinstance(expr.op, ast.MatMult):
        return [expr.left, expr.right]
    if isinstance(expr, ast.UnaryOp):
        return [expr.operand]
    if isinstance(expr, ast.Compare):
        return [expr.left, *expr.comparators]
    if isinstance(expr, ast.Call):
        api = model.call_api(expr)
        if api in _ELEMENTWISE and not any(k.arg in ("out", "where") for k in expr.keywords):
            return list(expr.args)
        if api in _SAME_AS_FIRST and expr.args and not any(k.arg == "shape" for k in expr.keywords) and len(expr.args) <= 2:
            return [expr.args[0]]
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr == "copy" and not expr.args and model.kind(func.value).is_device:
            return [func.value]
    return None


def _is_number(model: "FileModel", expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) or model.kind(expr) is Kind.SCALAR


def known_shape(model: "FileModel", expr: ast.expr) -> tuple[object, ...] | None:
    """``expr``'s shape when the code at hand states every extent."""
    if from_callers(model, expr):
        return None
    shape = model.shape(expr)
    if shape is None or any(extent is None for extent in shape):
        return None
    return shape


def broadcasts_into(model: "FileModel", expr: ast.expr, ref: ast.Name) -> bool:
    """Does combining ``ref`` with ``expr`` elementwise keep ``ref``'s shape?"""
    if _is_number(model, expr) or same_shape(model, expr, ref):
        return True
    if model.kind(expr) is Kind.DEVICE_SCALAR:
        shape = model.shape(expr)
        if shape is not None and all(extent == 1 for extent in shape) and len(shape) <= 1:
            return True
    target, other = known_shape(model, ref), known_shape(model, expr)
    return target is not None and other is not None and broadcast(target, other) == target  # type: ignore[arg-type]


def known_rank(model: "FileModel", expr: ast.expr) -> int | None:
    """``expr``'s number of axes when the code at hand fixes it: the length
    of a literal shape tuple (whatever its extents), 1 for ``np.arange`` and
    ``np.linspace``, 2 for ``np.eye``, else a shape not from the callers."""
    if isinstance(expr, ast.Call):
        api = model.call_api(expr)
        if api in ("arange", "linspace", "logspace"):
            return 1
        if api in ("eye", "identity"):
            return 2
        first = expr.args[0] if expr.args else None
        if api in ("zeros", "ones", "empty", "full") and first is not None:
            if isinstance(first, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in first.elts):
                return len(first.elts)
            if isinstance(first, ast.Constant) or model.kind(first) is Kind.SCALAR:
                return 1
    if from_callers(model, expr):
        return None
    shape = model.shape(expr)
    return len(shape) if shape is not None else None
