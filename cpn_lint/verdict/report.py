"""Builds the one :class:`~.report_items.Report` every renderer reads, from
the assessed units and the context: the findings become ranked sites, the
gates' inputs are read (:mod:`.gate_inputs`), the gates decide
(:mod:`.gates`), and the words are added (:mod:`.advice`). The eight
sections and their headings are the report's fixed structure
(:data:`.report_items.SECTION_TITLES`)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Sequence

from ..findings import Finding
from ..registry import Category
from ..rules import load_rules
from ..rules._api_support import kept_on_numpy  # kept on NumPy it is right: a note, not a refactor
from . import gates as g
from .advice import DOCTOR_MEANINGS, add_next_steps, kernels_text, main_work_text, summary_sentence
from .breaks import breaks_first
from .causes import Cause, root_causes
from .collect import Unit
from .context import Context, format_count
from .gate_inputs import decide_gates, is_compute, scope_evidence
from .gates import STOPPING_API_CODES, ScopeEvidence, SizeEvidence
from .loop_groups import LoopLookup, group_by_loop
from .periphery import peripheral_files
from .report_items import (
    ContextRow,
    Item,
    Location,
    ManifestNote,
    Report,
    RuntimeEvidence,
    ScalesGroup,
    by_position,
    recipe_groups,
)
from .scope import Scope
from .summary import build_overview
from .suppress import Suppressions
from .time_projection import TimeProjection, project

SCALES_EXAMPLES = 2  # quoted lines per code in "What works"

# ------------------------------------------------------------------- building
def _item(unit: Unit, finding: Finding, rules: dict[str, Any], runtime: tuple[RuntimeEvidence, ...] = (),
          nodes: int = 1) -> Item:
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
        category=_category(rule, finding, nodes),
        summary=rule.summary if rule else "",
        recipe=rule.recipe if rule else None,
        message=cells_in_message(unit, finding.message),
        location=location,
        quote=unit.quote(finding.line),
        in_loop=finding.in_loop,
        data={**_cited_data(unit, finding.data), **({"main_block": True} if unit.in_main_block(finding.line) else {})},
        runtime=runtime,
        function=unit.function_at(finding.line),
        span=max(1, (finding.end_line or finding.line) - finding.line + 1),
    )


def _category(rule: Any, finding: Finding, nodes: int = 1) -> str:
    """The rule's category; a request cuPyNumeric accepts and ignores
    (``a.copy(order="K")``) changes nothing on the device, so in the
    assessment it is a compatibility note (INFO), not a blocking idiom; a
    single-GPU-only API (CPN402) matters only across nodes (SPEC section 2),
    so on one node it is a cost note, not an API gap."""
    if rule is None:
        return "UNKNOWN"
    if rule.category.value == "BLOCKS" and finding.data.get("effect") == "ignored":
        return "INFO"
    if finding.code == SINGLE_GPU_ONLY and nodes <= 1:
        return "INFO"
    return rule.category.value


SINGLE_GPU_ONLY = "CPN402"


_LINE_REFERENCE = re.compile(r"\bline (\d+)\b")


def cells_in_message(unit: Unit, message: str) -> str:
    """A notebook finding's message with each ``line N`` it names (the loop
    at line 12, a call at line 30) as the cell and line Jupyter shows:
    the rules count the lines of the joined cells, which no one sees."""
    if not unit.is_notebook:
        return message

    def cell_line(match: re.Match[str]) -> str:
        cell = unit.cell_of(int(match.group(1)))
        return f"cell {cell[0]}:line {cell[1]}" if cell else match.group(0)

    return _LINE_REFERENCE.sub(cell_line, message)


def _cited_data(unit: Unit, data: dict[str, Any]) -> dict[str, Any]:
    """The finding's data, with a citation beside each line number the
    report quotes (the outer loop of a hot element loop, the callers of a
    compiled kernel), so a notebook's lines read as cells there too."""
    out = dict(data)
    if isinstance(data.get("repeated_by"), int):
        out["repeated_by_citation"] = unit.cite(data["repeated_by"])
    callers = data.get("callers")
    if isinstance(callers, list) and all(isinstance(c, (list, tuple)) and len(c) == 2 for c in callers):
        out["caller_citations"] = [unit.cite(int(line)) for _, line in callers]
    return out


