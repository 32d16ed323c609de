"""What the gates are decided from: the share of out-of-scope work, the
dominant compute pattern, the hot-path sizes and the host touchpoints, read
from the report's items and the assessed units (Gate 4, Gate 2, Gate 5).
The gates themselves, and the verdict they lead to, are in :mod:`.gates`."""

from __future__ import annotations

from collections import Counter
from typing import Callable, Sequence

from ..registry import recipe_rank
from . import gates as g
from .collect import Unit
from .periphery import PERIPHERAL_WEIGHT
from .context import Context, format_share
from .gates import Decision, Gate, ScopeEvidence, Verdict
from .report_items import Item
from .time_projection import TimedSite, TimeProjection, duration_text, steps_text
from ..model.cost_terms import Share


# SCALES / INFO codes that tell the dominant compute pattern apart.
PATTERN_CODES = {"CPN005": "stencil", "CPN003": "gemm", "CPN002": "reduction", "CPN304": "monte-carlo"}
# Host libraries whose presence Gate 5 lists as boundary touchpoints.
HOST_LIBRARIES = {
    "pandas": "pandas (loading)", "h5py": "h5py (I/O)", "pyarrow": "pyarrow (I/O)", "xarray": "xarray (I/O)",
    "netCDF4": "netCDF4 (I/O)", "zarr": "zarr (I/O)", "scipy": "SciPy", "sklearn": "scikit-learn",
    "cv2": "OpenCV", "matplotlib": "matplotlib (plots)", "seaborn": "seaborn (plots)", "plotly": "plotly (plots)",
}


# A site inside a loop stands for far more work than one run once.
LOOP_WORK = 5
# A random draw outside every loop is set-up (an initial perturbation), not
# a Monte Carlo method.
SETUP_WORK = 0.25
MONTE_CARLO_CODE = "CPN304"
# The share of the whole-array work a pattern must cover to be the dominant one.
PATTERN_SHARE = 0.1
# Evidence that is a loop over the data (a recurrence, a traversal): its
# iterations are the work, and no NumPy site inside it is reported.
LOOP_EVIDENCE = frozenset({"recurrence", "graph"})


def _work_share(scope: list[Item], items: list[Item]) -> float | None:
    """The share of the work that is out of scope: NumPy work (SCALES,
    BLOCKS, REFACTOR, API and INFO sites; those in loops weigh LOOP_WORK) in
    the regions the evidence covers (the functions using a sparse or ML
    library, a recurrence loop and what it calls), plus the work of the
    evidence itself (the calls handed to the out-of-scope libraries, and the
    iterations of a recurrence or traversal loop), over all of it. None when
    a region is unknown (older flake8 input) or there is no work at all."""
    regions: dict[str, list[tuple[int, int]]] = {}
    own = 0  # work of the evidence itself
    for item in scope:
        spans = item.data.get("regions")
        if not isinstance(spans, list):
            return None  # flake8 input from an older cpn-lint: no regions
        spans = [(int(a), int(b)) for a, b in spans]
        regions.setdefault(item.location.path, []).extend(spans)
        own += int(item.data.get("library_work") or 0) + _loop_work(item, spans)
    total = inside = own
    for item in items:
        if item.category in ("SCOPE", "INTERNAL") or item.source != "static":
            continue
        weight = LOOP_WORK if item.in_loop else 1
        total += weight
        line = item.location.line
        if any(a <= line <= b for a, b in regions.get(item.location.path, ())):
            inside += weight
    return inside / total if total else None


def _loop_work(item: Item, spans: list[tuple[int, int]]) -> int:
    """The work of a recurrence or traversal loop, in the unit of a site
    (one whole-array operation): its trip count runs over the data (the
    signal, the nodes), so each statement of its body is one pass over it —
    as much as one whole-array operation, element by element. Counted from
    the loop's own lines (the region that starts at the finding), at least
    one: a program whose work is such loops is dominated by them, never 0%
    (SPEC §4, Gate 4)."""
    if item.data.get("kind") not in LOOP_EVIDENCE:
        return 0
    line = item.location.line
    body = [last - first for first, last in spans if first == line]
    return max(1, body[0]) if body else 0


