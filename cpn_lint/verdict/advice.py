"""The report's words: the one-sentence summary under the verdict, the
recommended next steps and what to look for in cuPyNumeric Doctor's output.
They read the decided report; nothing here changes a verdict."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from ..registry import Category, recipe_rank
from ..rules import load_rules
from . import gates as g
from .causes import Cause, folded_count
from .collect import Unit
from .context import Context, format_count
from .gate_inputs import is_compute
from .gates import STOPPING_API_CODES, Decision, Gate, ScopeEvidence, SizeEvidence, Verdict
from .periphery import KIND_WORDS
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
    causes: Sequence[Cause] = (),
) -> str:
    verdict = decision.verdict.value
    rule = decision.rule
    plain_python = gate5 is not None and gate5.failed
    codes = g.blocking_idioms({i.code for i in blocks if i.code})
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
        others = [c for c in codes if c != g.MPI_CODE]  # an idiom of its own: CPN108 has no other form
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
        replaced = sum(i.category == "API" for i in refactor)
        if replaced == len(refactor):
            why = (f"nothing blocks scaling; {_plural(replaced, 'use')} of what cuPyNumeric lacks "
                   f"{'needs its' if replaced == 1 else 'need their'} one-line equivalent (see What breaks first)")
        else:
            why = f"nothing blocks scaling; {len(refactor)} mechanical fix{'es' if len(refactor) > 1 else ''} ({', '.join(recipes)}) will remove avoidable overhead"
            if replaced:
                why += f" ({replaced} of them {'replaces a name or form' if replaced == 1 else 'replace names or forms'} cuPyNumeric lacks)"
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
    ranked = causes_text(causes) if rule in ("mpi4py", "many-blocks", "few-blocks") else ""
    if decision.demoted:
        apis = sorted({str(i.data.get("api") or i.data.get("form") or i.code) for i in hot_apis})
        shown = ", ".join(apis[:3]) + (f" and {len(apis) - 3} more" if len(apis) > 3 else "")
        where = "inside a loop" if all(i.in_loop for i in hot_apis) else "on the data path"
        sentence += (f", but it is one tier lower than {decision.base.value} because {shown} "
                     f"{'stops' if len(apis) == 1 else 'stop'} the ported program {where} ({_cites(hot_apis, 2)})")
    return sentence + "." + (f" {ranked}" if ranked else "")


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _kernel_names(items: Sequence[Item], limit: int = 3) -> str:
    names = [f"`{i.data.get('function') or '?'}` ({i.citation})" for i in items[:limit]]
    more = len(items) - limit
    return ", ".join(names) + (f" and {more} more" if more > 0 else "")


def _away(causes: Sequence[Cause]) -> str:
    """The sites of ``causes`` outside the main computation, which the
    phrases do not cite but the summary's counts include."""
    n = sum(len(c.items) - len(c.core) for c in causes if c.core)
    return f", plus {n} outside the main computation" if n else ""


def cause_phrase(cause: Cause) -> str:
    """One root cause in words, its sites in the main computation cited."""
    return _cause_words(cause) + (_away([cause]) if cause.kind in ROOT_KINDS else "")


ROOT_KINDS = ("kernel", "hot-loop", "element-loop", "recurrence")


def _cause_words(cause: Cause) -> str:
    sites = list(cause.core) or list(cause.items)
    n = len(sites)
    if cause.kind == "kernel":
        folded = sum(folded_count(i) for i in sites)
        inside = (f"; the {_plural(folded, 'element-level finding')} inside {'it' if n == 1 else 'them'} "
                  f"{'is' if folded == 1 else 'are'} part of that rewrite") if folded else ""
        return (f"the hot path is {_plural(n, 'Numba-compiled kernel')} (CPN112: {_kernel_names(sites)}), which "
                f"cuPyNumeric arrays cannot enter: {'it' if n == 1 else 'they'} must be rewritten as whole-array "
                f"operations or kept on the host{inside}")
    if cause.kind == "hot-loop":
        return f"{_plural(n, 'element loop')} that {'runs' if n == 1 else 'run'} on every pass of an outer loop (CPN101: {_cites(sites)})"
    if cause.kind == "element-loop":
        return f"{_plural(n, 'element loop')} (CPN101: {_cites(sites)})"
    if cause.kind == "recurrence":
        if all(i.data.get("scan") for i in sites):
            return f"{_plural(n, 'running sum')} in a loop (CPN410: {_cites(sites)})"
        return f"{_plural(n, 'sequential recurrence')} (CPN410: {_cites(sites)})"
    away = len(cause.items) - n if cause.core else 0
    if away:  # the summary counts every site: say where the rest are
        return f"{cause.code} ×{len(cause.items)} ({away} outside the main computation)"
    return f"{cause.code} ×{n}" if n > 1 else f"{cause.code} ({sites[0].citation})"


