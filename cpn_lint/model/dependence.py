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
"""

from __future__ import annotations

import ast
import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from .iteration import fresh_in_iteration
from .kinds import Kind
from .loop_helpers import chain_mentions, mentions
from .loop_iterations import hot_loop
from .loop_work import SMALL_PICK, Work
from .loops import WorkAnalysis
from .scopes import BindKind, IterKind
from .shapes import literal_size
from .spatial import Linear, counter_step, direction, form_offset, linear, name_form_key, offset_from
from .syntax import chain_root, index_components, names_in

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import LoopFrame, Scope

_RANDOM_WORDS = ("random", "rand", "uniform", "integers", "normal", "randint")
_STACKS = frozenset({"hstack", "vstack", "column_stack", "row_stack", "concatenate", "append", "stack", "dstack"})
SMALL_STATE = 64  # a chain's state of at most this many numbers is a few parameters


class Role(enum.Enum):
    ELEMENT_LOOP = "element-loop"
    RECURRENCE = "recurrence"
    TIME_STEP = "time-step"
    OTHER = "other"


@dataclass(frozen=True)
class Recurrence:
    loop: "LoopFrame"
    node: ast.stmt  # the statement that carries the dependence
    array: str  # the array written (or the state carried)
    via: str  # what carries it: the array itself, or the name of the carried value
    form: str  # "element", "scalar", "state", "chain", "site" (a chain over the sites of an array), "list" or "walker"


def offset_of(expr: ast.expr, var: str) -> int | None:
    """``i`` -> 0, ``i - 1`` -> -1, ``i + 2`` -> 2, ``2 + i`` -> 2; else None."""
    if isinstance(expr, ast.Name) and expr.id == var:
        return 0
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)):
        left, right = expr.left, expr.right
        if isinstance(left, ast.Name) and left.id == var and isinstance(right, ast.Constant) and isinstance(right.value, int):
            return right.value if isinstance(expr.op, ast.Add) else -right.value
        if isinstance(right, ast.Name) and right.id == var and isinstance(left, ast.Constant) and isinstance(left.value, int) and isinstance(expr.op, ast.Add):
            return left.value
    return None


class DependenceAnalysis:
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
        self._relaxing: set[int] = set()  # loops whose writes read neighbours of this pass and the last
        self._stores: dict[int, dict[tuple[str, str], list[ast.Assign]]] = {}  # _element_stores' answers
        self._asking: set[int] = set()  # functions whose loops' roles are being asked (no cycle through calls)

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
            return Role.ELEMENT_LOOP if self.draws_one_at_a_time(frame) else Role.OTHER
        if self.recurrences(frame):
            return Role.RECURRENCE
        if self.draws_one_at_a_time(frame):
            return Role.ELEMENT_LOOP
        if frame.iter_kind is IterKind.OTHER or not model.loop_varying(frame) & model.derived(WorkAnalysis, WorkAnalysis).index_names(frame):
            return Role.TIME_STEP if self.carries_slab(frame) else Role.OTHER  # nothing the loop varies picks an element
        work = model.work(frame)
        if self.carries_slab(frame):
            return Role.TIME_STEP
        if work.work is Work.SLAB:
            per_element = self._single_site_updates(frame) or self._runs_sequences_per_item(frame)
            return Role.ELEMENT_LOOP if work.own_picks and per_element else Role.TIME_STEP
        if work.work not in (Work.ELEMENT, Work.ROW):
            return Role.OTHER
        if not work.own_picks or self._reads_only_tables(work.own_picks):
            return Role.OTHER
        if self._steps_around_element_loops(frame):
            return Role.OTHER
        return Role.ELEMENT_LOOP

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
                 if model.loop_of(call) is frame and model.unit_draw(call) is call]
        if not draws or self.carries_slab(frame) or model.work(frame).work not in (Work.NONE, Work.ELEMENT):
            return []
        if any(self.recurrences(inner) for inner in model.loops_within(frame)):
            return []  # a chain inside each pass (a walker per particle) stays the chain it is
        return draws

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
        the table, not by the data: no element loop."""
        values = self.model.values
        return all(values.written_out(chain_root(p)) for p in picks)

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
        from itself, tests a draw to accept a step or reads ``x[-1]``."""
        model = self.model
        bound = {b.name for b in model.bindings_in_loop(frame)}
        if bound & model.derived(WorkAnalysis, WorkAnalysis).index_names(frame):
            return True
        for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
            if names_in(stmt.value) & {n for t in targets for n in names_in(t)}:  # type: ignore[attr-defined]
                return True
            if isinstance(stmt.value, ast.Subscript):  # type: ignore[attr-defined]
                return True  # x = path[-1], x = a[...]
        return any(model.loop_of(branch) is frame for branch in model.nodes_in_loop(frame, ast.If))

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
            if picks and not any(chain_mentions(model, p, own) or self._piece_of(p, frame, own) or self._item_of(p, frame) for p in every):
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
        headers = {id(n) for f in loops for n in ast.walk(getattr(f.node, "target", ast.Pass()))}
        varying = model.loop_varying(frame)
        bindings = [b for b in model.bindings_in_loop(frame)
                    if b.name in varying and id(b.node) not in headers and b.kind in (BindKind.VALUE, BindKind.ELEMENT)
                    and b.value is not None and b.name not in names_in(b.value) and not names_in(b.value) & walking]
        # a draw, a pop, an element of an array, or a number computed from one
        # (a counter moved by a constant, it = it + 1, is a walking index)
        sites = {b.name for b in bindings if any(isinstance(n, (ast.Call, ast.Subscript)) for n in ast.walk(b.value))}
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

    def relaxation_sweep(self, frame: "LoopFrame") -> bool:
        """Does the nest update an array in place from neighbours on both
        sides (``u[i, j]`` from ``u[i - 1, j]`` and ``u[i + 1, j]``): a
        Gauss-Seidel or SOR sweep? Its order decides what each update reads,
        so vectorising it is an algorithm change (Jacobi, or red-black
        ordering), not a rewrite of the same computation."""
        for loop in [frame, *self.model.loops_within(frame)]:
            self._array_recurrences(loop)
            if id(loop) in self._relaxing:
                return True
        return False

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
        arrays = self._array_recurrences(frame)
        found = [Recurrence(frame, stmt, name, name, "element") for stmt, name, small in arrays if small]
        if found:
            return found
        found = self._chains(frame)
        if found:
            return found
        if arrays:
            if self.model.work(frame).work is Work.SLAB:
                return []
            # A sweep (u[i, j] from u[i - 1, j] and u[i, j - 1]): the rows the
            # outer loop carries are filled by an inner recurrence, so the
            # whole nest is one sequential recurrence.
            return next((inner for inner in self._inner_recurrences(frame)), [])
        found = self._carried_state(frame) + self._list_carried(frame) or self._walkers(frame) or self._table_wavefront(frame)
        if found and self.model.work(frame).work is Work.SLAB:
            history = self._history(frame)
            if history is None or any(r.via in history for r in found):
                return []  # a clock or a step size beside whole-array work, or the history itself
        return found

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
        candidates: list[tuple[ast.stmt, str, str, str, ast.Subscript]] = []
        relaxed: set[tuple[str, str]] = set()
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
                    lags = self._inner_lags(frame)
                    if any(_flows(written[1], _with_lags(forms[1], var, lags), var, step) for forms in read_forms):
                        if any(_flows(written[1], forms[1], var, -step) for forms in read_forms):
                            relaxed.add((base, var))
                        candidates.append((stmt, name, base, var, target))
        # phi[i, j] from phi[i - 1, j] and phi[i + 1, j]: an in-place relaxation
        # (Gauss-Seidel, SOR), whose order only changes how it converges, not a
        # recurrence that defines its result. Judged per loop: the rows of a
        # periodic boundary (pot[0, j] for the last i) relax with the others.
        if relaxed:
            self._relaxing.add(id(frame))
        found: list[tuple[ast.stmt, str, bool]] = []
        for stmt, name, base, var, target in candidates:
            if (base, var) in relaxed or any(s is stmt for s, _, _ in found):
                continue
            found.append((stmt, name, self._element_sized(target, var, inner_indices)))
        return found

    def _shifted_indices(self, frame: "LoopFrame", index_vars: set[str]) -> set[str]:
        """Names the body binds once to an index plus an amount the loop does
        not change (``n_offset = n + len(history)``): they step with it."""
        model = self.model
        found: set[str] = set()
        for binding in model.bindings_in_loop(frame):
            if binding.kind is not BindKind.VALUE or binding.value is None or binding.loop is not frame:
                continue
            for var in index_vars:
                rest = offset_from(binding.value, var)
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
            return name, forms
        base, starts = view
        if len(forms) > len(starts):
            return None
        shifted = [f.shifted(start) for f, start in zip(forms, starts)]
        return base, shifted

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
        if depth >= 3:
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
        return [stmt.value for read in reads
                if isinstance(read, ast.Subscript) and isinstance(read.ctx, ast.Load)
                for stmt in self._stores_before(frame, read)]

    def _stores_before(self, frame: "LoopFrame", read: ast.Subscript) -> list[ast.Assign]:
        """The stores ``X[index] = ...`` of the element ``read`` picks
        (``X[index]``, the same index written the same way) that come before
        it in the same pass of the same loop."""
        if not isinstance(read.value, ast.Name):
            return []
        loop = self.model.loop_of(read)
        return [stmt for stmt in self._element_stores(frame).get((read.value.id, ast.dump(read.slice)), ())
                if (stmt.lineno, stmt.col_offset) < (read.lineno, read.col_offset) and self.model.loop_of(stmt) is loop]

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
            nodes: list[ast.AST] = list(ast.walk(value))
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

    def _carried_state(self, frame: "LoopFrame") -> list[Recurrence]:
        """A few numbers updated from themselves, not by addition, in a loop
        that works on device values element by element."""
        model = self.model
        found: list[Recurrence] = []
        coupled = self._coupled(frame)
        relayed = self._relayed(frame)
        for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
            for name in [*_self_updated_names(stmt), *coupled.get(id(stmt), ()), *relayed.get(id(stmt), ())]:
                small = name in relayed.get(id(stmt), ()) or self._small_state(name, stmt) or self._carried_element(frame, stmt, name)
                if not small or self._restarted(frame, name):
                    continue
                if self._accumulated_by_helper(stmt, name):
                    continue
                found.append(Recurrence(frame, stmt, self._stored_into(frame, name) or name, name, "scalar" if self._is_number(name, stmt) else "state"))
                break
        return found if found and self._touches_device_values(frame) else []

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
            reads = [r for r in ast.walk(stmt.value) if isinstance(r, ast.Subscript) and _is_name(_chain_base(r), base.id)]
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
        use = next((n for n in ast.walk(value) if isinstance(n, ast.Name) and n.id == name), None) if value is not None else None
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
            for name, term in _accumulating_updates(stmt):
                updates.setdefault(name, []).append((stmt, self._term_names(term, frame, stmt)))
        if not updates:
            return {}
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

    def _term_names(self, term: ast.expr, frame: "LoopFrame", stmt: ast.stmt, depth: int = 0) -> set[str]:
        """The names ``term`` reads, and those the values it reads were
        computed from earlier in the same iteration."""
        model = self.model
        names = names_in(term)
        if depth >= 3:
            return names
        found = set(names)
        for node in ast.walk(term):
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
                continue
            for binding in model.reaching_bindings(node):
                if binding.kind in (BindKind.VALUE, BindKind.ELEMENT) and binding.value is not None and binding.loop is not None \
                        and frame.contains(binding.loop) and binding.pos < (node.lineno, node.col_offset):
                    found |= self._term_names(binding.value, frame, stmt, depth + 1)
        return found

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
        return found

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
                index_names = [n for n in ast.walk(target.slice) if isinstance(n, ast.Name)]
                if index_names and all(self._drawn_here(n, frame) for n in index_names) \
                        and self._draw_decides(branch.test, frame, {n.id for n in index_names}) \
                        and self._read_in_loop(frame, target.value.id, target):
                    return Recurrence(frame, stmt, target.value.id, target.value.id, "site")
        return None

    def _draw_decides(self, test: ast.expr, frame: "LoopFrame", site: set[str]) -> bool:
        """Does a draw other than the site's own indices decide ``test``
        (``np.random.random() < np.exp(-b * dE)``)? A flip made whenever the
        energy drops is a greedy quench, judged as an element loop."""
        for node in ast.walk(test):
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
        for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
            for name in _self_updated_names(stmt):
                updated.setdefault(name, stmt)
            target = getattr(stmt, "target", None)
            if isinstance(target, ast.Name) and isinstance(stmt, ast.AugAssign):
                updated.setdefault(target.id, stmt)  # pos += step
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                updated.setdefault(target.value.id, stmt)  # pos[k] += step
        varying = model.loop_varying(frame)
        for name, stmt in updated.items():
            if name in counters or not self._carried(frame, name) or self._restarted(frame, name):
                continue
            value = getattr(stmt, "value", None)
            moved_by = names_in(value) - {name} if value is not None else set()
            if not (moved_by & varying or any(isinstance(n, ast.Call) for n in ast.walk(value or ast.Pass()))):
                continue  # moved by a step the loop does not change (i += k): an index with a stride
            if not self._small_state(name, stmt, by_size=True):
                continue
            for sub in model.nodes_in_loop(frame, ast.Subscript):
                base = sub.value
                if not isinstance(sub.ctx, ast.Load) or not isinstance(base, ast.Name) or base.id == name:
                    continue
                if name in names_in(sub.slice) and model.is_array(base) and not self._small_state(base.id, stmt, by_size=True):
                    return [Recurrence(frame, stmt, base.id, name, "walker")]
        return []

    def _list_carried(self, frame: "LoopFrame") -> list[Recurrence]:
        """``x = path[-1]`` ... ``path.append(f(x))``: each value from the last."""
        model = self.model
        appended: dict[str, ast.Call] = {}
        for call in model.nodes_in_loop(frame, ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr == "append" and isinstance(func.value, ast.Name) and call.args:
                appended[func.value.id] = call
        for stmt in model.nodes_in_loop(frame, ast.Assign):
            value = stmt.value
            if not (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id in appended):
                continue
            if model.const_int(value.slice) != -1 or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
                continue
            name = stmt.targets[0].id
            call = appended[value.value.id]
            if name in names_in(call.args[0]) and self._not_large(call.args[0]) and self._touches_device_values(frame):
                return [Recurrence(frame, stmt, value.value.id, name, "list")]
        return []

    # --------------------------------------------------------------- helpers
    def _touches_device_values(self, frame: "LoopFrame") -> bool:
        model = self.model
        if model.work(frame).picks:
            return True
        return any(model.kind(node).is_device for node in model.nodes_in_loop(frame, ast.Call, ast.BinOp, ast.Name))

    def _not_large(self, expr: ast.expr) -> bool:
        """A number, or a value not known to hold more than a few elements."""
        model = self.model
        kind = model.kind(expr)
        if kind in (Kind.SCALAR, Kind.DEVICE_SCALAR, Kind.UNKNOWN):
            return True
        if kind is not Kind.DEVICE:
            return False
        size = literal_size(model.shape(expr))
        return model.shape(expr) is None or (size is not None and size <= SMALL_STATE)

    def _tests_random_draw(self, test: ast.expr, frame: "LoopFrame") -> bool:
        """``U <= r`` with ``U = np.random.uniform(...)``, ``rng.random() < a``."""
        model = self.model
        for node in ast.walk(test):
            if isinstance(node, ast.Call) and self._is_draw(node):
                return True
            if isinstance(node, ast.Name):
                for binding in model.reaching_bindings(node):
                    value = binding.value
                    if binding.loop is not None and frame.contains(binding.loop) and isinstance(value, ast.Call) and self._is_draw(value):
                        return True
        return False

    def _is_draw(self, call: ast.Call) -> bool:
        model = self.model
        tail = model.call_api(call)
        if tail is not None:
            return tail.startswith("random.")
        if (model.qualname(call.func) or "").startswith("random."):
            return True  # Python's own random module: random(), uniform(), randrange()
        func = call.func
        return isinstance(func, ast.Attribute) and model.kind(func.value) is Kind.GENERATOR and func.attr.startswith(_RANDOM_WORDS)

    def _carried(self, frame: "LoopFrame", name: str) -> bool:
        """Is ``name`` read in ``frame`` where the previous iteration's value reaches?"""
        model = self.model
        for node in model.nodes_in_loop(frame, ast.Name):
            if node.id != name or not isinstance(node.ctx, ast.Load):
                continue
            stmt = model.statement_of(node)
            if stmt is not None and not fresh_in_iteration(model, stmt, frame, name):
                return True
        return False

    def _restarted(self, frame: "LoopFrame", name: str) -> bool:
        """Every update of ``name`` in ``frame`` follows a fresh binding in the same iteration."""
        model = self.model
        updates = [stmt for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign) if name in _self_updated_names(stmt)]
        return bool(updates) and all(fresh_in_iteration(model, stmt, frame, name) for stmt in updates)

    def _small_state(self, name: str, stmt: ast.stmt, by_size: bool = False, unknown_ok: bool = False) -> bool:
        """A number, or an array of a few elements by construction
        (``x = np.zeros((4, 1))``), in every binding that gives it a value.
        With ``by_size`` (a Markov chain, already a strong pattern), a literal
        size of a few elements counts too, however the code reached it; with
        ``unknown_ok`` a value of unknown size (a score a helper returns)
        counts unless some binding is known to be large."""
        model = self.model
        targets = [n for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]) for n in ast.walk(t)]  # type: ignore[attr-defined]
        node = next((n for n in targets if isinstance(n, ast.Name) and n.id == name), None)
        if node is None:
            return False
        bindings = model.scope_of(node).function_like().bindings.get(name, ())
        made = [b for b in bindings if b.kind is BindKind.VALUE and b.value is not None]
        loop = model.loop_of(stmt)
        if loop is not None:
            # a binding after the loops around the state cannot reach it
            # (x = np.arange(...) for the plot once the chain is done)
            end = getattr(loop.chain()[-1].node, "end_lineno", None)
            made = [b for b in made if end is None or b.pos[0] <= end]
        if not made or any(b.kind is BindKind.PARAM for b in bindings):
            return False
        small = [self._few_elements(b.value, by_size) for b in made]
        return (unknown_ok or any(s is True for s in small)) and not any(s is False for s in small)

    def _few_elements(self, value: ast.expr, by_size: bool) -> bool | None:
        """True for a few elements, False for more, None when not known."""
        model = self.model
        if model.kind(value) in (Kind.SCALAR, Kind.DEVICE_SCALAR):
            return True
        if model.values.small_by_construction(value):
            return True
        shape = model.shape(value)
        if shape is None or not model.kind(value).is_array:
            return None
        size = literal_size(shape)
        if by_size and size is not None:
            return size <= SMALL_STATE
        return False if shape else None

    def _is_number(self, name: str, stmt: ast.stmt) -> bool:
        model = self.model
        return any(
            isinstance(n, ast.Name) and n.id == name and model.kind(n) in (Kind.SCALAR, Kind.DEVICE_SCALAR, Kind.UNKNOWN)
            for n in ast.walk(stmt.value)  # type: ignore[attr-defined]
        )

    def _stored_into(self, frame: "LoopFrame", name: str) -> str | None:
        """The array an iteration stores the carried value into (``y[i] = acc``)."""
        model = self.model
        for stmt in model.nodes_in_loop(frame, ast.Assign):
            if name in names_in(stmt.value):
                for target in stmt.targets:
                    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and model.is_array(target.value):
                        return target.value.id
        return None


