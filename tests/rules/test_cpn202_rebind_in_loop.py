"""CPN202 (rebind-in-loop) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

import pytest

from cpn_lint import lint_source


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


def _lines(code: str, source: str) -> list[int]:
    return [f.line for f in _findings(code, source)]


# ---------------------------------------------------------------------- CPN202
def test_cpn202_reports_at_the_assignment_with_the_ufunc_chain() -> None:
    (finding,) = _findings("CPN202", "import numpy as np\nx = np.ones(4)\ny = np.ones(4)\nfor _ in range(9):\n    x = y - x\n")
    assert (finding.line, finding.col) == (5, 4)
    assert "np.subtract(y, x, out=x)" in finding.message and finding.data["name"] == "x"


@pytest.mark.parametrize(
    "loop",
    [
        "for _ in range(9):\n    x = np.add(x, y, out=x)\n",  # already writes into x
        "while x > 0.5:\n    x = x * 0.5\n",  # a truth test: a single number
        "for _ in range(9):\n    z = x\n    z = z * 2.0\n",  # fresh in the iteration
        "for _ in range(9):\n    x = (x + y)[::2]\n",  # not x's buffer any more
    ],
)
def test_cpn202_quiet_cases(loop: str) -> None:
    assert _lines("CPN202", "import numpy as np\nx = np.ones(4)\ny = np.ones(4)\n" + loop) == []


def test_cpn202_follows_a_name_back_to_a_reduction() -> None:
    source = (
        "import numpy as np\nu = np.ones(4)\nbeta = np.linalg.norm(u)\nphibar = beta\n"
        "for k in range(9):\n    phibar = 0.5 * phibar\n"
    )
    assert _lines("CPN202", source) == []


# ---------------------------------------------- solver loops (issue 23)
# A conjugate-gradient loop (also one that starts at -warmup) and an explicit
# Euler step are CPN202 as soon as the model knows the parameters are arrays.
CG_WITH_SHAPE = """
    import numpy as np
    def cg(A, b, max_iters, warmup=5):
        x = np.zeros(A.shape[0])
        r = b - A @ x
        p = r.copy()
        for k in range(-warmup, max_iters):
            Ap = A @ p
            alpha = (r @ r) / (p @ Ap)
            x = x + alpha * p
            r = r - alpha * Ap
        return x
    """


def test_cg_loop_from_a_negative_start_is_cpn202() -> None:
    lines = [f.line for f in lint_source(textwrap.dedent(CG_WITH_SHAPE)) if f.code == "CPN202"]
    assert lines == [10, 11]


# Parameters whose only array evidence is `A @ x` or `x0.copy()` (SPEC §3
# lists both): the model takes them for arrays, whether or not the file calls
# the function, so these solver loops are reported.
UNTYPED_SOLVERS = {
    "cg": """
        import numpy as np
        def cg(A, b, x0, max_iters):
            x = x0.copy()
            r = b - A @ x
            p = r.copy()
            for k in range(-5, max_iters):
                Ap = A @ p
                alpha = (r @ r) / (p @ Ap)
                x = x + alpha * p
                r = r - alpha * Ap
            return x
        """,
    "euler": """
        import numpy as np
        def euler(f, u0, dt, n):
            u = u0.copy()
            for i in range(n):
                u = u + dt * f(u)
            return u
        """,
}


@pytest.mark.parametrize("name", sorted(UNTYPED_SOLVERS))
def test_solver_loops_on_untyped_parameters_are_cpn202(name: str) -> None:
    expected = {"cg": [10, 11], "euler": [6]}[name]
    assert [f.line for f in lint_source(textwrap.dedent(UNTYPED_SOLVERS[name])) if f.code == "CPN202"] == expected
