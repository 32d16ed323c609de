"""CPN201–CPN206 beyond their examples and fixtures: positions, messages,
deduplication, the decisions on ambiguous cases, and the loop-invariance
facts of ``cpn_lint.model.hoisting`` the rules rely on."""

from __future__ import annotations

import ast
import textwrap

import pytest

from cpn_lint import lint_source
from cpn_lint.model import FileModel
from cpn_lint.model.hoisting import Invariance, escapes_iteration, hoist_frame, uses_reached_by


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


def _lines(code: str, source: str) -> list[int]:
    return [f.line for f in _findings(code, source)]


def _model(source: str) -> FileModel:
    text = textwrap.dedent(source)
    return FileModel(ast.parse(text), text)


def _call(model: FileModel, text: str) -> ast.Call:
    return next(c for c in model.nodes(ast.Call) if ast.unparse(c) == text)


# ------------------------------------------------------------ model.hoisting
def test_swapped_buffers_keep_their_shape_but_not_their_values() -> None:
    model = _model(
        """
        import numpy as np
        u = np.zeros(8)
        w = np.zeros(8)
        for step in range(10):
            np.add(u, 1.0, out=w)
            u, w = w, u
        """
    )
    frame = model.loops[0]
    u = next(n for n in model.nodes(ast.Name) if n.id == "u" and isinstance(n.ctx, ast.Load) and n.lineno == 6)
    facts = Invariance(model, frame)
    assert facts.invariant(u, shape_only=True)
    assert not facts.invariant(u)


def test_names_changed_in_the_loop_are_not_invariant() -> None:
    model = _model(
        """
        import numpy as np
        items = []
        n = 4
        class Grid:
            def run(self):
                for t in range(10):
                    items.append(t)
                    self.n = t
                    a = np.zeros(len(items))
                    b = np.zeros(self.n)
                    c = np.zeros(n)
                    d = np.zeros(t)
        """
    )
    frame = model.loops[0]
    facts = Invariance(model, frame)
    shapes = {ast.unparse(c): c.args[0] for c in model.nodes(ast.Call) if ast.unparse(c).startswith("np.zeros")}
    assert not facts.invariant(shapes["np.zeros(len(items))"])
    assert not facts.invariant(shapes["np.zeros(self.n)"])
    assert facts.invariant(shapes["np.zeros(n)"])
    assert not facts.invariant(shapes["np.zeros(t)"])


def test_hoist_frame_is_the_outermost_invariant_loop_and_needs_a_hot_one() -> None:
    model = _model(
        """
        import numpy as np
        for epoch in range(5):
            for batch in range(100):
                g = np.empty(16)
                h = np.empty(batch)
        for axis in range(3):
            k = np.empty(16)
        """
    )
    g, k = (c for c in model.nodes(ast.Call) if ast.unparse(c) == "np.empty(16)")
    h = _call(model, "np.empty(batch)")
    assert hoist_frame(model, g, g.args).line == 3  # type: ignore[union-attr]
    assert hoist_frame(model, h, h.args) is None
    assert hoist_frame(model, k, k.args) is None  # only three axes


@pytest.mark.parametrize(
    ("statement", "kept"),
    [
        ("buf = np.zeros(4)\n            out.append(buf)", True),
        ("cache[t] = np.zeros(4)", True),
        ("self_like.buf = np.zeros(4)", True),
        ("pair = [np.zeros(4), 1]", True),
        ("buf = np.zeros(4)\n            arr, buf = buf, arr", False),
        ("buf = np.zeros(4)\n            np.add(arr, 1.0, out=buf)", False),
        ("grid[t] = np.zeros(4)", False),
    ],
)
def test_escapes_iteration(statement: str, kept: bool) -> None:
    model = _model(
        f"""
        import numpy as np
        out = []
        cache = {{}}
        arr = np.ones(4)
        grid = np.zeros((10, 4))
        self_like = object()
        for t in range(10):
            {statement}
        """
    )
    call = _call(model, "np.zeros(4)")
    assert escapes_iteration(model, call, model.loops[0]) is kept


def test_uses_reached_by_stops_at_a_rebinding() -> None:
    model = _model("import numpy as np\nd = np.ones(3)\nprint(d)\nd = 1\nprint(d)\n")
    target = next(n for n in model.nodes(ast.Name) if n.id == "d" and isinstance(n.ctx, ast.Store))
    assert [u.lineno for u in uses_reached_by(model, target)] == [3]


# -------------------------------------------------------------------- CPN201
def test_cpn201_reports_at_the_call_and_names_the_hoisting_loop() -> None:
    (finding,) = _findings(
        "CPN201",
        """
        import numpy as np
        field = np.ones((4, 4))
        for epoch in range(3):
            for batch in range(10):
                grad = np.empty((4, 4))
        """,
    )
    assert (finding.line, finding.col) == (6, 15)
    assert "loop 'for epoch in range(3)' (line 4)" in finding.message
    assert finding.in_loop and finding.data == {"kind": "allocation", "loop_line": 4}


@pytest.mark.parametrize(
    "body",
    [
        "if it == 0:\n            buf = np.zeros(n)",  # first iteration only
        "if it % 50 == 0:\n            snap = u.copy()",  # every N steps
        "if u[0] > 3.0:\n            keep = u.copy()\n            break",  # leaves the loop
        "try:\n            pass\n        except ValueError:\n            buf = np.zeros(n)",
        "v = np.array(u, copy=False)",
        "v = np.asarray(u)",
        "w = [np.zeros(n) for _ in range(3)]",
        "yield np.zeros(n)",
    ],
)
def test_cpn201_quiet_cases(body: str) -> None:
    source = f"import numpy as np\ndef f(n, steps):\n    u = np.ones(n)\n    for it in range(steps):\n        {body}\n"
    assert _lines("CPN201", source) == []


