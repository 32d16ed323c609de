"""Spatial loops: which slices a loop index picks, and whether the loop walks the data.

SPEC §3 ("Spatial loops"): a loop whose iterations each compute a piece of
the result that the index picks, from pieces of the data the index also
picks, does a 1/trip-count share of the work per iteration however large
each piece is. The pieces an index picks are more than elements:

* a **prefix or suffix** bounded by the index (``x[:i]``, ``U[i, i + 1:]``)
  along an axis the same index walks (``x[i]`` is written, ``L[i, i]`` read):
  forward and back substitution, LU and Cholesky by loops;
* a **sliding window** (``img[i:i + K]``, ``x[n - r:n + r + 1]``) of a loop
  that steps by one: per-pixel convolution, moving averages, FIR filters;
* a **block** (``x[:, i * s:(i + 1) * s, j * s:(j + 1) * s]``) picked along
  two axes at once: per-pixel pooling. (A block along one axis, a minibatch
  ``X[b * bs:(b + 1) * bs]``, stays a slab: its size is not in sight.)

A window or block is spatial only when its loop walks the data (its range
is sized by an array's extent: ``range(x.shape[0])``, ``range(n)`` with
``n = len(a)``, ``range(H - K + 1)`` with ``N, H, W, C = inp.shape``) or
writes pieces it picks with the same index (``y[i] = ...``); a tap loop
that shifts a whole array (``acc += w[k] * u[k:k + n]``) does neither.
"""

from __future__ import annotations

import ast
import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .scopes import BindKind, IterKind, LoopFrame
from .syntax import names_in, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

_MAX_DEPTH = 6


# ============================================================ linear forms
@dataclass(frozen=True)
class Linear:
    """``sum(coef * atom) + const`` with atoms keyed by their source dump."""

    terms: tuple[tuple[str, int], ...]
    const: int

    def coef(self, key: str) -> int:
        return dict(self.terms).get(key, 0)

    def without(self, key: str) -> "Linear":
        return Linear(tuple((k, c) for k, c in self.terms if k != key), self.const)

    def minus(self, other: "Linear") -> "Linear":
        merged = dict(self.terms)
        for key, coef in other.terms:
            merged[key] = merged.get(key, 0) - coef
        return Linear(tuple(sorted((k, c) for k, c in merged.items() if c)), self.const - other.const)


_ZERO = Linear((), 0)


def linear(expr: ast.expr | None, depth: int = 0) -> Linear | None:
    """The linear form of an index expression (``i + K - 1`` ->
    {i: 1, K: 1} - 1); anything else is one atom (``i * s`` is the atom
    ``i * s``). None for no expression."""
    if expr is None:
        return None
    if depth > _MAX_DEPTH:
        return Linear(((atom_key(expr), 1),), 0)
    if isinstance(expr, ast.Constant) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
        return Linear((), expr.value)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        inner = linear(expr.operand, depth + 1)
        if inner is None or isinstance(expr.op, ast.UAdd):
            return inner
        return _ZERO.minus(inner)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)):
        left, right = linear(expr.left, depth + 1), linear(expr.right, depth + 1)
        if left is None or right is None:
            return None
        if isinstance(expr.op, ast.Sub):
            return left.minus(right)
        return left.minus(_ZERO.minus(right))
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        for number, other in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(number, ast.Constant) and isinstance(number.value, int) and not isinstance(number.value, bool):
                inner = linear(other, depth + 1)
                if inner is not None:
                    return Linear(tuple((k, c * number.value) for k, c in inner.terms), inner.const * number.value)
    return Linear(((atom_key(expr), 1),), 0)


def atom_key(expr: ast.expr) -> str:
    """``ast.dump(expr)``, spelled out for a name (most atoms are names, and
    the general dump walks the node in Python)."""
    if type(expr) is ast.Name:
        return f"Name(id={expr.id!r}, ctx={type(expr.ctx).__name__}())"
    return ast.dump(expr)


def name_form_key(var: str) -> str:
    """``ast.dump`` of the name ``var`` read: the key of its term in a :class:`Linear`."""
    return f"Name(id={var!r}, ctx=Load())"


def offset_from(expr: ast.expr | None, var: str) -> Linear | None:
    """``expr - var`` when ``expr`` is ``var`` plus terms that do not
    mention it (``i + K`` -> K, ``i - 1`` -> -1); else None."""
    rest = form_offset(linear(expr), var)
    if rest is None or any(var in _atom_names(k) for k, _ in rest.terms):
        return None
    return rest


