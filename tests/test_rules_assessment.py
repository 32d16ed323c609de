"""The assessment-only codes SCALES CPN001–CPN007 and INFO CPN301–CPN305
beyond their examples and fixtures: one finding per statement and the
precedence between codes, positions, the quiet cases, messages and data, the
literal-shape helper, and real flake8 hiding or showing the codes."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
import time

import pytest

from cpn_lint import lint_source
from cpn_lint.model import FileModel, Kind
from cpn_lint.registry import Category, Default
from cpn_lint.rules import load_rules
from cpn_lint.model.shapes import broadcast
from cpn_lint.rules._scales import SCALES_CODES

from .conftest import run_flake8

SCALES = set(SCALES_CODES)
INFO = {"CPN301", "CPN302", "CPN303", "CPN304", "CPN305"}
MINE = SCALES | INFO


def _findings(source: str, codes: set[str] = MINE) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code in codes]


def _at(source: str, codes: set[str] = MINE) -> list[tuple[int, str]]:
    return sorted((f.line, f.code) for f in _findings(source, codes))


# ------------------------------------------------------------------ registry
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


# ------------------------------------------------ one finding per statement
def test_elementwise_is_one_finding_per_statement_whatever_the_operators() -> None:
    source = """
        import numpy as np
        a = np.ones(8)
        b = np.ones(8)
        c = np.sin(a) * 2.0 + np.cos(b) * 3.0 - a / (b + 1.0)
    """
    assert _at(source) == [(5, "CPN001")]


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
    assert _at(source) == [(5, "CPN002"), (6, "CPN004"), (7, "CPN007"), (8, "CPN005"), (9, "CPN006")]


def test_several_specific_idioms_in_one_statement_each_report_once() -> None:
    source = """
        import numpy as np
        A = np.ones((4, 4))
        m = A > 0.0
        s = np.sum(A @ A) + np.sum(A[m] @ A[m].T) + np.max(A)
    """
    assert _at(source) == [(4, "CPN001"), (5, "CPN002"), (5, "CPN003"), (5, "CPN007")]


def test_call_idioms_are_reported_at_the_first_call_statements_at_the_statement() -> None:
    source = """
        import numpy as np
        a = np.ones(8)
        total = 1.0 + np.sum(a) + np.mean(a)
        b = 3.0 * a
    """
    by_code = {f.code: f for f in _findings(source)}
    assert (by_code["CPN002"].line, by_code["CPN002"].col) == (4, 14)
    assert (by_code["CPN001"].line, by_code["CPN001"].col) == (5, 0)
    assert by_code["CPN002"].data == {"array": "a", "axis": None}


# --------------------------------------------------------------- quiet cases
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
    assert _at(source, SCALES) == [(9, "CPN001")]


def test_scalar_conversion_outside_loops_keeps_the_reduction() -> None:
    source = """
        import numpy as np
        u = np.ones(8)
        total = float(np.sum(u))
        for k in range(10):
            peak = float(np.max(u))
    """
    assert _at(source, SCALES) == [(4, "CPN002")]


def test_unknown_parameters_stay_quiet_until_used_as_arrays() -> None:
    quiet = "import numpy as np\ndef f(a, b):\n    return a * b + 1.0\n"
    loud = "import numpy as np\ndef f(a, b):\n    n = a.shape[0]\n    return a * b\n"
    assert _at(quiet) == []
    assert _at(loud) == [(4, "CPN001")]


# ------------------------------------------------------------------ stencils
@pytest.mark.parametrize(
    ("expr", "loud"),
    [
        ("u[2:] - 2.0 * u[1:-1] + u[:-2]", True),
        ("u[1:n - 1] - u[0:n - 2]", True),
        ("u[4:] - u[:-4]", True),
        ("u[5:] - u[:-5]", False),  # wider than a small constant offset
        ("u[k:] - u[:-k]", False),  # offset in a variable
        ("u[1:] + u[:]", False),  # different extents
        ("u[1:-1] + u[1:-1]", False),  # one shift only
        ("u[0:98] + u[2:100]", True),
        ("u[:50] + u[50:]", False),
    ],
)
def test_stencil_offsets(expr: str, loud: bool) -> None:
    source = f"import numpy as np\nn = 100\nk = 3\nu = np.ones(n)\nd = {expr}\n"
    assert (("CPN005" in {c for _, c in _at(source)})) is loud


def test_columns_and_rows_are_not_shifted_slices() -> None:
    source = "import numpy as np\nz = np.ones((8, 3))\nd = z[:, 0] - z[:, 1]\ne = z[0, 1:] - z[0, :-1]\n"
    assert [line for line, code in _at(source) if code == "CPN005"] == [4]


def test_stencil_message_names_slices_arrays_and_shift() -> None:
    (finding,) = _findings(
        """
        import numpy as np
        u = np.ones((32, 32))
        w = np.zeros((32, 32))
        w[1:-1, 1:-1] = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * u[1:-1, 1:-1]
        """,
        {"CPN005"},
    )
    assert "5 slices of 'u' shifted by up to 2 cells" in finding.message
    assert finding.data == {"arrays": ["u"], "slices": 5, "max_shift": 2, "limit": 4}


# ------------------------------------------------------------ out= and swaps
def test_out_keyword_must_name_an_existing_device_buffer() -> None:
    source = """
        import cupynumeric as np
        import numpy as onp
        a = np.ones(8)
        r = np.empty(8)
        h = onp.ones(8)
        np.add(a, a, out=r)
        np.add(a, a, out=np.empty_like(a))
        np.add(a, a, out=None)
        onp.add(h, h, out=h)
        np.sqrt(a, out=(r,))
    """
    assert [line for line, code in _at(source) if code == "CPN006"] == [7, 11]


def test_out_parameter_counts_when_every_caller_passes_one() -> None:
    source = """
        import numpy as np
        def scale(x: np.ndarray, out):
            np.multiply(x, 2.0, out=out)
        def total(x: np.ndarray, out=None):
            return np.sum(x, axis=0, out=out)
        def accumulate(x: np.ndarray, *, out):
            np.add.reduceat(x, [0, 2], out=out)
    """
    assert [line for line, code in _at(source) if code == "CPN006"] == [4]


def test_swaps_and_rotations_of_arrays_in_loops() -> None:
    source = """
        import numpy as np
        a, b, c = np.ones(4), np.ones(4), np.ones(4)
        for step in range(3):
            a, b, c = b, c, a
            a, b = a, b
            n, m = 1, 2
            n, m = m, n
    """
    assert [line for line, code in _at(source) if code == "CPN006"] == [5]


# ------------------------------------------------------------- boolean masks
@pytest.mark.parametrize(
    ("setup", "index", "loud"),
    [
        ("m = a > 0.5", "m", True),
        ("m = (a > 0.1) & (a < 0.9)", "m", True),
        ("m = ~np.isfinite(a)", "m", True),
        ("m = np.zeros(8, dtype=bool)", "m", True),
        ("m = np.ones(8, dtype=np.bool_)", "m", True),
        ("m = a.astype(bool)", "m", True),
        ("m = np.logical_and(a > 0, a < 1)", "m", True),
        ("m = np.argsort(a)", "m", False),
        ("m = np.nonzero(a > 0.5)", "m", False),
        ("m = a > 0.5\nm = np.arange(4)", "m", False),
        ("m = [True, False] * 4", "m", False),
        ("pass", "a > np.sum(a)", False),  # a comparison with a 0-d result is still a mask
    ],
)
def test_what_counts_as_a_boolean_mask(setup: str, index: str, loud: bool) -> None:
    source = f"import numpy as np\na = np.linspace(0.0, 1.0, 8)\n{setup}\nsel = a[{index}]\n"
    expected = loud or index == "a > np.sum(a)"
    assert ("CPN007" in {c for _, c in _at(source)}) is expected


def test_only_masks_of_the_arrays_own_shape_count() -> None:
    # A row mask or a mask in a tuple index is advanced indexing (Doctor's
    # AdvancedIndexingCheck); cuPyNumeric 26.6.1 cannot write through a row mask.
    source = """
        import numpy as np
        g = np.ones((8, 8))
        a = np.linspace(0.0, 1.0, 64)
        b = np.linspace(1.0, 2.0, 64)
        rows = g[:, 0] > 0.5
        r1 = g[rows]
        r2 = g[rows, :]
        r3 = g[g[:, 1] > 0.5]
        r4 = a[b > 1.5]
        r5 = g[g > 1.0]
        flags = np.isfinite(g) & (g > 0.0)
        g[flags] = 0.0
        r6 = a[np.zeros(64, dtype=bool)]
        r7 = a[np.zeros(32, dtype=bool)]
    """
    assert [line for line, code in _at(source) if code == "CPN007"] == [10, 11, 13, 14]


def test_writes_through_flat_and_constant_where_are_not_what_scales() -> None:
    source = """
        import numpy as np
        a = np.ones(8)
        m = a > 0.5
        a.flat[m] = 0.0
        np.copyto(a, 2.0, where=True)
        np.copyto(a, 2.0, where=m)
    """
    assert _at(source, {"CPN004", "CPN007"}) == [(7, "CPN004")]


def test_a_ufunc_where_mask_is_not_what_scales() -> None:
    # cuPyNumeric 26.6.1 raises NotImplementedError for it
    source = """
        import numpy as np
        a = np.ones(8)
        c = np.zeros(8)
        np.divide(a, a, out=c, where=a != 0.0)
        d = np.add(a, 1.0, where=True) * 2.0
    """
    assert _at(source, SCALES) == [(6, "CPN001")]


# ---------------------------------------------- what other rules report instead
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
    assert _at(source, SCALES) == []


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
    assert [line for line, code in _at(source) if code == "CPN001"] == [11]


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
    assert _at(source, SCALES) == [(9, "CPN001")]


# ------------------------------------------------------------------- SciPy
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
    found = _findings(source, {"CPN301"})
    assert [(f.line, f.in_loop) for f in found] == [(9, True), (11, False)]
    assert "every iteration of the loop at line 8" in found[0].message
    assert "one-off boundary" in found[1].message
    assert found[0].data["module"] == "scipy.linalg" and found[0].data["arrays"] == ["A"]


def test_scipy_without_scipy_imports_is_quiet() -> None:
    assert _at("import numpy as np\nimport mylib as scipy\nr = scipy.linalg.lu(np.eye(3))\n") == []


# ------------------------------------------------------------ factorisations
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
    found = {f.line: f for f in _findings(source, {"CPN302"})}
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
    found = {f.line: f.message for f in _findings(source, {"CPN302"})}
    assert "more columns than rows" in found[5]
    assert "4 × 5 × 5 stack makes it raise" in found[6]
    assert "raise" not in found[7]


# ------------------------------------------------------------------------ FFT
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
    (finding,) = _findings(f"import numpy as np\n{setup}\ny = {call}\n", {"CPN303"})
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
    found = _findings(source, {"CPN303"})
    assert found[0].data["per_iteration_loop"] == 4 and "(RR-batch)" in found[0].message
    assert all(f.data["per_iteration_loop"] is None for f in found[1:])  # a time loop, not one per signal


# ----------------------------------------------------------------- random
def test_random_numbers_are_one_note_per_stream() -> None:
    source = """
        import numpy as np
        np.random.seed(1)
        a = np.random.rand(8)
        rng = np.random.default_rng(7)
        for k in range(4):
            b = rng.normal(0.0, 1.0, 8) + np.random.randn(8)
        c = rng.integers(0, 10, 8)
    """
    found = _findings(source, {"CPN304"})
    assert [(f.line, f.data["stream"], f.data["calls"], f.in_loop) for f in found] == [
        (3, "module", 3, True),
        (5, "generator", 3, True),
    ]
    assert found[0].data["apis"] == ["np.random.seed", "np.random.rand", "np.random.randn"]
    assert found[1].data["seeds"] == ["7"] and found[1].data["lines"] == [5, 7, 8]
    assert "seed 7" in found[1].message


def test_draws_from_a_host_alias_generator_are_not_device_arrays() -> None:
    text = "import cupynumeric as np\nimport numpy as onp\nh = onp.random.default_rng(0).normal(size=8)\nd = np.random.default_rng(0).normal(size=8)\n"
    tree = ast.parse(text)
    model = FileModel(tree, text)
    host, device = (stmt.value for stmt in tree.body[2:])  # type: ignore[attr-defined]
    assert model.kind(host) is not Kind.DEVICE
    assert model.kind(device) is Kind.DEVICE
    assert _at(text.replace("normal(size=8)", "normal(size=8) * 2.0"), SCALES) == [(4, "CPN001")]


def test_host_alias_generators_are_exempt() -> None:
    source = """
        import cupynumeric as np
        import numpy as onp
        rng = onp.random.default_rng(0)
        x = rng.normal(size=8)
        y = onp.random.rand(8)
    """
    assert _at(source, {"CPN304"}) == []


# ------------------------------------------------------------ solver sizes
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
    (finding,) = _findings(source, {"CPN305"})
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
    (finding,) = _findings(source, {"CPN305"})
    assert finding.data["per_iteration_loop"] == 6 and "one problem per iteration" in finding.message


# -------------------------------------------------------------- literal shapes
def _shape(source: str):
    text = textwrap.dedent(source)
    tree = ast.parse(text)
    model = FileModel(tree, text)
    probe = tree.body[-1]
    assert isinstance(probe, ast.Assign)
    return model.literal_shape(probe.value)


@pytest.mark.parametrize(
    ("body", "shape"),
    [
        ("x = np.zeros((3, 4))", (3, 4)),
        ("x = np.random.rand(5, 6)", (5, 6)),
        ("x = np.eye(7)", (7, 7)),
        ("x = np.zeros((3, 4)).T", (4, 3)),
        ("x = np.ones((2, 3, 4)) * 2.0 + np.ones(4)", (2, 3, 4)),
        ("x = np.ones(12).reshape(3, 4)", (3, 4)),
        ("x = np.random.default_rng(0).standard_normal((8, 2))", (8, 2)),
        ("N = 16\nx = np.zeros((N, N))", (16, 16)),
        ("x = np.zeros((3, 4)) + np.zeros((5, 4))", None),  # does not broadcast
        ("x = np.zeros(n)", None),
        ("x = np.zeros(3)\nx = np.zeros(4)", (4,)),  # the binding that reaches
        ("x = np.linspace(0.0, 1.0, 11)", (11,)),
        ("x = np.linspace(0.0, 1.0)", (50,)),
        ("x = np.arange(2, 11, 3)", (3,)),
        ("x = np.arange(10)", (10,)),
        ("x = np.zeros((3, 4)) @ np.zeros((4, 5))", (3, 5)),
        ("x = np.logspace(0, 1, 1000)", (1000,)),
        ("x = np.random.binomial(10, 0.5, 1000)", (1000,)),
        ("x = np.random.exponential(1.0, 1000)", (1000,)),
        ("x = np.sum(np.ones((3, 4)), axis=0)", (4,)),
        ("x = np.sum(np.ones((3, 4)))", ()),
    ],
)
def test_literal_shapes(body: str, shape) -> None:
    source = "import numpy as np\nn = input()\n" + body + "\nprobe = x\n"
    assert _shape(source) == shape


def test_broadcast() -> None:
    assert broadcast((8, 1, 3), (4, 3)) == (8, 4, 3)
    assert broadcast((2, 3), (3, 2)) is None


# ------------------------------------------------------------- robustness
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
    assert _at(first) == [(3, "CPN001")]
    assert _at(second) == []
    assert _at(first) == [(3, "CPN001")]


# -------------------------------------------------------------- real flake8
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
