"""API support gaps by name: a missing function is one gap, however many lines call it.

What a maintainer acts on is the name (``np.std`` is missing: use
``np.sqrt(np.var(...))``), not each of its eighteen call sites; the sites
follow the name. A rejected argument form (CPN404) is named by its form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

from ..rules._api_support import kept_module
from .report_items import Item, gathered


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




def gap_name(item: Item) -> str | None:
    """What the gap is called: the API name, its module for a module that is
    missing as a whole, the rejected form for an argument form (CPN404)."""
    api = item.data.get("api")
    if not isinstance(api, str):
        form = item.data.get("form")
        return form if isinstance(form, str) else None
    return kept_module(api) or api  # every name of a kept module is one gap: the module


def group_by_api(items: Sequence[Item]) -> list[ApiEntry]:
    """``items`` in their order, the sites of an API name sharing a code
    gathered where the first of them was."""
    return [sites[0] if len(sites) == 1 else ApiGroup(sites[0].code, gap_name(sites[0]), tuple(sites))  # type: ignore[arg-type]
            for sites in gathered(items, _gap_key)]


def _gap_key(item: Item) -> tuple[str, str] | None:
    api = gap_name(item)
    return (item.code, api) if item.code and api is not None else None


__all__ = ["ApiEntry", "ApiGroup", "gap_name", "group_by_api"]