@dataclass(frozen=True)
class _Form:
    """One index component as a linear form (an index) or a pair of bounds
    (a slice; None for an open bound), or, for anything else, its dump."""

    index: Linear | None = None
    lower: Linear | None = None
    upper: Linear | None = None
    is_slice: bool = False
    text: str = ""

    def shifted(self, start: int) -> "_Form":
        if not start:
            return self
        if self.index is not None:
            return _Form(index=Linear(self.index.terms, self.index.const + start))
        if self.is_slice:
            low = self.lower if self.lower is not None else Linear((), 0)
            return _Form(lower=Linear(low.terms, low.const + start),
                         upper=Linear(self.upper.terms, self.upper.const + start) if self.upper is not None else None,
                         is_slice=True)
        return _Form(text=f"{self.text}+{start}")

    def mentions(self, var: str) -> bool:
        key = name_form_key(var)
        return any(f is not None and f.coef(key) for f in (self.index, self.lower, self.upper)) or f"'{var}'" in self.text


def _chain_base(sub: ast.Subscript) -> ast.Name | None:
    """``score`` for ``score[i][j]`` (picks by numbers, one after another) and
    for ``score[i, j]``; None for a chain through slices or a computed base."""
    node: ast.expr = sub
    while isinstance(node, ast.Subscript):
        if node is not sub and any(isinstance(c, ast.Slice) for c in index_components(node)):
            return None
        node = node.value
    return node if isinstance(node, ast.Name) else None


