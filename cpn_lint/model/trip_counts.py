"""How often a cost site runs (:class:`TripCounts`).

A loop's trip count: a literal, a data extent (``len(a)``, ``a.shape[k]``,
a name that sizes an allocation: ``E ** (1 / r)`` in a nest of rank ``r``)
or the shared unknown ``S``; how often a function runs, from its callers
and the loops around their calls; recursive traversals and worklist loops,
which visit the data one item at a time. A mixin of
:class:`~cpn_lint.model.cost.CostModel`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .call_recurrences import call_recurrences
from .cost_terms import ONE, STEPS, Poly, _leading, constant, data_extent, data_size, evaluate, plus, times
from .dependence import Role
from .kinds import Kind
from .loop_work import Work
from .scopes import BindKind, IterKind, LoopFrame, Scope, ScopeKind
from .worklists import worklist_queue
from .syntax import walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel



class TripCounts:
    """Trip counts of loops, invocations of functions, recursion and worklists."""

    model: "FileModel"

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
            # an entry point runs once, but a method that carries state from
            # call to call runs once per sample its caller feeds it
            total = data_extent(1) if any(r.method is scope for r in call_recurrences(self.model)) else dict(ONE)
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
                for sub in walk(scope.node):
                    if isinstance(sub, ast.Subscript) and model.is_device(sub.value) and \
                            any(isinstance(n, ast.Name) and n.id in params for n in walk(sub.slice)):
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
        if self._counts_to_an_extent(frame):
            return True
        return any(r.form in ("element", "walker", "sweep", "line") for r in self.model.recurrences(frame))

    def walks_data_unevenly(self, frame: LoopFrame) -> bool:
        """Is ``frame`` a recurrence that steps through the data's samples as
        its own state decides (``while n < len(x)``, ``n`` moved by 1 or 2 or
        held back under tests on the carried phase)? Copies of it over other
        rows or channels cannot run side by side in step."""
        node = frame.node
        if self.model.role(frame) is not Role.RECURRENCE or not self._counts_to_an_extent(frame):
            return False
        counters = {t.left.id for t in _compared_tests(node) if isinstance(t.left, ast.Name)}  # type: ignore[arg-type]
        return any(isinstance(stmt.target, ast.Name) and stmt.target.id in counters
                   and self.model.loop_of(stmt) is frame and self._under_a_test(stmt, node)
                   for stmt in self.model.nodes_in_loop(frame, ast.AugAssign))

    def _under_a_test(self, stmt: ast.stmt, loop: ast.AST) -> bool:
        """Is ``stmt`` inside an ``if`` within ``loop``?"""
        for ancestor in self.model.ancestors(stmt):
            if ancestor is loop:
                return False
            if isinstance(ancestor, ast.If):
                return True
        return False

    def _counts_to_an_extent(self, frame: LoopFrame) -> bool:
        """``while n < len(x) - 1`` with ``n`` moved by a constant in the loop:
        a range over the data written as a while loop."""
        node = frame.node
        if not isinstance(node, ast.While):
            return False
        moved = {stmt.target.id for stmt in self.model.nodes_in_loop(frame, ast.AugAssign)
                 if isinstance(stmt.target, ast.Name) and self.model.const_int(stmt.value) is not None}
        return any(len(t.ops) == 1 and isinstance(t.ops[0], (ast.Lt, ast.LtE)) and isinstance(t.left, ast.Name)
                   and t.left.id in moved and self._is_data_extent(t.comparators[0]) for t in _compared_tests(node))

    def _range_count(self, frame: LoopFrame) -> "Poly | object | None":
        """A range loop's count: _DATA for a data extent, a constant as
        written, or None when the code does not state it."""
        call = _range_call(frame)
        if call is None or not call.args:
            return None
        stop = call.args[0] if len(call.args) == 1 else call.args[1]
        if self._read_from_values(stop):
            return dict(STEPS)  # a count the data holds (a model parameter): unknown, not an extent
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
            if self._read_from_values(expr):
                return False  # n = int(np.ceil(X[4])) + 2: a number the data holds, however it sizes arrays
            if expr.id in self.extent_names():
                return True
            for binding in model.reaching_bindings(expr):
                if binding.kind is BindKind.VALUE and binding.value is not None and binding.value is not expr:
                    if self._is_data_extent(binding.value, depth + 1):
                        return True
        return False

    def _read_from_values(self, value: ast.expr, depth: int = 0) -> bool:
        """Is ``value`` computed from elements picked at fixed positions of
        arrays (a model parameter, ``int(np.ceil(X[4])) + 2``) and constants
        only? Such a count is what the data says, not an extent of it."""
        model = self.model
        picked = False
        pending: list[ast.AST] = [value]
        while pending:
            node = pending.pop()
            if isinstance(node, ast.Constant):
                continue
            if isinstance(node, ast.Subscript):
                if model.const_int(node.slice) is None or model.kind(node.value) not in (Kind.DEVICE, Kind.HOST):
                    return False
                picked = True
            elif isinstance(node, ast.Call):
                if node.keywords:
                    return False
                pending.extend(node.args)  # int(...), np.ceil(...): the callee is no operand
            elif isinstance(node, (ast.BinOp, ast.UnaryOp)):
                pending.extend(ast.iter_child_nodes(node))
            elif isinstance(node, ast.Name) and depth < 4:
                values = [b.value for b in model.reaching_bindings(node) if b.kind is BindKind.VALUE and b.value is not None]
                if not values or not all(self._read_from_values(v, depth + 1) for v in values):
                    return False
                picked = True  # m = 2 * n, n read from the data
            elif not isinstance(node, (ast.operator, ast.unaryop)):
                return False
        return picked

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
                        for name in walk(part):
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
        if model.work(frame).work is Work.ROW and not self._picks_only_vectors(frame):
            rank = max(rank, 2)  # each iteration works on a row of a 2-D table
        self._ranks[key] = rank
        return rank

    def _picks_only_vectors(self, frame: LoopFrame) -> bool:
        """Is every array the loop's own index picks from known to be 1-D?
        Then a slice in its body (``t_exit[0:i]``, a prefix) is part of one
        vector, not a row of a table, and the loop walks E elements."""
        model = self.model
        ranks = set()
        for sub in self._picked(frame):
            if model.is_device(sub.value):
                shape = model.shape(sub.value)
                ranks.add(len(shape) if shape else None)
        return ranks == {1}

    def _picked(self, frame: LoopFrame) -> list[ast.Subscript]:
        """The subscripts of the loop whose index the loop's own index (or a
        name it changes every pass) takes part in."""
        model = self.model
        own = model.loop_indices(frame) | model.loop_varying(frame)
        if not own:
            return []
        return [sub for sub in model.nodes_in_loop(frame, ast.Subscript)
                if any(isinstance(n, ast.Name) and n.id in own for n in walk(sub.slice))]

    def _picked_rank(self, frame: LoopFrame) -> int:
        """The most indices a subscript picked by the loop's own index takes
        (``D[n, 0]`` walks one axis of a 2-D table: each of its passes is
        one of E ** (1/2)), or the known rank of such an array."""
        model = self.model
        rank = 0
        for sub in self._picked(frame):
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


_DATA = object()


def _compared_tests(loop: ast.While) -> list[ast.Compare]:
    """The comparisons a ``while`` test joins (``n < a and m < b``: both)."""
    tests = loop.test.values if isinstance(loop.test, ast.BoolOp) else [loop.test]
    return [t for t in tests if isinstance(t, ast.Compare)]


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
