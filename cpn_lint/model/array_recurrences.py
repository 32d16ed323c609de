"""Array recurrences: an element (or a view) written from one an earlier iteration wrote.

``y[n] = a * y[n - 1] + x[n]``, a Gauss-Seidel sweep reading ``u[i - 1,
j]`` and ``u[i + 1, j]``, ``walk[:, t]`` from ``walk[:, t - 1]`` (a slab:
time stepping, not a recurrence): the reads feeding each store, followed
through names and views, with the lags of inner loops
(:class:`ArrayRecurrences`, a mixin of
:class:`~cpn_lint.model.dependence.DependenceAnalysis`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .loop_helpers import _CONTRACTIONS
from .loop_work import SMALL_PICK
from .recurrence_forms import (_Form, _chain_base, _chain_components, _flows, _form, _is_name, _offset, _with_lags,
                               offset_of, unwrapped)
from .scopes import BindKind, IterKind
from .shapes import literal_size
from .spatial import counter_step, direction, linear, offset_from, range_of
from .syntax import index_components, names_in, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import LoopFrame



# How many names back a stored value is followed to the picks that feed it
# (``v = min(vs)``, ``vs = [a for a in pair if a > 1]``, ``pair = [c3, c5]``,
# ``c3 = label[y - 1, x]``).
_FEED_DEPTH = 5


# NumPy calls that combine every element of an operand into the result
_WHOLE_READS = _CONTRACTIONS | {"sum"}


class ArrayRecurrences:
    """Elements and views written from ones an earlier iteration wrote."""

    model: "FileModel"

    def _array_recurrences(self, frame: "LoopFrame") -> list[tuple[ast.stmt, str, bool]]:
        """(statement, array, element-sized?) for writes that read what an
        earlier iteration of ``frame`` wrote, by its own index variables:
        an element (``y[n - 1]``; ``y[i + 1]`` in a loop that counts down)
        or a window of the last few (``y[n - 3:n]``), also through a view
        made before the loop (``d1 = d0[1:, 1:]``; ``d1[i, j] += min(d0[i,
        j], ...)``). A growing prefix (``x[:i]`` in forward substitution) is
        not element-sized state: such a loop is a spatial element loop."""
        model = self.model
        index_vars = set(frame.index_vars)
        if frame.iter_kind is IterKind.WHILE:
            index_vars |= {v for v in model.loop_varying(frame) if counter_step(model, frame, v) is not None}
        if not index_vars:
            return []
        index_vars |= self._shifted_indices(frame, index_vars)
        inner_indices = {name for f in model.loops_within(frame) for name in model.loop_indices(f)}
        outer = frozenset(name for f in frame.chain()[1:] for name in model.loop_indices(f))
        # A pass that reads the elements before it (x[j], j < i) is a sweep of
        # an iterative solver when a loop around repeats it (Gauss-Seidel);
        # run once, it is a substitution, a spatial loop (SPEC section 3).
        repeated = len(frame.chain()) > 1
        candidates: list[tuple[ast.stmt, str, str, str, ast.Subscript]] = []
        relaxed: set[tuple[str, str]] = set()
        sweeping: dict[int, tuple[ast.stmt, str]] = {}  # relaxed in place: Gauss-Seidel, SOR
        for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
            value = stmt.value  # type: ignore[attr-defined]
            for target in targets:
                root = _chain_base(target)
                if root is None:
                    continue
                name = root.id
                if not model.is_array(root):
                    continue
                written = self._view_forms(target, frame)
                if written is None:
                    continue
                base = written[0]
                reads = [target] if isinstance(stmt, ast.AugAssign) else []
                reads += self._picks_feeding(value, frame)
                read_forms = [forms for r in reads if r is not target and (forms := self._view_forms(r, frame)) is not None and forms[0] == base]
                for var in sorted(index_vars):
                    step = direction(model, frame, var)
                    if repeated and _offset_of_one_index(target, var) == 0 and any(
                            self._reads_earlier_elements(r, var, frame, step) for r in reads
                            if r is not target and isinstance(r, ast.Subscript) and _is_name(r.value, name)):
                        # x_new[i] from x_new[j], j < i (Gauss-Seidel by loops); Q[t] from
                        # Q[s + 1], s >= t, in a loop counting down (a backward recursion)
                        candidates.append((stmt, name, base, var, target))
                        continue
                    if repeated and _offset_of_one_index(target, var) == 0 and self._contracts_whole(value, name):
                        # x1[i] from np.dot(H[i, :], x1): every element, those this sweep wrote included (SOR)
                        candidates.append((stmt, name, base, var, target))
                        continue
                    lags = self._inner_lags(frame)
                    if any(_flows(written[1], _with_lags(forms[1], var, lags), var, step, outer) for forms in read_forms):
                        if any(_flows(written[1], forms[1], var, -step) for forms in read_forms):
                            relaxed.add((base, var))
                            # in place only when both sides are of the row this pass writes
                            # (u[t, a - 1] and u[t, a + 1] beside u[t + 1, a] are the row before)
                            if all(any(_flows(written[1], forms[1], var, sign * step, outer) for forms in read_forms) for sign in (1, -1)):
                                sweeping.setdefault(id(frame), (stmt, name))
                        candidates.append((stmt, name, base, var, target))
        # phi[i, j] from phi[i - 1, j] and phi[i + 1, j] of this very sweep:
        # an in-place relaxation (Gauss-Seidel, SOR). Each update waits for
        # the ones before it, so the sweep is sequential work (issue 30),
        # reported as a recurrence of its own form; made whole-array it is
        # another algorithm (Jacobi, red-black ordering). Judged per loop:
        # the rows of a periodic boundary (pot[0, j] for the last i) relax
        # with the others.
        diffused = self._diffused_to_neighbours(frame, index_vars)
        if diffused is not None:  # error diffusion: the pass reads what earlier pixels pushed ahead
            sweeping.setdefault(id(frame), diffused)
            candidates.append((diffused[0], diffused[1], diffused[1], "", diffused[0].target))  # type: ignore[attr-defined]
        self._relaxing.update(sweeping)
        found: list[tuple[ast.stmt, str, bool]] = []
        for stmt, name, base, var, target in candidates:
            if (base, var) in relaxed or any(s is stmt for s, _, _ in found):
                continue
            found.append((stmt, name, self._element_sized(target, var, inner_indices)))
        return found

    def _diffused_to_neighbours(self, frame: "LoopFrame", index_vars: set[str]) -> "tuple[ast.AugAssign, str] | None":
        """``a[y + dy, x + dx] += err * w`` for the taps ``(dx, dy, w)`` of a
        table, in a pass that reads ``a[y, x]``: each pixel adds to
        neighbours that later iterations read (error diffusion), so the pass
        runs in order. The write's indices are names bound in the loop to an
        index of the nest plus an item of a loop over a table."""
        model = self.model
        nest = set(index_vars) | {name for f in model.loops_within(frame) for name in model.loop_indices(f)}
        shifted = self._tap_shifted(frame, nest)
        if not shifted:
            return None
        for stmt in model.nodes_in_loop(frame, ast.AugAssign):
            target = stmt.target
            root = _chain_base(target) if isinstance(target, ast.Subscript) else None
            if root is None or not model.is_array(root):
                continue
            parts = index_components(target)
            if not parts or not all(isinstance(p, ast.Name) and p.id in shifted for p in parts):
                continue
            plain = [shifted[p.id] for p in parts]  # type: ignore[union-attr]
            if frame.index_vars and not set(plain) & set(index_vars):
                continue
            for read in model.nodes_in_loop(frame, ast.Subscript):
                if read is target or not isinstance(read.ctx, ast.Load) or not _is_name(read.value, root.id):
                    continue
                cells = index_components(read)
                if len(cells) == len(plain) and all(_is_name(c, v) for c, v in zip(cells, plain)):
                    return stmt, root.id
        return None

    def _tap_shifted(self, frame: "LoopFrame", nest: set[str]) -> dict[str, str]:
        """Names bound once in the loop to an index of the nest plus an item
        of a loop over a table (``xn = x + dx`` under ``for dx, dy, w in
        taps``), mapped to that index."""
        model = self.model
        table_items = {b.name for b in model.bindings_in_loop(frame)
                       if b.kind is BindKind.ELEMENT and b.loop is not None and b.loop is not frame
                       and not model.loop_indices(b.loop)}
        found: dict[str, str] = {}
        for binding in model.bindings_in_loop(frame):
            value = binding.value
            if binding.kind is not BindKind.VALUE or not isinstance(value, ast.BinOp) or not isinstance(value.op, ast.Add):
                continue
            sides = [value.left, value.right]
            index = next((n.id for n in sides if isinstance(n, ast.Name) and n.id in nest), None)
            tap = next((n.id for n in sides if isinstance(n, ast.Name) and n.id in table_items), None)
            if index is not None and tap is not None:
                found[binding.name] = index
        return found

    def _reads_earlier_elements(self, read: ast.Subscript, var: str, frame: "LoopFrame", step: int) -> bool:
        """``x[:i]`` (``x[i + 1:]`` counting down), or ``x[j]`` (``x[j + c]``)
        where ``j`` is the index of a loop
        inside ``frame`` that only reaches elements earlier passes of
        ``frame`` wrote: below ``var`` when ``frame`` counts up (``for j in
        range(i)``, or any ``j`` under ``if j < i:``), above it when it
        counts down (``for s in range(t, n)`` reading ``x[s + 1]``)."""
        model = self.model
        if _earlier_slice(read, var, step):
            return True  # np.dot(A[i, :i], x[:i]): the prefix this sweep already wrote
        holder = model.loop_of(read)
        for loop in model.loops_within(frame):
            if not loop.contains(holder):
                continue
            for inner in loop.index_vars:
                offset = _offset_of_one_index(read, inner)
                if offset is None:
                    continue
                call, inner_step = range_of(model, loop)
                if call is not None and inner_step > 0:
                    if step > 0 and offset <= 0 and len(call.args) <= 2 and _is_name(call.args[-1], var):
                        return True  # range(i), range(k, i): j < i
                    start = _offset(linear(call.args[0]), var) if len(call.args) >= 2 else None
                    if step < 0 and start is not None and start + offset >= 1:
                        return True  # range(t, n) read at s + 1, range(t + 1, n) at s: beyond t
                if self._guarded(read, inner, var, loop.node, step):
                    return True
        return False

    def _contracts_whole(self, value: ast.expr, name: str) -> bool:
        """Does ``value`` hand the whole array ``name`` to NumPy work or a
        matrix product (``np.dot(H[i, :], x)``, ``A[i] @ x``), not only its
        metadata (``x.shape``, ``len(x)``)?"""
        model = self.model
        for node in walk(value):
            if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
                continue
            parent = model.parent(node)
            if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.MatMult):
                return True
            if isinstance(parent, ast.Call) and node in parent.args and model.call_api(parent) in _WHOLE_READS:
                return True
        return False

    def _guarded(self, read: ast.AST, inner: str, var: str, stop: ast.AST, step: int) -> bool:
        """An ``if inner < var:`` around ``read`` (``inner > var`` when the
        loop counts down), inside ``stop``."""
        low, high = (inner, var) if step > 0 else (var, inner)
        child, node = read, self.model.parent(read)
        while node is not None and node is not stop:
            if isinstance(node, ast.If) and child in node.body and _below(node.test, low, high):
                return True
            child, node = node, self.model.parent(node)
        return False

    def _shifted_indices(self, frame: "LoopFrame", index_vars: set[str]) -> set[str]:
        """Names the body binds once to an index plus an amount the loop does
        not change (``n_offset = n + len(history)``): they step with it."""
        model = self.model
        found: set[str] = set()
        for binding in model.bindings_in_loop(frame):
            if binding.kind is not BindKind.VALUE or binding.value is None or binding.loop is not frame:
                continue
            for var in index_vars:
                rest = offset_from(unwrapped(binding.value), var)
                if rest is not None and not names_in(binding.value) - {var} & model.loop_varying(frame):
                    if len(model.scope_of(binding.node).function_like().bindings.get(binding.name, ())) == 1:
                        found.add(binding.name)
        return found

    def _inner_lags(self, frame: "LoopFrame") -> dict[str, int]:
        """The smallest positive value each index of a loop inside ``frame``
        takes (``for k in range(1, taps)``: 1; ``range(taps)``: 1 as well,
        once it gets past 0), for reads such as ``y[n - k]`` (memoised per
        loop; callers do not change the table)."""
        found = self._lags.get(id(frame))
        if found is None:
            found = self._lags[id(frame)] = self._compute_inner_lags(frame)
        return found

    def _compute_inner_lags(self, frame: "LoopFrame") -> dict[str, int]:
        from .spatial import range_of

        model = self.model
        lags: dict[str, int] = {}
        for inner in model.loops_within(frame):
            call, step = range_of(model, inner)
            target = getattr(inner.node, "target", None)
            if call is None or step < 0 or not isinstance(target, ast.Name):
                continue
            start = model.const_int(call.args[0]) if len(call.args) >= 2 else 0
            stop = model.const_int(call.args[1] if len(call.args) >= 2 else call.args[0])
            if start is None or start < 0:
                continue
            least = max(start, 1)
            if stop is not None and stop <= least:
                continue
            lags[target.id] = least
        return lags

    def _view_forms(self, sub: ast.Subscript, frame: "LoopFrame") -> "tuple[str, list[_Form]] | None":
        """The array ``sub`` reads or writes and its index as forms over that
        array's own axes: through a view made before the loop with constant
        starts (``d1 = d0[1:, 1:]``: ``d1[i, j]`` is ``d0[i + 1, j + 1]``).
        Memoised per subscript and loop (callers do not change the forms)."""
        key = (id(sub), id(frame))
        if key in self._forms:
            return self._forms[key]
        found = self._forms[key] = self._compute_view_forms(sub, frame)
        return found

    def _compute_view_forms(self, sub: ast.Subscript, frame: "LoopFrame") -> "tuple[str, list[_Form]] | None":
        root = _chain_base(sub)
        if root is None:
            return None
        name = root.id
        forms = [_form(c) for c in _chain_components(sub)]
        view = self._view_of(root, frame)
        if view is None:
            return self._alias_base(root, frame) or name, forms
        base, starts = view
        if len(forms) > len(starts):
            return None
        shifted = [f.shifted(start) for f, start in zip(forms, starts)]
        return base, shifted

    def _alias_base(self, name: ast.Name, frame: "LoopFrame") -> str | None:
        """``u`` when ``name`` holds ``u``'s values as ``frame`` runs: every
        binding that reaches it is ``u`` itself (``u0 = u``) or a copy of it
        made inside ``frame`` (``un = u.copy()`` each time step: what the
        last pass wrote). A copy made before ``frame`` starts is a snapshot
        (the old values a sweep reads), unless an alias inside ``frame``
        replaces it after the first pass."""
        if not hasattr(name, "lineno"):
            return None
        aliases: set[str | None] = set()
        snapshots: set[str | None] = set()
        for binding in self.model.reaching_bindings(name):
            aliased, copied = self._copied_or_aliased(binding.value) if binding.kind is BindKind.VALUE else (None, None)
            inside = binding.loop is not None and frame.contains(binding.loop)
            if aliased is not None and inside:
                aliases.add(aliased)
            elif copied is not None and inside:
                aliases.add(copied)
            elif copied is not None or aliased is not None:
                snapshots.add(copied or aliased)
            else:
                return None
        if len(aliases) != 1 or not snapshots <= aliases:
            return None
        base = aliases.pop()
        return base if base != name.id else None

    def _copied_or_aliased(self, value: ast.expr | None) -> tuple[str | None, str | None]:
        """(the array ``value`` names, the array it copies)."""
        if isinstance(value, ast.Name):
            return value.id, None
        if isinstance(value, ast.Call) and not value.keywords:
            func = value.func
            if isinstance(func, ast.Attribute) and func.attr == "copy" and not value.args and isinstance(func.value, ast.Name):
                return None, func.value.id
            if self.model.call_api(value) == "numpy.copy" and len(value.args) == 1 and isinstance(value.args[0], ast.Name):
                return None, value.args[0].id
        return None, None

    def _view_of(self, name: ast.Name, frame: "LoopFrame") -> tuple[str, list[int]] | None:
        """``(d0, [1, 1])`` when every binding of ``name`` that reaches it is
        ``d0[1:, 1:]`` (basic slices with constant starts, no steps), made
        outside ``frame``."""
        if not hasattr(name, "lineno"):
            return None  # a pick a helper makes, rewritten in this loop's names
        bindings = self.model.reaching_bindings(name)
        if len(bindings) != 1:
            return None
        binding = bindings[0]
        value = binding.value
        if binding.kind is not BindKind.VALUE or not isinstance(value, ast.Subscript) or not isinstance(value.value, ast.Name):
            return None
        if binding.loop is not None and frame.contains(binding.loop):
            return None
        starts: list[int] = []
        for part in index_components(value):
            if not isinstance(part, ast.Slice) or part.step is not None:
                return None
            start = 0 if part.lower is None else self.model.const_int(part.lower)
            if start is None or start < 0:
                return None
            starts.append(start)
        return value.value.id, starts

    def _picks_feeding(self, value: ast.expr, frame: "LoopFrame") -> list[ast.Subscript]:
        """The picks of arrays among :meth:`_reads_feeding` (whole chains:
        ``u[i][j]``, not the ``u[i]`` inside it), each once (memoised per
        value and loop)."""
        key = (id(value), id(frame))
        found = self._picks.get(key)
        if found is None:
            model = self.model
            found = self._picks[key] = [
                r for r in self._reads_feeding(value, frame) if isinstance(r, ast.Subscript) and _chain_base(r) is not None
                and not isinstance(model.parent(r), ast.Subscript)]
        return found

    def _reads_feeding(self, value: ast.expr, frame: "LoopFrame", depth: int = 0) -> list[ast.AST]:
        """The nodes ``value`` reads, and those read by the values of names it
        uses that the same iteration bound before (``b = S @ T[i - 1]``, then
        ``T[i] = solve(A, b)``), each once. Memoised per value, loop and depth
        (every loop around a statement asks again); callers do not change the list."""
        key = (id(value), id(frame), depth)
        found = self._feeding.get(key)
        if found is None:
            found = self._feeding[key] = self._compute_reads_feeding(value, frame, depth)
        return found

    def _compute_reads_feeding(self, value: ast.expr, frame: "LoopFrame", depth: int) -> list[ast.AST]:
        model = self.model
        reads, names = self._reads_of(value)
        found: list[ast.AST] = list(reads)
        if depth >= _FEED_DEPTH:
            return found
        seen = {id(node) for node in found}
        sources: list[ast.expr] = []
        for name in names:
            for binding in model.reaching_bindings(name):
                if binding.loop is not None and frame.contains(binding.loop) and binding.value is not None and binding.pos < (name.lineno, name.col_offset):
                    sources.append(binding.value)
        sources += self._stored_before(reads, frame)
        for source in sources:
            for node in self._reads_feeding(source, frame, depth + 1):
                if id(node) not in seen:  # a name read twice feeds the same nodes again
                    seen.add(id(node))
                    found.append(node)
        return found

    def _stored_before(self, reads: list[ast.AST], frame: "LoopFrame") -> list[ast.expr]:
        """The values the same iteration stored, earlier in the loop body, at
        exactly the element a read picks (``step[i, j] = argmin(...)`` then
        ``... step[i, j] ...``): what the read returns is what was stored."""
        if not self._element_stores(frame):
            return []
        values = [stmt.value for read in reads
                  if isinstance(read, ast.Subscript) and isinstance(read.ctx, ast.Load)
                  for stmt in self._stores_before(frame, read)]
        # a scratch array read whole after this pass filled it (t[0] = ...,
        # t[1] = ..., then np.max(t)): the read returns what was stored
        values += [stmt.value for read in reads
                   if isinstance(read, ast.Name) and isinstance(read.ctx, ast.Load)
                   and not isinstance(self.model.parent(read), ast.Subscript)
                   for stmt in self._filled_before(frame, read)]
        return values

    def _filled_before(self, frame: "LoopFrame", read: ast.Name) -> list[ast.Assign]:
        """The stores ``read[k] = ...`` into the array ``read`` names made
        before it in the same pass of the same loop."""
        loop = self.model.loop_of(read)
        return [stmt for (name, _), stores in self._element_stores(frame).items() if name == read.id
                for stmt in stores
                if (stmt.lineno, stmt.col_offset) < (read.lineno, read.col_offset) and self.model.loop_of(stmt) is loop]

    def _stores_before(self, frame: "LoopFrame", read: ast.Subscript) -> list[ast.Assign]:
        """The stores ``X[index] = ...`` of the element ``read`` picks
        (``X[index]``, the same index written the same way) that come before
        it in the same pass of the same loop."""
        if not isinstance(read.value, ast.Name):
            return []
        loop = self.model.loop_of(read)
        return [stmt for stmt in self._element_stores(frame).get((read.value.id, ast.dump(read.slice)), ())
                if (stmt.lineno, stmt.col_offset) < (read.lineno, read.col_offset) and self.model.loop_of(stmt) is loop]

    def _stores_read_by_window(self, frame: "LoopFrame", read: ast.Subscript) -> list[ast.Assign]:
        """The stores ``X[n, c] = ...`` made before ``read`` in the same pass
        whose element a window read takes in (``X[n - 2:n + 1, c]``, the last
        three samples, the one just stored among them)."""
        if not isinstance(read.value, ast.Name) or not any(isinstance(p, ast.Slice) for p in index_components(read)):
            return []
        loop = self.model.loop_of(read)
        return [stmt for (name, _), stores in self._element_stores(frame).items() if name == read.value.id
                for stmt in stores
                if (stmt.lineno, stmt.col_offset) < (read.lineno, read.col_offset) and self.model.loop_of(stmt) is loop
                and _window_covers(read, stmt.targets[0])]

    def _element_stores(self, frame: "LoopFrame") -> dict[tuple[str, str], list[ast.Assign]]:
        """``X[index]`` stores of the loop by array name and index (memoised)."""
        key = id(frame)
        found = self._stores.get(key)
        if found is None:
            found = self._stores[key] = {}
            for stmt in self.model.nodes_in_loop(frame, ast.Assign):
                target = stmt.targets[0] if len(stmt.targets) == 1 else None
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    found.setdefault((target.value.id, ast.dump(target.slice)), []).append(stmt)
        return found

    def _reads_of(self, value: ast.expr) -> tuple[list[ast.AST], list[ast.Name]]:
        """The nodes ``value`` reads (what a helper of the file reads of the
        arrays handed to it included, in this loop's names), and the names
        among them it loads; the same for every loop (memoised per value)."""
        key = id(value)
        found = self._reads.get(key)
        if found is None:
            nodes: list[ast.AST] = list(walk(value))
            nodes += [read for call in nodes if isinstance(call, ast.Call) for read in self.model.calls.picks_through(call)]
            names = [n for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
            found = self._reads[key] = (nodes, names)
        return found

    def _element_sized(self, target: ast.Subscript, var: str, inner_indices: set[str]) -> bool:
        """Is what one iteration writes a single element, or a few? The
        components besides the loop's index must be fixed for the iteration:
        constants or outer indices, not indices of loops inside it, and a
        slice only when what it takes is a few literal elements (the three
        coordinates of a Lorenz state, `w[:, i + 1]` of a 3-row array)."""
        shape = self.model.shape(target)
        few = shape is not None and (literal_size(shape) or SMALL_PICK + 1) <= SMALL_PICK
        for component in _chain_components(target):
            if var in names_in(component):
                continue
            if names_in(component) & inner_indices or (isinstance(component, ast.Slice) and not few):
                return False
        return shape is None or shape == () or few


def _offset_of_one_index(sub: ast.expr, var: str) -> int | None:
    """``c`` for ``x[var + c]``, a one-index subscript of a name; None else."""
    if not (isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name)):
        return None
    return _offset(linear(sub.slice), var)


def _below(test: ast.expr, low: str, high: str) -> bool:
    """``low < high`` or ``high > low``."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    left, op, right = test.left, test.ops[0], test.comparators[0]
    return (_is_name(left, low) and isinstance(op, ast.Lt) and _is_name(right, high)) or \
        (_is_name(left, high) and isinstance(op, ast.Gt) and _is_name(right, low))


def _window_covers(window: ast.Subscript, element: ast.Subscript) -> bool:
    """Does the index ``window`` take in the element ``element`` picks? Each
    component the same expression, or a slice ``n - a:n + b`` (``b >= 1``)
    around a component ``n`` that is a plain name."""
    reads, writes = index_components(window), index_components(element)
    if len(reads) != len(writes) or any(isinstance(w, ast.Slice) for w in writes):
        return False
    for read, write in zip(reads, writes):
        if ast.dump(read) == ast.dump(write):
            continue
        if not (isinstance(read, ast.Slice) and isinstance(write, ast.Name) and read.step is None
                and read.lower is not None and read.upper is not None):
            return False
        low, high = offset_of(read.lower, write.id), offset_of(read.upper, write.id)
        if low is None or high is None or low > 0 or high < 1:
            return False
    return True


def _earlier_slice(read: ast.Subscript, var: str, step: int) -> bool:
    """A 1-D slice of the elements before ``var`` in the loop's order: ``x[:i]``
    (``x[0:i]``) counting up, ``x[i + 1:]`` counting down."""
    part = read.slice
    if not isinstance(part, ast.Slice) or part.step is not None:
        return False
    if step > 0:
        return (part.lower is None or (isinstance(part.lower, ast.Constant) and part.lower.value == 0)) \
            and part.upper is not None and offset_of(part.upper, var) == 0
    return part.upper is None and part.lower is not None and (offset_of(part.lower, var) or 0) >= 1
