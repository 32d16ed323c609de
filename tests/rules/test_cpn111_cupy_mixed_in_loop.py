"""CPN111 (cupy-mixed-in-loop) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

from cpn_lint import lint_source


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


# ---------------------------------------------------------------------- CPN111
def test_cupy_mixing_in_a_comprehension() -> None:
    source = """
        import cupy as cp
        import numpy as np
        xs = [np.ones(3), np.ones(3)]
        out = [np.asarray(cp.asnumpy(cp.sqrt(cp.asarray(x)))) + 1.0 for x in xs]
        """
    (finding,) = _findings("CPN111", source)
    assert "comprehension" in finding.message


def test_cupy_file_without_numpy_is_quiet() -> None:
    source = "import cupy as cp\nx = cp.ones(3)\nfor i in range(3):\n    y = cp.asnumpy(cp.asarray(x))\n"
    assert _findings("CPN111", source) == []


def test_cupy_one_finding_per_outermost_loop_with_all_crossings() -> None:
    source = """
        import cupy as cp
        import cupynumeric as np
        a = np.ones(4)
        for step in range(3):
            for k in range(2):
                g = cp.asarray(a)
                a = a + cp.asnumpy(g * 2)
        """
    (finding,) = _findings("CPN111", source)
    assert finding.line == 7
    assert finding.data["crossings"] == ["cp.asarray(a)", "cp.asnumpy(g * 2)"]


def test_both_branches_of_an_if_reach_a_later_use() -> None:
    # Real-world trial: `idxs = range(n)` in an if and an array draw in its
    # else; only the else binding was seen, so the loop and int(i) were reported.
    source = (
        "import numpy as np\ndef pick(rows, n, k):\n    if n >= k:\n        idxs = range(n)\n    else:\n"
        "        idxs = np.random.randint(n, size=k)\n    for i in idxs:\n        print(rows[int(i)])\n"
    )
    assert _findings("CPN103", source) == [] and _findings("CPN104", source) == []
    # arrays on both branches are still arrays; an earlier list both branches replace is dead
    both = (
        "import numpy as np\ndef pick(n, flag):\n    x = []\n    if flag:\n        x = np.ones(n)\n    else:\n"
        "        x = np.zeros(n)\n    for v in x:\n        print(v)\n"
    )
    assert len(_findings("CPN103", both)) == 1


def test_densified_sparse_matrix_and_killed_branch_bindings() -> None:
    # `A = A.toarray()` is a dense array again; and a list an if-branch
    # replaces before the use (`x = []` ... `x = np.array(x)`) does not reach it.
    source = (
        "import numpy as np\ndef gold(A, x, b, steps):\n    A = A.toarray()\n    L = np.tril(A.dot(A.T))\n"
        "    for _ in range(steps):\n        x = x + A.T.dot(b - A.dot(x))\n    return x, A.T\n"
    )
    assert len(_findings("CPN202", source)) == 1
    build = (
        "import numpy as np\ndef build(parts=None):\n    if parts is None:\n        parts = []\n"
        "        for k in range(3):\n            parts.append(np.ones(k))\n        parts = np.array(parts, dtype=object)\n"
        "    for p in parts:\n        print(p)\n"
    )
    assert len(_findings("CPN103", build)) == 1


# ------------------------------------------- realistic mixed code (issue 23)
def test_method_the_loop_calls_converts_both_ways() -> None:
    source = textwrap.dedent("""
        import cupy
        import numpy

        class Model:
            def __init__(self, n):
                self.state = numpy.zeros(n)
                self.w = cupy.ones(n)

            def step(self):
                s = cupy.asarray(self.state) * self.w
                self.state = s.get() + numpy.sin(self.state)

            def run(self, steps):
                for _ in range(steps):
                    self.step()
        """)
    (finding,) = [f for f in lint_source(source) if f.code == "CPN111"]
    assert finding.line == 11
    assert finding.data["crossings"] == ["cupy.asarray(self.state) in 'step'", "s.get() in 'step'"]
    assert finding.message.startswith("loop 'for _ in range(steps)' (line 15) moves arrays")


def test_per_frame_filter_from_cupyx_is_a_round_trip() -> None:
    source = textwrap.dedent("""
        import numpy as np
        import cupy as cp
        from cupyx.scipy import ndimage as cnd

        def smooth_frames(frames, sigma):
            out = np.empty_like(frames)
            for k in range(frames.shape[0]):
                g = cnd.gaussian_filter(cp.asarray(frames[k]), sigma)
                out[k] = cp.asnumpy(g)
            return out
        """)
    assert [(f.line, f.code) for f in lint_source(source) if f.code == "CPN111"] == [(9, "CPN111")]
