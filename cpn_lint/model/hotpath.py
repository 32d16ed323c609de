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
from .loops import hot_loop
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
    for name in model.nodes(ast.Name):
        if not isinstance(name.ctx, ast.Load) or model.kind(name) is not Kind.DEVICE or not _is_hot(model, name):
            continue
        for made_by in _origins(model, name):
            size = literal_size(model.shape(made_by)) if made_by is not name else None
            target = found if size is not None else unknown
            target.setdefault(id(made_by), HotArray(made_by, size))
    for attr in model.nodes(ast.Attribute):
        # self.u and friends: their sizes are not followed
        if isinstance(attr.ctx, ast.Load) and model.kind(attr) is Kind.DEVICE and _is_hot(model, attr):
            if not (isinstance(attr.value, ast.Name) and model.kind(attr.value) is Kind.DEVICE):
                unknown.setdefault(id(attr), HotArray(attr, None))
    return sorted([*found.values(), *unknown.values()], key=lambda a: (getattr(a.made_by, "lineno", 0), getattr(a.made_by, "col_offset", 0)))


def _is_hot(model: "FileModel", node: ast.AST) -> bool:
    frame = model.loop_of(node)
    if frame is not None:
        return hot_loop(frame) is not None
    return model.calling_loop(node) is not None


def _origins(model: "FileModel", name: ast.Name, depth: int = 0, seen: set[int] | None = None) -> list[ast.AST]:
    """The expressions that made the array ``name`` holds: the values of its
    reaching bindings, through plain renames and in-place updates; the use
    itself when a binding gives no expression (a parameter, an unpacked item)."""
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
        elif binding.kind is BindKind.VALUE and value is not None:
            origins.append(value)
        else:
            origins.append(name)
    return origins if origins or seen else [name]
