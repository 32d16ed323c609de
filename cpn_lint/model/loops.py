"""Loops: what each one iterates, and how much work each iteration does.

Two classifications, both made once per loop and shared by every rule:

* **What it iterates** (:class:`IterKind`): index ranges, index products,
  arrays, a handful of constants (axes, taps), other Python objects, or a
  ``while`` condition. A loop is *hot* unless it and every loop around it walk
  a handful of constants.
* **Work per iteration** (:class:`Work`), the reference's discriminator
  between a loop that blocks scaling and one that does not:

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
"""

from __future__ import annotations

import ast
import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .imports import DEVICE_ROOTS
from .kinds import NEUTRAL, Kind
from .numpy_api import ARRAY_METADATA, BUILDERS, CONVERSIONS, SHAPE_FIRST
from .scopes import Binding, BindKind, IterKind, LoopFrame, Scope
from .shapes import literal_size
from .spatial import (SliceForm, index_loop, offset_from, picks_axis_by, sized_by_data, slice_form, tiles, unit_step, walks_data,
                      writes_piece_by)
from .syntax import callee_name, is_range_call, literal_length, names_in

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

SMALL_CONSTANT_LIMIT = 8  # a loop over at most this many axes/taps is not an element loop
SMALL_PICK = 16  # a picked row of at most this many literal elements (a 3-vector) is element work
SMALL_SLICE = 8  # a slice of at most this many elements picked by the index is element work

_ITER_STRENGTH = {
    IterKind.ARRAY: 5,
    IterKind.RANGE: 4,
    IterKind.INDEX_PRODUCT: 4,
    IterKind.OTHER: 2,
    IterKind.SMALL_CONSTANT: 1,
    IterKind.WHILE: 0,
}


class Work(enum.IntEnum):
    """How much array work one iteration does (ordered: more is larger)."""

    NONE = 0
    ELEMENT = 1
    ROW = 2
    SLAB = 3


@dataclass
class LoopWork:
    """The work one iteration of a loop does, with the evidence for it."""

    work: Work
    picks: list[ast.Subscript] = field(default_factory=list)  # accesses the iteration picks
    own_picks: list[ast.Subscript] = field(default_factory=list)  # picked by what varies with this loop
    whole: list[ast.AST] = field(default_factory=list)  # whole-array or slab operations
    index_names: frozenset[str] = frozenset()  # what varies with this loop (indices and body numbers)


# ============================================================ iteration kinds
def is_hot(frames: list[LoopFrame]) -> bool:
    """A chain of loops repeats work many times unless every loop in it runs
    over a small constant number of axes, taps or items."""
    return any(frame.iter_kind is not IterKind.SMALL_CONSTANT for frame in frames)


def hot_chain(frame: LoopFrame | None) -> bool:
    """Is ``frame`` (or a loop around it) hot?"""
    return frame is not None and is_hot(frame.chain())


def hot_loop(frame: LoopFrame | None) -> LoopFrame | None:
    """The innermost loop of ``frame``'s nest (itself included) that repeats
    more than a handful of constant times, or None."""
    while frame is not None and frame.iter_kind is IterKind.SMALL_CONSTANT:
        frame = frame.parent
    return frame


def classify_iterations(model: "FileModel") -> None:
    """Set every loop frame's iteration kind and index/element variables."""
    for frame in model.loops:
        if frame.iter_kind is IterKind.WHILE:
            continue
        if isinstance(frame.node, (ast.For, ast.AsyncFor)):
            targets = [(frame.node.target, frame.node.iter)]
        else:
            targets = [(g.target, g.iter) for g in frame.node.generators]  # type: ignore[attr-defined]
        kinds: list[IterKind] = []
        index_vars: set[str] = set()
        element_vars: set[str] = set()
        for target, iterable in targets:
            kind, idx, elems = _classify_iteration(model, target, iterable)
            if kind is IterKind.OTHER and _walks_index_list(model, frame, target, iterable):
                kind, idx, elems = IterKind.RANGE, names_in(target), set()
            kinds.append(kind)
            index_vars |= idx
            element_vars |= elems
        frame.index_vars = frozenset(index_vars)
        frame.element_vars = frozenset(element_vars)
        frame.iter_kind = max(kinds, key=lambda k: _ITER_STRENGTH[k]) if kinds else IterKind.OTHER


def _classify_iteration(model: "FileModel", target: ast.expr, iterable: ast.expr) -> tuple[IterKind, set[str], set[str]]:
    names = names_in(target)
    wrapped = model.progress_wrapped(iterable)  # a progress bar iterates what it wraps
    if wrapped is iterable:
        return IterKind.RANGE, names, set()  # trange(n)
    if wrapped is not None:
        iterable = wrapped
    if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
        if len(iterable.elts) <= SMALL_CONSTANT_LIMIT:
            return IterKind.SMALL_CONSTANT, set(), set()
        return IterKind.OTHER, set(), set()
    if _few_literal_items(model, iterable):
        return IterKind.SMALL_CONSTANT, set(), set()  # Ks = [0.1, 0.5, 1.0]; for K in Ks
    if isinstance(iterable, ast.Call):
        func = iterable.func
        fname = func.id if isinstance(func, ast.Name) and model.lookup(func) is None else None
        if fname == "reversed" and len(iterable.args) == 1 and not iterable.keywords:
            return _classify_iteration(model, target, iterable.args[0])  # the same items, backwards
        qual = model.qualname(func) or ""
        if fname == "range":
            if _is_small_range(model, iterable):
                return IterKind.SMALL_CONSTANT, names, set()
            return IterKind.RANGE, names, set()
        if qual == "itertools.product" and iterable.args and all(is_range_call(a) for a in iterable.args):
            return IterKind.INDEX_PRODUCT, names, set()
        if qual.endswith(".ndindex") and qual.partition(".")[0] in DEVICE_ROOTS:
            return IterKind.INDEX_PRODUCT, names, set()
        if _array_walker(model, iterable) is not None:
            if qual.endswith(".ndenumerate") and isinstance(target, ast.Tuple) and len(target.elts) == 2:
                index = names_in(target.elts[0])  # for idx, v in np.ndenumerate(a): idx picks, v is an item
                return IterKind.ARRAY, index, names - index
            return IterKind.ARRAY, set(), names  # np.nditer(a): item by item
        if fname == "enumerate" and iterable.args:
            inner_kind = Kind.DEVICE if _array_walker(model, iterable.args[0]) is not None else model.kind(iterable.args[0])
            first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else None
            idx = {first.id} if isinstance(first, ast.Name) else set()
            if inner_kind is Kind.DEVICE or _zips_device_array(model, iterable.args[0]):
                return IterKind.ARRAY, idx, names - idx
            if _few_literal_items(model, iterable.args[0]):
                return IterKind.SMALL_CONSTANT, set(), set()
            return IterKind.OTHER, set(), set()
        if fname == "zip" and _zips_device_array(model, iterable):
            return IterKind.ARRAY, set(), names  # item by item, however few (CPN103)
        if fname == "zip" and any(_few_literal_items(model, a) for a in iterable.args):
            return IterKind.SMALL_CONSTANT, set(), set()  # zip stops with its shortest argument
    if _array_walker(model, iterable) is not None:
        return IterKind.ARRAY, set(), names  # for v in a.flat
    if model.kind(iterable) is Kind.DEVICE:
        # the items of an integer np.arange are indices as well as items
        return IterKind.ARRAY, names if _holds_integer_range(model, iterable) else set(), names
    return IterKind.OTHER, set(), set()


def _array_walker(model: "FileModel", expr: ast.expr) -> ast.expr | None:
    """The device array ``expr`` walks item by item without being an array
    itself: ``np.ndenumerate(a)``, ``np.nditer(a)`` (or its first operand,
    ``np.nditer([a, b])``), ``a.flat``; None otherwise."""
    if isinstance(expr, ast.Attribute) and expr.attr == "flat":
        return expr.value if model.kind(expr.value) is Kind.DEVICE else None
    if isinstance(expr, ast.Name):  # with np.nditer(a, ...) as it: for x in it
        made = model.values.iterator_call(expr)
        return _array_walker(model, made) if made is not None else None
    if not (isinstance(expr, ast.Call) and expr.args):
        return None
    qual = model.qualname(expr.func) or ""
    root, _, tail = qual.rpartition(".")
    if tail not in ("ndenumerate", "nditer") or root.partition(".")[0] not in DEVICE_ROOTS:
        return None
    flags = next((k.value for k in expr.keywords if k.arg == "flags"), expr.args[1] if tail == "nditer" and len(expr.args) > 1 else None)
    if flags is not None and any(isinstance(n, ast.Constant) and n.value == "external_loop" for n in ast.walk(flags)):
        return None  # nditer(a, flags=['external_loop']) hands out whole 1-D chunks, not items
    first = expr.args[0]
    if isinstance(first, (ast.List, ast.Tuple)) and first.elts:
        first = first.elts[0]
    return first if model.kind(first) is Kind.DEVICE else None


def walked_arrays(model: "FileModel", frame: LoopFrame) -> list[ast.expr]:
    """The device arrays a loop walks item by item (CPN103's subject): the
    iterable itself, what ``enumerate``/``zip`` wrap, and the array under
    ``np.ndenumerate``, ``np.nditer`` and ``.flat``."""
    if frame.iter_kind is not IterKind.ARRAY:
        return []
    node = frame.node
    iterables = [node.iter] if isinstance(node, (ast.For, ast.AsyncFor)) else [g.iter for g in node.generators]  # type: ignore[attr-defined]
    found: list[ast.expr] = []
    for iterable in iterables:
        wrapped = model.progress_wrapped(iterable)
        stack = [wrapped if wrapped is not None and wrapped is not iterable else iterable]
        while stack:
            expr = stack.pop()
            walker = _array_walker(model, expr)
            if walker is not None:
                found.append(walker)
            elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("enumerate", "zip") and model.lookup(expr.func) is None:
                stack.extend(reversed(expr.args[:1] if expr.func.id == "enumerate" else expr.args))
            elif model.kind(expr) is Kind.DEVICE:
                found.append(expr)
    return found


def _walks_index_list(model: "FileModel", frame: LoopFrame, target: ast.expr, iterable: ast.expr) -> bool:
    """``for r in rows: out[r] += vals[r]`` where ``rows`` is a Python list
    of indices the program builds from its data (a comprehension or
    ``list(...)`` over a range or an array, ``.tolist()``, or a list grown by
    ``append`` in a loop): the loop walks indices, as ``range`` would, when
    its variable picks elements of a device array in the body."""
    if not (isinstance(target, ast.Name) and isinstance(iterable, ast.Name)) or frame.is_comprehension:
        return False
    bindings = model.reaching_bindings(iterable)
    if not bindings or not all(b.kind is BindKind.VALUE and b.value is not None and _data_sized_list(model, b.value)
                               for b in bindings):
        return False
    for node in ast.walk(frame.node):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and node.slice.id == target.id \
                and model.kind(node.value) is Kind.DEVICE:
            return True
    return False


