"""Who else may hold an array: the proof an in-place rewrite rests on.

Turning ``x = x + y`` into ``x += y`` (or allocating a loop's buffer once)
changes *which object* a name holds, never the values it holds. That is
invisible exactly when nothing else refers to the object: no other name,
container, attribute or callee keeps it or a view of it. This module checks
that, conservatively: a use it cannot classify keeps the array.

* :func:`fresh` — does an expression make a new array (not a view, not the
  caller's object)?
* :func:`keeping_site` — where the value of an expression may outlive it.
* :func:`sharing_reason` — why the array a name holds may be shared, or
  None when every read of the name only reads it.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..model import BindKind, Kind
from ..model.scopes import Binding, Scope

if TYPE_CHECKING:  # pragma: no cover
    from ..model import FileModel

# Array attributes that describe it without exposing its memory.
SHAPE_ATTRIBUTES = frozenset({"shape", "size", "ndim", "dtype", "nbytes", "itemsize", "strides"})
# Attributes and methods that return a view of the same memory (or the array itself).
VIEW_ATTRIBUTES = frozenset({"T", "mT", "real", "imag", "flat"})
VIEW_METHODS = frozenset({"reshape", "ravel", "view", "transpose", "squeeze", "swapaxes", "diagonal", "__array__"})
# Methods that return a new object or a number, and methods that only write into the array.
FRESH_METHODS = frozenset(
    {
        "sum", "prod", "mean", "std", "var", "max", "min", "ptp", "any", "all", "argmax", "argmin",
        "cumsum", "cumprod", "copy", "astype", "tolist", "item", "dot", "round", "clip", "flatten",
        "nonzero", "argsort", "conj", "conjugate", "trace", "repeat", "take", "tobytes", "tofile",
        "fill", "sort", "put", "itemset", "partition", "searchsorted", "__len__",
    }
)
# NumPy functions whose result is a new array or a number, whatever they are given.
FRESH_NUMPY = frozenset(
    {
        # elementwise functions
        "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power", "float_power",
        "remainder", "mod", "fmod", "negative", "positive", "absolute", "abs", "fabs", "sqrt", "cbrt",
        "square", "reciprocal", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
        "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
        "arctanh", "hypot", "maximum", "minimum", "fmax", "fmin", "clip", "sign", "floor", "ceil", "trunc",
        "rint", "around", "round", "deg2rad", "rad2deg", "degrees", "radians", "conjugate", "conj",
        "copysign", "logaddexp", "logaddexp2", "isnan", "isinf", "isfinite", "signbit", "heaviside",
        "greater", "greater_equal", "less", "less_equal", "equal", "not_equal", "logical_and",
        "logical_or", "logical_not", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "invert",
        "isclose", "where", "select", "piecewise", "interp", "nan_to_num",
        # reductions and scans
        "sum", "prod", "mean", "std", "var", "max", "min", "amax", "amin", "nansum", "nanmean", "nanmax",
        "nanmin", "nanstd", "nanvar", "median", "average", "ptp", "all", "any", "argmax", "argmin",
        "count_nonzero", "cumsum", "cumprod", "diff", "gradient", "allclose", "array_equal",
        "percentile", "quantile", "histogram", "bincount", "trapz", "trapezoid",
        # products and linear algebra
        "dot", "vdot", "inner", "outer", "matmul", "tensordot", "einsum", "kron", "cross", "trace",
        "linalg.norm", "linalg.solve", "linalg.inv", "linalg.det", "linalg.eig", "linalg.eigh",
        "linalg.svd", "linalg.qr", "linalg.cholesky", "linalg.lstsq", "linalg.pinv", "linalg.eigvalsh",
        # new arrays from others
        "copy", "concatenate", "stack", "vstack", "hstack", "dstack", "column_stack", "append", "roll",
        "tile", "repeat", "sort", "argsort", "unique", "nonzero", "flatnonzero", "argwhere",
        "zeros_like", "ones_like", "empty_like", "full_like", "take", "delete", "insert", "pad",
        "convolve", "correlate", "fft.fft", "fft.ifft", "fft.fft2", "fft.ifft2", "fft.fftn",
        "fft.ifftn", "fft.rfft", "fft.irfft", "fft.rfft2", "fft.irfft2", "fft.rfftn", "fft.irfftn",
        "fft.fftshift", "fft.ifftshift", "copyto", "putmask", "place", "shape", "ndim", "size",
        "save", "savez", "savetxt", "array2string", "array_repr", "array_str", "isscalar",
    }
)
# NumPy functions that may return their argument itself or a view of it.
VIEW_NUMPY = frozenset(
    {
        "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "reshape", "ravel", "transpose",
        "squeeze", "expand_dims", "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_to", "moveaxis",
        "swapaxes", "diagonal", "real", "imag", "flip", "fliplr", "flipud", "rot90",
    }
)
# NumPy functions that make a new array from nothing the caller holds.
FRESH_CONSTRUCTORS = frozenset(
    {
        "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like", "arange",
        "linspace", "logspace", "geomspace", "eye", "identity", "copy", "tri", "tril", "triu",
        "meshgrid", "indices", "fromfunction",
    }
)
# Builtins that read their argument and keep nothing of it.
READING_BUILTINS = frozenset(
    {"print", "len", "float", "int", "bool", "complex", "str", "repr", "format", "abs", "round", "isinstance",
     "min", "max", "sum", "any", "all", "hash", "type", "range"}
)
# The array escapes through a return: the caller holds it from then on.
RETURNED = ast.Return


def fresh(model: "FileModel", expr: ast.expr) -> bool:
    """Does ``expr`` evaluate to a new array nothing else refers to?"""
    if isinstance(expr, (ast.BinOp, ast.UnaryOp)):
        return True
    if not isinstance(expr, ast.Call):
        return False
    api = model.call_api(expr)
    if api is not None:
        if any(k.arg in ("copy", "out") for k in expr.keywords):
            return False  # copy=False and out= may hand back an array the caller holds
        if api == "array":
            return True
        if api == "asarray":
            return bool(expr.args) and isinstance(expr.args[0], (ast.List, ast.Tuple))
        return api in FRESH_CONSTRUCTORS or api.startswith("random.") or (api in FRESH_NUMPY and api not in _INPUT_PASSING)
    func = expr.func
    if isinstance(func, ast.Attribute):
        receiver = model.kind(func.value)
        if receiver is Kind.GENERATOR:
            return True  # rng.normal(size=...): a new draw
        if receiver is Kind.DEVICE and func.attr in ("copy", "flatten") :
            return True
        if receiver is Kind.DEVICE and func.attr == "astype":
            return not any(k.arg in ("copy", "out") for k in expr.keywords)
    return False


# Functions of FRESH_NUMPY that may hand back (or write into) what they were given.
_INPUT_PASSING = frozenset({"copyto", "putmask", "place", "save", "savez", "savetxt", "shape", "ndim", "size", "isscalar"})


def keeping_site(model: "FileModel", node: ast.expr, depth: int = 0) -> ast.AST | None:
    """Where the object ``node`` evaluates to (or a view of it) may be kept
    beyond the expression; None when it is only read or written into. A
    ``return`` comes back as the :class:`ast.Return`. ``depth`` counts the
    calls into the file's own functions followed so far."""
    parent = model.parent(node)
    if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.FormattedValue, ast.Expr, ast.Delete)):
        return None
    if isinstance(parent, ast.IfExp):
        return None if node is parent.test else keeping_site(model, parent, depth)
    if isinstance(parent, (ast.If, ast.While, ast.Assert)):
        return None
    if isinstance(parent, ast.Subscript):
        if node is not parent.value or not isinstance(parent.ctx, ast.Load) or _advanced(model, parent.slice):
            return None  # an index, a write into the array, or a copy made by advanced indexing
        return keeping_site(model, parent, depth)  # a view, or an element
    if isinstance(parent, ast.Attribute):
        return _attribute_site(model, parent, depth)
    if isinstance(parent, ast.keyword):
        call = model.parent(parent)
        if not isinstance(call, ast.Call):
            return parent
        if parent.arg == "out":
            return keeping_site(model, call, depth)  # written into, and handed back as the call's result
        return _argument_site(model, call, parent, depth)
    if isinstance(parent, ast.Call):
        return parent if node is parent.func else _argument_site(model, parent, node, depth)
    if isinstance(parent, ast.AugAssign):
        if node is parent.target or model.kind(parent.target) is Kind.DEVICE:
            return None
        return parent
    if isinstance(parent, ast.Assign) and parent.value is node and all(_array_item(model, t) for t in parent.targets):
        return None  # u[1:] = un[:-1]: the values are copied into another array
    if isinstance(parent, ast.Return):
        return parent
    if isinstance(parent, ast.Tuple) and isinstance(model.parent(parent), ast.Return):
        return model.parent(parent)
    return parent if parent is not None else node


