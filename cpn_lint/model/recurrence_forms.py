"""Recurrences: what one is, and the forms of reads and updates that show it.

:class:`Recurrence` (the loop, the statement, the array or name carried,
its form); :func:`offset_of` and :func:`scan_form` (an element written
from the one before it: ``out[i] = out[i - 1] + x[i]``, a scan, read by
CPN410 and the cost model); the view forms and lags of
:mod:`.array_recurrences`; the self-updates, reductions and extrema of
:mod:`.state_recurrences`; and the small tests both ask of a loop's state
(:class:`RecurrenceTests`: is it a few numbers, carried, restarted, drawn
at random). Kept apart so that :mod:`.dependence` and its rooms import them
without importing each other.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .branch_numbers import BranchNumbers
from .iteration import fresh_in_iteration
from .kinds import Kind
from .scopes import BindKind
from .shapes import literal_size
from .spatial import Linear, form_offset, linear, name_form_key
from .syntax import chain_root, index_components, names_in, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import Binding, LoopFrame

_RANDOM_WORDS = ("random", "rand", "uniform", "integers", "normal", "randint")
SMALL_STATE = 64  # a chain's state of at most this many numbers is a few parameters


@dataclass(frozen=True)
class Recurrence:
    loop: "LoopFrame"
    node: ast.stmt  # the statement that carries the dependence
    array: str  # the array written (or the state carried)
    via: str  # what carries it: the array itself, or the name of the carried value
    form: str  # "element", "sweep" (in place, Gauss-Seidel), "line" (each line of a table from the one before), "scalar", "state", "chain", "site" (a chain over the sites of an array), "list" or "walker"
    holds_beside_slabs: bool = False  # a chain whatever whole-array work runs beside it: state stepped once per row of the data, a table walked site by site


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


class RecurrenceTests:
    """Tests of a loop's state: device values, small state, random draws, carried or restarted names."""

    model: "FileModel"
    _device_helpers: dict[int, bool]  # made by the analysis that mixes these tests in

    # --------------------------------------------------------------- helpers
    def _touches_device_values(self, frame: "LoopFrame") -> bool:
        """Does a pass work on device values, itself or through the file's
        functions it calls (``u(t, e)`` whose integral is ``np.sum(e)``)?"""
        model = self.model
        if model.work(frame).picks:
            return True
        calls = model.nodes_in_loop(frame, ast.Call)
        # (values read: a store's name may be another cell's array in a notebook that reuses it)
        values = [n for n in model.nodes_in_loop(frame, ast.BinOp, ast.Name) if not isinstance(getattr(n, "ctx", None), ast.Store)]
        return any(model.kind(node).is_device for node in [*calls, *values]) \
            or any(self._helper_touches_device_values(callee.node) for call in calls if (callee := model.calls.callee(call)) is not None)

    def _helper_touches_device_values(self, function: ast.AST) -> bool:
        """Does ``function``, or a function of the file it calls (at any
        depth), compute with device values? Memoised per function."""
        memo = self._device_helpers
        key = id(function)
        if key not in memo:
            model = self.model
            seen, stack, found = {key}, [function], False
            while stack and not found:
                for node in walk(stack.pop()):
                    if isinstance(node, (ast.Call, ast.BinOp, ast.Name)) and not isinstance(getattr(node, "ctx", None), ast.Store) \
                            and model.kind(node).is_device:
                        found = True
                        break
                    callee = model.calls.callee(node) if isinstance(node, ast.Call) else None
                    if callee is not None and id(callee.node) not in seen:
                        seen.add(id(callee.node))
                        stack.append(callee.node)
            memo[key] = found
        return memo[key]

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
        for node in walk(test):
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
        targets = [n for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]) for n in walk(t)]  # type: ignore[attr-defined]
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
        params = [b for b in bindings if b.kind is BindKind.PARAM]
        param = bool(params)
        if param and not all(self._handed_written_out(b) for b in params):
            return False
        if not made:  # unpacked (x, y = P[i]; y, x = step): one number if the loop branches on it
            return param or (loop is not None and name in self._branched_numbers(loop))
        small = [self._few_elements(b.value, by_size) for b in made] + ([True] if param else [])
        if any(s is False for s in small):
            return False
        return unknown_ok or any(s is True for s in small) or (loop is not None and (
            self._stored_as_an_element(loop, name) or name in self._branched_numbers(loop)))

    def _handed_written_out(self, param: "Binding") -> bool:
        """Is the parameter handed, at every call of its function in the file
        (and from nowhere else), a table the code writes out (``r =
        np.array([1.5e11, 0.0])``: a position in the plane)? Such a table
        keeps its size, unlike demo data sized by a literal (``np.zeros(64)``),
        which the user scales."""
        given = self.model.calls.passed(param)
        return given is not None and all(self.model.values.written_out(g) for g in given)

    def _branched_numbers(self, frame: "LoopFrame") -> set[str]:
        """Names the loop shows to be one number each (see :mod:`.branch_numbers`)."""
        return self.model.derived(BranchNumbers, BranchNumbers).of(frame)

    def _stored_as_an_element(self, frame: "LoopFrame", name: str) -> bool:
        """Does the loop store ``name`` whole into one element of a device
        array (``vy[i] = y``)? Only a number fits there: the name is one."""
        model = self.model
        for stmt in model.nodes_in_loop(frame, ast.Assign):
            if not (isinstance(stmt.value, ast.Name) and stmt.value.id == name and len(stmt.targets) == 1):
                continue
            target = stmt.targets[0]
            if isinstance(target, ast.Subscript) and model.kind(target.value) is Kind.DEVICE \
                    and model.kind(target) is Kind.DEVICE_SCALAR:  # (a slice would be an array)
                return True
        return False

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
            for n in walk(stmt.value)  # type: ignore[attr-defined]
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
    return _Form(index=linear(unwrapped(part)))


