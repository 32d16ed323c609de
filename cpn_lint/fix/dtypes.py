"""The dtype of an expression, where the code states it: what an in-place
rewrite needs so that it never narrows a result (``x += 0.5`` on an integer
array raises, where ``x = x + 0.5`` made a float array).

Array dtypes are ``"bool"``, ``"int"`` (NumPy's default integer),
``"int64"``, ``"float32"``, ``"float64"``, ``"complex64"`` and
``"complex128"``; Python numbers are the *weak* ``"py:bool"``, ``"py:int"``,
``"py:float"`` and ``"py:complex"``, which take the array's precision under
NumPy 2's promotion rules (NEP 50). NumPy scalars (``np.sum(a)``) count as
arrays: that is what NEP 50 does, and under NumPy 1's value-based casting
the result is never wider, so a rewrite proven here holds under both.
Anything else is None: not known, and a fix that needs it is refused.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..model import BindKind, Kind

if TYPE_CHECKING:  # pragma: no cover
    from ..model import FileModel
    from ..model.scopes import Scope

DType = str

# (kind rank, bits) of the array dtypes: kinds b < i < f < c.
_ARRAY: dict[str, tuple[int, int]] = {
    "bool": (0, 8),
    "int": (1, 64),
    "int64": (1, 64),
    "float32": (2, 32),
    "float64": (2, 64),
    "complex64": (3, 64),
    "complex128": (3, 128),
}
_WEAK_RANK = {"py:bool": 0, "py:int": 1, "py:float": 2, "py:complex": 3}
_DEFAULT_OF_RANK = {0: "bool", 1: "int", 2: "float64", 3: "complex128"}
_WEAK_OF_RANK = {0: "py:bool", 1: "py:int", 2: "py:float", 3: "py:complex"}

# Spellings of a dtype argument.
_DTYPE_NAMES: dict[str, DType] = {
    "float": "float64", "float64": "float64", "double": "float64", "float_": "float64", "f8": "float64",
    "d": "float64", "float32": "float32", "single": "float32", "f4": "float32", "f": "float32",
    "int": "int", "int_": "int", "int64": "int64", "i8": "int64", "complex": "complex128",
    "complex128": "complex128", "cdouble": "complex128", "c16": "complex128", "complex64": "complex64",
    "csingle": "complex64", "c8": "complex64", "bool": "bool", "bool_": "bool", "?": "bool",
}
_FLOAT_MATH = frozenset(
    {
        "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
        "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
        "deg2rad", "rad2deg", "degrees", "radians",
    }
)
_SAME = frozenset({"negative", "positive", "copy", "sort", "cumsum", "cumprod", "square", "sign"})
_REDUCE_SAME = frozenset({"max", "min", "amax", "amin", "ptp", "nanmax", "nanmin", "median"})
_REDUCE_SUM = frozenset({"sum", "prod", "nansum", "cumsum", "cumprod"})
_REDUCE_MEAN = frozenset({"mean", "std", "var", "nanmean", "nanstd", "nanvar", "average"})
_BOOLEAN = frozenset(
    {"isnan", "isinf", "isfinite", "greater", "greater_equal", "less", "less_equal", "equal", "not_equal",
     "logical_and", "logical_or", "logical_not", "logical_xor", "isclose", "signbit", "all", "any"}
)
_ARITHMETIC = {"add": ast.Add(), "subtract": ast.Sub(), "multiply": ast.Mult(), "divide": ast.Div(),
               "true_divide": ast.Div(), "floor_divide": ast.FloorDiv(), "power": ast.Pow(),
               "remainder": ast.Mod(), "mod": ast.Mod(), "fmod": ast.Mod(), "maximum": ast.Add(),
               "minimum": ast.Add(), "fmax": ast.Add(), "fmin": ast.Add(), "dot": ast.Mult(),
               "matmul": ast.Mult(), "outer": ast.Mult()}
_FLOAT_DRAWS = frozenset(
    {"rand", "randn", "random", "random_sample", "sample", "ranf", "uniform", "normal", "standard_normal",
     "exponential", "standard_exponential", "gamma", "beta", "lognormal", "laplace", "logistic",
     "rayleigh", "weibull", "chisquare", "standard_cauchy", "standard_t", "vonmises", "pareto", "gumbel"}
)
_FLOAT_CONSTANTS = frozenset({"pi", "e", "inf", "nan", "euler_gamma", "Inf", "NaN", "PINF", "NINF"})
_MAX_DEPTH = 12


def is_weak(dtype: DType) -> bool:
    return dtype.startswith("py:")


def promote(a: DType | None, b: DType | None, op: ast.operator | None = None) -> DType | None:
    """The dtype of ``a op b`` (None when unknown or an error)."""
    if a is None or b is None:
        return None
    if isinstance(op, (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)):
        return None
    result = _join(a, b)
    if result is None:
        return None
    rank = _rank(result)
    if isinstance(op, ast.Div) and rank < 2:
        result = "py:float" if is_weak(result) else "float64"
    if isinstance(op, (ast.FloorDiv, ast.Mod)) and rank == 3:
        return None
    if isinstance(op, ast.Pow) and is_weak(result) and rank < 2:
        return None  # 2 ** -1 is a float
    if isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.Pow, ast.FloorDiv, ast.Mod)) and result == "bool":
        return None if isinstance(op, (ast.Sub, ast.Pow, ast.FloorDiv, ast.Mod)) else "bool"
    if isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)) and result == "py:bool":
        return "py:int"
    return result


def _rank(dtype: DType) -> int:
    return _WEAK_RANK[dtype] if is_weak(dtype) else _ARRAY[dtype][0]


def _join(a: DType, b: DType) -> DType | None:
    """NEP 50: two arrays promote by kind and precision; a Python number
    adopts the array's dtype unless its kind is higher."""
    if is_weak(a) and is_weak(b):
        return _WEAK_OF_RANK[max(_WEAK_RANK[a], _WEAK_RANK[b])]
    if is_weak(a):
        a, b = b, a
    if is_weak(b):
        rank = _WEAK_RANK[b]
        if rank <= _ARRAY[a][0]:
            return a
        if a == "float32" and rank == 3:
            return "complex64"
        return _DEFAULT_OF_RANK[rank]
    if a == b:
        return a
    (ka, ba), (kb, bb) = _ARRAY[a], _ARRAY[b]
    if {a, b} == {"int", "int64"}:
        return "int64"
    if ka == kb:
        return a if ba >= bb else b
    high, low = (a, b) if ka > kb else (b, a)
    (kh, bh), (kl, bl) = _ARRAY[high], _ARRAY[low]
    if kh == 2 and kl == 1 and bh < 64:
        return "float64"  # float32 with an integer array
    if kh == 3 and kl == 2 and bl > bh // 2:
        return "complex128"
    if kh == 3 and kl == 1 and bh < 128:
        return "complex128"
    return high