def _array_item(model: "FileModel", target: ast.expr) -> bool:
    return isinstance(target, ast.Subscript) and model.kind(target.value) is Kind.DEVICE


def _attribute_site(model: "FileModel", attribute: ast.Attribute, depth: int) -> ast.AST | None:
    if attribute.attr in SHAPE_ATTRIBUTES:
        return None
    if attribute.attr in VIEW_ATTRIBUTES:
        return keeping_site(model, attribute, depth)
    call = model.parent(attribute)
    if isinstance(call, ast.Call) and call.func is attribute:
        if attribute.attr in FRESH_METHODS:
            if any(k.arg == "copy" for k in call.keywords):
                return keeping_site(model, call, depth)  # a.astype(t, copy=False) may be a itself
            return None
        if attribute.attr in VIEW_METHODS:
            return keeping_site(model, call, depth)
    return attribute


def _argument_site(model: "FileModel", call: ast.Call, argument: ast.AST, depth: int) -> ast.AST | None:
    """An argument is only read by NumPy functions with a new result, by
    reading builtins, and by the file's own functions that only read the
    parameter it becomes; any other callee may keep it."""
    api = model.call_api(call)
    if api is not None:
        hands_back = any(k.arg == "copy" for k in call.keywords) or _positional_out(call, argument)
        if api in VIEW_NUMPY or hands_back:
            return keeping_site(model, call, depth)  # np.asarray(x) + 1: the view is only read
        if api in FRESH_NUMPY or api == "array":
            return None
        return call
    func = call.func
    if isinstance(func, ast.Name) and func.id in READING_BUILTINS and model.lookup(func) is None:
        return None
    if isinstance(func, ast.Attribute) and func.attr in FRESH_METHODS and model.kind(func.value) is Kind.DEVICE:
        return None  # other.dot(x)
    return _own_function_site(model, call, argument, depth)


