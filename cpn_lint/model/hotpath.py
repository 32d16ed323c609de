"""The arrays a file's hot loops work on, and the sizes the code gives them.

Gate 2 of the decision framework asks how large the hot-path arrays are. The
code answers only where it states a shape with literals: every device array
read in a hot loop (or in a helper a hot loop calls every iteration) is
traced through its reaching bindings to the expressions that made it, and
each one with a literal shape (``np.zeros((64, 64))``, ``rng.random(1000)``,
``np.linspace(0, 1, 100)``) is a sized array. An array whose shape the model
cannot read (a parameter, a file, a name given at run time) leaves the
evidence incomplete; a 0-d value (a reduction, an element) is never a
hot-path array.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .kinds import Kind
from .loop_iterations import hot_loop
from .scopes import BindKind
from .shapes import literal_size

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel


@dataclass(frozen=True)
class HotArray:
    """A device array a hot loop reads, and what made it."""

    made_by: ast.AST  # the expression that made the array (or the use, when unknown)
    size: int | None  # its number of elements when every extent is a literal


def hot_path_arrays(model: "FileModel") -> list[HotArray]:
    if not model.uses_numpy():
        return []
    found: dict[int, HotArray] = {}
    unknown: dict[int, HotArray] = {}
    # _size_or_bound's answers: every use of an array follows the same
    # bindings back, and without them the walk is exponential in its depth
    bounds: _Bounds = {}
    for name in model.nodes(ast.Name):
        # whether the use is hot first: most names are not, and their kinds
        # are then never needed (the kinds no longer change: order is free)
        if not isinstance(name.ctx, ast.Load) or not _is_hot(model, name) or model.kind(name) is not Kind.DEVICE:
            continue
        if _only_kept_or_shown(model, name):
            continue
        for made_by in _origins(model, name):
            size = _size_or_bound(model, made_by, bounds) if made_by is not name else None
            target = found if size is not None else unknown
            target.setdefault(id(made_by), HotArray(made_by, size))
    for attr in model.nodes(ast.Attribute):
        # self.u and friends: their sizes are not followed
        if isinstance(attr.ctx, ast.Load) and _is_hot(model, attr) and model.kind(attr) is Kind.DEVICE:
            if not (isinstance(attr.value, ast.Name) and model.kind(attr.value) is Kind.DEVICE):
                unknown.setdefault(id(attr), HotArray(attr, None))
    return sorted([*found.values(), *unknown.values()], key=lambda a: (getattr(a.made_by, "lineno", 0), getattr(a.made_by, "col_offset", 0)))


def _is_hot(model: "FileModel", node: ast.AST) -> bool:
    frame = model.loop_of(node)
    if frame is not None:
        return hot_loop(frame) is not None
    return model.calling_loop(node) is not None


# Calls whose result is at most as large as their first argument: the
# positions or values they pick out of it.
_PICKERS = frozenset({"nonzero", "where", "argwhere", "flatnonzero", "unique", "extract", "compress"})


# (id of the expression, depth) -> _size_or_bound's answer (the depth is part
# of the question: past the limit the answer is None)
_Bounds = dict[tuple[int, int], "int | None"]


def _size_or_bound(model: "FileModel", made_by: ast.AST, bounds: _Bounds, depth: int = 0) -> int | None:
    """The array's size when every extent is a literal; else an upper bound,
    which is as good for a size floor: what picks from an array of known size
    (``np.where(grid == 1)``, ``a[mask]``, ``a[i, :]``) is at most as large,
    and elementwise arithmetic on such arrays is as large as the largest.
    Memoised in ``bounds`` (the model's answers no longer change)."""
    key = (id(made_by), depth)
    if key in bounds:
        return bounds[key]
    found = bounds[key] = _compute_size_or_bound(model, made_by, bounds, depth)
    return found


def _compute_size_or_bound(model: "FileModel", made_by: ast.AST, bounds: _Bounds, depth: int) -> int | None:
    if not isinstance(made_by, ast.expr) or depth > 6:
        return None
    size = literal_size(model.shape(made_by))
    if size is not None:
        return size
    if isinstance(made_by, ast.Name):
        bindings = model.reaching_bindings(made_by)
        values = [b.value for b in bindings if b.kind is BindKind.VALUE and b.value is not None]
        if not values or len(values) != len(bindings):
            return None
        return _largest(_size_or_bound(model, v, bounds, depth + 1) for v in values)
    if isinstance(made_by, ast.Subscript):
        index = made_by.slice.elts if isinstance(made_by.slice, ast.Tuple) else [made_by.slice]
        if all(isinstance(i, ast.Slice) or model.kind(i) in (Kind.SCALAR, Kind.DEVICE_SCALAR) for i in index):
            return _size_or_bound(model, made_by.value, bounds, depth + 1)  # basic indexing: a part of the base
        if len(index) == 1 and model.kind(index[0]) is Kind.DEVICE and _is_mask(model, index[0]):
            return _size_or_bound(model, made_by.value, bounds, depth + 1)  # a mask picks from the base
        return None
    if isinstance(made_by, ast.BinOp):
        operands = [made_by.left, made_by.right]
    elif isinstance(made_by, ast.UnaryOp):
        operands = [made_by.operand]
    elif isinstance(made_by, ast.Call) and made_by.args:
        api = model.call_api(made_by)
        if api in _PICKERS and (api != "where" or len(made_by.args) == 1):
            return _size_or_bound(model, made_by.args[0], bounds, depth + 1)
        if api is None or not _is_elementwise(api):
            return None
        operands = [a for a in made_by.args if not isinstance(a, ast.Starred)]
    else:
        return None
    arrays = [o for o in operands if model.kind(o) is Kind.DEVICE]
    if not arrays:
        return None
    return _largest(_size_or_bound(model, o, bounds, depth + 1) for o in arrays)


def _largest(bounds) -> int | None:  # type: ignore[no-untyped-def]
    """The largest bound, or None when one is unknown."""
    found = list(bounds)
    if not found or any(b is None for b in found):
        return None
    return max(found)


def _is_mask(model: "FileModel", index: ast.expr) -> bool:
    """A boolean mask: a comparison, a logical combination, or a name bound to one."""
    if isinstance(index, ast.Compare) or (isinstance(index, ast.BinOp) and isinstance(index.op, (ast.BitAnd, ast.BitOr, ast.BitXor))):
        return True
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.Invert):
        return True
    if isinstance(index, ast.Name):
        bindings = model.reaching_bindings(index)
        return bool(bindings) and all(b.kind is BindKind.VALUE and b.value is not None and _is_mask(model, b.value) for b in bindings)
    return False


