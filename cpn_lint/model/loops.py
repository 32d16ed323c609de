"""Loops: how much work each iteration does.

The work per iteration (:class:`~cpn_lint.model.loop_work.Work`) is the
reference's discriminator between a loop that blocks scaling and one that
does not:

- ``ELEMENT`` — every array access in the body picks single elements, by
  the loop's index or by scalars computed in the body (``j =
  rng.integers(n); v[j]``); arrays made with a few literal elements
  (``np.zeros(3)``, a 4 × 4 covariance) count as elements;
- ``ROW`` — accesses pick rows or columns by the index and the body does
  nothing on whole arrays;
- ``SLAB`` — the body works on whole arrays or slabs the index does not
  pick (``u[1:-1] = ...``, ``np.sum(u * u)``, ``x[:, k:k + n]``, ``out=``
  updates, helpers called with whole arrays): a time-step or tap loop, even
  when it also stores per-step history (``energy[i] = np.sum(u * u)``) or
  reads one row of a pre-drawn array (``noise[t]``);
- ``NONE`` — no array work at all.

:class:`WorkAnalysis` answers it once per loop. It is assembled here from
two rooms: :mod:`.loop_picks` weighs the accesses the iteration picks
(elements, rows, pieces, slices, masks, windows) and :mod:`.loop_whole` the
whole-array values it uses (small operands and kernels, names and the sizes
of their values, calls). What each loop iterates is decided before, by
:mod:`.loop_iterations`; :mod:`.loop_helpers` holds the syntax tests they
share.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .branch_numbers import BranchNumbers, number_key
from .draws import sizeless_parameters
from .kinds import Kind
from .loop_helpers import (_VARYING_BINDINGS, _chain_picks, _components, _flow_edges, _header_end, _index_only, _reach,
                           chain_mentions, mentions)
from .loop_picks import PickWork
from .loop_whole import WholeWork
from .loop_work import LoopWork, Work
from .scopes import Binding, BindKind, LoopFrame, Scope
from .syntax import chain_root, names_in, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

# element access through a method: ``a.item(i, j)`` reads, ``a.itemset((i, j), v)`` writes
_ELEMENT_METHODS = frozenset({"item", "itemset"})


# ============================================================ work per iteration
class WorkAnalysis(PickWork, WholeWork):
    """Work classes of every loop of one file, computed on first request."""

    def __init__(self, model: "FileModel") -> None:
        self.model = model
        self._work: dict[int, LoopWork] = {}
        self._function_work: dict[int, Work] = {}
        # keyed by (expression, loop): the same value is element work seen from
        # the loop that binds its operands and slab work from a loop inside it
        self._expr_work: dict[tuple[int, int], Work] = {}
        self._own: dict[int, frozenset[str]] = {}
        self._index_names: dict[int, frozenset[str]] = {}
        self._varying: dict[int, frozenset[str]] = {}
        self._one_element: set[int] | None = None  # ids of name uses proven one element
        self._spatial_index: dict[tuple[int, str, str], bool] = {}
        self._attribute_arrays: dict[tuple[int, str, str], bool] | None = None  # per (class, receiver, attribute)
        self._all: dict[int, frozenset[str]] = {}
        self._handed: dict[int, set[str]] = {}  # per call: names it hands to a helper's indices
        self._indexing: dict[int, frozenset[str]] = {}  # per function: parameters it indexes with
        self._flows: dict[int, dict[str, set[str]]] = {}  # per function: what each name is computed into

    # ---------------------------------------------------------------- public
    def of(self, frame: LoopFrame) -> LoopWork:
        key = id(frame)
        found = self._work.get(key)
        if found is None:
            found = self._work[key] = self._classify(frame)
        return found

    def own_indices(self, frame: LoopFrame) -> frozenset[str]:
        """The numbers the loop's own header steps through (``i`` in ``for i
        in range(n)``, ``r, c`` in ``for r, c in zip(rows, cols)``) and every
        name its body derives from them (``k = (i + 1) % n``, the targets of
        inner loops whose range depends on them: ``for x in range(i - 1, i + 2)``)."""
        key = id(frame)
        found = self._own.get(key)
        if found is None:
            seeds = set(frame.index_vars)
            header = _header_end(frame)
            for binding in self._bindings_in(frame):
                if binding.loop is frame and binding.kind in (BindKind.ELEMENT, BindKind.COUNTER) and binding.pos <= header:
                    if binding.name not in seeds and self._holds_number(binding):
                        seeds.add(binding.name)
            found = self._own[key] = self._closure(frame, seeds) if seeds else frozenset()
        return found

    def varying(self, frame: LoopFrame) -> frozenset[str]:
        """Numbers that change from one iteration of ``frame`` to the next:
        its own indices and every number its body binds, at any depth
        (``j = rng.integers(n)``, a random site in an inner loop)."""
        key = id(frame)
        found = self._varying.get(key)
        if found is None:
            names = set(self.own_indices(frame))
            # only a name used in an index can pick anything: ask the kind of no other
            indexing = self.index_names(frame)
            bounds = self._slice_bound_names(frame)
            for binding in self._bindings_in(frame):
                if binding.name in indexing and binding.name not in names and binding.kind in _VARYING_BINDINGS and (
                        self._holds_number(binding) or self._counts_slice_bound(binding, bounds)):
                    names.add(binding.name)
            found = self._varying[key] = frozenset(names)
        return found

    def index_names(self, frame: LoopFrame) -> frozenset[str]:
        """Names mentioned in the index of a subscript inside ``frame``."""
        key = id(frame)
        found = self._index_names.get(key)
        if found is None:
            names: set[str] = set()
            for sub in self.model.nodes_in_loop(frame, ast.Subscript):
                names |= names_in(sub.slice)
            for call in self.model.nodes_in_loop(frame, ast.Call):
                names |= self._indices_handed(call)
                for index in _method_indices(call):
                    names |= names_in(index)
            found = self._index_names[key] = frozenset(names)
        return found

    def carried_size(self, frame: LoopFrame, use: ast.Name) -> Work | None:
        """The size of a value ``frame`` carries from one iteration to the
        next (``use`` reads it inside the loop): the work of its start
        before the loop joined with that of what the loop rebinds it to;
        None when it is not carried (no start before the loop, or a
        parameter's)."""
        model = self.model
        bindings = [b for b in model.reaching_bindings(use) if model.values.binding_kind(b) not in (Kind.SCALAR, Kind.UNKNOWN)]
        scope_bindings = model.scope_of(use).function_like().bindings.get(use.id, ())
        if any(b.kind is BindKind.PARAM for b in scope_bindings):
            return None
        outside = [b for b in bindings if b.loop is None or not frame.contains(b.loop)]
        if not outside or len(outside) == len(bindings):
            return None
        return self._name_work(use, frame)

    def _slice_bound_names(self, frame: LoopFrame) -> frozenset[str]:
        """Names that bound a slice of an array inside ``frame`` (``i`` and
        ``k`` of ``a[i:i + k]``): slice bounds are integers."""
        names: set[str] = set()
        for sub in self.model.nodes_in_loop(frame, ast.Subscript):
            for part in _components(sub):
                if isinstance(part, ast.Slice):
                    names |= names_in(part)
        return frozenset(names)

    def _counts_slice_bound(self, binding: Binding, bounds: frozenset[str]) -> bool:
        """``i += k`` of an ``i`` that bounds a slice (``a[i:i + k]``): an
        integer counter, whatever kind ``k`` has been given."""
        return binding.kind is BindKind.AUG and isinstance(binding.op, (ast.Add, ast.Sub)) and binding.name in bounds

    def _indices_handed(self, call: ast.Call) -> set[str]:
        """The names in the arguments a call hands a function of the file that
        indexes with the parameters receiving them (``helper(i, j)`` whose
        body reads ``img[x + a]``): they index, one call away."""
        cached = self._handed.get(id(call))
        if cached is not None:
            return cached
        model = self.model
        callee = model.calls.callee(call)
        found: set[str] = set()
        if callee is not None:
            arguments = {p: model.calls.argument(call, callee, p) for p in callee.params}
            indexing = self._indexing_params(callee)
            for param, argument in arguments.items():
                if argument is not None and param in indexing:
                    found |= names_in(argument)
        self._handed[id(call)] = found
        return found

    def _edges(self, scope: "Scope") -> dict[str, set[str]]:
        key = id(scope.node)
        found = self._flows.get(key)
        if found is None:
            found = self._flows[key] = _flow_edges(scope)
        return found

    def _indexing_params(self, callee: "Scope") -> frozenset[str]:
        """The parameters of a function of the file that its subscripts
        index with, directly or through names it computes from them."""
        key = id(callee.node)
        found = self._indexing.get(key)
        if found is None:
            indexing: set[str] = set()
            for node in walk(callee.node):
                if isinstance(node, ast.Subscript):
                    indexing |= names_in(node.slice)
            edges = self._edges(callee)
            found = frozenset(p for p in callee.params if _reach(edges, frozenset({p})) & indexing)
            self._indexing[key] = found
        return found

    def _holds_number(self, binding: Binding) -> bool:
        return self.model.values.binding_kind(binding) in (Kind.SCALAR, Kind.DEVICE_SCALAR)

    def _closure(self, frame: LoopFrame, seeds: set[str]) -> frozenset[str]:
        """``seeds`` and the names ``frame``'s body computes from them, and
        the targets of inner loops whose iterable uses them. (Syntactic: a
        row computed from the index and used as an index is fancy indexing,
        which picks as much as an element.)"""
        model = self.model
        names = set(seeds)
        statements = model.nodes_in_loop(frame, ast.Assign, ast.AugAssign, ast.AnnAssign)
        inner_loops = [f.node for f in model.loops_within(frame) if isinstance(f.node, (ast.For, ast.AsyncFor))]
        changed = bool(names)
        while changed:
            changed = False
            for stmt in statements:
                value = getattr(stmt, "value", None)
                if value is None or not names_in(value) & names:
                    continue
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
                new = {n for t in targets if not isinstance(t, ast.Subscript) for n in names_in(t)} - names
                if new:
                    names |= new
                    changed = True
            for node in inner_loops:
                if names_in(node.iter) & names:  # type: ignore[attr-defined]
                    new = names_in(node.target) - names  # type: ignore[attr-defined]
                    if new:
                        names |= new
                        changed = True
        return frozenset(names)

    def function_work(self, scope_node: ast.AST) -> Work:
        """The most work one call of a function of the file does."""
        key = id(scope_node)
        if key in self._function_work:
            return self._function_work[key]
        self._function_work[key] = Work.NONE  # recursion adds nothing new
        model = self.model
        work = Work.NONE
        for node in walk(scope_node):
            if node is scope_node or not isinstance(node, (ast.Subscript, ast.Name, ast.Attribute, ast.Call)):
                continue
            if isinstance(node, ast.Subscript) and model.kind(node.value) is Kind.DEVICE:
                work = max(work, self._whole_subscript_work(node))
            elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load) and self._is_array_use(node):
                work = max(work, self._size_work(node, Work.SLAB))
            if work is Work.SLAB:
                break
        self._function_work[key] = work
        return work

    # --------------------------------------------------------------- details
    def _method_pick(self, call: ast.Call, names: frozenset[str]) -> ast.Subscript | None:
        """``img.item(i, j)`` / ``img.itemset((i, j), v)`` by the loop's
        indices: one element read or written through a method, the same
        access as ``img[i, j]``; returned as that subscript (kept alive with
        the loop's work, so its answers stay memoised by identity)."""
        indices = _method_indices(call)
        if not indices or not any(mentions(index, names) for index in indices):
            return None  # a.item() of a 0-d value: a conversion (CPN104), no pick
        if self.model.kind(call.func.value) is not Kind.DEVICE:  # type: ignore[attr-defined]
            return None
        index = indices[0] if len(indices) == 1 else ast.Tuple(elts=indices, ctx=ast.Load())
        pick = ast.Subscript(value=call.func.value, slice=index, ctx=ast.Load())  # type: ignore[attr-defined]
        return ast.copy_location(pick, call)

    def _positioned_arrays(self, call: ast.Call, own: frozenset[str], picks: list[ast.Subscript]) -> set[int]:
        """``locmax.is_local_max(E_mag, i, j)`` beside ``E_mag[i, j]``: a
        function out of sight handed the loop's own indices with an array the
        pass also picks by them works at that position, not on the whole
        array (the ids of such array arguments)."""
        model = self.model
        if not any(isinstance(a, ast.Name) and a.id in own for a in call.args):
            return set()
        if model.calls.callee(call) is not None or model.call_api(call) is not None or model.is_host_call(call):
            return set()
        picked = {chain_root(p).id for p in picks if isinstance(chain_root(p), ast.Name) and mentions(p.slice, own)}
        return {id(a) for a in call.args if isinstance(a, ast.Name) and a.id in picked}

    def _bindings_in(self, frame: LoopFrame) -> list[Binding]:
        return self.model.bindings_in_loop(frame)

    def _classify(self, frame: LoopFrame) -> LoopWork:
        model = self.model
        names = self._all_indices(frame)
        own = self.varying(frame)
        result = LoopWork(Work.NONE, index_names=own)
        output = self._host_arguments(frame)
        for sub in model.nodes_in_loop(frame, ast.Subscript):
            if id(sub) in output or model.kind(sub.value) is not Kind.DEVICE:
                continue
            parent = model.parent(sub)
            if (isinstance(parent, ast.Subscript) and parent.value is sub and _index_only(parent.slice)
                    and chain_mentions(model, parent, names)):
                continue  # pot[i] of pot[i][j], pot[0] of pot[0][j]: the whole chain is the pick
            picked = _chain_picks(model, sub, names)
            if picked:
                work = self._pick_work(sub, names, frame)
                if work is Work.SLAB and self._result_piece(sub, frame, names, own):
                    work = Work.ROW  # out[t] = Wc.T @ Wc: a d x d piece of the result per pass
                if work is Work.SLAB and self._panel_times_row(sub, frame, names):
                    work = Work.ROW  # X[i, :] -= L[i, :i] @ X[:i, :]: row i from the rows before it
                if work is Work.SLAB and self._dotted_with_a_row(sub, frame, names):
                    work = Work.ROW  # np.dot(A[i, i + 1:], x_old[i + 1:]): as long as the row segment it meets
                if work is Work.ROW and not chain_mentions(model, sub, own) and not self._kernel_operand(sub, frame, names, own):
                    # theta[k, :] inside `for i`: the loops around this one pick
                    # the row, so every iteration of this loop works on all of it
                    result.whole.append(sub)
                    result.work = max(result.work, Work.SLAB)
                    continue
                result.picks.append(sub)
                if _chain_picks(model, sub, own):
                    result.own_picks.append(sub)
            else:
                work = self._whole_subscript_work(sub, frame)
                if work is Work.SLAB and self._kernel_operand(sub, frame, names):
                    continue  # w[None] beside a window: the filter, read whole every pass
                if work is Work.SLAB:
                    result.whole.append(sub)
            result.work = max(result.work, work)
        helpers = {id(call): through for call in model.nodes_in_loop(frame, ast.Call)
                   if id(call) not in output and (through := self._picks_in_helper(call, own)) is not None}
        handed = {id(a) for call in model.nodes_in_loop(frame, ast.Call) if id(call) in helpers for a in call.args}
        for call in model.nodes_in_loop(frame, ast.Call):
            pick = self._method_pick(call, names) if id(call) not in output else None
            if pick is not None:
                handed.add(id(pick.value))  # img.item(i, j): the pick counts, not the whole image
                result.picks.append(pick)
                if mentions(pick.slice, own):
                    result.own_picks.append(pick)
                result.work = max(result.work, Work.ELEMENT)
        for call in model.nodes_in_loop(frame, ast.Call):
            if id(call) not in output and id(call) not in helpers:
                handed |= self._positioned_arrays(call, own, result.picks)
        numbers = model.derived(BranchNumbers, BranchNumbers).of(frame)
        for node in [*model.nodes_in_loop(frame, ast.Name), *model.nodes_in_loop(frame, ast.Attribute)]:
            if id(node) in output or id(node) in handed or not isinstance(node.ctx, ast.Load) or not self._is_array_use(node):
                continue  # (an array handed to a helper that picks it by the loop's indices: the helper's picks count)
            if number_key(node) in numbers:
                continue  # the pass branches on it: one number, whatever its kind says
            if self._kernel_operand(node, frame, names, own):
                continue  # a filter or weights combined with a window the index picks; a fixed row against a picked one
            helper_work = self._picked_in_helper(node, frame) if isinstance(node, ast.Name) else None
            if helper_work is not None:
                result.work = max(result.work, helper_work)
                continue
            work = self._name_work(node, frame)
            if work is Work.SLAB:
                result.whole.append(node)
            result.work = max(result.work, work)
        for call in model.nodes_in_loop(frame, ast.Call):
            if id(call) in output:
                continue
            through = helpers.get(id(call))
            if through is not None:
                # helper(i, j) picking img[x + a][y + b] by what it receives
                helper_work, helper_picks = through
                result.picks += helper_picks
                result.own_picks += helper_picks
                result.work = max(result.work, helper_work)
                continue
            work = self._call_work(call)
            if work is Work.SLAB and self._draws_one_number(call, numbers):
                work = Work.ELEMENT  # np.random.exponential(1 / rate) with rate one number: one number
            if work is Work.SLAB:
                result.whole.append(call)
            result.work = max(result.work, work)
        return result

    def _draws_one_number(self, call: ast.Call, numbers: set[str]) -> bool:
        """A draw without a size whose parameters are numbers the pass shows (see :mod:`.branch_numbers`)."""
        name = self.model.draw_name(call)
        parameters = sizeless_parameters(call, name) if name is not None else None
        return parameters is not None and all(
            (found := self.model.derived(BranchNumbers, BranchNumbers).elementwise_names(p)) is not None and found[0] <= numbers
            for p in parameters)


def _method_indices(call: ast.Call) -> list[ast.expr]:
    """The indices ``a.item(i, j)`` / ``a.itemset((i, j), v)`` name (none
    for any other call, and for ``a.item()`` of a 0-d value)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in _ELEMENT_METHODS or call.keywords:
        return []
    indices = list(call.args) if func.attr == "item" else list(call.args[:-1])
    if len(indices) == 1 and isinstance(indices[0], ast.Tuple):
        return list(indices[0].elts)
    return indices
