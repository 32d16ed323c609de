"""CPN106–CPN111 beyond their examples and fixtures: positions, messages,
deduplication, the cheap pre-checks, and the model facts these rules rely on."""

from __future__ import annotations

import ast
import textwrap

import pytest

from cpn_lint import lint_source
from cpn_lint.engine import LintOptions, analyze_source
from cpn_lint.model import FileModel, Kind


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


def _model(source: str) -> FileModel:
    text = textwrap.dedent(source)
    return FileModel(ast.parse(text), text)


def _name_kinds(model: FileModel, name: str) -> list[Kind]:
    return [model.kind(n) for n in model.nodes(ast.Name) if n.id == name and isinstance(n.ctx, ast.Load)]


# ---------------------------------------------------------------- model facts
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


# ---------------------------------------------------------------- pre-checks
@pytest.mark.parametrize(
    "source",
    [
        "import numpy as np\na = np.zeros(3, dtype=np.float32)\nb = a.reshape(3, 1)\n",
        '"""Docs::\n\n    example\n"""\nimport numpy as np\na = np.ones(2)[1:]\n',
    ],
)
def test_files_without_candidates_never_parse_with_ast_grep(source: str) -> None:
    options = LintOptions(assessment=True, codes=frozenset({"CPN106", "CPN107", "CPN109"}))
    result = analyze_source(source, "<test>", options, keep_model=True)
    assert result.model is not None
    assert "structural" not in result.model.__dict__


# -------------------------------------------------------------------- CPN106
def test_strided_slice_reports_once_per_subscript_and_lists_steps() -> None:
    (finding,) = _findings("CPN106", "import numpy as np\ng = np.zeros((4, 4))\nh = g[::2, ::3]\n")
    assert "step 2 and step 3" in finding.message


def test_chained_strided_slices_report_once() -> None:
    assert len(_findings("CPN106", "import numpy as np\na = np.arange(8)\nb = a[::2][::2]\n")) == 1


def test_strided_slice_steps_from_constants() -> None:
    source = "import numpy as np\nSTEP = 2\nONE = 1\na = np.arange(8)\nb = a[::STEP]\nc = a[::ONE]\nd = a[::+1]\n"
    findings = _findings("CPN106", source)
    assert [(f.line, "step 2" in f.message) for f in findings] == [(5, True)]


def test_strided_slice_column_is_a_byte_offset() -> None:
    (finding,) = _findings("CPN106", "import numpy as np\na = np.arange(4)\ns = 'é'; b = a[::2]\n")
    assert finding.col == len("s = 'é'; b = ".encode())


def test_strided_slice_in_loop_is_marked() -> None:
    (finding,) = _findings("CPN106", "import numpy as np\na = np.arange(8)\nfor i in range(3):\n    a[::2] += 1\n")
    assert finding.in_loop


def test_strided_slice_of_shadowed_slice_is_quiet() -> None:
    source = "import numpy as np\ndef slice(a, b, c):\n    return 0\na = np.arange(4)\nb = a[slice(0, 4, 2)]\n"
    assert _findings("CPN106", source) == []


# -------------------------------------------------------------------- CPN107
def test_object_dtype_reports_at_keyword_and_positional_argument() -> None:
    source = "import numpy as np\na = np.array([1], dtype=object)\nb = np.empty(2, 'O')\n"
    findings = _findings("CPN107", source)
    assert [(f.line, f.col) for f in findings] == [(2, len("a = np.array([1], ")), (3, len("b = np.empty(2, "))]


def test_object_dtype_string_only_in_dtype_position() -> None:
    # 'O' as the fill value of np.full is data, not a dtype.
    assert _findings("CPN107", "import numpy as np\na = np.full(3, 'O')\nb = np.array(['O'])\n") == []


def test_object_dtype_column_on_non_ascii_line() -> None:
    (finding,) = _findings("CPN107", "import numpy as np\nlabel = 'ü'; a = np.empty(2, dtype=object)\n")
    assert finding.col == len("label = 'ü'; a = np.empty(2, ".encode())


# -------------------------------------------------------------------- CPN108
def test_mpi4py_one_finding_per_import_statement() -> None:
    source = "import numpy as np, mpi4py\nfrom mpi4py import MPI, futures\nx = np.ones(3)\n"
    assert [f.line for f in _findings("CPN108", source)] == [1, 2]


def test_mpi4py_star_import_is_reported() -> None:
    assert [f.line for f in _findings("CPN108", "from mpi4py import *\nimport numpy as np\nx = np.ones(3)\n")] == [1]


def test_mpi4py_without_numpy_calls_is_quiet() -> None:
    assert _findings("CPN108", "import numpy as np\nfrom mpi4py import MPI\nrank = MPI.COMM_WORLD.Get_rank()\n") == []


def test_mpi4py_lists_array_calls_through_bindings_only() -> None:
    source = """
        import numpy as np
        from mpi4py import MPI
        comm = MPI.COMM_WORLD
        dup = comm.Dup()
        data = np.ones(8)
        dup.Allreduce(MPI.IN_PLACE, data)
        comm.send(data, dest=1)
        comm.send({'k': 1}, dest=1)
        queue = []
        queue.reduce(data)
        """
    (finding,) = _findings("CPN108", source)
    assert finding.data["mpi_array_calls"] == ["dup.Allreduce", "comm.send"]
    assert "dup.Allreduce (line 7)" in finding.message


def test_mpi4py_truncates_a_long_call_list() -> None:
    calls = "".join(f"comm.Bcast(buf, root={i})\n" for i in range(6))
    source = "import numpy as np\nfrom mpi4py import MPI\ncomm = MPI.COMM_WORLD\nbuf = np.ones(3)\n" + calls
    (finding,) = _findings("CPN108", source)
    assert "and 2 more" in finding.message


# -------------------------------------------------------------------- CPN109
@pytest.mark.parametrize("value", ["'c'", "'C'", "None"])
def test_order_default_values_are_quiet(value: str) -> None:
    assert _findings("CPN109", f"import numpy as np\na = np.ones(4)\nb = a.reshape(2, 2, order={value})\n") == []


def test_order_keyword_position_is_the_keyword() -> None:
    (finding,) = _findings("CPN109", "import numpy as np\na = np.ones(4)\nb = a.reshape(2, 2, order='F')\n")
    assert (finding.line, finding.col) == (3, len("b = a.reshape(2, 2, "))


def test_order_on_unknown_receiver_is_quiet() -> None:
    source = "import numpy as np\nimport scipy.sparse as sp\nm = sp.eye(3)\nr = m.reshape((9, 1), order='F')\n"
    assert _findings("CPN109", source) == []


# -------------------------------------------------------------------- CPN110
def test_builtin_chain_reports_once_at_the_consumer() -> None:
    (finding,) = _findings("CPN110", "import numpy as np\na = np.arange(3)\nd = dict(enumerate(map(abs, a)))\n")
    assert finding.col == len("d = ")


def test_builtin_nested_consumers_report_the_inner_one() -> None:
    # sorted(a) builds a list; list() of that list iterates no array.
    (finding,) = _findings("CPN110", "import numpy as np\na = np.arange(3)\nb = list(sorted(a))\n")
    assert finding.col == len("b = list(")


def test_builtin_with_starred_argument_is_quiet() -> None:
    assert _findings("CPN110", "import numpy as np\na = np.arange(3)\nb = max(*a)\nc = list(zip(*a))\n") == []


def test_builtin_shadowed_by_import_is_quiet() -> None:
    assert _findings("CPN110", "from numpy import arange, max\na = arange(3)\nm = max(a)\n") == []


# -------------------------------------------------------------------- CPN111
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
