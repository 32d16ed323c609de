"""CPN301 (scipy-interop) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

from .assessment_support import assessment_at, assessment_findings


# ----------------------------------------------------------------------- SciPy
def test_scipy_calls_report_loop_or_boundary_and_skip_sparse() -> None:
    source = """
        import numpy as np
        import scipy
        import scipy.sparse as sp
        from scipy.linalg import lu_factor
        from scipy import special
        A = np.eye(4)
        for k in range(3):
            B = scipy.linalg.expm(A)
            S = sp.csr_matrix(A)
        lu = lu_factor(A)
        g = special.gamma(0.5)
    """
    found = assessment_findings(source, {"CPN301"})
    assert [(f.line, f.in_loop) for f in found] == [(9, True), (11, False)]
    assert "every iteration of the loop at line 8" in found[0].message
    assert "one-off boundary" in found[1].message
    assert found[0].data["module"] == "scipy.linalg" and found[0].data["arrays"] == ["A"]


def test_scipy_without_scipy_imports_is_quiet() -> None:
    assert assessment_at("import numpy as np\nimport mylib as scipy\nr = scipy.linalg.lu(np.eye(3))\n") == []