_MAX_CALL_DEPTH = 3


def _own_function_site(model: "FileModel", call: ast.Call, argument: ast.AST, depth: int) -> ast.AST | None:
    """A call of one of the file's functions: the argument is kept when the
    parameter it becomes may be kept there; handed back when the function
    returns it."""
    callee = model.calls.callee(call)
    if callee is None or depth >= _MAX_CALL_DEPTH or _is_generator(callee):
        return call
    parameter = _parameter(model, call, argument, callee)
    if parameter is None or parameter in callee.global_names:
        return call
    returned = False
    for load in loads_of(model, parameter, callee):
        if model.scope_of(load).function_like() is not callee:
            return call  # a closure inside the callee reads it
        site = keeping_site(model, load, depth + 1)
        if isinstance(site, ast.Return):
            returned = True
        elif site is not None:
            return call
    return keeping_site(model, call, depth) if returned else None


def _parameter(model: "FileModel", call: ast.Call, argument: ast.AST, callee: Scope) -> str | None:
    """The parameter of ``callee`` an argument of ``call`` binds, if it can be told."""
    node = callee.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if isinstance(argument, ast.keyword):
        names = [a.arg for a in node.args.args + node.args.kwonlyargs]
        return argument.arg if argument.arg in names else None
    positional = [a.arg for a in node.args.posonlyargs + node.args.args]
    index = next((i for i, a in enumerate(call.args) if a is argument), None)
    if index is None:
        return None
    index += model.calls.caller_offset(call, callee)
    return positional[index] if index < len(positional) else None


def _advanced(model: "FileModel", index: ast.expr) -> bool:
    """An index with an array or a list in it: NumPy's advanced indexing,
    which copies what it selects."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return any(isinstance(p, (ast.List, ast.ListComp)) or model.kind(p) in (Kind.DEVICE, Kind.HOST) for p in parts)


def _positional_out(call: ast.Call, argument: ast.AST) -> bool:
    """A third or later positional argument of a NumPy function may be its
    ``out`` (``np.add(a, b, x)``, ``np.sum(a, 0, None, x)``): the result is then
    that very array."""
    return any(a is argument for a in call.args[2:])


def loads_of(model: "FileModel", name: str, scope: Scope) -> list[ast.Name]:
    """Every read of ``name`` that resolves to ``scope``'s variable, in any
    scope of the file (closures and functions reading a global included)."""
    found: list[ast.Name] = []
    for node in model.nodes(ast.Name):
        if node.id == name and isinstance(node.ctx, ast.Load) and model.lookup(node) is scope:
            found.append(node)
    return found


def sharing_reason(model: "FileModel", name: str, scope: Scope, skip: frozenset[int] = frozenset()) -> str | None:
    """Why the array ``name`` holds may also be held elsewhere, or None.

    Every read of the variable anywhere in the file must only read the
    array (arithmetic, indexing, NumPy functions with a new result, shape
    attributes, writes into it) or return it from a function that is not a
    generator. A read in another function (a closure, or a function reading
    a global) sees whatever the variable holds when it runs: refused.
    Reads whose ids are in ``skip`` are the rewritten statement's own.
    """
    home = scope.function_like()
    for load in loads_of(model, name, scope):
        if id(load) in skip:
            continue
        if model.scope_of(load).function_like() is not home:
            return f"'{name}' is read in another function (line {load.lineno})"
        site = keeping_site(model, load)
        if site is None:
            continue
        if isinstance(site, ast.Return) and not _is_generator(home):
            continue
        return f"'{name}' may also be kept at line {getattr(site, 'lineno', load.lineno)} ('{model.segment(site, 40)}')"
    return None


def _is_generator(scope: Scope) -> bool:
    node = scope.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node))


def binding_of_store(model: "FileModel", target: ast.Name) -> Binding | None:
    """The binding an assignment target creates."""
    scope = model.lookup(target) or model.scope_of(target)
    for b in scope.bindings.get(target.id, ()):
        if b.node is target:
            return b
    return None


def is_fresh_binding(model: "FileModel", b: Binding) -> bool:
    return b.kind is BindKind.VALUE and b.value is not None and fresh(model, b.value)
