"""Small arrays: the few numbers written out where an array is made.

``np.array([1.0, 0.0, -1.0])`` or a row of a handful of coefficients is a
few numbers, not data to distribute: :meth:`SmallArrays.small_by_construction`
says so when a literal-sized constructor stands behind every binding that
makes the value, solved as a least fixpoint of its own
(:class:`_Small`: PENDING < YES < NO), and :meth:`SmallArrays.written_out`
when the table is written out in the source. A mixin of
:class:`~cpn_lint.model.values.ValueEngine`.
"""

from __future__ import annotations

import ast
import enum
from typing import TYPE_CHECKING, Iterable

from . import numpy_api as api
from . import shapes
from .kinds import Kind
from .scopes import Binding, BindKind
from .syntax import positional_or_keyword
from .value_common import _ARRAYS, _NUMBERS

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

SMALL_ARRAY = 64  # at most this many elements, written as literals where the array is made: a few numbers
_HANDFUL = 4  # a named size up to this (nparticle = 3) is a few bodies or coordinates, not a problem size
SMALL_ROW = 16  # a row of at most this many literal elements (a 3-vector, a 4-state) is a few numbers


class SmallArrays:
    """Whether an array is small by construction, or written out in the source."""

    model: "FileModel"

    # ============================================================ small arrays
    def small_by_construction(self, expr: ast.expr | None) -> bool:
        """Is ``expr`` an array of a few elements by the way the code makes
        it — a constructor whose sizes are written as literal numbers
        (``np.zeros((4, 1))``, ``np.array([0.25, 0.5, 0.25])``,
        ``rng.normal(0, 1, 2)``), values computed from such arrays, and the
        parameters every call site passes one? A state vector, a 3-vector, a
        small matrix: element-sized work. Sizes given by names
        (``np.zeros(nx)`` with ``nx = 41``) are problem sizes the user
        scales, never "small" here. A value that flows back into itself (a
        filter's state) is small when everything else that makes it is, and
        at least one of those is such a constructor.

        Bindings and return summaries are the variables of a monotone
        system (a value is as small as the largest thing that makes it),
        solved on demand from PENDING, its least fixpoint: the same answer
        whichever question comes first."""
        if not self._solved:
            self.solve()
        return self._small_solver.settled(lambda: self._small_status(expr)) is _Small.YES

    def written_out(self, expr: ast.expr | None, _depth: int = 0) -> bool:
        """Is ``expr`` a table whose values the code writes out
        (``np.array([(x, y) for x in (0, -1, 1) for y in (0, -1, 1)])``,
        ``np.array([0.25, 0.5, 0.25])``), through names every binding of
        which is one? Unlike an array sized by a literal (``np.ones(10)``,
        demo data the user scales), such a table keeps its size."""
        if expr is None or _depth > 3:
            return False
        if isinstance(expr, ast.Name):
            bindings = self.model.reaching_bindings(expr)
            return bool(bindings) and all(b.kind is BindKind.VALUE and self.written_out(b.value, _depth + 1) for b in bindings)
        if not (isinstance(expr, ast.Call) and self.model.call_api(expr) in api.CONVERSIONS):
            return False
        size = self._written_size(expr)
        return size is not None and size <= SMALL_ARRAY

    def _written_size(self, conversion: ast.Call) -> int | None:
        """The elements of ``np.array([...])`` when its values are written out
        (a list or tuple display, or a comprehension over literal containers)."""
        values = conversion.args[0] if conversion.args else None
        if not isinstance(values, (ast.List, ast.Tuple, ast.ListComp)):
            return None
        return shapes.literal_size(self._array_shape(values))

    def _evaluate_small(self, variable: object) -> "_Small":
        if isinstance(variable, Binding):
            return self._small_binding(variable)
        return _all_small(self._small_status(r) for r in variable.returns)  # type: ignore[attr-defined]

    def _small_status(self, expr: ast.expr | None) -> "_Small":
        if expr is None:
            return _Small.NO
        solver = self._small_solver
        if self._small_epoch != solver.epoch:
            self._small = {}
            self._small_epoch = solver.epoch
        known = self._small.get(expr)
        if known is not None:
            return known
        epoch = solver.epoch
        try:
            result = self._compute_small(expr)
        except RecursionError:
            return _Small.NO
        if solver.epoch == epoch:
            self._small[expr] = result
        return result

    def _compute_small(self, expr: ast.expr) -> "_Small":
        kind = self.kind(expr)
        if kind in _NUMBERS:
            return _Small.YES
        if kind not in _ARRAYS:
            return _Small.NO
        if isinstance(expr, ast.Name):
            values = [b for b in self._sizing_bindings(expr) if self.binding_kind(b) not in (Kind.SCALAR, Kind.UNKNOWN)]
            read = self._small_solver.value
            return _all_small(read(b) for b in values)
        if isinstance(expr, (ast.BinOp, ast.Compare)):
            operands = [expr.left, expr.right] if isinstance(expr, ast.BinOp) else [expr.left, *expr.comparators]
            return _all_small(self._small_status(o) for o in operands if self.kind(o) in _ARRAYS)
        if isinstance(expr, ast.UnaryOp):
            return self._small_status(expr.operand)
        if isinstance(expr, ast.Subscript):
            return self._small_status(expr.value)
        if isinstance(expr, ast.Attribute):
            if expr.attr in api.ARRAY_VALUE_ATTRIBUTES:
                return self._small_status(expr.value)
            cls = self._attribute_class(expr)  # self.pos, p.pos: what the class assigns it
            bindings = self.model._class_attrs.get((id(cls), expr.attr)) if cls is not None else None
            if not bindings:
                return _Small.NO
            read = self._small_solver.value
            return _all_small(read(b) for b in bindings if self.binding_kind(b) not in (Kind.SCALAR, Kind.UNKNOWN))
        if isinstance(expr, ast.Call):
            return self._small_call(expr)
        return _Small.NO

    def _sizing_bindings(self, use: ast.Name) -> list[Binding]:
        """The bindings that size the value ``use`` reads: ``x += y`` keeps
        ``x``'s size, so an augmented assignment stands for the bindings
        that reach it (``v += a * dt`` in a loop: the ``v`` it started from)."""
        found: list[Binding] = []
        seen: set[int] = set()
        todo = list(self.model.reaching_bindings(use))
        while todo:
            b = todo.pop()
            if id(b) in seen:
                continue
            seen.add(id(b))
            if b.kind is BindKind.AUG and isinstance(b.node, ast.Name):
                todo += self.model.reaching_bindings(b.node)
            elif b.kind is not BindKind.AUG:
                found.append(b)
        return found

    def _small_binding(self, b: Binding) -> "_Small":
        if b.kind is BindKind.VALUE:
            return self._small_status(b.value)
        if b.kind is BindKind.ELEMENT and b.value is not None:
            unpacked = self._unpacked_items(b)  # x, P = step(x, P)
            if unpacked is not None:
                return _all_small(self._small_status(item) for item in unpacked)
            if b.index is None and self.kind(b.value) is Kind.DEVICE:
                rows = self.shape(b.value)  # for z in zs: a row of a few literal numbers
                size = shapes.literal_size(rows[1:]) if rows else None
                return _Small.YES if size is not None and size <= SMALL_ROW else _Small.NO
            return _Small.NO
        if b.kind is BindKind.PARAM:
            given = self.model.calls.passed(b)
            if given is None:
                return _Small.NO
            return _all_small(self._small_status(g) for g in given)
        return _Small.NO

    def _small_call(self, call: ast.Call) -> "_Small":
        model = self.model
        func = call.func
        tail = model.call_api(call)
        receiver = self.kind(func.value) if isinstance(func, ast.Attribute) and tail is None else None
        if tail is None and receiver is Kind.GENERATOR:
            tail = f"random.{func.attr}"  # type: ignore[union-attr]
        if tail is None:
            if receiver in _ARRAYS:
                return self._small_status(func.value)  # type: ignore[union-attr]
            scope = model.calls.target(call)
            if scope is None or not scope.returns:
                return _Small.NO
            return self._small_solver.value(scope)
        if tail in api.JOINERS:
            return _Small.NO  # what is joined may grow without bound
        if tail in api.CONVERSIONS and call.args and isinstance(call.args[0], (ast.List, ast.Tuple, ast.ListComp)):
            size = self._written_size(call)
            return _Small.YES if size is not None and size <= SMALL_ARRAY else _Small.NO
        if tail in api.SHAPE_FIRST or tail in api.SQUARE or tail.startswith("random.") or tail in api.SPACES:
            arguments = self._size_arguments(tail, call)
            if arguments or not tail.startswith("random."):
                size = shapes.literal_size(self.call_shape(call))
                if size is None and arguments:
                    size = self._constant_size(arguments)  # np.zeros(nparticle) with nparticle = 3 at module level
                small = bool(arguments) and all(self._stated_size(a) for a in arguments) and size is not None and size <= SMALL_ARRAY
                return _Small.YES if small else _Small.NO
        return _all_small(self._small_status(a) for a in call.args if self.kind(a) in _ARRAYS)

    def _stated_size(self, expr: ast.expr) -> bool:
        """A size the code writes out: literals, or constants of the module
        bound once to a handful (``nparticle = 3``: bodies, coordinates),
        alone or in a tuple. A larger named size (``nx = 41``) is a problem
        size the user turns up, not a few numbers."""
        if isinstance(expr, (ast.Tuple, ast.List)):
            return bool(expr.elts) and all(self._stated_size(e) for e in expr.elts)
        if isinstance(expr, ast.Name):
            value = self.model.const_int(expr)
            return value is not None and 0 <= value <= _HANDFUL
        return _is_literal_size(expr)

    def _constant_size(self, arguments: list[ast.expr]) -> int | None:
        """The number of elements the constant size ``arguments`` give."""
        size = 1
        for argument in arguments:
            for extent in (argument.elts if isinstance(argument, (ast.Tuple, ast.List)) else [argument]):
                value = self.model.const_int(extent)
                if value is None or value < 0:
                    return None
                size *= value
        return size

    def _size_arguments(self, tail: str, call: ast.Call) -> list[ast.expr]:
        """The arguments that give a constructor or a draw its size."""
        if tail.startswith("random."):
            name = tail[len("random."):]
            if name in api.RANDOM_DIMS_AS_ARGS:
                return list(call.args)
            position = api.RANDOM_SIZE_POSITION.get(name)
            size = positional_or_keyword(call, position, "size") if position is not None else None
            return [size] if size is not None else []
        if tail in api.SPACES:
            num = positional_or_keyword(call, api.SPACES[tail][0], "num")
            return [num] if num is not None else []
        if tail in api.SQUARE:
            return [a for a in (positional_or_keyword(call, 0, "N", "n"), positional_or_keyword(call, 1, "M")) if a is not None]
        shape = positional_or_keyword(call, 0, "shape")
        return [shape] if shape is not None else []


class _Small(enum.Enum):
    """Whether an array is small by construction: YES (a literal-sized
    constructor stands behind it), NO, or PENDING (nothing contributes yet:
    the bottom of the solve; still PENDING once solved, a cycle with nothing
    behind it, which is not small). Ordered PENDING < YES < NO: a value is
    as small as the largest thing that makes it."""

    YES = "yes"
    NO = "no"
    PENDING = "pending"


def _all_small(statuses: "Iterable[_Small]") -> _Small:
    """The largest contribution: NO if any is NO, else YES if any is YES
    (the rest pending), else PENDING (monotone in each contribution)."""
    grounded = False
    for status in statuses:
        if status is _Small.NO:
            return _Small.NO
        grounded = grounded or status is _Small.YES
    return _Small.YES if grounded else _Small.PENDING


def _is_literal_size(expr: ast.expr) -> bool:
    """An int written as a literal, or a tuple/list of them."""
    if isinstance(expr, (ast.Tuple, ast.List)):
        return bool(expr.elts) and all(_is_literal_size(e) for e in expr.elts)
    return isinstance(expr, ast.Constant) and isinstance(expr.value, int) and not isinstance(expr.value, bool)
