"""Helpers shared by the INFO rules (CPN301–CPN305).

Two questions those notes need answered from the source alone:

* what shape an array has, when the file spells it out
  (``A = np.random.rand(1000, 1000)`` -> ``(1000, 1000)``), so a note can say
  which side of a size threshold a call falls on;
* whether a call sits in a loop that hands it one independent problem per
  iteration (``for k in range(n): np.linalg.eigh(H[k])``,
  ``for sig in signals: np.fft.fft(sig)``), which a single batched call
  would replace.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..model import IterKind, Kind
from ..model.scopes import BindKind

if TYPE_CHECKING:  # pragma: no cover
    from ..model import FileModel, LoopFrame

Shape = tuple[int, ...]

# Device calls whose first argument (or shape=/size=) is the result's shape.
_SHAPE_FIRST = frozenset({"zeros", "ones", "empty", "full", "random.random", "random.random_sample", "random.standard_normal", "random.sample", "random.ranf"})
# Device calls whose result has the shape of their first argument.
_SAME_SHAPE = frozenset({"zeros_like", "ones_like", "empty_like", "full_like", "copy", "asarray", "array", "ascontiguousarray"})
# Draws whose shape is the size= keyword (or the given positional slot).
_SIZE_KEYWORD = {
    "random.normal": 2, "random.uniform": 2, "random.randint": 2, "random.integers": 2,
    "random.exponential": 1, "random.poisson": 1, "random.standard_normal": 0, "random.random": 0,
}
_GENERATOR_SIZE = {"normal": 2, "uniform": 2, "integers": 2, "exponential": 1, "poisson": 1, "random": 0, "standard_normal": 0}
_MAX_DEPTH = 8


def literal_shape(model: FileModel, expr: ast.expr | None, _depth: int = 0) -> Shape | None:
    """The shape of ``expr`` when the file states it with integer constants."""
    if expr is None or _depth > _MAX_DEPTH:
        return None
    if isinstance(expr, ast.Name):
        values = [b.value for b in model.reaching_bindings(expr)]
        if not values or any(v is None for v in values):
            return None
        shapes = {literal_shape(model, v, _depth + 1) for v in values}  # type: ignore[arg-type]
        return shapes.pop() if len(shapes) == 1 else None
    if isinstance(expr, ast.Attribute) and expr.attr == "T":
        inner = literal_shape(model, expr.value, _depth + 1)
        return tuple(reversed(inner)) if inner is not None else None
    if isinstance(expr, ast.UnaryOp):
        return literal_shape(model, expr.operand, _depth + 1)
    if isinstance(expr, ast.Compare) and len(expr.comparators) == 1:
        expr = ast.BinOp(left=expr.left, op=ast.Add(), right=expr.comparators[0])  # broadcasts alike
    if isinstance(expr, ast.BinOp) and not isinstance(expr.op, ast.MatMult):
        left = literal_shape(model, expr.left, _depth + 1)
        right = literal_shape(model, expr.right, _depth + 1)
        if left is not None and right is not None:
            return broadcast(left, right)
        if left is not None and model.kind(expr.right) is Kind.SCALAR:
            return left
        if right is not None and model.kind(expr.left) is Kind.SCALAR:
            return right
        return None
    if isinstance(expr, ast.Call):
        return _call_shape(model, expr, _depth)
    return None


def broadcast(a: Shape, b: Shape) -> Shape | None:
    """NumPy's broadcasting of two shapes; None when they do not broadcast."""
    width = max(len(a), len(b))
    a = (1,) * (width - len(a)) + a
    b = (1,) * (width - len(b)) + b
    out: list[int] = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            return None
        out.append(y if x == 1 else x)
    return tuple(out)


