"""One module per rule, named ``cpnNNN_<idiom>.py``.

Importing a module registers its rule in :data:`cpn_lint.registry.REGISTRY`;
:func:`load_rules` imports them all, so a new rule needs no edit anywhere
else. Discovery lives here, beside the rules, so that the registry (codes,
recipes, the ``Rule`` base class) never imports the rules built on it.
"""

from __future__ import annotations

import importlib
import pkgutil

from ..registry import REGISTRY, Rule

_loaded = False


def load_rules() -> dict[str, type[Rule]]:
    """Import every rule module once; return the registry, sorted by code."""
    global _loaded
    if not _loaded:
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
            if info.name.startswith("cpn"):
                importlib.import_module(f"{__name__}.{info.name}")
        _loaded = True
    return dict(sorted(REGISTRY.items()))


def all_codes() -> list[str]:
    return list(load_rules())


def codes_with_prefixes(text: str, exclude: frozenset[str] = frozenset()) -> tuple[set[str], list[str]]:
    """The codes a comma-separated ``--select``/``--ignore`` value names by
    prefix (``CPN1``, ``cpn101``), and the prefixes that name none."""
    codes = [c for c in load_rules() if c not in exclude]
    matched: set[str] = set()
    unmatched: list[str] = []
    for raw in text.split(","):
        prefix = raw.strip().upper()
        if not prefix:
            continue
        found = {c for c in codes if c.startswith(prefix)}
        if not found:
            unmatched.append(raw.strip())
        matched |= found
    return matched, unmatched
