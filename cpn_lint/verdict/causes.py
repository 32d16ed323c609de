"""What decides a verdict on a real project: its root causes, weighed.

The verdict word counts distinct BLOCKS codes (SPEC §4), but a reviewer
reads the reason under it. There a Numba-compiled kernel on the hot path,
an element loop that runs on every pass of the time loop, or a sequential
recurrence must come before a post-processing ``int()``, and a file outside
the main computation (a logo script, an analysis or plotting script, a
notebook beside a package) weighs less than the solver. This module ranks
the root causes from the report's items; :mod:`.advice` words them and
:mod:`.summary` weighs the files with them; which files lie outside the
main computation is :mod:`.periphery`'s. Nothing here changes the verdict
word.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from .periphery import PERIPHERAL_WEIGHT

if TYPE_CHECKING:  # pragma: no cover
    from .report_items import Item

KERNEL = "CPN112"
ELEMENT_LOOP = "CPN101"
RECURRENCE = "CPN410"

# How much one site of each kind of root cause weighs: a compiled kernel is
# a whole function of the hot path, an element loop repeated by an outer
# loop is the program's main work, a recurrence or an element loop is a
# pass over the data one element at a time; any other blocking idiom
# weighs ONE, twice that inside a loop.
WEIGHTS = {"kernel": 10.0, "hot-loop": 8.0, "element-loop": 5.0, "recurrence": 5.0}
ONE = 1.0
ROOT_KINDS = ("kernel", "hot-loop", "element-loop", "recurrence")
# compiled kernels and element loops repeated by an outer loop are the hot
# path itself; they come before the other root causes whatever their count
RANK = {"kernel": 0, "hot-loop": 0, "recurrence": 1, "element-loop": 1}


@dataclass(frozen=True)
class Cause:
    """One root cause: a kind of blocking work and its sites."""

    kind: str  # "kernel", "hot-loop", "element-loop", "recurrence" or "idiom"
    code: str
    items: tuple[Item, ...]
    core: tuple[Item, ...]  # the sites in files of the main computation
    weight: float
    peripheral: frozenset[str]  # what the other files are ("analysis", ...)

    @property
    def root(self) -> bool:
        return self.kind in ROOT_KINDS

    @property
    def folded(self) -> int:
        """Element-level findings folded into these sites (§3)."""
        return sum(folded_count(i) for i in self.items)


def folded_count(item: Item) -> int:
    folded = item.data.get("folded")
    return sum(int(n) for n in folded.values()) if isinstance(folded, dict) else 0


def item_kind(item: Item) -> str:
    if item.code == KERNEL:
        return "kernel"
    if item.code == ELEMENT_LOOP:
        return "hot-loop" if item.data.get("repeated_by") else "element-loop"
    if item.code == RECURRENCE and item.data.get("kind") == "recurrence":
        return "recurrence"
    return "idiom"


def item_weight(item: Item, peripheral: dict[str, str]) -> float:
    kind = item_kind(item)
    weight = WEIGHTS.get(kind, ONE * (2 if item.in_loop else 1))
    return weight * (PERIPHERAL_WEIGHT if item.location.path in peripheral else 1.0)


def root_causes(blocks: Sequence[Item], recurrences: Sequence[Item], peripheral: dict[str, str],
                seconds: "Callable[[Item], float] | None" = None) -> list[Cause]:
    """The root causes of the blocking work, heaviest first (a cause found
    only outside the main computation last). With ``seconds`` (the projected
    time of what an item's lines run) the order is by projected time; without
    it (flake8 input) compiled kernels, element loops and recurrences come
    before the other idioms, and each kind is weighed by its sites."""
    groups: dict[tuple[str, str], list[Item]] = {}
    for item in list(blocks) + [i for i in recurrences if item_kind(i) == "recurrence"]:
        if not item.code:
            continue
        kind = item_kind(item)
        key = (kind, item.code if kind == "idiom" else kind)
        groups.setdefault(key, []).append(item)
    causes = []
    for (kind, code), members in groups.items():
        core = tuple(i for i in members if i.location.path not in peripheral)
        outside = frozenset(peripheral[i.location.path] for i in members if i.location.path in peripheral)
        if seconds is not None:
            weight = sum(seconds(i) * (PERIPHERAL_WEIGHT if i.location.path in peripheral else 1.0) for i in members)
        else:
            weight = sum(item_weight(i, peripheral) for i in members)
        causes.append(Cause(kind, members[0].code or code, tuple(members), core, weight, outside))
    if seconds is not None:
        causes.sort(key=lambda c: (not c.core, -c.weight, not c.root, RANK.get(c.kind, 2), c.code))
    else:
        causes.sort(key=lambda c: (not c.core, not c.root, RANK.get(c.kind, 2), -c.weight, c.code))
    return causes


def core_items(items: Iterable[Item], peripheral: dict[str, str]) -> list[Item]:
    return [i for i in items if i.location.path not in peripheral]


__all__ = ["Cause", "core_items", "folded_count", "item_kind", "item_weight", "root_causes"]