def _index_names(sub: ast.Subscript) -> list[str] | None:
    """``['i', 'j']`` for ``D[i, j]`` (or ``D[i][j]``): a cell picked by
    distinct names alone; None otherwise."""
    components = index_components(sub) if isinstance(sub.slice, ast.Tuple) else _chain_components(sub)
    names = [c.id for c in components if isinstance(c, ast.Name)]
    return names if len(names) == len(components) and len(set(names)) == len(names) else None


def _reads_behind(read: ast.Subscript, written: list[str]) -> bool:
    """Does ``read`` pick the cell at ``written`` moved back by a constant
    on some axis and forward on none (``D[i - 1, j]``, ``D[i - 1, j - 1]``)?"""
    components = index_components(read) if isinstance(read.slice, ast.Tuple) else _chain_components(read)
    if len(components) < len(written):
        return False
    offsets = [offset_of(c, var) for c, var in zip(components, written)]
    return None not in offsets and all(o <= 0 for o in offsets) and any(o < 0 for o in offsets)  # type: ignore[operator]


def _reads_ahead(read: ast.Subscript, written: list[str]) -> bool:
    components = index_components(read) if isinstance(read.slice, ast.Tuple) else _chain_components(read)
    return any((o := offset_of(c, var)) is not None and o > 0 for c, var in zip(components, written))


