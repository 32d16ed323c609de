"""The value engine's shapes of calls (:class:`CallShapes`).

What a NumPy constructor, reduction, scan, join, ``repeat``, stride trick,
random draw or array method returns, from its arguments; a call of the
file's own function from its return summary; and the extent a size
argument stands for (``np.zeros(n)``, a length written out). A mixin of
:class:`~cpn_lint.model.values.ValueEngine`.
"""

from __future__ import annotations

import ast
import math
from typing import TYPE_CHECKING

from . import numpy_api as api
from . import shapes
from .imports import DEVICE_ROOTS
from .kinds import Kind
from .scopes import BindKind
from .shapes import SCALAR_SHAPE, Extent, MaybeShape
from .syntax import literal_length, positional_or_keyword
from .value_common import _ARRAYS, _PENDING, _single_axis

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

# joining functions -> the axis their parts are joined along
_JOIN_AXES = {"concatenate": 0, "hstack": 1, "vstack": 0, "row_stack": 0, "stack": 0}


class CallShapes:
    """The shapes of calls, and the extents their size arguments stand for."""

    model: "FileModel"

    # ---------------------------------------------------------------- calls
    def call_shape(self, call: ast.Call) -> MaybeShape:
        """The shape of a NumPy call's (or an array method's) result."""
        if not self._solved:
            self.solve()
        model = self.model
        func = call.func
        qual = model.qualname(func)
        if qual is not None:
            head, _, tail = qual.partition(".")
            if head not in DEVICE_ROOTS:
                return None
            if tail.startswith("random."):
                return self._draw_shape(tail[len("random."):], call)
            return self._api_shape(tail, call)
        if isinstance(func, ast.Attribute):
            receiver = self._kind(func.value)
            if receiver is Kind.GENERATOR:
                return self._draw_shape(func.attr, call)
            if receiver in _ARRAYS or receiver is Kind.DEVICE_SCALAR:
                return self._method_shape(func.value, func.attr, call)
            return self._user_call_shape(call)
        if isinstance(func, ast.Name) and model.lookup(func) is not None:
            return self._user_call_shape(call)
        return None

    def _user_call_shape(self, call: ast.Call) -> MaybeShape:
        scope = self.model.calls.target(call)
        if scope is None or not scope.returns:
            return None
        shape = self._read(scope)[1]
        return None if shape is _PENDING else shape  # type: ignore[return-value]

    def _api_shape(self, tail: str, call: ast.Call) -> MaybeShape:
        args = call.args
        first = args[0] if args else None
        if tail in api.STRIDE_TRICK_ARRAYS:
            return self._stride_trick_shape(tail, call)
        if tail == "gradient" and _single_axis(call):
            return self._array_shape(first)
        if tail == "repeat" and first is not None:
            return self._repeat_shape(self._array_shape(first), positional_or_keyword(call, 1, "repeats"),
                                      positional_or_keyword(call, 2, "axis"))
        if tail in api.SHAPE_FIRST:
            return self.shape_argument(positional_or_keyword(call, 0, "shape"))
        if tail in api.LIKE:
            given = positional_or_keyword(call, None, "shape")
            return self.shape_argument(given) if given is not None else self._array_shape(first)
        if tail in _MATRIX_APIS:
            return _as_matrix(self._array_shape(first))
        if tail in api.CONVERSIONS:
            return self._array_shape(first)
        if tail in api.AT_LEAST:
            inner = self._array_shape(first)
            least = api.AT_LEAST[tail]
            return (1,) * (least - len(inner)) + inner if inner is not None and len(inner) < least else inner
        if tail == "arange":
            return self._arange_shape(call)
        if tail in api.SPACES:
            position, default = api.SPACES[tail]
            num = positional_or_keyword(call, position, "num")
            return (default,) if num is None else (self.extent(num),)
        if tail in api.SQUARE:
            n = self.extent(positional_or_keyword(call, 0, "N", "n"))
            m_expr = positional_or_keyword(call, 1, "M") if tail != "identity" else None
            return (n, self.extent(m_expr) if m_expr is not None else n)
        if tail in api.REDUCTIONS:
            return self._reduction_shape(self._array_shape(first), call, api.REDUCTION_AXIS_POSITION.get(tail, 1))
        if tail in api.SCALAR_RESULTS:
            return SCALAR_SHAPE
        if tail in api.SCANS:
            return self._scan_shape(self._array_shape(first), call)
        if tail in ("dot", "matmul", "linalg.matmul") and len(args) >= 2:
            return shapes.matmul(self._array_shape(args[0]), self._array_shape(args[1]))
        if tail in ("inner", "vdot") and len(args) >= 2:
            a, b = self._array_shape(args[0]), self._array_shape(args[1])
            return SCALAR_SHAPE if a is not None and b is not None and len(a) <= 1 and len(b) <= 1 else None
        if tail == "outer" and len(args) >= 2:
            a, b = self._array_shape(args[0]), self._array_shape(args[1])
            return (shapes.size_extent(a), shapes.size_extent(b)) if a is not None and b is not None else None
        if tail == "where" and len(args) == 3:
            return shapes.broadcast_all(self._array_shape(a) for a in args)
        if tail in api.ELEMENTWISE:
            operands = [a for a in args if not isinstance(a, ast.Starred)]
            if tail == "clip":
                operands = operands[:1]
            return shapes.broadcast_all(self._array_shape(a) for a in operands) if operands else None
        if tail in api.SAME_SHAPE or tail in ("linalg.inv", "fft.fft", "fft.ifft", "fft.fft2", "fft.ifft2", "fft.fftn", "fft.ifftn", "fft.fftshift", "fft.ifftshift"):
            return self._array_shape(first)
        if tail == "linalg.solve" and len(args) >= 2:
            return self._array_shape(args[1])
        if tail in ("ravel",):
            inner = self._array_shape(first)
            return (shapes.size_extent(inner),) if inner is not None else None
        if tail == "transpose" and len(args) == 1:
            inner = self._array_shape(first)
            return tuple(reversed(inner)) if inner is not None else None
        if tail == "reshape" and len(args) >= 2:
            return self.shape_argument(args[1])
        if tail in _JOIN_AXES and isinstance(first, (ast.Tuple, ast.List)):
            return self._joined_shape(tail, first.elts, call)
        if tail == "diag" and first is not None:
            inner = self._array_shape(first)
            if inner is not None and len(inner) == 1:
                return (inner[0], inner[0]) if not args[1:] else (None, None)
            if inner is not None and len(inner) == 2:
                return (None,)
        return None

    def _repeat_shape(self, base: MaybeShape, repeats: ast.expr | None, axis: ast.expr | None) -> MaybeShape:
        """``np.repeat(a, r)`` flattens: one axis of ``size(a) * r``; along an
        axis the rank stays and that axis grows."""
        if repeats is None or isinstance(repeats, (ast.List, ast.Tuple)) or self._kind(repeats) not in (Kind.SCALAR, Kind.UNKNOWN):
            count: Extent = None  # per-item counts (an array or a list)
        else:
            count = self.extent(repeats)
        if axis is None or (isinstance(axis, ast.Constant) and axis.value is None):
            if base is None:
                return (None,)
            size = shapes.size_extent(base)
            if size == 1:
                return (count,)
            return (size * count,) if isinstance(size, int) and isinstance(count, int) else (None,)
        position = self.model.const_int(axis)
        if base is None or position is None or not -len(base) <= position < len(base):
            return None
        grown = list(base)
        grown[position] = None
        return tuple(grown)

    def _stride_trick_shape(self, tail: str, call: ast.Call) -> MaybeShape:
        """``sliding_window_view(x, k)`` adds a window axis per window
        dimension (over all axes of ``x`` when ``axis`` is not given);
        ``as_strided``/``broadcast_to`` take the shape they are given."""
        name = tail.rpartition(".")[2]
        if name == "sliding_window_view":
            base = self._array_shape(call.args[0] if call.args else None)
            window = positional_or_keyword(call, 1, "window_shape")
            if base is None or window is None or positional_or_keyword(call, 2, "axis") is not None:
                return None
            windows = len(window.elts) if isinstance(window, (ast.Tuple, ast.List)) else 1
            return (None,) * (len(base) + windows)
        return self.shape_argument(positional_or_keyword(call, 1, "shape"))

    def _method_shape(self, receiver: ast.expr, method: str, call: ast.Call) -> MaybeShape:
        base = self._shape(receiver)
        if method in api.SAME_SHAPE_METHODS:
            return base
        if method in api.REDUCTION_METHODS:
            return self._reduction_shape(base, call, 0)
        if method in ("cumsum", "cumprod"):
            return self._scan_shape(base, call, position=0)
        if method in ("ravel", "flatten"):
            return (shapes.size_extent(base),) if base is not None else None
        if method == "repeat":
            return self._repeat_shape(base, positional_or_keyword(call, 0, "repeats"), positional_or_keyword(call, 1, "axis"))
        if method == "reshape":
            if len(call.args) == 1:
                return self.shape_argument(call.args[0])
            if call.args:
                return tuple(self.extent(a) for a in call.args)
            return self.shape_argument(positional_or_keyword(call, None, "shape"))
        if method == "transpose" and not call.args:
            return tuple(reversed(base)) if base is not None else None
        if method == "dot" and call.args:
            return shapes.matmul(base, self._array_shape(call.args[0]))
        return None

    def _array_shape(self, expr: ast.expr | None) -> MaybeShape:
        """The shape of an array argument; a literal list's own nesting."""
        if expr is None:
            return None
        if isinstance(expr, (ast.List, ast.Tuple)):
            return self._literal_sequence_shape(expr)
        if isinstance(expr, ast.ListComp):
            return self._comprehension_shape(expr)
        return self._operand_shape(expr)

    def _comprehension_shape(self, expr: ast.ListComp) -> MaybeShape:
        """``[(x, y) for x in (0, -1, 1) for y in (0, -1, 1)]``: as many items
        as the literal containers (or ``range`` of a literal) it walks give,
        each of its element's shape; None when a count is not written out."""
        count = 1
        for generator in expr.generators:
            if generator.ifs or generator.is_async:
                return None
            walked = generator.iter
            if isinstance(walked, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in walked.elts):
                count *= len(walked.elts)
            elif isinstance(walked, ast.Call) and isinstance(walked.func, ast.Name) and walked.func.id == "range" \
                    and self.model.lookup(walked.func) is None and len(walked.args) == 1 \
                    and (stop := self.model.const_int(walked.args[0])) is not None:
                count *= max(stop, 0)
            else:
                return None
        element = self._array_shape(expr.elt) if isinstance(expr.elt, (ast.List, ast.Tuple)) else \
            (SCALAR_SHAPE if self._kind(expr.elt) is Kind.SCALAR else None)
        return (count,) + element if element is not None else None

    def _literal_sequence_shape(self, expr: ast.List | ast.Tuple) -> MaybeShape:
        elements = expr.elts
        if any(isinstance(e, ast.Starred) for e in elements):
            return None
        if not elements:
            return (0,)
        inner = [self._array_shape(e) for e in elements]
        if SCALAR_SHAPE in inner and all(s == SCALAR_SHAPE or (s is None and self._kind(e) in (Kind.UNKNOWN, Kind.BOTTOM)) for s, e in zip(inner, elements)):
            # [a, 0, 0]: NumPy cannot mix an array with numbers, so ``a`` is a number
            return (len(elements),)
        first = inner[0]
        if first is None or any(s != first for s in inner[1:]):
            return (len(elements), None) if first is not None and len(first) > 0 else None
        return (len(elements),) + first

    def _arange_shape(self, call: ast.Call) -> MaybeShape:
        model = self.model
        args = call.args
        if call.keywords or not args or len(args) > 3:
            return (None,)
        values = [model.const_int(a) for a in args]
        if None in values:
            numbers = [_literal_number(a) for a in args]
            if len(args) > 1 and None not in numbers and numbers[-1 if len(args) == 3 else 0] != 0:
                start_f, stop_f, step_f = (numbers[0], numbers[1], numbers[2] if len(numbers) == 3 else 1.0)
                return (max(0, math.ceil((stop_f - start_f) / step_f)),)  # np.arange(0.1, 2, 0.05)
            return (args[0].id,) if len(args) == 1 and isinstance(args[0], ast.Name) else (None,)
        start, stop, step = (0, values[0], 1) if len(values) == 1 else (values[0], values[1], values[2] if len(values) == 3 else 1)
        if not step:
            return (None,)
        return (max(0, -(-(stop - start) // step)),)  # type: ignore[operator]

    def _reduction_shape(self, base: MaybeShape, call: ast.Call, axis_position: int) -> MaybeShape:
        axis_expr = positional_or_keyword(call, axis_position, "axis")
        keepdims = any(k.arg == "keepdims" and isinstance(k.value, ast.Constant) and k.value.value is True for k in call.keywords)
        if axis_expr is None or (isinstance(axis_expr, ast.Constant) and axis_expr.value is None):
            return shapes.reduce(base, None, keepdims)
        axis = self.model.const_int(axis_expr)
        if axis is None:
            return None  # a tuple of axes or a name: not followed
        return shapes.reduce(base, axis, keepdims)

    def _scan_shape(self, base: MaybeShape, call: ast.Call, position: int = 1) -> MaybeShape:
        axis_expr = positional_or_keyword(call, position, "axis")
        if axis_expr is None or (isinstance(axis_expr, ast.Constant) and axis_expr.value is None):
            return (shapes.size_extent(base),) if base is not None else None
        return base

    def _joined_shape(self, tail: str, parts: list[ast.expr], call: ast.Call) -> MaybeShape:
        """The shape of ``np.hstack((a, b))`` and its kin when every part's
        shape is known: the parts' extents add up along the joining axis."""
        if not parts or any(isinstance(p, ast.Starred) for p in parts):
            return None
        shapes_ = [self._array_shape(p) for p in parts]
        if any(sh is None or len(sh) == 0 for sh in shapes_):
            return None
        rank_ = len(shapes_[0])  # type: ignore[arg-type]
        if any(len(sh) != rank_ for sh in shapes_):  # type: ignore[arg-type]
            return None
        if tail == "stack":
            axis = self.model.const_int(positional_or_keyword(call, 1, "axis")) or 0
            new = (len(parts),) + shapes_[0]  # type: ignore[operator]
            return new if axis == 0 else None
        axis = _JOIN_AXES[tail] if tail != "concatenate" else (self.model.const_int(positional_or_keyword(call, 1, "axis")) or 0)
        if rank_ == 1 and tail == "hstack":
            axis = 0
        if tail == "vstack" and rank_ == 1:
            return (len(parts), shapes_[0][0])  # type: ignore[index]
        if not -rank_ <= axis < rank_:
            return None
        axis %= rank_
        joined: list = list(shapes_[0])  # type: ignore[arg-type]
        extents = [sh[axis] for sh in shapes_]  # type: ignore[index]
        joined[axis] = sum(extents) if all(isinstance(e, int) for e in extents) else None  # type: ignore[arg-type]
        for i in range(rank_):
            if i != axis and len({sh[i] for sh in shapes_}) != 1:  # type: ignore[index]
                return None
        return tuple(joined)

    def _draw_shape(self, name: str, call: ast.Call) -> MaybeShape:
        if name in api.RANDOM_DIMS_AS_ARGS:
            return tuple(self.extent(a) for a in call.args) if call.args else SCALAR_SHAPE
        if name in api.RANDOM_PERMUTATIONS:
            first = call.args[0] if call.args else None
            if first is not None and self._kind(first) is Kind.SCALAR:
                return (self.extent(first),)
            return self._array_shape(first)
        position = api.RANDOM_SIZE_POSITION.get(name)
        if position is None:
            return None
        size = positional_or_keyword(call, position, "size")
        if size is None or (isinstance(size, ast.Constant) and size.value is None):
            if self._draw_kind(name, call, generator=False) is Kind.DEVICE_SCALAR:
                return SCALAR_SHAPE
            if name in api.RANDOM_VECTOR_DRAWS or name == "choice":
                return None
            # no size: the broadcast shape of the distribution's parameters
            parameters = [a for a in call.args[:position] if not isinstance(a, ast.Starred)]
            parameters += [k.value for k in call.keywords if k.arg not in ("size", "dtype")]
            return shapes.broadcast_all(self._array_shape(p) for p in parameters)
        shape = self.shape_argument(size)
        if name in api.RANDOM_VECTOR_DRAWS and shape is not None:
            return shape + (None,)
        return shape

    def shape_argument(self, expr: ast.expr | None) -> MaybeShape:
        """A shape given as an argument: an int, a name, or a tuple/list of them."""
        if not self._solved:
            self.solve()
        if expr is None:
            return None
        if isinstance(expr, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in expr.elts):
                return None
            return tuple(self.extent(e) for e in expr.elts)
        if isinstance(expr, ast.Attribute) and expr.attr == "shape":
            return self._shape(expr.value) if self._kind(expr.value).is_array else None
        kind = self._kind(expr)
        if kind is Kind.SCALAR or isinstance(expr, ast.Constant):
            return (self.extent(expr),)
        if isinstance(expr, ast.Name) and kind in (Kind.UNKNOWN, Kind.BOTTOM):
            return (self.extent(expr),)  # np.zeros(n) for a parameter n: one axis of n
        return None

    def extent(self, expr: ast.expr | None, depth: int = 0) -> Extent:
        """The extent an expression gives: a literal, a symbol, or unknown."""
        if not self._solved:
            self.solve()
        if expr is None:
            return None
        value = self.model.const_int(expr)
        if value is not None:
            return value if value >= 0 else None
        if isinstance(expr, ast.Name):
            bindings = self.model.reaching_bindings(expr)
            if len(bindings) == 1 and bindings[0].kind is BindKind.VALUE and depth < 4:
                traced = self.extent(bindings[0].value, depth + 1)
                if traced is not None:
                    return traced  # M = ri.shape[0]: ri's first extent
            return expr.id
        if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Attribute) and expr.value.attr == "shape":
            axis = self.model.const_int(expr.slice)
            base = self._shape(expr.value.value) if axis is not None else None
            if base is not None and axis is not None and -len(base) <= axis < len(base):
                return base[axis]
            return None
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len" and len(expr.args) == 1:
            base = self._shape(expr.args[0]) if self._kind(expr.args[0]).is_array else None
            if base:
                return base[0]
            if isinstance(expr.args[0], ast.Name):
                written = self._written_length(expr.args[0])
                return written if written is not None else f"len({expr.args[0].id})"
            return None
        return None

    def _written_length(self, name: ast.Name) -> int | None:
        """The length of a list or tuple written out (``(5, 5, 5)``) that every
        binding of ``name`` reaching here holds, or, for a parameter of a
        function no other code can call, that every call site passes."""
        model = self.model
        bindings = model.reaching_bindings(name)
        if len(bindings) == 1 and bindings[0].kind is BindKind.PARAM:
            scope = bindings[0].scope
            sites = model.calls.sites(scope)
            if not sites or model.calls.escapes(scope):
                return None
            values = [model.calls.argument(call, scope, name.id) for call in sites]
        else:
            values = [b.value if b.kind is BindKind.VALUE else None for b in bindings]
        lengths = {literal_length(self._written_value(v)) for v in values}
        return lengths.pop() if values and len(lengths) == 1 and None not in lengths else None

    def _written_value(self, value: ast.expr | None) -> ast.expr | None:
        """``value``, or what a name bound once holds (``init = (5, 5, 5)``)."""
        if isinstance(value, ast.Name):
            bindings = self.model.reaching_bindings(value)
            return bindings[0].value if len(bindings) == 1 and bindings[0].kind is BindKind.VALUE else None
        return value


# np.matrix and its kin: a 2-D array whatever it is made from
_MATRIX_APIS = frozenset({"matrix", "asmatrix", "mat", "bmat"})


def _as_matrix(shape: MaybeShape) -> MaybeShape:
    """The shape ``np.matrix`` gives data of ``shape``: always two axes
    (a number is 1 x 1, a vector one row); None beyond two axes (an error)."""
    if shape is None:
        return (None, None)
    if len(shape) == 0:
        return (1, 1)
    if len(shape) == 1:
        return (1, shape[0])
    return shape if len(shape) == 2 else None


def _literal_number(expr: ast.expr) -> float | None:
    """``0.05``, ``-2``, ``1e3``: a number written out; None for anything else."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        inner = _literal_number(expr.operand)
        return None if inner is None else (-inner if isinstance(expr.op, ast.USub) else inner)
    if isinstance(expr, ast.Constant) and type(expr.value) in (int, float):
        return float(expr.value)
    return None
