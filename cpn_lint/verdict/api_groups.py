"""API support gaps by name: a missing function is one gap, however many lines call it.

What a maintainer acts on is the name (``np.std`` is missing: use
``np.sqrt(np.var(...))``), not each of its eighteen call sites; the sites
follow the name. A rejected argument form (CPN404) is named by its form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

from .report_items import Item


@dataclass(frozen=True)
class ApiGroup:
    """Every site of one API name under one code, ranked as the section ranks them."""

    code: str
    api: str
    items: tuple[Item, ...]

    @property
    def first(self) -> Item:
        return self.items[0]

    @property
    def in_loops(self) -> int:
        return sum(1 for i in self.items if i.in_loop)


ApiEntry = Union[Item, ApiGroup]


# every name imported from a module that is missing as a whole is one gap: the module
WHOLE_MODULES = ("numpy.typing",)


def gap_name(item: Item) -> str | None:
    """What the gap is called: the API name, its module for a module that is
    missing as a whole, the rejected form for an argument form (CPN404)."""
    api = item.data.get("api")
    if not isinstance(api, str):
        form = item.data.get("form")
        return form if isinstance(form, str) else None
    return next((m for m in WHOLE_MODULES if api.startswith(m + ".")), api)


def group_by_api(items: Sequence[Item]) -> list[ApiEntry]:
    """``items`` in their order, the sites of an API name sharing a code
    gathered where the first of them was."""
    by_name: dict[tuple[str, str], list[Item]] = {}
    for item in items:
        api = gap_name(item)
        if item.code and api is not None:
            by_name.setdefault((item.code, api), []).append(item)
    entries: list[ApiEntry] = []
    placed: set[tuple[str, str]] = set()
    for item in items:
        api = gap_name(item)
        key = (item.code, api) if item.code and api is not None else None
        if key is None or len(by_name[key]) == 1:
            entries.append(item)
        elif key not in placed:
            placed.add(key)
            entries.append(ApiGroup(key[0], key[1], tuple(by_name[key])))
    return entries


__all__ = ["ApiEntry", "ApiGroup", "gap_name", "group_by_api"]