def _chain_components(sub: ast.Subscript) -> list[ast.expr]:
    """``[i, j]`` for ``score[i][j]`` and for ``score[i, j]``."""
    parts: list[list[ast.expr]] = []
    node: ast.expr = sub
    while isinstance(node, ast.Subscript):
        parts.append(index_components(node))
        node = node.value
    return [c for part in reversed(parts) for c in part]


def _with_lags(forms: "list[_Form]", var: str, lags: dict[str, int]) -> "list[_Form]":
    """``y[n - k]`` with ``k`` an inner index that reaches ``lags[k]``: the
    read ``y[n - lags[k]]`` it makes on the way (the last few outputs)."""
    if not lags:
        return forms
    keys = {name_form_key(name): value for name, value in lags.items() if name != var}
    result: list[_Form] = []
    for form in forms:
        index = form.index
        if index is not None and index.coef(name_form_key(var)) and any(k in keys for k, _ in index.terms):
            terms = tuple((k, c) for k, c in index.terms if k not in keys)
            const = index.const + sum(c * keys[k] for k, c in index.terms if k in keys)
            form = _Form(index=Linear(terms, const))
        result.append(form)
    return result


def _form(part: ast.expr) -> _Form:
    if isinstance(part, ast.Slice):
        if part.step is not None:
            return _Form(text=ast.dump(part))
        return _Form(lower=linear(part.lower), upper=linear(part.upper), is_slice=True)
    return _Form(index=linear(part))