def _scope_regions(scope: list[Item]) -> dict[str, list[tuple[int, int]]] | None:
    """The lines each piece of evidence covers, per file; None when a
    finding carries none (flake8 input from an older cpn-lint)."""
    regions: dict[str, list[tuple[int, int]]] = {}
    for item in scope:
        spans = item.data.get("regions")
        if not isinstance(spans, list):
            return None
        regions.setdefault(item.location.path, []).extend((int(a), int(b)) for a, b in spans)
    return regions


def _time_share(scope: list[Item], projection: TimeProjection | None) -> float | None:
    """The share of the projected time that is out of scope: what runs in
    the regions the evidence covers (a recurrence loop and what it calls,
    the functions handing data to a sparse or ML library), the sequential
    loops no finding names (a recurrence inside a compiled kernel, reported
    as the kernel) and every call into an out-of-scope library; None
    without a projection or regions."""
    if projection is None or projection.total <= 0:
        return None
    regions = _scope_regions(scope)
    if regions is None:
        return None
    inside = projection.seconds_within(regions)
    hidden = sum(site.seconds for site in _unreported_sequential(regions, projection))
    # calls into an out-of-scope library outside every region (``model.fit``
    # of an estimator the import's region did not cover) are its work too
    library = sum(site.seconds for site in projection.sites if site.share == Share.LIBRARY.value
                  and not any(a <= site.line <= b for a, b in regions.get(site.path, ())))
    return projection.fraction(inside + hidden + library)


def _unreported_sequential(regions: dict[str, list[tuple[int, int]]], projection: TimeProjection) -> list[TimedSite]:
    """Sequential loops (recurrences, worklists) that share no line with any
    region (a time loop around a reported sweep holds the sweep's time)."""
    return [site for site in projection.sites if site.share == Share.SEQUENTIAL.value
            and not any(a <= site.end_line and site.line <= b for a, b in regions.get(site.path, ()))]


HIDDEN_SHOWN = 3  # unreported sequential loops cited as Gate 4 evidence
HIDDEN_SHARE = 0.05  # the share of the time from which such a loop is cited


def scope_evidence(units: Sequence[Unit], scope: list[Item], pattern_items: list[Item],
                    items: list[Item] = (), peripheral: dict[str, str] | None = None,  # type: ignore[assignment]
                    projection: TimeProjection | None = None) -> ScopeEvidence:
    compute = [u for u in units if is_compute(u)]
    out_paths = {i.location.path for i in scope}
    hidden = _hidden_evidence(scope, projection)
    timed = _time_share(scope, projection) if scope or hidden else None
    work = _work_share(scope, list(items)) if scope and timed is None else None
    if timed is not None:
        basis, share = "time", timed
    elif work is not None:
        basis, share = "work", work
    elif compute and all(u.line_count for u in compute):
        basis = "lines"
        total = sum(u.line_count or 0 for u in compute)
        out = sum(u.line_count or 0 for u in compute if u.path in out_paths)
    else:
        basis = "files"
        total, out = len(compute), sum(1 for u in compute if u.path in out_paths)
    if basis in ("lines", "files"):
        share = out / total if total else (1.0 if scope else 0.0)
    kinds = {str(i.data.get("kind")) for i in scope if i.data.get("kind")} | ({"recurrence"} if hidden else set())
    inferred, detail = _infer_pattern(pattern_items, peripheral or {}, _statement_seconds(projection))
    note = _heaviest_out_of_scope(scope, projection) if basis == "time" else ""
    citations = tuple(i.citation for i in scope) + tuple(site.citation for site in hidden)
    return ScopeEvidence(tuple(sorted(kinds)), citations, share, basis, inferred, detail, note)


def _statement_seconds(projection: TimeProjection | None) -> "Callable[[Item], float] | None":
    """The projected time of a site's own statement, or None without a projection."""
    if projection is None or projection.total <= 0:
        return None
    return lambda item: projection.seconds_between(item.location.path, item.location.line, item.location.line)