def _data_sized_list(model: "FileModel", value: ast.expr) -> bool:
    """A list whose length comes from the program's data, not from its text."""
    if isinstance(value, ast.ListComp):
        return any(is_range_call(g.iter) or model.kind(g.iter) is Kind.DEVICE for g in value.generators)
    if isinstance(value, ast.Call):
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr == "tolist":
            return model.kind(func.value) is Kind.DEVICE
        if isinstance(func, ast.Name) and func.id == "list" and model.lookup(func) is None and value.args:
            return is_range_call(value.args[0]) or model.kind(value.args[0]) is Kind.DEVICE
        return False
    if isinstance(value, ast.List) and not value.elts:  # rows = [] ... rows.append(i) in a loop
        holder = model.statement_of(value)
        name = holder.targets[0].id if isinstance(holder, ast.Assign) and isinstance(holder.targets[0], ast.Name) else None
        return name is not None and any(
            isinstance(model.parent(use), ast.Attribute) and model.parent(use).attr == "append"  # type: ignore[union-attr]
            and model.in_loop(use) for use in model.names_by_id().get(name, ()))
    return False


def _few_literal_items(model: "FileModel", expr: ast.expr) -> bool:
    """A list or tuple of a few items written out (``[1000, 250, 100]``), or
    a name every binding of which that reaches ``expr`` is one, and which
    nothing in the file grows (no ``Ks.append``, ``Ks += ...``, ``Ks[i] = ...``)."""
    if isinstance(expr, (ast.List, ast.Tuple)):
        length = literal_length(expr)
        return length is not None and length <= SMALL_CONSTANT_LIMIT
    if not isinstance(expr, ast.Name):
        return False
    bindings = model.reaching_bindings(expr)
    if not bindings or not all(b.kind is BindKind.VALUE and isinstance(b.value, (ast.List, ast.Tuple)) and _few_literal_items(model, b.value) for b in bindings):
        return False
    for use in model.names_by_id().get(expr.id, ()):
        parent = model.parent(use)
        if isinstance(parent, ast.Attribute) or (isinstance(parent, ast.Subscript) and not isinstance(parent.ctx, ast.Load)):
            return False
    return True


def _literal_items(model: "FileModel", expr: ast.expr) -> int:
    """How many items a tuple or list written out has (through a name every
    binding of which is one, and which nothing in the file changes: ``CX =
    (0, 1, 0, -1, ...)``); a large number for anything else."""
    unknown = 1 << 30
    if isinstance(expr, (ast.List, ast.Tuple)):
        length = literal_length(expr)
        return length if length is not None else unknown
    if not isinstance(expr, ast.Name):
        return unknown
    bindings = model.reaching_bindings(expr)
    if not bindings or not all(b.kind is BindKind.VALUE and isinstance(b.value, (ast.List, ast.Tuple)) for b in bindings):
        return unknown
    for use in model.names_by_id().get(expr.id, ()):
        parent = model.parent(use)
        if isinstance(parent, ast.Attribute) or (isinstance(parent, ast.Subscript) and not isinstance(parent.ctx, ast.Load)):
            return unknown  # CX.append(...), CX[0] = ...
    return max(_literal_items(model, b.value) for b in bindings)  # type: ignore[arg-type]


def _holds_integer_range(model: "FileModel", iterable: ast.expr) -> bool:
    """``x`` or ``x[:-1]`` where every binding of ``x`` that reaches here is
    ``np.arange`` of integers (``for t in x[:-1]: S[t + 1] = ...``)."""
    while isinstance(iterable, ast.Subscript) and isinstance(iterable.slice, ast.Slice):
        iterable = iterable.value
    values = [iterable]
    if isinstance(iterable, ast.Name):
        bindings = model.reaching_bindings(iterable)
        if not bindings or any(b.kind is not BindKind.VALUE for b in bindings):
            return False
        values = [b.value for b in bindings]  # type: ignore[misc]
    for value in values:
        if not (isinstance(value, ast.Call) and model.call_api(value) == "arange"):
            return False
        if value.keywords or any(not isinstance(a, ast.Name) and model.const_int(a) is None for a in value.args):
            return False  # a dtype, or a float bound: not indices
    return True


def _zips_device_array(model: "FileModel", expr: ast.expr) -> bool:
    """``zip(a, b)`` (the builtin) with a device array among its arguments."""
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "zip"
        and model.lookup(expr.func) is None
        and any(model.kind(a) is Kind.DEVICE for a in expr.args)
    )


def _is_small_range(model: "FileModel", call: ast.Call) -> bool:
    """range(3), range(1, 4), range(a.ndim), range(len(a.shape))."""
    args = call.args
    if not args or len(args) > 3:
        return False
    stop = args[0] if len(args) == 1 else args[1]
    start = args[0] if len(args) >= 2 else None
    if isinstance(stop, ast.Attribute) and stop.attr == "ndim":
        return True
    if _names_dimension_count(stop) and model.const_int(stop) is None:
        return True  # unless the name holds a known number (`ndim = 512` cells per side)
    if (
        isinstance(stop, ast.Call)
        and isinstance(stop.func, ast.Name)
        and stop.func.id == "len"
        and stop.args
        and isinstance(stop.args[0], ast.Attribute)
        and stop.args[0].attr == "shape"
    ):
        return True
    stop_value = model.const_int(stop)
    start_value = model.const_int(start) if start is not None else 0
    if stop_value is None or start_value is None:
        return False
    return stop_value - start_value <= SMALL_CONSTANT_LIMIT


def _least_rank(model: "FileModel", array: ast.expr) -> int:
    """How many axes an array of unknown shape has at least: one per item of
    the shape tuple of its allocation (``np.zeros((k, m, *grid))``: 3, a
    starred part counting as one), when every binding that reaches here is
    such an allocation (or says nothing, like ``= None``); else 0."""
    if not isinstance(array, ast.Name):
        return 0
    bindings = model.reaching_bindings(array)
    if bindings and all(b.kind is BindKind.PARAM for b in bindings):
        return _shape_rank_evidence(model, array)
    least = None
    for binding in bindings:
        made = binding.value
        if model.values.binding_kind(binding) in NEUTRAL:
            continue  # `grhos = None` until allocated: neutral, as when kinds are joined
        if binding.kind is not BindKind.VALUE or not isinstance(made, ast.Call) or model.call_api(made) not in SHAPE_FIRST:
            return 0
        shape = made.args[0] if made.args else next((k.value for k in made.keywords if k.arg == "shape"), None)
        if not isinstance(shape, (ast.Tuple, ast.List)):
            return 0
        # each starred part counts as one axis: it is there to add axes
        # (`(k, m, *grid)` of a 2-D grid has four)
        explicit = len(shape.elts)
        least = explicit if least is None else min(least, explicit)
    return least or 0


def _shaped_like(model: "FileModel", array: ast.expr) -> tuple[int, ast.expr] | None:
    """``(1, rho)`` when every binding of ``array`` that reaches here
    allocates it with a shape of written-out leading sizes followed by an
    array's shape (``np.empty((9,) + rho.shape)``, ``np.zeros((k, *u.shape))``):
    one index per leading size picks a piece shaped like that array."""
    if not isinstance(array, ast.Name):
        return None
    found: tuple[int, ast.expr] | None = None
    for binding in model.reaching_bindings(array):
        made = binding.value
        if binding.kind is not BindKind.VALUE or not isinstance(made, ast.Call) or model.call_api(made) not in SHAPE_FIRST or not made.args:
            return None
        shape = made.args[0]
        lead: list[ast.expr]
        if isinstance(shape, ast.BinOp) and isinstance(shape.op, ast.Add) and isinstance(shape.left, ast.Tuple):
            lead, tail = list(shape.left.elts), shape.right
        elif isinstance(shape, ast.Tuple) and shape.elts and isinstance(shape.elts[-1], ast.Starred):
            lead, tail = list(shape.elts[:-1]), shape.elts[-1].value
        else:
            return None
        if not (isinstance(tail, ast.Attribute) and tail.attr == "shape") or any(isinstance(e, ast.Starred) for e in lead):
            return None
        this = (len(lead), tail.value)
        if found is not None and (found[0] != this[0] or ast.dump(found[1]) != ast.dump(this[1])):
            return None
        found = this
    return found


def _shape_rank_evidence(model: "FileModel", param: ast.Name) -> int:
    """The axes a parameter's function reads of its shape: ``b.shape[2]``
    needs three, ``n, d = X.shape`` two (0 when it reads none)."""
    return model.derived("shape-rank-evidence", _shape_reads).get((id(model.lookup(param)), param.id), 0)


def _shape_reads(model: "FileModel") -> dict[tuple[int, str], int]:
    """For every (scope, name) whose ``.shape`` the file reads, the axes it
    reads; one pass over the file's ``x.shape`` (asking per parameter went
    over every use of the name in the file: quadratic in a file of many
    functions with the same parameter names)."""
    least: dict[tuple[int, str], int] = {}
    for attribute in model.nodes(ast.Attribute):
        if attribute.attr != "shape" or not isinstance(attribute.value, ast.Name):
            continue
        use = attribute.value
        outer = model.parent(attribute)
        axes = 0
        if isinstance(outer, ast.Subscript) and outer.value is attribute:
            k = model.const_int(outer.slice)
            if k is not None and k >= 0:
                axes = k + 1
        elif isinstance(outer, ast.Assign) and outer.value is attribute and len(outer.targets) == 1:
            target = outer.targets[0]
            if isinstance(target, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in target.elts):
                axes = len(target.elts)
        if axes:
            key = (id(model.lookup(use)), use.id)
            least[key] = max(least.get(key, 0), axes)
    return least


# Names that count spatial dimensions (2 or 3, a handful at most), unlike
# `dim`/`dims`, which also name feature sizes in the hundreds.
_DIMENSION_COUNT_NAMES = frozenset({"ndim", "ndims", "n_dim", "n_dims", "num_dim", "num_dims", "n_dimensions", "num_dimensions"})


def _names_dimension_count(expr: ast.expr) -> bool:
    """``n_dim``, ``self.canvas.n_dim``: a count of spatial dimensions."""
    if isinstance(expr, ast.Name):
        return expr.id.lower() in _DIMENSION_COUNT_NAMES
    return isinstance(expr, ast.Attribute) and expr.attr.lower() in _DIMENSION_COUNT_NAMES


