"""CPN402 and CPN403 beyond their examples and fixtures."""

from __future__ import annotations

import textwrap

from cpn_lint import lint_source


def _findings(source: str, *codes: str):
    return [f for f in lint_source(textwrap.dedent(source), assessment=True, codes=codes or None)
            if not codes or f.code in codes]


# ------------------------------------------------------------------ CPN402/403
def test_cpn402_single_gpu_calls() -> None:
    src = """\
    import numpy as np
    from numpy.linalg import qr
    m = np.ones((4, 4))
    u, s, vt = np.linalg.svd(m)
    q, r = qr(m)
    inv = np.linalg.inv(m)
    sol = np.linalg.solve(m, np.ones(4))
    """
    findings = _findings(src, "CPN402")
    assert [(f.line, f.data["api"]) for f in findings] == [
        (4, "numpy.linalg.svd"), (5, "numpy.linalg.qr"), (6, "numpy.linalg.inv")]
    assert all(f.data["status"] == "single-gpu" and not f.in_loop for f in findings)


def test_cpn403_quotes_the_manifest_note() -> None:
    src = "import numpy as np\nsig = np.ones(64)\nspec = np.fft.rfft(sig)\nshift = np.fft.fftshift(sig)\n"
    (finding,) = _findings(src, "CPN403")
    assert finding.line == 3
    assert finding.message.endswith("supports only partially across GPUs: multi-GPU partial: data-parallel axis-wise batching only")
    assert finding.data["note"] == "multi-GPU partial: data-parallel axis-wise batching only"


def test_assessment_codes_are_not_emitted_without_assessment() -> None:
    src = "import numpy as np\nm = np.ones((4, 4))\nu = np.linalg.svd(m)\nf = np.fft.fft(m[0])\ny = np.interp(1, [0], [0])\n"
    codes = {f.code for f in lint_source(src)}
    assert "CPN401" in codes and not codes & {"CPN402", "CPN403"}
