"""The cost model's ranking against the real runtime.

tests/data/oracle/cost_ranking/ holds twelve programs, one kind of work each
(whole-array expressions, a reduction, a matrix product, a stencil time loop,
an element loop, a recurrence, a 2-D element nest, a time loop with a host
sync per step, a loop over four components, per-step allocation, a row loop,
a DP table). Each reads its size from the command line, so the static model
cannot see it, and prints the time of its main section (``CPN_TIME s``).
Every program runs under cuPyNumeric 26.6.1 on this machine's CPUs (the
oracle) at the two sizes sizes.json gives it; the model projects the same
programs at the same sizes with the CPU profile (``PROFILES["cpu-legate"]``,
constants measured by the ``calib_*`` programs beside them). The two orders must agree: Spearman's rank
correlation over the 24 runs at least 0.8, and no run projected ten times
slower than another measured faster than it.
"""

from __future__ import annotations

import pytest

from benchmarks.cost_ranking import measured, programs, projected, spearman

from . import oracle_support as support

pytestmark = pytest.mark.oracle

REPEATS = 2  # the faster of two runs: a one-off stall of the runtime is not the model's error
MIN_SPEARMAN = 0.8
CLEAR_GAP = 10.0  # projections this far apart must be measured in the same order


@pytest.fixture(scope="module")
def runs() -> list[tuple[str, int, float, float]]:
    venv = support.require_oracle_venv()
    return [(p.name, n, measured(p, n, venv, REPEATS), projected(p, n)) for p, sizes in programs() for n in sizes]


def test_there_are_at_least_ten_programs() -> None:
    assert len(programs()) >= 10


def test_the_projected_order_is_the_measured_order(runs: list[tuple[str, int, float, float]]) -> None:
    rho = spearman([m for _, _, m, _ in runs], [p for _, _, _, p in runs])
    table = "\n".join(f"{name} {n}: measured {m:.4f} s, projected {p:.4f} s" for name, n, m, p in runs)
    assert rho >= MIN_SPEARMAN, f"Spearman {rho:.2f}\n{table}"
    reversed_pairs = [(a[:2], b[:2]) for a in runs for b in runs if a[3] >= CLEAR_GAP * b[3] and a[2] <= b[2]]
    assert not reversed_pairs, f"{reversed_pairs}\n{table}"
