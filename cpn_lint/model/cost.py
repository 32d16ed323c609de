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
"""

from __future__ import annotations

import ast
import enum
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Mapping

from .dependence import Role, scan_form
from .integrators import ode_integration
from .kinds import Kind
from .loop_work import Work
from .numpy_api import OUT_OF_SCOPE_DATA_UTILITIES, OUT_OF_SCOPE_MODULES
from .scopes import BindKind, IterKind, LoopFrame, Scope, ScopeKind
from .syntax import operands
from .worklists import worklist_queue

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

# ---------------------------------------------------------------- polynomials
# A monomial's key is (power of E, power of S); its value the coefficient.
Poly = dict[tuple[float, int], float]
ONE: Mapping[tuple[float, int], float] = {(0.0, 0): 1.0}
ZERO: Mapping[tuple[float, int], float] = {}
MAX_S_POWER = 3  # nested unknown counts beyond this are folded (a bound, not a detail)


def constant(value: float) -> Poly:
    return {(0.0, 0): float(value)} if value else {}


def data_extent(rank: int) -> Poly:
    return {(round(1.0 / max(rank, 1), 4), 0): 1.0}


def data_size(fraction: float = 1.0) -> Poly:
    """``E ** fraction`` elements: the whole data (1.0) or a row of it (0.5)."""
    return {(round(fraction, 4), 0): 1.0}


STEPS: Mapping[tuple[float, int], float] = {(0.0, 1): 1.0}


def times(a: Mapping[tuple[float, int], float], b: Mapping[tuple[float, int], float]) -> Poly:
    out: Poly = defaultdict(float)  # type: ignore[assignment]
    for (ea, sa), ca in a.items():
        for (eb, sb), cb in b.items():
            out[(round(ea + eb, 4), min(sa + sb, MAX_S_POWER))] += ca * cb
    return dict(out)


def plus(a: Mapping[tuple[float, int], float], b: Mapping[tuple[float, int], float]) -> Poly:
    out: Poly = dict(a)
    for key, value in b.items():
        out[key] = out.get(key, 0.0) + value
    return out


def scaled(a: Mapping[tuple[float, int], float], k: float) -> Poly:
    return {key: value * k for key, value in a.items()} if k else {}


def evaluate(poly: Mapping[tuple[float, int], float], elements: float, steps: float) -> float:
    return sum(c * (elements ** e) * (steps ** s) for (e, s), c in poly.items())


# ------------------------------------------------------------------ profiles
@dataclass(frozen=True)
class Profile:
    """The device constants a projection uses, with where each comes from."""

    name: str
    launch: float  # seconds per task launch (Legate dispatch + kernel launch)
    bandwidth: float  # bytes per second of device memory, per GPU
    flops: float  # FP64 operations per second, per GPU
    sync: float  # seconds per host round trip (drain the pipeline, copy back)
    host_statement: float  # seconds per interpreted Python statement
    source: str
    host_bandwidth: float = 20e9  # bytes per second a host library streams (one CPU socket)


# Public figures: CUDA launches cost 5-10 us and Legate's task dispatch adds
# "high microseconds" on top (the reference's gpu-stack notes; cuPyNumeric's
# own guidance targets ~1 ms of work per task for the same reason); HBM
# bandwidth and FP64 rates are NVIDIA's data-sheet figures. The round trip is
# a pipeline drain plus a small PCIe copy; a CPython statement is ~0.1 us.
_LAUNCH = 50e-6
_SYNC = 100e-6
_PY = 1e-7
_SOURCES = ("launch 50 us (CUDA launch 5-10 us + Legate dispatch, 'high microseconds'); "
            "round trip 100 us (pipeline drain + PCIe copy); Python statement 0.1 us; ")
PROFILES: dict[str, Profile] = {
    "V100": Profile("V100", _LAUNCH, 900e9, 7.8e12, _SYNC, _PY, _SOURCES + "HBM2 900 GB/s, FP64 7.8 TFLOP/s (data sheet)"),
    "T4": Profile("T4", _LAUNCH, 320e9, 0.25e12, _SYNC, _PY, _SOURCES + "GDDR6 320 GB/s, FP64 0.25 TFLOP/s (data sheet)"),
    "A10": Profile("A10", _LAUNCH, 600e9, 0.98e12, _SYNC, _PY, _SOURCES + "GDDR6 600 GB/s, FP64 ~1 TFLOP/s (data sheet)"),
    "L4": Profile("L4", _LAUNCH, 300e9, 0.5e12, _SYNC, _PY, _SOURCES + "GDDR6 300 GB/s, FP64 ~0.5 TFLOP/s (data sheet)"),
    "L40S": Profile("L40S", _LAUNCH, 864e9, 1.4e12, _SYNC, _PY, _SOURCES + "GDDR6 864 GB/s, FP64 ~1.4 TFLOP/s (data sheet)"),
    "A100": Profile("A100", _LAUNCH, 1.555e12, 9.7e12, _SYNC, _PY, _SOURCES + "HBM2 1.555 TB/s (40 GB), FP64 9.7 TFLOP/s (data sheet)"),
    "H100": Profile("H100", _LAUNCH, 3.35e12, 34e12, _SYNC, _PY, _SOURCES + "HBM3 ~3 TB/s (reference, data sheet 3.35), FP64 34 TFLOP/s"),
    "H200": Profile("H200", _LAUNCH, 4.8e12, 34e12, _SYNC, _PY, _SOURCES + "HBM3e 4.8 TB/s, FP64 34 TFLOP/s (data sheet)"),
    "B200": Profile("B200", _LAUNCH, 8e12, 40e12, _SYNC, _PY, _SOURCES + "HBM3e 8 TB/s, FP64 40 TFLOP/s (data sheet)"),
    # The oracle's machine: cuPyNumeric 26.6.1 on one CPU core, constants
    # measured by benchmarks/cost_ranking.py (benchmarks/results/cost_ranking.json).
    "cpu-legate": Profile("cpu-legate", 270e-6, 1.07e10, 7e10, 600e-6, _PY,
                          "measured on the oracle (cuPyNumeric 26.6.1 on 1 CPU core): tests/data/oracle/cost_ranking/"
                          "calib_*.py; see docs/design/cost-model.md"),
}
DEFAULT_GPU = "A100"
ASSUMED_STEPS = 1_000  # an unknown trip count (time steps, iterations), unless the user says otherwise


def profile_for(gpu_model: str | None) -> Profile:
    """The profile of a named GPU (longest matching model name), else the default."""
    if gpu_model:
        flat = "".join(ch for ch in gpu_model.upper() if ch.isalnum())
        for prefix in ("NVIDIA", "TESLA", "GEFORCE"):
            flat = flat.removeprefix(prefix)
        matches = [name for name in PROFILES if name != "cpu-legate" and flat.startswith(name.upper())]
        if matches:
            return PROFILES[max(matches, key=len)]
    return PROFILES[DEFAULT_GPU]


@dataclass(frozen=True)
class Scale:
    """The size a projection is made at."""

    elements: float = 40_000_000
    gpus: int = 1
    steps: float = ASSUMED_STEPS


# --------------------------------------------------------------------- sites
class Share(enum.Enum):
    """What a site's time is spent on, for the gates and the report."""

    LIBRARY = "out-of-scope library"  # sparse, graph, ML or NLP library calls on the host
    WHOLE_ARRAY = "whole-array work"  # scales with the GPUs
    ELEMENT_LOOP = "element loop"  # one task per element: vectorisable
    SEQUENTIAL = "sequential"  # a recurrence or traversal over the data
    HOST_SYNC = "host round trips"
    HOST = "plain Python"