def _is_elementwise(api: str) -> bool:
    from . import numpy_api

    return api in numpy_api.ELEMENTWISE


def _only_kept_or_shown(model: "FileModel", name: ast.Name) -> bool:
    """A use that does no compute: the array a result is stored into
    (``history[:, i] = pos``, a record kept for plotting) or an argument of
    a host call (``plt.plot(history[0])``, ``print(x)``)."""
    parent = model.parent(name)
    if isinstance(parent, ast.Subscript) and parent.value is name and isinstance(parent.ctx, ast.Store):
        return True
    node: ast.AST = name
    for ancestor in model.ancestors(name):
        if isinstance(ancestor, ast.Call) and node is not ancestor.func and model.is_host_call(ancestor):
            return True
        if isinstance(ancestor, ast.stmt):
            return _feeds_only_host_calls(model, ancestor)
        node = ancestor
    return False


def _feeds_only_host_calls(model: "FileModel", statement: ast.stmt) -> bool:
    """``xx = history[:, 0, :i]`` whose names are then only shown
    (``plt.scatter(xx, yy)``): the read is for plotting, not compute."""
    if not isinstance(statement, ast.Assign):
        return False
    targets = [t for t in statement.targets if isinstance(t, ast.Name)]
    if not targets or len(targets) != len(statement.targets):
        return False
    frame = model.loop_of(statement)
    scope = model.scope_of(statement)
    uses = [n for n in (model.nodes_in_loop(frame, ast.Name) if frame is not None else model.nodes(ast.Name))
            if n.id in {t.id for t in targets} and isinstance(n.ctx, ast.Load) and model.scope_of(n) is scope]
    if not uses:
        return False
    for use in uses:
        inside_host = False
        child: ast.AST = use
        for ancestor in model.ancestors(use):
            if isinstance(ancestor, ast.Call) and child is not ancestor.func and model.is_host_call(ancestor):
                inside_host = True
                break
            if isinstance(ancestor, ast.stmt):
                break
            child = ancestor
        if not inside_host:
            return False
    return True


