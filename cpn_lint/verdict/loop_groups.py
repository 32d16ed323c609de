"""One loop, one root cause: the host waits a loop's iterations make, listed once.

A loop that is not an element loop (a convergence loop, a sifting pass,
an ensemble over realisations) can still wait on the device many times
per iteration: scalar branches, host conversions and builtin reductions
in its own body and in the helpers it calls (CPN105, CPN104, CPN110).
For flake8 each is a finding of its own, the line to edit. For the
assessment they are one root cause: the loop stops for the device on
every pass, and the fix is to restructure that loop (decide every N
iterations, keep the bookkeeping on the host), not thirty edits. What
blocks therefore lists such a loop once, its sites beneath; the JSON
report keeps every finding and adds the groups.

Element loops and recurrences already fold what they hold (see
:mod:`cpn_lint.rules._roots`); this is the same idea for the loops that
remain.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Sequence, Union

from .report_items import Item, gathered

# the codes whose sites wait on the device once per iteration of a loop
HOST_WAITS = frozenset({"CPN104", "CPN105", "CPN110"})
ITEM_LOOP = "CPN103"  # a loop over a device array's items: the group's head when it is the loop
NOUNS: dict[str, tuple[str, str]] = {
    "CPN105": ("scalar branch", "scalar branches"),
    "CPN104": ("host conversion", "host conversions"),
    "CPN110": ("builtin reduction", "builtin reductions"),
    "CPN103": ("item-by-item iteration", "item-by-item iterations"),
}
SITES_SHOWN = 6


@dataclass(frozen=True)
class LoopGroup:
    """The host waits one loop repeats, as one entry of What blocks."""

    path: str
    line: int  # the loop's first line
    citation: str
    quote: str  # the loop's header, as written
    function: str | None  # where the loop is
    items: tuple[Item, ...]

    @property
    def counts(self) -> dict[str, int]:
        """Sites per code, most first."""
        counted = Counter(i.code for i in self.items if i.code)
        return dict(sorted(counted.items(), key=lambda kv: (-kv[1], kv[0])))

    @property
    def recipe(self) -> str:
        return "RR-converge" if any(i.code == "CPN105" for i in self.items) else "RR-sync"

    @property
    def functions(self) -> list[str]:
        """The functions holding the sites, in order of first appearance."""
        seen: list[str] = []
        for item in self.items:
            name = item.function or "(module level)"
            if name not in seen:
                seen.append(name)
        return seen

    def message(self) -> str:
        waits = ", ".join(_counted(code, n) for code, n in self.counts.items())
        functions = self.functions
        where = ", ".join(f"'{f}'" for f in functions[:3]) + (f" and {len(functions) - 3} more"
                                                               if len(functions) > 3 else "")
        return (f"waits on the device at {len(self.items)} sites every iteration: {waits}, in {where}; "
                f"one root cause: decide on the host or every N iterations ({self.recipe})")


@dataclass(frozen=True)
class SameLine:
    """Findings of one line, listed as one entry (a loop that is both an
    element loop and an item-by-item iteration, two stepped slices of one
    statement): one place to edit."""

    items: tuple[Item, ...]

    @property
    def first(self) -> Item:
        return self.items[0]


Entry = Union[Item, LoopGroup, SameLine]
# path, line -> (citation, loop header, function), or None when the line is unknown
LoopLookup = Callable[[str, int], "tuple[str, str, str | None] | None"]


def _counted(code: str, n: int) -> str:
    one, several = NOUNS.get(code, (code, code))
    return f"{n} {one if n == 1 else several} ({code})"


def loop_key(item: Item) -> tuple[str, int] | None:
    """The loop whose iterations repeat ``item``'s host wait, or None."""
    line = item.data.get("loop_line")
    if item.code in HOST_WAITS and isinstance(line, int):
        return (item.location.path, line)
    if item.code == ITEM_LOOP:
        return (item.location.path, item.location.line)
    return None


def group_by_loop(items: Sequence[Item], lookup: LoopLookup) -> list[Entry]:
    """``items`` in their order, the host waits of each loop holding two or
    more of them replaced by one :class:`LoopGroup` where its first site was."""
    counts = Counter(key for key in map(loop_key, items) if key is not None)
    loops = {key: found for key, n in counts.items() if n > 1 and (found := lookup(*key)) is not None}
    entries: list[Entry] = []
    for sites in gathered(items, lambda item: key if (key := loop_key(item)) in loops else None):
        key = loop_key(sites[0])
        found = loops.get(key) if key is not None else None
        if key is not None and found is not None:
            citation, quote, function = found
            entries.append(LoopGroup(key[0], key[1], citation, quote, function, tuple(sites)))
        else:
            entries.append(sites[0])  # not a group: one item, at its own place
    return [line[0] if len(line) == 1 else SameLine(tuple(line))  # type: ignore[arg-type]
            for line in gathered(entries, _line_of)]


def _line_of(entry: Entry) -> tuple[str, int] | None:
    """The line a finding left on its own is at (a loop group has none)."""
    return (entry.location.path, entry.location.line) if isinstance(entry, Item) else None


def groups_of(entries: Sequence[Entry]) -> list[LoopGroup]:
    return [e for e in entries if isinstance(e, LoopGroup)]


__all__ = ["Entry", "LoopGroup", "SameLine", "group_by_loop", "groups_of", "loop_key"]