@dataclass
class Counts:
    launches: Poly = field(default_factory=dict)
    bytes: Poly = field(default_factory=dict)
    flops: Poly = field(default_factory=dict)
    syncs: Poly = field(default_factory=dict)
    host: Poly = field(default_factory=dict)
    library: Poly = field(default_factory=dict)  # bytes an out-of-scope host library streams

    def add(self, other: "Counts") -> None:
        for name in COUNT_FIELDS:
            setattr(self, name, plus(getattr(self, name), getattr(other, name)))



Terms = tuple[tuple[float, int, float], ...]  # (power of E, power of S, coefficient): a Poly as plain data


def as_terms(poly: Mapping[tuple[float, int], float]) -> Terms:
    return tuple(sorted((e, s, c) for (e, s), c in poly.items() if c))


def terms_value(terms: Terms, elements: float, steps: float) -> float:
    return sum(c * (elements ** e) * (steps ** s) for e, s, c in terms)


@dataclass(frozen=True)
class Site:
    """One statement's projected work in the file (all its runs together),
    as plain data so that a report can be made from a cached file."""

    line: int
    end_line: int
    share: str  # a Share's value
    loop_line: int | None  # the outermost loop of its function that repeats it
    callers: tuple[int, ...] = ()  # lines of the calls in this file that run its function (transitively)
    launches: Terms = ()
    bytes: Terms = ()
    flops: Terms = ()
    syncs: Terms = ()
    host: Terms = ()
    library: Terms = ()

    def seconds(self, scale: Scale, profile: Profile) -> float:
        e, s, g = scale.elements, scale.steps, max(scale.gpus, 1)
        return (terms_value(self.launches, e, s) * profile.launch
                + terms_value(self.bytes, e, s) / (profile.bandwidth * g)
                + terms_value(self.flops, e, s) / (profile.flops * g)
                + terms_value(self.syncs, e, s) * profile.sync
                + terms_value(self.host, e, s) * profile.host_statement
                + terms_value(self.library, e, s) / profile.host_bandwidth)

    def step_count(self, scale: Scale) -> float:
        """Tasks launched and round trips made: the sequential steps."""
        return terms_value(self.launches, scale.elements, scale.steps) + terms_value(self.syncs, scale.elements, scale.steps)


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
BYTES_PER_ELEMENT = 8
SMALL_LITERAL = 64  # arrays the code sizes with at most this many elements (a 3-vector, a 4 x 4 matrix) stay as written
SMALL_BOUND = 64  # a literal trip count at most this is a handful (axes, taps, components)