def _hidden_evidence(scope: list[Item], projection: TimeProjection | None) -> list[TimedSite]:
    """The heaviest sequential loops no finding reports (inside a compiled
    kernel), when each holds at least HIDDEN_SHARE of the projected time."""
    if projection is None or projection.total <= 0:
        return []
    regions = _scope_regions(scope) or {}
    found = [s for s in _unreported_sequential(regions, projection) if projection.fraction(s.seconds) >= HIDDEN_SHARE]
    return found[:HIDDEN_SHOWN]


def _heaviest_out_of_scope(scope: list[Item], projection: TimeProjection | None) -> str:
    """'~40M tasks one after another at f.py:12: ~3 h per run on 1 GPU (projected)'."""
    if projection is None:
        return ""
    regions = _scope_regions(scope) or {}
    inside = [s for s in projection.sites if any(a <= s.line <= b for a, b in regions.get(s.path, ()))
              or s.share == Share.SEQUENTIAL.value]
    if not inside:
        return ""
    top = inside[0]
    gpus = f"{projection.scale.gpus} GPU" + ("s" if projection.scale.gpus > 1 else "")
    if top.share == Share.LIBRARY.value or top.steps < 2:
        return f"{top.citation}: {duration_text(top.seconds)} per run, on the host (projected)"
    return (f"{steps_text(top.steps)} tasks one after another at {top.citation}: {duration_text(top.seconds)} "
            f"per run on {gpus} (projected)")


def is_compute(unit: Unit) -> bool:
    """Does the file hold NumPy code (or out-of-scope work)? Without a model
    (flake8 input) a finding is the only evidence."""
    model = unit.result.model
    uses_numpy = model.uses_numpy() if model is not None else unit.uses_numpy
    return bool(uses_numpy) or bool(unit.result.findings)


def site_work(item: Item, peripheral: dict[str, str]) -> float:
    """How much work a SCALES or INFO site stands for, for the dominant
    pattern: a site in a loop runs every iteration (LOOP_WORK), one outside
    every loop once; a random-number stream counts its draws, and draws
    outside every loop are set-up (initial perturbations: SETUP_WORK each);
    files outside the main computation weigh PERIPHERAL_WEIGHT. Sites inside
    element loops and compiled kernels are not here at all: the SCALES
    rules leave them out (they are a root cause's scalar work)."""
    if item.code == MONTE_CARLO_CODE:
        draws = int(item.data.get("calls") or 1)
        weight = draws * (LOOP_WORK if item.in_loop else SETUP_WORK)
    else:
        weight = LOOP_WORK if item.in_loop else 1
    return weight * (PERIPHERAL_WEIGHT if item.location.path in peripheral else 1.0)


def _infer_pattern(items: Sequence[Item], peripheral: dict[str, str],
                   seconds: "Callable[[Item], float] | None" = None) -> tuple[str | None, str]:
    """The dominant pattern by work, not by site count (issue 25 §4): by the
    projected time of each site's statement when there is a projection
    (``seconds``), else by weighted site counts. Reductions go with every
    pattern (norms, residuals, logging), so they name the pattern only when
    nothing else is there; a pattern leads only when it covers PATTERN_SHARE
    of the whole-array work (every SCALES site but reductions, and the
    random draws); two patterns within a factor of two are "mixed"."""
    work: Counter[str] = Counter()
    sites: Counter[str] = Counter()
    total = 0.0
    for item in items:
        if item.category != "SCALES" and item.code != MONTE_CARLO_CODE:
            continue
        if seconds is not None:
            weight = seconds(item) * (PERIPHERAL_WEIGHT if item.location.path in peripheral else 1.0)
        else:
            weight = site_work(item, peripheral)
        pattern = PATTERN_CODES.get(item.code or "")
        if pattern != "reduction":
            total += weight
        if pattern is not None:
            work[pattern] += weight
            sites[pattern] += 1
    if not work:
        return None, ""
    ranked = sorted(work.items(), key=lambda kv: (-kv[1], kv[0]))
    detail = ", ".join(_share_text(name, sites[name], weight, total) for name, weight in ranked)
    if any(name != "reduction" for name, _ in ranked):
        detail = ("share of the projected whole-array time: " if seconds is not None
                  else "share of the whole-array work: ") + detail
    leading = [(name, weight) for name, weight in ranked if name != "reduction"]
    if not leading:
        return "reduction", detail
    top, top_work = leading[0]
    if total and top_work < PATTERN_SHARE * total:
        return None, detail
    if len(leading) > 1 and leading[1][1] * 2 >= top_work:
        return "mixed", detail
    return top, detail


