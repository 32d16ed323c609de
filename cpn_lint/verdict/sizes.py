"""Gate 2 evidence: the sizes the code itself gives its hot-path arrays.

A hot-path array is a device array used inside a loop (or made there). Its
size is known when every binding that can reach the use traces back, through
copies, ``*_like`` calls, reductions, basic slices, unary ops and arithmetic
(two arrays bound their broadcast by the product of their sizes), to a
constructor with literal (or module-constant) dimensions: ``np.zeros((64,
64))``, ``np.random.rand(100)``, ``np.arange(1000)``. Anything else — a
parameter, a file read, a call the analysis does not know — makes the size
unknown, and then the code proves nothing about Gate 2.
"""

from __future__ import annotations

import ast
import math
from typing import Callable

from ..model import BindKind, FileModel, Kind
from .gates import SizedArray, SizeEvidence

_Sizes = list[SizedArray] | None  # None: unknown

_SHAPE_FIRST = {"zeros", "ones", "empty", "full"}
_DIMS_AS_ARGS = {"random.rand", "random.randn"}
_SIZE_FIRST = {"random.random", "random.random_sample", "random.ranf", "random.sample", "random.standard_normal"}
_SIZE_THIRD = {"random.uniform", "random.normal", "random.randint", "random.binomial"}
_SPACES = {"linspace", "logspace", "geomspace"}
# APIs whose result has no more elements than their first argument
_NO_LARGER_THAN_FIRST = {
    "zeros_like", "ones_like", "empty_like", "full_like", "copy", "asarray", "array", "ascontiguousarray",
    "sin", "cos", "tan", "exp", "log", "sqrt", "abs", "absolute", "square", "tanh", "negative", "sign",
    "floor", "ceil", "clip", "real", "imag", "conj", "roll", "cumsum", "cumprod", "flip",
    "sum", "mean", "prod", "max", "min", "amax", "amin", "std", "var", "any", "all", "argmax", "argmin",
    "linalg.norm",
}
_SAME_SIZE_METHODS = {"copy", "astype", "conj", "flatten", "ravel"}
_MAX_DEPTH = 12


