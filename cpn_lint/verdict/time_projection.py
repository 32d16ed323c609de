"""Where the time would go: the cost model's sites, projected at the context.

The semantic model's cost sites (:mod:`cpn_lint.model.cost`) are kept per
file; here they are evaluated at the size the report speaks of (elements,
GPUs, the named GPU), grouped by the loop that repeats them, and ranked. The
gates read shares of this projected time (Gate 4: out-of-scope work; Gate 5:
array work), the root causes are ordered by it, and the report shows its top
sites. It is always a projection from the source, never a measurement.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Mapping, Sequence

from ..model.cost_terms import ASSUMED_STEPS, Profile, Scale, Share, Site, profile_for
from .context import Context, format_share

if TYPE_CHECKING:  # pragma: no cover
    from .collect import Unit

TOP_SITES = 8  # rows of the report's table
SHOWN_SHARE = 0.005  # sites below this share of the time are left out of the table


@dataclass(frozen=True)
class TimedSite:
    """One place the time goes: a loop of a function (all it repeats), or a
    statement outside every loop."""

    path: str
    citation: str
    line: int
    end_line: int
    quote: str
    seconds: float
    steps: float  # tasks launched and host round trips: the sequential steps
    share: str  # what the time is spent on (a Share's value)


@dataclass(frozen=True)
class TimeProjection:
    sites: tuple[TimedSite, ...]  # heaviest first
    # (path, lines, seconds, share) of every statement: its own line first, then the calls that run it
    statements: tuple[tuple[str, tuple[int, ...], float, str], ...]
    total: float
    by_share: Mapping[str, float]
    scale: Scale
    profile: Profile
    assumed: tuple[str, ...] = field(default=())  # which of elements/gpus/gpu are defaults

    def seconds_within(self, regions: Mapping[str, Sequence[tuple[int, int]]]) -> float:
        """Projected seconds of the statements inside any of ``regions`` (per path)."""
        statements = self.statements
        index = self._line_index
        found: set[int] = set()
        for path, spans in regions.items():
            by_line = index.get(path)
            if by_line is None:
                continue
            lines, positions = by_line
            for a, b in spans:
                found.update(positions[bisect_left(lines, a):bisect_right(lines, b)])
        # summed in the statements' own order, so the float is the one a
        # scan over every statement would add up
        total = 0.0
        for position in sorted(found):
            total += statements[position][2]
        return total

    @cached_property
    def _line_index(self) -> dict[str, tuple[list[int], list[int]]]:
        """Per path, every line a statement runs at (its own, then its
        callers'), sorted, beside the statement's position in ``statements``:
        the report asks for the time of a few lines thousands of times, and a
        scan of every statement per question was quadratic in the project."""
        pairs: dict[str, list[tuple[int, int]]] = {}
        for position, (path, lines, _, _) in enumerate(self.statements):
            pairs.setdefault(path, []).extend((line, position) for line in lines)
        index: dict[str, tuple[list[int], list[int]]] = {}
        for path, entries in pairs.items():
            entries.sort()
            index[path] = ([line for line, _ in entries], [position for _, position in entries])
        return index

    def seconds_between(self, path: str, first: int, last: int) -> float:
        """Projected seconds of what runs in lines ``first..last`` of ``path``,
        the functions called from there included."""
        return self.seconds_within({path: [(first, last)]})

    def fraction(self, seconds: float) -> float:
        return seconds / self.total if self.total > 0 else 0.0

    @property
    def array_share(self) -> float:
        """The share of the projected time that is device work (not plain
        Python between the array operations)."""
        return 1.0 - self.fraction(self.by_share.get(Share.HOST.value, 0.0))


def scale_of(context: Context) -> Scale:
    """The size a projection speaks of: the given elements (else the middle
    of the default range) on the given number of GPUs (else one)."""
    low, high = context.element_range
    elements = float(context.elements) if context.elements is not None else (low + high) / 2
    return Scale(elements=elements, gpus=context.gpus or 1, steps=ASSUMED_STEPS)


def project(units: "Sequence[Unit]", context: Context) -> TimeProjection | None:
    """The projection over the units, or None when any unit was read
    without a model (flake8 input) or none has a site."""
    if any(u.cost_sites is None for u in units if not u.result.error):
        return None
    scale = scale_of(context)
    profile = profile_for(context.gpu_model)
    statements: list[tuple[str, tuple[int, ...], float, str]] = []
    groups: dict[tuple[str, int], list[tuple[Site, float]]] = {}
    by_share: dict[str, float] = {}
    for unit in units:
        for site in unit.cost_sites or ():
            seconds = site.seconds(scale, profile)
            statements.append((unit.path, (site.line, *site.callers), seconds, site.share))
            by_share[site.share] = by_share.get(site.share, 0.0) + seconds
            head = site.loop_line if site.loop_line is not None else site.line
            groups.setdefault((unit.path, head), []).append((site, seconds))
    if not statements:
        return None
    unit_of = {u.path: u for u in units}
    timed = [_timed(unit_of[path], head, members, scale) for (path, head), members in groups.items()]
    timed.sort(key=lambda t: (-t.seconds, t.path, t.line))
    assumed = tuple(name for name in ("elements", "gpus", "gpu_model") if context.is_default(name))
    return TimeProjection(tuple(timed), tuple(statements), sum(s for _, _, s, _ in statements), by_share, scale,
                          profile, assumed)


def _timed(unit: "Unit", head: int, members: list[tuple[Site, float]], scale: Scale) -> TimedSite:
    seconds = sum(s for _, s in members)
    shares: dict[str, float] = {}
    for site, s in members:
        shares[site.share] = shares.get(site.share, 0.0) + s
    share = max(shares.items(), key=lambda kv: kv[1])[0]
    last = max(site.end_line for site, _ in members)
    steps = sum(site.step_count(scale) for site, _ in members)
    return TimedSite(unit.path, unit.cite(head), head, max(last, head), unit.quote(head), seconds, steps, share)


# ------------------------------------------------------------------- words
def duration_text(seconds: float) -> str:
    """An order of magnitude a reader can hold: '~3 ms', '~40 s', '~2 h'."""
    if seconds < 1e-3:
        return f"~{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"~{seconds * 1e3:.0f} ms"
    if seconds < 120:
        return f"~{seconds:.0f} s"
    if seconds < 7200:
        return f"~{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"~{seconds / 3600:.0f} h"
    if seconds < 2 * 365 * 86400:
        return f"~{seconds / 86400:.0f} days"
    years = seconds / (365 * 86400)
    return f"~{years:.0f} years" if years < 1000 else f"~{years:.0e} years"


def steps_text(steps: float) -> str:
    if steps >= 1e12:
        return f"~{steps:.0e}"
    if steps >= 1e9:
        return f"~{steps / 1e9:.0f}G"
    if steps >= 1e6:
        return f"~{steps / 1e6:.0f}M"
    if steps >= 1e3:
        return f"~{steps / 1e3:.0f}k"
    return f"{steps:.0f}"


def assumptions_text(projection: TimeProjection) -> str:
    scale, profile = projection.scale, projection.profile
    gpus = f"{scale.gpus} GPU" + ("s" if scale.gpus > 1 else "")
    parts = [f"{scale.elements:,.0f} elements on {gpus} ({profile.name})",
             f"loops whose count the code does not state run {scale.steps:,.0f} times"]
    head = "Projected, not measured, at " + "; ".join(parts)
    how = []
    if "elements" in projection.assumed:
        how.append("--elements")
    if "gpus" in projection.assumed:
        how.append("--gpus")
    if "gpu_model" in projection.assumed:
        how.append("--gpu")
    tail = f". Change the assumptions with {', '.join(how)}." if how else "."
    return (head + f". Constants: {profile.source}" + tail)


@dataclass(frozen=True)
class TimeRow:
    """One row of "Where the time would go", as every format shows it."""

    citation: str
    quote: str
    duration: str
    percent: str
    steps: str
    what: str


SHARE_ORDER = (Share.LIBRARY.value, Share.SEQUENTIAL.value, Share.ELEMENT_LOOP.value, Share.HOST_SYNC.value, Share.WHOLE_ARRAY.value,
               Share.HOST.value)


def time_rows(projection: TimeProjection, limit: int = TOP_SITES) -> list[TimeRow]:
    rows = []
    shown = [s for s in projection.sites if projection.fraction(s.seconds) >= SHOWN_SHARE] or list(projection.sites[:1])
    for site in shown[:limit]:
        share = projection.fraction(site.seconds)
        rows.append(TimeRow(site.citation, site.quote, duration_text(site.seconds), format_share(share),
                            steps_text(site.steps), site.share))
    return rows


def shares_text(projection: TimeProjection) -> str:
    parts = [f"{name} {format_share(projection.fraction(projection.by_share[name]))}"
             for name in SHARE_ORDER if projection.by_share.get(name, 0.0) > 0]
    return ", ".join(parts)


def headline(projection: TimeProjection) -> str:
    """One sentence: the total, and the heaviest site with its sequential steps."""
    scale = projection.scale
    gpus = f"{scale.gpus} GPU" + ("s" if scale.gpus > 1 else "")
    text = f"Projected {duration_text(projection.total)} per run on {gpus} ({projection.profile.name})"
    if projection.sites:
        top = projection.sites[0]
        text += f"; {format_share(projection.fraction(top.seconds))} of it at {top.citation} ({top.share}"
        text += f", {steps_text(top.steps)} tasks and round trips one after another)" if top.steps >= 2 else ")"
    return text + "."