def parse_dtype(model: "FileModel", expr: ast.expr | None) -> DType | None:
    """``float``, ``np.float32``, ``'f8'``, ``np.dtype('int64')`` as a dtype."""
    if expr is None:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return _DTYPE_NAMES.get(expr.value)
    if isinstance(expr, ast.Name) and expr.id in ("float", "int", "complex", "bool") and model.lookup(expr) is None:
        return _DTYPE_NAMES[expr.id]
    if isinstance(expr, ast.Attribute):
        api = model.array_api(expr)
        return _DTYPE_NAMES.get(api) if api else None
    if isinstance(expr, ast.Call) and model.call_api(expr) == "dtype" and len(expr.args) == 1:
        return parse_dtype(model, expr.args[0])
    return None


def dtype_of(model: "FileModel", expr: ast.expr | None, assume: "dict[str, DType] | None" = None,
             scope: "Scope | None" = None) -> DType | None:
    """The dtype of ``expr``; with ``assume``, the names it maps (read from
    ``scope``) are taken to have those dtypes (the induction step for a
    value a loop carries)."""
    assumed = {(name, id(scope)): dtype for name, dtype in (assume or {}).items()}
    return final(_Inference(model, assumed).of(expr, 0))


class _Inference:
    def __init__(self, model: "FileModel", assume: "dict[tuple[str, int], DType]") -> None:
        self.model = model
        self.assume = assume
        self.active: set[int] = set()

    def of(self, expr: ast.expr | None, depth: int) -> DType | None:
        if expr is None or depth > _MAX_DEPTH:
            return None
        method = getattr(self, "_" + type(expr).__name__, None)
        return method(expr, depth + 1) if method is not None else None

    def _Constant(self, expr: ast.Constant, depth: int) -> DType | None:
        value = expr.value
        if isinstance(value, bool):
            return "py:bool"
        if isinstance(value, int):
            return "py:int" if -(2**63) <= value < 2**63 else None
        if isinstance(value, float):
            return "py:float"
        if isinstance(value, complex):
            return "py:complex"
        return None

    def _BinOp(self, expr: ast.BinOp, depth: int) -> DType | None:
        return promote(self.of(expr.left, depth), self.of(expr.right, depth), expr.op)

    def _UnaryOp(self, expr: ast.UnaryOp, depth: int) -> DType | None:
        inner = self.of(expr.operand, depth)
        if isinstance(expr.op, ast.Not):
            return "py:bool"
        if inner in ("bool", "py:bool") and not isinstance(expr.op, ast.Invert):
            return None if isinstance(expr.op, ast.USub) and inner == "bool" else "py:int" if inner == "py:bool" else inner
        return inner

    def _Compare(self, expr: ast.Compare, depth: int) -> DType | None:
        operands = [expr.left, *expr.comparators]
        return "bool" if any(self.model.kind(o).is_array for o in operands) else "py:bool"

    def _IfExp(self, expr: ast.IfExp, depth: int) -> DType | None:
        return _agree(self.of(expr.body, depth), self.of(expr.orelse, depth))

    def _Subscript(self, expr: ast.Subscript, depth: int) -> DType | None:
        if not self.model.kind(expr.value).is_device:
            return None
        inner = self.of(expr.value, depth)
        return None if inner is None or is_weak(inner) else inner

    def _Attribute(self, expr: ast.Attribute, depth: int) -> DType | None:
        if self.model.array_api(expr) in _FLOAT_CONSTANTS:
            return "py:float"  # np.pi is a Python float
        if expr.attr in ("size", "ndim", "nbytes", "itemsize") and self.model.kind(expr.value).is_device:
            return "py:int"
        if expr.attr == "T" and self.model.kind(expr.value).is_device:
            return self.of(expr.value, depth)
        return None

    def _Name(self, expr: ast.Name, depth: int) -> DType | None:
        scope = self.model.lookup(expr)
        key = (expr.id, id(scope))
        if key in self.assume:
            return self.assume[key]
        bindings = self.model.reaching_bindings(expr)
        if not bindings or id(expr) in self.active:
            return None
        carried = [b for b in bindings if _updates_itself(b, expr.id)]
        self.active.add(id(expr))
        try:
            result = self._agree_all([self._binding(b, depth) for b in bindings if b not in carried])
            if carried and result not in (None, _SKIP):
                result = self._induction(key, carried, result, depth)
        finally:
            self.active.discard(id(expr))
        return None if result == _SKIP else result

    def _induction(self, key: tuple[str, int], carried: list, start: DType, depth: int) -> DType | None:  # type: ignore[type-arg]
        """A value a loop carries (``x = x + y``): with ``x`` of the dtype it
        starts with, every update must give that dtype back."""
        inner = _Inference(self.model, {**self.assume, key: start})
        inner.active = set(self.active)
        for b in carried:
            if inner.of(b.value, depth) != start:
                return None
        return start

    @staticmethod
    def _agree_all(found: list[DType | None]) -> DType | None:
        if not found:
            return _SKIP
        result = found[0]
        for other in found[1:]:
            result = _agree(result, other)
        return result

    def _binding(self, b, depth: int) -> DType | None:  # type: ignore[no-untyped-def]
        if b.kind is BindKind.COUNTER:
            return "py:int"
        if b.kind is BindKind.VALUE and b.value is not None:
            key = id(b)
            if key in self.active:
                return None
            self.active.add(key)
            try:
                return self.of(b.value, depth)
            finally:
                self.active.discard(key)
        if b.kind is BindKind.AUG and b.value is not None and isinstance(b.node, ast.Name):
            if self.model.kind(b.node) is Kind.DEVICE:
                return _SKIP  # an in-place update keeps the array's dtype
            return None
        return None

    def _Call(self, expr: ast.Call, depth: int) -> DType | None:
        func = expr.func
        if isinstance(func, ast.Name) and self.model.lookup(func) is None:
            return self._builtin(func.id, expr, depth)
        qual = self.model.qualname(func) if isinstance(func, (ast.Name, ast.Attribute)) else None
        if qual is not None and qual.startswith("math."):
            return "py:float"
        api = self.model.call_api(expr)
        if api is not None:
            return self._numpy(api, expr, depth)
        if isinstance(func, ast.Attribute):
            return self._method(func, expr, depth)
        return None

    def _builtin(self, name: str, call: ast.Call, depth: int) -> DType | None:
        if name == "float":
            return "py:float"
        if name in ("int", "len", "round") and (name != "round" or len(call.args) == 1):
            return "py:int"
        if name == "bool":
            return "py:bool"
        if name == "complex":
            return "py:complex"
        if name in ("min", "max") and len(call.args) > 1 and not call.keywords:
            result: DType | None = self.of(call.args[0], depth)
            for arg in call.args[1:]:
                result = _agree(result, self.of(arg, depth))
            return result
        return None

    def _numpy(self, api: str, call: ast.Call, depth: int) -> DType | None:
        keyword = next((k.value for k in call.keywords if k.arg == "dtype"), None)
        if keyword is not None:
            return parse_dtype(self.model, keyword)
        args = call.args
        first = args[0] if args else None
        if api in ("zeros", "ones", "empty", "eye", "identity", "linspace", "logspace"):
            positional = {"zeros": 1, "ones": 1, "empty": 1}.get(api)
            if positional is not None and len(args) > positional:
                return parse_dtype(self.model, args[positional])
            return "float64"
        if api == "full":
            return _strong(self.of(args[1], depth)) if len(args) > 1 else None
        if api in ("zeros_like", "ones_like", "empty_like", "copy", "full_like"):
            return _strong(self.of(first, depth))
        if api in ("array", "asarray"):
            if len(args) > 1:
                return parse_dtype(self.model, args[1])
            return _strong(self._sequence(first, depth)) if isinstance(first, (ast.List, ast.Tuple)) else _strong(self.of(first, depth))
        if api == "arange":
            result: DType | None = "py:int"
            for arg in args:
                result = promote(result, self.of(arg, depth))
            return _strong(result)
        if api.startswith("random."):
            tail = api.rpartition(".")[2]
            return "float64" if tail in _FLOAT_DRAWS else "int" if tail == "randint" else None
        return self._ufunc_like(api, call, depth)

    def _ufunc_like(self, api: str, call: ast.Call, depth: int) -> DType | None:
        args = call.args
        if any(k.arg not in ("axis", "keepdims") for k in call.keywords):
            return None
        inputs = [self.of(a, depth) for a in args[:2]]
        if api in _ARITHMETIC and len(args) == 2:
            return promote(inputs[0], inputs[1], _ARITHMETIC[api])
        if not inputs:
            return None
        first = inputs[0]
        if api in _FLOAT_MATH and len(args) == 1:
            return _float_math(first)
        if api in ("abs", "absolute", "fabs") and len(args) == 1:
            return None if first is None or _rank(first) == 3 else first
        if api in _SAME and len(args) == 1:
            return first
        if api in _REDUCE_SAME:
            return _strong(first)
        if api in _REDUCE_SUM:
            return "int" if first in ("bool", "py:bool", "py:int") else _strong(first)
        if api in _REDUCE_MEAN:
            return _float_math(first)
        if api in _BOOLEAN:
            return "bool"
        if api == "linalg.norm":
            return "float64" if first in ("float64", "int", "int64", "complex128", "bool") else None
        return None

    def _method(self, func: ast.Attribute, call: ast.Call, depth: int) -> DType | None:
        receiver = self.model.kind(func.value)
        if receiver is Kind.GENERATOR:
            keyword = next((k.value for k in call.keywords if k.arg == "dtype"), None)
            if keyword is not None:
                return parse_dtype(self.model, keyword)
            return "float64" if func.attr in _FLOAT_DRAWS else "int" if func.attr == "integers" else None
        if not receiver.is_device:
            return None
        if func.attr == "astype" and call.args:
            return parse_dtype(self.model, call.args[0])
        inner = self.of(func.value, depth)
        if func.attr in ("copy", "flatten", "ravel", "reshape", "transpose") or func.attr in _REDUCE_SAME:
            return inner
        if func.attr in _REDUCE_SUM:
            return "int" if inner == "bool" else inner
        if func.attr in _REDUCE_MEAN:
            return _float_math(inner)
        return None

    def _sequence(self, seq: ast.expr | None, depth: int) -> DType | None:
        if not isinstance(seq, (ast.List, ast.Tuple)) or not seq.elts:
            return None
        result: DType | None = None
        for element in seq.elts:
            inner = self._sequence(element, depth) if isinstance(element, (ast.List, ast.Tuple)) else self.of(element, depth)
            result = inner if result is None else promote(result, inner)
            if result is None:
                return None
        return result


