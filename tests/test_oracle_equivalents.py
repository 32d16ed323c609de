"""The one-line equivalents CPN401 offers for names cuPyNumeric lacks, run
under the real cuPyNumeric 26.6.1: every name in ONE_LINE_EQUIVALENTS is
missing there, and each equivalent computes what NumPy's own function does
(compared here with the real NumPy). A gap with an equivalent is a light
fix item, never a verdict demotion, so the equivalent must be exact."""

from __future__ import annotations

import json
from pathlib import Path

import numpy
import pytest

from cpn_lint import oracle
from cpn_lint.rules._api_support import (MISSING_SUBMODULES, ONE_LINE_EQUIVALENTS, TYPE_ONLY_SUBMODULE,
                                         UNIMPORTABLE_SUBMODULES)

from . import oracle_support as support

pytestmark = pytest.mark.oracle

PROGRAM = Path(__file__).parent / "data" / "oracle" / "one_line_equivalents.py"


@pytest.fixture(scope="module")
def runtime() -> dict:
    venv = support.require_oracle_venv()
    run = oracle.run_program(PROGRAM, venv=venv, timeout=300)
    assert run.returncode == 0, run.stderr_tail
    return json.loads(run.stdout.strip().splitlines()[-1])


def _numpy_value(name: str) -> list:
    a = numpy.arange(12.0).reshape(3, 4) / 7.0
    n, d = 10, 0.1
    reference = {
        "size": (numpy.size(a), numpy.size(a, 1)),
        "around": numpy.around(a, 2),
        "atan2": numpy.arctan2(a, a + 1),
        "pow": numpy.power(a, 2),
        "fix": numpy.fix(a * 3 - 5),
        "spacing": numpy.spacing(a * 3 - 5),
        "std": numpy.std(a, axis=0),
        "ptp": numpy.ptp(a, axis=0),
        "ascontiguousarray": numpy.ascontiguousarray(a),
        "asanyarray": numpy.asanyarray(a),
        "fft.fftfreq": numpy.fft.fftfreq(n, d),
        "fft.rfftfreq": numpy.fft.rfftfreq(n, d),
        "fromfunction": numpy.fromfunction(lambda x, y: (x - 2) ** 2 + y < 5, (3, 4)),
        "trapezoid": numpy.trapezoid(a[1], a[1] * a[1]),
        "trapz": numpy.trapezoid(a[1], a[1] * a[1]),
        "s_": a[numpy.s_[1:, :2]],
        "index_exp": a[numpy.index_exp[1:, :2]],
        "ogrid": (lambda y, x: y * 10 + x)(*numpy.ogrid[0:3, 0:4]),
        "r_": numpy.r_[2.5, a[0], a[1]],
        "c_": numpy.c_[a[0], a[1]],
        "ndarray.std": a.std(axis=0, ddof=1),
        "ndarray.ptp": numpy.ptp(a, axis=0),
    }[name]
    if isinstance(reference, tuple):
        return [int(v) for v in reference]
    return [float(v) for v in numpy.ravel(reference)]


def test_every_listed_name_is_missing_under_the_runtime(runtime: dict) -> None:
    listed = {name.removeprefix("numpy.") for name in ONE_LINE_EQUIVALENTS}
    assert listed <= set(runtime["missing"]), listed - set(runtime["missing"])
    assert all(runtime["missing"][name] for name in listed)


@pytest.mark.parametrize("name", ["size", "around", "atan2", "pow", "fix", "spacing", "std", "ptp", "ascontiguousarray",
                                  "asanyarray", "fft.fftfreq", "fft.rfftfreq", "fromfunction",
                                  "trapezoid", "trapz", "s_", "index_exp", "ogrid", "ndarray.std", "ndarray.ptp",
                                  "r_", "c_"])
def test_the_equivalent_computes_what_numpy_does(runtime: dict, name: str) -> None:
    assert runtime["values"][name] == pytest.approx(_numpy_value(name), rel=1e-12, abs=1e-12)


def test_the_draw_equivalents_draw_the_shape_asked_for(runtime: dict) -> None:
    assert runtime["draw_shapes"] == {"random.standard_normal": [2, 3], "random.Generator.standard_normal": [2, 3]}


def test_the_dtype_equivalents_are_the_same_dtypes(runtime: dict) -> None:
    assert runtime["dtypes"] == {"double": str(numpy.dtype(numpy.double)), "int_": "int64", "intc": "int32"}


def test_the_submodules_taken_as_missing_cannot_be_imported(runtime: dict) -> None:
    """Every name under them is CPN401, listed in the manifest or not."""
    found = runtime["submodules"]
    assert all(found[name] == "ModuleNotFoundError" for name in MISSING_SUBMODULES), found
    assert found[TYPE_ONLY_SUBMODULE] == "ModuleNotFoundError"  # its imports are CPN401 (kept on NumPy: right)
    assert found["numpy.linalg"] == found["numpy.fft"] == "present"


def test_the_submodules_whose_import_cpn401_reports_cannot_be_imported(runtime: dict) -> None:
    """``import numpy.ma as ma`` is CPN401 at the import (what breaks first on load);
    numpy.lib and numpy.random import."""
    found = runtime["submodules"]
    assert all(found[name] == "ModuleNotFoundError" for name in UNIMPORTABLE_SUBMODULES), found
    assert found["numpy.lib"] == found["numpy.random"] == "present"
