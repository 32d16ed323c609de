"""The report's data: one :class:`Report` of :class:`Item` sites and the
groups, rows and steps the sections show. Every renderer reads these; the
builder is :mod:`.report`, the gates' inputs :mod:`.gate_inputs`, the words
:mod:`.advice`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, TypeVar

from .. import __version__
from ..registry import RECIPES, recipe_rank
from .gates import Decision, Gate, Verdict
from .summary import Overview

if TYPE_CHECKING:  # pragma: no cover
    from .breaks import Break
    from .loop_groups import Entry
    from .time_projection import TimeProjection

REPORT_SCHEMA = "cpn-lint/verdict-report"
REPORT_SCHEMA_VERSION = 1


SECTION_TITLES = (
    "Verdict",
    "What works",
    "What blocks",
    "What's fixable",
    "Compatibility / cost notes",
    "API support gaps",
    "Decision-framework summary",
    "Recommended next steps",
)
NONE_FOR_THIS_CODE = "None for this code."
SEE_VERDICT = "n/a — see verdict."



# ----------------------------------------------------------------- structures
@dataclass(frozen=True)
class Location:
    path: str
    line: int
    column: int  # 1-based, as editors and flake8 show it
    citation: str  # file:line, or notebook.ipynb:cell N:line M
    cell: int | None = None
    cell_line: int | None = None


@dataclass(frozen=True)
class RuntimeEvidence:
    check: str
    description: str
    citation: str


@dataclass(frozen=True)
class Item:
    """One finding as the report shows it."""

    code: str | None  # None: a Doctor finding with no CPN counterpart
    name: str
    category: str
    summary: str
    recipe: str | None
    message: str
    location: Location
    quote: str = ""
    in_loop: bool = False
    data: dict[str, Any] = field(default_factory=dict)
    source: str = "static"  # "static" (cpn-lint) or "doctor" (runtime only)
    runtime: tuple[RuntimeEvidence, ...] = ()  # Doctor's confirmations of a static finding
    function: str | None = None  # the function or method the site is in
    span: int = 1  # lines the reported construct covers (a loop: its body)

    @property
    def citation(self) -> str:
        return self.location.citation

    @property
    def where(self) -> str:
        """The citation naming the function: ``src/flow.py:38 (in advect)``."""
        return f"{self.location.citation} (in {self.function})" if self.function else self.location.citation


@dataclass(frozen=True)
class ScalesGroup:
    code: str
    name: str
    summary: str
    examples: tuple[Item, ...]  # representative lines, quoted
    items: tuple[Item, ...]  # every site


@dataclass(frozen=True)
class RecipeGroup:
    recipe: str | None
    description: str
    items: tuple[Item, ...]


@dataclass(frozen=True)
class ContextRow:
    key: str
    label: str
    value: str
    source: str


@dataclass(frozen=True)
class Step:
    title: str
    detail: str
    citations: tuple[str, ...] = ()


@dataclass(frozen=True)
class ManifestNote:
    date: str | None
    age_days: int | None
    stale: bool
    text: str


@dataclass
class Report:
    verdict: Verdict
    decision: Decision
    summary: str
    context: list[ContextRow]
    files: list[str]
    input_errors: list[str]
    input_notes: list[str]
    internal_errors: list[Item]
    what_works: list[ScalesGroup]
    what_blocks: list[Item]
    out_of_scope: list[Item]
    runtime_blocks: list[Item]
    whats_fixable: list[RecipeGroup]
    notes: list[Item]
    api_gaps: list[Item]
    api_note: str
    manifest: ManifestNote | None
    gates: list[Gate]
    next_steps: list[Step]
    doctor_command: str | None
    doctor_look_for: list[str]
    doctor_supplied: bool = False
    overview: Overview = field(default_factory=Overview)
    # Lines the verdict section shows under its sentence (SPEC §4): the code's own sizes are all small,
    # an element loop is the program's main work.
    verdict_notes: list[str] = field(default_factory=list)
    # Where the time would go: the cost model's projection at the context (None: no model, flake8 input)
    time: "TimeProjection | None" = None
    # Sites a `# noqa`, flake8's ignore settings or a baseline accepted: still
    # weighed, but left out of the lists lint tools show (SARIF), as flake8
    # leaves them out. Keys as :func:`site_key` makes them.
    accepted: frozenset[tuple[str, int, int, str]] = frozenset()
    # What stops or corrupts the ported program before any scaling question (see :mod:`.breaks`)
    breaks: "list[Break]" = field(default_factory=list)
    # What blocks as listed: the host waits one loop repeats are one entry (see :mod:`.loop_groups`)
    block_entries: "list[Entry]" = field(default_factory=list)
    schema: str = REPORT_SCHEMA
    schema_version: int = REPORT_SCHEMA_VERSION
    tool_version: str = __version__

    def empty_note(self) -> str:
        """What an empty section says: the verdict explains it, or there is nothing."""
        return SEE_VERDICT if self.verdict is Verdict.NOT_RECOMMENDED and self.decision.rule != "gate1-hardware" else NONE_FOR_THIS_CODE

    def all_items(self) -> list[Item]:
        items: list[Item] = []
        for group in self.what_works:
            items.extend(group.items)
        items += self.what_blocks + self.out_of_scope + self.runtime_blocks
        for rgroup in self.whats_fixable:
            items.extend(rgroup.items)
        items += self.notes + self.api_gaps
        return items




T = TypeVar("T")


def gathered(items: Iterable[T], key: Callable[[T], Hashable | None]) -> list[list[T]]:
    """``items`` in their order, those sharing a key gathered where the
    first of them is (an item whose key is None stays on its own): what the
    report lists as one entry (a loop's host waits, one line, one API name)."""
    groups: dict[Hashable, list[T]] = {}
    found: list[list[T]] = []
    for item in items:
        k = key(item)
        if k is None:
            found.append([item])
        elif k in groups:
            groups[k].append(item)
        else:
            groups[k] = [item]
            found.append(groups[k])
    return found


def site_key(item: Item) -> tuple[str, int, int, str]:
    """What tells one finding's site from another: file, line, column, code."""
    return (item.location.path, item.location.line, item.location.column, item.code or "")


def by_position(items: Iterable[Item]) -> list[Item]:
    """Source order; the later keys make the order total, so the report never
    depends on the order findings arrived in."""
    return sorted(items, key=lambda i: (i.location.path, i.location.line, i.location.column, i.code or "",
                                        i.message, i.in_loop, i.source, repr(sorted(i.data.items(), key=str))))

def recipe_groups(items: list[Item]) -> list[RecipeGroup]:
    by_recipe: dict[str | None, list[Item]] = {}
    for item in items:
        by_recipe.setdefault(item.recipe, []).append(item)
    ordered = sorted(by_recipe, key=lambda r: (recipe_rank(r), r or ""))
    return [
        RecipeGroup(r, RECIPES.get(r or "", "restructure by hand; no mechanical recipe applies"), tuple(by_position(by_recipe[r])))
        for r in ordered
    ]
