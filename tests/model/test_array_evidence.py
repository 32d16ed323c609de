"""What counts as evidence that a value is an array: model facts the BLOCKS rules rely on."""

from __future__ import annotations

import ast
import textwrap

import pytest

from cpn_lint import lint_source
from cpn_lint.model import FileModel, Kind


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


def _model(source: str) -> FileModel:
    text = textwrap.dedent(source)
    return FileModel(ast.parse(text), text)


def _name_kinds(model: FileModel, name: str) -> list[Kind]:
    return [model.kind(n) for n in model.nodes(ast.Name) if n.id == name and isinstance(n.ctx, ast.Load)]


# ----------------------------------------------------------------- model facts
def test_rebinding_from_itself_keeps_array_kind() -> None:
    model = _model(
        """
        import numpy as np
        x = np.zeros(3)
        x = x + 1
        y = x
        """
    )
    assert _name_kinds(model, "x") == [Kind.DEVICE, Kind.DEVICE]


def test_loop_accumulator_sees_binding_before_loop_and_its_own() -> None:
    model = _model(
        """
        import numpy as np
        u = np.zeros(4)
        for step in range(10):
            u = u * 0.5
        """
    )
    (use,) = [n for n in model.nodes(ast.Name) if n.id == "u" and isinstance(n.ctx, ast.Load)]
    assert len(model.reaching_bindings(use)) == 2
    assert model.kind(use) is Kind.DEVICE


def test_reaching_bindings_of_builtin_is_empty() -> None:
    model = _model("import numpy as np\nt = sum([1, 2])\n")
    (name,) = [n for n in model.nodes(ast.Name) if n.id == "sum"]
    assert model.reaching_bindings(name) == []


def test_cupy_get_is_a_host_array() -> None:
    model = _model(
        """
        import cupy as cp
        import numpy as np
        g = cp.ones(3)
        h = g.get()
        """
    )
    (call,) = [c for c in model.nodes(ast.Call) if isinstance(c.func, ast.Attribute) and c.func.attr == "get"]
    assert model.kind(call) is Kind.HOST


@pytest.mark.parametrize("call", ["np.zeros(p)", "np.arange(p)", "np.full(p, 1.0)", "np.random.rand(p)", "np.save(p, a)"])
def test_shape_or_size_argument_is_not_array_evidence(call: str) -> None:
    model = _model(f"import numpy as np\na = np.ones(2)\ndef f(p):\n    b = {call}\n    return tuple(p)\n")
    assert _name_kinds(model, "p")[-1] is Kind.UNKNOWN


@pytest.mark.parametrize("call", ["np.sum(p)", "np.random.shuffle(p)", "np.take(p, [0])"])
def test_array_argument_is_array_evidence(call: str) -> None:
    model = _model(f"import numpy as np\ndef f(p):\n    b = {call}\n    return tuple(p)\n")
    assert _name_kinds(model, "p")[-1] is Kind.DEVICE


@pytest.mark.parametrize("call", ["np.asarray(p)", "np.array(p, dtype=object)", "np.atleast_1d(p)", "np.ascontiguousarray(p)"])
def test_conversion_argument_is_not_array_evidence(call: str) -> None:
    # Real-world trial: a holder object converted with np.asarray(h, dtype=object)
    # was taken for an array, so list(h) before the conversion was reported.
    model = _model(f"import numpy as np\ndef f(p):\n    b = {call}\n    return tuple(p)\n")
    assert _name_kinds(model, "p")[-1] is Kind.UNKNOWN
    assert _findings("CPN110", f"import numpy as np\ndef f(p):\n    items = list(p)\n    return {call}, items\n") == []


def test_receiver_attributes_are_not_array_evidence() -> None:
    # Real-world trial: a class with a .shape attribute (or an ndarray subclass
    # reading self.dtype) made every self.method() result an array.
    source = (
        "import numpy as np\nclass Grid:\n    def __init__(self, n):\n        self.shape = (n, n)\n"
        "    def names(self):\n        return ['a', 'b']\n    def run(self, steps):\n        n = self.shape[0]\n"
        "        for k in range(steps):\n            for name in self.names():\n                print(name, n)\n"
        "            if self.ready():\n                pass\n            kept = list(self.names())\n"
    )
    for code in ("CPN103", "CPN105", "CPN110"):
        assert _findings(code, source) == [], code
    # a plain function's parameter with the same uses is still an array
    assert _findings("CPN110", "import numpy as np\ndef f(grid):\n    n = grid.shape[0]\n    return list(grid)\n") != []


def test_sparse_matrices_are_not_arrays() -> None:
    # Real-world trial (an algebraic multigrid package): sparse matrices have
    # .shape, .T and 2-D subscripts, and were reported as NumPy arrays.
    source = (
        "import numpy as np\nfrom scipy import sparse\n"
        "def smooth(A, k):\n    S = sparse.csc_array(A.shape)\n    for _ in range(k):\n        S = S + 0.5 * S\n"
        "    return S[:, [0]].toarray()\n"
        "def relax(T, P, steps):\n    if sparse.issparse(T):\n        T = T.tocsr()\n    for _ in range(steps):\n"
        "        T = T + 0.1 * P\n    return T.dtype\n"
        "def band(M):\n    M = sparse.coo_array(M)\n    d = M.diagonal()\n    d[0] = 1.0\n    return d, M.shape\n"
    )
    for code in ("CPN202", "CPN205"):
        assert _findings(code, source) == [], code
    assert _findings("CPN202", "import numpy as np\ndef relax(T, P, steps):\n    for _ in range(steps):\n        T = T + 0.1 * P\n    return T.dtype\n") != []


def test_augmented_counter_stays_a_python_number() -> None:
    # Real-world trial: `it = 0; it += 1` lost its scalar kind. It is a Python
    # counter; np.mod of it is NumPy math on a number, a 0-d device array
    # on cuPyNumeric, so the branch syncs (the math module fixes it).
    source = (
        "import numpy as np\ndef solve(A, b, x, maxiter):\n    every = 8\n    it = 0\n    r = b - A @ x\n"
        "    while it < maxiter:\n        it += 1\n        if np.mod(it, every) and it > 0:\n            r = b - A @ x\n"
        "    return r\n"
    )
    (finding,) = _findings("CPN105", source)
    assert "np.mod() of Python numbers is a 0-d device array: use the math module" in finding.message
    model = _model(source)
    assert _name_kinds(model, "it")[-1] is Kind.SCALAR


def test_builtin_and_slice_on_shape_parameter_are_quiet() -> None:
    source = "import numpy as np\ndef make(shape, n):\n    a = np.zeros(shape) + np.arange(n)\n    return tuple(shape), shape[::-1], sum(n)\n"
    assert _findings("CPN110", source) == [] and _findings("CPN106", source) == []


def test_isinstance_narrowing_covers_the_guarded_body_only() -> None:
    model = _model(
        """
        import numpy as np
        def f(x):
            y = np.asarray(x)
            if isinstance(x, (list, tuple)):
                a = x
            else:
                b = x
            c = x if isinstance(x, list) else None
            if isinstance(x, (list, np.ndarray)):
                d = x
            return y
        """
    )
    uses = [n for n in model.nodes(ast.Name) if n.id == "x" and isinstance(n.ctx, ast.Load)]
    narrowed = {n.lineno: model.narrowed_to_non_array(n) for n in uses if model.parent(n).__class__ is not ast.Call}
    assert narrowed == {6: True, 8: False, 9: True, 11: False}