# ============================================================ work per iteration
class WorkAnalysis:
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
            for node in ast.walk(callee.node):
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
        for node in ast.walk(scope_node):
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
        for node in [*model.nodes_in_loop(frame, ast.Name), *model.nodes_in_loop(frame, ast.Attribute)]:
            if id(node) in output or id(node) in handed or not isinstance(node.ctx, ast.Load) or not self._is_array_use(node):
                continue  # (an array handed to a helper that picks it by the loop's indices: the helper's picks count)
            if self._kernel_operand(node, frame, names):
                continue  # a filter or weights combined with a window the index picks
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
            if work is Work.SLAB:
                result.whole.append(call)
            result.work = max(result.work, work)
        return result

    def _picks_in_helper(self, call: ast.Call, own: frozenset[str]) -> tuple[Work, list[ast.Subscript]] | None:
        """``helper(i, j)`` or ``flip(s, i, j)``: a function of the file handed
        the loop's own indices that picks the arrays it reads (its closure's,
        the module's, the ones it is handed) by what it receives
        (``img[x + a][y + b]``, ``s[i, j]``): the work of one call and the
        picks it makes for the loop. None when it picks nothing so, or also
        works on whole arrays."""
        model = self.model
        callee = model.calls.callee(call)
        if callee is None or any(model.kind(a).is_array and not isinstance(a, ast.Name) for a in call.args):
            return None
        arguments = {p: model.calls.argument(call, callee, p) for p in callee.params}
        receiving = frozenset(p for p, a in arguments.items() if a is not None and mentions(a, own))
        if not receiving:
            return None
        received = _reach(self._edges(callee), receiving)
        work = Work.NONE
        picks: list[ast.Subscript] = []
        for node in ast.walk(callee.node):
            if node is callee.node:
                continue
            if isinstance(node, ast.Subscript) and model.kind(node.value) is Kind.DEVICE:
                if mentions(node.slice, received):
                    work = max(work, self._pick_work(node, received))
                    picks.append(node)
                else:
                    work = max(work, self._whole_subscript_work(node))
            elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load) and self._is_array_use(node):
                work = max(work, self._size_work(node, Work.SLAB))
            elif isinstance(node, ast.Call) and model.calls.callee(node) is not callee:
                work = max(work, self._call_work(node))
            if work is Work.SLAB:
                return None
        return (work, picks) if picks else None

    def _result_piece(self, sub: ast.Subscript, frame: LoopFrame, names: frozenset[str], own: frozenset[str]) -> bool:
        """Is ``sub`` the piece of the result the iteration stores into, picked
        by the loop's own index (``out[t] = ...`` of a stack of matrices)?
        What is stored is as much work as what computes it, which the loop's
        other accesses show; the piece's own rank adds nothing. (A block of
        unknown size, ``out[i:i + chunk]``, is not such a piece.)"""
        model = self.model
        if not isinstance(sub.ctx, ast.Store) or not chain_mentions(model, sub, own):
            return False
        stmt = model.parent(sub)
        if not isinstance(stmt, (ast.Assign, ast.AugAssign)):
            return False
        if not any(not isinstance(c, ast.Slice) and mentions(c, own) for c in _components(sub)):
            return False  # LU[k + 1:, k + 1:] -= ...: a trailing block, not a picked piece
        if self._pieces(sub, _components(sub), names, frame) is None:
            return False
        # what is stored must be computed from pieces the index picks (not
        # from values of unknown kind, which say nothing of its size)
        return self._from_picks(stmt.value, frame, names)

    def _from_picks(self, expr: ast.expr, frame: LoopFrame, names: frozenset[str], depth: int = 0) -> bool:
        """Is ``expr`` computed from an access the index picks, directly or
        through names the loop binds (``Wc = W - W.mean(0)`` after ``W =
        X[t:t + window]``)?"""
        model = self.model
        for node in ast.walk(expr):
            if isinstance(node, ast.Subscript) and mentions(node.slice, names) and model.kind(node.value) is Kind.DEVICE:
                return True
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and depth < 3:
                for b in model.reaching_bindings(node):
                    if b.kind is BindKind.VALUE and b.value is not None and b.loop is not None and frame.contains(b.loop) \
                            and self._from_picks(b.value, frame, names, depth + 1):
                        return True
        return False

    def _panel_times_row(self, sub: ast.Subscript, frame: LoopFrame, names: frozenset[str]) -> bool:
        """``L[j + 1:, :j] @ L[j, :j]`` stored into ``L[j + 1:, j]``, ``L[i, :i] @
        X[:i, :]`` into ``X[i, :]``: a panel bounded by the index (a prefix
        or suffix along an axis the loop walks) contracted with a row the
        index picks into a row the index picks — column j of a Cholesky
        factor, row i of a triangular solve with many right-hand sides: one
        row of the result per pass, a 1/n share of the work (SPEC §3)."""
        model = self.model
        pieces = self._pieces(sub, _components(sub), names, frame)
        if pieces is None or not pieces[2]:
            return False  # no prefix or suffix the index bounds
        child, parent = _through_views(model, sub)
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.MatMult):
            partners = [parent.right if parent.left is child else parent.left]
        elif isinstance(parent, ast.Call) and child in parent.args and model.call_api(parent) in _CONTRACTIONS:
            partners = [a for a in parent.args if a is not child]
        else:
            return False
        if not all(self._picked_piece(p, frame, names) is not None for p in partners):
            return False
        return self._stored_into_piece(parent, frame, names) or model.kind(parent) is Kind.DEVICE_SCALAR

    def _picked_in_helper(self, node: ast.Name, frame: LoopFrame) -> Work | None:
        """``u[i, t + 1] = eom(u, dt, i, t)`` inside ``for i``: the function of
        the file only picks elements of ``u`` by the index it is handed (itself
        or through the helpers it hands both to), so the loop works on an
        element of ``u`` per pass, not on all of it. None when not shown."""
        model = self.model
        call = model.parent(node)
        if not isinstance(call, ast.Call) or node not in call.args:
            return None
        callee = model.calls.callee(call)
        if callee is None:
            return None
        picks = self._helper_picks(call, callee, node, self.varying(frame), 0)
        if picks is None:
            return None
        shape = model.shape(node)
        return Work.ROW if shape is not None and picks < len(shape) else Work.ELEMENT

    def _helper_picks(self, call: ast.Call, callee: "Scope", array: ast.expr, indices: frozenset[str], depth: int) -> int | None:
        """The fewest index components with which ``callee`` picks from the
        parameter ``call`` hands ``array`` to, when every use of it is a pick
        by the parameters that receive ``indices`` (no slices), or a hand-over
        of it with them to another function of the file. None otherwise."""
        model = self.model
        arguments = {p: model.calls.argument(call, callee, p) for p in callee.params}
        given = [p for p, a in arguments.items() if a is array]
        receiving = frozenset(p for p, a in arguments.items() if a is not None and a is not array and mentions(a, indices))
        if len(given) != 1 or not receiving or depth > 2:
            return None
        receiving = _reach(self._edges(callee), receiving)  # x_ = np.floor(x).astype(int) of a received x
        param = given[0]
        if any(b.kind is not BindKind.PARAM for b in callee.bindings.get(param, ())):
            return None  # rebound inside: the name stops meaning the array
        fewest: int | None = None
        for use in ast.walk(callee.node):
            if not (isinstance(use, ast.Name) and use.id == param and isinstance(use.ctx, ast.Load)):
                continue
            if model.lookup(use) is not callee:
                return None
            parent = model.parent(use)
            if isinstance(parent, ast.Subscript) and parent.value is use:
                components = _components(parent)
                if any(isinstance(c, ast.Slice) for c in components) or not mentions(parent.slice, receiving):
                    return None
                count: int | None = len(components)
            elif isinstance(parent, ast.Call) and use in parent.args and (inner := model.calls.callee(parent)) is not None:
                count = self._helper_picks(parent, inner, use, receiving, depth + 1)
            else:
                return None
            if count is None:
                return None
            fewest = count if fewest is None else min(fewest, count)
        return fewest

    def _host_arguments(self, frame: LoopFrame) -> set[int]:
        """Nodes that only feed output or host libraries (``plt.plot(x[:, 0])``,
        ``print(u)``): taken to the host, not device work of the iteration."""
        model = self.model
        found: set[int] = set()
        for call in model.nodes_in_loop(frame, ast.Call):
            if isinstance(call.func, ast.Name) and call.func.id in _COMPUTING_BUILTINS:
                continue  # max(delta, abs(V[i, i] - 1.0)): Python computes on the elements
            if id(call) not in found and model.is_host_call(call):
                for argument in [*call.args, *(k.value for k in call.keywords)]:
                    found.update(id(n) for n in ast.walk(argument))
        return found

    def _all_indices(self, frame: LoopFrame) -> frozenset[str]:
        """Everything that varies per iteration of ``frame`` or of a loop
        around it, and the indices of the loops inside it (``jj = j * s`` of
        an inner ``for j``, whatever kind ``s`` has)."""
        key = id(frame)
        found = self._all.get(key)
        if found is None:
            names: set[str] = set()
            current: LoopFrame | None = frame
            while current is not None:
                names |= self.varying(current)
                current = current.parent
            for inner in self.model.loops_within(frame):
                names |= self.own_indices(inner)
            found = self._all[key] = frozenset(names)
        return found

    def _pick_work(self, sub: ast.Subscript, names: frozenset[str], frame: LoopFrame | None = None) -> Work:
        """The work of an access the iteration picks: an element, a row, or a
        slab. Besides indices, the pieces an index picks are windows,
        prefixes and row segments (see :mod:`.spatial`); what the index
        leaves whole decides the size, except that a pixel picked along two
        axes across a batch (``out[:, i, j, :]``) is one batched element."""
        model = self.model
        outer, parent = sub, model.parent(sub)
        while isinstance(parent, ast.Subscript) and parent.value is outer and mentions(parent.slice, names):
            outer, parent = parent, model.parent(parent)
        if outer is not sub:
            return self._pick_work(outer, names, frame)  # T[i][j]: the chain picks what its last pick picks
        kind = model.kind(sub)
        if kind is Kind.DEVICE_SCALAR:
            return Work.ELEMENT
        components = _components(sub)
        pieces = self._pieces(sub, components, names, frame)
        if pieces is None:
            return Work.SLAB  # x[i:i + chunk], x[:, k:k + n]: a block per iteration
        picked, windows, partial, literal_only = pieces
        batched = _pixel(components, names)  # a pixel (or cell) across the batch axes the index leaves
        shape = model.shape(sub)
        if shape is not None:
            size = literal_size(shape)
            if size is not None and size <= SMALL_PICK:
                return Work.ELEMENT
            if windows and literal_only and len(shape) <= 1:
                return Work.ELEMENT  # a[i:i + 2]
            added = sum(1 for c in components if isinstance(c, ast.Constant) and c.value is None)
            # a window of a few literal elements beside whole axes (points[i:i + 1, :])
            # is judged by its rank, as before windows were pieces
            rest = len(shape) - added - (0 if literal_only else windows)
            if rest <= 0:
                return Work.ELEMENT
            return Work.ROW if rest <= 1 or batched else Work.SLAB
        like = _shaped_like(model, sub.value)
        if like is not None and like[0] == len(components) and not windows and not partial and not self._free_axes(components):
            # feq[q] of np.empty((9,) + rho.shape): as big as rho
            return self._size_work(like[1], Work.SLAB) if model.kind(like[1]) is Kind.DEVICE else Work.ELEMENT
        if windows and literal_only and not partial:
            return Work.ELEMENT
        free = self._free_axes(components) + partial
        parent = model.parent(sub)
        if not free and not windows and not (isinstance(parent, ast.Subscript) and parent.value is sub):
            # np.zeros((k, m, *grid))[i]: at least the axes the index leaves
            # (not in a chain, E[i][j][0], which goes on picking)
            free = max(0, _least_rank(model, sub.value) - len(components))
        # a[:, :, k] of an array of unknown rank is still a matrix per iteration
        if free >= 2 and not batched:
            return Work.SLAB
        return Work.ROW if free else Work.ELEMENT

    def _pieces(self, sub: ast.Subscript, components: list[ast.expr], names: frozenset[str],
                frame: LoopFrame | None) -> tuple[set[str], int, int, bool] | None:
        """(names that pick an axis, window axes, partial axes, all windows of
        literal width) of a picked access; None when a slice the index moves
        is a block of unknown size (a chunk, a shift by a tap)."""
        model = self.model
        picked: set[str] = set()
        windows = partial = 0
        literal_only = True
        blocks: list[str] = []
        array = sub.value.id if isinstance(sub.value, ast.Name) else None
        for axis, part in enumerate(components):
            if not mentions(part, names):
                continue
            if not isinstance(part, ast.Slice):
                if frame is not None and self._whole_mask(part, frame, names):
                    return None  # X[labels == k]: a mask over every point, as big as the data
                picked |= names_in(part) & names
                continue
            width = self._slice_width(part, names)
            if width is not None and width <= SMALL_SLICE:
                windows += 1
                picked |= names_in(part) & names
                continue
            literal_only = False
            form = slice_form(part, names)
            if form is None and frame is not None:
                form = slice_form(self._bounds_bound_in(part, frame), names)
            if form is None and self._bounded_by_pick(part, names):
                partial += 1  # hist[:image[i, j]]: a prefix as long as a value the index picks
                continue
            if form is None or frame is None:
                return None
            loop = index_loop(model, frame, form.var)
            if loop is None:
                return None  # moved by a number the body computes (a random start): size unknown
            if form.form is SliceForm.SEGMENT:
                partial += 1
            elif form.form is SliceForm.PREFIX:
                # (of a row computed from a pick by the same index, (a[k] * s)[k:],
                # the row is classified on its own)
                computed = not isinstance(sub.value, ast.Name) and any(
                    isinstance(n, ast.Subscript) and form.var in names_in(n.slice) for n in ast.walk(sub.value))
                # (L[i, :i] of a unit triangle: the row the same access picks by i is walked)
                triangle = any(not isinstance(c, ast.Slice) and offset_from(c, form.var) is not None for c in components) \
                    and unit_step(model, loop, form.var)
                if not computed and not triangle and not self._walks_axis(loop, form.var, array, axis):
                    return None
                partial += 1
            elif form.form is SliceForm.WINDOW:
                if self._tiles(loop, part, form.var):
                    windows += 1  # a[i:i + k] with i += k: one block of a tiling per pass
                    picked.add(form.var)
                    continue
                if not self._slides(loop, form.var) or self._shift_of_data(part, form.var, loop):
                    return None
                windows += 1
                picked.add(form.var)
            else:
                blocks.append(form.var)
        if blocks:
            # blocks along two axes at once (pooling); along one, a minibatch
            if len(picked | set(blocks)) < 2 or not all(self._slides(index_loop(model, frame, v), v, blocks=True) for v in blocks):  # type: ignore[arg-type]
                return None
            windows += len(blocks)
            picked |= set(blocks)
        return picked, windows, partial, literal_only

    def _whole_mask(self, part: ast.expr, frame: LoopFrame, names: frozenset[str], depth: int = 0) -> bool:
        """A boolean mask the loop computes from an array its index does not
        pick (``labels == k``, or a name bound in the loop to it): selecting
        with it reads the whole array every pass."""
        model = self.model
        if isinstance(part, ast.Name) and depth < 2:
            bindings = model.reaching_bindings(part)
            return bool(bindings) and all(
                b.kind in (BindKind.VALUE, BindKind.ELEMENT) and b.value is not None and b.loop is not None
                and frame.contains(b.loop)
                and (b.kind is BindKind.VALUE or _mask_of_indices(model, b.value) is not None)
                and self._whole_mask(b.value, frame, names, depth + 1)
                for b in bindings
            )
        mask = _mask_of_indices(model, part)
        if mask is not None:
            # idx = np.flatnonzero(labels == k); idx, top = np.where(routes == e):
            # the indices of a whole mask select as much as the mask does
            return self._whole_mask(mask, frame, names, depth)
        if isinstance(part, ast.BinOp) and isinstance(part.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return self._whole_mask(part.left, frame, names, depth) or self._whole_mask(part.right, frame, names, depth)
        if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Invert):
            return self._whole_mask(part.operand, frame, names, depth)
        if not isinstance(part, ast.Compare):
            return False
        for operand in (part.left, *part.comparators):
            if mentions(operand, names) or isinstance(operand, ast.Constant):
                continue
            if model.kind(operand) in (Kind.DEVICE, Kind.HOST, Kind.UNKNOWN) and not model.values.small_by_construction(operand):
                return True
        return False

    def _bounded_by_pick(self, part: ast.Slice, names: frozenset[str]) -> bool:
        """``hist[:image[i, j]]``: one bound open or fixed, the other an element
        of a device array the index picks (a level, a count): the piece is
        at most the array's length, a row, however the value falls."""
        if part.step is not None:
            return False
        bounds = [b for b in (part.lower, part.upper) if b is not None and mentions(b, names)]
        fixed = [b for b in (part.lower, part.upper) if b is not None and not mentions(b, names)]
        if len(bounds) != 1 or any(not isinstance(b, ast.Constant) for b in fixed):
            return False
        bound = bounds[0]
        return isinstance(bound, ast.Subscript) and mentions(bound.slice, names) and self.model.kind(bound.value) is Kind.DEVICE \
            and not any(isinstance(c, ast.Slice) for c in _components(bound))

    def _shift_of_data(self, part: ast.Slice, var: str, loop: LoopFrame) -> bool:
        """``img[:, di:di + oh]`` with ``oh = H - kh + 1`` in ``for di in
        range(kh)``: the width is an extent of the data and the trip count
        is not — the loop shifts a whole image once per tap (im2col by
        taps), the opposite of a window sliding over the data."""
        model = self.model
        width = [n for n in ast.walk(part.upper) if isinstance(n, (ast.Name, ast.Attribute, ast.Call))] if part.upper is not None else []
        data_width = any(
            sized_by_data(model, n) for n in width if not (isinstance(n, ast.Name) and n.id == var)
        )
        return data_width and not walks_data(model, loop, var)

    def _bounds_bound_in(self, part: ast.Slice, frame: LoopFrame) -> ast.Slice:
        """``start:end`` with ``start = ptr[i]`` and ``end = ptr[i + 1]``
        bound once in the loop: the slice with those values written in."""
        bounds = [self._with_bounds_written_in(bound, frame) for bound in (part.lower, part.upper)]
        if all(new is old for new, old in zip(bounds, (part.lower, part.upper))):
            return part
        return ast.Slice(lower=bounds[0], upper=bounds[1], step=part.step)

    def _with_bounds_written_in(self, bound: ast.expr | None, frame: LoopFrame, depth: int = 0) -> ast.expr | None:
        """``bound`` with each name the loops around it bind once written in
        (``y_min`` -> ``y - r`` for ``y_min = max(0, y - r)``, clamps dropped),
        as new nodes; ``bound`` itself when nothing changes."""
        if bound is None or depth > 3:
            return bound
        if isinstance(bound, ast.Name):
            bindings = self.model.reaching_bindings(bound)
            if len(bindings) == 1 and bindings[0].kind is BindKind.VALUE and bindings[0].value is not None \
                    and bindings[0].loop is not None and any(f.contains(bindings[0].loop) for f in frame.chain()):
                return self._with_bounds_written_in(bindings[0].value, frame, depth + 1)
            return bound
        unclamped = _unclamped(bound, self._all_indices(frame))
        if unclamped is not bound:
            return self._with_bounds_written_in(unclamped, frame, depth + 1)
        if isinstance(bound, ast.BinOp):
            left, right = self._with_bounds_written_in(bound.left, frame, depth + 1), self._with_bounds_written_in(bound.right, frame, depth + 1)
            if left is not bound.left or right is not bound.right:
                return ast.BinOp(left=left, op=bound.op, right=right)
        return bound

    def _slides(self, loop: LoopFrame | None, var: str, blocks: bool = False) -> bool:
        """Does ``loop`` move a window by ``var`` one step at a time and store
        what it computes into pieces the iteration picks (``y[i] = ...``,
        ``out[:, i, j, :] = ...``, ``out[o] = ...`` by a counter)? A tap loop
        shifting a whole array into an accumulator (``acc += w[k] * u[k:k + n]``)
        does not."""
        if loop is None:
            return False
        key = (id(loop), var, "blocks" if blocks else "slides")
        found = self._spatial_index.get(key)
        if found is None:
            model = self.model
            # a comprehension builds its result one item per pass: each item is the piece
            stores = loop.is_comprehension or writes_piece_by(model, loop, self.varying(loop))
            found = (blocks or unit_step(model, loop, var)) and stores
            self._spatial_index[key] = found
        return found

    def _tiles(self, loop: LoopFrame, part: ast.Slice, var: str) -> bool:
        """A block ``a[i:i + k]`` that the loop moves by its width ``k`` over
        an axis whose length bounds the loop (``while i + k <= a.shape[0]``,
        ``range(0, n - k + 1, k)`` with ``n = np.shape(X)[0]``), storing one
        element per block (``out[o] = np.mean(...)`` by a counter,
        ``energies.append(np.sum(...))``) and carrying no whole array from
        pass to pass: a spatial loop over the blocks (frame energies, block
        means). A minibatch loop that updates weights, or sums into one
        total, does neither."""
        key = (id(loop), var, f"tiles {ast.dump(part)}")
        found = self._spatial_index.get(key)
        if found is None:
            model = self.model
            found = tiles(model, loop, part, var) and walks_data(model, loop, var) \
                and self._stores_elements(loop) and not self._carries_whole(loop)
            self._spatial_index[key] = found
        return found

    def _stores_elements(self, loop: LoopFrame) -> bool:
        """Does every pass store single elements of its result, and only those:
        ``out[o] = ...`` (a pick by what varies with the loop, of one
        element) or ``results.append(v)`` of a number into a list?"""
        model = self.model
        varying = self.varying(loop)
        stored = False
        for stmt in model.nodes_in_loop(loop, ast.Assign, ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
            for target in targets:
                if isinstance(target, ast.Subscript) and mentions(target.slice, varying) and model.kind(target.value) is Kind.DEVICE:
                    if any(isinstance(c, ast.Slice) for c in _components(target)) or model.kind(target) not in (Kind.DEVICE_SCALAR, Kind.DEVICE) \
                            or model.shape(target) not in ((), None) or _least_rank(model, target.value) > len(_components(target)):
                        return False
                    stored = True
        for call in model.nodes_in_loop(loop, ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr == "append" and len(call.args) == 1 and isinstance(func.value, ast.Name):
                if model.kind(call.args[0]) not in (Kind.SCALAR, Kind.DEVICE_SCALAR):
                    return False
                stored = True
        return stored

    def _carries_whole(self, loop: LoopFrame) -> bool:
        """Does the loop update an array (or a value of unknown kind) it got
        from before (``W -= lr * grad``, ``w = w - lr * g``), or call what
        works by side effect (``optimizer.step(g)``): state carried from
        pass to pass, as a training loop's weights are?"""
        model = self.model
        counters = self._slice_bound_names(loop)  # i += k of a[i:i + k]: the number that moves the block along
        for stmt in model.nodes_in_loop(loop, ast.Assign, ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
            for target in targets:
                if not isinstance(target, (ast.Name, ast.Attribute)) or (isinstance(target, ast.Name) and target.id in counters):
                    continue
                updated = isinstance(stmt, ast.AugAssign) or any(
                    isinstance(n, type(target)) and ast.dump(n).replace("Load", "Store") == ast.dump(target)
                    for n in ast.walk(stmt.value))  # type: ignore[attr-defined]
                if updated and model.kind(target) not in (Kind.SCALAR, Kind.DEVICE_SCALAR):
                    return True
        for stmt in model.nodes_in_loop(loop, ast.Expr):
            call = stmt.value
            if not isinstance(call, ast.Call) or model.is_host_call(call) or model.call_api(call) is not None:
                continue
            if isinstance(call.func, ast.Attribute) and call.func.attr == "append":
                continue
            return True  # self.backward(grad, lr), optimizer.step(...): state updated out of sight
        return False

    def _walks_axis(self, loop: LoopFrame, var: str, array: str | None, axis: int) -> bool:
        """A prefix ``x[:i]`` is a piece of an axis ``i`` walks: the loop
        picks that axis of the same array by ``i`` (``x[i]``, ``L[i, i]``).
        (A lag loop over ``x[k:]`` and ``x[:-k]``, or over the taps of a
        filter ``b[m + 1:]``, does not: a whole-array product per lag.)"""
        key = (id(loop), var, f"axis {array} {axis}")
        found = self._spatial_index.get(key)
        if found is None:
            model = self.model
            found = unit_step(model, loop, var) and array is not None and picks_axis_by(model, loop, array, axis, var)
            self._spatial_index[key] = found
        return found

    def _kernel_operand(self, node: ast.expr, frame: LoopFrame, names: frozenset[str], rows_of: frozenset[str] = frozenset()) -> bool:
        """Is ``node`` (an array read whole every pass) a small operand of a
        piece the index picks: a filter or weights combined with a window
        (``img[i:i + 3, j:j + 3] * k``, ``inp[:, i:i + K, j:j + K, :, None] *
        w[None]``, ``np.dot(b, x[n - M:n])``), or the other vector of a dot
        product that gives one element (``y[i] = np.dot(w, X[i])``)? Its
        size is bounded by the piece's, so it adds no whole-array work.
        With ``rows_of`` (the loop's own indices), a row the loops around
        fix is such an operand too when it is multiplied by a row those
        indices pick (``lo[i, :i] * up[:i, j]`` inside ``for j``: one dot
        product per element, as in a matrix product by loops)."""

        model = self.model
        if self._stored_into_piece(node, frame, names):
            return True
        child, parent = _through_views(model, node)
        partners: list[ast.expr]
        contraction = False
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, (ast.Mult, ast.Add, ast.Sub, ast.Div, ast.MatMult)):
            partners = [parent.right if parent.left is child else parent.left]
            contraction = isinstance(parent.op, ast.MatMult)
        elif isinstance(parent, ast.Call) and child in parent.args and model.call_api(parent) in _COMBINERS:
            partners = [a for a in parent.args if a is not child]
            contraction = model.call_api(parent) in _CONTRACTIONS
        else:
            return False
        for partner in partners:
            pick = self._picked_piece(partner, frame, names)
            if pick is None:
                if contraction and self._walked_item(partner, frame) and self._one_number_from(parent, child, frame, names):
                    return True  # np.dot(row, w) in `for r, row in enumerate(m)`: a row the loop hands out
                continue
            if _has_window(pick, names):
                return True
            if rows_of and isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mult) and mentions(pick.slice, rows_of) \
                    and self._pick_work(pick, names, frame) is Work.ROW:
                return True
            if contraction and (self._one_number_from(parent, child, frame, names) or self._dot_of_vectors(child, pick, names, frame)
                                or self._stored_into_piece(parent, frame, names)):
                return True
            if isinstance(parent, ast.BinOp) and not contraction and self._beside_a_point(child, parent, pick, frame, names):
                return True
        return False

    def _beside_a_point(self, whole: ast.expr, combined: ast.AST, pick: ast.Subscript, frame: LoopFrame, names: frozenset[str]) -> bool:
        """``np.sum((centers - X[i]) ** 2, axis=1)`` then ``labels[i] =
        np.argmin(d)`` in ``for i in range(X.shape[0])``: a loop over the
        points of the data, each pass combining one point with an array it
        only reads (centres, coefficients) into one element of the result.
        That array is a small operand (SPEC §3), not whole-array work. (The
        same array on both sides, ``X - X[i]``, is all pairs: not so.)"""
        model = self.model
        if model.kind(pick) is Kind.DEVICE_SCALAR or model.shape(pick) == ():
            return False  # one number broadcast over an array bounds nothing
        base = _chain_root(pick)
        if base is None or ast.dump(base) == ast.dump(_chain_root(whole) or whole):
            return False
        picked_by = [v for v in names_in(pick.slice) if v in names]
        loops = [index_loop(model, frame, v) for v in picked_by]
        if not loops or not any(loop is not None and (loop.iter_kind is IterKind.ARRAY or walks_data(model, loop, v))
                                for loop, v in zip(loops, picked_by)):
            return False
        if self._written_in(whole, frame):
            return False  # state the loop updates, not an operand it reads
        return self._reaches_elements(combined, frame, names)

    def _written_in(self, expr: ast.expr, frame: LoopFrame) -> bool:
        """Does ``frame`` store into the array ``expr`` names (rebind it,
        update it in place or write a piece of it)?"""
        root = _chain_root(expr)
        if root is None:
            return True
        key = ast.dump(root).replace("Load", "Store")
        for target in self.model.nodes_in_loop(frame, ast.Name, ast.Attribute):
            if isinstance(target.ctx, ast.Store) and ast.dump(target) == key:
                return True
        for sub in self.model.nodes_in_loop(frame, ast.Subscript):
            if isinstance(sub.ctx, ast.Store) and (inner := _chain_root(sub)) is not None and ast.dump(inner) == ast.dump(root):
                return True
        return False

    def _one_number_from(self, product: ast.AST, whole: ast.expr, frame: LoopFrame, names: frozenset[str]) -> bool:
        """Does the product of a picked row with ``whole`` give one number:
        a 0-d value, or one that ends in single elements the index picks
        (``y[i] = A[i, :] @ x``; ``s = A[i] @ x - A[i, i] * x[i]`` then
        ``x[i] = (b[i] - s) / A[i, i]``)? Then ``whole`` is as long as the row."""
        model = self.model
        return model.kind(product) is Kind.DEVICE_SCALAR or _element_target(model, product, names) \
            or self._reaches_elements(product, frame, names, elementwise=True)

    def _walked_item(self, expr: ast.expr, frame: LoopFrame) -> bool:
        """Is ``expr`` the item (a row) a loop around it hands out from the
        array it walks (``row`` of ``for r, row in enumerate(m)``)?"""
        if not isinstance(expr, ast.Name):
            return False
        for loop in frame.chain():
            if loop.iter_kind is IterKind.ARRAY and expr.id in loop.element_vars:
                bindings = self.model.reaching_bindings(expr)
                return bool(bindings) and all(b.kind is BindKind.ELEMENT and b.loop is loop for b in bindings)
        return False

    def _reaches_elements(self, node: ast.AST, frame: LoopFrame, names: frozenset[str], elementwise: bool = False, depth: int = 0) -> bool:
        """Does the value of ``node`` end only in single elements the index
        picks (``labels[i] = np.argmin(d)``), or in a test's truth, through
        arithmetic, calls (only element-wise ones with ``elementwise``) and
        names the loop binds?"""
        model = self.model
        child: ast.AST = node
        parent = model.parent(child)
        while True:
            if isinstance(parent, ast.BinOp) and not (elementwise and isinstance(parent.op, ast.MatMult)):
                pass
            elif isinstance(parent, (ast.UnaryOp, ast.Compare, ast.BoolOp)) or (isinstance(parent, ast.IfExp) and child is not parent.test):
                pass
            elif isinstance(parent, ast.Call) and child in parent.args and (not elementwise or _is_elementwise(model.call_api(parent))):
                pass
            elif not elementwise and isinstance(parent, ast.Attribute) and parent.value is child and isinstance(model.parent(parent), ast.Call) \
                    and model.parent(parent).func is parent:  # type: ignore[union-attr]
                parent = model.parent(parent)  # d.sum(axis=1)
            else:
                break
            child, parent = parent, model.parent(parent)
        if isinstance(parent, (ast.If, ast.While)) and parent.test is child:
            return True
        if not (isinstance(parent, (ast.Assign, ast.AugAssign)) and parent.value is child):
            return False
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        if all(isinstance(t, ast.Subscript) and mentions(t.slice, names) and model.kind(t.value) is Kind.DEVICE
               and not any(isinstance(c, ast.Slice) for c in _components(t))
               and self._pick_work(t, names, frame) is Work.ELEMENT for t in targets):
            return True
        if not (isinstance(parent, ast.Assign) and len(targets) == 1 and isinstance(targets[0], ast.Name) and depth < 3):
            return False
        bound = targets[0]
        uses = [n for n in model.nodes_in_loop(frame, ast.Name) if n.id == bound.id and isinstance(n.ctx, ast.Load)
                and any(b.node is bound for b in model.reaching_bindings(n))]
        return bool(uses) and all(self._reaches_elements(use, frame, names, elementwise, depth + 1) for use in uses)

    def _dot_of_vectors(self, whole: ast.expr, pick: ast.Subscript, names: frozenset[str], frame: LoopFrame) -> bool:
        """``np.dot(lu[row], z)`` with ``z`` a vector: the product of a row and
        a vector of its length is one number, so ``z`` is row-sized."""
        shape = self.model.shape(whole)
        return shape is not None and len(shape) == 1 and self._pick_work(pick, names, frame) is Work.ROW

    def _stored_into_piece(self, node: ast.expr, frame: LoopFrame, names: frozenset[str], at_most: Work = Work.ROW) -> bool:
        """``w[:, c] = t``, ``y[i] = a + b``: an array whose value reaches a
        store into a piece the index picks through element-wise steps only
        must broadcast into that piece, so it is no larger than it."""
        model = self.model
        child: ast.AST = node
        parent = model.parent(child)
        while True:
            if isinstance(parent, ast.BinOp) and not isinstance(parent.op, ast.MatMult):
                pass
            elif isinstance(parent, ast.UnaryOp) and not isinstance(parent.op, ast.Not):
                pass
            elif isinstance(parent, ast.Call) and child in parent.args and _is_elementwise(model.call_api(parent)):
                pass
            elif isinstance(parent, ast.IfExp) and child is not parent.test:
                pass
            else:
                break
            child, parent = parent, model.parent(parent)
        if not (isinstance(parent, (ast.Assign, ast.AugAssign)) and parent.value is child):
            return False
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        return all(
            isinstance(t, ast.Subscript) and mentions(t.slice, names) and model.kind(t.value) is Kind.DEVICE
            and self._pick_work(t, names, frame) <= at_most
            for t in targets
        )

    def _picked_piece(self, expr: ast.expr, frame: LoopFrame, names: frozenset[str], depth: int = 0) -> ast.Subscript | None:
        """The access the index picks that ``expr`` is (through ``[None]``,
        ``.T`` and a name bound in the loop to it: ``patch = img[i:i + 3]``),
        when it is no larger than a row."""
        model = self.model
        while True:
            if isinstance(expr, ast.Subscript) and _only_new_axes(expr.slice):
                expr = expr.value
            elif isinstance(expr, ast.Attribute) and expr.attr == "T":
                expr = expr.value
            else:
                break
        if isinstance(expr, ast.Subscript) and mentions(expr.slice, names) and model.kind(expr.value) is Kind.DEVICE:
            return expr if self._pick_work(expr, names, frame) <= Work.ROW else None
        if isinstance(expr, ast.Name) and depth < 2:
            bindings = model.reaching_bindings(expr)
            if len(bindings) == 1 and bindings[0].kind is BindKind.VALUE and bindings[0].value is not None and bindings[0].loop is not None and frame.contains(bindings[0].loop):
                return self._picked_piece(bindings[0].value, frame, names, depth + 1)
        return None

    def _free_axes(self, components: list[ast.expr]) -> int:
        """How many axes the index leaves whole (``a[:, k]``: one)."""
        return sum(1 for c in components if isinstance(c, ast.Slice) and c.lower is None and c.upper is None)

    def _slice_width(self, part: ast.expr, names: frozenset[str]) -> int | None:
        """The literal width of ``i:i + w`` slices (None when not literal)."""
        if not isinstance(part, ast.Slice) or part.lower is None or part.upper is None:
            return None
        if part.step is not None:
            step = self.model.const_int(part.step)
            if step is None or step != 1:
                return None
        lower, upper = part.lower, part.upper
        if isinstance(upper, ast.BinOp) and isinstance(upper.op, (ast.Add, ast.Sub)) and ast.dump(upper.left) == ast.dump(lower):
            width = self.model.const_int(upper.right)
            return width if width is not None and isinstance(upper.op, ast.Add) else None
        low = _offset(lower)
        high = _offset(upper)
        if low is not None and high is not None and low[0] == high[0]:
            return high[1] - low[1]
        return None

    def _whole_subscript_work(self, sub: ast.Subscript, frame: LoopFrame | None = None) -> Work:
        """An access the iteration does not pick: as much work as its base
        (``u[1:-1]`` of an array made before the loop is a slab), unless it
        is one fixed element (``u[0]``) or a few literal elements."""
        model = self.model
        if model.kind(sub) is Kind.DEVICE_SCALAR:
            return Work.NONE
        shape = model.shape(sub)
        if model.values.small_by_construction(sub):
            return Work.ELEMENT
        base = sub.value
        if isinstance(base, ast.Subscript):
            return Work.NONE  # the inner subscript is classified on its own
        if shape is None and not any(isinstance(c, ast.Slice) for c in _components(sub)):
            return Work.NONE  # u[0] of an array of unknown rank: cannot tell
        if frame is not None and isinstance(base, ast.Name):
            return self._name_work(base, frame)
        return Work.SLAB

    def _is_array_use(self, node: ast.Name | ast.Attribute) -> bool:
        """A use of a device array as a whole value (not the base of a
        subscript, not ``a.shape``, not ``len(a)``)."""
        model = self.model
        parent = model.parent(node)
        if isinstance(parent, ast.Subscript) and parent.value is node:
            return False
        if isinstance(parent, ast.Attribute) and parent.value is node and parent.attr in ARRAY_METADATA:
            return False
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in ("len", "print", "id", "type", "isinstance"):
            return False
        if _handed_to_unread_parameter(model, node):
            return False  # F(U, t + dt) where F never reads t
        kind = model.kind(node)
        if kind is Kind.UNKNOWN and isinstance(node, ast.Attribute):
            return self._attribute_used_as_array(node)
        return kind is Kind.DEVICE

    def _attribute_used_as_array(self, node: ast.Attribute) -> bool:
        """``self.X`` of unknown kind (set in another module) that the class
        uses as an array somewhere (``self.X.shape``, ``self.X[i, j]``,
        ``self.X @ w``, ``self.X.sum()``): an array whose size the file does
        not state, as SPEC §3 says of parameters used as arrays."""
        key = _attribute_key(self.model, node)
        if key is None:
            return False
        if self._attribute_arrays is None:
            # every attribute of the file once, rather than once per attribute asked about
            table: dict[tuple[int, str, str], bool] = {}
            for use in self.model.nodes(ast.Attribute):
                use_key = _attribute_key(self.model, use)
                if use_key is not None and not table.get(use_key):
                    table[use_key] = _array_evidence(self.model, use)
            self._attribute_arrays = table
        return self._attribute_arrays.get(key, False)

    def _name_work(self, node: ast.Name | ast.Attribute, frame: LoopFrame) -> Work:
        """A whole-value use of an array inside ``frame``: as much work as the
        value it holds in this iteration."""
        model = self.model
        if isinstance(node, ast.Attribute) and node.attr in _SAME_SIZE_VIEWS and isinstance(node.value, (ast.Name, ast.Attribute)) \
                and model.kind(node.value) is Kind.DEVICE:
            return self._name_work(node.value, frame)  # Wc.T is as big as Wc
        if isinstance(node, ast.Name) and id(node) in self._one_element_uses():
            return Work.ELEMENT  # `if neighbours == 3:` whatever computed it
        if isinstance(node, ast.Name):
            # numbers and unknowns (acc = 0.0 before acc = acc * g + x[i]) add no work
            bindings = [b for b in self._made_by(node) if model.values.binding_kind(b) not in (Kind.SCALAR, Kind.UNKNOWN)]
            inside = [b for b in bindings if b.loop is not None and frame.contains(b.loop)]
            outside = [b for b in bindings if b not in inside]
            # a value the loop carries from a start of one element (acc = x[0],
            # y = y0.copy() of a 4-vector) keeps that size while the loop only
            # rebinds it from element work
            start = max((self._start_work(b, node.id) for b in outside), default=Work.NONE)
            if inside and start <= Work.ROW:
                work = start
                made = any(b.kind is not BindKind.AUG for b in bindings)
                for b in inside:
                    if b.value is not None and self._grows(b.value, node.id):
                        return self._size_work(node, Work.SLAB)  # out = np.append(out, v): longer every pass
                    if b.kind is BindKind.VALUE and b.value is not None:
                        work = max(work, self._expr_work_of(b.value, frame))
                    elif b.kind is BindKind.AUG and (model.kind(b.value) is Kind.SCALAR or made):
                        # `s = a[j]; s *= -1`, `d = pos[j] - pos[i]; d -= L * np.round(d / L)`:
                        # an update in place is as big as the value it updates,
                        # which the other bindings give
                        continue
                    elif b.kind is BindKind.AUG and b.value is not None:
                        work = max(work, self._expr_work_of(b.value, frame))  # s = 0.0; s += a[i]
                    elif b.kind is BindKind.ELEMENT:
                        work = max(work, self._size_work(node, Work.ROW))
                    else:
                        return self._size_work(node, Work.SLAB)
                return work
        return self._size_work(node, Work.SLAB)

    def _made_by(self, node: ast.Name) -> list[Binding]:
        """The bindings that reach ``node``, and for an update in place
        (``S *= f``) the bindings of the value it updates too."""
        model = self.model
        found: list[Binding] = []
        stack = list(model.reaching_bindings(node))
        while stack:
            binding = stack.pop()
            if binding in found:
                continue
            found.append(binding)
            if binding.kind is BindKind.AUG and isinstance(binding.node, ast.Name):
                stack.extend(model.reaching_bindings(binding.node))
        return sorted(found, key=lambda b: b.pos)

    def _grows(self, value: ast.expr, name: str) -> bool:
        """``np.append(out, v)``, ``np.concatenate([acc, row])``,
        ``np.r_[xs, v]``: a value that joins ``name`` with more."""
        from .numpy_api import INDEX_BUILDERS, JOINERS

        model = self.model
        for node in ast.walk(value):
            joins = isinstance(node, ast.Call) and model.call_api(node) in JOINERS
            joins = joins or (isinstance(node, ast.Subscript) and (model.qualname(node.value) or "").rpartition(".")[2] in INDEX_BUILDERS)
            if joins and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node)):
                return True
        return False

    def _start_work(self, binding: Binding, name: str, depth: int = 0) -> Work:
        """How big the value a binding made before the loop is, by the
        loop's own measure: NONE for a number, ELEMENT for an array of a few
        literal elements (``y = y0.copy()`` of a 4-vector), and for a fixed
        pick (``acc = x[0]``, ``y = self.b[0] * x``) as much as an index
        pick of that array is (an element of an array of unknown rank);
        SLAB for anything else."""
        value = binding.value
        if binding.kind is not BindKind.VALUE or value is None:
            return Work.SLAB
        if self.model.values.small_by_construction(value):
            return Work.ELEMENT
        return self._value_size(value, name, depth)

    def _value_size(self, expr: ast.expr, name: str, depth: int) -> Work:
        model = self.model
        kind = model.kind(expr)
        if kind in (Kind.SCALAR, Kind.DEVICE_SCALAR) or isinstance(expr, ast.Constant):
            return Work.NONE
        if isinstance(expr, ast.BinOp):
            return max(self._value_size(expr.left, name, depth), self._value_size(expr.right, name, depth))
        if isinstance(expr, ast.UnaryOp):
            return self._value_size(expr.operand, name, depth)
        if isinstance(expr, ast.Name):
            if expr.id == name:
                return Work.NONE  # the carried value itself (y = y + b[i] * x[i - 1] of a loop before)
            bindings = [b for b in model.reaching_bindings(expr) if model.values.binding_kind(b) not in (Kind.SCALAR, Kind.UNKNOWN)]
            if not bindings or depth >= 2:
                return Work.NONE if not bindings and kind is not Kind.DEVICE else Work.SLAB
            return max(self._start_work(b, name, depth + 1) for b in bindings)
        if isinstance(expr, ast.Subscript) and model.kind(expr.value) is Kind.DEVICE:
            if any(isinstance(c, ast.Slice) for c in _components(expr)) or isinstance(expr.value, ast.Subscript):
                return Work.SLAB
            if any(model.kind(c) not in (Kind.SCALAR, Kind.DEVICE_SCALAR) and not isinstance(c, ast.Constant) for c in _components(expr)):
                return Work.SLAB  # a fancy index
            return self._pick_work(expr, frozenset(names_in(expr.slice)))
        if isinstance(expr, ast.Call) and _is_elementwise(model.call_api(expr)):
            return max((self._value_size(a, name, depth) for a in expr.args), default=Work.NONE)
        return Work.SLAB

    def _size_work(self, node: ast.expr, default: Work) -> Work:
        """Element-sized for an array of a few numbers by construction, and
        for a value whose truth an ``if``/``while`` takes from a comparison
        (``if eig > 0:``): only a one-element array has one."""
        model = self.model
        if model.values.small_by_construction(node) or _tested_for_truth(model, node):
            return Work.ELEMENT
        if isinstance(node, ast.Name) and id(node) in self._one_element_uses():
            return Work.ELEMENT
        return default

    def _one_element_uses(self) -> set[int]:
        """Uses of names whose value is one element because a test takes its
        truth (``if denom:``, ``if cost < 0:``; on several elements that
        raises), and, backwards, the names it is computed from by arithmetic
        (``denom = a * (2.0 - w - 1.0 / w)``, ``w *= wx``): broadcasting never
        makes a result smaller than an operand."""
        if self._one_element is not None:
            return self._one_element
        model = self.model
        found: set[int] = set()
        # seeds: the names in the tests of if/while/assert and conditional expressions
        tests = [node.test for node in model.nodes(ast.If, ast.While, ast.IfExp, ast.Assert)]  # type: ignore[attr-defined]
        work = [n for test in tests for n in _truth_names(test)]
        # and the values the builtin max/min compares (`m = max(m, a[i])`):
        # comparing arrays of several elements raises as a test does
        work += [a for call in model.nodes(ast.Call) if _builtin_extremum(model, call) for a in call.args if isinstance(a, ast.Name)]
        while work:
            use = work.pop()
            if id(use) in found:
                continue
            found.add(id(use))
            for binding in model.reaching_bindings(use):
                if binding.kind not in (BindKind.VALUE, BindKind.AUG) or binding.value is None:
                    continue
                operands = _arithmetic_operands(binding.value)
                if isinstance(binding.value, ast.Call):
                    # n = count(i, j) of a function of the file: what it returns
                    callee = model.calls.callee(binding.value)
                    for returned in callee.returns if callee is not None else ():
                        operands += _arithmetic_operands(returned)
                if binding.kind is BindKind.AUG and isinstance(binding.node, ast.Name):
                    operands.append(binding.node)  # the value it updated
                work.extend(o for o in operands if id(o) not in found)
        self._one_element = found
        return found

    def _expr_work_of(self, expr: ast.expr, frame: LoopFrame) -> Work:
        """The work of computing ``expr`` (a value bound inside the loop), as
        seen from ``frame``: what varies and what is bound inside depend on
        the loop asked about, so the answer is kept per (expression, loop)."""
        key = (id(expr), id(frame))
        if key in self._expr_work:
            return self._expr_work[key]
        self._expr_work[key] = Work.NONE  # a value that refers to itself adds nothing
        model = self.model
        names = self._all_indices(frame)
        work = self._size_work(expr, Work.NONE) if model.kind(expr) is Kind.DEVICE else Work.NONE
        if work is Work.NONE and self._array_of_unknown_size(expr):
            work = Work.SLAB  # V = np.where(c[t] > C, c[t], V * df): as big as operands nothing sizes
        for node in ast.walk(expr):
            if isinstance(node, ast.Subscript) and model.kind(node.value) is Kind.DEVICE:
                if mentions(node.slice, names):
                    work = max(work, self._pick_work(node, names, frame))
                elif not self._kernel_operand(node, frame, names):
                    work = max(work, self._whole_subscript_work(node, frame))
            elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load) and self._is_array_use(node):
                if not self._kernel_operand(node, frame, names):
                    work = max(work, self._name_work(node, frame))
            elif isinstance(node, ast.Call):
                work = max(work, self._call_work(node))
        self._expr_work[key] = work
        return work

    def _array_of_unknown_size(self, expr: ast.expr) -> bool:
        """A NumPy call whose result is an array (not one element) and that
        takes a value nothing in the file sizes (an untyped parameter, the
        result of a method of another object): it may be a whole array."""
        model = self.model
        if not (isinstance(expr, ast.Call) and model.call_api(expr) is not None and model.kind(expr) is Kind.DEVICE):
            return False
        operands = [*expr.args, *(k.value for k in expr.keywords)]
        return any(not isinstance(o, ast.Constant) and model.kind(o) is Kind.UNKNOWN for o in operands)

    def _call_work(self, call: ast.Call) -> Work:
        """Work a call does by itself: a new array of many elements (an
        allocation, a random draw), or a helper of the file that works on
        whole arrays. Math on arrays is as much work as its operands, which
        are classified where they appear."""
        model = self.model
        scope = model.calls.callee(call)
        if scope is not None:
            if not any(model.kind(a).is_array for a in call.args):
                return self.function_work(scope.node)
            return Work.NONE
        if model.calls.steps_file_object(call):
            return Work.SLAB  # sim.step(): the object's own work, out of sight
        if model.calls.calls_project_module(call):
            # another module of the project: its work is out of sight and may
            # be a whole simulation (a parameter sweep storing one number per
            # run), so the loop is not shown to do element work
            return Work.SLAB
        if model.kind(call) is not Kind.DEVICE:
            return Work.NONE
        tail = model.call_api(call)
        func = call.func
        draw = (tail is not None and tail.startswith("random.")) or (
            isinstance(func, ast.Attribute) and model.kind(func.value) is Kind.GENERATOR
        )
        if not draw and tail not in BUILDERS:
            return Work.NONE
        operands = [e for a in call.args for e in (a.elts if isinstance(a, (ast.List, ast.Tuple)) else [a])]
        if tail in CONVERSIONS and any(model.kind(o) in (Kind.DEVICE, Kind.DEVICE_SCALAR, Kind.SEQ) for o in operands):
            return Work.NONE  # np.array([a[i], b[i]]): as much as its parts
        if tail in CONVERSIONS and len(call.args) == 1 and _literal_items(model, call.args[0]) <= SMALL_PICK:
            return Work.ELEMENT  # np.array(CX) of a module's 9 lattice directions
        return self._size_work(call, Work.SLAB)


