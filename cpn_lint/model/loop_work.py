"""The work one iteration of a loop does: :class:`Work` and :class:`LoopWork`.

``NONE < ELEMENT < ROW < SLAB`` (:mod:`.loops` says what each means), with
the accesses and operations that decided it, and the sizes below which a
picked row or slice still counts as element work. Kept apart so that the
rooms of :class:`~cpn_lint.model.loops.WorkAnalysis` and the analyses built
on it read them without importing the analysis.
"""

from __future__ import annotations

import ast
import enum
from dataclasses import dataclass, field

SMALL_PICK = 16  # a picked row of at most this many literal elements (a 3-vector) is element work
SMALL_SLICE = 8  # a slice of at most this many elements picked by the index is element work


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
