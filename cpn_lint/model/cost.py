"""Where the time would go: a projected device-time cost model of one file.

On cuPyNumeric every Python-level array operation is a task launch, so a
loop over a data extent costs its trip count times the launches of its body,
and that dwarfs any whole-array work. This module estimates, per statement
on the data path,

    seconds = launches x per-launch cost + bytes moved / (bandwidth x GPUs)
              + floating-point work / (FP64 rate x GPUs)
              + host round trips x sync latency + Python statements x host cost

where a statement's counts are multiplied by the trip counts of the loops
around it and by how often its function runs. Counts are kept as
polynomials in two symbols so that one model serves every context:

* ``E`` — the elements of the data (``--elements``); a loop over a *data
  extent* (``len(a)``, ``a.shape[k]``, a name that sizes an allocation)
  runs ``E ** (1 / r)`` times, ``r`` the rank of the nest it belongs to, so
  a full nest over a 2-D grid runs ``E`` times;
* ``S`` — any trip count the code does not state (time steps, iterations
  to convergence, items of a list): one shared symbol, so the shares of two
  sites in the same loop compare whatever its value.

Small extents (literals, a handful of axes, components or taps) stay as
written. Everything here is a projection from the source, never a
measurement; :data:`PROFILES` names the public figures behind each constant.

:class:`CostModel` finds the sites and counts what one run of each costs
here; :mod:`.trip_counts` says how often it runs (loop trip counts, how
often a function is called, recursion and worklists) and
:mod:`.cost_shares` which share of the time it is (element loop,
sequential, library, host sync, ...). :mod:`.cost_terms` holds the
polynomials, GPU profiles and the :class:`~cpn_lint.model.cost_terms.Site`
record the verdict reads.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from typing import TYPE_CHECKING

from .cost_shares import CostShares, _stronger
from .cost_terms import (COUNT_FIELDS, ONE, STEPS, Counts, Poly, Share, Site, _leading, as_terms, constant, data_size,
                         scaled, times)
from .integrators import small_state_chain
from .kinds import Kind
from .loop_work import Work
from .numpy_api import OUT_OF_SCOPE_DATA_UTILITIES, OUT_OF_SCOPE_MODULES
from .scopes import IterKind, LoopFrame, ScopeKind
from .syntax import operands
from .trip_counts import TripCounts

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

# Calls that copy an array to the host and back (a round trip each).
_CONVERSIONS = frozenset({"float", "int", "bool", "complex"})
_SYNC_METHODS = frozenset({"item", "tolist", "get", "tobytes"})
_PRINTERS = frozenset({"print"})
# Dense linear algebra: work grows as n**3 for n x n operands (E ** 1.5).
_CUBIC = frozenset({"dot", "matmul", "tensordot", "einsum", "inner", "linalg.solve", "linalg.inv", "linalg.cholesky",
                    "linalg.qr", "linalg.svd", "linalg.eig", "linalg.eigh", "linalg.lstsq", "linalg.det",
                    "linalg.matrix_power", "linalg.pinv"})
# Methods of an ML library's model that train it to convergence: as many
# passes over the data as the training runs epochs or iterations (a count the
# code rarely states). A transformer's fit_transform, a partial_fit or one
# batch is one pass.
_TRAINING_METHODS = frozenset({"fit", "fit_predict", "fit_generator"})
# Estimators whose fit is a direct solve or one set of statistics, not
# epochs or iterations: one pass over the data like any other library call.
_CLOSED_FORM_FITS = frozenset({
    "sklearn.linear_model.LinearRegression", "sklearn.linear_model.Ridge", "sklearn.linear_model.RidgeCV",
    "sklearn.linear_model.RidgeClassifier", "sklearn.decomposition.PCA", "sklearn.naive_bayes.GaussianNB",
    "sklearn.discriminant_analysis.LinearDiscriminantAnalysis", "sklearn.preprocessing.StandardScaler",
    "sklearn.preprocessing.MinMaxScaler",
})
BYTES_PER_ELEMENT = 8
SMALL_LITERAL = 64  # arrays the code sizes with at most this many elements (a 3-vector, a 4 x 4 matrix) stay as written
SMALL_BOUND = 64  # a literal trip count at most this is a handful (axes, taps, components)


class CostModel(TripCounts, CostShares):
    """The projected cost of every statement on one file's data path."""

    def __init__(self, model: "FileModel") -> None:
        self.model = model
        self._trips: dict[int, Poly] = {}
        self._ranks: dict[int, int] = {}
        self._invocations: dict[int, Poly] = {}
        self._callers: dict[int, tuple[int, ...]] = {}
        self._recursive: dict[int, bool] = {}
        self._starters: dict[int, bool] = {}
        self._run_counts: dict[tuple[int, int], Poly] = {}
        self._loop_shares: dict[tuple[int, int], Share | None] = {}
        self._extent_names: set[str] | None = None
        # _size's answers per node: each operator of a chain asks for the
        # sizes of all its operands again (the polynomials are never mutated)
        self._sizes: dict[int, Poly] = {}

    # ------------------------------------------------------------ the sites
    def sites(self) -> list[Site]:
        # Counts are gathered per statement and repeating loop (a comprehension
        # inside a statement repeats only its own part), then weighted once by
        # how often that loop and function run.
        groups: dict[tuple[int, int], tuple[ast.stmt, LoopFrame | None, Counts, Share]] = {}
        model = self.model
        for node in model.nodes(*_COSTED):
            counts = self._node_counts(node)
            if counts is None:
                continue
            stmt = node if isinstance(node, ast.stmt) else model.statement_of(node)
            if stmt is None:
                continue
            frame = self._repeating_frame(node)
            share = self._share_of(node, frame, counts)
            key = (id(stmt), id(frame))
            known = groups.get(key)
            if known is None:
                groups[key] = (stmt, frame, counts, share)
            else:
                known[2].add(counts)
                groups[key] = (stmt, frame, known[2], _stronger(known[3], share))
        by_statement: dict[int, tuple[ast.stmt, Counts, Share]] = {}
        for stmt, frame, counts, share in groups.values():
            runs = self._runs(frame, model.scope_of(stmt).function_like())
            weighted = Counts(*(times(getattr(counts, name), runs) for name in COUNT_FIELDS))
            known_stmt = by_statement.get(id(stmt))
            if known_stmt is None:
                by_statement[id(stmt)] = (stmt, weighted, share)
            else:
                known_stmt[1].add(weighted)
                by_statement[id(stmt)] = (stmt, known_stmt[1], _stronger(known_stmt[2], share))
        sites = []
        for stmt, counts, share in by_statement.values():
            outer = self._outermost_loop(stmt)
            sites.append(Site(stmt.lineno, _header_end(stmt), share.value, outer.line if outer is not None else None,
                              self.callers(model.scope_of(stmt).function_like()), as_terms(counts.launches),
                              as_terms(counts.bytes), as_terms(counts.flops), as_terms(counts.syncs),
                              as_terms(counts.host), as_terms(counts.library)))
        sites.sort(key=lambda s: s.line)
        return sites

    def _repeating_frame(self, node: ast.AST) -> LoopFrame | None:
        """The innermost loop that repeats ``node`` (a loop's own header runs
        once per pass of the loops around it)."""
        frame = self.model.loop_of(node)
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            own = self.model.loop_for_node(node)
            if own is not None and own is frame:
                frame = own.parent
        return frame

    # -------------------------------------------------------- what one run costs
    def _node_counts(self, node: ast.AST) -> Counts | None:
        model = self.model
        if isinstance(node, ast.Call):
            return self._call_counts(node)
        if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp)):
            sides = operands(node)
            if not any(model.is_device(op) for op in sides):
                return None
            size = self._size(node)
            flops = data_size(1.5) if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult) \
                and not self._is_small(node) else {}
            return Counts(launches=dict(ONE), bytes=scaled(size, 3 * BYTES_PER_ELEMENT), flops=scaled(flops, 2))
        if isinstance(node, ast.Subscript) and model.is_device(node.value):
            if isinstance(node.ctx, ast.Store):
                return Counts(launches=dict(ONE), bytes=scaled(self._size(node), 2 * BYTES_PER_ELEMENT))
            if model.kind(node) is Kind.DEVICE_SCALAR:  # an element read is a task of its own
                return Counts(launches=dict(ONE), bytes=constant(BYTES_PER_ELEMENT))
            return None  # a slice is a view
        if isinstance(node, ast.AugAssign) and model.is_device(node.target) and not isinstance(node.target, ast.Subscript):
            return Counts(launches=dict(ONE), bytes=scaled(self._size(node.target), 3 * BYTES_PER_ELEMENT))
        if isinstance(node, (ast.If, ast.While, ast.Assert)) and model.is_device(node.test):
            return Counts(syncs=dict(ONE), host=dict(ONE))
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return, ast.If, ast.While,
                             ast.For, ast.AsyncFor)) and self._repeated(node):
            return Counts(host=dict(ONE))
        return None  # a plain statement run once costs nothing worth a site

    def _repeated(self, node: ast.AST) -> bool:
        """Does a loop, or a call from one, repeat ``node``?"""
        if self._repeating_frame(node) is not None:
            return True
        scope = self.model.scope_of(node).function_like()
        return scope.kind is ScopeKind.FUNCTION and bool(self.model.calls.sites(scope))

    def _call_counts(self, call: ast.Call) -> Counts | None:
        model = self.model
        api = model.call_api(call)
        if api is not None:
            size = self._call_size(call)
            counts = Counts(launches=dict(ONE), bytes=scaled(size, 3 * BYTES_PER_ELEMENT))
            if api in _CUBIC and not self._is_small(call):
                counts.flops = scaled(data_size(1.5), 2)
            return counts
        if small_state_chain(model, call) is not None:
            # one host step after another, each handing the few-number state
            # to the right-hand side and back
            return Counts(syncs=dict(STEPS), host=dict(STEPS))
        func = call.func
        if self._out_of_scope_call(call):
            # the library works on the data on the host: one pass over it per
            # call, and training passes over it once per epoch or iteration
            trains = isinstance(func, ast.Attribute) and func.attr in _TRAINING_METHODS and not self._fits_in_one_pass(func)
            passes = STEPS if trains else ONE
            return Counts(library=times(scaled(data_size(1.0), BYTES_PER_ELEMENT), passes))
        if isinstance(func, ast.Name) and model.lookup(func) is None:
            if func.id in _CONVERSIONS and call.args and model.is_device(call.args[0]):
                return Counts(syncs=dict(ONE))
            if func.id in _PRINTERS and any(model.is_device(a) for a in call.args):
                return Counts(syncs=dict(ONE))
            return None
        if isinstance(func, ast.Attribute) and model.is_device(func.value):
            if func.attr in _SYNC_METHODS:
                return Counts(syncs=dict(ONE), bytes=scaled(self._size(func.value), BYTES_PER_ELEMENT))
            return Counts(launches=dict(ONE), bytes=scaled(self._size(func.value), 2 * BYTES_PER_ELEMENT))
        if model.calls.callee(call) is None and any(model.is_array(a) for a in call.args):
            # another library handed a device array: the data goes to the host and back
            size = max((self._size(a) for a in call.args if model.is_array(a)), key=_leading, default={})
            return Counts(syncs=dict(ONE), bytes=scaled(size, 2 * BYTES_PER_ELEMENT))
        return None

    def _out_of_scope_call(self, call: ast.Call) -> bool:
        """A call into a sparse, graph, ML or NLP library, or a method of
        something such a library made (``g.neighbors(v)`` after
        ``g = nx.Graph()``)."""
        model = self.model
        if _out_of_scope_name(model.qualname(call.func)):
            return True
        if self._solves_sparse(call):
            return True
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            for binding in model.reaching_bindings(func.value):
                value = binding.value
                while isinstance(value, ast.Call):
                    if _out_of_scope_name(model.qualname(value.func)):
                        return True
                    value = value.func.value if isinstance(value.func, ast.Attribute) else None  # type: ignore[assignment]
        return False

    def _fits_in_one_pass(self, method: ast.Attribute) -> bool:
        """``clf.fit(X, y)`` with ``clf = linear_model.Ridge(...)`` in every
        binding that reaches it: a direct solve, not a training loop."""
        model = self.model
        if not isinstance(method.value, ast.Name):
            return False
        bindings = model.reaching_bindings(method.value)
        return bool(bindings) and all(
            isinstance(b.value, ast.Call) and model.qualname(b.value.func) in _CLOSED_FORM_FITS for b in bindings)

    def _solves_sparse(self, call: ast.Call) -> bool:
        """A SciPy routine handed a callback of the file that returns a
        scipy.sparse matrix (``least_squares(fun, u0, jac=jac)`` with ``jac``
        building a ``coo_matrix``): the solve runs on sparse matrices."""
        model = self.model
        if not (model.qualname(call.func) or "").startswith("scipy."):
            return False
        for argument in [*call.args, *(k.value for k in call.keywords)]:
            callee = model.calls.function(argument) if isinstance(argument, (ast.Name, ast.Attribute)) else None
            if callee is not None and any(isinstance(r, ast.Call) and _out_of_scope_name(model.qualname(r.func))
                                          for r in callee.returns):
                return True
        return False

    # ----------------------------------------------------------------- sizes
    def _size(self, node: ast.AST) -> Poly:
        """Elements one run of ``node`` touches (memoised: a shared value,
        which callers only read)."""
        key = id(node)
        found = self._sizes.get(key)
        if found is None:
            found = self._sizes[key] = self._compute_size(node)
        return found

    def _compute_size(self, node: ast.AST) -> Poly:
        model = self.model
        if isinstance(node, ast.expr):
            kind = model.kind(node)
            if kind is Kind.DEVICE_SCALAR or kind is Kind.SCALAR:
                return constant(1)
            literal = model.literal_shape(node)
            if literal is not None:
                count = 1
                for extent in literal:
                    count *= max(extent, 1)
                if count <= SMALL_LITERAL:
                    return constant(count)
            if isinstance(node, ast.Subscript) and self._picks_one(node):
                return constant(1)
            sides = operands(node)
            if sides:
                return max((self._size(op) for op in sides), key=_leading)
        frame = self._hot_frame(node)
        if frame is not None:
            work = model.work(frame).work
            if work is Work.ELEMENT:
                return constant(1)
            if work is Work.ROW:
                return data_size(0.5)
        return data_size(1.0)

    def _picks_one(self, sub: ast.Subscript) -> bool:
        """``grid[i, j]``: every index a number, as many as the array has
        axes (or the rank is not known): one element."""
        parts = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
        if any(isinstance(p, ast.Slice) or (isinstance(p, ast.Constant) and p.value is None) for p in parts):
            return False
        if any(self.model.kind(p) in _ARRAY_KINDS or isinstance(p, (ast.List, ast.Tuple)) for p in parts):
            return False  # fancy indexing gathers many
        shape = self.model.shape(sub.value)
        return shape is None or len(shape) <= len(parts)

    def _call_size(self, call: ast.Call) -> Poly:
        arrays = [a for a in call.args if isinstance(a, ast.expr) and self.model.is_device(a)]
        if arrays:
            return max((self._size(a) for a in arrays), key=_leading)
        return self._size(call)

    def _is_small(self, node: ast.AST) -> bool:
        return _leading(self._size(node))[0] == 0.0

    def _hot_frame(self, node: ast.AST) -> LoopFrame | None:
        frame = self.model.loop_of(node)
        while frame is not None and frame.iter_kind is IterKind.SMALL_CONSTANT:
            frame = frame.parent
        return frame


