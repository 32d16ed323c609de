"""The cost model against the real runtime: measure, project, compare.

Runs every program of ``tests/data/oracle/cost_ranking/`` under the oracle
(cuPyNumeric 26.6.1 on this machine's CPUs) at each of its sizes, reads the
time each prints for its main section (``CPN_TIME s``), projects the same
program at the same size with the CPU profile of :mod:`cpn_lint.model.cost`,
and reports both with Spearman's rank correlation. The ``calib_*`` programs
measure the CPU profile's constants (per-launch cost, host round trip,
bandwidth)::

    python -m benchmarks.cost_ranking [--repeats 1] [--out benchmarks/results/cost_ranking.json]

``sizes.json`` beside the programs gives each its two sizes: whole-array
programs at 1e6..1.6e7 elements, where bandwidth shows and one-off stalls do
not dominate; programs that touch one element per operation at or below
about a thousand elements, since past that cuPyNumeric 26.6.1 makes each
further element or row view of one array slower (about 1 ms per element at
N = 1,000, 11 ms at 2,000, 44 ms at 4,000), which a launch count cannot
follow.

tests/test_oracle_cost_ranking.py runs the same comparison in the oracle tier.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

from .results_file import write_results

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "data" / "oracle" / "cost_ranking"


def sizes(folder: Path = FOLDER) -> dict[str, list[int]]:
    """``sizes.json``: program name -> its sizes, and the calibration
    programs' under ``"_calibration"``."""
    return json.loads((folder / "sizes.json").read_text(encoding="utf-8"))


def programs(folder: Path = FOLDER) -> list[tuple[Path, list[int]]]:
    """The ranked programs (one kind of work each, ``<letter>_<kind>.py``) with their sizes."""
    table = sizes(folder)
    return [(folder / name, list(table[name])) for name in sorted(table) if not name.startswith("_")]


def projected(program: Path, elements: int) -> float:
    """The cost model's seconds for ``program`` at ``elements``, CPU profile."""
    from cpn_lint.model import FileModel
    from cpn_lint.model.cost import file_sites
    from cpn_lint.model.cost_terms import PROFILES, Scale

    source = program.read_text(encoding="utf-8")
    sites = file_sites(FileModel(ast.parse(source), source, str(program)))
    return sum(site.seconds(Scale(elements=float(elements), gpus=1), PROFILES["cpu-legate"]) for site in sites)


def measured(program: Path, size: int, venv: Path | None = None, repeats: int = 1) -> float:
    """The smallest of ``repeats`` timed runs under the oracle (one-off
    stalls of the runtime are not the model's error)."""
    from cpn_lint import oracle

    times = []
    for _ in range(repeats):
        run = oracle.run_program(program, venv=venv, args=[str(size)], timeout=300)
        if run.returncode != 0:
            raise RuntimeError(f"{program.name} {size}: {run.stderr_tail}")
        lines = [line for line in run.stdout.splitlines() if line.startswith("CPN_TIME ")]
        if not lines:
            raise RuntimeError(f"{program.name} printed no CPN_TIME line")
        times.append(float(lines[-1].split()[1]))
    return min(times)


def calibrate(venv: Path | None = None) -> dict[str, float]:
    """The CPU profile's constants, as the calibration programs measure them."""
    from cpn_lint import oracle

    found: dict[str, float] = {}
    for name, (size, *_) in sizes()["_calibration"].items():
        run = oracle.run_program(FOLDER / name, venv=venv, args=[str(size)], timeout=300)
        for line in run.stdout.splitlines():
            if line.startswith("CPN_CALIBRATION "):
                _, key, value = line.split()
                found[key] = float(value)
    return found


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation (no ties expected: times are continuous)."""
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        for rank, index in enumerate(order):
            out[index] = float(rank)
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    return 1 - 6 * sum((a - b) ** 2 for a, b in zip(rx, ry)) / (n * (n * n - 1)) if n > 1 else 1.0


def compare(repeats: int = 1, venv: Path | None = None) -> dict[str, object]:
    runs = [{"program": p.name, "size": n, "measured_s": measured(p, n, venv, repeats), "projected_s": projected(p, n)}
            for p, ns in programs() for n in ns]
    rho = spearman([r["measured_s"] for r in runs], [r["projected_s"] for r in runs])  # type: ignore[misc]
    return {"runs": runs, "spearman": rho, "calibration": calibrate(venv)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cost_ranking", description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the runs, Spearman's rho and the calibration here (JSON)")
    ns = parser.parse_args(argv)
    result = compare(ns.repeats)
    for run in result["runs"]:  # type: ignore[union-attr]
        print(f"{run['program']:<20} {run['size']:>7}  measured {run['measured_s']:9.4f} s  "
              f"projected {run['projected_s']:9.4f} s")
    print(f"Spearman's rho {result['spearman']:.3f}; calibration {result['calibration']}")
    if ns.out:
        write_results(ns.out, json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