def _handed_to_unread_parameter(model: "FileModel", node: ast.expr) -> bool:
    """Is ``node`` part of an argument (``t``, ``t + dt / 2``) that a
    function of the file receives and never reads?"""
    child: ast.AST = node
    parent = model.parent(node)
    while isinstance(parent, (ast.BinOp, ast.UnaryOp)):
        child, parent = parent, model.parent(parent)
    return isinstance(parent, ast.Call) and isinstance(child, ast.expr) and model.calls.unread_argument(parent, child)


# Attributes that are the same array seen another way (a transpose, a part).
_SAME_SIZE_VIEWS = frozenset({"T", "mT", "real", "imag"})

# Builtins that compute with the device values they are given (CPN110's
# subject) rather than show or store them: their arguments are the loop's work.
_COMPUTING_BUILTINS = frozenset({"min", "max", "sum"})

# NumPy calls that combine their array arguments element by element or by a
# contraction: a filter or weights passed beside a window is bounded by it.
_CONTRACTIONS = frozenset({"dot", "matmul", "inner", "vdot", "tensordot", "einsum"})
_COMBINERS = _CONTRACTIONS | frozenset({"multiply", "add", "subtract", "divide", "true_divide", "convolve", "correlate", "kron"})


_ARRAY_EVIDENCE_METHODS = frozenset({"sum", "mean", "dot", "reshape", "copy", "astype", "ravel", "flatten", "transpose", "std", "var", "cumsum", "argmax", "argmin"})