class CostModel:
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
        if ode_integration(model, call) is not None:
            # one host step after another, each handing the few-number state
            # to the right-hand side and back
            return Counts(syncs=dict(STEPS), host=dict(STEPS))
        func = call.func
        if self._out_of_scope_call(call):
            # the library works on the data on the host: one pass over it per
            # call, and training passes over it once per epoch or iteration
            passes = STEPS if isinstance(func, ast.Attribute) and func.attr in _TRAINING_METHODS else ONE
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
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            for binding in model.reaching_bindings(func.value):
                value = binding.value
                while isinstance(value, ast.Call):
                    if _out_of_scope_name(model.qualname(value.func)):
                        return True
                    value = value.func.value if isinstance(value.func, ast.Attribute) else None  # type: ignore[assignment]
        return False

    # ----------------------------------------------------------------- sizes
    def _size(self, node: ast.AST) -> Poly:
        """Elements one run of ``node`` touches."""
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

    # --------------------------------------------------------- how often it runs
    def _runs(self, frame: LoopFrame | None, scope: Scope) -> Poly:
        """How many times code that ``frame`` repeats in ``scope`` runs."""
        key = (id(frame), id(scope.node))
        known = self._run_counts.get(key)
        if known is not None:
            return known
        poly: Poly = dict(ONE)
        loop = frame
        while loop is not None:
            poly = times(poly, self.trips(loop))
            loop = loop.parent
        poly = self._run_counts[key] = times(poly, self.invocations(scope))
        return poly

    def invocations(self, scope: Scope, _seen: frozenset[int] = frozenset()) -> Poly:
        """How many times a function runs: once for the module and for
        functions nothing in the file calls (entry points); else the sum over
        its call sites of how often each runs."""
        key = id(scope.node)
        if scope.kind is not ScopeKind.FUNCTION:
            return dict(ONE)
        known = self._invocations.get(key)
        if known is not None:
            return known
        if key in _seen:
            return dict(ONE)  # recursion: counted once
        sites = self.model.calls.sites(scope)
        total: Poly = {}
        recursive = self.recursive_traversal(scope)
        for call in sites:
            caller = self.model.scope_of(call).function_like()
            if recursive and caller is scope:
                continue  # the recursion itself: counted as the visits below
            runs: Poly = dict(ONE)
            frame = self.model.loop_of(call)
            while frame is not None:
                runs = times(runs, self.trips(frame))
                frame = frame.parent
            total = plus(total, times(runs, self.invocations(caller, _seen | {key})))
        if not total:
            total = dict(ONE)
        if recursive:
            # every element of the data is visited once, however many of the
            # top-level calls find it first (a flood fill started from each cell)
            total = data_extent(1) if _leading(total)[0] >= 1.0 else times(total, data_extent(1))
        self._invocations[key] = total
        return total

    def recursive_traversal(self, scope: Scope) -> bool:
        """A function that calls itself and picks array elements by its own
        parameters (a recursive flood fill, a depth-first search): it visits
        the data one element at a time."""
        key = id(scope.node)
        known = self._recursive.get(key)
        if known is not None:
            return known
        model = self.model
        found = False
        if scope.kind is ScopeKind.FUNCTION:
            calls_itself = any(model.scope_of(call).function_like() is scope for call in model.calls.sites(scope))
            params = {b.name for bs in scope.bindings.values() for b in bs if b.kind is BindKind.PARAM}
            if calls_itself and params:
                for sub in ast.walk(scope.node):
                    if isinstance(sub, ast.Subscript) and model.is_device(sub.value) and \
                            any(isinstance(n, ast.Name) and n.id in params for n in ast.walk(sub.slice)):
                        found = True
                        break
        self._recursive[key] = found
        return found

    def is_worklist(self, frame: LoopFrame) -> bool:
        """A loop that pops its work from a container (BFS, flood fill,
        Dijkstra): a traversal that visits the data one node at a time."""
        return worklist_queue(self.model, frame) is not None

    def callers(self, scope: Scope) -> tuple[int, ...]:
        """The lines of every call in the file that runs ``scope``, directly
        or through other functions (so a region that holds the call holds
        the work it calls)."""
        key = id(scope.node)
        known = self._callers.get(key)
        if known is not None:
            return known
        found: set[int] = set()
        pending = [scope]
        seen = {key}
        while pending:
            current = pending.pop()
            if current.kind is not ScopeKind.FUNCTION:
                continue
            for call in self.model.calls.sites(current):
                found.add(call.lineno)
                caller = self.model.scope_of(call).function_like()
                if id(caller.node) not in seen:
                    seen.add(id(caller.node))
                    pending.append(caller)
        result = self._callers[key] = tuple(sorted(found))
        return result

    def trips(self, frame: LoopFrame) -> Poly:
        key = id(frame)
        known = self._trips.get(key)
        if known is None:
            known = self._trips[key] = self._classify_trips(frame)
        return known

    def _classify_trips(self, frame: LoopFrame) -> Poly:
        model = self.model
        role = model.role(frame)
        node = frame.node
        if frame.iter_kind is IterKind.SMALL_CONSTANT:
            return constant(self._literal_count(frame) or 3)
        if self.is_worklist(frame):
            return data_extent(1)  # every node of the data is pushed and popped once
        if role in (Role.ELEMENT_LOOP, Role.RECURRENCE):
            if frame.iter_kind is IterKind.RANGE:
                stated = self._range_count(frame)
                if stated is not None and stated is not _DATA:
                    return stated  # type: ignore[return-value]
            if role is Role.RECURRENCE and any(r.form == "site" for r in model.recurrences(frame)):
                return data_size()  # one proposal per site of the lattice, at least
            if role is Role.RECURRENCE and not self._walks_its_array(frame):
                return dict(STEPS)  # a few numbers carried through time steps: as many as the steps
            return data_extent(self.rank(frame))
        if frame.iter_kind in (IterKind.ARRAY, IterKind.INDEX_PRODUCT):
            return data_extent(self.rank(frame))
        if frame.iter_kind is IterKind.RANGE:
            stated = self._range_count(frame)
            if stated is _DATA:
                return data_extent(self.rank(frame))
            if stated is not None:
                return stated  # type: ignore[return-value]
        if isinstance(node, ast.While) or frame.iter_kind in (IterKind.OTHER, IterKind.RANGE):
            return dict(STEPS)
        return dict(STEPS)

    def _walks_its_array(self, frame: LoopFrame) -> bool:
        """Does a recurrence step along an array (``y[n]`` from ``y[n - 1]``,
        a walker on a lattice), or along a range tied to the data? A state
        of a few numbers carried by a time loop (a Kalman filter, a Markov
        chain) runs as many times as the loop has steps instead."""
        if frame.iter_kind is IterKind.RANGE and self._range_count(frame) is _DATA:
            return True
        if frame.iter_kind in (IterKind.ARRAY, IterKind.INDEX_PRODUCT):
            return True
        return any(r.form in ("element", "walker") for r in self.model.recurrences(frame))

    def _range_count(self, frame: LoopFrame) -> "Poly | object | None":
        """A range loop's count: _DATA for a data extent, a constant as
        written, or None when the code does not state it."""
        call = _range_call(frame)
        if call is None or not call.args:
            return None
        stop = call.args[0] if len(call.args) == 1 else call.args[1]
        if self._is_data_extent(stop):
            return _DATA
        value = self.model.const_int(stop)
        if value is None:
            return None
        start = self.model.const_int(call.args[0]) if len(call.args) > 1 else 0
        step = self.model.const_int(call.args[2]) if len(call.args) > 2 else 1
        if start is None or not step:
            return None
        return constant(max(0, (value - start) // step))

    def _is_data_extent(self, expr: ast.expr, depth: int = 0) -> bool:
        """Is ``expr`` tied to an array axis: ``len(a)``, ``a.shape[k]``,
        ``a.size``, arithmetic on one, or a name that sizes an allocation?"""
        model = self.model
        if depth > 4:
            return False
        if isinstance(expr, ast.BinOp):
            return self._is_data_extent(expr.left, depth + 1) or self._is_data_extent(expr.right, depth + 1)
        if isinstance(expr, ast.Call):
            func = expr.func
            if isinstance(func, ast.Name) and func.id in ("len", "int") and expr.args:
                arg = expr.args[0]
                if func.id == "int":
                    return self._is_data_extent(arg, depth + 1)
                return model.kind(arg) in (Kind.DEVICE, Kind.HOST, Kind.UNKNOWN) and not _is_literal_container(arg)
            api = model.call_api(expr)
            return api in ("size", "shape") and bool(expr.args)
        if isinstance(expr, ast.Subscript):
            value = expr.value
            return isinstance(value, ast.Attribute) and value.attr == "shape"
        if isinstance(expr, ast.Attribute):
            return expr.attr in ("size",) and model.kind(expr.value) in (Kind.DEVICE, Kind.UNKNOWN)
        if isinstance(expr, ast.Name):
            if expr.id in self.extent_names():
                return True
            for binding in model.reaching_bindings(expr):
                if binding.kind is BindKind.VALUE and binding.value is not None and binding.value is not expr:
                    if self._is_data_extent(binding.value, depth + 1):
                        return True
        return False

    def extent_names(self) -> set[str]:
        """Names that size an allocation somewhere in the file (``np.zeros(n)``,
        ``np.empty((nx, ny))``, ``rng.random(n)``, ``np.linspace(0, 1, n)``)."""
        if self._extent_names is None:
            names: set[str] = set()
            for call in self.model.nodes(ast.Call):
                api = self.model.call_api(call)
                if api is None and not self.model.is_device(call):
                    continue
                candidates: list[ast.expr] = []
                if api in ("linspace", "arange", "logspace", "geomspace"):
                    candidates = list(call.args[2:3] if api != "arange" else call.args[:2])
                elif call.args:
                    candidates = [call.args[0]]
                candidates += [kw.value for kw in call.keywords if kw.arg in ("size", "shape", "num")]
                for candidate in candidates:
                    parts = candidate.elts if isinstance(candidate, (ast.Tuple, ast.List)) else [candidate]
                    for part in parts:
                        for name in ast.walk(part):
                            if isinstance(name, ast.Name):
                                names.add(name.id)
            self._extent_names = names
        return self._extent_names

    def _literal_count(self, frame: LoopFrame) -> int | None:
        iterable = getattr(frame.node, "iter", None)
        if iterable is None:
            generators = getattr(frame.node, "generators", None)
            iterable = generators[0].iter if generators else None
        if isinstance(iterable, (ast.Tuple, ast.List, ast.Set)):
            return len(iterable.elts)
        if isinstance(iterable, ast.Call):
            rng = self._range_count(frame)
            if isinstance(rng, dict):
                return int(evaluate(rng, 1, 1))
        return None

    def rank(self, frame: LoopFrame) -> int:
        """The rank of the data a data-extent loop walks: the data loops of
        its nest (itself, those around it and the deepest chain inside), at
        least 2 when each iteration works on a row."""
        key = id(frame)
        known = self._ranks.get(key)
        if known is not None:
            return known
        model = self.model
        outer = sum(1 for f in frame.chain() if self._walks_data(f))
        inner = 0
        for nested in model.loops_within(frame):
            depth = sum(1 for f in nested.chain() if frame.contains(f) and f is not frame and self._walks_data(f))
            inner = max(inner, depth)
        rank = max(1, outer + inner, self._picked_rank(frame))
        if model.work(frame).work is Work.ROW:
            rank = max(rank, 2)
        self._ranks[key] = rank
        return rank

    def _picked_rank(self, frame: LoopFrame) -> int:
        """The most indices a subscript picked by the loop's own index takes
        (``D[n, 0]`` walks one axis of a 2-D table: each of its passes is
        one of E ** (1/2)), or the known rank of such an array."""
        model = self.model
        own = model.loop_indices(frame) | model.loop_varying(frame)
        if not own:
            return 0
        rank = 0
        for sub in model.nodes_in_loop(frame, ast.Subscript):
            if not any(isinstance(n, ast.Name) and n.id in own for n in ast.walk(sub.slice)):
                continue
            parts = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
            shape = model.shape(sub.value) if model.is_device(sub.value) else None
            rank = max(rank, len(parts), len(shape) if shape else 0)
        return min(rank, 4)

    def _walks_data(self, frame: LoopFrame) -> bool:
        if frame.iter_kind in (IterKind.SMALL_CONSTANT, IterKind.OTHER):
            return False
        role = self.model.role(frame)
        if role in (Role.ELEMENT_LOOP, Role.RECURRENCE):
            return True
        if frame.iter_kind in (IterKind.ARRAY, IterKind.INDEX_PRODUCT):
            return True
        return frame.iter_kind is IterKind.RANGE and self._range_count(frame) is _DATA

    # ----------------------------------------------------------- categories
    def _share_of(self, node: ast.AST, frame: LoopFrame | None, counts: Counts) -> Share:
        scope = self.model.scope_of(node).function_like()
        key = (id(frame), id(scope.node))
        if key not in self._loop_shares:
            self._loop_shares[key] = self._loop_share(frame, scope)
        share = self._loop_shares[key]
        if share is not None:
            return share
        if isinstance(node, ast.Call) and ode_integration(self.model, node) is not None:
            return Share.SEQUENTIAL
        if counts.library:
            return Share.LIBRARY
        if counts.syncs:
            return Share.HOST_SYNC
        if counts.launches:
            return Share.WHOLE_ARRAY
        return Share.HOST

    def _loop_share(self, frame: LoopFrame | None, scope: Scope) -> Share | None:
        """SEQUENTIAL or ELEMENT_LOOP when a loop that repeats the code (its
        own, or one calling its function) is such a loop; else None."""
        if self.recursive_traversal(scope):
            return Share.SEQUENTIAL
        loops = list(self._frames_of(frame, scope))
        for depth, loop in enumerate(loops):
            role = self.model.role(loop)
            if role is Role.RECURRENCE and self._only_scans(loop):
                return Share.ELEMENT_LOOP  # a running sum: one np.cumsum call, not sequential work
            if role is Role.RECURRENCE and any(self.model.role(outer) is Role.ELEMENT_LOOP for outer in loops[depth + 1:]):
                # an escape-time iteration per pixel: vectorised across the
                # pixels, the recurrence steps a whole slab at a time
                return Share.ELEMENT_LOOP
            if role is Role.RECURRENCE or self.is_worklist(loop) or self._starts_traversals(loop):
                return Share.SEQUENTIAL
            if role is Role.ELEMENT_LOOP and any(self._orders_its_passes(outer) for outer in loops[depth + 1:]):
                # the inner products of a Levinson step: vectorised, each one
                # is still a step of the order recurrence around it
                return Share.SEQUENTIAL
            if role is Role.ELEMENT_LOOP:
                return Share.ELEMENT_LOOP
        return None

    def _orders_its_passes(self, frame: LoopFrame) -> bool:
        """A recurrence (not a running sum) along the data that each pass of
        the loops inside it must wait for. (One of a few steps, Burg's loop
        over the model order, leaves its per-sample loops parallel.)"""
        if self.model.role(frame) is not Role.RECURRENCE or self._only_scans(frame):
            return False
        return any(exponent > 0 for exponent, _ in self.trips(frame))

    def _only_scans(self, frame: LoopFrame) -> bool:
        recurrences = self.model.recurrences(frame)
        return bool(recurrences) and all(scan_form(self.model, r, frame) for r in recurrences)

    def _starts_traversals(self, frame: LoopFrame) -> bool:
        """Does the loop call a recursive traversal (a flood fill from each cell)?"""
        key = id(frame)
        known = self._starters.get(key)
        if known is None:
            callees = (self.model.calls.callee(call) for call in self.model.nodes_in_loop(frame, ast.Call))
            known = self._starters[key] = any(c is not None and self.recursive_traversal(c) for c in callees)
        return known

    def _frames_of(self, frame: LoopFrame | None, scope: Scope) -> Iterable[LoopFrame]:
        """The loops that repeat code in ``frame`` of ``scope``: its own, and
        those that call its function."""
        if frame is not None:
            yield from frame.chain()
        seen = {id(scope.node)}
        while scope.kind is ScopeKind.FUNCTION:
            calling = self.model.calls.calling_loop(scope)
            if calling is None:
                return
            loop, call = calling
            yield from loop.chain()
            scope = self.model.scope_of(call).function_like()
            if id(scope.node) in seen:
                return
            seen.add(id(scope.node))

    def _outermost_loop(self, stmt: ast.stmt) -> LoopFrame | None:
        frame = self.model.loop_of(stmt)
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            frame = self.model.loop_for_node(stmt) or frame
        if frame is None:
            return None
        scope = self.model.scope_of(stmt).function_like()
        outer = frame
        for candidate in frame.chain():
            if candidate.scope.function_like() is scope:
                outer = candidate
        return outer


_DATA = object()
# The node types that cost something (operators, calls, subscripts, statements).
_COSTED = (ast.Call, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.Subscript, ast.AugAssign, ast.If,
           ast.While, ast.Assert, ast.Assign, ast.AnnAssign, ast.Expr, ast.Return, ast.For, ast.AsyncFor)
_ARRAY_KINDS = frozenset({Kind.DEVICE, Kind.HOST, Kind.CUPY, Kind.SEQ})
_STRENGTH = {Share.LIBRARY: 5, Share.SEQUENTIAL: 4, Share.ELEMENT_LOOP: 3, Share.HOST_SYNC: 2, Share.WHOLE_ARRAY: 1, Share.HOST: 0}


def _stronger(a: Share, b: Share) -> Share:
    return a if _STRENGTH[a] >= _STRENGTH[b] else b


COUNT_FIELDS = ("launches", "bytes", "flops", "syncs", "host", "library")


def _out_of_scope_name(qualname: str | None) -> bool:
    if not qualname:
        return False
    if any(qualname == u or qualname.startswith(u + ".") for u in OUT_OF_SCOPE_DATA_UTILITIES):
        return False  # making, splitting or scaling data is no training
    return any(qualname == prefix or qualname.startswith(prefix + ".") for prefix, _ in OUT_OF_SCOPE_MODULES)


def _leading(poly: Mapping[tuple[float, int], float]) -> tuple[float, float]:
    """The largest power of E in ``poly`` (and its coefficient), to compare sizes."""
    if not poly:
        return (-1.0, 0.0)
    power = max(e for e, _ in poly)
    return (power, sum(c for (e, _), c in poly.items() if e == power))


def _range_call(frame: LoopFrame) -> ast.Call | None:
    iterable = getattr(frame.node, "iter", None)
    if iterable is None:
        generators = getattr(frame.node, "generators", None)
        iterable = generators[0].iter if generators else None
    while isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) \
            and iterable.func.id in ("enumerate", "reversed", "tqdm", "list") and iterable.args:
        iterable = iterable.args[0]
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id in ("range", "xrange"):
        return iterable
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute) and iterable.func.attr in ("arange", "prange"):
        return iterable
    return None


def _is_literal_container(expr: ast.expr) -> bool:
    return isinstance(expr, (ast.Tuple, ast.List, ast.Set, ast.Dict, ast.Constant))


def _header_end(stmt: ast.stmt) -> int:
    if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.FunctionDef, ast.ClassDef)):
        return stmt.lineno
    return stmt.end_lineno or stmt.lineno


def file_sites(model: "FileModel") -> list[Site]:
    """The projected cost sites of one file (memoised on the model)."""
    return model.derived(CostModel, CostModel).sites()
