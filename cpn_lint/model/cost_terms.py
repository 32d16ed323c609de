"""The terms of the cost model: polynomials, GPU profiles, shares and sites.

Counts are polynomials in ``E`` (the data's elements) and ``S`` (a trip
count the code does not state), as ``{(e_power, s_power): coefficient}``;
:class:`Profile` holds one GPU's public figures (:data:`PROFILES`),
:class:`Scale` the sizes a projection assumes, :class:`Share` the kind of
time a site is, :class:`Counts` what one run of it does, and :class:`Site`
the record :mod:`.cost` hands the verdict. Kept apart so that the cost
model's rooms and the verdict read them without importing the model.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Mapping

# ---------------------------------------------------------------- polynomials
# A monomial's key is (power of E, power of S); its value the coefficient.
Poly = dict[tuple[float, int], float]
ONE: Mapping[tuple[float, int], float] = {(0.0, 0): 1.0}
ZERO: Mapping[tuple[float, int], float] = {}
MAX_S_POWER = 3  # nested unknown counts beyond this are folded (a bound, not a detail)


def constant(value: float) -> Poly:
    return {(0.0, 0): float(value)} if value else {}


def data_extent(rank: int) -> Poly:
    return {(round(1.0 / max(rank, 1), 4), 0): 1.0}


def data_size(fraction: float = 1.0) -> Poly:
    """``E ** fraction`` elements: the whole data (1.0) or a row of it (0.5)."""
    return {(round(fraction, 4), 0): 1.0}


STEPS: Mapping[tuple[float, int], float] = {(0.0, 1): 1.0}


def times(a: Mapping[tuple[float, int], float], b: Mapping[tuple[float, int], float]) -> Poly:
    out: Poly = defaultdict(float)  # type: ignore[assignment]
    for (ea, sa), ca in a.items():
        for (eb, sb), cb in b.items():
            out[(round(ea + eb, 4), min(sa + sb, MAX_S_POWER))] += ca * cb
    return dict(out)


def plus(a: Mapping[tuple[float, int], float], b: Mapping[tuple[float, int], float]) -> Poly:
    out: Poly = dict(a)
    for key, value in b.items():
        out[key] = out.get(key, 0.0) + value
    return out


def scaled(a: Mapping[tuple[float, int], float], k: float) -> Poly:
    return {key: value * k for key, value in a.items()} if k else {}


def evaluate(poly: Mapping[tuple[float, int], float], elements: float, steps: float) -> float:
    return sum(c * (elements ** e) * (steps ** s) for (e, s), c in poly.items())


# ------------------------------------------------------------------ profiles
@dataclass(frozen=True)
class Profile:
    """The device constants a projection uses, with where each comes from."""

    name: str
    launch: float  # seconds per task launch (Legate dispatch + kernel launch)
    bandwidth: float  # bytes per second of device memory, per GPU
    flops: float  # FP64 operations per second, per GPU
    sync: float  # seconds per host round trip (drain the pipeline, copy back)
    host_statement: float  # seconds per interpreted Python statement
    source: str
    host_bandwidth: float = 20e9  # bytes per second a host library streams (one CPU socket)


# Public figures: CUDA launches cost 5-10 us and Legate's task dispatch adds
# "high microseconds" on top (the reference's gpu-stack notes; cuPyNumeric's
# own guidance targets ~1 ms of work per task for the same reason); HBM
# bandwidth and FP64 rates are NVIDIA's data-sheet figures. The round trip is
# a pipeline drain plus a small PCIe copy; a CPython statement is ~0.1 us.
_LAUNCH = 50e-6
_SYNC = 100e-6
_PY = 1e-7
_SOURCES = ("launch 50 us (CUDA launch 5-10 us + Legate dispatch, 'high microseconds'); "
            "round trip 100 us (pipeline drain + PCIe copy); Python statement 0.1 us; ")
PROFILES: dict[str, Profile] = {
    "V100": Profile("V100", _LAUNCH, 900e9, 7.8e12, _SYNC, _PY, _SOURCES + "HBM2 900 GB/s, FP64 7.8 TFLOP/s (data sheet)"),
    "T4": Profile("T4", _LAUNCH, 320e9, 0.25e12, _SYNC, _PY, _SOURCES + "GDDR6 320 GB/s, FP64 0.25 TFLOP/s (data sheet)"),
    "A10": Profile("A10", _LAUNCH, 600e9, 0.98e12, _SYNC, _PY, _SOURCES + "GDDR6 600 GB/s, FP64 ~1 TFLOP/s (data sheet)"),
    "L4": Profile("L4", _LAUNCH, 300e9, 0.5e12, _SYNC, _PY, _SOURCES + "GDDR6 300 GB/s, FP64 ~0.5 TFLOP/s (data sheet)"),
    "L40S": Profile("L40S", _LAUNCH, 864e9, 1.4e12, _SYNC, _PY, _SOURCES + "GDDR6 864 GB/s, FP64 ~1.4 TFLOP/s (data sheet)"),
    "A100": Profile("A100", _LAUNCH, 1.555e12, 9.7e12, _SYNC, _PY, _SOURCES + "HBM2 1.555 TB/s (40 GB), FP64 9.7 TFLOP/s (data sheet)"),
    "H100": Profile("H100", _LAUNCH, 3.35e12, 34e12, _SYNC, _PY, _SOURCES + "HBM3 ~3 TB/s (reference, data sheet 3.35), FP64 34 TFLOP/s"),
    "H200": Profile("H200", _LAUNCH, 4.8e12, 34e12, _SYNC, _PY, _SOURCES + "HBM3e 4.8 TB/s, FP64 34 TFLOP/s (data sheet)"),
    "B200": Profile("B200", _LAUNCH, 8e12, 40e12, _SYNC, _PY, _SOURCES + "HBM3e 8 TB/s, FP64 40 TFLOP/s (data sheet)"),
    # The oracle's machine: cuPyNumeric 26.6.1 on one CPU core, constants
    # measured by benchmarks/cost_ranking.py (benchmarks/results/cost_ranking.json).
    "cpu-legate": Profile("cpu-legate", 270e-6, 1.07e10, 7e10, 600e-6, _PY,
                          "measured on the oracle (cuPyNumeric 26.6.1 on 1 CPU core): tests/data/oracle/cost_ranking/"
                          "calib_*.py; see docs/design/cost-model.md"),
}
DEFAULT_GPU = "A100"
ASSUMED_STEPS = 1_000  # an unknown trip count (time steps, iterations), unless the user says otherwise


def profile_for(gpu_model: str | None) -> Profile:
    """The profile of a named GPU (longest matching model name), else the default."""
    if gpu_model:
        flat = "".join(ch for ch in gpu_model.upper() if ch.isalnum())
        for prefix in ("NVIDIA", "TESLA", "GEFORCE"):
            flat = flat.removeprefix(prefix)
        matches = [name for name in PROFILES if name != "cpu-legate" and flat.startswith(name.upper())]
        if matches:
            return PROFILES[max(matches, key=len)]
    return PROFILES[DEFAULT_GPU]


@dataclass(frozen=True)
class Scale:
    """The size a projection is made at."""

    elements: float = 40_000_000
    gpus: int = 1
    steps: float = ASSUMED_STEPS


# --------------------------------------------------------------------- sites
class Share(enum.Enum):
    """What a site's time is spent on, for the gates and the report."""

    LIBRARY = "out-of-scope library"  # sparse, graph, ML or NLP library calls on the host
    WHOLE_ARRAY = "whole-array work"  # scales with the GPUs
    ELEMENT_LOOP = "element loop"  # one task per element: vectorisable
    SEQUENTIAL = "sequential"  # a recurrence or traversal over the data
    HOST_SYNC = "host round trips"
    HOST = "plain Python"


