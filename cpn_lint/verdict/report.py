"""One report data structure, built from the assessed units and the context.

Every renderer (Markdown, JSON, SARIF) reads a :class:`Report`; none of them
decides anything. The section order and headings are the structural contract
of the assessment (SPEC §5): all eight are always present.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from .. import __version__
from ..findings import Finding
from ..registry import RECIPES, Category, recipe_rank
from ..rules import load_rules
from . import gates as g
from .collect import Unit
from .context import Context, format_count
from .gates import Decision, Gate, ScopeEvidence, SizeEvidence, Verdict
from .scope import Scope
from .summary import Overview, build_overview
from .suppress import Suppressions

# API findings that stop the program after the import swap: a name
# cuPyNumeric lacks (CPN401) and an argument form it rejects (CPN404).
STOPPING_API_CODES = frozenset({"CPN401", "CPN404"})

REPORT_SCHEMA = "cpn-lint/verdict-report"
REPORT_SCHEMA_VERSION = 1
SCALES_EXAMPLES = 2  # quoted lines per code in "What works"
DOCTOR_CODES_SHOWN = 5  # codes whose Doctor checks the report spells out

DOCTOR_COMMAND = (
    "CUPYNUMERIC_DOCTOR=1 CUPYNUMERIC_DOCTOR_FORMAT=json "
    "CUPYNUMERIC_DOCTOR_FILENAME=doctor-report.json legate --gpus 1 main.py"
)

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

# SCALES / INFO codes that tell the dominant compute pattern apart.
PATTERN_CODES = {"CPN005": "stencil", "CPN003": "gemm", "CPN002": "reduction", "CPN304": "monte-carlo"}
# What a Doctor check with no cpn-lint counterpart means, for runtime-only entries.
DOCTOR_MEANINGS = {
    "AdvancedIndexingCheck": "indexing with an integer array gathers scattered elements, often across GPUs; "
                             "prefer a boolean mask or a contiguous slice where the algorithm allows",
    "ArrayGatherCheck": "a distributed array was pulled into a single memory, serialising the work; "
                        "look for a host conversion or an operation that needs the whole array in one place",
}
# Host libraries whose presence Gate 5 lists as boundary touchpoints.
HOST_LIBRARIES = {
    "pandas": "pandas (loading)", "h5py": "h5py (I/O)", "pyarrow": "pyarrow (I/O)", "xarray": "xarray (I/O)",
    "netCDF4": "netCDF4 (I/O)", "zarr": "zarr (I/O)", "scipy": "SciPy", "sklearn": "scikit-learn",
    "cv2": "OpenCV", "matplotlib": "matplotlib (plots)", "seaborn": "seaborn (plots)", "plotly": "plotly (plots)",
}
WORKLOAD_ALTERNATIVES = {
    "sparse": "a sparse-matrix GPU library (legate.sparse if it covers your operations, or CuPy's cupyx.scipy.sparse)",
    "graph": "a graph library built for irregular access, such as RAPIDS cuGraph",
    "ml": "the ML framework's own GPU support (PyTorch or JAX on the GPU, RAPIDS cuML for scikit-learn estimators)",
    "nlp": "CPU string processing or a dedicated GPU text library; array runtimes do not help here",
    "recurrence": "a reformulation as a scan or prefix operation if the maths allows it, else a compiled loop (Numba, Cython)",
}


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


# ------------------------------------------------------------------- building
def _item(unit: Unit, finding: Finding, rules: dict[str, Any], runtime: tuple[RuntimeEvidence, ...] = ()) -> Item:
    rule = rules.get(finding.code)
    cell = unit.cell_of(finding.line)
    location = Location(
        path=unit.path,
        line=finding.line,
        column=codepoint_column(unit.raw_line(finding.line), finding.col),
        citation=unit.cite(finding.line),
        cell=cell[0] if cell else None,
        cell_line=cell[1] if cell else None,
    )
    return Item(
        code=finding.code,
        name=rule.slug if rule else finding.code,
        category=rule.category.value if rule else "UNKNOWN",
        summary=rule.summary if rule else "",
        recipe=rule.recipe if rule else None,
        message=finding.message,
        location=location,
        quote=unit.quote(finding.line),
        in_loop=finding.in_loop,
        data=dict(finding.data),
        runtime=runtime,
        function=unit.function_at(finding.line),
        span=max(1, (finding.end_line or finding.line) - finding.line + 1),
    )


def codepoint_column(line: str, byte_offset: int) -> int:
    """flake8's 0-based UTF-8 byte offset as a 1-based character column."""
    if not line or byte_offset <= 0:
        return max(byte_offset, 0) + 1
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", "ignore")) + 1


