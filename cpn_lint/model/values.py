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
"""

from __future__ import annotations

import ast
import math
import enum
from typing import TYPE_CHECKING, Callable, Iterable, Union

from . import numpy_api as api
from . import shapes
from .fixpoint import Solver, headroom
from .imports import DEVICE_ROOTS
from .kinds import Kind, join
from .scopes import Binding, BindKind, ScopeKind
from .shapes import SCALAR_SHAPE, Extent, MaybeShape
from .syntax import callee_name, literal_length, positional_or_keyword

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import Scope

_ARRAYS = (Kind.DEVICE, Kind.HOST, Kind.CUPY)
# joining functions -> the axis their parts are joined along
_JOIN_AXES = {"concatenate": 0, "hstack": 1, "vstack": 0, "row_stack": 0, "stack": 0}
_NUMBERS = (Kind.SCALAR, Kind.DEVICE_SCALAR)
_COMPARED_WITH_NUMBER = (Kind.SCALAR, Kind.DEVICE_SCALAR, Kind.UNKNOWN)
_DEFINITE = (Kind.DEVICE, Kind.DEVICE_SCALAR, Kind.HOST, Kind.CUPY, Kind.SCALAR, Kind.NOT, Kind.GENERATOR)
SMALL_ARRAY = 64  # at most this many elements, written as literals where the array is made: a few numbers
SMALL_ROW = 16  # a row of at most this many literal elements (a 3-vector, a 4-state) is a few numbers
_NON_ARRAY_TYPE_NAMES = frozenset({"list", "tuple", "set", "frozenset", "dict", "str", "bytes", "int", "float", "complex", "bool", "range"})
_DEF_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFS_AND_CLASSES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_MAX_PACKING_DEPTH = 4  # names and call sites followed back to the tuple written out
_MAX_INSTANCE_DEPTH = 60  # a guard against deep recursion while following names back to Particle(...)


class _Pending:
    """The shape of a binding whose kind is not known yet (BOTTOM)."""

    def __repr__(self) -> str:
        return "PENDING"


_PENDING = _Pending()
# A solved variable: a binding's kind and shape, or a function's return summary.
Value = tuple[Kind, Union[MaybeShape, _Pending]]
_BOTTOM: Value = (Kind.BOTTOM, _PENDING)
_TOP: Value = (Kind.UNKNOWN, None)


class ValueEngine:
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

    def _attribute_class(self, expr: ast.Attribute) -> "Scope | None":
        """The file's class whose attribute ``expr`` reads: ``self.x`` in a
        method, or ``p.x`` for an instance (``p = Particle(...)``, ``for p
        in particles`` over a list of them, a parameter every call passes
        one); None for anything else."""
        if not self.model._class_attrs and not self.model.calls.classes():
            return None
        return self._self_class(expr) or self._instance_class(expr.value, 0)

    def instance_class(self, expr: ast.expr) -> "Scope | None":
        """The file's class ``expr`` is surely an instance of (see
        :meth:`_instance_class`); the call graph resolves ``obj.method()``
        with it."""
        return self._instance_class(expr, 0)

    def _instance_class(self, expr: ast.expr, depth: int) -> "Scope | None":
        """The file's class ``expr`` is surely an instance of. Bindings are
        memoised; one met again while it is followed (a cycle) is no
        instance, so every binding of the cycle is none, whichever is asked
        first ("all sources agree" holds at its least fixpoint). Only the
        static call graph is followed (never a call on an instance), so the
        answer does not depend on itself through the calls it resolves."""
        if depth > _MAX_INSTANCE_DEPTH:
            return None  # a safety net against deep recursion only
        calls = self.model.calls
        if isinstance(expr, ast.Call):
            return calls.class_of(expr.func) or self._made_by(expr, depth)
        if isinstance(expr, ast.Subscript) and not isinstance(expr.slice, ast.Slice):
            return _one_class(self._item_classes(expr.value, depth + 1))  # particles[i]
        if not isinstance(expr, ast.Name):
            return None
        return _one_class([self._binding_class(b, depth + 1) for b in self.model.reaching_bindings(expr)])

    def _made_by(self, call: ast.Call, depth: int) -> "Scope | None":
        """The class a factory makes: ``cls(...)`` in a class method of it,
        or a function (``ParticleSystem.lattice(n)``, ``make_system()``)
        whose every ``return`` is an instance of one class."""
        func = call.func
        if isinstance(func, ast.Name):
            owner = self.model.lookup(func)
            bindings = owner.bindings.get(func.id, ()) if owner is not None else ()
            if len(bindings) == 1 and bindings[0].kind is BindKind.PARAM and self.model.calls.is_receiver(bindings[0]):
                method = bindings[0].scope
                if isinstance(method.node, _DEF_TYPES) and any(
                        isinstance(d, ast.Name) and d.id == "classmethod" for d in method.node.decorator_list):
                    return method.parent  # cls(...) in a class method
        scope = self.model.calls.static_callee(call)
        if scope is None or not scope.returns:
            return None
        key = (id(scope), "returns")
        memo = self._classes
        if key in memo:
            return memo[key]  # type: ignore[return-value]
        memo[key] = None  # a factory reached again while followed: no instance
        found = _one_class([self._instance_class(r, depth + 1) for r in scope.returns])
        memo[key] = found
        return found

    def _binding_class(self, binding: Binding, depth: int) -> object:
        key = (id(binding), "instance")
        memo = self._classes
        if key in memo:
            return memo[key]
        memo[key] = None  # a cycle: no instance
        value = binding.value
        found: list[object]
        if binding.kind is BindKind.VALUE and value is not None:
            found = [self._instance_class(value, depth + 1)]
        elif binding.kind is BindKind.ELEMENT and binding.index is None and value is not None and self._iterated_by(binding, value):
            found = self._item_classes(value, depth + 1)  # for p in particles
        elif binding.kind is BindKind.PARAM and value is None:
            found = self._passed(binding, lambda given: [self._instance_class(given, depth + 1)])
        else:
            found = [None]
        result = memo[key] = _one_class(found)
        return result

    def _item_classes(self, container: ast.expr, depth: int) -> list[object]:
        """The classes of what a list holds ([Particle(...) for _ in
        range(n)], a display, a name bound to one and grown with append),
        _NO_ITEMS for an empty display, None for anything not known."""
        if depth > _MAX_INSTANCE_DEPTH:
            return [None]
        if isinstance(container, (ast.List, ast.Tuple, ast.Set)):
            if any(isinstance(e, ast.Starred) for e in container.elts):
                return [None]
            return [self._instance_class(e, depth + 1) for e in container.elts] or [_NO_ITEMS]
        if isinstance(container, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return [self._instance_class(container.elt, depth + 1)]
        if not isinstance(container, ast.Name):
            return [None]
        model = self.model
        found: list[object] = []
        for binding in model.reaching_bindings(container):
            found += self._binding_items(binding, depth + 1)
        owner = model.lookup(container)
        key = (id(owner), container.id)
        appended = self._classes.get(key)
        if appended is None:
            self._classes[key] = [None]  # a cycle through appends: nothing known
            appended = []
            for use in model.names_by_id().get(container.id, ()):
                parent = model.parent(use)
                call = model.parent(parent) if isinstance(parent, ast.Attribute) else None
                if isinstance(call, ast.Call) and call.func is parent and parent.attr in ("append", "insert") and call.args \
                        and model.lookup(use) is owner:
                    appended.append(self._instance_class(call.args[-1], depth + 1))
            self._classes[key] = appended
        return found + appended  # type: ignore[operator]

    def _binding_items(self, binding: Binding, depth: int) -> list[object]:
        key = (id(binding), "items")
        memo = self._classes
        if key in memo:
            return memo[key]  # type: ignore[return-value]
        memo[key] = [None]  # a cycle: nothing known
        if binding.kind is BindKind.VALUE and binding.value is not None:
            found = self._item_classes(binding.value, depth + 1)
        elif binding.kind is BindKind.PARAM and binding.value is None:
            found = self._passed(binding, lambda given: self._item_classes(given, depth + 1))
        else:
            found = [None]
        memo[key] = found
        return found

    def _passed(self, param: Binding, each: Callable[[ast.expr], list[object]]) -> list[object]:
        """``each`` applied to what every call site passes for ``param`` (the
        sites of the static call graph: see :meth:`_instance_class`)."""
        calls = self.model.calls
        sites = calls.static_argument_sites(param.scope)
        if not sites or calls.arguments_escape(param.scope):
            return [None]
        found: list[object] = []
        for call in sites:
            given = calls.argument(call, param.scope, param.name)
            found += each(given) if given is not None else [None]
        return found

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

    # ------------------------------------------------------------ bindings
    def binding_kind(self, binding: Binding) -> Kind:
        """The kind of value ``binding`` gives its name."""
        kind = self._read(binding)[0]
        return Kind.UNKNOWN if kind is Kind.BOTTOM else kind

    def _compute_binding_kind(self, b: Binding) -> Kind:
        if b.kind is BindKind.NOT_ARRAY:
            return Kind.NOT
        if b.kind is BindKind.COUNTER:
            return Kind.SCALAR
        if b.kind is BindKind.OPAQUE:
            return Kind.UNKNOWN
        if b.kind is BindKind.VALUE:
            kind = self._kind(b.value)
            if kind is Kind.BOTTOM:
                return kind  # not yet: the evidence below only stands in for "unknown"
            # `A = A.toarray()` is dense whatever else the name held before
            densified = isinstance(b.value, ast.Call) and callee_name(b.value.func) in api.DENSIFY_METHODS
            if kind is Kind.UNKNOWN and isinstance(b.value, ast.Call) and not self._returns_no_array(b.value) \
                    and self.has_array_evidence(b.scope.function_like(), b.name, densified):
                return Kind.DEVICE  # x = load(...) later used as x[i, j] / x.ndim
            return kind
        if b.kind is BindKind.AUG:
            return self._aug_kind(b)
        if b.kind is BindKind.ELEMENT:
            return self._element_kind(b)
        if b.kind in (BindKind.PARAM, BindKind.ANNOTATION):
            return self._parameter_kind(b)
        return Kind.UNKNOWN

    def _returns_no_array(self, call: ast.Call) -> bool:
        """A call of the file's function whose returns are certainly not
        arrays (a list it builds): how the result is used does not change that."""
        scope = self.model.calls.target(call)
        return scope is not None and self._read(scope)[0] is Kind.NOT

    def _aug_kind(self, b: Binding) -> Kind:
        """``x op= value``: an array stays itself (``u *= 0.5`` updates in
        place); a number becomes a device scalar when a device scalar is
        added to it (``t += dt`` with ``dt = np.sqrt(2) * dx``)."""
        value = self._kind(b.value)
        prior = self._kind_Name(b.node) if isinstance(b.node, ast.Name) else Kind.UNKNOWN
        if prior.is_array:
            return prior
        if value.is_array:
            return value
        if value is Kind.BOTTOM or prior is Kind.BOTTOM:
            return Kind.BOTTOM  # a number, or an array once the rest is known: not yet
        if value in _NUMBERS and prior in _NUMBERS and Kind.DEVICE_SCALAR in (value, prior):
            return Kind.DEVICE_SCALAR
        if value is Kind.DEVICE_SCALAR and self._prior_is_scalar(b, allow_device=True):
            return Kind.DEVICE_SCALAR
        if value is Kind.SCALAR and self._prior_is_scalar(b):
            return Kind.SCALAR  # `it = 0` ... `it += 1`: a Python counter
        return Kind.UNKNOWN

    def _returned_items(self, source: ast.expr, index: int | None) -> list[ast.expr] | None:
        """``a, b = f(...)`` where every ``return`` of the file's ``f`` is a
        tuple of the same length: the expressions item ``index`` comes from."""
        if index is None or not isinstance(source, ast.Call):
            return None
        scope = self.model.calls.target(source)
        if scope is None or not scope.returns:
            return None
        items: list[ast.expr] = []
        for returned in scope.returns:
            if not isinstance(returned, ast.Tuple) or index >= len(returned.elts) or any(isinstance(e, ast.Starred) for e in returned.elts):
                return None
            items.append(returned.elts[index])
        return items

    def _unpacked_items(self, b: Binding) -> list[ast.expr] | None:
        """The expressions item ``b.index`` of what ``b`` unpacks comes from:
        a function's returned tuples (``a, b = f(...)``), or a tuple written
        out and handed over by name or by argument (``state = (x, v)`` ...
        ``step(state)`` ... ``x, v = state``). None when any source is not
        such a tuple."""
        source = b.value
        if source is None or b.index is None:
            return None
        returned = self._returned_items(source, b.index)
        if returned is not None or self._iterated_by(b, source):
            return returned
        return self._packed_items(source, b.index, 0)

    def _packed_items(self, expr: ast.expr, index: int, depth: int) -> list[ast.expr] | None:
        if depth > _MAX_PACKING_DEPTH:
            return None
        if isinstance(expr, (ast.Tuple, ast.List)):
            if index >= len(expr.elts) or any(isinstance(e, ast.Starred) for e in expr.elts):
                return None
            return [expr.elts[index]]
        if isinstance(expr, ast.Call):
            scope = self.model.calls.target(expr)
            if scope is None or not scope.returns:
                return None
            return self._all_packed(scope.returns, index, depth)
        if not isinstance(expr, ast.Name):
            return None
        model = self.model
        sources: list[ast.expr] = []
        for binding in model.reaching_bindings(expr):
            if binding.kind is BindKind.VALUE and binding.value is not None:
                sources.append(binding.value)
            elif binding.kind is BindKind.PARAM and binding.value is None:
                calls = model.calls
                sites = calls.argument_sites(binding.scope)
                if not sites or calls.arguments_escape(binding.scope):
                    return None
                for call in sites:
                    given = calls.argument(call, binding.scope, binding.name)
                    if given is None:
                        return None
                    sources.append(given)
            else:
                return None
        return self._all_packed(sources, index, depth) if sources else None

    def _all_packed(self, sources: list[ast.expr], index: int, depth: int) -> list[ast.expr] | None:
        found: list[ast.expr] = []
        for source in sources:
            items = self._packed_items(source, index, depth + 1)
            if items is None:
                return None
            found += items
        return found

    def _prior_is_scalar(self, b: Binding, allow_device: bool = False) -> bool:
        """Every other binding reaching an augmented assignment holds a number."""
        if not isinstance(b.node, ast.Name):
            return False
        model = self.model
        scope = model.lookup(b.node)
        others = [o for o in model._reaching.bindings(scope, b.node) if o is not b] if scope is not None else []
        allowed = _NUMBERS if allow_device else (Kind.SCALAR,)
        kinds = [k for k in (self._read(o)[0] for o in others) if k is not Kind.BOTTOM]
        return bool(kinds) and all(k in allowed for k in kinds)

    def _element_kind(self, b: Binding) -> Kind:
        """Kind of one item of iterating or unpacking ``b.value``."""
        source = b.value
        if source is None:
            return Kind.UNKNOWN
        unpacked = self._unpacked_items(b)
        if unpacked is not None:
            kinds = [self._kind(item) for item in unpacked]
            return join(kinds) if kinds else Kind.UNKNOWN
        wrapped = self.model.progress_wrapped(source)  # for m in tqdm(range(n)), trange(n)
        if wrapped is source:
            return Kind.SCALAR
        if wrapped is not None and self._iterated_by(b, source):
            source = wrapped
        if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and source.func.id in ("range", "len"):
            return Kind.SCALAR
        walked = self._iterator_item_kind(b, source)
        if walked is not None:
            return walked
        if isinstance(source, ast.Attribute) and source.attr in api.ARRAY_METADATA:
            return Kind.SCALAR  # n, m = a.shape
        if isinstance(source, (ast.List, ast.Tuple, ast.Set)) and self._iterated_by(b, source):
            return self._display_item_kind(source, b.index)
        kind = self._kind(source)
        if kind is Kind.BOTTOM:
            return kind
        if kind in _ARRAYS:
            source_shape = self._shape(source)
            if kind is Kind.DEVICE and source_shape is not None and len(source_shape) == 1:
                return Kind.DEVICE_SCALAR  # the items of a vector
            return kind  # rows of an array, or items unpacked from it
        if kind is Kind.SEQ:
            return Kind.DEVICE if self.model.device_root else Kind.UNKNOWN
        if kind is Kind.NOT and b.index is None and self._iterated_by(b, source):
            return self._items_kind(source, iterated=True)  # for frame in frames: the arrays appended to it
        return Kind.UNKNOWN

    def _iterator_item_kind(self, b: Binding, source: ast.expr) -> Kind | None:
        """An item of ``np.nditer(a)`` (also through ``with np.nditer(a) as
        it: for x in it``) or the value of ``np.ndenumerate(a)``: a 0-d
        array of ``a``, a device scalar; None for anything else."""
        if not self._iterated_by(b, source):
            return None
        call = self.iterator_call(source)
        if call is None:
            return None
        tail = (self.model.qualname(call.func) or "").rpartition(".")[2]
        flags = positional_or_keyword(call, 1, "flags") if tail == "nditer" else None
        if flags is not None and any(isinstance(n, ast.Constant) and n.value == "external_loop" for n in ast.walk(flags)):
            return None  # whole 1-D chunks, not items
        operand = call.args[0]
        if tail == "ndenumerate":
            if b.index != 1:
                return None  # the index tuple
        elif isinstance(operand, (ast.List, ast.Tuple)):
            if b.index is None or b.index >= len(operand.elts):
                return None
            operand = operand.elts[b.index]  # nditer([a, b]) hands out a pair of items
        elif b.index is not None:
            return None
        kind = self._kind(operand)
        if kind is Kind.BOTTOM:
            return kind
        return Kind.DEVICE_SCALAR if kind is Kind.DEVICE else Kind.SCALAR if kind is Kind.HOST else None

    def iterator_call(self, source: ast.expr) -> ast.Call | None:
        """``np.nditer(...)``/``np.ndenumerate(...)`` of the device library,
        written in the loop or bound by ``with ... as it``."""
        model = self.model
        if isinstance(source, ast.Name):
            bindings = model.reaching_bindings(source)
            if len(bindings) != 1:
                return None
            holder = model.parent(bindings[0].node)
            if not isinstance(holder, ast.withitem):
                return None
            source = holder.context_expr
        if not isinstance(source, ast.Call) or not source.args:
            return None
        qual = model.qualname(source.func) or ""
        head, _, tail = qual.partition(".")
        return source if head in DEVICE_ROOTS and tail in ("nditer", "ndenumerate") else None

    # ------------------------------------------------------------ generators
    def generator_class(self, expr: ast.expr) -> str | None:
        """``numpy.random.Generator`` (or ``RandomState``) for a random
        generator whose every maker is seen and agrees: the constructor
        call itself, a name bound to one, a parameter every call site
        passes one (``kmeans_pp_init(X, k, rng)``), ``self.rng`` set in the
        class. None when the kind is not a generator or a maker is not seen."""
        if self.kind(expr) is not Kind.GENERATOR:
            return None
        found = self._generator_makers(expr, 0, set())
        if not found or None in found or len(set(found)) != 1:
            return None
        return found[0]

    def _generator_makers(self, expr: ast.expr, depth: int, seen: set[int]) -> list[str | None]:
        model = self.model
        if depth > _MAX_PACKING_DEPTH * 2:
            return [None]
        if isinstance(expr, ast.Call):
            qual = model.qualname(expr.func) or ""
            head, _, tail = qual.partition(".")
            return [api.GENERATOR_CLASSES.get(tail) if head in DEVICE_ROOTS else None]
        if isinstance(expr, ast.Attribute):
            cls = self._attribute_class(expr)
            bindings = model._class_attrs.get((id(cls), expr.attr), []) if cls is not None else []
        elif isinstance(expr, ast.Name):
            bindings = model.reaching_bindings(expr)
        else:
            return [None]
        if not bindings:
            return [None]
        found: list[str | None] = []
        for binding in bindings:
            if id(binding) in seen:
                continue  # a cycle adds no maker
            seen.add(id(binding))
            if binding.kind is BindKind.VALUE and binding.value is not None:
                found += self._generator_makers(binding.value, depth + 1, seen)
            elif binding.kind is BindKind.PARAM and binding.value is None:
                found += self._passed(binding, lambda given: self._generator_makers(given, depth + 1, seen))  # type: ignore[arg-type,return-value]
            else:
                found.append(None)
        return found

    # ------------------------------------------------------------ containers
    def _items_kind(self, container: ast.expr, iterated: bool = False) -> Kind:
        """The kind of every item of a Python list, tuple or dict, when all
        that is put in it is known: the displays bound to the name, what
        ``.append``/``.insert``/``.setdefault`` add and what ``c[k] = v``
        stores (``frames.append(u.copy())``, ``self.entries[k] =
        np.asarray(a)``). An array kind only; anything else is UNKNOWN.
        ``iterated``: what a loop over the container gets (a dict's keys,
        so a dict has no known items then)."""
        items = self._stored_items(container, sequence_only=iterated)
        if not items:
            return Kind.UNKNOWN
        kinds = [self._kind(item) for item in items]
        known = [k for k in kinds if k is not Kind.BOTTOM]
        if not known:
            return Kind.BOTTOM
        first = known[0]
        if (first not in _ARRAYS and first is not Kind.DEVICE_SCALAR) or any(k is not first for k in known):
            return Kind.UNKNOWN
        return Kind.BOTTOM if len(known) < len(kinds) else first

    def _stored_items(self, container: ast.expr, sequence_only: bool = False) -> list[ast.expr] | None:
        """The expressions a container holds (see :meth:`_items_kind`); None
        when any source is not known (a parameter, ``.extend``, a call), and
        with ``sequence_only`` for a dict."""
        model = self.model
        if isinstance(container, (ast.List, ast.Tuple, ast.Set, ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return _displayed_items(container)  # sum([f(a) for a in parts])
        if isinstance(container, ast.Name):
            scope = model.lookup(container)
            if scope is None:
                return None
            bindings = scope.bindings.get(container.id, ())
            key: tuple[object, ...] = ("name", id(scope), container.id)
        elif isinstance(container, ast.Attribute):
            cls = self._attribute_class(container)
            bindings = model._class_attrs.get((id(cls), container.attr), ()) if cls is not None else ()
            if cls is None or not bindings:
                return None
            key = ("attr", id(cls), container.attr)
        else:
            return None
        found: list[ast.expr] = []
        for binding in bindings:
            if binding.kind is not BindKind.VALUE or binding.value is None:
                return None
            if sequence_only and _is_mapping(binding.value):
                return None
            displayed = _displayed_items(binding.value)
            if displayed is None:
                return None
            found += displayed
        added = self._container_stores().get(key)
        if added is None:
            return found
        if any(a is None for a in added):
            return None
        return found + added  # type: ignore[operator]

    def _container_stores(self) -> dict[tuple[object, ...], list[ast.expr | None]]:
        """What the file puts into containers after making them, by
        container (a name in its scope, or a class's ``self.x``): appended
        items, ``c[k] = v`` values, None for an addition not followed
        (``.extend``, an augmented item assignment). Built once per file."""
        if self._stores is not None:
            return self._stores
        stores: dict[tuple[object, ...], list[ast.expr | None]] = {}
        model = self.model
        for call in model.nodes(ast.Call):
            func = call.func
            if not isinstance(func, ast.Attribute) or func.attr not in _ADDING_METHODS:
                continue
            key = self._container_key(func.value)
            if key is None:
                continue
            item = call.args[-1] if call.args and func.attr != "extend" and not isinstance(call.args[-1], ast.Starred) else None
            stores.setdefault(key, []).append(item)
        for node in model.nodes(ast.Subscript):
            if not isinstance(node.ctx, ast.Store):
                continue
            key = self._container_key(node.value)
            if key is None:
                continue
            parent = model.parent(node)
            value = parent.value if isinstance(parent, ast.Assign) and node in parent.targets else None
            stores.setdefault(key, []).append(value)
        self._stores = stores
        return stores

    def _container_key(self, expr: ast.expr) -> tuple[object, ...] | None:
        if isinstance(expr, ast.Name):
            scope = self.model.lookup(expr)
            return ("name", id(scope), expr.id) if scope is not None else None
        if isinstance(expr, ast.Attribute):
            cls = self._self_class(expr)
            return ("attr", id(cls), expr.attr) if cls is not None else None
        return None

    def _iterated_by(self, b: Binding, source: ast.expr) -> bool:
        """Is ``b`` the target of a loop (or comprehension) over ``source``?"""
        node: ast.AST | None = b.node
        for _ in range(4):  # the name, a tuple target, a nested tuple target
            node = self.model.parent(node) if node is not None else None
            if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                return node.iter is source
            if isinstance(node, _COMPREHENSIONS):  # the model's parent of a generator's target
                return any(g.iter is source for g in node.generators)  # type: ignore[attr-defined]
        return False

    def _display_item_kind(self, source: ast.List | ast.Tuple | ast.Set, index: int | None) -> Kind:
        """One item of a literal list/tuple a loop walks: ``for (dx, dy) in
        ((-1, 0), (1, 0))`` gives ``dx`` the kind of -1 and 1."""
        items = list(source.elts)
        if index is not None:
            if not all(isinstance(i, (ast.Tuple, ast.List)) and len(i.elts) > index for i in items):
                return Kind.UNKNOWN
            items = [i.elts[index] for i in items]  # type: ignore[attr-defined]
        if not items or any(isinstance(i, ast.Starred) for i in items):
            return Kind.UNKNOWN
        return join([self._kind(i) for i in items])

    def _parameter_kind(self, b: Binding) -> Kind:
        annotated = _annotation_kind(b.value)
        if annotated is not None:
            if not annotated and _annotated_number(b.value):
                return Kind.SCALAR  # level: float
            return Kind.DEVICE if annotated else Kind.NOT
        if b.kind is BindKind.ANNOTATION:
            return Kind.UNKNOWN
        passed = self._argument_kind(b)
        if passed is Kind.BOTTOM:
            return passed  # not yet: the evidence below only stands in for "unknown"
        if passed is not Kind.UNKNOWN:
            return passed
        if self.has_array_evidence(b.scope, b.name) and not self.model.calls.is_receiver(b):
            return Kind.DEVICE
        return Kind.UNKNOWN

    def _argument_kind(self, param: Binding) -> Kind:
        """What the call sites pass for a parameter: their joined kind when
        every site tells; UNKNOWN when there are none or one cannot tell. For
        a function that escapes, only an array or a device value is worth
        knowing (it can receive one); anything else may come from the unseen
        callers, except that ``np.vectorize(f)`` passes numbers."""
        calls = self.model.calls
        scope = param.scope
        if param.kind is not BindKind.PARAM or calls.is_receiver(param):
            return Kind.UNKNOWN
        sites = calls.argument_sites(scope)
        # brentq(f, a, b) calls f with a float for its first parameter
        numbers = scope.params[:1] == [param.name] and calls.called_with_numbers(scope)
        if not sites:
            return Kind.SCALAR if numbers else Kind.UNKNOWN
        kinds: list[Kind] = [Kind.SCALAR] if numbers else []
        for call in sites:
            given = calls.argument(call, scope, param.name)
            if given is None:
                return Kind.UNKNOWN
            kinds.append(self._kind(given))
        if calls.arguments_escape(scope) and calls.escapes_to_number_callers(scope):
            kinds.append(Kind.SCALAR)  # np.vectorize(f) calls f with numbers: one more site
            return self._joined_arguments(kinds, escaping=False)
        if numbers:
            return self._joined_arguments(kinds, escaping=False)
        return self._joined_arguments(kinds, calls.arguments_escape(scope))

    @staticmethod
    def _joined_arguments(kinds: list[Kind], escaping: bool) -> Kind:
        result = join(kinds)
        if result is Kind.BOTTOM:
            return result
        if escaping and not result.is_device and not result.is_array:
            # Seen calls show what the function can receive, not all it
            # does: an array or a device scalar is worth knowing (the seen
            # call syncs on it), a number may not be all it ever gets.
            return Kind.UNKNOWN
        return result if result in _DEFINITE else Kind.UNKNOWN

    def _argument_shape(self, param: Binding) -> MaybeShape:
        """The shape every call site passes for a parameter, where they agree."""
        calls = self.model.calls
        scope = param.scope
        sites = calls.argument_sites(scope)
        if not sites or calls.arguments_escape(scope):
            return None
        found: list[MaybeShape] = []
        for call in sites:
            given = calls.argument(call, scope, param.name)
            if given is None:
                return None
            waiting = self._bottom_reads
            shape = self._shape(given)
            if shape is None and self._bottom_reads > waiting and not self._closing:
                continue  # a site whose shape is not known yet adds nothing (x = step(x) in a loop)
            found.append(shape)
        return shapes.merge_all(found)

    def has_array_evidence(self, scope: "Scope", name: str, dense: bool = False, _depth: int = 0) -> bool:
        """Does ``scope`` use ``name`` in a way only arrays support (SPEC §3,
        "Parameters are arrays when the function uses them as arrays")?
        ``.shape``/``.ndim``/``.dtype``/``.T``, a tuple subscript, ``@``, an
        array method, the array argument of a NumPy call (``np.sum(x)``,
        ``np.shape(x)``, either operand of ``np.dot``), or rows a loop takes
        from it used so (``for i, row in enumerate(x): row @ w``). For a
        class scope, ``name`` is an attribute its methods use (``self.x``).
        The answer reads the file's syntax only (no solved value), so it is
        memoised."""
        key = (id(scope), name, dense, _depth)
        found = self._evidence.get(key)
        if found is None:
            found = self._evidence[key] = self._has_array_evidence(scope, name, dense, _depth)
        return found

    def _has_array_evidence(self, scope: "Scope", name: str, dense: bool, _depth: int) -> bool:
        if not dense and name in scope.sparse_evidence:
            return False  # .shape, .T and a[i, j] work on a sparse matrix too
        if name in scope.array_evidence:
            return True
        if name in self._sized_names(scope) and name not in scope.non_array_evidence:
            return True  # n = x.size: lists and tuples have no .size
        if name in scope.method_evidence and name not in scope.non_array_evidence:
            return True  # x.reshape(..), x.sum(), and never d["key"], xs.append(v) or xp.asarray(v)
        if CONTRACTION_PARTNERS_ARE_EVIDENCE and name in scope.partner_evidence:
            return True
        # a class's attribute: a ufunc's argument may as well be a number
        # (np.isfinite(self.energy)); a function's parameter: the SPEC's rule
        scalars_too = scope.kind is ScopeKind.CLASS
        for call, position in scope.array_arguments.get(name, ()):
            tail = self.model.call_api(call)
            if position == 1 and not CONTRACTION_PARTNERS_ARE_EVIDENCE:
                continue
            if _is_array_argument(tail, position) and not (scalars_too and tail in api.ELEMENTWISE):
                return True
        if _depth < 2:
            for item in scope.items_of.get(name, ()):
                if item != name and self.has_array_evidence(scope, item, dense, _depth + 1):
                    return True
            for callee, parameter in self._handed_to(scope, name):
                if self.has_array_evidence(callee, parameter, dense, _depth + 1):
                    return True  # n, m = get_sizes(x), where get_sizes reads x.size
        return False

    def _function_nodes(self) -> "_FunctionNodes":
        """Per function of the file, the nodes its body walk (:func:`_walk_function`
        and :func:`_own_nodes`, nested functions and classes left out) meets
        that :meth:`_handed_to` and :meth:`_sized_names` read: found from the
        model's per-type index instead of walking every body."""
        if self._nodes_by_function is None:
            self._nodes_by_function = _FunctionNodes(self.model)
        return self._nodes_by_function

    def _handed_to(self, scope: "Scope", name: str) -> list[tuple["Scope", str]]:
        """The (function, parameter) pairs of the file that ``scope`` hands
        the name to as an argument (``get_sizes(x)``)."""
        if scope.kind is not ScopeKind.FUNCTION:
            return []
        table = self._classes.get((id(scope), "handed"))
        if table is None:
            handed: dict[str, list[tuple[object, str]]] = {}
            calls = self.model.calls
            for call in self._function_nodes().calls.get(id(scope.node), ()):
                arguments = [a for a in call.args if isinstance(a, ast.Name)] + \
                    [k.value for k in call.keywords if isinstance(k.value, ast.Name)]
                if not arguments:
                    continue
                callee = calls.static_callee(call)
                if callee is None or callee is scope:
                    continue
                for parameter in callee.params:
                    given = calls.argument(call, callee, parameter)
                    if isinstance(given, ast.Name) and any(given is a for a in arguments):
                        handed.setdefault(given.id, []).append((callee, parameter))
            table = self._classes[(id(scope), "handed")] = handed  # type: ignore[assignment]
        return table.get(name, [])  # type: ignore[union-attr,return-value]

    def _sized_names(self, scope: "Scope") -> frozenset[str]:
        """The names a function (or module) reads ``.size`` of, as data
        (``n = x.size``, not ``x.size()``); none where pandas is imported
        (a DataFrame has a ``.size`` too)."""
        key = (id(scope), "sized")
        found = self._classes.get(key)
        if found is None:
            names: set[str] = set()
            node = scope.node
            if scope.kind is ScopeKind.FUNCTION and isinstance(node, _DEF_TYPES) \
                    and "pandas" not in self.model.imports.imported_roots():
                for sub in self._function_nodes().sizes.get(id(node), ()):
                    if isinstance(sub.value, ast.Name) and isinstance(sub.ctx, ast.Load):
                        parent = self.model.parent(sub)
                        if not (isinstance(parent, ast.Call) and parent.func is sub):
                            names.add(sub.value.id)
            found = self._classes[key] = frozenset(names)
        return found  # type: ignore[return-value]

    def _attribute_evidence(self, expr: ast.Attribute) -> bool:
        """``self.x`` whose class's methods use ``self.x`` as an array."""
        cls = self._self_class(expr)
        return cls is not None and self.has_array_evidence(cls, expr.attr)

    def _self_class(self, expr: ast.Attribute) -> "Scope | None":
        """The class of the method ``expr`` (``self.x``) is read in."""
        if not isinstance(expr.value, ast.Name):
            return None
        method = self.model.scope_of(expr).function_like()
        cls = method.parent
        if method.kind is not ScopeKind.FUNCTION or not method.params or expr.value.id != method.params[0]:
            return None
        if cls is None or cls.kind is not ScopeKind.CLASS:
            return None
        decorators = getattr(method.node, "decorator_list", ())
        return None if any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in decorators) else cls

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
            bindings = self.model.reaching_bindings(expr)
            values = [b for b in bindings if self.binding_kind(b) not in (Kind.SCALAR, Kind.UNKNOWN) and b.kind is not BindKind.AUG]
            read = self._small_solver.value
            return _all_small(read(b) for b in values)  # x += y keeps x
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
            calls = self.model.calls
            sites = calls.argument_sites(b.scope)
            if not sites or calls.arguments_escape(b.scope):
                return _Small.NO
            given = [calls.argument(call, b.scope, b.name) for call in sites]
            if any(g is None for g in given):
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
                small = bool(arguments) and all(_is_literal_size(a) for a in arguments) and size is not None and size <= SMALL_ARRAY
                return _Small.YES if small else _Small.NO
        return _all_small(self._small_status(a) for a in call.args if self.kind(a) in _ARRAYS)

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