def _call_shape(model: FileModel, call: ast.Call, depth: int) -> Shape | None:
    api = model.call_api(call)
    func = call.func
    if api is None and isinstance(func, ast.Attribute):
        receiver = model.kind(func.value)
        if receiver is Kind.GENERATOR and func.attr in _GENERATOR_SIZE:
            return _shape_value(model, _positional_or_keyword(call, _GENERATOR_SIZE[func.attr], "size"))
        if receiver is Kind.DEVICE and func.attr == "reshape":
            if len(call.args) == 1:
                return _shape_value(model, call.args[0])
            return _shape_value(model, ast.Tuple(elts=list(call.args), ctx=ast.Load())) if call.args else None
        if receiver is Kind.DEVICE and func.attr in ("copy", "astype"):
            return literal_shape(model, func.value, depth + 1)
        return None
    if api is None:
        return None
    if api in _SHAPE_FIRST:
        return _shape_value(model, _positional_or_keyword(call, 0, "shape", "size"))
    if api in _SAME_SHAPE and call.args:
        return literal_shape(model, call.args[0], depth + 1)
    if api in ("random.rand", "random.randn"):
        dims = [model.const_int(a) for a in call.args]
        return tuple(dims) if dims and all(d is not None and d >= 0 for d in dims) else None  # type: ignore[misc]
    if api in _SIZE_KEYWORD:
        return _shape_value(model, _positional_or_keyword(call, _SIZE_KEYWORD[api], "size"))
    if api == "linspace":
        num = _positional_or_keyword(call, 2, "num")
        n = 50 if num is None else model.const_int(num)
        return (n,) if n is not None and n >= 0 else None
    if api == "arange" and call.args and not call.keywords:
        bounds = [model.const_int(a) for a in call.args]
        if None in bounds or len(bounds) > 3:
            return None
        start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (bounds[0], bounds[1], bounds[2] if len(bounds) == 3 else 1)
        return (max(0, -(-(stop - start) // step)),) if step else None  # type: ignore[operator]
    if api in ("eye", "identity"):
        n = model.const_int(call.args[0]) if call.args else None
        m = model.const_int(call.args[1]) if api == "eye" and len(call.args) > 1 else n
        return (n, m) if n is not None and m is not None else None
    if api == "reshape" and len(call.args) >= 2:
        return _shape_value(model, call.args[1])
    return None


def _positional_or_keyword(call: ast.Call, position: int, *names: str) -> ast.expr | None:
    if len(call.args) > position:
        return call.args[position]
    for kw in call.keywords:
        if kw.arg in names:
            return kw.value
    return None


def _shape_value(model: FileModel, expr: ast.expr | None) -> Shape | None:
    if expr is None:
        return None
    if isinstance(expr, (ast.Tuple, ast.List)):
        dims = [model.const_int(e) for e in expr.elts]
        if dims and all(d is not None and d >= 0 for d in dims):
            return tuple(dims)  # type: ignore[arg-type]
        return None
    n = model.const_int(expr)
    return (n,) if n is not None and n >= 0 else None


def shape_text(shape: Shape) -> str:
    return " × ".join(f"{d:,}" for d in shape)


# ------------------------------------------------------------------- loops
def loop_variables(frame: LoopFrame) -> set[str]:
    """The names a ``for`` loop or comprehension binds on each iteration."""
    node = frame.node
    if isinstance(node, (ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif frame.is_comprehension:
        targets = [g.target for g in node.generators]  # type: ignore[attr-defined]
    else:
        return set()
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def per_item_loop(model: FileModel, call: ast.Call) -> LoopFrame | None:
    """The loop that feeds ``call`` one independent problem per iteration.

    That is the innermost enclosing loop whose variable selects the data:
    used as an index of an argument (``f(x[i])``, ``f(A[k, :, :])``) or passed
    as an argument itself when the loop walks items (``for sig in signals:
    f(sig)``). A loop over a handful of axes is not one.
    """
    frame = model.loop_of(call)
    arguments = list(call.args) + [kw.value for kw in call.keywords if kw.arg not in ("axis", "axes", "n", "s", "norm")]
    while frame is not None:
        if frame.iter_kind not in (IterKind.SMALL_CONSTANT, IterKind.WHILE):
            variables = loop_variables(frame)
            if variables and any(_selects_with(model, arg, variables, frame) for arg in arguments):
                return frame
        frame = frame.parent
    return None


def _selects_with(model: FileModel, arg: ast.expr, variables: set[str], frame: LoopFrame) -> bool:
    for node in ast.walk(arg):
        if isinstance(node, ast.Subscript) and variables & {n.id for n in ast.walk(node.slice) if isinstance(n, ast.Name)}:
            return True
    if isinstance(arg, ast.Name) and arg.id in variables and frame.iter_kind not in (IterKind.RANGE, IterKind.INDEX_PRODUCT):
        # ``for sig in signals: f(sig)``: the item itself, unless it is a number
        return _binding_is_item(model, arg)
    return False


def _binding_is_item(model: FileModel, name: ast.Name) -> bool:
    return any(b.kind is BindKind.ELEMENT for b in model.reaching_bindings(name)) and model.kind(name) not in (Kind.SCALAR, Kind.NOT)


def loop_text(frame: LoopFrame) -> str:
    return f"the comprehension at line {frame.line}" if frame.is_comprehension else f"the loop at line {frame.line}"


def callee_name(call: ast.Call) -> str | None:
    """The last name of the callee (``svd`` for ``np.linalg.svd(...)``): a
    cheap filter before the model resolves the call through the imports."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def candidate_calls(model: FileModel, api_names: "set[str] | frozenset[str] | dict[str, object]") -> list[tuple[ast.Call, str]]:
    """Calls to the given device APIs (``"linalg.svd"``), with the API."""
    last = {name.rpartition(".")[2] for name in api_names}
    found: list[tuple[ast.Call, str]] = []
    for call in model.nodes(ast.Call):
        if callee_name(call) in last:
            api = model.call_api(call)
            if api in api_names:
                found.append((call, api))  # type: ignore[arg-type]
    return found


def call_text(model: FileModel, call: ast.Call) -> str:
    """``'np.linalg.svd(A)'`` as written, shortened."""
    return repr(model.segment(call, 50))