def _attribute_key(model: "FileModel", node: ast.Attribute) -> tuple[int, str, str] | None:
    """(class, receiver, attribute) for ``self.X`` inside a method: the same
    attribute wherever the class's methods use it."""
    if not isinstance(node.value, ast.Name):
        return None
    for ancestor in model.ancestors(node):
        if isinstance(ancestor, ast.ClassDef):
            return id(ancestor), node.value.id, node.attr
    return None


def _array_evidence(model: "FileModel", use: ast.Attribute) -> bool:
    """Is this use of a value one only arrays support (``.shape``, ``.T``,
    ``[i, j]``, ``@``, an array method, the array argument of a NumPy call)?"""
    parent = model.parent(use)
    if isinstance(parent, ast.Attribute) and parent.value is use:
        if parent.attr in ("shape", "ndim", "dtype", "T"):
            return True
        return parent.attr in _ARRAY_EVIDENCE_METHODS and isinstance(model.parent(parent), ast.Call)
    if isinstance(parent, ast.Subscript) and parent.value is use:
        return isinstance(parent.slice, ast.Tuple) and len(parent.slice.elts) >= 2
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.MatMult):
        return True
    if isinstance(parent, ast.Call) and parent.args and parent.args[0] is use:
        from .numpy_api import NOT_ARRAY_FIRST_ARGUMENT

        api = model.call_api(parent)
        return api is not None and api not in NOT_ARRAY_FIRST_ARGUMENT and not api.startswith("random.")
    return False


