"""The value engine's shapes of expressions (:class:`ExpressionShapes`).

Rank and extent per axis (:mod:`.shapes`) of operators, attributes, names
and bindings, and of indexing: a scalar index drops an axis, a slice keeps
it (its extent worked out when the bounds are known), ``None`` adds one, a
boolean mask flattens. A rank a function pins (``n, m = a.shape``,
``assert a.ndim == 2``) gives a parameter its rank. Calls are
:mod:`.call_shapes`'s. A mixin of :class:`~cpn_lint.model.values.ValueEngine`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from . import shapes
from .array_evidence import _walk_function
from .kinds import Kind
from .scopes import Binding, BindKind
from .shapes import SCALAR_SHAPE, Extent, MaybeShape
from .value_common import _ARRAYS, _DEF_TYPES, _NUMBERS, _PENDING, _is_none

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import Scope



class ExpressionShapes:
    """The shapes of expressions, names, bindings and subscripts."""

    model: "FileModel"

    # ================================================================= shapes
    def shape(self, expr: ast.expr | None) -> MaybeShape:
        """The shape of ``expr``'s value when it is a number or an array
        (``()`` for numbers and device scalars), None when unknown."""
        if not self._solved:
            self.solve()
        return self._shape(expr)

    def _shape(self, expr: ast.expr | None) -> MaybeShape:
        if expr is None:
            return None
        if self._memo_epoch != self._solver.epoch:
            self._fresh_memo()
        shapes_ = self._shapes
        if expr in shapes_:
            return shapes_[expr]
        solver = self._solver
        epoch, bottoms = solver.epoch, self._bottom_reads
        try:
            result = self._compute_shape(expr)
        except RecursionError:
            return None
        if solver.epoch == epoch and (bottoms == self._bottom_reads or not solver.busy) and not self._closing:
            self._shapes[expr] = result  # as in _kind
        return result

    def _compute_shape(self, expr: ast.expr) -> MaybeShape:
        kind = self._kind(expr)
        if kind in _NUMBERS:
            return SCALAR_SHAPE
        if kind not in _ARRAYS:
            return None
        if isinstance(expr, ast.Name):
            return self._name_shape(expr)
        if isinstance(expr, ast.BinOp):
            left, right = self._operand_shape(expr.left), self._operand_shape(expr.right)
            if isinstance(expr.op, ast.MatMult):
                return shapes.matmul(left, right)
            return shapes.broadcast(left, right)
        if isinstance(expr, ast.UnaryOp):
            return self._shape(expr.operand)
        if isinstance(expr, ast.Compare):
            return shapes.broadcast_all(self._operand_shape(o) for o in (expr.left, *expr.comparators))
        if isinstance(expr, ast.Subscript):
            if self._kind(expr.value) is Kind.SEQ and self._index_vectors(expr.value) and self._kind(expr.slice) in _NUMBERS:
                return (None,)  # np.nonzero(m)[0]: a vector of positions
            return self._index_shape(expr.value, expr.slice)
        if isinstance(expr, ast.Attribute):
            cls = self._attribute_class(expr)
            if cls is not None and self.model._class_attrs.get((id(cls), expr.attr)):
                return self._attribute_shape(expr)  # the class's own attribute (self.data, self.T)
            base = self._shape(expr.value)
            if expr.attr in ("T", "mT") and base is not None:
                return tuple(reversed(base)) if expr.attr == "T" else base[:-2] + base[-1:] + base[-2:-1]
            if expr.attr in ("real", "imag"):
                return base
            if expr.attr == "flat":
                return (shapes.size_extent(base) if base is not None else None,)  # always one axis
            return self._attribute_shape(expr)
        if isinstance(expr, ast.Call):
            return self.call_shape(expr)
        if isinstance(expr, ast.IfExp):
            if _is_none(expr.orelse) or _is_none(expr.body):
                return self._shape(expr.orelse if _is_none(expr.body) else expr.body)
            return shapes.merge(self._shape(expr.body), self._shape(expr.orelse))
        if isinstance(expr, ast.NamedExpr):
            return self._shape(expr.value)
        return None

    def _attribute_shape(self, expr: ast.Attribute) -> MaybeShape:
        """``self.x``/``p.x``: the shape every ``self.x = ...`` of the class agrees on."""
        cls = self._attribute_class(expr)
        bindings = self.model._class_attrs.get((id(cls), expr.attr)) if cls is not None else None
        if not bindings:
            return None
        found: list[MaybeShape] = []
        for binding in bindings:
            kind, shape = self._read(binding)
            if len(bindings) > 1 and kind in (Kind.SCALAR, Kind.UNKNOWN):
                continue  # neutral: self.u = None before self.u = np.zeros(n)
            if shape is not _PENDING:
                found.append(shape)  # type: ignore[arg-type]
        return shapes.merge_all(found)

    def _operand_shape(self, expr: ast.expr) -> MaybeShape:
        kind = self._kind(expr)
        if kind in _NUMBERS:
            return SCALAR_SHAPE
        if kind in _ARRAYS:
            return self._shape(expr)
        return None

    def _name_shape(self, expr: ast.Name) -> MaybeShape:
        model = self.model
        scope = model.lookup(expr)
        if scope is None:
            return None
        bindings = model._reaching.bindings(scope, expr)
        found: list[MaybeShape] = []
        for binding in bindings:
            kind, shape = self._read(binding)
            if len(bindings) > 1 and kind in (Kind.SCALAR, Kind.UNKNOWN):
                continue  # neutral: err = 1.0 before err = np.max(...) adds no shape
            if shape is not _PENDING:
                found.append(shape)  # type: ignore[arg-type]
        return shapes.merge_all(found)

    def binding_shape(self, b: Binding) -> MaybeShape:
        """The shape of the value ``b`` gives its name."""
        shape = self._read(b)[1]
        return None if shape is _PENDING else shape  # type: ignore[return-value]

    def _compute_binding_shape(self, b: Binding, kind: Kind) -> MaybeShape:
        if kind in _NUMBERS:
            return SCALAR_SHAPE
        if kind not in _ARRAYS:
            return None
        if b.kind is BindKind.VALUE:
            return self._shape(b.value)
        if b.kind is BindKind.AUG:
            # x op= y keeps x's shape: the shape of the bindings before it
            found = [self._read(o)[1] for o in self._other_reaching(b) if o is not b]
            return shapes.merge_all([shape for shape in found if shape is not _PENDING])  # type: ignore[misc]
        if b.kind is BindKind.ELEMENT and b.value is not None:
            unpacked = self._unpacked_items(b)
            if unpacked is not None:
                return shapes.merge_all([self._shape(item) for item in unpacked])
            if b.index is None:
                source = self._shape(b.value)
                return source[1:] if source else None
            grid = self._meshgrid_shape(b.value)
            if grid is not None:
                return grid
            if b.index is not None and self._index_vectors(b.value):
                return (None,)  # idx, top = np.where(mask): one 1-D index vector per axis
        if b.kind is BindKind.PARAM:
            passed = self._argument_shape(b)
            if passed is None:
                rank = self._stated_rank(b)
                return (None,) * rank if rank is not None else None
            return passed
        return None

    def _stated_rank(self, param: Binding) -> int | None:
        """The rank a function states for a parameter it receives: ``n, m =
        a.shape`` (unpacking fails for any other rank), ``assert a.ndim ==
        2`` or ``if a.ndim != 2: raise ...`` at the top of its body."""
        key = (id(param), "rank")
        if key in self._classes:
            return self._classes[key]  # type: ignore[return-value]
        found: set[int] = set()
        for rank, subject in self._rank_statements(param.scope).get(param.name, ()):
            if self.model.reaching_bindings(subject) == [param]:
                found.add(rank)  # type: ignore[arg-type]
        result = found.pop() if len(found) == 1 else None
        self._classes[key] = result
        return result

    def _rank_statements(self, scope: "Scope") -> dict[str, list[tuple[int | None, ast.Name]]]:
        """Name -> (rank, name node) of each statement of the function's body
        that pins the rank of that name (one walk of the body for all its
        parameters)."""
        key = (id(scope), "ranks")
        table = self._classes.get(key)
        if table is None:
            table = {}
            node = scope.node
            body = node.body if isinstance(node, _DEF_TYPES) else []
            for statement in _walk_function(body):
                rank, subject = _rank_statement(statement)
                if subject is not None:
                    table.setdefault(subject.id, []).append((rank, subject))
            self._classes[key] = table
        return table  # type: ignore[return-value]

    def _index_vectors(self, value: ast.expr, depth: int = 0) -> bool:
        """Is ``value`` the tuple of index vectors ``np.nonzero``/one-argument
        ``np.where`` return (directly or through a name bound to it)?"""
        if isinstance(value, ast.Name) and depth < 3:
            bindings = self.model.reaching_bindings(value)
            return bool(bindings) and all(b.kind is BindKind.VALUE and b.value is not None
                                          and self._index_vectors(b.value, depth + 1) for b in bindings)
        if isinstance(value, ast.Call):
            api_name = self.model.call_api(value)
            return api_name == "nonzero" or (api_name == "where" and len(value.args) == 1)
        return False

    def _meshgrid_shape(self, value: ast.expr) -> MaybeShape:
        """The shape every array of ``X, Y = np.meshgrid(x, y)`` has: the
        vectors' lengths, reversed for the first two under ``indexing='xy'``."""
        if not isinstance(value, ast.Call) or self.model.call_api(value) != "meshgrid":
            return None
        if any(isinstance(a, ast.Starred) for a in value.args) or not value.args:
            return None
        lengths = []
        for vector in value.args:
            shape = self._array_shape(vector)
            if shape is None or len(shape) != 1:
                return None
            lengths.append(shape[0])
        indexing = next((k.value for k in value.keywords if k.arg == "indexing"), None)
        if len(lengths) >= 2 and not (isinstance(indexing, ast.Constant) and indexing.value == "ij"):
            lengths[0], lengths[1] = lengths[1], lengths[0]
        return tuple(lengths)

    def _other_reaching(self, b: Binding) -> list[Binding]:
        if not isinstance(b.node, ast.Name):
            return []
        scope = self.model.lookup(b.node)
        return self.model._reaching.bindings(scope, b.node) if scope is not None else []

    # ------------------------------------------------------------ indexing
    def _index_shape(self, base_expr: ast.expr, index: ast.expr) -> MaybeShape:
        """The shape of ``base[index]`` under NumPy's basic indexing; None
        for advanced (array) indexing or when the base's rank is unknown."""
        base = self._shape(base_expr)
        if base is None:
            return None
        if not isinstance(index, ast.Tuple) and self._is_boolean_mask(index):
            mask = self._shape(index)
            if mask is not None and len(mask) == len(base):
                return (None,)  # a mask over every axis picks an unknown number of elements
        components = list(index.elts) if isinstance(index, ast.Tuple) else [index]
        explicit = sum(1 for c in components if not _is_ellipsis(c) and not self._is_newaxis(c))
        out: list[Extent] = []
        axis = 0
        for component in components:
            if _is_ellipsis(component):
                skip = len(base) - explicit
                if skip < 0:
                    return None
                out.extend(base[axis : axis + skip])
                axis += skip
            elif self._is_newaxis(component):
                out.append(1)
            elif isinstance(component, ast.Slice):
                if axis >= len(base):
                    return None
                out.append(self._slice_extent(base[axis], component))
                axis += 1
            elif self._kind(component) in _NUMBERS:
                if axis >= len(base):
                    return None
                axis += 1
            else:
                return None  # an index array, a mask, or something unknown
        if axis > len(base):
            return None
        return tuple(out) + base[axis:]

    def _is_boolean_mask(self, expr: ast.expr, depth: int = 0) -> bool:
        """A comparison of arrays, a logical combination of them, or a name
        every binding of which is one."""
        if depth > 4:
            return False
        if isinstance(expr, ast.Compare):
            return self._kind(expr) is Kind.DEVICE
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return self._is_boolean_mask(expr.left, depth + 1) or self._is_boolean_mask(expr.right, depth + 1)
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Invert):
            return self._is_boolean_mask(expr.operand, depth + 1)
        if isinstance(expr, ast.Call) and self.model.call_api(expr) in ("logical_and", "logical_or", "logical_not", "logical_xor", "isnan", "isfinite", "isinf"):
            return self._kind(expr) is Kind.DEVICE
        if isinstance(expr, ast.Name):
            bindings = self.model.reaching_bindings(expr)
            return bool(bindings) and all(b.kind is BindKind.VALUE and b.value is not None
                                          and self._is_boolean_mask(b.value, depth + 1) for b in bindings)
        return False

    def _is_newaxis(self, expr: ast.expr) -> bool:
        if isinstance(expr, ast.Constant) and expr.value is None:
            return True
        qual = self.model.qualname(expr) if isinstance(expr, ast.Attribute) else None
        return qual is not None and qual.endswith(".newaxis")

    def _slice_extent(self, extent: Extent, part: ast.Slice) -> Extent:
        model = self.model
        if part.step is not None and model.const_int(part.step) not in (None, 1):
            step = model.const_int(part.step)
            if isinstance(extent, int) and step is not None and step > 0 and part.lower is None and part.upper is None:
                return -(-extent // step)
            return None
        if part.step is not None and model.const_int(part.step) is None:
            return None
        if part.lower is None and part.upper is None:
            return extent
        if not isinstance(extent, int):
            return None
        lower = 0 if part.lower is None else model.const_int(part.lower)
        upper = extent if part.upper is None else model.const_int(part.upper)
        if lower is None or upper is None:
            return None
        lower = max(0, lower + extent if lower < 0 else lower)
        upper = max(0, upper + extent if upper < 0 else min(upper, extent))
        return max(0, upper - lower)


def _rank_statement(statement: ast.stmt) -> tuple[int | None, ast.Name | None]:
    """(rank, name) when the statement pins a name's rank: ``n, m = a.shape``,
    ``assert a.ndim == 2`` (or ``len(a.shape) == 2``), ``if a.ndim != 2: raise``."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0], statement.value
        if isinstance(target, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in target.elts) \
                and isinstance(value, ast.Attribute) and value.attr == "shape" and isinstance(value.value, ast.Name):
            return len(target.elts), value.value
        return None, None
    if isinstance(statement, ast.Assert):
        return _rank_test(statement.test, ast.Eq)
    if isinstance(statement, ast.If) and len(statement.body) == 1 and isinstance(statement.body[0], ast.Raise) and not statement.orelse:
        return _rank_test(statement.test, ast.NotEq)
    return None, None


def _rank_test(test: ast.expr, op: type) -> tuple[int | None, ast.Name | None]:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], op)):
        return None, None
    left, right = test.left, test.comparators[0]
    if isinstance(left, ast.Constant):
        left, right = right, left
    if not (isinstance(right, ast.Constant) and type(right.value) is int):
        return None, None
    if isinstance(left, ast.Attribute) and left.attr == "ndim" and isinstance(left.value, ast.Name):
        return right.value, left.value
    if isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "len" and len(left.args) == 1:
        inner = left.args[0]
        if isinstance(inner, ast.Attribute) and inner.attr == "shape" and isinstance(inner.value, ast.Name):
            return right.value, inner.value
    return None, None


def _is_ellipsis(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is Ellipsis
