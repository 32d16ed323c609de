"""The API family (CPN401-CPN403, CPN410) through real flake8, and how CPN401 says a name fails."""

from __future__ import annotations

import datetime as dt
import textwrap

import pytest

from cpn_lint import lint_source
from cpn_lint.manifest import ApiSupport, Manifest, Status
from cpn_lint.rules import _api_support

from ..conftest import run_flake8


def _findings(source: str, *codes: str):
    return [f for f in lint_source(textwrap.dedent(source), assessment=True, codes=codes or None)
            if not codes or f.code in codes]


# ----------------------------------------------------------------- real flake8
API_PROGRAM = """\
import numpy as np
import scipy.sparse as sp

m = np.ones((8, 8))
y = np.interp(0.5, m[0], m[1])
u, s, vt = np.linalg.svd(m)
spec = np.fft.rfft(m[0])
"""


def _cpn4(out: str) -> set[tuple[int, str]]:
    found = set()
    for line in out.splitlines():
        parts = line.split(":", 3)
        if len(parts) == 4 and parts[3].split()[0].startswith("CPN4"):
            found.add((int(parts[1]), parts[3].split()[0]))
    return found


@pytest.mark.e2e
def test_flake8_select_cpn_shows_401_and_410_only(write) -> None:
    path = write("prog.py", API_PROGRAM)
    result = run_flake8("--select", "CPN", str(path))
    assert _cpn4(result.stdout) == {(2, "CPN410"), (5, "CPN401")}, result.stdout + result.stderr


@pytest.mark.e2e
def test_flake8_assessment_shows_402_and_403(write) -> None:
    path = write("prog.py", API_PROGRAM)
    result = run_flake8("--select", "CPN", "--cpn-assessment", str(path))
    assert _cpn4(result.stdout) == {(2, "CPN410"), (5, "CPN401"), (6, "CPN402"), (7, "CPN403")}, result.stdout
    assert "is only partly distributed by cuPyNumeric" in result.stdout  # the headline
    verbose = run_flake8("--select", "CPN", "--cpn-assessment", "--cpn-verbose", str(path)).stdout
    assert "multi-GPU partial: data-parallel axis-wise batching only" in verbose  # the whole message


@pytest.mark.e2e
def test_flake8_noqa_silences_an_api_finding(write) -> None:
    path = write("prog.py", API_PROGRAM.replace("m[1])\n", "m[1])  # noqa: CPN401\n"))
    result = run_flake8("--select", "CPN", str(path))
    assert _cpn4(result.stdout) == {(2, "CPN410")}


@pytest.mark.parametrize(
    ("lacks", "gap"),
    [
        (True, "numpy.interp is missing from cuPyNumeric 99.1 (AttributeError)"),
        (False, "numpy.interp exists in cuPyNumeric 99.1 but is not supported there"),
        (None, "numpy.interp is not implemented in cuPyNumeric 99.1"),  # a format-1 manifest does not say
    ],
)
def test_cpn401_says_how_the_name_fails(monkeypatch: pytest.MonkeyPatch, lacks, gap: str) -> None:
    custom = Manifest(
        snapshot_date=dt.date(2030, 1, 1), cupynumeric_version="99.1", numpy_version=None,
        entries={"numpy.interp": ApiSupport("numpy.interp", Status.NOT_IMPLEMENTED, "Module-Level", lacks=lacks)},
    )
    monkeypatch.setattr(_api_support, "manifest", lambda: custom)
    (finding,) = _findings("import numpy as np\ny = np.interp(0.5, [0, 1], [0, 1])\n", "CPN401")
    assert finding.message.startswith(f"np.interp(...): {gap}")
    # a name it has is not reported when used without a call (only missing names are)
    assert _findings("import numpy as np\nf = np.interp\n", "CPN401") == ([] if lacks is False else _findings(
        "import numpy as np\nf = np.interp\n", "CPN401"))
