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


# ------------------------------------------- parameters used as arrays (SPEC §3)
@pytest.mark.parametrize(
    ("body", "name"),
    [
        ("n, m = np.shape(p)\n    return n * m", "p"),
        ("return np.size(p)", "p"),
        ("return np.ndim(p) == 2", "p"),
        ("return len(p.shape)", "p"),
        ("return p @ q", "p"),
        ("return p.dot(q)", "p"),
        ("return p.reshape(-1)", "p"),
        ("return p.sum()", "p"),
        ("return p.copy()", "p"),
        ("return np.dot(p, q)", "p"),
        ("for v in p.flat:\n        print(v)", "p"),
        ("x = np.asarray(q)\n    return np.sum(p) + x", "p"),
        ("for i, row in enumerate(p):\n        print(row @ q)", "p"),
        ("for i, row in enumerate(p):\n        print(row.shape)", "p"),
    ],
)
def test_a_parameter_used_as_an_array_is_one(body: str, name: str) -> None:
    # whether or not the file calls the function: kernels rarely have callers
    model = _model(f"import numpy as np\ndef f(p, q):\n    {body}\n")
    assert _name_kinds(model, name)[0] is Kind.DEVICE


@pytest.mark.parametrize("body", ["return q @ p", "return q.dot(p)", "return np.dot(q, p)"])
def test_the_partner_of_a_product_is_an_array(body: str) -> None:
    # SPEC §3: the x of a @ x, a.dot(x) and np.dot(a, x) is used as an array
    source = f"import numpy as np\ndef f(p, q):\n    {body}\n"
    assert _name_kinds(_model(source), "p")[0] is Kind.DEVICE


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("import numpy as np\ndef mv(A, x):\n    y = np.zeros(A.shape[0])\n    for i in range(A.shape[0]):\n"
         "        y[i] = A[i, :] @ x\n    return y\n", 4),
        ("import numpy as np\ndef rows(m, w):\n    out = np.zeros(m.shape[0])\n    for r, row in enumerate(m):\n"
         "        out[r] = np.dot(row, w)\n    return out\n", 4),
        ("import numpy as np\ndef gs(A, b, x):\n    for i in range(A.shape[0]):\n        s = A[i] @ x - A[i, i] * x[i]\n"
         "        x[i] = (b[i] - s) / A[i, i]\n    return x\n", 3),
    ],
)
def test_a_vector_contracted_with_a_picked_row_is_row_sized(source: str, line: int) -> None:
    # the partner is an array now, and one number per pass comes out of its
    # product with the row the loop picks: the loop stays an element loop
    assert [f.line for f in _findings("CPN101", source)] == [line]


@pytest.mark.parametrize(
    "body",
    [
        "d = p.copy()\n    return d, p['k']",  # a dict: subscripted with a key
        "xs = p.copy()\n    p.append(1)\n    return xs",  # a list
        "a = p.asarray(q)\n    return p.sum(a)",  # an array namespace (xp)
        "for s in p:\n        print(s.shape)",  # a list of arrays: rows without numbers
    ],
)
def test_containers_and_namespaces_with_array_methods_are_not_arrays(body: str) -> None:
    model = _model(f"import numpy as np\ndef f(p, q):\n    {body}\n")
    assert _name_kinds(model, "p")[0] is Kind.UNKNOWN


def test_a_file_function_returning_a_list_is_not_made_an_array_by_its_use() -> None:
    model = _model("import numpy as np\ndef parts():\n    return [1, 2]\ndef f():\n    p = parts()\n    return p.copy()\n")
    assert _name_kinds(model, "p") == [Kind.UNKNOWN]


def test_kernels_on_parameters_used_as_arrays_are_element_loops() -> None:
    scale = (
        "import numpy as np\ndef scale(X, c):\n    n, m = np.shape(X)\n    for i in range(n):\n"
        "        for j in range(m):\n            X[i][j] = X[i][j] * c\n    return X\n"
    )
    assert [f.line for f in _findings("CPN101", scale)] == [4]
    rows = "import numpy as np\ndef predict(X, w):\n    out = np.zeros(len(X))\n    for i, row in enumerate(X):\n        out[i] = row @ w\n    return out\n"
    assert [f.line for f in _findings("CPN103", rows)] == [4]


# ------------------------------------------------------------ self.x attributes
def test_an_attribute_set_from_a_parameter_and_used_as_an_array_is_one() -> None:
    source = (
        "import numpy as np\nclass Model:\n    def __init__(self, X):\n        self.X = X\n"
        "    def fit(self):\n        n, m = self.X.shape\n        for i in range(n):\n            for j in range(m):\n"
        "                self.X[i, j] = self.X[i, j] * 2\n"
    )
    model = _model(source)
    assert {model.kind(a) for a in model.nodes(ast.Attribute) if ast.unparse(a) == "self.X"} == {Kind.DEVICE}
    assert [f.line for f in _findings("CPN101", source)] == [7]


def test_an_attribute_set_in_another_module_and_used_as_an_array_is_one() -> None:
    source = (
        "import numpy as np\nfrom base import Base\nclass Model(Base):\n    def fit(self):\n"
        "        for i in range(self.W.shape[0]):\n            self.W[i, 0] = 0.0\n"
    )
    model = _model(source)
    assert {model.kind(a) for a in model.nodes(ast.Attribute) if ast.unparse(a) == "self.W"} == {Kind.DEVICE}
    assert [f.line for f in _findings("CPN101", source)] == [5]


def test_an_attribute_only_a_ufunc_reads_is_not_an_array() -> None:
    # np.isfinite(self.energy) takes numbers as well: a class attribute needs more
    source = "import numpy as np\nclass S:\n    def check(self):\n        return np.isfinite(self.energy)\n"
    model = _model(source)
    (attribute,) = [a for a in model.nodes(ast.Attribute) if ast.unparse(a) == "self.energy"]
    assert model.kind(attribute) is Kind.UNKNOWN


# ------------------------------------------------- arithmetic on slices
@pytest.mark.parametrize("expression", ["x[1:] - x[:-1]", "x[1:] / 2.0", "x[::2] ** 2", "3 - x[2:]"])
def test_arithmetic_no_sequence_supports_on_a_slice_makes_a_parameter_an_array(expression: str) -> None:
    model = _model(f"import numpy as np\ndef f(x):\n    d = {expression}\n    return d\n")
    assert _name_kinds(model, "x")[0] is Kind.DEVICE


@pytest.mark.parametrize("expression", ["x[1:] + x[:-1]", "x[1:] * 2", "x[1:] % 2", "x[1:] - y"])
def test_sequence_arithmetic_on_a_slice_is_no_evidence(expression: str) -> None:
    # + concatenates and * repeats lists, % formats strings; y may be anything
    model = _model(f"import numpy as np\ndef f(x, y):\n    d = {expression}\n    return d\n")
    assert _name_kinds(model, "x")[0] is Kind.UNKNOWN


def test_slice_arithmetic_is_no_evidence_beside_pandas() -> None:
    # a Series subtracts its slices too (aligned by label)
    model = _model("import numpy as np\nimport pandas as pd\ndef f(x):\n    return x[1:] - x[:-1]\n")
    assert _name_kinds(model, "x")[0] is Kind.UNKNOWN


def test_a_builtin_max_over_differences_of_a_parameter_is_cpn110() -> None:
    found = _findings("CPN110", """
        import numpy as np
        def spacing(wvl):
            sp = wvl[1:] - wvl[:-1]
            return max(sp) - min(sp)
        """)
    assert [f.line for f in found] == [5, 5]
