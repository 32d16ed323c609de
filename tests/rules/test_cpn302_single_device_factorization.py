"""CPN302 (single-device-factorization) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

from .assessment_support import assessment_findings


# -------------------------------------------------------------- factorisations
def test_factorisations_say_single_gpu_or_batch() -> None:
    source = """
        import numpy as np
        A = np.ones((8, 8))
        H = np.ones((10, 8, 8))
        u, s, vt = np.linalg.svd(A)
        w, v = np.linalg.eigh(A)
        ws, vs = np.linalg.eigh(H)
        Ai = np.linalg.inv(A)
    """
    found = {f.line: f for f in assessment_findings(source, {"CPN302"})}
    assert sorted(found) == [5, 6, 8]
    assert "single GPU" in found[5].message and "(RR-batch)" not in found[5].message
    assert "stack of matrices" in found[6].message and found[6].message.endswith("(RR-batch)")
    assert "np.linalg.solve" in found[8].message


def test_factorisation_shapes_cupynumeric_refuses_are_named() -> None:
    source = """
        import numpy as np
        W = np.ones((3, 10))
        S = np.ones((4, 5, 5))
        u, s, vt = np.linalg.svd(W)
        q, r = np.linalg.qr(S)
        u2, s2, vt2 = np.linalg.svd(W.T)
    """
    found = {f.line: f.message for f in assessment_findings(source, {"CPN302"})}
    assert "more columns than rows" in found[5]
    assert "4 × 5 × 5 stack makes it raise" in found[6]
    assert "raise" not in found[7]