def _is_elementwise(api: str | None) -> bool:
    from .numpy_api import ELEMENTWISE

    return api is not None and api in ELEMENTWISE


def _only_new_axes(index: ast.expr) -> bool:
    """``[None]``, ``[:, None]``, ``[..., np.newaxis]``, ``[::-1]``: a view
    of the whole array with axes added or reversed."""
    parts = list(index.elts) if isinstance(index, ast.Tuple) else [index]
    for part in parts:
        if isinstance(part, ast.Constant) and part.value in (None, Ellipsis):
            continue
        if isinstance(part, ast.Attribute) and part.attr == "newaxis":
            continue
        if isinstance(part, ast.Slice) and part.lower is None and part.upper is None:
            continue
        return False
    return True


def _through_views(model: "FileModel", node: ast.expr) -> tuple[ast.expr, ast.AST | None]:
    """``node`` and its parent, after climbing views of the whole array
    (``w[None]``, ``w.T``, ``w[::-1]``, ``w.reshape(...)``)."""
    child: ast.expr = node
    parent = model.parent(child)
    while True:
        if isinstance(parent, ast.Subscript) and parent.value is child and _only_new_axes(parent.slice):
            child, parent = parent, model.parent(parent)
        elif isinstance(parent, ast.Attribute) and parent.value is child and parent.attr == "T":
            child, parent = parent, model.parent(parent)
        elif (isinstance(parent, ast.Attribute) and parent.value is child and parent.attr in ("reshape", "ravel", "flatten")
              and isinstance(model.parent(parent), ast.Call)):
            child = model.parent(parent)  # type: ignore[assignment]
            parent = model.parent(child)
        else:
            return child, parent


