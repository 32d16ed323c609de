"""What each loop is for cuPyNumeric: an element loop, a recurrence, or time stepping.

One verdict per loop (:class:`Role`), shared by CPN101 and CPN410 so the two
never disagree:

* ``ELEMENT_LOOP`` — iterations pick elements (or rows) by the loop's own
  index, or by values derived from it, do only element-sized work
  (:mod:`.loops`) and are independent of each other: vectorising the body
  removes the loop (CPN101);
* ``RECURRENCE`` — the loop carries *element-sized* state from one iteration
  to the next, so it is sequential however many GPUs there are (Gate 4
  evidence, CPN410):

  - an element written from an element an earlier iteration wrote
    (``y[n] = a * y[n - 1] + x[n]``);
  - a few numbers updated from themselves in a non-additive way
    (``acc = a * acc + x[i]``, ``x, P = ekf_step(x, P, z)`` on a 4-element
    state), in a loop of element-sized work on device values;
  - a Markov chain: a few parameters proposed and accepted or rejected
    against a random draw every step (Metropolis–Hastings, nested sampling);
  - a value computed from the last item of a list the loop appends to
    (``s = path[-1]; ...; path.append(s)``);

* ``TIME_STEP`` — iterations do whole-array or slab work, or carry a row or
  slab (``walk[:, t]`` from ``walk[:, t - 1]`` over many walkers): fine;
* ``OTHER`` — no element picks (or a handful of taps): nothing to say.

An additive accumulation (``s += a[i]``) is a reduction, not a recurrence:
``np.sum`` replaces it, so its loop stays an element loop.

:class:`DependenceAnalysis` decides the roles here and finds the
recurrences from two rooms: :mod:`.array_recurrences` (an element, or a
view, written from one an earlier iteration wrote) and
:mod:`.state_recurrences` (a few numbers, a table's cells, a Markov chain,
walkers, a list's last item). :mod:`.recurrence_forms` holds
:class:`~cpn_lint.model.recurrence_forms.Recurrence` and the tests of
reads, offsets and updates they share.
"""

from __future__ import annotations

import ast
import enum
from typing import TYPE_CHECKING, Sequence

from . import numpy_api as api
from .array_recurrences import ArrayRecurrences
from .draws import draw_size, sizeless_parameters
from .kinds import Kind
from .loop_helpers import chain_mentions, mentions
from .loop_iterations import hot_loop, walks_checkerboard
from .loop_work import Work
from .loops import WorkAnalysis
from .recurrence_forms import SMALL_STATE, _Form, Recurrence, RecurrenceTests, _chain_base, _form, _is_name, _offset
from .iteration import fresh_in_iteration
from .scopes import Binding, BindKind, IterKind
from .shapes import literal_size
from .spatial import offset_from, range_of
from .state_recurrences import StateRecurrences
from .windows import window_per_element
from .syntax import chain_root, index_components, names_in, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import LoopFrame, Scope

_STACKS = frozenset({"hstack", "vstack", "column_stack", "row_stack", "concatenate", "append", "stack", "dstack"})


# A draw of at most this many numbers per pass is drawn a number at a time.
_FEW_NUMBERS = 4


# Calls that hand back their argument's data (a copy or a view, same extent).
_PASS_THROUGH = frozenset({"copy", "asarray", "array", "ascontiguousarray", "asfortranarray"})


class Role(enum.Enum):
    ELEMENT_LOOP = "element-loop"
    RECURRENCE = "recurrence"
    TIME_STEP = "time-step"
    OTHER = "other"


