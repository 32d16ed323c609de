"""The SCALES pass (CPN001-CPN007) as a whole: assessment-only codes, one finding per statement, quiet cases, what other rules report instead, robustness, real flake8."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from cpn_lint import lint_source
from cpn_lint.registry import Category, Default
from cpn_lint.rules import load_rules

from ..conftest import run_flake8
from .assessment_support import INFO, MINE, SCALES, assessment_at, assessment_findings


# -------------------------------------------------------------------- registry
def test_codes_are_assessment_only_with_their_category_and_recipe() -> None:
    rules = load_rules()
    for code in SCALES:
        assert rules[code].category is Category.SCALES and rules[code].recipe is None
        assert rules[code].default is Default.ASSESSMENT
    for code in INFO:
        assert rules[code].category is Category.INFO and rules[code].default is Default.ASSESSMENT
    assert rules["CPN301"].recipe == "RR-host-fallback"
    assert rules["CPN302"].recipe == rules["CPN303"].recipe == "RR-batch"
    assert rules["CPN304"].recipe is None and rules["CPN305"].recipe is None


def test_assessment_codes_are_silent_without_the_option() -> None:
    source = "import numpy as np\na = np.ones(8)\nb = a * 2.0\nu, s, vt = np.linalg.svd(np.ones((4, 4)))\n"
    assert {f.code for f in lint_source(source)} & MINE == set()
    assert {f.code for f in lint_source(source, assessment=True)} >= {"CPN001", "CPN302"}


# --------------------------------------------------- one finding per statement
def test_elementwise_is_one_finding_per_statement_whatever_the_operators() -> None:
    source = """
        import numpy as np
        a = np.ones(8)
        b = np.ones(8)
        c = np.sin(a) * 2.0 + np.cos(b) * 3.0 - a / (b + 1.0)
    """
    assert assessment_at(source) == [(5, "CPN001")]


def test_specific_idiom_wins_over_elementwise() -> None:
    source = """
        import numpy as np
        u = np.ones(8)
        v = np.ones(8)
        e = np.sum((u - v) ** 2)
        w = np.where(u > 0.5, u * 2.0, v)
        u[u > 0.5] *= 2.0
        d = u[1:] - u[:-1]
        np.add(u, v, out=v)
    """
    assert assessment_at(source) == [(5, "CPN002"), (6, "CPN004"), (7, "CPN007"), (8, "CPN005"), (9, "CPN006")]


def test_several_specific_idioms_in_one_statement_each_report_once() -> None:
    source = """
        import numpy as np
        A = np.ones((4, 4))
        m = A > 0.0
        s = np.sum(A @ A) + np.sum(A[m] @ A[m].T) + np.max(A)
    """
    assert assessment_at(source) == [(4, "CPN001"), (5, "CPN002"), (5, "CPN003"), (5, "CPN007")]


def test_call_idioms_are_reported_at_the_first_call_statements_at_the_statement() -> None:
    source = """
        import numpy as np
        a = np.ones(8)
        total = 1.0 + np.sum(a) + np.mean(a)
        b = 3.0 * a
    """
    by_code = {f.code: f for f in assessment_findings(source)}
    assert (by_code["CPN002"].line, by_code["CPN002"].col) == (4, 14)
    assert (by_code["CPN001"].line, by_code["CPN001"].col) == (5, 0)
    assert by_code["CPN002"].data == {"array": "a", "axis": None}


# ----------------------------------------------------------------- quiet cases
@pytest.mark.parametrize(
    "body",
    [
        "x = 2.0 * 3.0\ny = [1, 2] * 2\nz = 'a' + 'b'",
        "m = t / 8\nr = np.sqrt(t) * 2.0 + t\nacc = 0.0\nacc += t\nz = acc * 2.0",  # 0-d results
        "p = a[0] + a[1]\nq = a[0, 1] * 3.0",  # single elements
        "for i in range(len(a)):\n    a[i] = a[i] * 2.0 + np.sum(a * a)",  # per element
        "for row in g:\n    s = row * 2.0",  # items of an array
        "for i, row in enumerate(g):\n    s = row + g[i]",
        "rows = [g[i] * 2.0 for i in range(g.shape[0])]",
        "while np.max(a) > 1.0:\n    pass",  # a condition, not a statement
        "if np.sum(a) > 0:\n    pass",
        "print(a * 2.0)\ntext = f'{np.mean(a) * 2.0}'\nn = len(a * 2.0)\nlst = list(a + 1.0)",
        "for k in range(20):\n    err = float(np.max(np.abs(a - 1.0)))\n    v = (a * 2.0).item()",
        "e = a[::2] * 2.0\nf = a[1::2] + a[::2]",  # strided: CPN106
        "i = np.where(a > 0.5)\nj = np.nonzero(a * 2.0 > 1.0)\nk = (a > 0.5).nonzero()\nl = np.argwhere(g > 0)",
    ],
)
def test_quiet_bodies(body: str) -> None:
    source = "import numpy as np\na = np.ones(64)\ng = np.ones((8, 8))\nt = a.sum()\n" + body + "\n"
    assert [(f.line, f.code) for f in lint_source(source, assessment=True) if f.code in SCALES and f.line > 4] == []


def test_host_alias_and_cupy_arrays_are_not_what_scales() -> None:
    source = """
        import cupynumeric as np
        import numpy as onp
        import cupy as cp
        h = onp.ones(8)
        g = cp.ones(8)
        x = h * 2.0 + onp.sum(h)
        y = g * 2.0
        z = np.asarray(h) * 2.0
    """
    assert assessment_at(source, SCALES) == [(9, "CPN001")]


def test_scalar_conversion_outside_loops_keeps_the_reduction() -> None:
    source = """
        import numpy as np
        u = np.ones(8)
        total = float(np.sum(u))
        for k in range(10):
            peak = float(np.max(u))
    """
    assert assessment_at(source, SCALES) == [(4, "CPN002")]


def test_unknown_parameters_stay_quiet_until_used_as_arrays() -> None:
    quiet = "import numpy as np\ndef f(a, b):\n    return a * b + 1.0\n"
    loud = "import numpy as np\ndef f(a, b):\n    n = a.shape[0]\n    return a * b\n"
    assert assessment_at(quiet) == []
    assert assessment_at(loud) == [(4, "CPN001")]


# --------------------------------------------- what other rules report instead
def test_statements_other_rules_report_are_not_quoted() -> None:
    source = """
        import numpy as np
        from numpy.testing import assert_allclose
        a = np.ones(8)
        spread = np.std(a * 2.0)
        b = np.kron(a, a) + 1.0
        o = np.array([a * 2.0, "x"], dtype=object)
        assert_allclose(np.sum(a * 2.0), 16.0)
        np.testing.assert_array_equal(a + 1.0, a + 1.0)
    """
    assert assessment_at(source, SCALES) == []


def test_self_products_and_inner_products_are_zero_d() -> None:
    source = """
        import numpy as np
        f = np.ones(8)
        g = np.ones(8)
        cost = 0.5 * np.dot(f, f)
        rho = np.inner(f, g)
        sq = f @ f
        ratio = cost / rho + sq
        M = np.ones((4, 4))
        P = np.dot(M, g[:4])
        Q = P * 2.0
    """
    assert [line for line, code in assessment_at(source) if code == "CPN001"] == [11]


def test_parameters_known_only_from_ufunc_calls_are_not_arrays_enough() -> None:
    source = """
        import numpy as np
        def entry(l1, l2, t12):
            if l1 == l2:
                return t12 / l1
            return t12 * (np.log(l2) - np.log(l1)) / (l2 - l1)
        def grid(x):
            x = np.asarray(x)
            return x * 2.0
    """
    assert assessment_at(source, SCALES) == [(9, "CPN001")]


# ------------------------------------------------------------------ robustness
def test_deep_chains_are_linear_and_safe() -> None:
    chain = " + ".join(["a"] * 800)
    source = f"import numpy as np\na = np.ones(4)\nb = {chain}\nc = np.sum({chain})\n"
    start = time.perf_counter()
    found = lint_source(source, assessment=True)
    assert time.perf_counter() - start < 10
    assert [(f.line, f.code) for f in found if f.code in MINE] == [(3, "CPN001"), (4, "CPN002")]
    assert not [f for f in found if f.code == "CPN000"]


def test_the_shared_analysis_is_per_file() -> None:
    first = "import numpy as np\na = np.ones(4)\nb = a * 2.0\n"
    second = "import numpy as np\na = [1, 2]\nb = a * 2\n"
    assert assessment_at(first) == [(3, "CPN001")]
    assert assessment_at(second) == []
    assert assessment_at(first) == [(3, "CPN001")]


# ----------------------------------------------------------------- real flake8
PROGRAM = """import numpy as np