def test_cpn201_copy_message_points_at_copyto_and_the_swap() -> None:
    (finding,) = _findings(
        "CPN201",
        "import numpy as np\nu = np.ones(8)\nfor n in range(10):\n    un = u.copy()\n    u[1:] = un[1:] - 0.5 * un[:-1]\n",
    )
    assert "np.copyto(un, u)" in finding.message and "(u, un = un, u)" in finding.message


# -------------------------------------------------------------------- CPN202
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


# -------------------------------------------------------------------- CPN203
def test_cpn203_one_finding_per_statement() -> None:
    source = (
        "import numpy as np\nH = np.ones((1, 1))\nfor i in range(levels):\n"
        "    H = np.vstack((np.hstack((H, H)), np.hstack((H, -H))))\n"
    )
    (finding,) = _findings("CPN203", source)
    assert (finding.line, finding.col) == (4, 19)  # the first join that grows 'H'
    assert "grows 'H'" in finding.message


def test_cpn203_rebuilt_form_names_the_outer_loop_and_r_is_reported_at_the_subscript() -> None:
    source = (
        "import numpy as np\nu = np.ones(8)\nxs = np.zeros(0)\nfor step in range(5):\n    for k in range(50):\n"
        "        p = np.concatenate([u[-1:], u, u[:1]])\n        xs = np.r_[xs, u]\n"
    )
    rebuilt, grown = _findings("CPN203", source)
    assert rebuilt.data["form"] == "rebuilt" and "for step in range(5)" in rebuilt.message
    assert grown.data["form"] == "growing" and (grown.line, grown.col) == (7, 13)


# -------------------------------------------------------------------- CPN204
def test_cpn204_suggests_the_mask_in_the_same_index_position() -> None:
    (finding,) = _findings("CPN204", "import numpy as np\nA = np.ones((3, 4))\ncm = A[0] > 0\nB = A[:, np.nonzero(cm)[0]]\n")
    assert "A[:, cm]" in finding.message and (finding.line, finding.col) == (4, 9)


def test_cpn204_single_name_unpacking_and_deduplication() -> None:
    source = "import numpy as np\na = np.ones(6)\n(idx,) = np.nonzero(a > 0.5)\na[idx] = 0.0\nb = a[idx] + a[idx]\n"
    (finding,) = _findings("CPN204", source)
    assert finding.data["lines"] == [4, 5]


def test_cpn204_quiet_when_an_index_array_sits_beside_one_component() -> None:
    source = "import numpy as np\nA = np.ones((3, 3, 2))\nm = A[..., 0] > 0\nA[np.nonzero(m)[0], np.nonzero(m)[1], 1] = 0\n"
    assert _lines("CPN204", source) == []


# -------------------------------------------------------------------- CPN205
def test_cpn205_diagonal_writes_are_reported_even_when_the_copy_is_used() -> None:
    source = "import numpy as np\ndef f(m):\n    m[0, 1] = 0.0\n    d = np.diag(m)\n    d[0] = 1.0\n    return d.sum()\n"
    (finding,) = _findings("CPN205", source)
    assert finding.line == 4 and "raises in NumPy" in finding.message


def test_cpn205_scratch_flip_is_quiet_but_read_original_is_reported() -> None:
    scratch = "import numpy as np\ndef f(a: np.ndarray):\n    r = np.flip(a)\n    r[0] = 1.0\n    return r.sum()\n"
    assert _lines("CPN205", scratch) == []
    read_after = scratch.replace("return r.sum()", "return r.sum() + a.sum()")
    assert _lines("CPN205", read_after) == [3]


def test_cpn205_scratch_use_on_one_branch_ignores_reads_on_the_other() -> None:
    source = (
        "import numpy as np\ndef med(a: np.ndarray, kth, overwrite):\n    if overwrite:\n        part = a.ravel()\n"
        "        part.partition(kth)\n    else:\n        part = np.partition(a, kth)\n    return part[kth]\n"
    )
    assert _lines("CPN205", source) == []
    assert _lines("CPN205", source.replace("return part[kth]", "return part[kth] + a.sum()")) == [4]


def test_cpn205_diag_of_a_parameter_indexed_as_a_matrix() -> None:
    assert _lines("CPN205", "import numpy as np\ndef f(m):\n    x = m[0, 0]\n    d = np.diag(m)\n    d += x\n") == [4]
    assert _lines("CPN205", "import numpy as np\ndef f(v):\n    d = np.diag(v)\n    d += 1.0\n") == []


# -------------------------------------------------------------------- CPN206
@pytest.mark.parametrize(
    "write",
    ["data[0] = 1.0", "np.multiply(data, 2.0, out=data)", "np.copyto(data, 1.0)", "data.fill(0.0)"],
)
def test_cpn206_quiet_when_the_loop_writes_the_original(write: str) -> None:
    source = f"import numpy as np\ndata = np.ones(16)\nfor t in range(10):\n    {write}\n    g = data.reshape(4, 4)\n"
    assert _lines("CPN206", source) == []


def test_cpn206_reports_at_the_call() -> None:
    (finding,) = _findings("CPN206", "import numpy as np\ndata = np.ones(16)\nfor t in range(10):\n    s = 2.0 * data.reshape(4, 4)\n")
    assert (finding.line, finding.col) == (4, 14) and "reshapes 'data'" in finding.message
