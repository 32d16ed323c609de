"""Loops: what each one iterates (:class:`~cpn_lint.model.scopes.IterKind`).

Index ranges, index products, arrays, a handful of constants (axes, taps),
other Python objects, or a ``while`` condition: decided once per loop by
:func:`classify_iterations` when the model is built, with the loop's index
and element variables. A loop is *hot* unless it and every loop around it
walk a handful of constants (:func:`is_hot`, :func:`hot_chain`,
:func:`hot_loop`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .imports import DEVICE_ROOTS
from .kinds import Kind
from .scopes import BindKind, IterKind, LoopFrame
from .syntax import is_range_call, literal_length, names_in, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

SMALL_CONSTANT_LIMIT = 8  # a loop over at most this many axes/taps is not an element loop
_ITER_STRENGTH = {
    IterKind.ARRAY: 5,
    IterKind.RANGE: 4,
    IterKind.INDEX_PRODUCT: 4,
    IterKind.OTHER: 2,
    IterKind.SMALL_CONSTANT: 1,
    IterKind.WHILE: 0,
}


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
    if isinstance(iterable, ast.Subscript) and isinstance(iterable.slice, ast.Slice) and is_range_call(iterable.value):
        return _classify_iteration(model, target, iterable.value)  # range(n)[::-1]: the same numbers, sliced
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
        return IterKind.ARRAY, names if holds_integer_range(model, iterable) else set(), names
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
    if flags is not None and any(isinstance(n, ast.Constant) and n.value == "external_loop" for n in walk(flags)):
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
    if frame.is_comprehension or not _index_target(target):
        return False
    lists = _concatenated(iterable)  # for (i, j, k) in white + black: both lists of index tuples
    if not lists:
        return False
    for name in lists:
        bindings = model.reaching_bindings(name)
        if not bindings or not all(b.kind is BindKind.VALUE and b.value is not None and _data_sized_list(model, b.value)
                                   for b in bindings):
            return False
    own = names_in(target)
    for node in walk(frame.node):
        if isinstance(node, ast.Subscript) and names_in(node.slice) & own and model.kind(node.value) is Kind.DEVICE:
            return True
    return False


def _index_target(target: ast.expr) -> bool:
    """``r``, or ``(i, j, k)``: names only."""
    if isinstance(target, ast.Name):
        return True
    return isinstance(target, (ast.Tuple, ast.List)) and bool(target.elts) and all(isinstance(e, ast.Name) for e in target.elts)


def _concatenated(iterable: ast.expr) -> list[ast.Name]:
    """The names of ``rows`` or ``white + black`` (lists joined with +); [] otherwise."""
    if isinstance(iterable, ast.Name):
        return [iterable]
    if isinstance(iterable, ast.BinOp) and isinstance(iterable.op, ast.Add):
        left, right = _concatenated(iterable.left), _concatenated(iterable.right)
        return left + right if left and right else []
    return []


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


def holds_integer_range(model: "FileModel", iterable: ast.expr) -> bool:
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
        if value.keywords or not all(_integer_bound(model, a) for a in value.args):
            return False  # a dtype, or a float bound: not indices
    return True


def _integer_bound(model: "FileModel", expr: ast.expr) -> bool:
    """A name, an integer, an extent (``len(x)``, ``x.shape[0]``, ``x.size``)
    or integer arithmetic on them: a bound of an index range."""
    if isinstance(expr, ast.Name) or model.const_int(expr) is not None:
        return True
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Attribute) and expr.value.attr == "shape":
        return True
    if isinstance(expr, ast.Attribute) and expr.attr in ("size", "ndim"):
        return True
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len" and model.is_builtin(expr.func):
        return True
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        return _integer_bound(model, expr.left) and _integer_bound(model, expr.right)
    return False


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
    """range(3), range(1, 4), range(i, 3), range(a.ndim), range(len(a.shape))."""
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
    if len(args) == 2 and stop_value is not None and start_value is None and 0 <= stop_value <= SMALL_CONSTANT_LIMIT:
        return True  # range(i, 3): at most 3 passes from an index that counts up from 0
    if stop_value is None or start_value is None:
        return False
    return stop_value - start_value <= SMALL_CONSTANT_LIMIT


# Names that count spatial dimensions (2 or 3, a handful at most), unlike
# `dim`/`dims`, which also name feature sizes in the hundreds.
_DIMENSION_COUNT_NAMES = frozenset({"ndim", "ndims", "n_dim", "n_dims", "num_dim", "num_dims", "n_dimensions", "num_dimensions"})


def _names_dimension_count(expr: ast.expr) -> bool:
    """``n_dim``, ``self.canvas.n_dim``: a count of spatial dimensions."""
    if isinstance(expr, ast.Name):
        return expr.id.lower() in _DIMENSION_COUNT_NAMES
    return isinstance(expr, ast.Attribute) and expr.attr.lower() in _DIMENSION_COUNT_NAMES

def walks_checkerboard(model: "FileModel", frame: LoopFrame) -> bool:
    """``for (i, j, k) in white + black`` where each list keeps the sites of
    one parity (``if (i + j + k) % 2 == 0``): red-black ordering. A site's
    neighbours one step away have the other colour, so the updates of one
    colour never read each other; the sweep is two whole-array updates, not
    a chain."""
    node = frame.node
    if not isinstance(node, (ast.For, ast.AsyncFor)):
        return False
    lists = _concatenated(node.iter)
    if not lists:
        return False
    for name in lists:
        bindings = model.reaching_bindings(name)
        if not bindings or not all(isinstance(b.value, ast.ListComp) and _parity_filtered(b.value) for b in bindings):
            return False
    return True


def _parity_filtered(comprehension: ast.ListComp) -> bool:
    """``[... for i in ... for j in ... if (i + j) % 2 == c]``: the sum of the
    comprehension's own indices taken modulo 2."""
    own = set().union(*(names_in(g.target) for g in comprehension.generators))
    for test in (t for g in comprehension.generators for t in g.ifs):
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))):
            continue
        for side in (test.left, test.comparators[0]):
            if isinstance(side, ast.BinOp) and isinstance(side.op, ast.Mod) and isinstance(side.right, ast.Constant) \
                    and side.right.value == 2 and len(names_in(side.left) & own) >= 2 and _sum_of_names(side.left):
                return True
    return False


def _sum_of_names(expr: ast.expr) -> bool:
    if isinstance(expr, ast.Name):
        return True
    return isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add) and _sum_of_names(expr.left) and _sum_of_names(expr.right)