def codepoint_column(line: str, byte_offset: int) -> int:
    """flake8's 0-based UTF-8 byte offset as a 1-based character column."""
    if not line or byte_offset <= 0:
        return max(byte_offset, 0) + 1
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", "ignore")) + 1




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
    return DoctorMerge(confirmed, by_position(runtime_only))


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
            item = _item(unit, finding, rules, runtime, context.nodes)
            (internal if item.category == Category.INTERNAL.value else items).append(item)
    items = _unique(ranked(items))  # ranked first: of two copies, the in-loop one is kept
    items, set_aside = _outside_test_functions(items, file_scope)
    _add_kernel_callers(items, all_units)
    items = [_as_blocking_scan(item) for item in items]
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
    peripheral = peripheral_files([u.path for u in units], [u.path for u in units if is_compute(u)])
    time = project(units, context)
    causes = root_causes(blocks + runtime_blocks, scope, peripheral, _item_seconds(time))
    blocks = by_cause(blocks, causes, peripheral)
    # the root causes' sites, in the order the next steps take them
    hot_loops = [i for c in causes if c.root for i in c.core]

    scope_facts = scope_evidence(units, scope, by_category.get("SCALES", []) + by_category.get("INFO", []), items,
                                 peripheral, time)
    gate1 = g.gate1_hardware(context)
    gate4 = g.gate4_pattern(context, scope_facts)
    size_evidence = size_evidence or SizeEvidence()
    gate2 = g.gate2_size(context, size_evidence) if not gate4.failed else g.skipped(2, "Gate 4 already rules the port out")
    decision = g.decide(
        gate1_failed=gate1.failed,
        gate4_failed=gate4.failed,
        gate2_failed=gate2.failed,
        blocks_codes=blocks_codes,
        has_refactor=bool(refactor or runtime_refactor or any(_has_equivalent(i) and not kept_on_numpy(str(i.data.get("api", ""))) for i in api)),
        hot_missing_api=bool(hot_apis),
    )
    gates = decide_gates(context, decision, gate1, gate2, gate4, blocks_codes, refactor + runtime_refactor, units,
                   by_category.get("INFO", []), merged is not None, time)
    report = Report(
        verdict=decision.verdict,
        decision=decision,
        summary=summary_sentence(decision, gate1, gate2, gate4, scope_facts, size_evidence, blocks + runtime_blocks,
                         refactor + runtime_refactor + [i for i in api if _has_equivalent(i)], hot_apis, gates[4],
                         causes),
        context=_context_rows(context, units, scope_facts, len(all_units) - len(units)),
        files=[u.path for u in all_units],
        input_errors=list(input_errors) + [e for u in all_units for e in u.errors],
        input_notes=list(input_notes) + (
            ["None of the assessed files uses NumPy, so the verdict has nothing to rest on."]
            if units and not any(is_compute(u) for u in units) else []),
        internal_errors=internal,
        what_works=_scales_groups(by_category.get("SCALES", [])),
        what_blocks=blocks,
        out_of_scope=scope,
        runtime_blocks=[i for i in runtime_only if i.category not in ("REFACTOR",)],
        whats_fixable=recipe_groups(refactor + [i for i in runtime_only if i.category == "REFACTOR"]),
        notes=by_category.get("INFO", []),
        api_gaps=api,
        api_note=_api_note(api, context),
        manifest=manifest,
        gates=gates,
        next_steps=[],
        doctor_command=None,
        doctor_look_for=[],
        doctor_supplied=merged is not None,
        verdict_notes=_verdict_notes(context, size_evidence, gate2, decision, causes),
        time=time,
    )
    if set_aside:
        report.input_notes.append(_set_aside_note(set_aside))
    report.breaks = breaks_first(items)
    report.block_entries = group_by_loop(blocks, _loop_lookup(units))
    report.overview = build_overview(report.all_items(), all_units, file_scope, suppressions, peripheral)
    if file_scope.fallback:
        report.input_notes.append("No file of the program's own source uses NumPy, so the tests, docs and examples "
                                  "found decide the verdict.")
    add_next_steps(report, context, units, scope_facts, hot_apis, hot_loops, peripheral)
    return report