_SKIP = "skip"


def _updates_itself(b, name: str) -> bool:  # type: ignore[no-untyped-def]
    """``x = x + y``, ``x = np.mod(x, L)`` in a loop: a binding whose value
    reads the name it binds, from the iteration before."""
    return b.kind is BindKind.VALUE and b.value is not None and b.loop is not None and any(
        isinstance(n, ast.Name) and n.id == name for n in ast.walk(b.value))


def _agree(a: DType | None, b: DType | None) -> DType | None:
    """Two bindings of one name: the dtype when they agree (an in-place
    update, ``_SKIP``, agrees with anything)."""
    if a == _SKIP:
        return b
    if b == _SKIP:
        return a
    return a if a == b else None


def _strong(dtype: DType | None) -> DType | None:
    """The array dtype NumPy makes from a value of this dtype."""
    if dtype is None or dtype == _SKIP:
        return None
    return _DEFAULT_OF_RANK[_WEAK_RANK[dtype]] if is_weak(dtype) else dtype


def _float_math(dtype: DType | None) -> DType | None:
    if dtype is None or dtype == _SKIP:
        return None
    if is_weak(dtype):
        return "float64" if _WEAK_RANK[dtype] < 3 else "complex128"
    kind, bits = _ARRAY[dtype]
    return "float64" if kind < 2 else dtype


def final(dtype: DType | None) -> DType | None:
    """A dtype fit to report: the in-place marker alone means unknown."""
    return None if dtype == _SKIP else dtype