def _flow_edges(scope: "Scope") -> dict[str, set[str]]:
    """For a function: each name -> the names its assignments compute from
    it (``x_, y_ = np.floor(x), np.floor(y)``: x -> {x_}, y -> {y_})."""
    edges: dict[str, set[str]] = {}
    for stmt in ast.walk(scope.node):
        if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or stmt.value is None:
            continue
        value = stmt.value
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
                pairs = list(zip(target.elts, value.elts))
            else:
                pairs = [(target, value)]
            for bound, made in pairs:
                if isinstance(bound, ast.Name):
                    for name in names_in(made):
                        edges.setdefault(name, set()).add(bound.id)
    return edges


def _reach(edges: dict[str, set[str]], seeds: frozenset[str]) -> frozenset[str]:
    """``seeds`` and every name ``edges`` lead to from them."""
    found = set(seeds)
    stack = list(seeds)
    while stack:
        for name in edges.get(stack.pop(), ()):
            if name not in found:
                found.add(name)
                stack.append(name)
    return frozenset(found)


def _chain_root(expr: ast.expr) -> ast.expr | None:
    """``X`` of ``X[i]``, ``X[i][j]``, ``X.T``, ``X[None]``; ``self.c`` of
    ``self.c[k]``; None for a computed value."""
    while isinstance(expr, ast.Subscript) or (isinstance(expr, ast.Attribute) and expr.attr in _SAME_SIZE_VIEWS):
        expr = expr.value
    return expr if isinstance(expr, (ast.Name, ast.Attribute)) else None