def _offset(form: Linear | None, var: str) -> int | None:
    """``c`` for ``var + c``; None for anything else."""
    rest = form_offset(form, var)
    return rest.const if rest is not None and not rest.terms else None


def _flows(written: "list[_Form]", read: "list[_Form]", var: str, step: int) -> bool:
    """Does ``read`` read, in a later iteration of the loop over ``var``
    (which moves by ``step``'s sign), what ``written`` wrote? Components
    that do not use ``var`` must be the same; those that do must be ``var``
    plus a constant, with the write ahead of the read by the same positive
    distance, or a window of fixed width that moves with ``var`` and covers
    the element the previous iteration wrote (``y[n - 3:n]`` beside ``y[n]``)."""
    if len(written) != len(read):
        return False
    distance: int | None = None
    ranged = False
    for w, r in zip(written, read):
        if not w.mentions(var) and not r.mentions(var):
            if w != r and not _same_index_shifted(w, r):
                return False
            continue
        w_off = _offset(w.index, var) if not w.is_slice else None
        if w_off is None:
            return False
        if r.is_slice:
            if not _covers_previous(r, var, w_off, step):
                return False
            if not (r.lower is not None and r.lower.coef(name_form_key(var)) and r.upper is not None and r.upper.coef(name_form_key(var))):
                # a prefix or suffix (x[:i] in forward substitution) carries a
                # growing part of the result, not element-sized state: the
                # loop is a spatial element loop (SPEC §3), not a recurrence
                return False
            ranged = True
            continue
        r_off = _offset(r.index, var)
        if r_off is None:
            return False
        d = (w_off - r_off) * step
        if distance is not None and d != distance:
            return False
        distance = d
    if distance is not None:
        return distance > 0
    return ranged