def _root_phrases(roots: Sequence[Cause]) -> list[str]:
    """One phrase per root cause; the element loops repeated by an outer
    loop and the others are one phrase (one code, one recipe)."""
    loops = [c for c in roots if c.kind in ("hot-loop", "element-loop")]
    phrases = []
    for cause in roots:
        if cause.kind not in ("hot-loop", "element-loop") or len(loops) < 2:
            phrases.append(cause_phrase(cause))
        elif cause is loops[0]:
            hot = [i for c in loops if c.kind == "hot-loop" for i in c.core]
            sites = hot + [i for c in loops if c.kind == "element-loop" for i in c.core]
            phrases.append(f"{_plural(len(sites), 'element loop')} (CPN101: {_cites(sites)}), {len(hot)} of them "
                           f"on every pass of an outer loop{_away(loops)}")
    return phrases


def causes_text(causes: Sequence[Cause]) -> str:
    """The deciding root causes first (a compiled kernel, an element loop, a
    recurrence), then the other idioms by weight, then those found only
    outside the main computation, which weigh less: or "" when that says
    no more than the verdict sentence (one cause, in the main computation)."""
    roots = [c for c in causes if c.root and c.core]
    others = [c for c in causes if not c.root and c.core]
    outside = [c for c in causes if not c.core]
    if len(roots) + len(others) <= 1 and not outside and not any(c.kind == "kernel" for c in roots):
        return ""
    parts: list[str] = []
    if roots:
        parts.append("Root causes first: " + "; ".join(_root_phrases(roots)) + ".")
    if others:
        lead = "Then" if roots else "By weight:"
        parts.append(f"{lead} {', '.join(cause_phrase(c) for c in others)}.")
    if outside:
        listed = ", ".join(f"{c.code} ({_cites(list(c.items), 2)})" for c in outside)
        kinds = sorted({k for c in outside for k in c.peripheral})
        where = " and ".join(KIND_WORDS.get(k, k) for k in kinds)
        parts.append(f"Only in {where}, outside the main computation, so weighing less: {listed}.")
    return " ".join(parts)


KERNELS_NAMED = 5  # compiled kernels the verdict note names, with their callers


def _at(item: Item, citation: str) -> str:
    """``line 9`` (or ``cell 3:line 4`` in a notebook) for a citation in
    ``item``'s own file; the whole citation otherwise."""
    prefix = item.location.path + ":"
    if not citation.startswith(prefix):
        return citation
    rest = citation[len(prefix):]
    return f"line {rest}" if rest.isdigit() else rest


def main_work_text(hot_loops: Sequence[Item], after_kernels: bool = False) -> str:
    """An element loop repeated by an outer loop is the program's main work:
    one recipe-fixable BLOCKS for the verdict (SPEC §4), but the first thing
    to rewrite (or the next one, after the program's compiled kernels)."""
    first = hot_loops[0]
    more = len(hot_loops) - 1
    outer = first.data.get("repeated_by_citation") or f"{first.location.path}:{first.data.get('repeated_by')}"
    text = (f"The element loop at {first.where} runs on every pass of the loop at {_at(first, str(outer))}"
            + (f" (and {more} more such loop{'s' if more > 1 else ''})" if more > 0 else ""))
    if after_kernels:
        return text + ": one element at a time, it is the next thing to rewrite after the compiled kernels"
    return text + ": it is the program's main work, one element at a time, and must go first"


def kernels_text(kernels: Sequence[Item]) -> str:
    """The Numba-compiled kernels on the hot path, with the callers that
    hand them arrays (issue 25 §2)."""
    parts = []
    for item in kernels[:KERNELS_NAMED]:
        callers = [f"`{name}` ({_at(item, cite)})" for (name, _), cite in
                   zip(item.data.get("callers") or [], item.data.get("caller_citations") or [])]
        callers += [f"`{name}` ({cite})" for name, cite in item.data.get("other_callers") or []]
        shown = ", ".join(callers[:3]) + (f" and {len(callers) - 3} more" if len(callers) > 3 else "")
        parts.append(f"`{item.data.get('function') or '?'}` ({item.citation})"
                     + (f", handed arrays by {shown}" if shown else ""))
    more = len(kernels) - KERNELS_NAMED
    n = len(kernels)
    return (f"The hot path runs through {n} Numba-compiled kernel{'s' if n > 1 else ''} (CPN112), which must be "
            "rewritten as whole-array operations or kept on the host (NumPy at a boundary) before anything else "
            "pays off: " + "; ".join(parts) + (f"; and {more} more (every one under What blocks)" if more > 0 else ""))


def _cites_text(citations: Sequence[str], limit: int = 3) -> str:
    more = len(citations) - limit
    return ", ".join(citations[:limit]) + (f" and {more} more" if more > 0 else "")