def _by_position(items: Iterable[Item]) -> list[Item]:
    """Source order; the later keys make the order total, so the report never
    depends on the order findings arrived in."""
    return sorted(items, key=lambda i: (i.location.path, i.location.line, i.location.column, i.code or "",
                                        i.message, i.in_loop, i.source, repr(sorted(i.data.items(), key=str))))


def _norm(path: str) -> str:
    return os.path.normcase(os.path.abspath(path))


def unit_for_path(filename: str, units: Sequence[Unit]) -> Unit | None:
    """The assessed unit a runtime path names: the same file, else the one
    unit whose path is the longest matching suffix (Doctor may have run the
    program from another directory, or on another machine)."""
    target = _norm(filename)
    for unit in units:
        if _norm(unit.path) == target:
            return unit
    wanted = list(reversed(filename.replace("\\", "/").split("/")))
    best: list[tuple[int, Unit]] = []
    for unit in units:
        have = list(reversed(unit.path.replace("\\", "/").split("/")))
        common = 0
        while common < min(len(have), len(wanted)) and have[common] == wanted[common] and have[common] not in ("", ".", ".."):
            common += 1
        if common:
            best.append((common, unit))
    if not best:
        return None
    top = max(n for n, _ in best)
    winners = [u for n, u in best if n == top]
    return winners[0] if len(winners) == 1 else None


@dataclass(frozen=True)
class DoctorMerge:
    """Doctor's evidence, keyed for the report."""

    confirmed: dict[tuple[str, str, int, int], tuple[RuntimeEvidence, ...]]
    runtime_only: list[Item]


def merge_doctor(units: Sequence[Unit], doctor_findings: Sequence[Any] | None) -> DoctorMerge | None:
    """Reconcile a Doctor report with the static findings (cpn_lint.doctor)."""
    if doctor_findings is None:
        return None
    from .. import doctor  # the runtime oracle's reader

    reconciliation = doctor.reconcile([u.result for u in units], doctor_findings)
    rules = load_rules()
    confirmed: dict[tuple[str, str, int, int], tuple[RuntimeEvidence, ...]] = {}
    for path, finding, evidence in reconciliation.confirmed:
        key = (_norm(path), finding.code, finding.line, finding.col)
        confirmed[key] = tuple(
            RuntimeEvidence(d.check, d.description, f"{d.filename}:{d.line}") for d in evidence
        )
    runtime_only: list[Item] = []
    for d in reconciliation.runtime_only:
        unit = unit_for_path(d.filename, units)
        rule = rules.get(d.code) if d.code else None
        location = Location(d.filename, d.line, 1, unit.cite(d.line) if unit else f"{d.filename}:{d.line}")
        runtime_only.append(
            Item(
                code=d.code,
                name=rule.slug if rule else d.check,
                category=rule.category.value if rule else "RUNTIME",
                summary=rule.summary if rule else d.check,
                recipe=rule.recipe if rule else None,
                message=f"Doctor {d.check}: {d.description}" + (
                    f" — {DOCTOR_MEANINGS[d.check]}" if d.check in DOCTOR_MEANINGS and not rule else ""),
                location=location,
                quote=unit.quote(d.line) if unit else (d.source or "").strip(),
                in_loop=False,
                data={"doctor_check": d.check, "assessed_file": unit is not None},
                source="doctor",
            )
        )
    return DoctorMerge(confirmed, _by_position(runtime_only))


