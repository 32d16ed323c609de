"""The decision framework as pure functions: Gates 1-6 and the verdict order.

Nothing here reads files or findings directly; :mod:`.report` distils the
findings into the small inputs below (:mod:`.gate_inputs`), so every rule can
be tested on its own.

The verdict order (first match wins; SPEC §4 "Verdict order"), with Gate 1
in front as the decision framework applies it:

1. Gate 1 fails (GPU older than compute capability 7.0) -> NOT RECOMMENDED
2. Gate 4 fails (dominant compute out of scope)          -> NOT RECOMMENDED
3. Gate 2 fails (the user's or the default sizes below
   65,536 elements per GPU; the code's own literal shapes
   never fail it by themselves, they make it uncertain)  -> NOT RECOMMENDED
4. any CPN108 (mpi4py)                                    -> SIGNIFICANT REFACTOR
5. three or more distinct BLOCKS codes                    -> SIGNIFICANT REFACTOR
6. one or two distinct BLOCKS codes                       -> LIGHT REFACTOR
   (one element loop is one recipe-fixable BLOCKS however hot it is; the
   report says when it is the program's main work and must go first)
7. REFACTOR findings only                                 -> LIGHT REFACTOR
8. otherwise                                              -> READY

(An in-place Gauss-Seidel/SOR sweep is sequential work, CPN410: when it
holds most of the projected time, Gate 4 fails.)

then a hot-path API call that stops the program (in a loop: CPN401, a name
cuPyNumeric lacks, or CPN404, an argument form it rejects; with more than
one node also a single-GPU-only API, CPN402) demotes one tier:
READY -> LIGHT, LIGHT -> SIGNIFICANT; SIGNIFICANT and NOT RECOMMENDED stay.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Collection, Sequence

from .context import PATTERNS, Context, format_count, format_share

FLOOR = 65_536  # elements per GPU below which cuPyNumeric runs serially
MPI_CODE = "CPN108"
SIGNIFICANT_BLOCKS = 3  # distinct BLOCKS codes from which the verdict is SIGNIFICANT
# Codes that count as the idiom they are a form of: a Numba-compiled kernel
# that takes arrays (CPN112) is element loops (R101) the compiler runs; one
# root cause whether or not the loops are compiled (SPEC: count root causes).
_IDIOM_OF = {"CPN112": "CPN101"}
MIN_COMPUTE_CAPABILITY = (7, 0)
DENSE_PATTERNS = frozenset(p for p in PATTERNS if p != "mixed")


# API findings that stop the program after the import swap: a name
# cuPyNumeric lacks (CPN401) and an argument form it rejects (CPN404).
STOPPING_API_CODES = frozenset({"CPN401", "CPN404"})


class Verdict(enum.Enum):
    READY = "READY"
    LIGHT = "LIGHT REFACTOR"
    SIGNIFICANT = "SIGNIFICANT REFACTOR"
    NOT_RECOMMENDED = "NOT RECOMMENDED"

    @property
    def rank(self) -> int:
        """0 (best) to 3 (worst)."""
        return list(Verdict).index(self)

    def demoted(self) -> "Verdict":
        """One tier worse, never into NOT RECOMMENDED."""
        if self is Verdict.READY:
            return Verdict.LIGHT
        if self is Verdict.LIGHT:
            return Verdict.SIGNIFICANT
        return self

    @classmethod
    def parse(cls, text: str) -> "Verdict":
        """'light', 'LIGHT-REFACTOR', 'not recommended', ... -> Verdict."""
        key = re.sub(r"[\s_-]+", " ", text.strip().upper())
        for verdict in cls:
            short = verdict.value.split()[0]
            if key == verdict.value or (key == short and short != "NOT"):
                return verdict
        raise ValueError(f"unknown verdict {text!r}")


class Status(enum.Enum):
    PASS = "✓"
    FAIL = "✗"
    UNCERTAIN = "uncertain"
    PARTIAL = "partial"
    NA = "n/a"


@dataclass(frozen=True)
class Gate:
    number: int
    name: str
    status: Status
    reason: str
    evidence: tuple[str, ...] = ()  # file:line citations backing the status

    @property
    def failed(self) -> bool:
        return self.status is Status.FAIL


GATE_NAMES = {
    1: "Hardware",
    2: "Problem size",
    3: "Workload shape",
    4: "Compute pattern",
    5: "Boundary cost",
    6: "Operational readiness",
}


def skipped(number: int, because: str) -> Gate:
    return Gate(number, GATE_NAMES[number], Status.NA, f"not assessed: {because}")


# --------------------------------------------------------------------- Gate 1
# Compute capability of common NVIDIA GPUs. Keys are normalised model names
# (upper case, no spaces or dashes); the longest key a name starts with wins,
# so "A100-SXM4-80GB" is an A100 and "A10G" an A10.
COMPUTE_CAPABILITY: dict[str, tuple[int, int]] = {
    "K40": (3, 5), "K80": (3, 7),
    "M40": (5, 2), "M60": (5, 2),
    "P4": (6, 1), "P40": (6, 1), "P100": (6, 0), "GTX1080": (6, 1), "GTX1080TI": (6, 1), "TITANXP": (6, 1),
    "V100": (7, 0), "TITANV": (7, 0), "JETSONXAVIER": (7, 2),
    "T4": (7, 5), "RTX2080": (7, 5), "RTX2080TI": (7, 5), "TITANRTX": (7, 5), "QUADRORTX8000": (7, 5),
    "QUADRORTX6000": (7, 5),
    "A100": (8, 0), "A800": (8, 0), "A30": (8, 0),
    "A10": (8, 6), "A16": (8, 6), "A2": (8, 6), "A40": (8, 6), "RTXA6000": (8, 6), "RTXA5000": (8, 6),
    "RTXA4000": (8, 6), "RTX3090": (8, 6), "RTX3080": (8, 6), "RTX3070": (8, 6), "RTX3060": (8, 6),
    "JETSONORIN": (8, 7),
    "L4": (8, 9), "L40": (8, 9), "L40S": (8, 9), "RTX4090": (8, 9), "RTX4080": (8, 9), "RTX4070": (8, 9),
    "RTX6000ADA": (8, 9),
    "H100": (9, 0), "H200": (9, 0), "H800": (9, 0), "GH200": (9, 0), "H20": (9, 0),
    "B100": (10, 0), "B200": (10, 0), "GB200": (10, 0), "B300": (10, 3), "GB300": (10, 3),
    "RTX5090": (12, 0), "RTX5080": (12, 0), "RTXPRO6000": (12, 0),
}

_VENDOR_WORDS = re.compile(r"^(NVIDIA|TESLA|GEFORCE)+")


def normalise_gpu_name(name: str) -> str:
    flat = re.sub(r"[\s_\-]+", "", name.upper())
    return _VENDOR_WORDS.sub("", flat)


def compute_capability_of(model: str) -> tuple[int, int] | None:
    """The compute capability of a GPU model name, or None if unknown."""
    flat = normalise_gpu_name(model)
    matches = [key for key in COMPUTE_CAPABILITY if flat.startswith(key)]
    if not matches:
        return None
    best = max(matches, key=len)
    rest = flat[len(best):]
    # "A100..." must not be read as "A10" + "0...": the next character after a
    # model number may not be another digit.
    if rest[:1].isdigit():
        return None
    return COMPUTE_CAPABILITY[best]


def parse_compute_capability(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d{1,2})(?:\.(\d))?\s*", text)
    if not match:
        raise ValueError(f"compute capability must look like 8.0, not {text!r}")
    return int(match.group(1)), int(match.group(2) or 0)


def gate1_hardware(context: Context) -> Gate:
    cc = context.compute_capability
    name = GATE_NAMES[1]
    others = "also confirm a CUDA 12.x or 13.x driver, Linux (or WSL2) and enough GPU memory for production sizes"
    if cc is None:
        return Gate(1, name, Status.UNCERTAIN,
                    "target GPU not stated: cuPyNumeric needs compute capability 7.0 (Volta) or newer; "
                    "give --gpu MODEL or --compute-capability X.Y; " + others)
    label = f"compute capability {cc[0]}.{cc[1]}" + (f" ({context.gpu_model})" if context.gpu_model else "")
    if cc < MIN_COMPUTE_CAPABILITY:
        return Gate(1, name, Status.FAIL,
                    f"{label} is below 7.0: cuPyNumeric does not support Pascal or older GPUs; "
                    "defer the port to Volta-or-newer hardware or use the CPU-only Legate build")
    return Gate(1, name, Status.PASS, f"{label} meets the 7.0 minimum; {others}")


# --------------------------------------------------------------------- Gate 2
@dataclass(frozen=True)
class SizedArray:
    """A hot-path array whose size the code states with literals."""

    citation: str
    name: str
    elements: int


@dataclass(frozen=True)
class SizeEvidence:
    """What the code's own literals say about hot-path array sizes.

    ``arrays``: hot-path arrays with a literal size. ``unknown``: some
    hot-path array's size could not be read from literals (it comes from a
    parameter, a file or a computation the analysis does not follow).
    """

    arrays: tuple[SizedArray, ...] = ()
    unknown: bool = False

    @property
    def complete(self) -> bool:
        """Every hot-path array has a literal size (and there is one)."""
        return bool(self.arrays) and not self.unknown

    def all_below(self, gpus: int) -> bool:
        return self.complete and bool(self.arrays) and all(a.elements // max(gpus, 1) < FLOOR for a in self.arrays)

    def largest(self) -> SizedArray | None:
        return max(self.arrays, key=lambda a: a.elements, default=None)

    @staticmethod
    def merge(evidence: "Sequence[SizeEvidence]") -> "SizeEvidence":
        """Project-wide evidence: one unknown hot-path array anywhere leaves it open."""
        arrays = tuple(a for e in evidence for a in e.arrays)
        return SizeEvidence(arrays, unknown=any(e.unknown for e in evidence))


def size_tier(per_gpu: int) -> str:
    """What a per-GPU element count means (the framework's Gate 2 tiers)."""
    if per_gpu < FLOOR:
        return "below the 65,536 floor, where cuPyNumeric runs serially"
    if per_gpu < 1_000_000:
        return "likely slower than NumPy"
    if per_gpu < 10_000_000:
        return "about break-even with NumPy"
    if per_gpu < 100_000_000:
        return "faster than NumPy on one GPU"
    if per_gpu < 1_000_000_000:
        return "clearly faster, and more GPUs help"
    return "enough work for several GPUs, perhaps several nodes"


def _range_text(low: int, high: int) -> str:
    return format_count(low) if low == high else f"{format_count(low)} to {format_count(high)}"


def small_code_sizes(context: Context, evidence: SizeEvidence) -> str | None:
    """The verdict section's one line when the user gave no size and every
    hot-path array the code sizes with literals is below the floor per GPU
    (SPEC §4, Gate 2): the code's sizes are demo sizes until the user says
    otherwise, so they make Gate 2 uncertain and never decide the verdict."""
    low_g = context.gpu_range[0]
    if context.elements is not None or not evidence.all_below(low_g):
        return None
    largest = evidence.largest()
    assert largest is not None
    return (f"Every hot-path array the code sizes is below 65,536 elements per GPU (largest: {largest.name}, "
            f"{format_count(largest.elements)} elements, {largest.citation}): if production runs are this small, "
            "the verdict is NOT RECOMMENDED; give --elements.")


def gate2_size(context: Context, evidence: SizeEvidence) -> Gate:
    name = GATE_NAMES[2]
    low_g, high_g = context.gpu_range
    low, high = context.per_gpu_range()
    given = not context.is_default("elements")
    basis = (
        f"{format_count(context.elements)} elements" if context.elements is not None
        else "the assumed 30–50 million elements"
    )
    gpus = f"{_range_text(low_g, high_g)} GPU" + ("s" if high_g > 1 else "")
    head = f"{basis} on {gpus} is {_range_text(low, high)} per GPU: "
    if size_tier(low) == size_tier(high):
        head += size_tier(low)
    else:
        head += f"{size_tier(low)} at the low end, {size_tier(high)} at the high end"
    note = ""
    cites: tuple[str, ...] = ()
    if given and evidence.all_below(low_g):
        largest = evidence.largest()
        assert largest is not None
        note = (f"; the code's own literal shapes are smaller (largest: {largest.name}, "
                f"{format_count(largest.elements)} elements) — check which is right")
        cites = tuple(a.citation for a in evidence.arrays)
    elif not given:
        note = "; give --elements to replace the assumption"
    if high < FLOOR:
        return Gate(2, name, Status.FAIL, head + note, cites)
    if small_code_sizes(context, evidence) is not None:
        largest = evidence.largest()
        assert largest is not None
        return Gate(2, name, Status.UNCERTAIN,
                    head + "; but the code's own literal shapes put every hot-path array below 65,536 elements "
                    f"per GPU (largest: {largest.name}, {format_count(largest.elements)} elements): if production "
                    "runs are that small, this gate fails; give --elements",
                    tuple(a.citation for a in evidence.arrays))
    if low < FLOOR:
        most = max(1, context.element_range[0] // FLOOR)
        advice = f"; keep to {most} GPU{'s' if most > 1 else ''} or fewer so each stays above the floor"
        return Gate(2, name, Status.PARTIAL, head + advice + note, cites)
    if low < 1_000_000:
        return Gate(2, name, Status.PARTIAL, head + note, cites)
    return Gate(2, name, Status.PASS, head + note, cites)


# --------------------------------------------------------------------- Gate 3
def gate3_shape(tier: Verdict, detail: str) -> Gate:
    status = Status.PASS if tier is Verdict.READY else Status.PARTIAL
    return Gate(3, GATE_NAMES[3], status, f"{tier.value}: {detail}")


# --------------------------------------------------------------------- Gate 4
@dataclass(frozen=True)
class ScopeEvidence:
    """Out-of-scope workload evidence (CPN410) and how much code it covers."""

    kinds: tuple[str, ...] = ()  # sparse, graph, ml, nlp, recurrence (sorted, unique)
    citations: tuple[str, ...] = ()
    share: float = 0.0  # fraction of the array work the evidence covers (or of lines/files holding it)
    share_basis: str = "lines"  # "time" (projected), "work" (sites weighted by loops), else "lines" or "files"
    inferred_pattern: str | None = None  # from the SCALES findings
    pattern_detail: str = ""
    time_note: str = ""  # the heaviest out-of-scope site's projected steps and time

    @property
    def present(self) -> bool:
        return bool(self.citations)


KIND_WORDS = {
    "sparse": "sparse matrices",
    "graph": "graph algorithms",
    "ml": "machine-learning estimators, metrics or training",
    "nlp": "string/NLP processing",
    "recurrence": "a sequential recurrence",
}


def kinds_text(kinds: Sequence[str]) -> str:
    words = [KIND_WORDS.get(k, k) for k in kinds] or ["out-of-scope work"]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def gate4_pattern(context: Context, evidence: ScopeEvidence) -> Gate:
    name = GATE_NAMES[4]
    if context.pattern is not None:
        pattern = f"{context.pattern} (given)"
    elif evidence.inferred_pattern:
        pattern = f"{evidence.inferred_pattern} (inferred from {evidence.pattern_detail})"
    else:
        pattern = None
    if not evidence.present:
        if pattern:
            return Gate(4, name, Status.PASS, f"dominant pattern {pattern}, a dense-array pattern cuPyNumeric scales well")
        return Gate(4, name, Status.PASS,
                    "no sparse, graph, ML, string/NLP or sequential-recurrence work found; "
                    "the dominant pattern could not be inferred — give --pattern")
    what = kinds_text(evidence.kinds)
    share = _share_words(evidence)
    weighed = evidence.share_basis in ("time", "work")
    if context.pattern in DENSE_PATTERNS:
        return Gate(4, name, Status.PARTIAL,
                    f"you named {context.pattern} as the dominant pattern; the {what} found ({share}) "
                    "must stay outside the ported region, at a host boundary",
                    evidence.citations)
    if evidence.share >= 0.5:
        return Gate(4, name, Status.FAIL,
                    f"the dominant compute is {what} ({'it covers' if weighed else 'files with that evidence hold'} {share}), "
                    "which cuPyNumeric does not accelerate" + (f"; {evidence.time_note}" if evidence.time_note else ""),
                    evidence.citations)
    return Gate(4, name, Status.PARTIAL,
                f"mixed: {what} {'covering' if weighed else 'in files holding'} {share}; port the dense array code and "
                "keep the rest at a host boundary",
                evidence.citations)


def _share_words(evidence: ScopeEvidence) -> str:
    if evidence.share_basis == "time":
        return f"{_percent(evidence.share)} of the projected time"
    if evidence.share_basis == "work":
        return f"{evidence.share:.0%} of the array work"
    return f"{evidence.share:.0%} of the assessed NumPy code {'lines' if evidence.share_basis == 'lines' else 'files'}"


def _percent(share: float) -> str:
    return format_share(share, words=True)


# ----------------------------------------------------------------- Gates 5, 6
# From this many loops in the program's source, loops that never touch a
# NumPy array say the compute is plain Python.
PLAIN_PYTHON_LOOPS = 3


def gate5_boundary(touchpoints: Sequence[str], loops: int | None = None, array_loops: int | None = None,
                   boundary_share: float | None = None) -> Gate:
    """Failed when the program has loops and none of them touches a NumPy
    array (its compute is plain Python, which cuPyNumeric does not run), or
    when host round trips and plain Python hold most of the projected time
    (``boundary_share``, from the cost model); passed when device work holds
    at least 30% of it; uncertain without a projection."""
    seen = "; host touchpoints seen: " + ", ".join(touchpoints) if touchpoints else "; no host touchpoints seen in the code"
    if loops is not None and array_loops == 0 and loops >= PLAIN_PYTHON_LOOPS:
        return Gate(5, GATE_NAMES[5], Status.FAIL,
                    f"none of the {loops} loops in the program's source touches a NumPy array: its compute is plain "
                    "Python (objects, lists, numbers), which cuPyNumeric does not run, so the import swap alone "
                    "buys nothing" + seen)
    counted = ""
    if loops == 1 and array_loops is not None:
        counted = f"; the one loop in the program's source {'works' if array_loops else 'does not work'} on NumPy arrays"
    elif loops and array_loops is not None:
        counted = f"; {array_loops} of the {loops} loops in the program's source work on NumPy arrays"
    if boundary_share is not None:
        device = 1.0 - boundary_share
        words = (f"projected: device work holds {_percent(device)} of the time, host round trips and plain Python "
                 f"{_percent(boundary_share)}")
        if device < MIN_ARRAY_SHARE:
            return Gate(5, GATE_NAMES[5], Status.FAIL,
                        words + "; below 30% array work the port buys little — profile one run to confirm" + counted + seen)
        return Gate(5, GATE_NAMES[5], Status.PASS, words + " (a projection from the source: profile one run to confirm)"
                    + counted + seen)
    return Gate(5, GATE_NAMES[5], Status.UNCERTAIN,
                "a static read cannot measure how much wall-clock time the array code takes; "
                "tell us (profile one run): below 30% the port buys little" + counted + seen)


MIN_ARRAY_SHARE = 0.3  # below this share of the time in array work the port buys little


def gate6_operations(context: Context, doctor_supplied: bool) -> Gate:
    needs = [
        "a benchmark of the hot path",
        "a golden-output test (small input, known result)",
        "run scripts that launch with `legate`",
    ]
    if context.nodes > 1:
        needs.append(f"an MPI launcher (mpirun/srun) verified on {context.nodes} nodes")
    reason = "still to supply: " + ", ".join(needs)
    if doctor_supplied:
        reason += "; a cuPyNumeric Doctor report was supplied and is merged here"
    else:
        reason += "; plan to enable cuPyNumeric Doctor on the first real run"
    return Gate(6, GATE_NAMES[6], Status.PARTIAL, reason)


# --------------------------------------------------------------------- verdict
@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    base: Verdict  # before the hot-path API demotion
    rule: str  # which rule of the order decided (a stable id)
    demoted: bool


RULE_IDS = (
    "gate1-hardware",
    "gate4-pattern",
    "gate2-size",
    "mpi4py",
    "many-blocks",
    "few-blocks",
    "refactor-only",
    "clean",
)


def blocking_idioms(blocks_codes: Collection[str]) -> list[str]:
    """The distinct idioms the verdict counts, each with the codes that are
    forms of it: ``["CPN101/CPN112", "CPN105"]``."""
    grouped: dict[str, list[str]] = {}
    for code in sorted(set(blocks_codes)):
        grouped.setdefault(_IDIOM_OF.get(code, code), []).append(code)
    return ["/".join(codes) for _, codes in sorted(grouped.items())]


def decide(
    *,
    gate1_failed: bool,
    gate4_failed: bool,
    gate2_failed: bool,
    blocks_codes: Collection[str],
    has_refactor: bool,
    hot_missing_api: bool,
) -> Decision:
    """Apply the verdict order; see the module docstring."""
    blocks = set(blocking_idioms(blocks_codes))
    if gate1_failed:
        return Decision(Verdict.NOT_RECOMMENDED, Verdict.NOT_RECOMMENDED, "gate1-hardware", False)
    if gate4_failed:
        return Decision(Verdict.NOT_RECOMMENDED, Verdict.NOT_RECOMMENDED, "gate4-pattern", False)
    if gate2_failed:
        return Decision(Verdict.NOT_RECOMMENDED, Verdict.NOT_RECOMMENDED, "gate2-size", False)
    if MPI_CODE in blocks:
        base, rule = Verdict.SIGNIFICANT, "mpi4py"
    elif len(blocks) >= SIGNIFICANT_BLOCKS:
        base, rule = Verdict.SIGNIFICANT, "many-blocks"
    elif blocks:
        base, rule = Verdict.LIGHT, "few-blocks"
    elif has_refactor:
        base, rule = Verdict.LIGHT, "refactor-only"
    else:
        base, rule = Verdict.READY, "clean"
    verdict = base.demoted() if hot_missing_api else base
    return Decision(verdict, base, rule, verdict is not base)