# The x of a @ x, a.dot(x) and np.dot(a, x) is an array (SPEC §3); loops.py
# counts a vector contracted with a row the loop takes as row-sized work
# (`for r, row in enumerate(m): out[r] = np.dot(row, w)`, Gauss-Seidel's
# `s = A[i] @ x - ...`), so those loops stay element loops.
CONTRACTION_PARTNERS_ARE_EVIDENCE = True
# NumPy calls whose second argument is an array as well as their first
_TWO_ARRAY_APIS = frozenset({"dot", "matmul", "vdot", "inner", "outer", "kron", "cross", "tensordot", "linalg.solve", "linalg.lstsq"})
# NumPy calls that only read an array's metadata: np.shape(x) takes x for one
_METADATA_APIS = frozenset({"shape", "size", "ndim"})


def _is_array_argument(tail: str | None, position: int) -> bool:
    """Is argument ``position`` (0 or 1) of the NumPy call ``tail`` an array?"""
    if tail is None:
        return False
    if position == 1:
        return tail in _TWO_ARRAY_APIS
    if tail in _METADATA_APIS:
        return True
    # np.zeros(shape), np.arange(n), np.save(path, a): the first argument
    # is a shape, a number or a file, not evidence of an array; and
    # np.asarray(x) converts x because it may not be an array yet.
    return (
        tail not in api.NOT_ARRAY_FIRST_ARGUMENT
        and tail not in api.CONVERSION_FUNCTIONS
        and not (tail.startswith("random.") and tail not in api.ARRAY_RANDOM_FUNCTIONS)
    )


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