class DependenceAnalysis(RecurrenceTests, ArrayRecurrences, StateRecurrences):
    """Roles and recurrences of every loop of one file (built on first use)."""

    def __init__(self, model: "FileModel") -> None:
        self.model = model
        self._roles: dict[int, Role] = {}
        self._recurrences: dict[int, list[Recurrence]] = {}
        self._slab_carried: dict[int, bool] = {}
        self._derived: dict[int, frozenset[str]] = {}
        self._feeding: dict[tuple[int, int, int], list[ast.AST]] = {}  # _reads_feeding's answers
        self._reads: dict[int, tuple[list[ast.AST], list[ast.Name]]] = {}  # what each value reads
        self._picks: dict[tuple[int, int], list[ast.Subscript]] = {}  # _picks_feeding's answers
        self._forms: dict[tuple[int, int], "tuple[str, list[_Form]] | None"] = {}  # _view_forms' answers
        self._lags: dict[int, dict[str, int]] = {}  # _inner_lags' answers
        self._relaxing: dict[int, tuple[ast.stmt, str]] = {}  # loops sweeping in place: the update and its array
        self._stores: dict[int, dict[tuple[str, str], list[ast.Assign]]] = {}  # _element_stores' answers
        self._asking: set[int] = set()  # functions whose loops' roles are being asked (no cycle through calls)
        self._device_helpers: dict[int, bool] = {}  # functions of the file that compute with device values
        self._sized: dict[int, set[str]] = {}  # per term: the names it reads only for their size

    # ----------------------------------------------------------------- roles
    def role(self, frame: "LoopFrame") -> Role:
        key = id(frame)
        found = self._roles.get(key)
        if found is None:
            found = self._roles[key] = self._classify(frame)
        return found

    def _classify(self, frame: "LoopFrame") -> Role:
        model = self.model
        if frame.iter_kind is IterKind.SMALL_CONSTANT:
            return Role.ELEMENT_LOOP if self._small_element_nest(frame) else Role.OTHER
        if not self._may_matter(frame):
            return Role.ELEMENT_LOOP if self.draws_one_at_a_time(frame) or self._restarts_drawn_chains(frame) else Role.OTHER
        if self._restarts_drawn_chains(frame):
            return Role.ELEMENT_LOOP  # independent paths, each restarted: what a pass carries starts afresh
        if self.recurrences(frame):
            return Role.RECURRENCE
        if self.draws_one_at_a_time(frame):
            return Role.ELEMENT_LOOP
        if (frame.iter_kind is IterKind.OTHER and not self._items_index_picks(frame)) \
                or not model.loop_varying(frame) & model.derived(WorkAnalysis, WorkAnalysis).index_names(frame):
            return Role.TIME_STEP if self.carries_slab(frame) else Role.OTHER  # nothing the loop varies picks an element
        work = model.work(frame)
        if self.carries_slab(frame):
            return Role.TIME_STEP
        if work.work is Work.SLAB:
            per_element = self._single_site_updates(frame) or self._runs_sequences_per_item(frame) \
                or self._whole_work_on_scratch(frame) or window_per_element(model, frame)
            return Role.ELEMENT_LOOP if work.own_picks and per_element else Role.TIME_STEP
        if work.work not in (Work.ELEMENT, Work.ROW):
            return Role.OTHER
        if not work.own_picks or self._reads_only_tables(work.own_picks):
            return Role.OTHER
        if self._steps_around_element_loops(frame):
            return Role.OTHER
        return Role.ELEMENT_LOOP

    def _items_index_picks(self, frame: "LoopFrame") -> bool:
        """Do the items of a loop over a container of unknown kind index the
        elements the pass picks (``for e in elements: A[e[i], e[j]] += ...``,
        a mesh's triangles scattered into a matrix one entry at a time)?"""
        node = frame.node
        if not isinstance(node, (ast.For, ast.AsyncFor)) or isinstance(node.iter, (ast.List, ast.Tuple, ast.Set)):
            return False  # a written-out list is a few items by nature
        target = node.target
        if isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name) and node.iter.func.id == "enumerate" \
                and isinstance(target, ast.Tuple) and len(target.elts) == 2:
            target = target.elts[1]  # the counter enumerate adds counts passes, it is no item
        items = names_in(target)
        return any(items & names_in(pick.slice) for pick in self.model.work(frame).own_picks)

    def draws_one_at_a_time(self, frame: "LoopFrame") -> list[ast.Call]:
        """The draws without ``size`` each pass of ``frame`` (itself, not a
        loop inside it) makes, when the pass does no work on whole arrays
        (``x = np.random.normal()`` then ``S *= 1 + c * x``): every number is
        a task of its own, and drawing them all at once (``size=``) turns
        the loop into whole-array work. Empty for any other loop, a ``while``
        (it runs until the state it changes says stop) and a loop holding a
        recurrence."""
        model = self.model
        # a `while` runs until the state it changes says stop: not independent passes
        if frame.iter_kind is IterKind.SMALL_CONSTANT or not isinstance(frame.node, (ast.For, ast.AsyncFor)):
            return []
        draws = [call for call in model.nodes_in_loop(frame, ast.Call)
                 if model.loop_of(call) is frame and (self._one_number_draw(call) or self._few_numbers_draw(call))
                 and not self._handed_to_host(call)]
        if not draws or self.carries_slab(frame) or model.work(frame).work not in (Work.NONE, Work.ELEMENT):
            return []
        if any(self.recurrences(inner) for inner in model.loops_within(frame)):
            return []  # a chain inside each pass (a walker per particle) stays the chain it is
        return draws

    def _handed_to_host(self, call: ast.Call) -> bool:
        """``cm.viridis(np.random.rand())``, ``print(rng.random())``: a number
        drawn for a plot's colour or a message, no work on data."""
        parent = self.model.parent(call)
        return isinstance(parent, ast.Call) and call in parent.args and self.model.is_host_call(parent)

    def _one_number_draw(self, call: ast.Call) -> bool:
        """A draw of one number: no ``size`` (``np.random.normal()``,
        ``rng.standard_normal()``, ``np.random.randn()``) and no array among
        its parameters (a 0-d value or a one-element array on cuPyNumeric)."""
        model = self.model
        if model.unit_draw(call) is call:
            return True
        name = model.draw_name(call)
        if name is None:
            return False
        if name in api.RANDOM_DIMS_AS_ARGS:
            return not call.args and not call.keywords
        parameters = sizeless_parameters(call, name)
        return parameters is not None and all(model.kind(p) is not Kind.DEVICE for p in parameters)

    def _few_numbers_draw(self, call: ast.Call) -> bool:
        """``x1, x2 = np.random.normal(size=2)``, ``lon =
        np.random.uniform(a, b, 1)[0]``: a draw whose size is a literal of
        a few numbers, taken a number or two at a time."""
        name = self.model.draw_name(call)
        size = draw_size(call, name) if name is not None else None
        return (isinstance(size, ast.Constant) and type(size.value) is int
                and 1 <= size.value <= _FEW_NUMBERS)

    def _restarts_drawn_chains(self, frame: "LoopFrame") -> bool:
        """``for i in range(N): S = S0; for j in range(n): S *= 1 + c *
        np.random.normal()``: each pass starts the numbers a loop inside it
        steps one draw at a time, so the passes are independent paths and
        the whole nest is one element loop over them (drawn ``size=N`` at
        once, every step advances all paths)."""
        model = self.model
        if not isinstance(frame.node, (ast.For, ast.AsyncFor)) or frame.iter_kind is IterKind.SMALL_CONSTANT:
            return False
        if not any(model.draw_name(call) is not None for call in model.nodes_in_loop(frame, ast.Call)):
            return False  # no draw anywhere in the nest (asked first: most loops draw nothing)
        if self._few_items(frame) or model.work(frame).work not in (Work.NONE, Work.ELEMENT):
            return False
        for inner in model.loops_within(frame):
            chain = inner.chain()
            if len(chain) < 2 or chain[1] is not frame or not self.draws_one_at_a_time(inner):
                continue
            stepped = {name for stmt in model.nodes_in_loop(inner, ast.AugAssign, ast.Assign)
                       for name in _updated_names(stmt)}
            restarted = {b.name for b in model.bindings_in_loop(frame)
                         if b.loop is frame and b.kind is BindKind.VALUE and b.pos < (inner.node.lineno, 0)}
            if stepped and stepped <= restarted:
                return True
        return False

    def _runs_sequences_per_item(self, frame: "LoopFrame") -> bool:
        """Does each pass hand its own item (``r[i]``) to a helper of the file
        whose loop is a recurrence (``x[k] = r * x[k - 1] * (1 - x[k - 1])``),
        the passes carrying nothing between them? Then the loop runs one
        independent sequence per item: vectorised across the items, each
        step of the sequence advances all of them at once."""
        model = self.model
        own = model.loop_indices(frame)
        if not own or self.carries_slab(frame) or self._few_items(frame):
            return False
        for call in model.nodes_in_loop(frame, ast.Call):
            arguments = [*call.args, *(k.value for k in call.keywords)]
            if model.loop_of(call) is not frame or not any(mentions(a, own) for a in arguments):
                continue
            callee = model.calls.callee(call)
            if callee is not None and id(callee.node) not in self._asking and self._runs_recurrence(callee):
                return True
        return False

    def _whole_work_on_scratch(self, frame: "LoopFrame") -> bool:
        """Is every whole-array value of a pass a scratch array the pass makes
        with a size the code states (``patch = np.zeros((41, 41))`` filled
        from the pixel's neighbourhood, its histogram, that histogram's
        cumulative sum)? That work belongs to the item the pass handles, not
        to the data: the loop is an element loop over items."""
        model = self.model
        whole = model.work(frame).whole
        return bool(whole) and all(self._scratch(node, frame, 0) for node in whole)

    def _scratch(self, node: ast.expr, frame: "LoopFrame", depth: int) -> bool:
        model = self.model
        if depth > 8:
            return False
        if isinstance(node, ast.Name):
            bindings = model.reaching_bindings(node)
            return bool(bindings) and all(
                b.loop is not None and frame.contains(b.loop) and b.value is not None
                and (self._made_in_pass(b, frame) if b.kind is BindKind.AUG else self._scratch(b.value, frame, depth + 1))
                for b in bindings)
        if isinstance(node, ast.Call):
            if model.call_api(node) in api.SHAPE_FIRST:
                shape = node.args[0] if node.args else None
                extents = shape.elts if isinstance(shape, (ast.Tuple, ast.List)) else [shape] if shape is not None else []
                return bool(extents) and all(model.const_int(e) is not None for e in extents)
        arrays = [n for n in walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and model.kind(n).is_device
                  and model.kind(n) is not Kind.DEVICE_SCALAR]
        return bool(arrays) and all(self._scratch(n, frame, depth + 1) for n in arrays)

    def _made_in_pass(self, aug: Binding, frame: "LoopFrame") -> bool:
        """``h += c`` after ``h = hist(patch)`` in the same pass (not ``S *= f``
        continuing an ``S`` made before the loop)."""
        stmt = self.model.statement_of(aug.node)
        return stmt is not None and fresh_in_iteration(self.model, stmt, frame, aug.name)

    def _few_items(self, frame: "LoopFrame") -> bool:
        """Does the loop go over a few items the code writes out (38
        temperatures of ``np.arange(0.1, 2, 0.05)``, ``range(10)``)? Running
        their sequences side by side gives too little to spread over GPUs."""
        model = self.model
        iterated = frame.iterated
        if isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Name) and iterated.func.id == "enumerate" and iterated.args:
            iterated = iterated.args[0]
        if frame.iter_kind is IterKind.ARRAY and iterated is not None:
            size = literal_size(model.shape(iterated))
            return size is not None and size <= SMALL_STATE
        node = frame.node
        if frame.iter_kind is IterKind.RANGE and isinstance(node, ast.For) and isinstance(node.iter, ast.Call):
            counts = [model.const_int(a) for a in node.iter.args]
            return bool(counts) and None not in counts and len(range(*counts)) <= SMALL_STATE  # type: ignore[arg-type]
        return False

    def _runs_recurrence(self, scope: "Scope") -> bool:
        """Is an outermost loop of the function ``scope`` a recurrence?"""
        self._asking.add(id(scope.node))
        try:
            return any(f.parent is None and f.scope.function_like() is scope and self.role(f) is Role.RECURRENCE
                       for f in self.model.loops)
        finally:
            self._asking.discard(id(scope.node))

    def _reads_only_tables(self, picks: "Sequence[ast.Subscript]") -> bool:
        """Does the loop pick elements of nothing but tables the code writes
        out (a 9 x 2 table of lattice directions)? Its trips are bounded by
        the table, not by the data: no element loop. A written-out array the
        loop stores into (``a[i, j] = a[k, j] - a[i, j] * f`` on a 3 x 3
        demo system) is the data being worked on, not a table."""
        values = self.model.values
        return all(values.written_out(root := chain_root(p)) and not self._stored_into_by_picks(root, picks)
                   for p in picks)

    @staticmethod
    def _stored_into_by_picks(root: ast.expr, picks: "Sequence[ast.Subscript]") -> bool:
        return isinstance(root, ast.Name) and any(
            isinstance(p.ctx, ast.Store) and isinstance(chain_root(p), ast.Name) and chain_root(p).id == root.id  # type: ignore[attr-defined]
            for p in picks)

    def _small_element_nest(self, frame: "LoopFrame") -> bool:
        """A loop over a handful of indices (``for i in range(4)``) that picks
        elements by them inside a hot loop that is not itself an element loop
        or a recurrence: every pass of the hot loop runs these element
        operations one by one, so the nest is an element loop of its own.
        (Over whole slabs, ``for axis in range(3): u[axis] = ...``, it is not.)"""
        model = self.model
        hot = hot_loop(frame.parent)
        if hot is None or not frame.index_vars or frame.is_comprehension:
            return False
        if any(self.role(outer) in (Role.ELEMENT_LOOP, Role.RECURRENCE) for outer in frame.chain()[1:] if outer.iter_kind is not IterKind.SMALL_CONSTANT):
            return False
        work = model.work(frame)
        if work.work is not Work.ELEMENT or not work.own_picks or self.carries_slab(frame):
            return False
        # only picks shown to be single elements (a known rank, or a 0-d
        # value): conc[s] of an array of unknown rank may be a whole row
        for pick in work.own_picks:
            if model.kind(pick) is not Kind.DEVICE_SCALAR and model.shape(pick) != ():
                return False
        return not self._array_recurrences(frame)

    def _may_matter(self, frame: "LoopFrame") -> bool:
        """A cheap syntactic gate before any kind is asked: an element loop
        indexes with something the loop binds, a recurrence updates a name
        from itself, tests a draw to accept a step, reads ``x[-1]`` or hands
        its state to a helper of the file."""
        model = self.model
        bound = {b.name for b in model.bindings_in_loop(frame)}
        if bound & model.derived(WorkAnalysis, WorkAnalysis).index_names(frame):
            return True
        statements = model.nodes_in_loop(frame, ast.Assign, ast.AugAssign)
        updated = {n for stmt in statements
                   for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])  # type: ignore[attr-defined]
                   if isinstance(t, ast.Name) for n in (t.id,)}
        for stmt in statements:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
            if names_in(stmt.value) & {n for t in targets for n in names_in(t)}:  # type: ignore[attr-defined]
                return True
            if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) \
                    and names_in(stmt.value) & (updated - {stmt.target.id}):
                return True  # v += a * dt with a computed in the pass: maybe a coupled update
            if isinstance(stmt.value, ast.Subscript):  # type: ignore[attr-defined]
                return True  # x = path[-1], x = a[...]
        if any(model.loop_of(branch) is frame for branch in model.nodes_in_loop(frame, ast.If)):
            return True
        if model.nodes_in_loop(frame, ast.Delete):
            return True  # del stack[-3]: a stack the passes leave to each other
        # swap(x, y, b): a helper of the file that may accept a move against a draw
        return any(isinstance(stmt.value, ast.Call) and model.calls.callee(stmt.value) is not None
                   for stmt in model.nodes_in_loop(frame, ast.Expr) if model.loop_of(stmt) is frame)

    def _steps_around_element_loops(self, frame: "LoopFrame") -> bool:
        """A loop around an index loop whose picks do not use its own indices
        (``for step in range(T): for i in range(n): u[i] = ...``) is a step
        loop; the inner loop is the element loop. (Around a loop that only
        repeats random picks, ``for k in range(n * n): a = rng.integers(n)``,
        the whole nest is one element loop.)"""
        model = self.model
        own = model.loop_indices(frame) | self._own_counters(frame)
        if self._sweeps_carried_array(frame, own):
            return True
        for inner in model.loops_within(frame):
            if inner.iter_kind is IterKind.SMALL_CONSTANT:
                continue
            inner_own = model.loop_indices(inner)
            # (any pick of the inner loop by the outer indices makes one nest:
            # acc[i, 0] += ... pos[j, 0] in an all-pairs loop; so does a pick
            # of the row the outer loop hands out, a_row[i] in `for a_row in image`)
            every = model.work(inner).picks
            picks = [p for p in every if mentions(p.slice, inner_own)]
            if picks and not any(chain_mentions(model, p, own) or self._piece_of(p, frame, own) or self._item_of(p, frame) for p in every) \
                    and not self._reads_outer_pick(inner, frame, own):
                return True
        return False

    def _reads_outer_pick(self, inner: "LoopFrame", frame: "LoopFrame", own: frozenset[str]) -> bool:
        """Does ``inner`` read a piece ``frame`` picked by its own indices and
        bound to a name (``row = A[i, :]`` then ``for j: ... row ... B[j, :]``)?
        Then the two loops walk one nest of pairs, not steps around a loop."""
        model = self.model
        for node in model.nodes_in_loop(inner, ast.Name):
            if not isinstance(node.ctx, ast.Load):
                continue
            for binding in model.reaching_bindings(node):
                value = binding.value
                if binding.loop is frame and isinstance(value, ast.Subscript) and chain_mentions(model, value, own) \
                        and model.kind(value.value) is Kind.DEVICE:
                    return True
        return False

    def _single_site_updates(self, frame: "LoopFrame") -> bool:
        """Does every pass change the arrays it carries one element at a
        time, at a site the pass picks for itself (``i = rng.integers(n)``,
        ``x, y = queue.pop()``) rather than by the loop's own index? That is
        single-site Metropolis, percolation by random filling, a sweep over
        drawn sites: whatever else the pass reads whole (``M[t] = S.sum()``,
        a snapshot ``S.copy()``), the state moves element by element."""
        model = self.model
        picked_sites = self._picked_sites(frame)
        if not picked_sites:
            return False
        site_stores = 0
        for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
            for target in targets:
                for part in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                    element = self._element_store(part, frame)
                    if element is None:
                        return False  # a whole array or slab of the carried state rewritten
                    if element and mentions(part, picked_sites):  # type: ignore[arg-type]
                        site_stores += 1
        return site_stores > 0

    def _picked_sites(self, frame: "LoopFrame") -> frozenset[str]:
        """Numbers a pass of ``frame`` picks for itself: bound in its body,
        not by a loop header, and not computed from any loop's index (``i =
        rng.integers(n)``, ``x = ind // n``, ``r, c = stack.pop()``)."""
        model = self.model
        loops = [*frame.chain(), *model.loops_within(frame)]  # (outer loops' indices walk too)
        walking = frozenset().union(*(model.loop_indices(f) for f in loops))
        headers = {id(n) for f in loops for n in walk(getattr(f.node, "target", ast.Pass()))}
        varying = model.loop_varying(frame)
        bindings = [b for b in model.bindings_in_loop(frame)
                    if b.name in varying and id(b.node) not in headers and b.kind in (BindKind.VALUE, BindKind.ELEMENT)
                    and b.value is not None and b.name not in names_in(b.value) and not names_in(b.value) & walking]
        # a draw, a pop, an element of an array, or a number computed from one
        # (a counter moved by a constant, it = it + 1, is a walking index)
        sites = {b.name for b in bindings if any(isinstance(n, (ast.Call, ast.Subscript)) for n in walk(b.value))}
        grown = True
        while grown:
            more = {b.name for b in bindings if b.name not in sites and names_in(b.value) & sites}
            sites |= more
            grown = bool(more)
        return frozenset(sites - self._own_counters(frame))

    def _element_store(self, target: ast.expr, frame: "LoopFrame") -> bool | None:
        """True for one element of an array (``S[x, y] = ...``); False for a
        store that changes no array the loop carries (a number, a name the
        pass binds afresh, a snapshot); None for a whole array or a slab."""
        model = self.model
        if isinstance(target, ast.Subscript):
            base = chain_root(target)
            if model.kind(base) is not Kind.DEVICE:
                return False  # a list or dict entry
            if model.kind(target) is Kind.DEVICE_SCALAR or model.shape(target) == ():
                return True
            # S[x, y] of a parameter whose rank the file does not state: numbers only, no slice
            plain = all(not isinstance(c, (ast.Slice, ast.Starred)) and not (isinstance(c, ast.Constant) and c.value in (None, Ellipsis))
                        for c in index_components(target))
            return True if plain and model.shape(base) is None else None
        if isinstance(target, ast.Name) and model.kind(target) is Kind.DEVICE:
            return None if self._carried(frame, target.id) else False
        return False

    def _own_counters(self, frame: "LoopFrame") -> frozenset[str]:
        """Names the loop itself (not a loop inside it) moves by a constant
        every pass (``row += 1``, ``row = row + 1``): a second index."""
        model = self.model
        moves: dict[str, list[bool]] = {}
        for stmt in model.nodes_in_loop(frame, ast.AugAssign, ast.Assign):
            if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                name = stmt.target.id
                by_constant = isinstance(stmt.op, (ast.Add, ast.Sub)) and model.const_int(stmt.value) is not None
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                rest = offset_from(stmt.value, name)
                by_constant = rest is not None and not rest.terms
            else:
                continue
            moves.setdefault(name, []).append(by_constant and model.loop_of(stmt) is frame)
        return frozenset(name for name, steps in moves.items() if steps == [True])

    def _item_of(self, pick: ast.Subscript, frame: "LoopFrame") -> bool:
        """Is ``pick`` taken from an item the loop hands out (``a_row[i]`` in
        ``for a_row in image``)?"""
        base = _chain_base(pick)
        return base is not None and base.id in frame.element_vars

    def _sweeps_carried_array(self, frame: "LoopFrame", own: frozenset[str]) -> bool:
        """``for k: for i: for j: D[i, j] = min(D[i, j], D[i, k] + D[k, j])``:
        the loops inside store cells the outer index does not pick, and the
        outer loop reads back the array they store by its own index — each
        pass of it relaxes the whole array once (a pivot or sweep step), so
        the element loop is the sweep inside, not the outer loop."""
        model = self.model
        if not any(inner.iter_kind is not IterKind.SMALL_CONSTANT for inner in model.loops_within(frame)):
            return False
        stored: set[str] = set()
        for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
            for target in targets:
                if not isinstance(target, ast.Subscript):
                    continue
                root = _chain_base(target)
                if root is None or chain_mentions(model, target, own) or model.loop_of(stmt) is frame:
                    return False  # a store the outer index picks (U[i, k] in Doolittle): one nest
                stored.add(root.id)
        if not stored:
            return False
        return any(
            isinstance(sub.ctx, ast.Load) and (root := _chain_base(sub)) is not None and root.id in stored and chain_mentions(model, sub, own)
            for sub in model.nodes_in_loop(frame, ast.Subscript)
        )

    def _piece_of(self, pick: ast.Subscript, frame: "LoopFrame", own: frozenset[str]) -> bool:
        """Is ``pick`` taken from a piece ``frame`` picks by its own indices
        (``kernel[k]`` after ``kernel = image[i - d:i + d + 1, j - d:j + d + 1]``)?"""
        base = pick.value
        while isinstance(base, ast.Subscript):
            base = base.value
        if not isinstance(base, ast.Name):
            return False
        bindings = self.model.reaching_bindings(base)
        return bool(bindings) and all(
            b.kind is BindKind.VALUE and b.value is not None and b.loop is not None and frame.contains(b.loop) and mentions(b.value, own)
            for b in bindings
        )

    # ----------------------------------------------------------- recurrences
    def recurrences(self, frame: "LoopFrame") -> list[Recurrence]:
        """Element-sized state ``frame`` carries from one iteration to the next."""
        key = id(frame)
        found = self._recurrences.get(key)
        if found is None:
            found = self._recurrences[key] = self._find_recurrences(frame)
        return found

    def carries_slab(self, frame: "LoopFrame") -> bool:
        """Does ``frame`` write a row or slab from one an earlier iteration
        wrote (``walk[:, t] = walk[:, t - 1] + ...``)? That is time stepping."""
        key = id(frame)
        if key not in self._slab_carried:
            self._slab_carried[key] = any(not small for _, _, small in self._array_recurrences(frame))
        return self._slab_carried[key]

    def _find_recurrences(self, frame: "LoopFrame") -> list[Recurrence]:
        if frame.iter_kind is IterKind.SMALL_CONSTANT or frame.is_comprehension:
            return []
        if walks_checkerboard(self.model, frame):
            return []  # red-black ordering: one colour's updates never read each other
        arrays = self._array_recurrences(frame)
        found = [Recurrence(frame, stmt, name, name, "element") for stmt, name, small in arrays if small] \
            or self._attribute_array_recurrences(frame)
        if found:
            return found
        sweep = self._relaxing.get(id(frame))
        if sweep is not None:
            return [Recurrence(frame, sweep[0], sweep[1], sweep[1], "sweep")]
        found = self._chains(frame)
        if found:
            return found
        if arrays and self.model.work(frame).work is not Work.SLAB:
            # A sweep (u[i, j] from u[i - 1, j] and u[i, j - 1]): the rows the
            # outer loop carries are filled by an inner recurrence, so the
            # whole nest is one sequential recurrence.
            inner = next(iter(self._inner_recurrences(frame)), [])
            if inner:
                return inner
        line = self._line_sweep(frame)
        if line is not None or arrays:
            return [line] if line is not None else []
        found = self._carried_state(frame) + self._list_carried(frame) or self._stack_carried(frame) or self._walkers(frame) \
            or self._attribute_walkers(frame) or self._table_walkers(frame) or self._table_wavefront(frame) \
            or self._around_a_sweep(frame)
        if found and self.model.work(frame).work is Work.SLAB and not all(r.holds_beside_slabs for r in found) \
                and not self._whole_values_are_numbers(frame):
            history = self._history(frame)
            if history is None:
                return []  # a clock or a step size beside whole-array work
            found = [r for r in found if r.via not in history]  # the history itself is no state
        return found

    def _whole_values_are_numbers(self, frame: "LoopFrame") -> bool:
        """Is every whole-array value the loop's work names a number after
        all, by what the loop branches on (see :meth:`_branched_numbers`)?
        (``likelihood = likelihood - term + np.log(l0 + a_k)`` where the pass
        tests ``a_k + l0 <= 0``: values of unknown size, each one number.)"""
        whole = self.model.work(frame).whole
        if not whole or not all(isinstance(node, ast.Name) for node in whole):
            return False
        numbers = self._branched_numbers(frame)
        return all(node.id in numbers for node in whole)  # type: ignore[attr-defined]

    def _line_sweep(self, frame: "LoopFrame") -> Recurrence | None:
        """A loop along an axis of the input data whose inner loop fills
        each line of a table cell by cell from the line before (``M[i, j]``
        from ``M[i - 1, j - 1:j + 2]`` for ``i`` over the rows of an image, a
        DP table over ``len(x)``): parallel across a line at best, sequential
        along the data, as many steps as the data has lines, each as wide as
        one line (issue 30's line sweeps). A whole line per step from the one
        before (``Y[:, t]`` from ``Y[:, t - 1]``) is a slab recurrence, time
        stepping (SPEC section 4), and a loop over time steps (``range(nt)``)
        walks no axis of the input."""
        if not isinstance(frame.node, (ast.For, ast.AsyncFor)) or frame.iter_kind is not IterKind.RANGE:
            return None
        model = self.model
        call, step = range_of(model, frame)
        if call is None:
            return None
        if not any(self._input_extent_bases(bound) for bound in call.args[:2]):
            return None
        target = frame.node.target
        var = target.id if isinstance(target, ast.Name) else None
        inner = {name for f in model.loops_within(frame) for name in f.index_vars}
        for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
            for target in targets:
                if var is not None and self._fills_line_from_previous(stmt, target, var, step, inner, frame):
                    return Recurrence(frame, stmt, target.value.id, target.value.id, "line")  # type: ignore[attr-defined]
        return None

    def _fills_line_from_previous(self, stmt: ast.stmt, target: ast.expr, var: str, step: int, inner: set[str],
                                  frame: "LoopFrame") -> bool:
        model = self.model
        if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and model.is_array(target.value)):
            return False
        parts = index_components(target)
        offsets = [_offset(_form(p).index, var) for p in parts]
        axis = next((k for k, o in enumerate(offsets) if o is not None), None)
        if axis is None or len(parts) < 2:
            return False
        across = [p for k, p in enumerate(parts) if k != axis]
        by_cell = any(names_in(p) & inner for p in across)
        if not by_cell:
            return False  # a whole line per step from the one before is time stepping (SPEC: slab recurrence)
        reads = [target] if isinstance(stmt, ast.AugAssign) else []
        reads += self._picks_feeding(stmt.value, frame)  # type: ignore[attr-defined]
        for read in reads:
            if read is target or not isinstance(read, ast.Subscript) or not _is_name(read.value, target.value.id):
                continue
            read_parts = index_components(read)
            if len(read_parts) != len(parts):
                continue
            offset = _offset(_form(read_parts[axis]).index, var)
            if offset is not None and (offsets[axis] - offset) * step >= 1:  # type: ignore[operator]
                return True
        return False

    def _input_extent_bases(self, expr: ast.expr, depth: int = 0) -> list[ast.expr]:
        """The arrays whose extent ``expr`` is (``len(x)``, ``im.shape[0]``,
        ``a.size``, arithmetic on one, a name bound to one: ``h, w =
        im.shape[:2]``), when the code did not make them itself."""
        model = self.model
        if depth > 4:
            return []
        if isinstance(expr, ast.BinOp):
            return self._input_extent_bases(expr.left, depth + 1) + self._input_extent_bases(expr.right, depth + 1)
        base: ast.expr | None = None
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len" and expr.args:
            base = expr.args[0]
        elif isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Attribute) and expr.value.attr == "shape":
            base = expr.value.value
        elif isinstance(expr, ast.Attribute) and expr.attr in ("size", "shape"):
            base = expr.value
        if base is not None:
            if isinstance(base, ast.Attribute):
                return [base] if self._attribute_made_elsewhere(base) else []  # self.P.size, self.P set from an argument
            return [base] if isinstance(base, ast.Name) and self._made_elsewhere(base) else []
        if isinstance(expr, ast.Name):
            return [found for binding in model.reaching_bindings(expr)
                    if binding.kind in (BindKind.VALUE, BindKind.ELEMENT) and binding.value is not None
                    for found in self._input_extent_bases(binding.value, depth + 1)]
        return []

    def _made_elsewhere(self, name: ast.Name) -> bool:
        """An array the caller hands in (a parameter), or read from outside
        (``np.load``, ``imread``, a call the file does not define): not one
        the code allocates from sizes it chose."""
        model = self.model
        bindings = model.reaching_bindings(name)
        if not bindings:
            return False
        for binding in bindings:
            if binding.kind is BindKind.PARAM:
                continue
            value = binding.value
            if binding.kind is not BindKind.VALUE or not isinstance(value, ast.Call):
                return False
            api_name = model.call_api(value)
            if api_name is not None and (api_name in api.BUILDERS or api_name.startswith("random.")):
                return False  # allocated or drawn here, at sizes the code chose
            if api_name is None and model.calls.callee(value) is not None:
                return False  # made by a function of the file
        return True

    def _attribute_made_elsewhere(self, attribute: ast.Attribute) -> bool:
        """Is every value the class gives ``self.x`` an argument of one of its
        methods (copied, converted or sliced: ``self.P = np.copy(PEQ[:, 1])``)?"""
        bindings = self.model.class_attribute_bindings(attribute)
        if not bindings:
            return False
        for binding in bindings:
            value = binding.value
            while True:
                if isinstance(value, ast.Call) and value.args and self.model.call_api(value) in _PASS_THROUGH:
                    value = value.args[0]
                elif isinstance(value, ast.Subscript):
                    value = value.value
                else:
                    break
            if not (isinstance(value, ast.Name) and self._made_elsewhere(value)):
                return False
        return True

    def _around_a_sweep(self, frame: "LoopFrame") -> list[Recurrence]:
        """The rows of a Gauss-Seidel sweep whose neighbours in the other
        axis wrap around (``c[(i + 1) % n, j]``): the loop picks rows of the
        array a loop inside it sweeps in place, so it is part of the sweep."""
        model = self.model
        own = model.loop_indices(frame)
        for inner in model.loops_within(frame):
            for rec in self.recurrences(inner):
                if rec.form != "sweep":
                    continue
                for sub in model.nodes_in_loop(inner, ast.Subscript):
                    if _is_name(_chain_base(sub), rec.array) and names_in(sub.slice) & own:
                        return [Recurrence(frame, rec.node, rec.array, rec.array, "sweep")]
        return []

    def _history(self, frame: "LoopFrame") -> set[str] | None:
        """The names the loop grows by stacking (``hx = np.hstack((hx, x))``)
        when that is all of its whole-array work, else None: keeping the
        history of a few-number state is no work on the data."""
        model = self.model
        whole = model.work(frame).whole
        if not whole:
            return None
        names: set[str] = set()
        for node in whole:
            stmt = model.statement_of(node)
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
                return None
            name = stmt.targets[0].id
            value = stmt.value
            api = model.call_api(value) if isinstance(value, ast.Call) else None
            if api not in _STACKS or name not in names_in(value):
                return None
            names.add(name)
        return names

    def _inner_recurrences(self, frame: "LoopFrame") -> "list[list[Recurrence]]":
        model = self.model
        return [found for inner in model.loops_within(frame) if (found := self.recurrences(inner))]


def _updated_names(stmt: ast.stmt) -> set[str]:
    """``S`` of ``S *= f`` or ``S = S * f``: a name rebound from itself."""
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
        return {stmt.target.id}
    if isinstance(stmt, ast.Assign):
        return {t.id for t in stmt.targets if isinstance(t, ast.Name) and t.id in names_in(stmt.value)}
    return set()

