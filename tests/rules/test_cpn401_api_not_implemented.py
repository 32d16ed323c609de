"""CPN401 (api-not-implemented) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import datetime as dt
import textwrap

import pytest

from cpn_lint import lint_source
from cpn_lint.manifest import ApiSupport, Manifest, Status
from cpn_lint.rules import _api_support


def _findings(source: str, *codes: str):
    return [f for f in lint_source(textwrap.dedent(source), assessment=True, codes=codes or None)
            if not codes or f.code in codes]


def _lines(source: str, code: str) -> list[int]:
    return [f.line for f in _findings(source, code)]


# ---------------------------------------------------------------------- CPN401
@pytest.mark.parametrize(
    "source",
    [
        "import numpy as np\ny = np.interp(1.0, [0, 2], [0, 4])\n",
        "import numpy\ny = numpy.interp(1.0, [0, 2], [0, 4])\n",
        "from numpy import interp\ny = interp(1.0, [0, 2], [0, 4])\n",
        "from numpy import interp as lerp\ny = lerp(1.0, [0, 2], [0, 4])\n",
        "import numpy.linalg as la\nimport numpy as np\ny = la.det(np.eye(2))\n",
        "from numpy.linalg import det\nimport numpy as np\ny = det(np.eye(2))\n",
        "import numpy.linalg\ny = numpy.linalg.det(numpy.eye(2))\n",
        "from numpy import random as npr\nidx = npr.choice(10, 3)\n",
        "import cupynumeric as cpn\ny = cpn.interp(1.0, [0, 2], [0, 4])\n",
        "import numpy as np\na = np.ones((3, 3))\ns = a.std()\n",
        "import numpy as np\na = np.ones((3, 3))\ns = a[1:].T.repeat(2)\n",
        "import numpy as np\nimport sys\ndef f(a: np.ndarray):\n    return a.std(axis=0)\n",
    ],
)
def test_cpn401_resolves_names_through_imports(source: str) -> None:
    last = source.rstrip("\n").count("\n") + 1
    assert [f.line for f in _findings(source, "CPN401") if f.line == last] == [last], source


def test_cpn401_reports_the_import_of_a_missing_name() -> None:
    src = "from numpy import interp as lerp, zeros\nfrom numpy.linalg import det, solve\nimport numpy.linalg\n"
    findings = _findings(src, "CPN401")
    assert [(f.line, f.data["api"]) for f in findings] == [(1, "numpy.interp"), (2, "numpy.linalg.det")]
    assert findings[0].message.startswith("from numpy import interp: numpy.interp is missing from cuPyNumeric 26.6.1 "
                                          "(ImportError)")


@pytest.mark.parametrize(
    ("source", "api"),
    [
        ("import numpy as np\nm = np.ma.masked_where(np.ones(3) > 0, np.ones(3))\n", "numpy.ma.masked_where"),
        ("import numpy as np\nh = np.zeros(3)\nnp.add.at(h, [0, 0], 1)\n", "numpy.ufunc.at"),
        ("import numpy as np\nh = np.multiply.outer(np.ones(2), np.ones(3))\n", "numpy.ufunc.outer"),
        ("import numpy as np\nc = np.add.accumulate(np.ones(3))\n", "numpy.ufunc.accumulate"),
        ("import numpy as np\nrng = np.random.default_rng(0)\nidx = rng.choice(10, 3)\n", "numpy.random.Generator.choice"),
        ("import numpy as np\nz = np.random.default_rng(0).permutation(4)\n", "numpy.random.Generator.permutation"),
        ("import numpy as np\nrs = np.random.RandomState(2)\nu = rs.uniform(size=3)\n", "numpy.random.RandomState.uniform"),
        ("import numpy as np\nz = np.random.standard_normal(8)\n", "numpy.random.standard_normal"),
        ("import numpy as np\na = np.zeros(3, dtype=np.float_)\n", "numpy.float_"),
        ("import numpy as np\nok = isinstance(np.ones(2), np.ma.MaskedArray)\n", "numpy.ma.MaskedArray"),
        ("import numpy as np\nidx = np.r_[0:4, 8]\n", "numpy.r_"),
        ("import numpy as np\nx = np.ones(4)\nfor t in range(9):\n    x = x * np.Inf\n", "numpy.Inf"),
    ],
)
def test_cpn401_reports_every_name_cupynumeric_lacks(source: str, api: str) -> None:
    (finding,) = _findings(source, "CPN401")
    assert finding.data["api"] == api and finding.data["lacks"] is True
    assert "(AttributeError)" in finding.message


@pytest.mark.parametrize(
    "source",
    [
        # the host alias beside cupynumeric stays NumPy
        "import cupynumeric as np\nimport numpy as onp\ny = onp.interp(1.0, [0, 2], [0, 4])\n",
        "import cupynumeric as np\nimport numpy as onp\nh = onp.ones(3)\ns = h.std()\n",
        # names cuPyNumeric has
        "import numpy as np\ng = np.mgrid[0:3, 0:3]\nm = np.max(np.ones(3))\n",
        "import numpy as np\nrng = np.random.default_rng(0)\nidx = rng.integers(10, size=3)\n",
        "import numpy as np\nr = np.add.reduce(np.ones(3))\nm = np.in1d(np.ones(3), [1.0])\n",
        "import numpy as np\nx = np.nan * np.pi + np.inf\ny = np.zeros(2, dtype=np.float64)\n",
        # names in no NumPy release, and methods on receivers of unknown kind
        "import numpy as np\nz = np.frobnicate(3)\n",
        "import numpy as np\ndef f(gen):\n    return gen.choice(4)\n",
        "import numpy as np\ndef f(ufunc):\n    return ufunc.at\n",
        "import numpy as np\nrng = np.random.default_rng(0) if True else None\nidx = rng.choice(10, 3)\n",
        # implemented, or implemented without documented availability
        "import numpy as np\nx = np.float64(3.0)\nc = np.ones(4).cumsum()\nd = np.load('a.npy')\n",
        # covered by other rules
        "import numpy as np\nf = np.vectorize(abs)\ng = np.frompyfunc(abs, 1, 1)\n",
        "import numpy as np\na = np.ones((2, 2))\nfor idx in np.ndindex(a.shape):\n    a[idx] = 1.0\n",
        # receivers that are not known arrays
        "import numpy as np\nitems = [1, 2]\nn = items.count(1)\n",
        "import numpy as np\ndef f(frame):\n    return frame.std()\n",
        # np rebound locally, or not numpy at all
        "import numpy as np\ndef f(np):\n    return np.interp(1, [0], [0])\n",
        "import mylib as np\ny = np.interp(1.0, [0, 2], [0, 4])\n",
        "interp = lambda *a: 0\nimport numpy as np\ny = interp(1.0, [0, 2], [0, 4])\n",
        "import numpy as np\ntext = 'np.interp(x, xp, fp)'  # np.interp(x)\n",
    ],
)
def test_cpn401_quiet_cases(source: str) -> None:
    assert _findings(source, "CPN401") == [], source


def test_cpn401_reports_iterators_of_loops_no_loop_rule_reports() -> None:
    """cuPyNumeric 26.6.1 lacks np.ndindex/np.ndenumerate/np.nditer
    (tests/data/oracle/api_names.py): a loop that only uses the indices is
    no element loop, so the missing name is the finding."""
    src = "import numpy as np\na = np.ones((2, 2))\nfor idx in np.ndindex(a.shape):\n    print(idx)\n"
    assert _lines(src, "CPN401") == [3]


def test_cpn401_outside_the_loop_iterable_nditer_is_reported() -> None:
    src = "import numpy as np\na = np.ones(3)\nit = np.nditer(a)\n"
    assert _lines(src, "CPN401") == [3]


def test_cpn401_one_finding_per_call_site() -> None:
    src = "import numpy as np\na = np.ones(3)\nb = np.ptp(a) + np.ptp(a * 2)\nc = np.ptp(a)\n"
    findings = _findings(src, "CPN401")
    assert [(f.line, f.col) for f in findings] == [(3, 4), (3, 16), (4, 4)]


def test_cpn401_hot_path_and_data() -> None:
    src = """\
    import numpy as np
    x = np.linspace(0.0, 1.0, 8)
    cold = np.interp(0.5, x, x)
    for step in range(100):
        hot = np.interp(0.5, x, x)
    for axis in range(3):
        few = np.interp(0.5, x, x)
    while True:
        spin = np.interp(0.5, x, x)
        break
    vals = [np.interp(t, x, x) for t in x]
    def later():
        return np.interp(0.5, x, x)
    """
    findings = {f.line: f for f in _findings(src, "CPN401")}
    assert {line: f.in_loop for line, f in findings.items()} == {3: False, 5: True, 7: False, 9: True, 11: True, 13: False}
    assert "inside the loop at line 4" in findings[5].message
    assert "inside the comprehension at line 11" in findings[11].message
    assert dict(findings[3].data) == {"api": "numpy.interp", "status": "not-implemented", "lacks": True, "data_path": True,
                                      "error": "AttributeError"}
    assert findings[3].message.startswith("np.interp(...): numpy.interp is missing from cuPyNumeric 26.6.1 (AttributeError); ")
    assert len(findings[3].message.split(";")[0]) <= 100
    assert findings[3].message.endswith("(RR-host-fallback)")


def test_cpn401_nested_small_loop_inside_a_step_loop_is_hot() -> None:
    src = "import numpy as np\nx = np.ones(4)\nfor step in range(100):\n    for axis in range(2):\n        y = np.ptp(x)\n"
    (finding,) = _findings(src, "CPN401")
    assert finding.in_loop and "inside the loop at line 3" in finding.message


def test_rules_follow_the_manifest(monkeypatch: pytest.MonkeyPatch) -> None:
    custom = Manifest(
        snapshot_date=dt.date(2030, 1, 1), cupynumeric_version="99.1", numpy_version=None,
        entries={
            "numpy.add": ApiSupport("numpy.add", Status.NOT_IMPLEMENTED, "Module-Level"),
            "numpy.sum": ApiSupport("numpy.sum", Status.SINGLE_GPU, "Module-Level"),
            "numpy.ndarray.sum": ApiSupport("numpy.ndarray.sum", Status.PARTIAL, "Multi-Dimensional Array", "only axis=0"),
        },
    )
    monkeypatch.setattr(_api_support, "manifest", lambda: custom)
    src = "import numpy as np\na = np.ones(3)\nb = np.add(a, a)\nc = np.sum(a)\nd = a.sum()\ne = np.interp(1, [0], [0])\n"
    found = {(f.line, f.code) for f in _findings(src, "CPN401", "CPN402", "CPN403")}
    assert found == {(3, "CPN401"), (4, "CPN402"), (5, "CPN403")}
    (partial,) = _findings(src, "CPN403")
    assert "cuPyNumeric 99.1" in partial.message and partial.message.endswith(": only axis=0")