class _Sizer:
    def __init__(self, model: FileModel, cite: Callable[[int], str]) -> None:
        self.model = model
        self.cite = cite
        self._bindings: dict[int, _Sizes] = {}

    # ---------------------------------------------------------------- shapes
    def dims(self, expr: ast.expr | None) -> int | None:
        """Element count of a shape argument: an int or a tuple/list of ints."""
        if expr is None:
            return None
        if isinstance(expr, (ast.Tuple, ast.List)):
            values = [self.model.const_int(e) for e in expr.elts]
            if any(v is None or v < 0 for v in values):
                return None
            return math.prod(values)  # type: ignore[arg-type]
        value = self.model.const_int(expr)
        return value if value is not None and value >= 0 else None

    def constructor_size(self, call: ast.Call, api: str) -> int | None | bool:
        """Elements made by a constructor call; False when ``api`` is none."""
        args, kw = call.args, {k.arg: k.value for k in call.keywords if k.arg}
        if any(isinstance(a, ast.Starred) for a in args):
            return None
        if api in _SHAPE_FIRST:
            return self.dims(args[0] if args else kw.get("shape"))
        if api in _DIMS_AS_ARGS:
            return self.dims(ast.Tuple(elts=list(args))) if args else 1
        if api in _SIZE_FIRST:
            size = args[0] if args else kw.get("size")
            return self.dims(size) if size is not None else 1
        if api in _SIZE_THIRD:
            size = args[2] if len(args) > 2 else kw.get("size")
            return self.dims(size) if size is not None else 1
        if api == "identity":
            n = self.dims(args[0] if args else kw.get("n"))
            return n * n if n is not None else None
        if api == "eye":
            n = self.dims(args[0] if args else kw.get("N"))
            m_expr = args[1] if len(args) > 1 else kw.get("M")
            m = self.dims(m_expr) if m_expr is not None else n
            return n * m if n is not None and m is not None else None
        if api == "arange":
            values = [self.model.const_int(a) for a in args]
            if not values or any(v is None for v in values) or kw:
                return None
            start, stop, step = (0, values[0], 1) if len(values) == 1 else (values[0], values[1], values[2] if len(values) > 2 else 1)
            if not step:
                return None
            return max(0, math.ceil((stop - start) / step))  # type: ignore[operator]
        if api in _SPACES:
            num = args[2] if len(args) > 2 else kw.get("num")
            return self.dims(num) if num is not None else 50
        return False

    # ---------------------------------------------------------------- values
    def of_expr(self, expr: ast.expr | None, depth: int = 0) -> _Sizes:
        if expr is None or depth > _MAX_DEPTH:
            return None
        model = self.model
        if isinstance(expr, ast.Name):
            return self.of_name(expr, depth)
        if isinstance(expr, ast.Call):
            return self.of_call(expr, depth)
        if isinstance(expr, ast.UnaryOp):
            return self.of_expr(expr.operand, depth + 1)
        if isinstance(expr, ast.BinOp):
            left, right = model.kind(expr.left), model.kind(expr.right)
            if left.is_array and right.is_array:
                # two arrays may broadcast, but never past the product of their sizes
                sizes = [self.of_expr(side, depth + 1) for side in (expr.left, expr.right)]
                if any(s is None for s in sizes):
                    return None
                bound = math.prod(max((a.elements for a in s), default=1) for s in sizes)  # type: ignore[union-attr]
                return [SizedArray(self.cite(expr.lineno), model.segment(expr, 40), bound)]
            array_side = expr.left if left.is_array else expr.right if right.is_array else None
            return self.of_expr(array_side, depth + 1) if array_side is not None else None
        if isinstance(expr, ast.Subscript):
            index = expr.slice
            parts = index.elts if isinstance(index, ast.Tuple) else [index]
            if all(isinstance(p, ast.Slice) or (isinstance(p, ast.Constant) and (p.value is None or p.value is Ellipsis or isinstance(p.value, int))) for p in parts):
                return self.of_expr(expr.value, depth + 1)  # a basic slice is no larger than its base
            return None
        if isinstance(expr, ast.Attribute) and expr.attr == "T":
            return self.of_expr(expr.value, depth + 1)
        return None

    def of_call(self, call: ast.Call, depth: int) -> _Sizes:
        model = self.model
        api = model.call_api(call)
        if api is not None:
            size = self.constructor_size(call, api)
            if size is not False:
                if size is None:
                    return None
                name = model.segment(call, 40)
                return [SizedArray(self.cite(call.lineno), name, int(size))]
            if api in _NO_LARGER_THAN_FIRST and call.args:
                return self.of_expr(call.args[0], depth + 1)
            return None
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _SAME_SIZE_METHODS and model.is_array(func.value):
            return self.of_expr(func.value, depth + 1)
        return None

    def of_name(self, name: ast.Name, depth: int) -> _Sizes:
        scope = self.model.lookup(name)
        if scope is None:
            return None
        sizes: list[SizedArray] = []
        for binding in scope.bindings.get(name.id, ()):
            key = id(binding)
            if key not in self._bindings:
                self._bindings[key] = []  # cycle guard: a binding reaching itself adds nothing new
                if binding.kind is BindKind.VALUE:
                    self._bindings[key] = self.of_expr(binding.value, depth + 1)
                elif binding.kind is BindKind.AUG:
                    self._bindings[key] = []  # x += y keeps x's size
            found = self._bindings[key]
            if found is None:
                return None
            sizes.extend(found)
        return sizes


def hot_path_sizes(model: FileModel, cite: Callable[[int], str]) -> SizeEvidence:
    """The literal sizes of the file's hot-path arrays (see module doc)."""
    if not model.uses_numpy():
        return SizeEvidence()
    sizer = _Sizer(model, cite)
    found: dict[str, SizedArray] = {}
    complete = True
    for name in model.nodes(ast.Name):
        if not isinstance(name.ctx, ast.Load) or model.loop_of(name) is None:
            continue
        if model.kind(name) is not Kind.DEVICE:
            continue
        sizes = sizer.of_name(name, 0)
        if sizes is None:
            complete = False
            continue
        for sized in sizes:
            found.setdefault(sized.citation, sized)
    for call in model.nodes(ast.Call):
        if model.loop_of(call) is None:
            continue
        api = model.call_api(call)
        if api is None:
            continue
        size = sizer.constructor_size(call, api)
        if size is False:
            continue
        if size is None:
            complete = False
            continue
        sized = SizedArray(cite(call.lineno), model.segment(call, 40), int(size))
        found.setdefault(sized.citation, sized)
    for attr in model.nodes(ast.Attribute):
        # self.u and friends: their sizes are not followed, so they leave the evidence incomplete
        if isinstance(attr.ctx, ast.Load) and model.loop_of(attr) is not None and model.kind(attr) is Kind.DEVICE:
            if not (isinstance(attr.value, ast.Name) and model.kind(attr.value) is Kind.DEVICE):
                complete = False
                break
    arrays = tuple(sorted(found.values(), key=lambda a: a.citation))
    return SizeEvidence(arrays, unknown=not complete)


def merge(evidence: list[SizeEvidence]) -> SizeEvidence:
    """Project-wide evidence: one unknown hot-path array anywhere leaves it open."""
    arrays = tuple(a for e in evidence for a in e.arrays)
    return SizeEvidence(arrays, unknown=any(e.unknown for e in evidence))