def _origins(model: "FileModel", name: ast.Name, depth: int = 0, seen: set[int] | None = None) -> list[ast.AST]:
    """The expressions that made the array ``name`` holds: the values of its
    reaching bindings, through plain renames and in-place updates, through a
    parameter to what its call sites pass and through a call of the file's
    own function to what it returns; the use itself when nothing more is
    known (an unpacked item, a parameter of a function used as a value)."""
    seen = set() if seen is None else seen
    origins: list[ast.AST] = []
    for binding in model.reaching_bindings(name):
        if id(binding) in seen or depth > 6:
            continue
        seen.add(id(binding))
        if binding.kind is BindKind.AUG and isinstance(binding.node, ast.Name):
            origins += _origins(model, binding.node, depth + 1, seen)  # x += y keeps x's array
            continue
        kind = model.values.binding_kind(binding)
        if kind in (Kind.SCALAR, Kind.UNKNOWN, Kind.DEVICE_SCALAR):
            continue  # neutral: err = 1.0 before err = np.max(...)
        value = binding.value
        if binding.kind is BindKind.VALUE and isinstance(value, ast.Name):
            origins += _origins(model, value, depth + 1, seen)
        elif binding.kind is BindKind.VALUE and isinstance(value, ast.Call) and model.calls.callee(value) is not None:
            origins += _returned(model, value, name, depth, seen)
        elif binding.kind is BindKind.VALUE and value is not None:
            origins.append(value)
        elif binding.kind is BindKind.PARAM:
            origins += _passed(model, binding, name, depth, seen)
        elif binding.kind is BindKind.ELEMENT and isinstance(value, ast.Call) and binding.index is not None:
            items = _returned_items(model, value, binding.index)
            if items is None:
                origins.append(value)  # i, j = np.where(mask): at most as large as the mask
            for item in items or ():
                if model.kind(item) is Kind.DEVICE:
                    origins += _expression_origins(model, item, name, depth, seen)
        else:
            origins.append(name)
    return origins if origins or seen else [name]


def _expression_origins(model: "FileModel", value: ast.expr, use: ast.Name, depth: int, seen: set[int]) -> list[ast.AST]:
    return _origins(model, value, depth + 1, seen) if isinstance(value, ast.Name) else [value]


def _returned_items(model: "FileModel", call: ast.Call, index: int) -> list[ast.expr] | None:
    """Item ``index`` of every tuple the file's own function returns."""
    scope = model.calls.callee(call)
    if scope is None or not scope.returns:
        return None
    items = []
    for value in scope.returns:
        if not isinstance(value, ast.Tuple) or index >= len(value.elts):
            return None
        items.append(value.elts[index])
    return items


def _passed(model: "FileModel", binding, use: ast.Name, depth: int, seen: set[int]) -> list[ast.AST]:  # type: ignore[no-untyped-def]
    """What the call sites pass for a parameter (all of them known)."""
    scope = binding.scope
    sites = model.calls.sites(scope)
    if not sites or model.calls.escapes(scope):
        return [use]
    found: list[ast.AST] = []
    for call in sites:
        given = model.calls.argument(call, scope, binding.name)
        if given is None:
            return [use]
        if model.kind(given) is Kind.DEVICE:
            found += _expression_origins(model, given, use, depth, seen)
    return found


def _returned(model: "FileModel", call: ast.Call, use: ast.Name, depth: int, seen: set[int]) -> list[ast.AST]:
    """What a call of the file's own function returns (its array returns)."""
    scope = model.calls.callee(call)
    returns = scope.returns if scope is not None else []
    if not returns:
        return [use]
    found: list[ast.AST] = []
    for value in returns:
        if model.kind(value) is Kind.DEVICE:
            found += _expression_origins(model, value, use, depth, seen)
    return found or [call]