KERNEL_CALLERS_KEPT = 10
SET_ASIDE_NAMED = 3


def _is_test_function(name: str | None) -> bool:
    """``test_inverse``, ``richardson_demo``, ``demo_fit``, ``Class.test_x``:
    a self-test or demonstration a library keeps beside its code."""
    if not name:
        return False
    last = name.rsplit(".", 1)[-1]
    return last.startswith(("test_", "demo_")) or last.endswith("_demo")


def _outside_test_functions(items: list[Item], scope: Scope) -> tuple[list[Item], list[Item]]:
    """The findings that decide, and those set aside because they sit in a
    test or demo function of a source file (as tests and examples in files
    of their own are; ``--include-tests`` counts them)."""
    if scope.include_tests or scope.fallback:
        return items, []
    kept = [i for i in items if not _is_test_function(i.function)]
    return kept, [i for i in items if _is_test_function(i.function)]


def _set_aside_note(items: list[Item]) -> str:
    functions = sorted({f"{i.function} ({i.location.path})" for i in items if i.function})
    named = ", ".join(f"`{f}`" for f in functions[:SET_ASIDE_NAMED])
    more = f" and {len(functions) - SET_ASIDE_NAMED} more" if len(functions) > SET_ASIDE_NAMED else ""
    findings = f"{len(items)} finding{'s' if len(items) != 1 else ''}"
    where = f"{len(functions)} test or demo function{'s' if len(functions) != 1 else ''}"
    return (f"Set aside: {findings} in {where} of the source ({named}{more}), as tests and examples are; "
            "`--include-tests` counts them.")


def _loop_lookup(units: Sequence[Unit]) -> LoopLookup:
    """A loop's citation, header and function from the unit holding it."""
    by_path = {u.path: u for u in units}

    def lookup(path: str, line: int) -> "tuple[str, str, str | None] | None":
        unit = by_path.get(path)
        if unit is None or unit.source_lines is None or not 1 <= line <= len(unit.source_lines):
            return None
        return unit.cite(line), unit.source_lines[line - 1].strip(), unit.function_at(line)

    return lookup


def _as_blocking_scan(item: Item) -> Item:
    """A running sum or product (a CPN410 recurrence of the scan form) is one
    ``np.cumsum``/``np.cumprod`` call: a blocking idiom with a recipe, not
    evidence that the work is outside cuPyNumeric (Gate 4)."""
    if item.category == "SCOPE" and item.data.get("scan"):
        return replace(item, category="BLOCKS", recipe=item.recipe or "RR-loop")
    return item


def _item_seconds(time: TimeProjection | None) -> "Callable[[Item], float] | None":
    """The projected time of what a finding's lines run (a loop: its body
    and the functions it calls), or None without a projection."""
    if time is None:
        return None
    return lambda item: time.seconds_between(item.location.path, item.location.line,
                                             item.location.line + max(item.span, 1) - 1)


def _add_kernel_callers(items: Sequence[Item], units: Sequence[Unit]) -> None:
    """The callers of each Numba-compiled kernel (CPN112) in the project's
    other files (``ifc.states(...)`` after ``import pyro.compressible.interface
    as ifc``), matched by the kernel's module path and name: its rule sees
    only the callers of its own file."""
    kernels = [i for i in items if i.code == "CPN112" and i.data.get("function")]
    if not kernels:
        return
    for item in kernels:
        module = [p for p in re.split(r"[\\/]", item.location.path[:-3]) if p not in ("", ".")] \
            if item.location.path.endswith(".py") else []
        if not module:
            continue
        found: list[list[str]] = []
        for unit in units:
            if unit.path == item.location.path:
                continue
            for name, line, caller in unit.imported_calls:
                parts = [p for p in name.split(".") if p]
                if len(parts) >= 2 and parts[-1] == item.data["function"] and module[-(len(parts) - 1):] == parts[:-1]:
                    found.append([caller, unit.cite(line)])
        if found:
            item.data["other_callers"] = found[:KERNEL_CALLERS_KEPT]
            item.data["other_callers_count"] = len(found)


