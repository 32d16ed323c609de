"""The value engine: what each expression is once cuPyNumeric runs it.

For every expression it can, the engine answers two questions:

* **kind** — a Python number, a 0-d device scalar, a device array, a host
  array (the host alias beside cupynumeric), a CuPy array, a sequence of
  arrays, a random generator, something that is certainly not an array, or
  unknown (:class:`~cpn_lint.model.kinds.Kind`);
* **shape** — rank and extent per axis (:mod:`cpn_lint.model.shapes`):
  literal, symbolic or unknown, never guessed.

The two feed each other: ``a[i]`` is a device scalar only when ``a`` has
rank 1, and ``x + y`` has a shape only when both operands' kinds are known.
Names are followed through their reaching bindings (:mod:`.reaching`),
parameters through the file's call sites (:mod:`.calls`), and calls of the
file's own functions through their ``return`` statements.

Solve first, then answer. Before the first question, the kind and shape of
every binding of the file (parameters and ``self.x`` attributes included)
and the return summary of every function are solved together, in source
order, by :class:`~cpn_lint.model.fixpoint.Solver`: acyclic dependencies
in dependency order, cycles (``u = step(u)``, a helper's parameter fed by
its own result) iterated from BOTTOM, "no information yet", until nothing
changes. Questions then read the solved tables, so an answer cannot depend
on which rule asks first. The small-array check is solved the same way, on
first use (it is monotone, so its least fixpoint is unique).

Runtime facts (cuPyNumeric 26.6.1, kept as an oracle test): NumPy math on
Python numbers (``np.sqrt(2)``), a reduction without ``axis``, a scalar
index (``a[3]``) and a random draw without ``size`` are device scalars;
``np.float64(x)``, ``len(a)``, ``a.shape[0]`` and ``.item()`` are host numbers.

The engine is one class, :class:`ValueEngine`, assembled here from the
rooms that hold its questions: this module solves and answers ``kind``;
:mod:`.value_kinds` says what kind each expression is, :mod:`.value_bindings`
what a name, parameter, loop item or container item holds, :mod:`.instances`
which of the file's classes a value is an instance of, :mod:`.array_evidence`
whether a function uses a name as an array, :mod:`.value_shapes` and
:mod:`.call_shapes` the shapes of expressions and of calls, and
:mod:`.small_arrays` which arrays are a few numbers written out.
:mod:`.value_common` holds what those rooms share.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Callable, Union

from . import shapes
from .array_evidence import _FunctionNodes, ArrayEvidence
from .call_shapes import CallShapes
from .fixpoint import Solver, headroom
from .instances import InstanceClasses
from .kinds import Kind, join
from .scopes import Binding, ScopeKind
from .shapes import MaybeShape
from .small_arrays import _Small, SmallArrays
from .value_bindings import BindingKinds
from .value_common import _ARRAYS, _DEF_TYPES, _PENDING, _Pending
from .value_kinds import ExpressionKinds
from .value_shapes import ExpressionShapes

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import Scope

# A solved variable: a binding's kind and shape, or a function's return summary.
Value = tuple[Kind, Union[MaybeShape, _Pending]]
_BOTTOM: Value = (Kind.BOTTOM, _PENDING)
_TOP: Value = (Kind.UNKNOWN, None)


class ValueEngine(ExpressionKinds, BindingKinds, InstanceClasses, ArrayEvidence, ExpressionShapes, CallShapes, SmallArrays):
    """Kind and shape inference over one :class:`FileModel`."""

    def __init__(self, model: "FileModel") -> None:
        self.model = model
        # bindings -> (kind, shape); function scopes -> (kind, shape) of their returns
        self._solver: Solver[object, Value] = Solver(self._evaluate, _BOTTOM, _TOP)
        self._solved = False
        # answers per expression, valid while no solved value changes
        self._kinds: dict[ast.expr, Kind] = {}
        self._shapes: dict[ast.expr, MaybeShape] = {}
        self._memo_epoch = 0
        self._bottom_reads = 0  # reads of a value not known yet, in the evaluation under way
        self._closing = False  # settling a cycle: what it leaves undecided reads as unknown
        self._small_solver: Solver[object, _Small] = Solver(self._evaluate_small, _Small.PENDING, _Small.NO)
        self._small: dict[ast.expr, _Small] = {}
        self._small_epoch = 0
        # instances of the file's classes, per binding (static: no solved value is read)
        self._classes: dict[tuple[int, object], object] = {}
        # what is put into containers, by container (static, built on first use)
        self._stores: dict[tuple[object, ...], list[ast.expr | None]] | None = None
        # has_array_evidence's answers (static), and the nodes it reads per function
        self._evidence: dict[tuple[int, str, bool, int], bool] = {}
        self._nodes_by_function: _FunctionNodes | None = None

    # ================================================================ solving
    def solve(self) -> None:
        """Solve every binding, parameter, attribute and return summary of
        the file, in source order (once; every question calls it first)."""
        if self._solved:
            return
        self._solved = True
        variables = self._variables()
        solver = self._solver
        solver.solve_all(variables)
        # What a cycle leaves without information (``a = b`` and ``b = a``
        # and nothing else; a shape only such a cycle makes) is unknown:
        # settle where such cycles start (in source order), solve what they
        # feed again with that, and repeat until nothing waits.
        with headroom():
            while True:
                waiting = [v for v in variables if solver.known(v)[1] is _PENDING]
                if not waiting:
                    break
                for variable in solver.sources(waiting):
                    if solver.known(variable)[1] is _PENDING:
                        solver.settle(variable, self._closed(variable))

    def _closed(self, variable: object) -> Value:
        """``variable``'s value with what its cycle leaves undecided read as
        unknown: a parameter only its own recursive calls feed (``f(x[0::2])``
        inside ``f``) falls back on how the function uses it, as one with
        no call site does."""
        self._closing = True
        try:
            kind, shape = self._evaluate(variable)
        finally:
            self._closing = False
        return (Kind.UNKNOWN if kind is Kind.BOTTOM else kind, None if shape is _PENDING else shape)

    def _variables(self) -> list[object]:
        """Every variable of the kind/shape system, in source order: the
        bindings of every scope, the ``self.x = ...`` of methods, and each
        function's return summary (placed where its body ends)."""
        entries: list[tuple[tuple[int, int], object]] = []
        for scope in self.model.scopes:
            for group in scope.bindings.values():
                entries.extend((b.pos, b) for b in group)
            node = scope.node
            if scope.kind is ScopeKind.FUNCTION and isinstance(node, _DEF_TYPES):
                entries.append(((node.end_lineno or node.lineno, node.end_col_offset or 0), scope))
        for group in self.model._class_attrs.values():
            entries.extend((b.pos, b) for b in group)
        entries.sort(key=lambda entry: entry[0])  # stable: ties keep the walk's order
        return [variable for _, variable in entries]

    def _evaluate(self, variable: object) -> Value:
        outer = self._bottom_reads
        self._bottom_reads = 0  # this evaluation's own reads of values not known yet
        try:
            if isinstance(variable, Binding):
                kind = self._compute_binding_kind(variable)
                if kind is Kind.BOTTOM:
                    return _BOTTOM
                shape = self._compute_binding_shape(variable, kind)
            else:
                kind, shape = self._evaluate_returns(variable)  # type: ignore[arg-type]
            if shape is None and kind in _ARRAYS and self._bottom_reads:
                # unknown only for want of a shape not known yet: no
                # information yet, or a cycle's first round would make it
                # unknown for good (a merge with "unknown" stays unknown)
                return kind, _PENDING
            return kind, shape
        finally:
            self._bottom_reads = outer

    def _evaluate_returns(self, scope: "Scope") -> Value:
        """A function's return summary: the join of its returns' kinds and
        the shape they agree on (returns not known yet add nothing)."""
        kinds = [self._kind(r) for r in scope.returns]
        kind = join(kinds) if kinds else Kind.NOT
        found = []
        for returned, returned_kind in zip(scope.returns, kinds):
            waiting = self._bottom_reads
            shape = self._shape(returned) if returned_kind is not Kind.BOTTOM else None
            if returned_kind is Kind.BOTTOM or (shape is None and self._bottom_reads > waiting and not self._closing):
                continue  # a return whose shape is not known yet adds nothing
            found.append(shape)
        return kind, shapes.merge_all(found)

    def _read(self, variable: object) -> Value:
        """A solved variable (solved now when it is not yet)."""
        if not self._solved:
            self.solve()
        value = self._solver.value(variable)
        if value[1] is _PENDING:
            if self._closing:
                return _TOP if value[0] is Kind.BOTTOM else (value[0], None)
            self._bottom_reads += 1
        return value

    def _fresh_memo(self) -> None:
        """Forget answers derived before a solved value changed."""
        if self._memo_epoch != self._solver.epoch:
            self._kinds = {}
            self._shapes = {}
            self._memo_epoch = self._solver.epoch

    # ================================================================== kinds
    def kind(self, expr: ast.expr | None) -> Kind:
        """What ``expr`` evaluates to (see :class:`Kind`)."""
        if not self._solved:
            self.solve()
        elif self._memo_epoch == self._solver.epoch:
            # what _kind would answer from its memo, one call sooner: the
            # rules ask hundreds of thousands of questions answered already
            found = self._kinds.get(expr)  # type: ignore[arg-type]
            if found is not None:
                return Kind.UNKNOWN if found is Kind.BOTTOM else found
        found = self._kind(expr)
        return Kind.UNKNOWN if found is Kind.BOTTOM else found

    def _kind(self, expr: ast.expr | None) -> Kind:
        """As :meth:`kind`, BOTTOM included (inside the solve, and for the
        bindings of a cycle nothing else decides)."""
        if expr is None:
            return Kind.UNKNOWN
        if self._memo_epoch != self._solver.epoch:
            self._fresh_memo()
        known = self._kinds.get(expr)
        if known is not None:
            return known
        method = _KIND_METHODS.get(type(expr))
        if method is None:
            return Kind.UNKNOWN
        solver = self._solver
        epoch, bottoms = solver.epoch, self._bottom_reads
        try:
            result = method(self, expr)
        except RecursionError:
            # A pathologically deep expression: know nothing rather than fail.
            return Kind.UNKNOWN
        if solver.epoch == epoch and (bottoms == self._bottom_reads or not solver.busy) and not self._closing:
            # derived from values that did not change meanwhile (and, inside
            # the solve, from known ones: a reader must see what it waits for)
            self._kinds[expr] = result
        return result


_KIND_METHODS: dict[type, Callable[[ValueEngine, ast.expr], Kind]] = {
    ast.Constant: ValueEngine._kind_Constant,
    ast.NamedExpr: ValueEngine._kind_NamedExpr,
    ast.Starred: ValueEngine._kind_unknown,
    ast.BinOp: ValueEngine._kind_BinOp,
    ast.UnaryOp: ValueEngine._kind_UnaryOp,
    ast.Compare: ValueEngine._kind_Compare,
    ast.BoolOp: ValueEngine._kind_unknown,
    ast.IfExp: ValueEngine._kind_IfExp,
    ast.Attribute: ValueEngine._kind_Attribute,
    ast.Subscript: ValueEngine._kind_Subscript,
    ast.Call: ValueEngine._kind_Call,
    ast.Name: ValueEngine._kind_Name,
}
for _not_type in (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.JoinedStr, ast.Lambda):
    _KIND_METHODS[_not_type] = ValueEngine._kind_not  # type: ignore[assignment]