# The node types that cost something (operators, calls, subscripts, statements).
_COSTED = (ast.Call, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.Subscript, ast.AugAssign, ast.If,
           ast.While, ast.Assert, ast.Assign, ast.AnnAssign, ast.Expr, ast.Return, ast.For, ast.AsyncFor)
_ARRAY_KINDS = frozenset({Kind.DEVICE, Kind.HOST, Kind.CUPY, Kind.SEQ})


@lru_cache(maxsize=4096)
def _out_of_scope_name(qualname: str | None) -> bool:
    """A name of an out-of-scope library (memoised: every call of the file
    asks, with a few dozen distinct names, against a long prefix table)."""
    if not qualname:
        return False
    if any(qualname == u or qualname.startswith(u + ".") for u in OUT_OF_SCOPE_DATA_UTILITIES):
        return False  # making, splitting or scaling data is no training
    return any(qualname == prefix or qualname.startswith(prefix + ".") for prefix, _ in OUT_OF_SCOPE_MODULES)


def _header_end(stmt: ast.stmt) -> int:
    if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.FunctionDef, ast.ClassDef)):
        return stmt.lineno
    return stmt.end_lineno or stmt.lineno


def file_sites(model: "FileModel") -> list[Site]:
    """The projected cost sites of one file (memoised on the model)."""
    return model.derived(CostModel, CostModel).sites()


def walks_data_unevenly(model: "FileModel", frame: LoopFrame) -> bool:
    """Does the recurrence ``frame`` carries step through the data's samples
    as its own state decides (see :meth:`TripCounts.walks_data_unevenly`)?"""
    return model.derived(CostModel, CostModel).walks_data_unevenly(frame)
