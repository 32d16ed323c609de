"""CPN303 (fft-transform) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import pytest

from .assessment_support import assessment_findings


# ------------------------------------------------------------------------- FFT
@pytest.mark.parametrize(
    ("setup", "call", "batched", "phrase"),
    [
        ("x = np.ones(1024)", "np.fft.fft(x)", False, "single 1-D transform"),
        ("x = np.ones((8, 1024))", "np.fft.fft(x)", True, "batch of 8 signals"),
        ("x = np.ones((4, 8, 64))", "np.fft.fft2(x)", True, "batch of 4 signals"),
        ("x = np.ones((4, 8, 64))", "np.fft.fftn(x)", False, "single 3-D transform"),
        ("x = np.ones((4, 8, 64))", "np.fft.fftn(x, axes=(1, 2))", True, "batch of 4 signals"),
        ("x = np.ones((64, 64))", "np.fft.rfft2(x)", False, "single 2-D transform"),
    ],
)
def test_fft_single_or_batched(setup: str, call: str, batched: bool, phrase: str) -> None:
    (finding,) = assessment_findings(f"import numpy as np\n{setup}\ny = {call}\n", {"CPN303"})
    assert finding.data["batched"] is batched
    assert phrase in finding.message


def test_fft_of_each_item_of_a_loop_asks_for_a_batch() -> None:
    source = """
        import numpy as np
        signals = np.ones((8, 64))
        spectra = [np.fft.fft(s) for s in signals]
        for step in range(10):
            u = np.fft.ifft(np.fft.fft(signals) * 0.5)
    """
    found = assessment_findings(source, {"CPN303"})
    assert found[0].data["per_iteration_loop"] == 4 and "(RR-batch)" in found[0].message
    assert all(f.data["per_iteration_loop"] is None for f in found[1:])  # a time loop, not one per signal