def by_cause(items: list[Item], causes: Sequence[Cause], peripheral: dict[str, str]) -> list[Item]:
    """What blocks in the order of its root causes (compiled kernels and
    element loops first, the files outside the main computation last),
    ranked as before within each: the section, and the top findings of
    ``--brief``, open with what decides the verdict."""
    order: dict[int, tuple[bool, int]] = {}
    for number, cause in enumerate(causes):
        for item in cause.items:
            order[id(item)] = (item.location.path in peripheral, number)
    return sorted(items, key=lambda i: order.get(id(i), (True, len(causes))))


def _verdict_notes(context: Context, sizes: SizeEvidence, gate2: g.Gate, decision: g.Decision,
                   causes: Sequence[Cause]) -> list[str]:
    """Lines under the verdict sentence (SPEC §4): the code's own sizes are
    all small (when Gate 2 was weighed and did not already fail on the
    user's numbers), and an element loop that is the program's main work
    (one BLOCKS code for the verdict, but the first thing to rewrite)."""
    notes = []
    line = g.small_code_sizes(context, sizes)
    if line is not None and gate2.status is not g.Status.NA and decision.rule != "gate2-size":
        notes.append(line)
    if decision.rule in ("mpi4py", "many-blocks", "few-blocks"):
        kernels = next((c for c in causes if c.kind == "kernel" and c.core), None)
        if kernels is not None:
            notes.append(kernels_text(kernels.core) + ".")
        loops = next((c for c in causes if c.kind == "hot-loop" and c.core), None)
        if loops is not None:
            notes.append(main_work_text(loops.core, after_kernels=kernels is not None) + ".")
    return notes


def _demotes(item: Item, context: Context) -> bool:
    """An API gap on the hot path lowers the verdict one tier: a call that
    stops the program (CPN401, CPN404) inside a loop or anywhere on the data
    path (not at a load, save or plot boundary), unless one line of supported
    calls replaces it (``np.size`` -> ``a.size``: a light fix item, see
    see :func:`_has_equivalent`); a single-GPU-only call (CPN402) inside a loop when
    the target has several nodes."""
    if item.code in STOPPING_API_CODES and _has_equivalent(item):
        return False
    if item.code in STOPPING_API_CODES:
        data_path = item.data.get("data_path")  # a plot boundary inside the loop does not demote (SPEC §4)
        return bool(data_path) if data_path is not None else item.in_loop
    return item.code == "CPN402" and item.in_loop and context.nodes > 1


def _has_equivalent(item: Item) -> bool:
    """A missing name or a rejected form that one line of supported calls
    replaces (a NumPy 2 spelling, ``a.size`` for ``np.size``, ``mode='same'``
    and a slice for ``np.convolve(..., mode='valid')``)."""
    if item.code == "CPN404":
        return bool(item.data.get("equivalent"))
    return item.code == "CPN401" and bool(item.data.get("equivalent") or item.data.get("replacement"))


def _deciding(units: list[Unit], scope: Scope) -> list[Unit]:
    """The units that decide the verdict; all of them when no source file
    holds NumPy code (a folder of examples), noted on the scope."""
    deciding = [u for u in units if scope.decides(u.path)]
    if not any(is_compute(u) for u in deciding) and any(is_compute(u) for u in units):
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
    elif scope.pattern_detail:
        rows.append(ContextRow("pattern", "Dominant compute pattern",
                               f"not determined: no pattern covers a tenth of the whole-array work "
                               f"({scope.pattern_detail}); give --pattern", "inferred from the code"))
    else:
        rows.append(ContextRow("pattern", "Dominant compute pattern", "not determined (give --pattern)", "default"))
    return rows


# ------------------------------------------------------------------- summary






# ---------------------------------------------------------------- next steps