def _pixel(components: list[ast.expr], names: frozenset[str]) -> bool:
    """Two neighbouring axes picked by two different indices (or windows
    they move), beside axes left whole: ``out[:, i, j, :]``,
    ``inp[:, i:i + K, j:j + K, :]`` — one pixel of an image across the
    batch and channel axes."""
    picked = [names_in(c) & names if mentions(c, names) else set() for c in components]
    return any(a and b and len(a | b) >= 2 for a, b in zip(picked, picked[1:]))


def _unclamped(bound: ast.expr | None, moving: frozenset[str]) -> ast.expr | None:
    """``max(0, y - r)`` -> ``y - r``, ``min(h, y + r + 1)`` -> ``y + r + 1``:
    a window clamped at the array's edges (what the loop does not move) is
    no wider than the window."""
    if isinstance(bound, ast.Call) and isinstance(bound.func, ast.Name) and bound.func.id in ("max", "min") \
            and len(bound.args) == 2 and not bound.keywords:
        with_index = [a for a in bound.args if mentions(a, moving)]
        if len(with_index) == 1:
            return with_index[0]
    return bound


def _has_window(sub: ast.Subscript, names: frozenset[str]) -> bool:
    """Does the access pick a window or block (a slice the index moves with
    both bounds), rather than elements, rows or prefixes?"""
    for part in _components(sub):
        if isinstance(part, ast.Slice) and part.lower is not None and part.upper is not None and mentions(part, names):
            form = slice_form(part, names)
            if form is not None and form.form in (SliceForm.WINDOW, SliceForm.BLOCK):
                return True
    return False


def _element_target(model: "FileModel", node: ast.AST, names: frozenset[str]) -> bool:
    """Is ``node`` computed for an element the index picks (``y[i] = ...``)?"""
    stmt = model.statement_of(node)
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AugAssign) else []
    for target in targets:
        if isinstance(target, ast.Subscript) and mentions(target.slice, names):
            if not any(isinstance(c, ast.Slice) for c in _components(target)):
                return True
    return False


_TRUTH_COMPARISONS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


def _tested_for_truth(model: "FileModel", node: ast.expr) -> bool:
    """``x`` in ``if x > 0:``, ``while a < b and c:``, ``y if x == 0 else z``:
    an operand of a comparison whose result is a test's truth value. On an
    array of several elements that raises, so the value is one element.
    (``in``/``is`` and comparisons passed to ``np.any`` do not count.)"""
    parent = model.parent(node)
    if not isinstance(parent, ast.Compare) or not all(isinstance(op, _TRUTH_COMPARISONS) for op in parent.ops):
        return False
    child: ast.AST = parent
    parent = model.parent(parent)
    while isinstance(parent, ast.BoolOp) or (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)):
        child, parent = parent, model.parent(parent)
    return isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)) and parent.test is child


def _builtin_extremum(model: "FileModel", call: ast.Call) -> bool:
    """``max(m, a[i])``, ``min(a, b, c)``: the builtin (not pylab's NumPy
    ``max`` from a star import) comparing two or more values."""
    func = call.func
    return (isinstance(func, ast.Name) and func.id in ("max", "min") and len(call.args) >= 2
            and not any(isinstance(a, ast.Starred) for a in call.args)
            and model.lookup(func) is None and model.qualname(func) is None)


def _truth_names(test: ast.expr) -> list[ast.Name]:
    """The names whose truth ``test`` takes: the test itself (``if x:``) and
    the operands of its truth comparisons (as in :func:`_tested_for_truth`),
    through ``and``/``or``/``not``."""
    found: list[ast.Name] = []
    stack = [test]
    while stack:
        expr = stack.pop()
        if isinstance(expr, ast.BoolOp):
            stack += expr.values
        elif isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
            stack.append(expr.operand)
        elif isinstance(expr, ast.Compare):
            if all(isinstance(op, _TRUTH_COMPARISONS) for op in expr.ops):
                found += [e for e in (expr.left, *expr.comparators) if isinstance(e, ast.Name)]
        elif isinstance(expr, ast.Name):
            found.append(expr)
    return found


def _arithmetic_operands(value: ast.expr) -> list[ast.Name]:
    """The names ``value`` combines by arithmetic alone (``+ - * / ** ...``
    and unary signs); a call, subscript or anything else stops the walk."""
    found: list[ast.Name] = []
    stack = [value]
    while stack:
        expr = stack.pop()
        if isinstance(expr, ast.BinOp):
            stack += [expr.left, expr.right]
        elif isinstance(expr, ast.UnaryOp) and not isinstance(expr.op, ast.Not):
            stack.append(expr.operand)
        elif isinstance(expr, ast.Name):
            found.append(expr)
    return found


_VARYING_BINDINGS = (BindKind.VALUE, BindKind.AUG, BindKind.ELEMENT, BindKind.COUNTER)


def _header_end(frame: LoopFrame) -> tuple[int, int]:
    """The position up to which names are bound by the loop's header."""
    node = frame.node
    target = getattr(node, "target", None)
    if target is None and frame.is_comprehension:
        return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)
    if target is None:
        return (0, 0)
    return (target.end_lineno or target.lineno, target.end_col_offset or 0)


def _components(sub: ast.Subscript) -> list[ast.expr]:
    return list(sub.slice.elts) if isinstance(sub.slice, ast.Tuple) else [sub.slice]


# The forms of what a mask-to-indices call returns (mask_indices).
TUPLE = "tuple"  # one index array per axis: np.nonzero, one-argument np.where
MATRIX = "matrix"  # np.argwhere: one row per hit
FLAT = "flat"  # np.flatnonzero


def mask_indices(model: "FileModel", call: ast.Call) -> tuple[ast.expr, str] | None:
    """The mask a nonzero-family call turns into indices, and the form of
    the result: TUPLE (one index array per axis), MATRIX (argwhere: one row
    per hit) or FLAT (flatnonzero)."""
    func = call.func
    if callee_name(func) not in ("nonzero", "where", "argwhere", "flatnonzero"):
        return None  # cheap test before resolving the name through the imports
    api = model.call_api(call)
    if call.args and (api == "nonzero" or (api == "where" and len(call.args) == 1 and not call.keywords)):
        return call.args[0], TUPLE
    if call.args and api == "argwhere":
        return call.args[0], MATRIX
    if call.args and api == "flatnonzero":
        return call.args[0], FLAT
    if isinstance(func, ast.Attribute) and func.attr == "nonzero" and not call.args and model.is_array(func.value):
        return func.value, TUPLE
    return None


def _mask_of_indices(model: "FileModel", expr: ast.expr) -> ast.expr | None:
    """The mask :func:`mask_indices` finds behind ``expr``, also through one
    vector of the result (``np.where(m)[0]``); None for anything else."""
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Call):
        expr = expr.value
    found = mask_indices(model, expr) if isinstance(expr, ast.Call) else None
    return found[0] if found is not None else None


def _index_only(index: ast.expr) -> bool:
    """``[j]``, ``[0]``, ``[i, j + 1]``: integer positions, no slice or new axis."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return all(not isinstance(p, ast.Slice) and not (isinstance(p, ast.Constant) and p.value in (None, Ellipsis))
               for p in parts)


def _chain_picks(model: "FileModel", sub: ast.Subscript, names: frozenset[str]) -> bool:
    """Does ``sub`` pick by ``names``: its own index, or, when it completes a
    chain with integer positions (``pot[i][0]``), any index of the chain."""
    if isinstance(sub.value, ast.Subscript) and _index_only(sub.slice):
        return chain_mentions(model, sub, names)
    return mentions(sub.slice, names)


def chain_mentions(model: "FileModel", sub: ast.Subscript, names: frozenset[str]) -> bool:
    """Whether any pick of the chain ``sub`` is part of (``E[i][j][0]``: all three) uses ``names``."""
    node: ast.expr = sub
    parent = model.parent(node)
    while isinstance(parent, ast.Subscript) and parent.value is node:
        node, parent = parent, model.parent(parent)
    while isinstance(node, ast.Subscript):
        if mentions(node.slice, names):
            return True
        node = node.value
    return False


def mentions(expr: ast.AST, names: frozenset[str]) -> bool:
    return bool(names) and any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(expr))


def _offset(expr: ast.expr) -> tuple[str, int] | None:
    """``i`` -> ("i", 0), ``i + 2`` -> ("i", 2), ``i - 1`` -> ("i", -1)."""
    if isinstance(expr, ast.Name):
        return expr.id, 0
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)) and isinstance(expr.left, ast.Name):
        if isinstance(expr.right, ast.Constant) and isinstance(expr.right.value, int):
            return expr.left.id, expr.right.value if isinstance(expr.op, ast.Add) else -expr.right.value
    return None