def _same_index_shifted(written: _Form, read: _Form) -> bool:
    """``m + 2`` beside ``m + 1``: one other index, shifted by a constant. A
    read of an element an earlier pass of the outer loop wrote, in another
    column (a DP cell from the diagonal, ``D[n + 1, m + 1]`` for
    ``D[n + 2, m + 2]``), carries the dependence as well as the same column."""
    if written.is_slice or read.is_slice or written.index is None or read.index is None:
        return False
    terms = [key for key, _ in written.index.terms]
    if len(terms) != 1 or [key for key, _ in read.index.terms] != terms:
        return False
    return dict(written.index.terms) == dict(read.index.terms)


def _covers_previous(read: _Form, var: str, w_off: int, step: int) -> bool:
    """Does the slice ``read`` contain the element the previous iteration
    wrote (at ``var - step + w_off``)? A bound that does not move with
    ``var`` is taken to lie beyond it (``x[:i]``, ``x[i + 1:]``, ``x[0:i]``)."""
    position = w_off - step  # relative to var
    low = _offset(read.lower, var) if read.lower is not None and read.lower.coef(name_form_key(var)) else None
    high = _offset(read.upper, var) if read.upper is not None and read.upper.coef(name_form_key(var)) else None
    low_moves = read.lower is not None and bool(read.lower.coef(name_form_key(var)))
    high_moves = read.upper is not None and bool(read.upper.coef(name_form_key(var)))
    if (low_moves and low is None) or (high_moves and high is None):
        return False
    if not low_moves and not high_moves:
        return False
    if low_moves and low > position:  # type: ignore[operator]
        return False
    if high_moves and high <= position:  # type: ignore[operator]
        return False
    # the slice must reach back, not only forward: a suffix in a loop that
    # counts up (x[i + 1:] beside x[i]) reads what later iterations write
    if step > 0:
        return high_moves
    return low_moves


