"""model.hoisting: loop invariance, escapes and hoisting targets (CPN201/CPN204 and cpn-lint fix rely on them)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from cpn_lint.model import FileModel
from cpn_lint.model.hoisting import Invariance, escapes_iteration, hoist_frame, uses_reached_by


def _model(source: str) -> FileModel:
    text = textwrap.dedent(source)
    return FileModel(ast.parse(text), text)


def _call(model: FileModel, text: str) -> ast.Call:
    return next(c for c in model.nodes(ast.Call) if ast.unparse(c) == text)


# -------------------------------------------------------------- model.hoisting
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
