"""The report's words: the one-sentence summary under the verdict, the
recommended next steps and what to look for in cuPyNumeric Doctor's output.
They read the decided report; nothing here changes a verdict."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from ..registry import Category, recipe_rank
from ..rules import load_rules
from . import gates as g
from .collect import Unit
from .context import Context, format_count
from .gate_inputs import is_compute
from .gates import STOPPING_API_CODES, Decision, Gate, ScopeEvidence, SizeEvidence, Verdict
from .report_items import Item, Report, Step, recipe_groups


DOCTOR_CODES_SHOWN = 5  # codes whose Doctor checks the report spells out

DOCTOR_COMMAND = (
    "CUPYNUMERIC_DOCTOR=1 CUPYNUMERIC_DOCTOR_FORMAT=json "
    "CUPYNUMERIC_DOCTOR_FILENAME=doctor-report.json legate --gpus 1 main.py"
)


# What a Doctor check with no cpn-lint counterpart means, for runtime-only entries.
DOCTOR_MEANINGS = {
    "AdvancedIndexingCheck": "indexing with an integer array gathers scattered elements, often across GPUs; "
                             "prefer a boolean mask or a contiguous slice where the algorithm allows",
    "ArrayGatherCheck": "a distributed array was pulled into a single memory, serialising the work; "
                        "look for a host conversion or an operation that needs the whole array in one place",
}


WORKLOAD_ALTERNATIVES = {
    "sparse": "a sparse-matrix GPU library (legate.sparse if it covers your operations, or CuPy's cupyx.scipy.sparse)",
    "graph": "a graph library built for irregular access, such as RAPIDS cuGraph",
    "ml": "the ML framework's own GPU support (PyTorch or JAX on the GPU, RAPIDS cuML for scikit-learn estimators)",
    "nlp": "CPU string processing or a dedicated GPU text library; array runtimes do not help here",
    "recurrence": "a reformulation as a scan or prefix operation if the maths allows it, else a compiled loop (Numba, Cython)",
}


def _cites(items: Sequence[Item], limit: int = 3) -> str:
    cites = [i.citation for i in items[:limit]]
    more = len(items) - limit
    return ", ".join(cites) + (f" and {more} more" if more > 0 else "")


def summary_sentence(
    decision: Decision,
    gate1: Gate,
    gate2: Gate,
    gate4: Gate,
    scope: ScopeEvidence,
    sizes: SizeEvidence,
    blocks: list[Item],
    refactor: list[Item],
    hot_apis: list[Item],
    gate5: Gate | None = None,
) -> str:
    verdict = decision.verdict.value
    rule = decision.rule
    plain_python = gate5 is not None and gate5.failed
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
    elif plain_python:
        why = "nothing in the code blocks scaling or needs refactoring, but there is little for cuPyNumeric to run"
    else:
        why = "nothing in the code blocks scaling or needs refactoring: swap the import and benchmark"
    if plain_python:
        why += (f" ({gate5.reason.split(':')[0]}; its compute is plain Python, so the import swap alone buys "  # type: ignore[union-attr]
                "nothing until that work is written in arrays)")
    sentence = f"**{verdict}** — {why}"
    if decision.demoted:
        apis = sorted({str(i.data.get("api") or i.data.get("form") or i.code) for i in hot_apis})
        shown = ", ".join(apis[:3]) + (f" and {len(apis) - 3} more" if len(apis) > 3 else "")
        where = "inside a loop" if all(i.in_loop for i in hot_apis) else "on the data path"
        sentence += (f", but it is one tier lower than {decision.base.value} because {shown} "
                     f"{'stops' if len(apis) == 1 else 'stop'} the ported program {where} ({_cites(hot_apis, 2)})")
    return sentence + "."


def main_work_text(hot_loops: Sequence[Item]) -> str:
    """An element loop repeated by an outer loop is the program's main work:
    one recipe-fixable BLOCKS for the verdict (SPEC §4), but the first thing
    to rewrite."""
    first = hot_loops[0]
    more = len(hot_loops) - 1
    return (f"The element loop at {first.where} runs on every pass of the loop at line {first.data.get('repeated_by')}"
            + (f" (and {more} more such loop{'s' if more > 1 else ''})" if more > 0 else "")
            + ": it is the program's main work, one element at a time, and must go first")


def _cites_text(citations: Sequence[str], limit: int = 3) -> str:
    more = len(citations) - limit
    return ", ".join(citations[:limit]) + (f" and {more} more" if more > 0 else "")


def add_next_steps(report: Report, context: Context, units: Sequence[Unit], scope: ScopeEvidence, hot_apis: list[Item],
                   hot_loops: Sequence[Item] = ()) -> None:
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
    boundary = next((gate for gate in report.gates if gate.number == 5), None)
    if boundary is not None and boundary.failed:
        steps.append(Step("Write the compute in arrays first",
                          "the program's loops work on Python objects, lists and numbers; cuPyNumeric runs only "
                          "NumPy array operations, so profile one run, and port only if the time is spent (or can be "
                          "moved) in whole-array work"))
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
    groups = recipe_groups([i for i in fixes if i.category in ("BLOCKS", "REFACTOR", "API") and i.code])
    # an element loop that is the program's main work goes first (SPEC §4); sorted() keeps the rest in order
    groups = sorted(groups, key=lambda grp: not any(i in hot_loops for i in grp.items))
    for group in groups:
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
    dense = [u.path for u in units if is_compute(u) and u.path not in out]
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
        if not is_compute(unit):
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