u = np.ones((16, 16))
w = np.zeros_like(u)
for step in range(10):
    w[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    u, w = w, u
total = np.sum(u)
q, r = np.linalg.qr(u)
x = np.random.rand(16)
for i in range(len(x)):
    x[i] = x[i] * 2.0
"""


def _codes(out: str) -> list[tuple[int, str]]:
    found = []
    for line in out.splitlines():
        parts = line.split(":", 3)
        if len(parts) == 4:
            found.append((int(parts[1]), parts[3].split()[0]))
    return found


@pytest.mark.e2e
def test_flake8_select_cpn_hides_assessment_codes_and_the_option_shows_them(write, tmp_path) -> None:
    path = write("prog.py", PROGRAM)
    plain = _codes(run_flake8("--select", "CPN", str(path)).stdout)
    assert {code for _, code in plain} & MINE == set()
    assert (11, "CPN101") in plain

    shown = _codes(run_flake8("--select", "CPN", "--cpn-assessment", str(path)).stdout)
    assert {(6, "CPN005"), (7, "CPN006"), (8, "CPN002"), (9, "CPN302"), (10, "CPN304"), (11, "CPN101")} <= set(shown)
    assert (12, "CPN001") not in shown  # per-element work is not what scales

    write("setup.cfg", "[flake8]\nselect = CPN\ncpn-assessment = true\n")
    from_config = subprocess.run(
        [sys.executable, "-m", "flake8", "prog.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert set(_codes(from_config.stdout)) == set(shown), from_config.stderr

    narrowed = _codes(run_flake8("--select", "CPN005,CPN101", "--cpn-assessment", str(path)).stdout)
    assert sorted(narrowed) == [(6, "CPN005"), (11, "CPN101")]