def unwrapped(index: ast.expr) -> ast.expr:
    """``i + 1`` for a periodic neighbour ``(i + 1) % n`` or a clamped one
    (``max(i - 1, 0)``, ``min(i + 1, n - 1)``): the same element away from
    the edge, where the wrap or the clamp only joins the ends."""
    if isinstance(index, ast.BinOp) and isinstance(index.op, ast.Mod):
        return index.left
    if isinstance(index, ast.Call) and isinstance(index.func, ast.Name) and index.func.id in ("max", "min") \
            and len(index.args) == 2 and not index.keywords:
        varying = [a for a in index.args if not isinstance(a, ast.Constant)]
        if len(varying) == 1:
            return varying[0]
    return index


def _offset(form: Linear | None, var: str) -> int | None:
    """``c`` for ``var + c``; None for anything else."""
    rest = form_offset(form, var)
    return rest.const if rest is not None and not rest.terms else None


def _flows(written: "list[_Form]", read: "list[_Form]", var: str, step: int, fixed: frozenset[str] = frozenset()) -> bool:
    """Does ``read`` read, in a later iteration of the loop over ``var``
    (which moves by ``step``'s sign), what ``written`` wrote? Components
    that do not use ``var`` must be the same, or the same index of a loop
    inside shifted by a constant (not one of ``fixed``, the indices of the
    loops around, which stay put while this loop runs: ``u[t, a - 1]`` is
    not what ``u[t + 1, a]`` wrote in an earlier pass over ``a``); those
    that do must be ``var`` plus a constant, with the write ahead of the
    read by the same positive distance, or a window of fixed width that
    moves with ``var`` and covers the element the previous iteration wrote
    (``y[n - 3:n]`` beside ``y[n]``)."""
    if len(written) != len(read):
        return False
    distance: int | None = None
    ranged = False
    for w, r in zip(written, read):
        if not w.mentions(var) and not r.mentions(var):
            if w != r and not (_same_index_shifted(w, r) and not any(w.mentions(name) for name in fixed)):
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
            for name in (n.id for n in walk(bound) if isinstance(n, ast.Name)):  # in source order
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
            names |= {n.id for n in walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
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
