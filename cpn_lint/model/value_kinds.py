"""The value engine's kinds of expressions (:class:`ExpressionKinds`).

What a literal, an operator, a comparison, an attribute, a subscript or a
call evaluates to once cuPyNumeric runs it: a Python number, a 0-d device
scalar, an array, and so on (:class:`~cpn_lint.model.kinds.Kind`). Calls
are split by who they call: a builtin, a method of a known receiver, a
library function (NumPy's math, reductions, random draws) or a function of
the file. Names are :mod:`.value_bindings`'s. A mixin of
:class:`~cpn_lint.model.values.ValueEngine`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from . import numpy_api as api
from . import shapes
from .imports import DEVICE_ROOTS
from .kinds import Kind, join
from .shapes import SCALAR_SHAPE
from .syntax import positional_or_keyword
from .value_common import _ARRAYS, _COMPREHENSIONS, _DEF_TYPES, _NUMBERS, _is_none, _single_axis

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import Scope

_COMPARED_WITH_NUMBER = (Kind.SCALAR, Kind.DEVICE_SCALAR, Kind.UNKNOWN)
_NON_ARRAY_TYPE_NAMES = frozenset({"list", "tuple", "set", "frozenset", "dict", "str", "bytes", "int", "float", "complex", "bool", "range"})


class ExpressionKinds:
    """The kinds of expressions: the ``_kind_<node type>`` answers and the kinds of calls."""

    model: "FileModel"

    def _kind_Constant(self, expr: ast.Constant) -> Kind:
        if isinstance(expr.value, (bool, int, float, complex)):
            return Kind.SCALAR
        if expr.value is None or expr.value is Ellipsis:
            return Kind.UNKNOWN
        return Kind.NOT

    def _kind_not(self, expr: ast.expr) -> Kind:
        return Kind.NOT

    def _kind_unknown(self, expr: ast.expr) -> Kind:
        return Kind.UNKNOWN

    def _kind_NamedExpr(self, expr: ast.NamedExpr) -> Kind:
        return self._kind(expr.value)

    def _kind_BinOp(self, expr: ast.BinOp) -> Kind:
        left, right = self._kind(expr.left), self._kind(expr.right)
        combined = _combine([left, right])
        if combined is Kind.DEVICE and isinstance(expr.op, ast.MatMult):
            if Kind.BOTTOM in (left, right):
                return Kind.BOTTOM  # a vector product is a device scalar: wait for both ranks
            if shapes.matmul(self._operand_shape(expr.left), self._operand_shape(expr.right)) == SCALAR_SHAPE:
                return Kind.DEVICE_SCALAR  # v @ w of two vectors
        return combined

    def _kind_UnaryOp(self, expr: ast.UnaryOp) -> Kind:
        if isinstance(expr.op, ast.Not):
            return Kind.NOT
        return self._kind(expr.operand)

    def _kind_Compare(self, expr: ast.Compare) -> Kind:
        if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in expr.ops):
            return Kind.NOT
        kinds = [self._kind(expr.left)] + [self._kind(c) for c in expr.comparators]
        combined = _combine(kinds)
        if combined is Kind.UNKNOWN and Kind.DEVICE_SCALAR in kinds and all(k in _COMPARED_WITH_NUMBER for k in kinds):
            # err > tol for a parameter tol: on the device whatever tol is (a
            # number gives a 0-d result, an array an array a test cannot take)
            return Kind.DEVICE_SCALAR
        return Kind.NOT if combined is Kind.SCALAR else combined  # a Python bool

    def _kind_IfExp(self, expr: ast.IfExp) -> Kind:
        # ``np.empty(n) if rank == 0 else None``: where the value is used, it
        # is the array (None has no other use than being tested for)
        if _is_none(expr.orelse):
            return self._kind(expr.body)
        if _is_none(expr.body):
            return self._kind(expr.orelse)
        a, b = self._kind(expr.body), self._kind(expr.orelse)
        if a is b:
            return a
        # a branch not known yet adds nothing (x0 if first else step(x) in a cycle)
        if a is Kind.BOTTOM:
            return b
        if b is Kind.BOTTOM:
            return a
        if {a, b} == {Kind.DEVICE, Kind.DEVICE_SCALAR}:
            return Kind.DEVICE
        return Kind.UNKNOWN

    def _kind_Attribute(self, expr: ast.Attribute) -> Kind:
        model = self.model
        qual = model.qualname(expr)
        if qual is not None:
            tail = qual.partition(".")[2]
            last = tail.rpartition(".")[2]
            if tail in api.NUMERIC_CONSTANTS or last in api.NUMERIC_CONSTANTS:
                return Kind.SCALAR
            return Kind.NOT  # a module, function, class or index helper
        cls = self._attribute_class(expr)
        bindings = self.model._class_attrs.get((id(cls), expr.attr)) if cls is not None else None
        if expr.attr in api.ARRAY_METADATA and not bindings:
            # a.shape, a.data of an array; the file's own class setting
            # self.data = np.asarray(...) has an attribute of that name instead
            if expr.attr in api.NUMERIC_METADATA:
                base = self._kind(expr.value)
                if base is Kind.BOTTOM:
                    return Kind.BOTTOM
                if base in _ARRAYS or base is Kind.DEVICE_SCALAR:
                    return Kind.SCALAR
            return Kind.NOT
        if cls is not None:
            attr_kind = join([self._read(b)[0] for b in bindings]) if bindings else None
            if attr_kind is not None and attr_kind is not Kind.UNKNOWN:
                return attr_kind
            if self.has_array_evidence(cls, expr.attr):
                return Kind.DEVICE  # self.x set from a parameter, or elsewhere, and used as an array
            if attr_kind is not None:
                return attr_kind
        base = self._kind(expr.value)
        if base is Kind.BOTTOM:
            return Kind.BOTTOM
        if expr.attr in api.ARRAY_VALUE_ATTRIBUTES and (base in _ARRAYS or base is Kind.DEVICE_SCALAR):
            return Kind.DEVICE if expr.attr == "flat" and base is Kind.DEVICE_SCALAR else base
        return Kind.UNKNOWN

    def _kind_Subscript(self, expr: ast.Subscript) -> Kind:
        model = self.model
        value = expr.value
        qual = model.qualname(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
        if qual is not None:
            head, _, tail = qual.partition(".")
            if tail in api.INDEX_BUILDERS:
                if tail in ("s_", "index_exp"):
                    return Kind.NOT
                if head == model.device_root:
                    return Kind.SEQ if tail == "ogrid" else Kind.DEVICE
                return Kind.HOST if head == "numpy" else Kind.UNKNOWN
            return Kind.UNKNOWN  # typing generics and the like
        if isinstance(value, ast.Attribute) and value.attr == "shape" and not isinstance(expr.slice, ast.Slice):
            if self._kind(value.value).is_array:
                return Kind.SCALAR  # a.shape[0]
        base = self._kind(value)
        if base is Kind.BOTTOM:
            return Kind.BOTTOM
        if base in _ARRAYS:
            result = self._index_shape(value, expr.slice)
            if result == SCALAR_SHAPE:
                return Kind.DEVICE_SCALAR if base is Kind.DEVICE else Kind.SCALAR if base is Kind.HOST else base
            return base
        if base is Kind.DEVICE_SCALAR:
            return Kind.DEVICE_SCALAR
        if base is Kind.SEQ:
            return Kind.DEVICE if not isinstance(expr.slice, ast.Slice) else Kind.SEQ
        if base is Kind.NOT and not isinstance(expr.slice, ast.Slice):
            return self._items_kind(value)  # frames[-1], self.entries[name]
        return Kind.UNKNOWN

    def _kind_Call(self, expr: ast.Call) -> Kind:
        model = self.model
        func = expr.func
        qual = model.qualname(func)
        if qual is not None:
            return self._library_call_kind(qual, expr)
        if isinstance(func, ast.Name):
            if model.lookup(func) is None:
                builtin = self._builtin_call_kind(func.id, expr)
                if builtin is not None:
                    return builtin
            return self._user_call_kind(expr)
        if isinstance(func, ast.Attribute):
            receiver = self._kind(func.value)
            if receiver is Kind.BOTTOM:
                return Kind.BOTTOM
            if receiver in _ARRAYS or receiver is Kind.DEVICE_SCALAR:
                return self._method_kind(receiver, func.attr, expr)
            if receiver is Kind.GENERATOR:
                return self._draw_kind(func.attr, expr, generator=True) if func.attr in api.GENERATOR_DRAWS else Kind.UNKNOWN
            if receiver is Kind.NOT and func.attr in ("copy", "split", "join", "strip", "format", "keys", "values", "items"):
                return Kind.NOT
            if receiver is not Kind.NOT:
                return self._user_call_kind(expr)
        return Kind.UNKNOWN

    def _builtin_call_kind(self, name: str, call: ast.Call) -> Kind | None:
        args = call.args
        if name == "abs" and args:
            return self._kind(args[0])
        if name in ("min", "max", "sum"):
            if len(args) >= 2 and name != "sum":
                return _combine([self._kind(a) for a in args])
            if len(args) == 1:
                kind = self._kind(args[0])
                if kind is Kind.BOTTOM:
                    return Kind.BOTTOM
                if kind in (Kind.DEVICE, Kind.SEQ):
                    shape = self._shape(args[0])
                    return Kind.DEVICE_SCALAR if shape is not None and len(shape) == 1 else Kind.DEVICE
                if kind is Kind.NOT or isinstance(args[0], _COMPREHENSIONS):
                    items = self._items_kind(args[0], iterated=True)  # sum of a list of device scalars
                    return items if items in (Kind.DEVICE, Kind.DEVICE_SCALAR, Kind.BOTTOM) else Kind.UNKNOWN
            return Kind.UNKNOWN
        if name in api.NUMBER_BUILTINS:
            return Kind.SCALAR if name not in ("any", "all", "bool") else Kind.NOT
        if name in api.NON_ARRAY_BUILTINS:
            return Kind.NOT
        return None

    def _method_kind(self, receiver: Kind, method: str, call: ast.Call) -> Kind:
        if receiver is Kind.CUPY and method == "get":
            return Kind.HOST  # CuPy's copy to a host NumPy array
        if method == "item":
            return Kind.SCALAR
        if method in api.NON_ARRAY_METHODS:
            return Kind.NOT
        if method in api.SEQUENCE_METHODS:
            return Kind.SEQ
        if receiver is Kind.DEVICE_SCALAR:
            return Kind.DEVICE_SCALAR
        if receiver is Kind.DEVICE and method in api.REDUCTION_METHODS:
            axis = positional_or_keyword(call, 0, "axis")
            if axis is None or (isinstance(axis, ast.Constant) and axis.value is None):
                return receiver if any(k.arg == "keepdims" for k in call.keywords) else Kind.DEVICE_SCALAR
            return Kind.DEVICE_SCALAR if self.call_shape(call) == SCALAR_SHAPE else receiver
        if receiver is Kind.DEVICE and method == "dot":
            if call.args and self._kind(call.args[0]) is Kind.BOTTOM:
                return Kind.BOTTOM
            if self.call_shape(call) == SCALAR_SHAPE:
                return Kind.DEVICE_SCALAR
        return receiver

    def _library_call_kind(self, qual: str, call: ast.Call) -> Kind:
        model = self.model
        head, _, tail = qual.partition(".")
        device = model.device_root
        if head in DEVICE_ROOTS:
            if tail in api.GENERATOR_FUNCTIONS:
                # The host alias's generator draws host arrays; what they are
                # is not worth guessing (its draws are not device arrays).
                return Kind.GENERATOR if head == device else Kind.UNKNOWN
            last = tail.rpartition(".")[2]
            if tail in api.STRIDE_TRICK_ARRAYS:
                return Kind.DEVICE if head == device else Kind.HOST if device == "cupynumeric" else Kind.UNKNOWN
            if api.is_internal_api(tail):
                return Kind.UNKNOWN  # numpy's private helpers return anything
            if tail in api.PYTHON_NUMBER_FUNCTIONS or last in api.SCALAR_TYPES:
                return Kind.SCALAR
            if tail in api.NON_ARRAY_FUNCTIONS:
                return Kind.NOT
            if tail in api.SEQUENCE_FUNCTIONS and not (tail == "gradient" and _single_axis(call)):
                return Kind.SEQ  # (np.gradient(u, axis=1) is one array, not a list of them)
            if tail == "where" and len(call.args) == 1:
                return Kind.SEQ

            if tail == "unique" and any(k.arg and k.arg.startswith("return_") for k in call.keywords):
                return Kind.SEQ
            if head == device:
                if tail.startswith("random."):
                    return self._draw_kind(tail[len("random."):], call, generator=False)
                scalar = self._call_is_scalar(tail, call)
                return Kind.BOTTOM if scalar is None else Kind.DEVICE_SCALAR if scalar else Kind.DEVICE
            if head == "numpy" and device == "cupynumeric":
                scalar = self._call_is_scalar(tail, call)
                return Kind.BOTTOM if scalar is None else Kind.SCALAR if scalar else Kind.HOST
            return Kind.UNKNOWN
        if head == "cupy":
            return Kind.HOST if tail == "asnumpy" else Kind.CUPY
        if head == "math" and tail not in ("isnan", "isinf", "isfinite", "isclose"):
            return Kind.SCALAR  # Python's math module computes Python numbers
        if head == "scipy" and tail.startswith("sparse.") and tail.count(".") == 1:
            # csr_matrix(...), coo_array(...), sparse.eye(n): a sparse matrix, not an array
            last = tail[len("sparse."):]
            if last not in api.SPARSE_MODULE_NON_MATRIX and not last.startswith("isspmatrix"):
                return Kind.NOT
        return Kind.UNKNOWN

    def _call_is_scalar(self, tail: str, call: ast.Call) -> bool | None:
        """Does a NumPy call return a 0-d value (a reduction of everything,
        math on numbers, a product of two vectors)? Decided from the
        operands' kinds where they suffice; shapes only when the rank
        matters (a reduction along an axis, a product). None while an
        operand that decides it is not known yet."""
        if tail in api.BUILDERS or tail.startswith("random."):
            return False
        if tail in api.SCALAR_RESULTS:
            return True
        if tail in api.ELEMENTWISE:
            operands = [a for a in call.args if not isinstance(a, ast.Starred)]
            if tail == "clip":
                operands = operands[:1]
            kinds = [self._kind(a) for a in operands]
            if any(k in _ARRAYS for k in kinds):
                return False
            if Kind.BOTTOM in kinds:
                return None
            return bool(kinds) and all(k in _NUMBERS for k in kinds)
        if tail in api.REDUCTIONS:
            axis = positional_or_keyword(call, api.REDUCTION_AXIS_POSITION.get(tail, 1), "axis")
            if axis is None or (isinstance(axis, ast.Constant) and axis.value is None):
                return not any(k.arg == "keepdims" for k in call.keywords)
            if call.args and self._kind(call.args[0]) is Kind.BOTTOM:
                return None
            return self.call_shape(call) == SCALAR_SHAPE
        if tail in api.MATMUL_APIS:
            if any(self._kind(a) is Kind.BOTTOM for a in call.args[:2]):
                return None
            return self.call_shape(call) == SCALAR_SHAPE
        return False

    def _draw_kind(self, name: str, call: ast.Call, generator: bool) -> Kind:
        """A random draw: an array when it has a size (or array parameters),
        one number — a device scalar on cuPyNumeric — when it has neither."""
        if name in api.RANDOM_DIMS_AS_ARGS:
            return Kind.DEVICE if call.args else Kind.DEVICE_SCALAR
        if name in api.RANDOM_PERMUTATIONS or name == "shuffle":
            return Kind.DEVICE if name != "shuffle" else Kind.NOT
        position = api.RANDOM_SIZE_POSITION.get(name)
        if position is None:
            return Kind.UNKNOWN
        size = positional_or_keyword(call, position, "size")
        if size is not None and not (isinstance(size, ast.Constant) and size.value is None):
            return Kind.DEVICE
        if name in api.RANDOM_VECTOR_DRAWS:
            return Kind.DEVICE
        parameters = [a for a in call.args[:position]] + [k.value for k in call.keywords if k.arg not in ("size", "dtype", "endpoint", "replace", "p", "axis", "shuffle")]
        if name == "choice" and parameters:
            parameters = parameters[1:]  # choice(a) draws one item of a
        kinds = [self._kind(p) for p in parameters]
        if any(k in _ARRAYS for k in kinds) or any(isinstance(p, (ast.List, ast.Tuple)) for p in parameters):
            return Kind.DEVICE  # broadcast over array parameters
        if Kind.BOTTOM in kinds:
            return Kind.BOTTOM
        # A parameter of unknown kind (``sigma`` passed in) is taken for a
        # number: distribution parameters are numbers in nearly all code, and
        # an array one is seen as an array where it is made.
        if all(k in _NUMBERS or k is Kind.UNKNOWN for k in kinds):
            return Kind.DEVICE_SCALAR
        return Kind.DEVICE

    def _user_call_kind(self, call: ast.Call) -> Kind:
        """A call of the file's own function: what its ``return`` statements give
        (for a Numba ufunc, ``@vectorize``, an array when any argument is one)."""
        scope = self.model.calls.target(call)
        if scope is None:
            return Kind.UNKNOWN
        if self._numba_ufunc(scope):
            kinds = [self._kind(a) for a in call.args]
            if Kind.BOTTOM in kinds:
                return Kind.BOTTOM
            return Kind.DEVICE if any(k is Kind.DEVICE for k in kinds) else Kind.UNKNOWN
        result = self._read(scope)[0]
        if result is Kind.BOTTOM:
            return Kind.BOTTOM
        return result if result in _ARRAYS or result is Kind.DEVICE_SCALAR else Kind.UNKNOWN

    def _numba_ufunc(self, scope: "Scope") -> bool:
        """Is the function decorated with Numba's ``@vectorize`` (a ufunc that
        broadcasts over arrays, whatever its body returns for one element)?"""
        from .compiled import _compiler

        node = scope.node
        return isinstance(node, _DEF_TYPES) and any(_compiler(self.model, d) == "vectorize" for d in node.decorator_list)

    def _kind_Name(self, expr: ast.Name) -> Kind:
        model = self.model
        scope = model.lookup(expr)
        if scope is None:
            return Kind.UNKNOWN
        bindings = model._reaching.bindings(scope, expr)
        if not bindings:
            return Kind.UNKNOWN
        read = self._read
        return join([read(b)[0] for b in bindings])


def _combine(kinds: list[Kind]) -> Kind:
    """The kind of an arithmetic result from its operands' kinds (an array
    operand decides it; otherwise an operand not known yet leaves it so)."""
    for array_kind in (Kind.DEVICE, Kind.CUPY, Kind.HOST):
        if array_kind in kinds:
            return array_kind
    if Kind.BOTTOM in kinds:
        return Kind.BOTTOM
    if Kind.DEVICE_SCALAR in kinds:
        return Kind.DEVICE_SCALAR if all(k in _NUMBERS for k in kinds) else Kind.UNKNOWN
    if all(k is Kind.SCALAR for k in kinds):
        return Kind.SCALAR
    if Kind.NOT in kinds and Kind.UNKNOWN not in kinds:
        return Kind.NOT
    return Kind.UNKNOWN


def isinstance_of_non_array(test: ast.expr, name: str) -> bool:
    """``isinstance(name, list)`` / ``isinstance(name, (list, tuple))``."""
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"):
        return False
    if len(test.args) != 2 or not (isinstance(test.args[0], ast.Name) and test.args[0].id == name):
        return False
    types = test.args[1]
    names = types.elts if isinstance(types, ast.Tuple) else [types]
    return all(isinstance(t, ast.Name) and t.id in _NON_ARRAY_TYPE_NAMES for t in names)