def _self_updated_names(stmt: ast.stmt) -> list[str]:
    """Names a statement computes from their own previous value in a way
    that is not a reduction: ``acc = a * acc + x`` (a linear recurrence),
    ``x = f(x)``, ``x, P = step(x, P, z)``. A sum or product of terms that
    do not involve the name (``acc += x``, ``acc *= f(y[i])``,
    ``acc = acc * g``) is a reduction, which ``np.sum``/``np.prod`` replace."""
    if isinstance(stmt, ast.AugAssign):
        if isinstance(stmt.target, ast.Name) and stmt.target.id in names_in(stmt.value):
            return [stmt.target.id]  # acc *= acc + x
        return []
    if not isinstance(stmt, ast.Assign):
        return []
    found: list[str] = []
    for target in stmt.targets:
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(stmt.value, (ast.Tuple, ast.List)) and len(target.elts) == len(stmt.value.elts):
            pairs = list(zip(target.elts, stmt.value.elts))  # u, w = w, u: each name from its own value
        else:
            pairs = [(target, stmt.value)]
        for bound, value in pairs:
            if isinstance(bound, ast.Subscript):
                continue
            for name in (n.id for n in ast.walk(bound) if isinstance(n, ast.Name)):  # in source order
                if name in names_in(value) and not _is_reduction_step(value, name) and name not in found:
                    found.append(name)
    return found


_EXTREMA = frozenset({"max", "min", "maximum", "minimum", "fmax", "fmin"})
_ACCUMULATING = (ast.Add, ast.Sub, ast.Mult, ast.Div)


def _accumulating_updates(stmt: ast.stmt) -> list[tuple[str, ast.expr]]:
    """(name, term) for ``name += term``, ``name = name + term`` (``-``,
    ``*`` and ``/`` too) where the term does not mention the name."""
    if isinstance(stmt, ast.AugAssign):
        if isinstance(stmt.target, ast.Name) and isinstance(stmt.op, _ACCUMULATING) and stmt.target.id not in names_in(stmt.value):
            return [(stmt.target.id, stmt.value)]
        return []
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return []
    name, value = stmt.targets[0].id, stmt.value
    if isinstance(value, ast.BinOp) and isinstance(value.op, _ACCUMULATING) and _is_reduction_step(value, name):
        term = value.right if _is_name(value.left, name) else value.left
        return [(name, term)]
    return []