def form_offset(form: "Linear | None", var: str) -> "Linear | None":
    """``form - var`` when ``form`` holds ``var`` once (``i + K`` -> K); else None."""
    if form is None:
        return None
    key = name_form_key(var)
    if form.coef(key) != 1:
        return None
    return form.without(key)


def _atom_names(key: str) -> set[str]:
    """The names an atom of a linear form mentions (it was dumped from source)."""
    found: set[str] = set()
    marker = "Name(id='"
    start = key.find(marker)
    while start >= 0:
        end = key.find("'", start + len(marker))
        found.add(key[start + len(marker):end])
        start = key.find(marker, end)
    return found


# ============================================================ slice forms
class SliceForm(enum.Enum):
    WINDOW = "window"  # i:i + K — both bounds move with the index, a fixed width
    PREFIX = "prefix"  # :i, i + 1:, 0:i + 1 — one bound moves with the index
    SEGMENT = "segment"  # ptr[i]:ptr[i + 1] — row i of a ragged (CSR) array
    BLOCK = "block"  # i * s:(i + 1) * s — the index counts blocks


@dataclass(frozen=True)
class IndexSlice:
    """How a slice component depends on one index variable."""

    form: SliceForm
    var: str
    width: int | None = None  # literal width of a window
    lower: Linear | None = None  # bounds as offsets from the index (None: not bound by it)
    upper: Linear | None = None


def slice_form(part: ast.expr, varying: frozenset[str]) -> IndexSlice | None:
    """The form of ``part`` (a slice) along the one varying name it moves with."""
    if not isinstance(part, ast.Slice) or (part.step is not None and not _unit_step(part.step)):
        return None
    used = names_in(part) & varying
    if len(used) != 1:
        return None
    var = next(iter(used))
    low = offset_from(part.lower, var) if part.lower is not None else None
    high = offset_from(part.upper, var) if part.upper is not None else None
    lower_fixed = part.lower is None or var not in names_in(part.lower)
    upper_fixed = part.upper is None or var not in names_in(part.upper)
    if low is not None and high is not None:
        width = high.minus(low)
        return IndexSlice(SliceForm.WINDOW, var, width.const if not width.terms else None, low, high)
    if not lower_fixed and not upper_fixed:
        # i * s:i * s + k — a strided window: the bounds differ by terms free of the index
        difference = linear(part.upper).minus(linear(part.lower))  # type: ignore[union-attr]
        if not any(var in _atom_names(key) for key, _ in difference.terms):
            return IndexSlice(SliceForm.WINDOW, var, difference.const if not difference.terms else None)
    if high is not None and lower_fixed:
        return IndexSlice(SliceForm.PREFIX, var, None, None, high)
    if low is not None and upper_fixed:
        return IndexSlice(SliceForm.PREFIX, var, None, low, None)
    if _is_block(part, var):
        return IndexSlice(SliceForm.BLOCK, var)
    if _is_segment(part, var):
        return IndexSlice(SliceForm.SEGMENT, var)
    return None


