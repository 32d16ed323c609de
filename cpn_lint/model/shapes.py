"""Shapes as the model knows them: rank, and an extent per axis.

An extent is an ``int`` when the code states it with literals (or a module
constant bound once), a ``str`` naming the symbol it comes from (``"n"``,
``"len(x)"``) when the code states it with a name, and ``None`` when it is
not known. A shape is a tuple of extents; ``None`` instead of a tuple means
even the rank is unknown. The model never guesses: an extent it cannot read
is ``None``.
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence, Union

Extent = Union[int, str, None]
Shape = tuple[Extent, ...]
MaybeShape = Union[Shape, None]

SCALAR_SHAPE: Shape = ()


def rank(shape: MaybeShape) -> int | None:
    return None if shape is None else len(shape)


def broadcast(a: MaybeShape, b: MaybeShape) -> MaybeShape:
    """NumPy's broadcasting of two shapes, axis by axis from the right.

    Two known extents must agree or one must be 1; a literal 1 yields the
    other extent; an unknown extent meets anything as unknown. Shapes that
    cannot broadcast (two different literals) give None, as does an unknown
    rank on either side.
    """
    if a is None or b is None:
        return None
    width = max(len(a), len(b))
    a = (1,) * (width - len(a)) + a
    b = (1,) * (width - len(b)) + b
    out: list[Extent] = []
    for x, y in zip(a, b):
        if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        elif isinstance(x, int) and isinstance(y, int):
            return None
        else:
            out.append(None)
    return tuple(out)


def broadcast_all(shapes: Iterable[MaybeShape]) -> MaybeShape:
    result: MaybeShape = SCALAR_SHAPE
    for shape in shapes:
        result = broadcast(result, shape)
        if result is None:
            return None
    return result


def merge(a: MaybeShape, b: MaybeShape) -> MaybeShape:
    """The shape two bindings of one name agree on: equal extents stay,
    different ones become unknown; different ranks make the rank unknown."""
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


def merge_all(found: Sequence[MaybeShape]) -> MaybeShape:
    """:func:`merge` of every shape in ``found``; None (unknown) for none."""
    merged: MaybeShape = found[0] if found else None
    for shape in found[1:]:
        merged = merge(merged, shape)
    return merged


def reduce(shape: MaybeShape, axis: int | None, keepdims: bool = False) -> MaybeShape:
    """The shape after reducing ``axis`` (all axes when None)."""
    if axis is None:
        if keepdims and shape is not None:
            return tuple(1 for _ in shape)
        return SCALAR_SHAPE
    if shape is None:
        return None
    if axis < 0:
        axis += len(shape)
    if not 0 <= axis < len(shape):
        return None
    if keepdims:
        return shape[:axis] + (1,) + shape[axis + 1 :]
    return shape[:axis] + shape[axis + 1 :]


def literal_size(shape: MaybeShape) -> int | None:
    """The number of elements when every extent is a literal."""
    if shape is None or any(not isinstance(d, int) or d < 0 for d in shape):
        return None
    return math.prod(shape)  # type: ignore[arg-type]


def size_extent(shape: MaybeShape) -> Extent:
    """The extent of ``shape`` flattened to one axis."""
    if shape is None:
        return None
    if len(shape) == 1:
        return shape[0]
    return literal_size(shape)


def matmul(a: MaybeShape, b: MaybeShape) -> MaybeShape:
    """The shape of ``a @ b`` (and of ``np.dot`` for ranks up to 2)."""
    if a is None or b is None:
        return None
    if len(a) == 0 or len(b) == 0:
        return broadcast(a, b)  # np.dot with a scalar multiplies
    if len(a) == 1 and len(b) == 1:
        return SCALAR_SHAPE
    if len(a) == 1:
        return b[:-2] + b[-1:]
    if len(b) == 1:
        return a[:-1]
    batch = broadcast(a[:-2], b[:-2])
    if batch is None:
        return None
    return batch + (a[-2], b[-1])


def text(shape: MaybeShape) -> str:
    """``64 × 64``, ``n × 3``, ``? × 3``; ``scalar`` for 0-d."""
    if shape is None:
        return "unknown shape"
    if not shape:
        return "scalar"
    return " × ".join(f"{d:,}" if isinstance(d, int) else d if isinstance(d, str) else "?" for d in shape)