def _on_cycle(start: str, edges: dict[str, set[str]]) -> bool:
    """Can ``start`` reach itself along ``edges``?"""
    stack = list(edges.get(start, ()))
    seen: set[str] = set()
    while stack:
        node = stack.pop()
        if node == start:
            return True
        if node in seen:
            continue
        seen.add(node)
        stack.extend(edges.get(node, ()))
    return False


def _is_extremum_step(value: ast.expr, name: str) -> bool:
    """``max(name, term)``, ``np.minimum(term, name)``: a running maximum or
    minimum, which ``np.max``/``np.min`` replace."""
    if not isinstance(value, ast.Call) or len(value.args) != 2 or value.keywords:
        return False
    func = value.func
    word = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if word not in _EXTREMA:
        return False
    first, second = value.args
    for own, term in ((first, second), (second, first)):
        if _is_name(own, name) and name not in names_in(term):
            return True
    return False


def _is_reduction_step(value: ast.expr, name: str) -> bool:
    """``name op term`` (or ``term op name``) with one arithmetic operator
    and ``name`` nowhere in the term, or a running extremum: an
    accumulation, not a recurrence."""
    if _is_extremum_step(value, name):
        return True
    if not isinstance(value, ast.BinOp) or not isinstance(value.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        return False
    for own, term in ((value.left, value.right), (value.right, value.left)):
        if isinstance(own, ast.Name) and own.id == name and name not in names_in(term):
            return not isinstance(value.op, (ast.Sub, ast.Div)) or own is value.left
    # acc + x[i] + y[i]: a chain of the same additive operator
    if isinstance(value.op, (ast.Add, ast.Mult)) and isinstance(value.left, ast.BinOp) and type(value.left.op) is type(value.op):
        return name not in names_in(value.right) and _is_reduction_step(value.left, name)
    return False


def _is_name(expr: ast.expr | None, name: str) -> bool:
    return isinstance(expr, ast.Name) and expr.id == name


def _adds_to(node: ast.AST, name: str, model: "FileModel") -> bool:
    """``name += term`` (or ``name = name + term``) with ``name`` not in the term."""
    stmt = model.statement_of(node)
    if isinstance(stmt, ast.AugAssign):
        return isinstance(stmt.op, (ast.Add, ast.Sub)) and _is_name(stmt.target, name) and name not in names_in(stmt.value)
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _is_name(stmt.targets[0], name):
        value = stmt.value
        return isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Add, ast.Sub)) and _is_reduction_step(value, name)
    return False


def scan_form(model: "FileModel", rec: Recurrence, frame: "LoopFrame") -> str | None:
    """``y[n] = y[n - 1] + x[n]`` -> cumsum, ``y[n] = y[n - 1] * r[n]`` ->
    cumprod: a running sum or product of values the loop does not compute
    from its own state, which one call replaces. (``x[i] = x[i - 1] + v[i -
    1] * dt`` with ``v`` written in the same loop is an integration.)"""
    stmt = rec.node
    if rec.via != rec.array:
        return None
    if isinstance(stmt, ast.AugAssign):
        op, operands = stmt.op, [stmt.value]
    elif isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.BinOp):
        op, operands = stmt.value.op, [stmt.value.left, stmt.value.right]
    else:
        return None
    if not isinstance(op, (ast.Add, ast.Mult)):
        return None
    previous = [o for o in operands if _reads_previous(o, rec.array, frame)]
    others = [o for o in operands if o not in previous]
    if len(previous) != 1 or any(rec.array in names_in(o) for o in others):
        return None
    written = _stored_names(model, frame) - model.loop_indices(frame) - {rec.array}
    if any(names_in(o) & written for o in others):
        return None  # fed by state the loop computes: an integration, not a scan
    return "cumsum" if isinstance(op, ast.Add) else "cumprod"


def _stored_names(model: "FileModel", frame: "LoopFrame") -> set[str]:
    """The names ``frame`` assigns (``v = ...``, ``a, b = ...``) and the arrays
    it writes into (``v[i] = ...``)."""
    names: set[str] = set()
    for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
        for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:  # type: ignore[attr-defined]
            names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            root = chain_root(target)
            if isinstance(root, ast.Name):
                names.add(root.id)
    return names


def _reads_previous(expr: ast.expr, array: str, frame: "LoopFrame") -> bool:
    if not (isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) and expr.value.id == array):
        return False
    index = expr.slice
    if isinstance(index, ast.Tuple):
        return False
    return any(offset_of(index, var) == -1 for var in frame.index_vars)
