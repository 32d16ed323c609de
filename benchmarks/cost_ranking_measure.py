"""Measured device time of the cost-ranking programs under the real cuPyNumeric.

``tests/data/oracle/cost_ranking/`` holds twelve NumPy programs, one kind of
work each (``<letter>_<kind>.py``), and two calibration programs
(``calib_*.py``). Every program reads its size N from ``sys.argv[1]``, so a
static reader cannot see it, times only its main section after a warm-up
(forcing completion at its end: Legate is asynchronous) and prints
``CPN_TIME <seconds>``; a calibration program prints
``CPN_CALIBRATION <name> <value>`` lines. ``sizes.json`` beside them gives
each program its two sizes, and the calibration programs their one size
under ``"_calibration"``. This module runs them all under the oracle
(:func:`cpn_lint.oracle.run_program`: cuPyNumeric on this machine's CPUs,
``--cpus 1``, Doctor on) and writes what it measured::

    python -m benchmarks.cost_ranking_measure [--repeats 2] [--out benchmarks/results/cost_ranking_measured.json]

Sizes are per program so that every timed section lasts between about
0.05 s and 10 s on a 2-core machine: whole-array programs run at 1e6..1.6e7
elements; programs that touch one element per operation stay at or below
about 1,000 elements, because past roughly 1,000 distinct element or row
views of one array the cost of each further operation grows with the number
of views already made (the element loop costs ~1 ms per element at N=1,000,
~11 ms at N=2,000 and ~44 ms at N=4,000 under cuPyNumeric 26.6.1).

The orchestrating side uses only the standard library and ``cpn_lint.oracle``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "data" / "oracle" / "cost_ranking"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "cost_ranking_measured.json"
DEFAULT_TIMEOUT = 120.0
CALIBRATION_KEY = "_calibration"
SCHEMA = "cpn-lint/cost-ranking-measured"
SCHEMA_VERSION = 1


class MeasureError(RuntimeError):
    """A program failed, timed out or printed no figure; one-line reason."""


def load_sizes(folder: Path = FOLDER) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """(ranked programs -> sizes, calibration programs -> sizes) from ``sizes.json``."""
    data = json.loads((folder / "sizes.json").read_text(encoding="utf-8"))
    calibration = {name: [int(n) for n in sizes] for name, sizes in data.get(CALIBRATION_KEY, {}).items()}
    ranked = {name: [int(n) for n in sizes] for name, sizes in data.items() if not name.startswith("_")}
    return ranked, calibration


def _printed(program: Path, size: int, prefix: str, venv: Path | None, timeout: float) -> list[list[str]]:
    """The fields after ``prefix`` of every line the program printed with it."""
    from cpn_lint import oracle

    run = oracle.run_program(program, venv=venv, args=[str(size)], timeout=timeout)
    if run.timed_out:
        raise MeasureError(f"{program.name} N={size}: timed out after {timeout:.0f} s")
    if run.returncode != 0:
        last = run.stderr_tail.splitlines()[-1:] or [f"exit status {run.returncode}"]
        raise MeasureError(f"{program.name} N={size}: {last[0]}")
    found = [line.split()[1:] for line in run.stdout.splitlines() if line.startswith(prefix + " ")]
    if not found:
        raise MeasureError(f"{program.name} N={size}: printed no {prefix} line")
    return found


def time_program(program: Path, size: int, *, repeats: int = 1, venv: Path | None = None,
                 timeout: float = DEFAULT_TIMEOUT) -> float:
    """The smallest timed section (``CPN_TIME``) of ``repeats`` runs at ``size``."""
    return min(float(_printed(program, size, "CPN_TIME", venv, timeout)[-1][0]) for _ in range(max(1, repeats)))


def measure(folder: Path = FOLDER, repeats: int = 1, timeout: float = DEFAULT_TIMEOUT, *,
            venv: Path | None = None, log: Callable[[str], None] | None = None) -> dict[str, dict[int, float]]:
    """program -> {size: seconds of its timed section}, every ranked program
    of ``folder`` at the sizes ``sizes.json`` gives it (minimum of ``repeats``)."""
    ranked, _ = load_sizes(folder)
    result: dict[str, dict[int, float]] = {}
    for name, sizes in ranked.items():
        result[name] = {}
        for size in sizes:
            result[name][size] = time_program(folder / name, size, repeats=repeats, venv=venv, timeout=timeout)
            if log:
                log(f"{name:<20} N={size:>9}  {result[name][size]:9.4f} s")
    return result


def calibrate(folder: Path = FOLDER, repeats: int = 1, timeout: float = DEFAULT_TIMEOUT, *,
              venv: Path | None = None) -> dict[str, float]:
    """The CPU-Legate constants the calibration programs measure (each figure
    the smallest of ``repeats`` runs; bandwidth the largest):

    * ``per_launch_s``: one whole-array operation on a 16-element array;
    * ``element_update_s``: one ``a[0] = a[0] + 1`` statement;
    * ``sync_s``: one ``float(x.sum())`` on 16 elements (its launch included);
      ``sync_latency_s`` is that less one launch;
    * ``bandwidth_bytes_per_s``: ``c = a + b`` on 8e6 float64 (24 bytes an element).
    """
    _, programs = load_sizes(folder)
    found: dict[str, float] = {}
    for name, sizes in programs.items():
        for size in sizes:
            for _ in range(max(1, repeats)):
                for key, value in _printed(folder / name, size, "CPN_CALIBRATION", venv, timeout):
                    better = max if key.startswith("bandwidth") else min
                    found[key] = better(found[key], float(value)) if key in found else float(value)
    if "sync_s" in found and "per_launch_s" in found:
        found["sync_latency_s"] = max(found["sync_s"] - found["per_launch_s"], 0.0)
    return found


def startup_seconds(repeats: int = 1, *, venv: Path | None = None, timeout: float = DEFAULT_TIMEOUT) -> float:
    """Wall time of the oracle running a program that only imports NumPy
    (Legate's start-up and shut-down, paid once by every measured run)."""
    from cpn_lint import oracle

    with tempfile.TemporaryDirectory(prefix="cpn-startup-") as scratch:
        program = Path(scratch) / "empty.py"
        program.write_text("import numpy as np\n", encoding="utf-8")
        times = []
        for _ in range(max(1, repeats)):
            run = oracle.run_program(program, venv=venv, timeout=timeout)
            if not run.ok:
                raise MeasureError(f"an empty program does not run under the oracle: {run.stderr_tail}")
            times.append(run.seconds)
    return min(times)


def run_all(folder: Path = FOLDER, repeats: int = 1, timeout: float = DEFAULT_TIMEOUT, *,
            venv: Path | None = None, log: Callable[[str], None] | None = None) -> dict[str, object]:
    """Start-up, every program at both sizes and the calibration, as one JSON-ready record."""
    from cpn_lint import oracle

    started = time.monotonic()
    startup = startup_seconds(venv=venv, timeout=timeout)
    measured = measure(folder, repeats, timeout, venv=venv, log=log)
    calibration = calibrate(folder, repeats, timeout, venv=venv)
    ranked, calibration_sizes = load_sizes(folder)
    return {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "cupynumeric": oracle.CUPYNUMERIC_VERSION,
        "legate_config": oracle.LEGATE_CONFIG,
        "doctor": True,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "repeats": repeats,
        "sizes": ranked,
        "calibration_sizes": calibration_sizes,
        "programs": {name: {str(size): seconds for size, seconds in by_size.items()}
                     for name, by_size in measured.items()},
        "calibration": calibration,
        "startup_s": startup,
        "harness_wall_s": time.monotonic() - started,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cost_ranking_measure",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=FOLDER, help="the programs and their sizes.json")
    parser.add_argument("--repeats", type=int, default=1, help="runs per program and size; the fastest counts")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds before one run is stopped")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the JSON record")
    ns = parser.parse_args(argv)
    try:
        record = run_all(ns.folder, ns.repeats, ns.timeout, log=lambda line: print(line, flush=True))
    except MeasureError as exc:
        print(f"cost ranking: {exc}", file=sys.stderr)
        return 1
    print(f"calibration: {json.dumps(record['calibration'])}")
    print(f"start-up {record['startup_s']:.2f} s; harness {record['harness_wall_s']:.1f} s")
    ns.out.parent.mkdir(parents=True, exist_ok=True)
    ns.out.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {ns.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