def build_report(
    units: Sequence[Unit],
    context: Context,
    *,
    input_errors: Sequence[str] = (),
    input_notes: Sequence[str] = (),
    size_evidence: SizeEvidence | None = None,
    doctor_findings: Sequence[Any] | None = None,
    manifest: ManifestNote | None = None,
    scope: Scope | None = None,
    suppressions: Suppressions | None = None,
) -> Report:
    """Apply the decision framework to the units and assemble the report.

    Only the units ``scope`` says decide (the program's own source, by
    default) feed the verdict and the sections; the rest are counted in the
    summary."""
    rules = load_rules()
    all_units = list(units)
    file_scope = scope or Scope()
    units = _deciding(all_units, file_scope)
    merged = merge_doctor(units, doctor_findings)
    items: list[Item] = []
    internal: list[Item] = []
    for unit in units:
        for finding in unit.result.findings:
            runtime = ()
            if merged is not None:
                runtime = merged.confirmed.get((_norm(unit.path), finding.code, finding.line, finding.col), ())
            item = _item(unit, finding, rules, runtime)
            (internal if item.category == Category.INTERNAL.value else items).append(item)
    items = _unique(ranked(items))  # ranked first: of two copies, the in-loop one is kept
    by_category: dict[str, list[Item]] = {}
    for item in items:
        by_category.setdefault(item.category, []).append(item)
    runtime_only = merged.runtime_only if merged else []
    # Runtime-only findings that map to a code count like static ones, when
    # they are in a file under assessment (Doctor also sees library code).
    counted_runtime = [i for i in runtime_only if i.code and i.data.get("assessed_file")]

    blocks = by_category.get("BLOCKS", [])
    refactor = by_category.get("REFACTOR", [])
    scope = by_category.get("SCOPE", [])
    api = by_category.get("API", [])
    runtime_blocks = [i for i in counted_runtime if i.category == "BLOCKS"]
    runtime_refactor = [i for i in counted_runtime if i.category == "REFACTOR"]
    blocks_codes = sorted({i.code for i in blocks + runtime_blocks if i.code})

    hot_apis = [i for i in api if _demotes(i, context)]
    hot_loops = [i for i in blocks if i.code == "CPN101" and i.data.get("repeated_by")]

    scope_evidence = _scope_evidence(units, scope, by_category.get("SCALES", []) + by_category.get("INFO", []), items)
    gate1 = g.gate1_hardware(context)
    gate4 = g.gate4_pattern(context, scope_evidence)
    size_evidence = size_evidence or SizeEvidence()
    gate2 = g.gate2_size(context, size_evidence) if not gate4.failed else g.skipped(2, "Gate 4 already rules the port out")
    decision = g.decide(
        gate1_failed=gate1.failed,
        gate4_failed=gate4.failed,
        gate2_failed=gate2.failed,
        blocks_codes=blocks_codes,
        has_refactor=bool(refactor or runtime_refactor),
        hot_missing_api=bool(hot_apis),
        hot_element_loop=bool(hot_loops),
    )
    gates = _gates(context, decision, gate1, gate2, gate4, blocks_codes, refactor + runtime_refactor, units,
                   by_category.get("INFO", []), merged is not None)
    report = Report(
        verdict=decision.verdict,
        decision=decision,
        summary=_summary(decision, gate1, gate2, gate4, scope_evidence, size_evidence, blocks + runtime_blocks,
                         refactor + runtime_refactor, hot_apis, hot_loops),
        context=_context_rows(context, units, scope_evidence, len(all_units) - len(units)),
        files=[u.path for u in all_units],
        input_errors=list(input_errors) + [e for u in all_units for e in u.errors],
        input_notes=list(input_notes) + (
            ["None of the assessed files uses NumPy, so the verdict has nothing to rest on."]
            if units and not any(_is_compute(u) for u in units) else []),
        internal_errors=internal,
        what_works=_scales_groups(by_category.get("SCALES", [])),
        what_blocks=blocks,
        out_of_scope=scope,
        runtime_blocks=[i for i in runtime_only if i.category not in ("REFACTOR",)],
        whats_fixable=_recipe_groups(refactor + [i for i in runtime_only if i.category == "REFACTOR"]),
        notes=by_category.get("INFO", []),
        api_gaps=api,
        api_note=_api_note(api, context),
        manifest=manifest,
        gates=gates,
        next_steps=[],
        doctor_command=None,
        doctor_look_for=[],
        doctor_supplied=merged is not None,
    )
    report.overview = build_overview(report.all_items(), all_units, file_scope, suppressions)
    if file_scope.fallback:
        report.input_notes.append("No file of the program's own source uses NumPy, so the tests, docs and examples "
                                  "found decide the verdict.")
    _next_steps(report, context, units, scope_evidence, hot_apis)
    return report


def _demotes(item: Item, context: Context) -> bool:
    """An API gap on the hot path lowers the verdict one tier: a call that
    stops the program (CPN401, CPN404) inside a loop or anywhere on the data
    path (not at a load, save or plot boundary); a single-GPU-only call
    (CPN402) inside a loop when the target has several nodes."""
    if item.code in STOPPING_API_CODES:
        return item.in_loop or bool(item.data.get("data_path"))
    return item.code == "CPN402" and item.in_loop and context.nodes > 1


