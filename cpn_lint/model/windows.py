"""Moving windows: a pass per pixel (or sample) that reduces a window around it.

``wIxx = Ixx[r - h:r + h + 1, c - h:c + h + 1]`` ... ``Rs[r, c] = f(wIxx)``:
each pass of a loop over the data slices a window whose bounds move with
the loop's index and stores one element at that index. The slicing looks
like whole-array work, but the window is a few elements around one
position: the loop is an element loop (a convolution, a sliding-window
view or a cumulative sum does all positions at once), not time stepping.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .scopes import IterKind
from .syntax import index_components, names_in

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import LoopFrame


def window_per_element(model: "FileModel", frame: "LoopFrame") -> bool:
    """Does each pass of ``frame`` (a range loop) slice a window whose
    bounds move with this loop's index (``minr = r - h``: the loop's
    indices include what is computed from it) and store one element at
    the nest's indices (``Rs[r, c]``, every index a bare loop index, this
    loop's among them)?"""
    if frame.iter_kind is not IterKind.RANGE:
        return False
    own = model.loop_indices(frame)
    nest = set(own)
    for outer in frame.chain():
        nest |= model.loop_indices(outer)
    for inner in model.loops_within(frame):
        nest |= model.loop_indices(inner)
    # the window moves with this loop's own index (a channel loop around a
    # pixel nest moves no window: its passes are whole images)
    return _stores_at_indices(model, frame, own, nest) and _slices_a_moving_window(model, frame, set(own))


def _stores_at_indices(model: "FileModel", frame: "LoopFrame", own: frozenset[str], nest: set[str]) -> bool:
    for stmt in model.nodes_in_loop(frame, ast.Assign):
        for target in stmt.targets:
            if not isinstance(target, ast.Subscript) or not model.is_array(target.value):
                continue
            parts = index_components(target)
            if all(isinstance(p, ast.Name) and p.id in nest for p in parts) and any(p.id in own for p in parts):  # type: ignore[attr-defined]
                return True
    return False


def _slices_a_moving_window(model: "FileModel", frame: "LoopFrame", moving: set[str]) -> bool:
    for sub in model.nodes_in_loop(frame, ast.Subscript):
        parts = index_components(sub)
        # (a tuple of slices indexes nothing but an array, whatever the name's origin)
        if not isinstance(sub.ctx, ast.Load) or not (model.is_array(sub.value) or len(parts) >= 2):
            continue
        for part in parts:
            if isinstance(part, ast.Slice) and part.lower is not None and part.upper is not None \
                    and names_in(part.lower) & moving and names_in(part.upper) & moving:
                return True
    return False