def _share_text(name: str, sites: int, weight: float, total: float) -> str:
    count = f"{sites} site{'s' if sites > 1 else ''}"
    if name == "reduction" or not total:
        return f"{sites} {name} site{'s' if sites > 1 else ''}"
    return f"{name} {format_share(weight / total)} ({count})"


def decide_gates(
    context: Context,
    decision: Decision,
    gate1: Gate,
    gate2: Gate,
    gate4: Gate,
    blocks_codes: list[str],
    refactor: list[Item],
    units: Sequence[Unit],
    info: list[Item],
    doctor_supplied: bool,
    time: TimeProjection | None = None,
) -> list[Gate]:
    if gate4.failed:
        because = "Gate 4 already rules the port out"
        return [gate1, gate2, g.skipped(3, because), gate4, g.skipped(5, because), g.skipped(6, because)]
    if gate2.failed:
        because = "Gate 2 already rules the port out"
        return [gate1, gate2, g.skipped(3, because), gate4, g.skipped(5, because), g.skipped(6, because)]
    tier = decision.base if decision.rule != "gate1-hardware" else _code_tier(blocks_codes, refactor)
    parts = []
    if blocks_codes:
        idioms = g.blocking_idioms(blocks_codes)
        parts.append(f"{len(idioms)} distinct blocking idiom{'s' if len(idioms) > 1 else ''} ({', '.join(idioms)})")
    if refactor:
        recipes = sorted({i.recipe for i in refactor if i.recipe}, key=recipe_rank)
        parts.append(f"{len(refactor)} mechanical fix{'es' if len(refactor) > 1 else ''}" + (f" ({', '.join(recipes)})" if recipes else ""))
    detail = "; ".join(parts) if parts else "no blocking idioms and nothing to refactor"
    gate3 = g.gate3_shape(tier, detail)
    touch = _touchpoints(units, info)
    loops, array_loops = _loop_facts(units)
    return [gate1, gate2, gate3, gate4, g.gate5_boundary(touch, loops, array_loops, _boundary_share(time)), g.gate6_operations(context, doctor_supplied)]


def _boundary_share(time: TimeProjection | None) -> float | None:
    """The share of the projected time that is host round trips and plain Python."""
    if time is None or time.total <= 0:
        return None
    return time.fraction(time.by_share.get(Share.HOST_SYNC.value, 0.0) + time.by_share.get(Share.HOST.value, 0.0))


def _loop_facts(units: Sequence[Unit]) -> tuple[int | None, int | None]:
    """(loops, loops touching NumPy arrays) over the units; None when a
    unit was read without a model (flake8 input)."""
    loops = array_loops = 0
    for unit in units:
        if unit.result.error:
            continue  # not read (does not parse, ...): reported as an input error
        if unit.loops is None or unit.array_loops is None:
            return None, None
        loops += unit.loops
        array_loops += unit.array_loops
    return loops, array_loops


def _code_tier(blocks_codes: list[str], refactor: list[Item]) -> Verdict:
    """The code's own tier, ignoring gates (for the Gate 3 row when Gate 1 fails)."""
    return g.decide(gate1_failed=False, gate4_failed=False, gate2_failed=False, blocks_codes=blocks_codes,
                    has_refactor=bool(refactor), hot_missing_api=False).base


def _touchpoints(units: Sequence[Unit], info: list[Item]) -> list[str]:
    roots: set[str] = set()
    for unit in units:
        model = unit.result.model
        roots |= model.imports.imported_roots() if model is not None else unit.imported_roots
    seen = [label for root, label in HOST_LIBRARIES.items() if root in roots]
    scipy_sites = [i for i in info if i.code == "CPN301"]
    if scipy_sites:
        loops = sum(1 for i in scipy_sites if i.in_loop)
        seen = [s for s in seen if s != "SciPy"]
        seen.insert(0, f"SciPy ({len(scipy_sites)} site{'s' if len(scipy_sites) > 1 else ''}"
                       + (f", {loops} inside loops" if loops else "") + ")")
    return seen