def _deciding(units: list[Unit], scope: Scope) -> list[Unit]:
    """The units that decide the verdict; all of them when no source file
    holds NumPy code (a folder of examples), noted on the scope."""
    deciding = [u for u in units if scope.decides(u.path)]
    if not any(_is_compute(u) for u in deciding) and any(_is_compute(u) for u in units):
        scope.fallback = True
        return units
    return deciding


def _unique(items: Iterable[Item]) -> list[Item]:
    """One item per code, site (line and column) and message: the same call
    reported twice is one site."""
    seen: set[tuple[str | None, str, int, str]] = set()
    unique = []
    for item in items:
        key = (item.code, item.citation, item.location.column, item.message)
        if key not in seen:
            seen.add(key)
            unique.append(item)
    return unique


def ranked(items: Iterable[Item]) -> list[Item]:
    """Most important first: inside loops before outside, then the sites
    covering most of their file (a loop over forty lines before a one-line
    call), then source order."""
    return sorted(items, key=lambda i: (not i.in_loop, -i.span, i.location.path, i.location.line, i.location.column,
                                        i.code or "", i.message))


# ---------------------------------------------------------------- evidence
# A site inside a loop stands for far more work than one run once.
LOOP_WORK = 5


def _work_share(scope: list[Item], items: list[Item]) -> float | None:
    """The share of the work that is out of scope: NumPy work (SCALES,
    BLOCKS, REFACTOR, API and INFO sites; those in loops weigh LOOP_WORK) in
    the regions the evidence covers (the functions using a sparse or ML
    library, a recurrence loop and what it calls), plus the calls handed to
    the out-of-scope libraries themselves, over all of it. None when a
    region is unknown (older flake8 input) or there is no work at all."""
    regions: dict[str, list[tuple[int, int]]] = {}
    library = 0  # work handed to the out-of-scope libraries themselves
    for item in scope:
        spans = item.data.get("regions")
        if not isinstance(spans, list):
            return None  # flake8 input from an older cpn-lint: no regions
        regions.setdefault(item.location.path, []).extend((int(a), int(b)) for a, b in spans)
        library += int(item.data.get("library_work") or 0)
    total = inside = library
    for item in items:
        if item.category in ("SCOPE", "INTERNAL") or item.source != "static":
            continue
        weight = LOOP_WORK if item.in_loop else 1
        total += weight
        line = item.location.line
        if any(a <= line <= b for a, b in regions.get(item.location.path, ())):
            inside += weight
    return inside / total if total else None


def _scope_evidence(units: Sequence[Unit], scope: list[Item], pattern_items: list[Item],
                    items: list[Item] = ()) -> ScopeEvidence:  # type: ignore[assignment]
    compute = [u for u in units if _is_compute(u)]
    out_paths = {i.location.path for i in scope}
    work = _work_share(scope, list(items)) if scope else None
    if work is not None:
        basis, share = "work", work
    elif compute and all(u.line_count for u in compute):
        basis = "lines"
        total = sum(u.line_count or 0 for u in compute)
        out = sum(u.line_count or 0 for u in compute if u.path in out_paths)
    else:
        basis = "files"
        total, out = len(compute), sum(1 for u in compute if u.path in out_paths)
    if work is None:
        share = out / total if total else (1.0 if scope else 0.0)
    kinds = tuple(sorted({str(i.data.get("kind")) for i in scope if i.data.get("kind")}))
    counts = Counter(PATTERN_CODES[i.code] for i in pattern_items if i.code in PATTERN_CODES)
    inferred, detail = _infer_pattern(counts)
    return ScopeEvidence(kinds, tuple(i.citation for i in scope), share, basis, inferred, detail)


def _is_compute(unit: Unit) -> bool:
    """Does the file hold NumPy code (or out-of-scope work)? Without a model
    (flake8 input) a finding is the only evidence."""
    model = unit.result.model
    uses_numpy = model.uses_numpy() if model is not None else unit.uses_numpy
    return bool(uses_numpy) or bool(unit.result.findings)


def _infer_pattern(counts: Counter[str]) -> tuple[str | None, str]:
    """The dominant pattern from SCALES/INFO sites. Reductions go with every
    pattern (norms, residuals, logging), so they name the pattern only when
    nothing else is there; two patterns within a factor of two are "mixed"."""
    if not counts:
        return None, ""
    ranked = counts.most_common()
    detail = ", ".join(f"{n} {name} site{'s' if n > 1 else ''}" for name, n in ranked)
    leading = [(name, n) for name, n in ranked if name != "reduction"] or ranked
    top, top_n = leading[0]
    if len(leading) > 1 and leading[1][1] * 2 >= top_n:
        return "mixed", detail
    return top, detail