def _drop_constant(expr: ast.expr | None) -> ast.expr | None:
    """``ptr[i] - 1`` -> ``ptr[i]``: a one-based layout shifts both bounds alike."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)) and isinstance(expr.right, ast.Constant):
        return expr.left
    return expr


def _is_segment(part: ast.Slice, var: str) -> bool:
    """``ptr[i]:ptr[i + 1]``: the bounds are consecutive entries of one
    array picked by the index — row ``i`` of a compressed sparse layout."""
    lower, upper = _drop_constant(part.lower), _drop_constant(part.upper)
    if not (isinstance(lower, ast.Subscript) and isinstance(upper, ast.Subscript)):
        return False
    if ast.dump(lower.value) != ast.dump(upper.value):
        return False
    low, high = offset_from(lower.slice, var), offset_from(upper.slice, var)
    return low is not None and high is not None and high.minus(low) == Linear((), 1)


def _unit_step(step: ast.expr) -> bool:
    return isinstance(step, ast.Constant) and step.value == 1


def _is_block(part: ast.Slice, var: str) -> bool:
    """``i * s:(i + 1) * s`` or ``i * s:i * s + s``: block ``i`` of size ``s``."""
    lower, upper = part.lower, part.upper
    if not (isinstance(lower, ast.BinOp) and isinstance(lower.op, ast.Mult)):
        return False
    pairs = ((lower.left, lower.right), (lower.right, lower.left))
    for counted, size in pairs:
        if offset_from(counted, var) is None or var in names_in(size):
            continue
        size_key = ast.dump(size)
        if isinstance(upper, ast.BinOp) and isinstance(upper.op, ast.Mult):
            for up_counted, up_size in ((upper.left, upper.right), (upper.right, upper.left)):
                if ast.dump(up_size) == size_key:
                    step = linear(up_counted)
                    base = linear(counted)
                    if step is not None and base is not None and step.minus(base) == Linear((), 1):
                        return True
        if isinstance(upper, ast.BinOp) and isinstance(upper.op, ast.Add):
            if {ast.dump(upper.left), ast.dump(upper.right)} == {ast.dump(lower), size_key}:
                return True
    return False


# ============================================================ loop headers
def range_of(model: "FileModel", frame: LoopFrame, var: str | None = None) -> tuple[ast.Call | None, int]:
    """The ``range(...)`` call a ``for`` loop (or the generator of a
    comprehension that binds ``var``) walks, through ``reversed`` and
    progress bars, and its direction: +1 ascending, -1 descending."""
    node = frame.node
    if isinstance(node, (ast.For, ast.AsyncFor)):
        iterable: ast.expr = node.iter
    elif frame.is_comprehension and var is not None:
        generator = next((g for g in node.generators if var in names_in(g.target)), None)  # type: ignore[attr-defined]
        if generator is None:
            return None, 1
        iterable = generator.iter
    else:
        return None, 1
    wrapped = model.progress_wrapped(iterable)
    if wrapped is not None and wrapped is not iterable:
        iterable = wrapped
    direction = 1
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "reversed" and iterable.args:
        direction, iterable = -1, iterable.args[0]
    elif isinstance(iterable, ast.Subscript) and isinstance(iterable.slice, ast.Slice) \
            and iterable.slice.lower is None and iterable.slice.upper is None:
        step = model.const_int(iterable.slice.step) if iterable.slice.step is not None else 1
        if step not in (1, -1):
            return None, direction
        direction, iterable = step, iterable.value  # range(n)[::-1]: the same numbers, in the other order
    if not (isinstance(iterable, ast.Call) and iterable.args):
        return None, direction
    func = iterable.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name not in ("range", "trange"):
        return None, direction
    if len(iterable.args) == 3:
        step = model.const_int(iterable.args[2])
        if step is not None and step < 0:
            direction = -direction
    return iterable, direction


def counter_step(model: "FileModel", frame: LoopFrame, var: str) -> int | None:
    """The constant a ``while`` loop adds to its counter ``var`` every pass
    (``i += 1``, ``i = i + k`` with ``k`` constant); None when it has none."""
    if frame.iter_kind is not IterKind.WHILE:
        return None
    steps: list[int | None] = []
    for stmt in model.nodes_in_loop(frame, ast.AugAssign, ast.Assign):
        if model.loop_of(stmt) is not frame:
            continue
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == var:
            value = model.const_int(stmt.value)
            if isinstance(stmt.op, ast.Sub) and value is not None:
                value = -value
            steps.append(value if isinstance(stmt.op, (ast.Add, ast.Sub)) else None)
        elif isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == var for t in stmt.targets):
            rest = offset_from(stmt.value, var)
            steps.append(rest.const if rest is not None and not rest.terms else None)
    if len(steps) != 1 or not steps[0]:
        return None
    return steps[0]


def step_of(model: "FileModel", frame: LoopFrame, var: str) -> ast.expr | None:
    """What ``var`` moves by from one pass to the next: the step of a
    ``range`` with three arguments, or the one amount a ``while`` loop adds
    to its counter (``i += k``, ``i = i + k``); None otherwise."""
    if frame.iter_kind is IterKind.WHILE:
        steps: list[ast.expr | None] = []
        for stmt in model.nodes_in_loop(frame, ast.AugAssign, ast.Assign):
            if model.loop_of(stmt) is not frame:
                continue
            if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == var:
                steps.append(stmt.value if isinstance(stmt.op, ast.Add) else None)
            elif isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == var for t in stmt.targets):
                value = stmt.value
                ok = isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add) and isinstance(value.left, ast.Name) and value.left.id == var
                steps.append(value.right if ok else None)  # type: ignore[union-attr]
        return steps[0] if len(steps) == 1 else None
    call, _ = range_of(model, frame, var)
    return call.args[2] if call is not None and len(call.args) == 3 else None


def tiles(model: "FileModel", frame: LoopFrame, part: ast.Slice, var: str) -> bool:
    """Does ``part`` (``i:i + k``) move by its own width every pass of
    ``frame`` (``range(0, n - k + 1, k)``, ``while ...: i += k``): the
    iterations read consecutive blocks that tile the axis?"""
    step = step_of(model, frame, var)
    if step is None or part.lower is None or part.upper is None or part.step is not None:
        return False
    width = linear(part.upper).minus(linear(part.lower))  # type: ignore[union-attr]
    moved = linear(step)
    return moved is not None and width == moved and bool(width.terms or width.const > 0)


def unit_step(model: "FileModel", frame: LoopFrame, var: str | None = None) -> bool:
    """Does the loop's index step by one (a range without a step, or with
    step ±1; an index product; a ``while`` counter moved by ±1)?"""
    if frame.iter_kind is IterKind.INDEX_PRODUCT:
        return True
    if frame.iter_kind is IterKind.WHILE:
        return var is not None and counter_step(model, frame, var) in (1, -1)
    call, _ = range_of(model, frame, var)
    if call is None:
        return False
    if len(call.args) < 3:
        return True
    return model.const_int(call.args[2]) in (1, -1)


def walks_data(model: "FileModel", frame: LoopFrame, var: str | None = None) -> bool:
    """Is the loop's trip count an array's extent, or computed from one
    (``range(x.shape[0])``, ``range(len(a) - 1)``, ``range(n)`` after
    ``n = A.shape[0]``, ``range(H - K + 1)`` after ``N, H, W, C = inp.shape``;
    ``while i + k <= a.shape[0]``)? Then it grows with the data."""
    if isinstance(frame.node, ast.While):
        return _sized_by_data(model, frame.node.test, 0)
    call, _ = range_of(model, frame, var)
    if call is None:
        return False
    bounds = call.args[:2] if len(call.args) > 1 else call.args[:1]
    return any(_sized_by_data(model, bound, 0) for bound in bounds)


def sized_by_data(model: "FileModel", expr: ast.expr) -> bool:
    """Is ``expr`` an array's extent or computed from one (``x.shape[0]``,
    ``len(a)``, ``H - K + 1`` after ``N, H, W, C = inp.shape``)?"""
    return _sized_by_data(model, expr, 0)


def _sized_by_data(model: "FileModel", expr: ast.expr, depth: int) -> bool:
    if depth > _MAX_DEPTH:
        return False
    for node in walk(expr):
        if isinstance(node, ast.Attribute) and node.attr in ("shape", "size"):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and model.lookup(node.func) is None:
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "shape":
            return True  # np.shape(x)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            for binding in model.reaching_bindings(node):
                value = binding.value
                if binding.kind in (BindKind.VALUE, BindKind.ELEMENT) and value is not None and _sized_by_data(model, value, depth + 1):
                    return True
    return False


def index_loop(model: "FileModel", frame: LoopFrame, var: str) -> LoopFrame | None:
    """The loop (``frame``, one around it or one inside it) whose own index
    ``var`` is, or the ``while`` loop that counts it (``i += 1``)."""
    for loop in [*frame.chain(), *model.loops_within(frame)]:
        if var in model.loop_indices(loop):
            return loop
    for loop in frame.chain():
        if counter_step(model, loop, var) is not None or (loop.iter_kind is IterKind.WHILE and step_of(model, loop, var) is not None):
            return loop
    return None


def direction(model: "FileModel", frame: LoopFrame, var: str) -> int:
    """+1 when ``var`` grows from one iteration to the next, -1 when it shrinks."""
    if frame.iter_kind is IterKind.WHILE:
        step = counter_step(model, frame, var)
        return -1 if step is not None and step < 0 else 1
    return range_of(model, frame, var)[1]


def picks_axis_by(model: "FileModel", frame: LoopFrame, array: str, axis: int, var: str) -> bool:
    """Does ``frame`` pick an element of ``array`` at ``axis`` by ``var``
    (``x[i]`` beside ``x[:i]``, ``L[i, i]`` beside ``L[i, :i]``)?"""
    for sub in model.nodes_in_loop(frame, ast.Subscript):
        if not (isinstance(sub.value, ast.Name) and sub.value.id == array):
            continue
        parts = list(sub.slice.elts) if isinstance(sub.slice, ast.Tuple) else [sub.slice]
        if axis < len(parts) and not isinstance(parts[axis], ast.Slice) and offset_from(parts[axis], var) is not None:
            return True
    return False


def writes_piece_by(model: "FileModel", frame: LoopFrame, varying: frozenset[str]) -> bool:
    """Does ``frame`` store into a piece of an array that a name varying
    with it picks (``y[i] = ...``, ``out[:, i, j, :] = ...``, ``out[o] = ...``)?"""
    for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
        for target in targets:
            if isinstance(target, ast.Subscript) and names_in(target.slice) & varying:
                return True
    return False