def add_next_steps(report: Report, context: Context, units: Sequence[Unit], scope: ScopeEvidence, hot_apis: list[Item],
                   hot_loops: Sequence[Item] = (), peripheral: dict[str, str] | None = None) -> None:
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
    outside = peripheral or {}
    kernels = [i for i in fixes if i.code == KERNEL_CODE]
    if kernels:
        n = len(kernels)
        steps.append(Step("Rewrite the Numba-compiled kernels, or keep them on the host",
                          f"cuPyNumeric arrays cannot enter compiled code: rewrite each kernel as whole-array "
                          f"operations (RR-loop), or keep it on host NumPy with a conversion at its boundary "
                          f"(RR-host-fallback) — {n} kernel{'s' if n > 1 else ''} (CPN112)",
                          _unique_cites(kernels)))
    groups = recipe_groups([i for i in fixes if i.category in ("BLOCKS", "REFACTOR", "API") and i.code
                            and i.code != KERNEL_CODE])
    # the root causes (an element loop that is the program's main work first,
    # SPEC §4) go first, what is only outside the main computation last;
    # sorted() keeps the rest in order
    roots = [id(i) for i in hot_loops]
    groups = sorted(groups, key=lambda grp: (min((roots.index(id(i)) for i in grp.items if id(i) in roots),
                                                 default=len(roots)),
                                             all(i.location.path in outside for i in grp.items)))
    for group in groups:
        title = f"Apply {group.recipe}" if group.recipe else "Restructure by hand"
        detail = f"{group.description} — {sites_text(group.items)}"
        if all(i.location.path in outside for i in group.items):
            kinds = sorted({outside[i.location.path] for i in group.items})
            detail += f", only in {' and '.join(KIND_WORDS.get(k, k) for k in kinds)}"
        steps.append(Step(title, detail, _unique_cites(group.items)))
    unmapped = [i for i in report.runtime_blocks if not i.code]
    if unmapped:
        steps.append(Step("Look at what only Doctor saw",
                          "runtime patterns with no static counterpart; read each site and decide",
                          tuple(i.citation for i in unmapped)))
    if report.verdict is not Verdict.READY and rule != "gate2-size":
        steps.append(Step("Re-assess", "run cpn-verdict again on the changed code; aim for READY before benchmarking"))
    if rule != "gate2-size":
        pilot = _pilot_file(units, outside)
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


KERNEL_CODE = "CPN112"


def sites_text(items: Sequence[Item]) -> str:
    """``5 sites (CPN101 ×3, CPN110 ×2)``: a site is a finding, so two on one
    line count twice, and the text says so when lines are fewer."""
    counts = Counter(i.code for i in items if i.code)
    listed = ", ".join(f"{code} ×{n}" if len(counts) > 1 else code for code, n in sorted(counts.items()))
    lines = len(_unique_cites(items))
    on = f" on {lines} line{'s' if lines > 1 else ''}" if lines < len(items) else ""
    return f"{_plural(len(items), 'site')}{on} ({listed})"


def _unique_cites(items: Sequence[Item]) -> tuple[str, ...]:
    """Each site once (several findings on one line are one place to go)."""
    return tuple(dict.fromkeys(i.citation for i in items))


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
                tuple(dict.fromkeys(unit.cite(line) for unit, line, _ in sites)))


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
            steps.append(Step(f"For {g.KIND_WORDS.get(kind, kind)}", f"use {WORKLOAD_ALTERNATIVES[kind]}"))
    sweeps = [i for i in report.out_of_scope if i.data.get("form") == "sweep"]
    if sweeps:
        steps.append(Step("For an in-place sweep (Gauss-Seidel, SOR)", "Jacobi updates into a second array or "
                          "red-black ordering make it whole-array: another algorithm, so check its convergence",
                          tuple(i.citation for i in sweeps[:3])))
    out = {i.location.path for i in report.out_of_scope}
    dense = [u.path for u in units if is_compute(u) and u.path not in out]
    if dense:
        listed = ", ".join(dense[:3]) + (f" and {len(dense) - 3} more" if len(dense) > 3 else "")
        steps.append(Step("Assess the dense part on its own",
                          f"{listed} {'has' if len(dense) == 1 else 'have'} no out-of-scope evidence; run cpn-verdict on "
                          f"{'it' if len(dense) == 1 else 'them'} alone to see whether that part is worth porting"))
    steps.append(Step("Skip cuPyNumeric Doctor",
                      "Doctor inspects programs running on cuPyNumeric, and this one should not become one"))


def _pilot_file(units: Sequence[Unit], outside: dict[str, str] | None = None) -> tuple[str, int] | None:
    """The cleanest module to port first: a file of the main computation
    with the fewest problems — blocking idioms, mechanical fixes,
    out-of-scope work and calls that stop the ported program (CPN401,
    CPN404) — and the most whole-array code. Its count is what the next
    step says, so "nothing to fix" is said only of a file with none of them."""
    best: tuple[bool, int, int, str] | None = None
    rules = load_rules()
    outside = outside or {}
    for unit in units:
        if not is_compute(unit):
            continue
        scales = problems = 0
        for f in unit.result.findings:
            rule = rules.get(f.code)
            if rule is None:
                continue
            if rule.category is Category.SCALES:
                scales += 1
            elif rule.category in (Category.BLOCKS, Category.REFACTOR, Category.SCOPE) or f.code in STOPPING_API_CODES:
                problems += 1
        key = (unit.path in outside, problems, -scales, unit.path)
        if best is None or key < best:
            best = key
    return (best[3], best[1]) if best else None


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