def _gates(
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
        parts.append(f"{len(blocks_codes)} distinct blocking idiom{'s' if len(blocks_codes) > 1 else ''} ({', '.join(blocks_codes)})")
    if refactor:
        recipes = sorted({i.recipe for i in refactor if i.recipe}, key=recipe_rank)
        parts.append(f"{len(refactor)} mechanical fix{'es' if len(refactor) > 1 else ''}" + (f" ({', '.join(recipes)})" if recipes else ""))
    detail = "; ".join(parts) if parts else "no blocking idioms and nothing to refactor"
    gate3 = g.gate3_shape(tier, detail)
    touch = _touchpoints(units, info)
    return [gate1, gate2, gate3, gate4, g.gate5_boundary(touch), g.gate6_operations(context, doctor_supplied)]


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


# ----------------------------------------------------------------- sections
def _scales_groups(scales: list[Item]) -> list[ScalesGroup]:
    groups: list[ScalesGroup] = []
    by_code: dict[str, list[Item]] = {}
    for item in scales:
        by_code.setdefault(item.code or "", []).append(item)
    for code in sorted(by_code):
        members = by_code[code]
        examples: list[Item] = []
        quotes: set[str] = set()
        for item in members:
            if item.quote and item.quote not in quotes:
                quotes.add(item.quote)
                examples.append(item)
            if len(examples) == SCALES_EXAMPLES:
                break
        first = members[0]
        groups.append(ScalesGroup(code, first.name, first.summary, tuple(examples), tuple(members)))
    return groups


def _recipe_groups(items: list[Item]) -> list[RecipeGroup]:
    by_recipe: dict[str | None, list[Item]] = {}
    for item in items:
        by_recipe.setdefault(item.recipe, []).append(item)
    ordered = sorted(by_recipe, key=lambda r: (recipe_rank(r), r or ""))
    return [
        RecipeGroup(r, RECIPES.get(r or "", "restructure by hand; no mechanical recipe applies"), tuple(_by_position(by_recipe[r])))
        for r in ordered
    ]


def _api_note(api: list[Item], context: Context) -> str:
    single = [i for i in api if i.code == "CPN402"]
    if not single:
        return ""
    if context.nodes > 1:
        return (f"Single-GPU-only APIs matter here: the target is {context.nodes} nodes, and each call runs on one "
                "device while the others wait; one inside a loop demotes the verdict like an unimplemented API.")
    return ("Single-GPU-only APIs matter only on more than one node; on the single-node target assumed here "
            "they run, but on one GPU at a time (give --nodes if the target is multi-node).")


def _context_rows(context: Context, units: Sequence[Unit], scope: ScopeEvidence, others: int = 0) -> list[ContextRow]:
    rows = []
    notebooks = sum(1 for u in units if u.is_notebook)
    scripts = len(units) - notebooks
    parts = [f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((scripts, "Python file"), (notebooks, "notebook")) if n]
    source = ", ".join(parts) or "nothing (no Python files or notebooks found)"
    if others:
        source += f" (and {others} test, doc or example file{'s' if others != 1 else ''} outside the verdict)"
    rows.append(ContextRow("source", "Source assessed", source, "paths given"))
    if context.elements is not None:
        elements = f"{format_count(context.elements)} elements"
    else:
        elements = "30–50 million elements"
    rows.append(ContextRow("elements", "Hot-path array size", elements, context.source_of("elements")))
    gpus = f"{context.gpus}" if context.gpus is not None else "1–4"
    rows.append(ContextRow("gpus", "GPUs", gpus, context.source_of("gpus")))
    rows.append(ContextRow("nodes", "Nodes", str(context.nodes), context.source_of("nodes")))
    if context.compute_capability is not None:
        cc = f"{context.compute_capability[0]}.{context.compute_capability[1]}"
        hardware = f"{context.gpu_model} (compute capability {cc})" if context.gpu_model else f"compute capability {cc}"
        hw_source = context.source_of("gpu_model" if context.gpu_model else "compute_capability")
    else:
        hardware, hw_source = "not stated (Gate 1 left uncertain)", "default"
    rows.append(ContextRow("hardware", "Target GPU", hardware, hw_source))
    if context.pattern is not None:
        rows.append(ContextRow("pattern", "Dominant compute pattern", context.pattern, context.source_of("pattern")))
    elif scope.inferred_pattern:
        rows.append(ContextRow("pattern", "Dominant compute pattern",
                               f"{scope.inferred_pattern} ({scope.pattern_detail})", "inferred from the code"))
    else:
        rows.append(ContextRow("pattern", "Dominant compute pattern", "not determined (give --pattern)", "default"))
    return rows


# ------------------------------------------------------------------- summary
def _cites(items: Sequence[Item], limit: int = 3) -> str:
    cites = [i.citation for i in items[:limit]]
    more = len(items) - limit
    return ", ".join(cites) + (f" and {more} more" if more > 0 else "")


def _summary(
    decision: Decision,
    gate1: Gate,
    gate2: Gate,
    gate4: Gate,
    scope: ScopeEvidence,
    sizes: SizeEvidence,
    blocks: list[Item],
    refactor: list[Item],
    hot_apis: list[Item],
    hot_loops: Sequence[Item] = (),
) -> str:
    verdict = decision.verdict.value
    rule = decision.rule
    codes = sorted({i.code for i in blocks if i.code})
    if rule == "gate1-hardware":
        why = f"the target hardware fails Gate 1 ({gate1.reason.split(':')[0]}), whatever the code looks like"
    elif rule == "gate4-pattern":
        why = f"the dominant compute is {g.kinds_text(scope.kinds)} ({_cites_text(scope.citations)}), which cuPyNumeric does not accelerate"
    elif rule == "gate2-size":
        largest = sizes.largest()
        where = f"; the largest holds at most {format_count(largest.elements)} elements ({largest.citation})" if largest and gate2.evidence else ""
        why = f"the hot-path arrays are below the 65,536-elements-per-GPU floor, where cuPyNumeric cannot run in parallel{where}"
    elif rule == "mpi4py":
        mpi = [i for i in blocks if i.code == g.MPI_CODE]
        others = [c for c in codes if c != g.MPI_CODE]
        why = f"the code distributes its own work with mpi4py ({_cites(mpi, 2)}), so the parallel layer must be rewritten around one global array"
        if others:
            why += f", besides {len(others)} other blocking idiom{'s' if len(others) > 1 else ''} ({', '.join(others)})"
    elif rule == "many-blocks":
        why = f"{len(codes)} distinct blocking idioms ({', '.join(codes)}) must be rewritten before the code can scale, each with a known recipe"
    elif rule == "hot-element-loop":
        first = hot_loops[0]
        more = len(hot_loops) - 1
        why = (f"the program's main work runs one element at a time: the element loop at {first.where} runs on every "
               f"pass of the loop at line {first.data.get('repeated_by')}"
               + (f" (and {more} more such loop{'s' if more > 1 else ''})" if more > 0 else "")
               + ", so vectorising it is the port itself, not a mechanical fix")
    elif rule == "few-blocks":
        if len(codes) == 1:
            why = f"one blocking idiom ({codes[0]}), which has a known recipe, stands between this code and scaling"
        else:
            why = f"two blocking idioms ({', '.join(codes)}), both with known recipes, stand between this code and scaling"
        if refactor:
            why += f", plus {len(refactor)} mechanical fix{'es' if len(refactor) > 1 else ''}"
    elif rule == "refactor-only":
        recipes = sorted({i.recipe for i in refactor if i.recipe}, key=recipe_rank)
        why = f"nothing blocks scaling; {len(refactor)} mechanical fix{'es' if len(refactor) > 1 else ''} ({', '.join(recipes)}) will remove avoidable overhead"
    elif decision.demoted:
        why = "no idiom blocks scaling and nothing needs a mechanical fix"
    else:
        why = "nothing in the code blocks scaling or needs refactoring: swap the import and benchmark"
    sentence = f"**{verdict}** — {why}"
    if decision.demoted:
        apis = sorted({str(i.data.get("api") or i.data.get("form") or i.code) for i in hot_apis})
        shown = ", ".join(apis[:3]) + (f" and {len(apis) - 3} more" if len(apis) > 3 else "")
        where = "inside a loop" if all(i.in_loop for i in hot_apis) else "on the data path"
        sentence += (f", but it is one tier lower than {decision.base.value} because {shown} "
                     f"{'stops' if len(apis) == 1 else 'stop'} the ported program {where} ({_cites(hot_apis, 2)})")
    return sentence + "."


def _cites_text(citations: Sequence[str], limit: int = 3) -> str:
    more = len(citations) - limit
    return ", ".join(citations[:limit]) + (f" and {more} more" if more > 0 else "")


# ---------------------------------------------------------------- next steps
def _next_steps(report: Report, context: Context, units: Sequence[Unit], scope: ScopeEvidence, hot_apis: list[Item]) -> None:
    rule = report.decision.rule
    steps: list[Step] = []
    if rule == "gate4-pattern":
        _steps_wrong_workload(steps, report, units, scope)
        report.next_steps = steps
        return
    if rule == "gate2-size":
        _steps_too_small(steps, report)
    if rule == "gate1-hardware":
        steps.append(Step("Plan the hardware first",
                          "cuPyNumeric needs compute capability 7.0 or newer (V100, T4, A100, L4, H100 and later); "
                          "the code-level steps below still apply once it is available."))
    confirmed = [i for i in report.all_items() if i.runtime]
    if confirmed:
        steps.append(Step("Start with what Doctor confirmed at runtime",
                          f"{len(confirmed)} finding{'s' if len(confirmed) > 1 else ''} seen both statically and by cuPyNumeric "
                          "Doctor; these cost time on every run",
                          tuple(i.citation for i in confirmed)))
    automatic = _automatic_fixes(units)
    if automatic is not None:
        steps.append(automatic)
    fixes = report.what_blocks + report.runtime_blocks + [i for grp in report.whats_fixable for i in grp.items]
    fixes += [i for i in report.api_gaps if i.code in STOPPING_API_CODES or i in hot_apis]
    for group in _recipe_groups([i for i in fixes if i.category in ("BLOCKS", "REFACTOR", "API") and i.code]):
        codes = sorted({i.code for i in group.items if i.code})
        title = f"Apply {group.recipe}" if group.recipe else "Restructure by hand"
        steps.append(Step(title, f"{group.description} — {len(group.items)} site{'s' if len(group.items) > 1 else ''} ({', '.join(codes)})",
                          tuple(i.citation for i in group.items)))
    unmapped = [i for i in report.runtime_blocks if not i.code]
    if unmapped:
        steps.append(Step("Look at what only Doctor saw",
                          "runtime patterns with no static counterpart; read each site and decide",
                          tuple(i.citation for i in unmapped)))
    if report.verdict is not Verdict.READY and rule != "gate2-size":
        steps.append(Step("Re-assess", "run cpn-verdict again on the changed code; aim for READY before benchmarking"))
    if rule != "gate2-size":
        pilot = _pilot_file(units)
        swap = "swap `import numpy as np` for `import cupynumeric as np`"
        if pilot is None:
            detail = f"{swap} in the module with the most whole-array code"
        elif pilot[1]:
            detail = f"{swap} in {pilot[0]}, the module with the fewest findings, once its findings are fixed"
        else:
            detail = f"{swap} in {pilot[0]}, which has nothing to fix"
        steps.append(Step("Port one module first", detail))
        scale = f"{context.gpus} GPUs" if context.gpus and context.gpus > 1 else "more GPUs"
        steps.append(Step("Check and measure on one GPU",
                          "compare results with NumPy on a small input (np.allclose), then time the hot path with "
                          f"legate.timing on `legate --gpus 1`; move to {scale} only if one GPU beats NumPy"))
    if rule == "gate2-size":
        steps.append(Step("Run cuPyNumeric Doctor if you do port",
                          "once batching has made the arrays large enough, on the first run, with the command below"))
    elif report.doctor_supplied:
        steps.append(Step("Run cuPyNumeric Doctor again",
                          "after the recipes, with the command below; the confirmed entries should be gone"))
    else:
        steps.append(Step("Run cuPyNumeric Doctor", "on the first real run, with the command below"))
    report.next_steps = steps
    report.doctor_command = DOCTOR_COMMAND
    report.doctor_look_for = _doctor_look_for(report)


def _automatic_fixes(units: Sequence[Unit]) -> Step | None:
    """How many findings `cpn-lint fix` can rewrite, and where."""
    sites = [(unit, line, code) for unit in units for line, code in unit.fixable]
    if not sites:
        return None
    codes = Counter(code for _, _, code in sites)
    listed = ", ".join(f"{code} ×{n}" if n > 1 else code for code, n in sorted(codes.items()))
    plural = "s" if len(sites) > 1 else ""
    return Step("Let `cpn-lint fix` apply the proven rewrites",
                f"{len(sites)} finding{plural} ({listed}) can be rewritten automatically: the model proves the "
                f"rewrite keeps the results; `cpn-lint fix --diff PATH...` shows the change{plural}, "
                f"`cpn-lint fix PATH...` makes {'them' if plural else 'it'}",
                tuple(unit.cite(line) for unit, line, _ in sites))


def _steps_too_small(steps: list[Step], report: Report) -> None:
    steps.append(Step("Keep NumPy for now",
                      "at these sizes each GPU would hold too little work; if the code needs speed, compile the hot "
                      "loop (Numba, Cython) instead", tuple(report.gates[1].evidence)))
    steps.append(Step("Check the sizes", "if production runs are larger than the literals in the code, run "
                      "cpn-verdict again with --elements N (and --gpus)"))
    steps.append(Step("Batch small problems", "if the program solves many small independent problems, stack them "
                      "into one large array and make one batched call (RR-batch), then re-assess"))


def _steps_wrong_workload(steps: list[Step], report: Report, units: Sequence[Unit], scope: ScopeEvidence) -> None:
    steps.append(Step("Do not port this workload to cuPyNumeric",
                      f"its dominant compute is {g.kinds_text(scope.kinds)}; cuPyNumeric accelerates dense array "
                      "arithmetic, not this", scope.citations))
    for kind in scope.kinds:
        if kind in WORKLOAD_ALTERNATIVES:
            steps.append(Step(f"For the {g.KIND_WORDS.get(kind, kind)}", f"use {WORKLOAD_ALTERNATIVES[kind]}"))
    out = {i.location.path for i in report.out_of_scope}
    dense = [u.path for u in units if _is_compute(u) and u.path not in out]
    if dense:
        listed = ", ".join(dense[:3]) + (f" and {len(dense) - 3} more" if len(dense) > 3 else "")
        steps.append(Step("Assess the dense part on its own",
                          f"{listed} {'has' if len(dense) == 1 else 'have'} no out-of-scope evidence; run cpn-verdict on "
                          f"{'it' if len(dense) == 1 else 'them'} alone to see whether that part is worth porting"))
    steps.append(Step("Skip cuPyNumeric Doctor",
                      "Doctor inspects programs running on cuPyNumeric, and this one should not become one"))


def _pilot_file(units: Sequence[Unit]) -> tuple[str, int] | None:
    """The cleanest module to port first: most SCALES findings, fewest problems."""
    best: tuple[int, int, str] | None = None
    rules = load_rules()
    for unit in units:
        scales = problems = 0
        for f in unit.result.findings:
            rule = rules.get(f.code)
            if rule is None:
                continue
            if rule.category is Category.SCALES:
                scales += 1
            elif rule.category in (Category.BLOCKS, Category.REFACTOR, Category.SCOPE):
                problems += 1
        if not _is_compute(unit):
            continue
        key = (problems, -scales, unit.path)
        if best is None or key < best:
            best = key
    return (best[2], best[0]) if best else None


def _doctor_look_for(report: Report) -> list[str]:
    look = [
        "doctor-report.json lists one entry per runtime pattern Doctor saw, with its file, line, check name "
        "and a description; an empty list means Doctor saw none of its patterns on the paths that ran.",
    ]
    from ..doctor import checks_seeing

    by_code: dict[str, list[str]] = {}
    for item in report.what_blocks + [i for grp in report.whats_fixable for i in grp.items]:
        if item.code and checks_seeing(item.code):
            by_code.setdefault(item.code, []).append(item.citation)
    ordered = sorted(by_code, key=lambda c: (-len(by_code[c]), c))
    for code in ordered[:DOCTOR_CODES_SHOWN]:
        cites = by_code[code]
        shown = ", ".join(cites[:2]) + (f" and {len(cites) - 2} more" if len(cites) > 2 else "")
        checks = " or ".join(checks_seeing(code))
        look.append(f"{checks} entries at the {code} sites ({shown}) until they are fixed; none once they are.")
    if len(ordered) > DOCTOR_CODES_SHOWN:
        rest = ", ".join(sorted(ordered[DOCTOR_CODES_SHOWN:]))
        look.append(f"Entries at the sites of {rest} likewise (their checks are on each rule's page).")
    look.append("An entry at a line this report does not cite is a pattern the static read missed: feed the report "
                "back with `cpn-verdict --doctor doctor-report.json PATH...` to merge it into the assessment.")
    look.append("Doctor sees only the code paths that ran: exercise the hot path with a representative input.")
    return look