@dataclass
class Counts:
    launches: Poly = field(default_factory=dict)
    bytes: Poly = field(default_factory=dict)
    flops: Poly = field(default_factory=dict)
    syncs: Poly = field(default_factory=dict)
    host: Poly = field(default_factory=dict)
    library: Poly = field(default_factory=dict)  # bytes an out-of-scope host library streams

    def add(self, other: "Counts") -> None:
        for name in COUNT_FIELDS:
            setattr(self, name, plus(getattr(self, name), getattr(other, name)))



Terms = tuple[tuple[float, int, float], ...]  # (power of E, power of S, coefficient): a Poly as plain data


def as_terms(poly: Mapping[tuple[float, int], float]) -> Terms:
    return tuple(sorted((e, s, c) for (e, s), c in poly.items() if c))


def terms_value(terms: Terms, elements: float, steps: float) -> float:
    return sum(c * (elements ** e) * (steps ** s) for e, s, c in terms)


@dataclass(frozen=True)
class Site:
    """One statement's projected work in the file (all its runs together),
    as plain data so that a report can be made from a cached file."""

    line: int
    end_line: int
    share: str  # a Share's value
    loop_line: int | None  # the outermost loop of its function that repeats it
    callers: tuple[int, ...] = ()  # lines of the calls in this file that run its function (transitively)
    launches: Terms = ()
    bytes: Terms = ()
    flops: Terms = ()
    syncs: Terms = ()
    host: Terms = ()
    library: Terms = ()

    def seconds(self, scale: Scale, profile: Profile) -> float:
        e, s, g = scale.elements, scale.steps, max(scale.gpus, 1)
        return (terms_value(self.launches, e, s) * profile.launch
                + terms_value(self.bytes, e, s) / (profile.bandwidth * g)
                + terms_value(self.flops, e, s) / (profile.flops * g)
                + terms_value(self.syncs, e, s) * profile.sync
                + terms_value(self.host, e, s) * profile.host_statement
                + terms_value(self.library, e, s) / profile.host_bandwidth)

    def step_count(self, scale: Scale) -> float:
        """Tasks launched and round trips made: the sequential steps."""
        return terms_value(self.launches, scale.elements, scale.steps) + terms_value(self.syncs, scale.elements, scale.steps)


COUNT_FIELDS = ("launches", "bytes", "flops", "syncs", "host", "library")


def _leading(poly: Mapping[tuple[float, int], float]) -> tuple[float, float]:
    """The largest power of E in ``poly`` (and its coefficient), to compare sizes."""
    if not poly:
        return (-1.0, 0.0)
    power = max(e for e, _ in poly)
    return (power, sum(c for (e, _), c in poly.items() if e == power))