_NO_ITEMS = object()  # an empty list: holds no instance of any class yet
# Container methods that add one item (the last argument), and .extend.
_ADDING_METHODS = frozenset({"append", "insert", "setdefault", "extend", "appendleft"})


def _is_mapping(value: ast.expr) -> bool:
    return isinstance(value, (ast.Dict, ast.DictComp)) or (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict")


def _displayed_items(value: ast.expr) -> list[ast.expr] | None:
    """The items a container display (or an empty ``list()``/``dict()``)
    holds; None for any other value."""
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        return None if any(isinstance(e, ast.Starred) for e in value.elts) else list(value.elts)
    if isinstance(value, ast.Dict):
        return None if any(k is None for k in value.keys) else list(value.values)
    if isinstance(value, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        return [value.elt]
    if isinstance(value, ast.DictComp):
        return [value.value]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("list", "dict", "deque") \
            and not value.args and not value.keywords:
        return []
    return None


def _one_class(found: list[object]) -> "Scope | None":
    """The one class every source agrees on (empty lists add nothing)."""
    classes = [c for c in found if c is not _NO_ITEMS]
    if not classes or any(c is None or c is not classes[0] for c in classes):
        return None
    return classes[0]  # type: ignore[return-value]


def _is_literal_size(expr: ast.expr) -> bool:
    """An int written as a literal, or a tuple/list of them."""
    if isinstance(expr, (ast.Tuple, ast.List)):
        return bool(expr.elts) and all(_is_literal_size(e) for e in expr.elts)
    return isinstance(expr, ast.Constant) and isinstance(expr.value, int) and not isinstance(expr.value, bool)


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


class _FunctionNodes:
    """The calls and ``.size`` attributes of each function's body, as
    :func:`_walk_function` over the body and :func:`_own_nodes` of each
    statement it yields (nested functions and classes skipped) meet them,
    keyed by ``id`` of the function's definition. Found by climbing from
    each node of the model's per-type index to the statements above it,
    which gives the same nodes as the walks without visiting every node."""

    def __init__(self, model: "FileModel") -> None:
        self.calls: dict[int, list[ast.Call]] = {}
        self.sizes: dict[int, list[ast.Attribute]] = {}
        parents = model._parent
        # only a call of a name the file defines a function by can reach one of them
        defined = {scope.name for scope in model.scopes if isinstance(scope.node, _DEF_TYPES)}
        for call in model.nodes(ast.Call):
            func = call.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name not in defined:
                continue
            if any(isinstance(a, ast.Name) for a in call.args) or any(isinstance(k.value, ast.Name) for k in call.keywords):
                for owner in _walking_functions(call, parents):
                    self.calls.setdefault(id(owner), []).append(call)
        for attribute in model.nodes(ast.Attribute):
            if attribute.attr == "size":
                for owner in _walking_functions(attribute, parents):
                    self.sizes.setdefault(id(owner), []).append(attribute)


def _walking_functions(node: ast.AST, parents: "dict[ast.AST, ast.AST]") -> list[ast.AST]:
    """The function definitions whose body walk meets ``node``: some
    statement above it (or itself) that is no definition is yielded by
    :func:`_walk_function` over the function's body (reached through
    ``body``/``orelse``/``finalbody`` blocks of statements that are no
    definitions, not through except handlers or match cases), and
    :func:`_own_nodes` of it reaches ``node`` (not through its own blocks
    or handlers: its first step down is neither a statement nor a handler)."""
    owners: list[ast.AST] = []
    child: ast.AST | None = None
    current: ast.AST | None = node
    while current is not None:
        if isinstance(current, ast.stmt) and not isinstance(current, _DEFS_AND_CLASSES) \
                and not isinstance(child, (ast.stmt, ast.excepthandler)):
            statement = current
            while True:
                above = parents.get(statement)
                if isinstance(above, _DEF_TYPES):
                    owners.append(above)
                    break
                if not isinstance(above, ast.stmt) or isinstance(above, ast.ClassDef):
                    break
                statement = above
        child = current
        current = parents.get(current)
    return owners


def _walk_function(body: list[ast.stmt]) -> Iterable[ast.stmt]:
    """The statements of a function body, nested blocks included, without
    entering nested functions and classes."""
    stack = list(reversed(body))
    while stack:
        statement = stack.pop()
        yield statement
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(statement, field, None)
            if isinstance(block, list):
                stack.extend(reversed([s for s in block if isinstance(s, ast.stmt)]))


def _own_nodes(statement: ast.stmt) -> Iterable[ast.AST]:
    """The nodes of one statement, without the statements nested in it (a
    compound statement's blocks are walked as statements of their own) and
    without lambdas and comprehensions' own scopes mattering here."""
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        yield node
        for field, value in ast.iter_fields(node):
            if field in ("body", "orelse", "finalbody", "handlers") and node is statement:
                continue
            if isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)


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


def _single_axis(call: ast.Call) -> bool:
    axis = positional_or_keyword(call, None, "axis")
    return isinstance(axis, ast.Constant) and type(axis.value) is int


def _is_none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None


def _is_ellipsis(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is Ellipsis


def _annotation_kind(annotation: ast.expr | None) -> bool | None:
    """True for an array annotation, False for a clearly non-array one."""
    if annotation is None:
        return None
    node = annotation
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
        if any(word in text for word in api.ARRAY_ANNOTATIONS):
            return True
        return None
    if isinstance(node, ast.Subscript):
        node = node.value
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    if name in api.ARRAY_ANNOTATIONS:
        return True
    if name in api.NOT_ARRAY_ANNOTATIONS:
        return False
    return None


def _annotated_number(annotation: ast.expr | None) -> bool:
    """``int``, ``float`` or ``complex``: a Python number."""
    return isinstance(annotation, ast.Name) and annotation.id in ("int", "float", "complex")


def isinstance_of_non_array(test: ast.expr, name: str) -> bool:
    """``isinstance(name, list)`` / ``isinstance(name, (list, tuple))``."""
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"):
        return False
    if len(test.args) != 2 or not (isinstance(test.args[0], ast.Name) and test.args[0].id == name):
        return False
    types = test.args[1]
    names = types.elts if isinstance(types, ast.Tuple) else [types]
    return all(isinstance(t, ast.Name) and t.id in _NON_ARRAY_TYPE_NAMES for t in names)


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


def _literal_number(expr: ast.expr) -> float | None:
    """``0.05``, ``-2``, ``1e3``: a number written out; None for anything else."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        inner = _literal_number(expr.operand)
        return None if inner is None else (-inner if isinstance(expr.op, ast.USub) else inner)
    if isinstance(expr, ast.Constant) and type(expr.value) in (int, float):
        return float(expr.value)
    return None
