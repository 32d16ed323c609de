"""State recurrences: a few numbers, a table, a chain or a list carried between iterations.

``acc = a * acc + x[i]`` and coupled updates of a small state, a dynamic
program's table filled cell by cell (a wavefront), a Markov chain's
accepted proposal, walkers stepped one at a time, a value computed from the
last item of a list the loop appends to (:class:`StateRecurrences`, a mixin
of :class:`~cpn_lint.model.dependence.DependenceAnalysis`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from . import numpy_api as api
from .calls import _substituted
from .kinds import Kind
from .loop_work import Work
from .loops import WorkAnalysis
from .mode_switches import mode_switches
from .object_state import ObjectState
from .iteration import fresh_in_iteration
from .recurrence_forms import (Recurrence, offset_of, _accumulating_updates, _adds_to, _chain_base, _index_names, _is_name,
                               _on_cycle, _reads_ahead, _reads_behind, _self_updated_names, _is_reduction_step)
from .scopes import BindKind
from .spatial import range_of
from .syntax import names_in, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import Binding, LoopFrame, Scope



_SIZED_BY_FIRST = frozenset({"zeros", "ones", "empty", "full", "arange"})


class StateRecurrences(ObjectState):
    """Small state, tables, chains, walkers and lists carried from one iteration to the next."""

    model: "FileModel"

    def _carried_state(self, frame: "LoopFrame") -> list[Recurrence]:
        """A few numbers updated from themselves, not by addition, in a loop
        that works on device values element by element."""
        model = self.model
        found: list[Recurrence] = []
        coupled = self._coupled(frame)
        relayed = self._relayed(frame)
        alternating = self._alternating(frame)
        rebound = self._rebound_through(frame)
        switched = mode_switches(self, frame)
        for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
            for name in [*_self_updated_names(stmt), *coupled.get(id(stmt), ()), *relayed.get(id(stmt), ()),
                         *alternating.get(id(stmt), ()), *rebound.get(id(stmt), ()), *switched.get(id(stmt), ())]:
                small = name in relayed.get(id(stmt), ()) or self._small_state(name, stmt) \
                    or self._carried_element(frame, stmt, name) or self._few_numbers_on_object(stmt, name, frame)
                per_row = name in coupled.get(id(stmt), ()) and self._steps_through_rows(frame, sized_too=small)
                if not (small or per_row) or self._restarted(frame, name) or fresh_in_iteration(model, stmt, frame, name):
                    continue  # (a line search's step, shrunk from the value this pass set, is no carried state)
                if self._accumulated_by_helper(stmt, name):
                    continue
                found.append(Recurrence(frame, stmt, self._stored_into(frame, name) or name, name,
                                        "scalar" if self._is_number(name, stmt) else "state", per_row))
                break
        return found if found and self._touches_device_values(frame) else []

    def _rebound_through(self, frame: "LoopFrame") -> dict[int, list[str]]:
        """Names rebound from a value the same pass computed from them
        (``lam_prev = l0 + (lam - l0) * np.exp(-b * dt)`` then ``lam =
        lam_prev + a``): the name's update, written in two steps, and not a
        sum or product once the step is put in (a reduction stays one).
        Keyed by the id of the rebinding statement."""
        found: dict[int, list[str]] = {}
        numbers: set[str] | None = None
        for stmt in self.model.nodes_in_loop(frame, ast.Assign):
            if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
                continue
            name = stmt.targets[0].id
            if name in names_in(stmt.value):
                continue  # updated from itself directly: _self_updated_names' case
            if self.model.kind(stmt.targets[0]) not in (Kind.SCALAR, Kind.DEVICE_SCALAR):
                numbers = self._branched_numbers(frame) if numbers is None else numbers
                if name not in numbers:
                    continue  # only a number: vectors rebound in two steps are whole-array iterations (CG)
            for node in walk(stmt.value):
                if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
                    continue
                steps = [b for b in self._bound_earlier_in_pass(node, frame, (BindKind.VALUE,)) if name in names_in(b.value)]
                if len(steps) == 1 and not _is_reduction_step(_substituted(stmt.value, {node.id: steps[0].value}), name):
                    found.setdefault(id(stmt), []).append(name)
                    break
        return found

    def _alternating(self, frame: "LoopFrame") -> dict[int, list[str]]:
        """Names each rebound from the other (``x = draw(f(y))`` then ``y =
        draw(g(x))``, a Gibbs sampler; ``a, b = b, a + b`` spelled in two
        statements): ``y`` depends on its own last value through ``x``,
        which no single statement shows. Keyed by the rebinding's id."""
        model = self.model
        found: dict[int, list[str]] = {}
        for stmt in model.nodes_in_loop(frame, ast.Assign):
            if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name) or model.loop_of(stmt) is not frame:
                continue
            name = stmt.targets[0].id
            if name in names_in(stmt.value):
                continue  # x = f(x): the statement shows it (_self_updated_names)
            if model.kind(stmt.targets[0]) not in (Kind.SCALAR, Kind.DEVICE_SCALAR):
                continue  # numbers only: an array handed back and forth (u = w) is a buffer swap
            if name in self._term_names(stmt.value, frame, stmt) and self._carried(frame, name):
                found.setdefault(id(stmt), []).append(name)
        return found

    def _table_wavefront(self, frame: "LoopFrame") -> list[Recurrence]:
        """``D[i, j] = min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1]) + c``
        in a table of any kind (a dict keyed by pairs too), whatever order
        the loop hands out ``(i, j)``: each cell reads cells behind it on
        every axis, a dynamic program's wavefront."""
        model = self.model
        node = frame.node
        if not isinstance(node, (ast.For, ast.AsyncFor)):
            return []
        own = names_in(node.target)  # for i, j in window: the cell is the loop's own
        for stmt in model.nodes_in_loop(frame, ast.Assign):
            if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Subscript):
                continue
            target = stmt.targets[0]
            base = _chain_base(target)
            written = _index_names(target)
            if base is None or written is None or len(written) < 2 or not set(written) <= own:
                continue
            reads = [r for r in walk(stmt.value) if isinstance(r, ast.Subscript) and _is_name(_chain_base(r), base.id)]
            if any(_reads_ahead(r, written) for r in reads):
                continue  # u[i, j] from u[i - 1, j] and u[i + 1, j]: a relaxation sweep
            if any(_reads_behind(r, written) for r in reads):
                return [Recurrence(frame, stmt, base.id, base.id, "element")]
        return []

    def _relayed(self, frame: "LoopFrame") -> dict[int, list[str]]:
        """Names rebound from the element the same iteration stored from them
        (``out[i] = a * x[i] + (1 - a) * buf``, then ``buf = out[i]``): one
        element carried to the next iteration through the array. Keyed by
        the id of the rebinding statement."""
        model = self.model
        found: dict[int, list[str]] = {}
        for stmt in model.nodes_in_loop(frame, ast.Assign):
            target, value = (stmt.targets[0] if len(stmt.targets) == 1 else None), stmt.value
            if not (isinstance(target, ast.Name) and isinstance(value, ast.Subscript)):
                continue
            if model.kind(value) is not Kind.DEVICE_SCALAR:
                continue
            if any(target.id in names_in(earlier.value) for earlier in self._stores_before(frame, value)):
                found.setdefault(id(stmt), []).append(target.id)
        return found

    def _carried_element(self, frame: "LoopFrame", stmt: ast.stmt, name: str) -> bool:
        """Is ``name`` one element by the loop's own measure: started before
        the loop from a fixed pick of an array the loop picks elements of
        (``acc = x[0]`` beside ``x[t]``), and rebound in it from element work?"""
        model = self.model
        value = getattr(stmt, "value", None)
        use = next((n for n in walk(value) if isinstance(n, ast.Name) and n.id == name), None) if value is not None else None
        if use is None:
            return False
        return model.derived(WorkAnalysis, WorkAnalysis).carried_size(frame, use) is Work.ELEMENT

    def _coupled(self, frame: "LoopFrame") -> dict[int, list[str]]:
        """Names a loop adds to (``v = v + a * dt``, ``r += v * dt``) whose
        added term depends, through what the iteration computes, on state
        the loop carries in a cycle: ``a`` is computed from ``r`` and ``r``
        from ``v`` — a leapfrog step, not a sum ``np.sum`` could replace;
        likewise a product whose factor comes from the name itself (the
        Levinson error ``P = P * (1 - k ** 2)`` with ``k = -s / P``). (A clock, ``t += dt``, depends on nothing carried; a sum of a clock,
        ``s += f(t)``, closes no cycle.) Keyed by statement id."""
        model = self.model
        updates: dict[str, list[tuple[ast.stmt, set[str]]]] = {}
        statements = model.nodes_in_loop(frame, ast.Assign, ast.AugAssign)
        for stmt in statements:
            for name, term in _accumulating_updates(stmt) + self._accumulated_own_state(stmt) + _element_accumulations(stmt):
                updates.setdefault(name, []).append((stmt, self._term_names(term, frame, stmt)))
        if not updates:
            return {}
        for name, stmt, test in self._threshold_resets(frame, statements, updates):
            updates[name].append((stmt, names_in(test)))
        carried = set(updates)
        for stmt in statements:
            carried.update(_self_updated_names(stmt))
        edges = {name: {n for _, deps in items for n in deps} & carried for name, items in updates.items()}
        found: dict[int, list[str]] = {}
        for name, items in updates.items():
            if _on_cycle(name, edges):
                for stmt, _ in items:
                    found.setdefault(id(stmt), []).append(name)
        return found

    def _threshold_resets(self, frame: "LoopFrame", statements: list[ast.stmt],
                          updates: dict[str, list[tuple[ast.stmt, set[str]]]]) -> list[tuple[str, ast.stmt, ast.expr]]:
        """``V = reset`` under ``if V > threshold`` for a name the loop
        accumulates by more than a constant (``V *= alpha``, ``V += w``): an
        integrate-and-fire step. Whether the name starts again depends on
        its own value, so the sum is no reduction. (A counter moved by
        constants and wrapped, ``k += 1`` ... ``k = 0``, is an index.)"""
        model = self.model
        moved = {name for name, items in updates.items()
                 if any(not (isinstance(stmt, ast.AugAssign) and model.const_int(stmt.value) is not None) for stmt, _ in items)}
        found: list[tuple[str, ast.stmt, ast.expr]] = []
        for stmt in statements:
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
                continue
            name = stmt.targets[0].id
            if name not in moved or name in names_in(stmt.value):
                continue
            for test in self._deciding_tests(stmt, frame):
                if name in names_in(test):
                    found.append((name, stmt, test))
        return found

    def _steps_through_rows(self, frame: "LoopFrame", sized_too: bool = False) -> bool:
        """A ``for k in range(len(x))`` (``range(x.shape[0])``, a name bound to
        one: the extent of an array handed in or loaded) whose body picks
        ``x[k]``: one pass per sample or row of the data. State updated from itself in such a loop (an adaptive
        filter's weights, ``w += mu * e[k] * x[k]`` with ``e[k]`` from
        ``w``) is stepped once per sample, whatever its own size: a time
        loop's steps are not the data's rows. With ``sized_too`` (state of a
        few numbers), a bound that sizes the data's allocations counts too
        (``out = np.zeros(N)``, ``for n in range(N)``). The rows must be read,
        from an array the loop does not write: a time loop that only stores
        its history (``hist[n] = x``) steps through no data."""
        node = frame.node
        call, _ = range_of(self.model, frame)
        if call is None or len(call.args) > 2 or not (isinstance(node, ast.For) and isinstance(node.target, ast.Name)):
            return False
        bound = call.args[-1]
        if not (self._input_extent_bases(bound) or (sized_too and self._sizes_an_allocation(bound))):
            return False
        var = node.target.id
        subscripts = self.model.nodes_in_loop(frame, ast.Subscript)
        written = {n.value.id for n in subscripts if not isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name)}
        return any(isinstance(n.ctx, ast.Load) and _is_name(n.slice, var) and isinstance(n.value, (ast.Name, ast.Attribute))
                   and not (isinstance(n.value, ast.Name) and n.value.id in written) for n in subscripts)

    def _sizes_an_allocation(self, bound: ast.expr) -> bool:
        """``N`` in ``for n in range(N)`` beside ``np.zeros(N)`` or ``np.linspace(0, T, N)``."""
        if not isinstance(bound, ast.Name):
            return False
        model = self.model
        for call in model.nodes(ast.Call):
            api = model.call_api(call)
            sized = call.args[2:3] if api == "linspace" else call.args[:1] if api in _SIZED_BY_FIRST else []
            if any(_is_name(a, bound.id) or (isinstance(a, ast.Tuple) and any(_is_name(e, bound.id) for e in a.elts)) for a in sized):
                return True
        return False

    def _term_names(self, term: ast.expr, frame: "LoopFrame", stmt: ast.stmt, depth: int = 0) -> set[str]:
        """The names ``term`` reads, and those the values it reads were
        computed from earlier in the same iteration: through names bound in
        the loop, and through elements it stored (``e[k] = d[k] - y[k]``
        before ``w += mu * e[k] * x[k]``)."""
        names = (names_in(term) - self._sized_only(term)) | self._attribute_reads(term)
        if depth >= 3:
            return names
        found = set(names)
        for node in walk(term):
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
                for store in self._stores_before(frame, node) + self._stores_read_by_window(frame, node):
                    found |= self._term_names(store.value, frame, stmt, depth + 1)
                for item in self._appended_before(frame, node):
                    found |= self._term_names(item, frame, stmt, depth + 1)  # options[k] of options.append((y, x - 1))
                continue
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                for store in self._attribute_stores_before(frame, node):
                    found |= self._term_names(store.value, frame, stmt, depth + 1)  # self.Es_ computed from self.S_
                    for test in self._deciding_tests(store, frame):
                        found |= self._term_names(test, frame, stmt, depth + 1)
                continue
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
                continue
            for binding in self._bound_earlier_in_pass(node, frame, (BindKind.VALUE, BindKind.ELEMENT)):
                found |= self._term_names(binding.value, frame, stmt, depth + 1)  # type: ignore[arg-type]
                for test in self._deciding_tests(binding.node, frame):
                    found |= self._term_names(test, frame, stmt, depth + 1)
        return found

    def _sized_only(self, term: ast.expr) -> set[str]:
        """Names ``term`` reads only for their size (``np.zeros_like(u)``,
        ``u.shape``, ``len(u)``): no value flows from them."""
        found = self._sized.get(id(term))  # type: ignore[attr-defined]
        if found is None:
            found = self._sized[id(term)] = self._find_sized_only(term)  # type: ignore[attr-defined]
        return found

    def _find_sized_only(self, term: ast.expr) -> set[str]:
        model = self.model
        sized: set[str] = set()
        valued: set[str] = set()
        for node in walk(term):
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
                continue
            parent = model.parent(node)
            if (isinstance(parent, ast.Attribute) and parent.attr in ("shape", "size", "ndim", "dtype")) \
                    or (isinstance(parent, ast.Call) and parent.args and parent.args[0] is node
                        and (model.call_api(parent) in api.LIKE or _is_name(parent.func, "len"))):
                sized.add(node.id)
            else:
                valued.add(node.id)
        return sized - valued

    def _appended_before(self, frame: "LoopFrame", read: ast.Subscript) -> list[ast.expr]:
        """What the same pass appended, before ``read``, to the list ``read``
        picks from (``neighbours.append([(y, x - 1), (y, x - 2)])``)."""
        if not isinstance(read.value, ast.Name):
            return []
        name = read.value.id
        return [call.args[0] for call in self.model.nodes_in_loop(frame, ast.Call)
                if isinstance(call.func, ast.Attribute) and call.func.attr == "append" and len(call.args) == 1
                and _is_name(call.func.value, name) and (call.lineno, call.col_offset) < (read.lineno, read.col_offset)]

    def _deciding_tests(self, node: ast.AST, frame: "LoopFrame") -> list[ast.expr]:
        """The ``if`` tests inside ``frame`` that decide whether ``node``
        runs: ``v_quant = Vref`` under ``if x[n] - v1 > 0`` takes its value
        from ``v1`` as surely as an assignment reading it would."""
        model = self.model
        tests: list[ast.expr] = []
        child, parent = node, model.parent(node)
        while parent is not None and parent is not frame.node:
            if isinstance(parent, ast.If) and child is not parent.test:
                tests.append(parent.test)
            elif isinstance(parent, ast.IfExp) and child is not parent.test:
                tests.append(parent.test)
            child, parent = parent, model.parent(parent)
        return tests if parent is frame.node else []

    def _accumulated_by_helper(self, stmt: ast.stmt, name: str) -> bool:
        """``flow = count_crossing(speed, x, flow)`` where the function of the
        file only adds to that parameter and returns it: a counter, which a
        sum replaces, not a recurrence."""
        value = getattr(stmt, "value", None)
        if not isinstance(value, ast.Call):
            return False
        model = self.model
        callee = model.calls.callee(value)
        if callee is None or not callee.returns:
            return False
        given = [p for p in callee.params if _is_name(model.calls.argument(value, callee, p), name)]
        passed = [*value.args, *(k.value for k in value.keywords)]
        if len(given) != 1 or sum(name in names_in(a) for a in passed) != 1:
            return False  # flow = f(flow, flow * k): more than a hand-over
        param = given[0]
        if not all(_is_name(returned, param) for returned in callee.returns):
            return False
        updates = [b for b in callee.bindings.get(param, ()) if b.kind is not BindKind.PARAM]
        return all(_adds_to(b.node, param, model) for b in updates)

    def _chains(self, frame: "LoopFrame") -> list[Recurrence]:
        """A few parameters accepted or rejected against a random draw every
        step, read again by the next step: a Markov chain."""
        model = self.model
        found: list[Recurrence] = []
        for branch in model.nodes_in_loop(frame, ast.If):
            if model.loop_of(branch) is not frame or not self._tests_random_draw(branch.test, frame):
                continue
            for stmt in [s for block in (branch.body, branch.orelse) for s in block]:
                if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
                    continue
                target = stmt.targets[0]
                # x = cand, or x, e = cand, e_cand (the state and its score accepted together)
                names = [target] if isinstance(target, ast.Name) else \
                    [t for t in target.elts if isinstance(t, ast.Name)] if isinstance(target, ast.Tuple) else []
                for node in names:
                    if self._carried(frame, node.id) and self._small_state(node.id, stmt, by_size=True, unknown_ok=True):
                        found.append(Recurrence(frame, stmt, node.id, node.id, "chain"))
                        return found
            site = self._accepted_site(branch, frame)
            if site is not None:
                return [site]
        return self._site_chain_in_helper(frame)

    def _site_chain_in_helper(self, frame: "LoopFrame") -> list[Recurrence]:
        """``swap(x, y, b)`` every step, where the function of the file swaps
        two entries at drawn positions of a state it keeps (a parameter or
        a module name) and accepts or rejects the move against a draw
        (``if random() < exp(-b * delta):``): a Markov chain run through a
        helper, as sequential as one written in the loop."""
        model = self.model
        for call in model.nodes_in_loop(frame, ast.Call):
            callee = model.calls.callee(call) if model.loop_of(call) is frame else None
            if callee is None:
                continue
            params = set(callee.params)
            for branch in (n for n in walk(callee.node) if isinstance(n, ast.If)):
                if not any(isinstance(n, ast.Call) and self._is_draw(n) for n in walk(branch.test)):
                    continue
                for stmt in branch.body:
                    state = self._helper_site_store(stmt, callee, call, frame)
                    if state is not None and (state in params or state not in callee.bindings):
                        given = model.calls.argument(call, callee, state) if state in params else None
                        name = given.id if isinstance(given, ast.Name) else state  # the loop's own name for it
                        return [Recurrence(frame, model.statement_of(call) or stmt, name, name, "site")]
        return []

    def _helper_site_store(self, stmt: ast.stmt, callee: "Scope", call: ast.Call, frame: "LoopFrame") -> str | None:
        """The state a helper's statement stores into at drawn positions
        (``x[i], x[j] = x[j], x[i]`` with ``i = random.randint(0, 9)`` in the
        helper, or ``s[i, j] = -s[i, j]`` with ``i, j`` drawn by the loop)."""
        if not isinstance(stmt, ast.Assign):
            return None
        targets = [e for t in stmt.targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
        for target in targets:
            if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)):
                continue
            names = [n for n in walk(target.slice) if isinstance(n, ast.Name)]
            if names and all(self._drawn_for_helper(n.id, callee, call, frame) for n in names):
                return target.value.id
        return None

    def _drawn_for_helper(self, name: str, callee: "Scope", call: ast.Call, frame: "LoopFrame") -> bool:
        """Is ``name`` drawn in the helper, or a parameter the loop hands a draw?"""
        model = self.model
        made = [b for b in callee.bindings.get(name, ()) if b.kind is BindKind.VALUE]
        if made:
            return all(isinstance(b.value, ast.Call) and self._is_draw(b.value) for b in made)
        if name not in callee.params:
            return False
        given = model.calls.argument(call, callee, name)
        return isinstance(given, ast.Name) and self._drawn_here(given, frame)

    def _accepted_site(self, branch: ast.If, frame: "LoopFrame") -> Recurrence | None:
        """``S[x, y] = -S[x, y]`` accepted against a draw, at a site ``x, y``
        drawn this step, of an array the loop reads: single-site Metropolis.
        The next step's proposal is judged on the state this one left, so the
        steps form one chain however large the lattice is."""
        model = self.model
        for stmt in [s for block in (branch.body, branch.orelse) for s in block]:
            if not isinstance(stmt, (ast.Assign, ast.AugAssign)):
                continue
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and model.is_array(target.value)):
                    continue
                index_names = [n for n in walk(target.slice) if isinstance(n, ast.Name)]
                if index_names and all(self._drawn_here(n, frame) for n in index_names) \
                        and self._draw_decides(branch.test, frame, {n.id for n in index_names}) \
                        and self._read_in_loop(frame, target.value.id, target):
                    return Recurrence(frame, stmt, target.value.id, target.value.id, "site")
        return None

    def _draw_decides(self, test: ast.expr, frame: "LoopFrame", site: set[str]) -> bool:
        """Does a draw other than the site's own indices decide ``test``
        (``np.random.random() < np.exp(-b * dE)``)? A flip made whenever the
        energy drops is a greedy quench, judged as an element loop."""
        for node in walk(test):
            if isinstance(node, ast.Call) and self._is_draw(node):
                return True
            if isinstance(node, ast.Name) and node.id not in site and any(
                    b.loop is not None and frame.contains(b.loop) and isinstance(b.value, ast.Call) and self._is_draw(b.value)
                    for b in self.model.reaching_bindings(node)):
                return True  # accept = 1 if dE < 0 else np.random.binomial(1, p)
        return False

    def _drawn_here(self, name: ast.Name, frame: "LoopFrame") -> bool:
        """Is every value ``name`` holds here drawn at random in this loop
        (``x = np.random.randint(0, N)``, ``i, j = rng.integers(0, L, 2)``)?"""
        bindings = self.model.reaching_bindings(name)
        return bool(bindings) and all(
            b.loop is not None and frame.contains(b.loop) and isinstance(b.value, ast.Call) and self._is_draw(b.value)
            for b in bindings)

    def _read_in_loop(self, frame: "LoopFrame", array: str, store: ast.expr) -> bool:
        return any(isinstance(n, ast.Name) and n.id == array and isinstance(n.ctx, ast.Load) and n is not store.value
                   for n in self.model.nodes_in_loop(frame, ast.Name))

    def _walkers(self, frame: "LoopFrame") -> list[Recurrence]:
        """A position carried from step to step that picks elements of an
        array: a walker on a lattice, a particle reading the field where it
        is (``pos[k] += step`` ... ``lattice[pos[0], pos[1]]``). Each step
        starts where the last one ended, so the walk is sequential; a counter
        moved by a constant (``i += 1``) is an index, not a walker."""
        model = self.model
        counters = self._own_counters(frame)
        updated: dict[str, ast.stmt] = {}
        moved: set[str] = set()  # rebound to a site the pass computed from them: a move, never a stride
        for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
            for name in _self_updated_names(stmt):
                updated.setdefault(name, stmt)
            target = getattr(stmt, "target", None)
            if isinstance(target, ast.Name) and isinstance(stmt, ast.AugAssign):
                updated.setdefault(target.id, stmt)  # pos += step
            unpacking = isinstance(stmt, ast.Assign) and any(isinstance(t, (ast.Tuple, ast.List)) for t in stmt.targets)
            for name in _unpacked_from_itself(stmt, self._term_names(stmt.value, frame, stmt)) if unpacking else ():  # type: ignore[arg-type]
                updated.setdefault(name, stmt)  # y, x = step with step one of the moves from (y, x)
                moved.add(name)
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                updated.setdefault(target.value.id, stmt)  # pos[k] += step
        varying = model.loop_varying(frame)
        for name, stmt in updated.items():
            if name in counters or not self._carried(frame, name) or self._restarted(frame, name):
                continue
            value = getattr(stmt, "value", None)
            moved_by = names_in(value) - {name} if value is not None else set()
            if not (name in moved or moved_by & varying or any(isinstance(n, ast.Call) for n in walk(value or ast.Pass()))
                    or (value is not None and (self._term_names(value, frame, stmt) - {name}) & varying)):
                continue  # moved by a step the loop does not change (i += k): an index with a stride
            if not self._small_state(name, stmt, by_size=True):
                continue
            for sub in model.nodes_in_loop(frame, ast.Subscript):
                base = sub.value
                if not isinstance(sub.ctx, ast.Load) or not isinstance(base, ast.Name) or base.id == name:
                    continue
                reads = names_in(sub.slice)
                if name not in reads and not isinstance(sub.slice, ast.Name):
                    continue
                if name not in reads:  # Z[next_2]: a site the pass computed from the position
                    reads = self._term_names(sub.slice, frame, model.statement_of(sub) or stmt)
                if name in reads and model.is_array(base) and not self._small_state(base.id, stmt, by_size=True):
                    return [Recurrence(frame, stmt, base.id, name, "walker")]
        return []

    def _table_walkers(self, frame: "LoopFrame") -> list[Recurrence]:
        """A table updated where a carried site stands, from its entries at
        another site (``Q[s][a] += alpha * (r + g * Q[s2][b] - Q[s][a])``,
        then ``s = s2``): temporal-difference learning, value propagation
        along a walk. Each update reads what earlier steps wrote, at sites the
        walk itself chose, so the steps form one chain. (``H[s] += 1`` reads
        no other entry: a histogram, not a chain.)"""
        model = self.model
        counters = self._own_counters(frame)
        for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
            target = stmt.target if isinstance(stmt, ast.AugAssign) else stmt.targets[0] if len(stmt.targets) == 1 else None
            base = _chain_base(target) if isinstance(target, ast.Subscript) else None
            if base is None:
                continue
            sites = [n.id for n in walk(target) if isinstance(n, ast.Name) and n is not base]
            walking = [s for s in sites if s not in counters and s not in model.loop_indices(frame)
                       and self._carried(frame, s) and self._relayed_site(frame, s)]
            if not walking:
                continue
            written = ast.dump(target)
            if any(isinstance(r, ast.Subscript) and _is_name(_chain_base(r), base.id) and ast.dump(r) != written
                   and not isinstance(model.parent(r), ast.Subscript) for r in self._iteration_reads(stmt.value, frame)):
                return [Recurrence(frame, stmt, base.id, walking[0], "walker", holds_beside_slabs=True)]
        return []

    def _iteration_reads(self, expr: ast.expr, frame: "LoopFrame", depth: int = 0) -> list[ast.AST]:
        """The nodes ``expr`` reads, and those of the values the same pass
        bound to the names it reads (``td = r + g * Q[s2][b] - Q[s][a]``
        read by ``Q[s][a] += alpha * td``)."""
        nodes: list[ast.AST] = list(walk(expr))
        if depth >= 3:
            return nodes
        for node in list(nodes):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                for binding in self._bound_earlier_in_pass(node, frame, (BindKind.VALUE,)):
                    nodes += self._iteration_reads(binding.value, frame, depth + 1)  # type: ignore[arg-type]
        return nodes

    def _bound_earlier_in_pass(self, node: ast.Name, frame: "LoopFrame", kinds: tuple[BindKind, ...]) -> "list[Binding]":
        """The bindings of ``node`` (of ``kinds``, with a value) that the same
        pass of ``frame`` made before it: what it reads was computed there."""
        return [b for b in self.model.reaching_bindings(node)
                if b.kind in kinds and b.value is not None and b.loop is not None and frame.contains(b.loop)
                and b.pos < (node.lineno, node.col_offset)]

    def _relayed_site(self, frame: "LoopFrame", name: str) -> bool:
        """Is ``name`` rebound in the loop from another name the same pass
        got from the data or a step (``state = next_state`` with ``next_state``
        from ``env.step(a)``; ``s = r`` with ``r = parent[r]``)? A stride the
        pass doubles (``stride = divs`` with ``divs = divs * 2``) is not a walk."""
        model = self.model
        for stmt in model.nodes_in_loop(frame, ast.Assign):
            if len(stmt.targets) == 1 and _is_name(stmt.targets[0], name) and isinstance(stmt.value, ast.Name):
                if any(b.loop is not None and frame.contains(b.loop) and b.name != name and b.value is not None
                       and _from_data_or_a_step(b.value) for b in model.reaching_bindings(stmt.value)):
                    return True
        return False

    def _list_carried(self, frame: "LoopFrame") -> list[Recurrence]:
        """``x = path[-1]`` (``path[t - 1]`` in ``for t``) ... ``path.append(f(x))``:
        each value from the last."""
        model = self.model
        appended: dict[str, tuple[ast.expr, ast.AST]] = {}  # container -> (the item, the append)
        for call in model.nodes_in_loop(frame, ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr == "append" and isinstance(func.value, ast.Name) and call.args:
                appended[func.value.id] = (call.args[0], call)
        for push in model.nodes_in_loop(frame, ast.AugAssign):  # out += [item]
            if isinstance(push.target, ast.Name) and isinstance(push.op, ast.Add) and isinstance(push.value, ast.List) \
                    and len(push.value.elts) == 1:
                appended[push.target.id] = (push.value.elts[0], push)
        for stmt in model.nodes_in_loop(frame, ast.Assign):
            value = stmt.value
            if isinstance(value, ast.IfExp):  # last = out[t - 1] if t > 0 else 0.0
                value = value.body if isinstance(value.body, ast.Subscript) else value.orelse
            if not (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id in appended):
                continue
            if not self._last_appended(value.slice, frame) or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
                continue
            name = stmt.targets[0].id
            item = appended[value.value.id][0]
            if name in names_in(item) and self._not_large(item) and self._touches_device_values(frame):
                return [Recurrence(frame, stmt, value.value.id, name, "list")]
        for container, (item, push) in appended.items():
            # buf.append(a * (buf[0] + buf[1])): each item from the items before it (a delay line)
            if any(isinstance(r, ast.Subscript) and _is_name(r.value, container) for r in self._iteration_reads(item, frame)) \
                    and self._not_large(item) and self._touches_device_values(frame):
                stmt = push if isinstance(push, ast.stmt) else model.statement_of(push)
                if stmt is not None:
                    return [Recurrence(frame, stmt, container, container, "list")]
        return []

    def _stack_carried(self, frame: "LoopFrame") -> list[Recurrence]:
        """A stack the loop pushes onto and pops from as the items on top
        decide (``residue += [x]``, then ``del residue[-3]`` while the last
        four items pass a test: rainflow counting; a monotonic stack): what
        a pass pops depends on what the passes before left on it."""
        model = self.model
        pushed: set[str] = set()
        for stmt in model.nodes_in_loop(frame, ast.AugAssign):
            if isinstance(stmt.target, ast.Name) and isinstance(stmt.op, ast.Add) and isinstance(stmt.value, ast.List):
                pushed.add(stmt.target.id)
        for call in model.nodes_in_loop(frame, ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr == "append" and isinstance(func.value, ast.Name):
                pushed.add(func.value.id)
        if not pushed:
            return []
        for removal, stack in self._removals(frame, pushed):
            tests = self._deciding_tests(removal, frame) + self._while_tests(removal, frame)
            if any(isinstance(node, ast.Subscript) and _is_name(node.value, stack)
                   for test in tests for node in self._iteration_reads(test, frame)) and self._touches_device_values(frame):
                return [Recurrence(frame, removal, stack, stack, "list")]
        return []

    def _removals(self, frame: "LoopFrame", stacks: set[str]) -> list[tuple[ast.stmt, str]]:
        """``del s[k]`` and ``s.pop(...)`` statements in ``frame`` for the names in ``stacks``."""
        model = self.model
        found: list[tuple[ast.stmt, str]] = []
        for stmt in model.nodes_in_loop(frame, ast.Delete):
            for target in stmt.targets:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id in stacks:
                    found.append((stmt, target.value.id))
        for call in model.nodes_in_loop(frame, ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr == "pop" and isinstance(func.value, ast.Name) \
                    and func.value.id in stacks and (stmt := model.statement_of(call)) is not None:
                found.append((stmt, func.value.id))
        return found

    def _while_tests(self, node: ast.AST, frame: "LoopFrame") -> list[ast.expr]:
        """The tests of the ``while`` loops inside ``frame`` around ``node``
        (``while stack and a[stack[-1]] < x``)."""
        tests: list[ast.expr] = []
        for parent in self.model.ancestors(node):
            if parent is frame.node:
                break
            if isinstance(parent, ast.While):
                tests.append(parent.test)
        return tests

    def _last_appended(self, index: ast.expr, frame: "LoopFrame") -> bool:
        """``-1``, or the loop's index minus one (one append per pass)."""
        if self.model.const_int(index) == -1:
            return True
        node = frame.node
        return isinstance(node, ast.For) and isinstance(node.target, ast.Name) and offset_of(index, node.target.id) == -1


def _element_accumulations(stmt: ast.stmt) -> list[tuple[str, ast.expr]]:
    """(name, term) for ``v[i] -= f / m[i] * h``: an element of ``v`` moved
    by a term that does not read ``v``."""
    if not (isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Subscript)
            and isinstance(stmt.op, (ast.Add, ast.Sub, ast.Mult, ast.Div))):
        return []
    base = _chain_base(stmt.target)
    if base is None or base.id in names_in(stmt.value):
        return []
    return [(base.id, stmt.value)]


_ARITHMETIC_CALLS = frozenset({"int", "float", "round", "abs", "min", "max", "len"})


def _from_data_or_a_step(value: ast.expr) -> bool:
    """Does ``value`` read an element or call something beyond arithmetic?"""
    return any(isinstance(n, ast.Subscript) or (isinstance(n, ast.Call) and not (
        isinstance(n.func, ast.Name) and n.func.id in _ARITHMETIC_CALLS)) for n in walk(value))


def _unpacked_from_itself(stmt: ast.Assign, sources: set[str]) -> list[str]:
    """The names a tuple assignment rebinds from values the pass computed
    from them (``y, x = next_2`` with ``next_2`` a move from ``(y, x)``)."""
    found: list[str] = []
    for target in stmt.targets:
        if isinstance(target, (ast.Tuple, ast.List)):
            found += [e.id for e in target.elts if isinstance(e, ast.Name) and e.id in sources]
    return found
