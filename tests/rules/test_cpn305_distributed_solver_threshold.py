"""CPN305 (distributed-solver-threshold) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import pytest

from .assessment_support import assessment_findings


# ---------------------------------------------------------------- solver sizes
@pytest.mark.parametrize(
    ("setup", "call", "side"),
    [
        ("A = np.random.rand(2047, 2047)", "np.linalg.solve(A, b)", "below"),
        ("A = np.random.rand(2048, 2048)", "np.linalg.solve(A, b)", "above"),
        ("A = np.eye(8191)", "np.linalg.cholesky(A)", "below"),
        ("A = np.eye(8192)", "np.linalg.cholesky(A)", "above"),
        ("A = np.ones((16, 64, 64))", "np.linalg.solve(A, b)", "batched"),
        ("A = load()", "np.linalg.solve(A, b)", "unknown"),
    ],
)
def test_solver_threshold_sides(setup: str, call: str, side: str) -> None:
    source = f"import numpy as np\nb = np.ones(4)\n{setup}\nx = {call}\n"
    (finding,) = assessment_findings(source, {"CPN305"})
    assert finding.data["side"] == side


def test_solving_one_system_per_iteration_is_called_out() -> None:
    source = """
        import numpy as np
        K = np.ones((10, 6, 6))
        f = np.ones((10, 6))
        u = np.zeros((10, 6))
        for e in range(10):
            u[e] = np.linalg.solve(K[e], f[e])
    """
    (finding,) = assessment_findings(source, {"CPN305"})
    assert finding.data["per_iteration_loop"] == 6 and "one problem per iteration" in finding.message
