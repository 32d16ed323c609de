"""CPN401-CPN403 (API support from the manifest) and CPN410 (out-of-scope
workloads): resolution through aliases, quiet cases, report positions and
data, and the real-flake8 split between default and assessment codes."""

from __future__ import annotations

import datetime as dt
import textwrap

import pytest

from cpn_lint import lint_source
from cpn_lint.manifest import ApiSupport, Manifest, Status
from cpn_lint.rules import _api_support

from .conftest import run_flake8


def _findings(source: str, *codes: str):
    return [f for f in lint_source(textwrap.dedent(source), assessment=True, codes=codes or None)
            if not codes or f.code in codes]


def _lines(source: str, code: str) -> list[int]:
    return [f.line for f in _findings(source, code)]


# ------------------------------------------------------------------ CPN401
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
        "import numpy as np\na = np.ones((2, 2))\nfor idx in np.ndindex(a.shape):\n    pass\nfor i, v in np.ndenumerate(a):\n    pass\n",
        "import numpy as np\na = np.ones((2, 2))\nt = [i for i, v in np.ndenumerate(a)]\n",
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
    assert dict(findings[3].data) == {"api": "numpy.interp", "status": "not-implemented", "lacks": True, "data_path": True}
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


# ------------------------------------------------------------- CPN402/403
def test_cpn402_single_gpu_calls() -> None:
    src = """\
    import numpy as np
    from numpy.linalg import qr
    m = np.ones((4, 4))
    u, s, vt = np.linalg.svd(m)
    q, r = qr(m)
    inv = np.linalg.inv(m)
    sol = np.linalg.solve(m, np.ones(4))
    """
    findings = _findings(src, "CPN402")
    assert [(f.line, f.data["api"]) for f in findings] == [
        (4, "numpy.linalg.svd"), (5, "numpy.linalg.qr"), (6, "numpy.linalg.inv")]
    assert all(f.data["status"] == "single-gpu" and not f.in_loop for f in findings)


def test_cpn403_quotes_the_manifest_note() -> None:
    src = "import numpy as np\nsig = np.ones(64)\nspec = np.fft.rfft(sig)\nshift = np.fft.fftshift(sig)\n"
    (finding,) = _findings(src, "CPN403")
    assert finding.line == 3
    assert finding.message.endswith("supports only partially across GPUs: multi-GPU partial: data-parallel axis-wise batching only")
    assert finding.data["note"] == "multi-GPU partial: data-parallel axis-wise batching only"


def test_assessment_codes_are_not_emitted_without_assessment() -> None:
    src = "import numpy as np\nm = np.ones((4, 4))\nu = np.linalg.svd(m)\nf = np.fft.fft(m[0])\ny = np.interp(1, [0], [0])\n"
    codes = {f.code for f in lint_source(src)}
    assert "CPN401" in codes and not codes & {"CPN402", "CPN403"}


# ------------------------------------------------------------------ CPN410
@pytest.mark.parametrize(
    ("source", "kind", "line"),
    [
        ("import numpy as np\nimport scipy.sparse\n", "sparse", 2),
        ("import numpy as np\nfrom scipy import sparse\n", "sparse", 2),
        ("import numpy as np\nfrom scipy.sparse.linalg import spsolve\n", "sparse", 2),
        ("import numpy as np\nimport cupyx.scipy.sparse as csp\n", "sparse", 2),
        ("import numpy as np\nfrom scipy.sparse.csgraph import dijkstra\n", "graph", 2),
        ("import numpy as np\nimport networkx as nx\n", "graph", 2),
        ("import numpy as np\nfrom sklearn.cluster import KMeans\n", "ml", 2),
        ("import numpy as np\nimport torch\n", "ml", 2),
        ("import numpy as np\nimport tensorflow as tf\n", "ml", 2),
        ("import numpy as np\nimport optax\n", "ml", 2),
        ("import numpy as np\nfrom jax import grad\n", "ml", 2),
        ("import numpy as np\nimport nltk\n", "nlp", 2),
        ("import numpy as np\nfrom sklearn.feature_extraction.text import CountVectorizer\n", "nlp", 2),
        ("import torch\nx = torch.zeros(3)\n", "ml", 1),  # evidence with or without NumPy in the file
        ("import numpy as np\nimport scipy\nm = scipy.sparse.eye(3)\nn = scipy.sparse.eye(4)\n", "sparse", 3),
        ("import numpy as np\nnames = np.array(['a'])\nlow = np.char.lower(names)\n", "nlp", 3),
    ],
)
def test_cpn410_evidence_kinds(source: str, kind: str, line: int) -> None:
    findings = _findings(source, "CPN410")
    assert [(f.line, f.data["kind"]) for f in findings] == [(line, kind)], [f.message for f in findings]


@pytest.mark.parametrize(
    "source",
    [
        "import numpy as np\nimport scipy.linalg as sla\nimport scipy.signal\nimport jax.numpy as jnp\nimport jax\n",
        "import numpy as np\ntry:\n    import networkx as nx\nexcept ModuleNotFoundError:\n    nx = None\n",
        "import numpy as np\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import torch\n",
        "import numpy as np\ndef clean(texts):\n    return [t.strip().lower().split() for t in texts]\n",
        "import numpy as np\nimport pandas as pd\nimport matplotlib.pyplot as plt\n",
        "import numpy as np\n# import scipy.sparse as sp\ndoc = 'import networkx'\n",
        # a work list that is not a graph walk
        "import numpy as np\nimport os\ndef walk(root):\n    todo = [root]\n    while todo:\n        d = todo.pop()\n"
        "        for e in os.scandir(d):\n            todo.append(e.path)\n",
        # a queue drained without pushing neighbours
        "import numpy as np\nfrom collections import deque\nq = deque([1, 2])\nwhile q:\n    item = q.popleft()\n    print(item)\n",
        # element loops that are not recurrences
        "import numpy as np\na = np.ones(10)\nb = np.zeros(10)\nfor i in range(1, 10):\n    b[i] = a[i] - a[i - 1]\n",
        "import numpy as np\nu = np.zeros(100)\nfor step in range(10):\n    u[1:-1] = 0.5 * (u[:-2] + u[2:])\n",
    ],
)
def test_cpn410_quiet_cases(source: str) -> None:
    assert _findings(source, "CPN410") == [], source


def test_cpn410_one_finding_per_import_statement() -> None:
    src = "import numpy as np\nimport scipy.sparse, networkx\nfrom sklearn.svm import SVC, SVR\n"
    findings = _findings(src, "CPN410")
    assert [(f.line, f.data["kind"], f.data["module"]) for f in findings] == [
        (2, "sparse", "scipy.sparse"), (3, "ml", "sklearn.svm.SVC")]


def test_cpn410_names_the_training_calls_of_its_import() -> None:
    src = """\
    import numpy as np
    from sklearn.linear_model import Ridge
    from sklearn.preprocessing import StandardScaler
    scaler = StandardScaler()
    X = scaler.fit_transform(np.ones((4, 2)))
    Ridge().fit(X, np.ones(4))
    poly = np.polynomial.Polynomial.fit(np.ones(3), np.ones(3), 1)
    """
    findings = {f.line: f.message for f in _findings(src, "CPN410")}
    assert "(training/inference calls: Ridge().fit at line 6)" in findings[2]
    assert "(training/inference calls: scaler.fit_transform at line 5)" in findings[3]


def test_cpn410_recurrence_is_reported_at_the_loop_and_not_as_cpn101() -> None:
    src = """\
    import numpy as np
    x = np.ones(50)
    y = np.zeros(50)
    for n in range(1, 50):
        y[n] = 0.5 * y[n - 1] + x[n]
    """
    findings = _findings(src)
    assert [(f.line, f.code) for f in findings if f.code in ("CPN101", "CPN410")] == [(4, "CPN410")]
    (finding,) = [f for f in findings if f.code == "CPN410"]
    assert finding.in_loop and dict(finding.data) == {"kind": "recurrence", "array": "y", "form": "element",
                                                      "regions": [[4, 5]], "library_work": 0}
    assert "y[n] = 0.5 * y[n - 1] + x[n]" in finding.message


def test_cpn410_recurrence_nest_is_reported_once() -> None:
    src = """\
    import numpy as np
    u = np.ones((20, 20))
    for i in range(1, 20):
        for j in range(1, 20):
            u[i, j] = 0.25 * (u[i - 1, j] + u[i, j - 1])
    """
    assert _lines(src, "CPN410") == [3]


def test_cpn410_recurrence_inside_a_time_loop_is_reported_at_the_inner_loop() -> None:
    src = """\
    import numpy as np
    y = np.zeros(30)
    for step in range(5):
        for n in range(1, 30):
            y[n] = y[n - 1] * 0.9 + 1.0
    """
    assert _lines(src, "CPN410") == [4]


@pytest.mark.parametrize(
    ("body", "scan"),
    [
        ("    c[i] = c[i - 1] + x[i]\n", "cumsum"),
        ("    c[i] = x[i] + c[i - 1]\n", "cumsum"),
        ("    c[i] += c[i - 1]\n", "cumsum"),
        ("    c[i] = c[i - 1] * x[i]\n", "cumprod"),
        ("    c[i] = 0.5 * c[i - 1] + x[i]\n", None),
        ("    c[i] = c[i - 1] + c[i - 2]\n", None),
    ],
)
def test_cpn410_running_sums_and_products_name_their_scan(body: str, scan: str | None) -> None:
    src = "import numpy as np\nx = np.ones(90)\nc = np.ones(90)\nfor i in range(2, 90):\n" + body
    (finding,) = _findings(src, "CPN410")
    assert finding.data.get("scan") == scan
    if scan:
        assert f"one np.{scan} call can replace" in finding.message


def test_cpn410_carried_scalar_quotes_its_update() -> None:
    src = "import numpy as np\nx = np.ones(9)\nout = np.zeros(9)\nlevel = 1.0\nfor i in range(9):\n    level = level * 0.5 + x[i]\n    out[i] = level\n"
    (finding,) = _findings(src, "CPN410")
    assert "'level' carries from one iteration to the next (level = level * 0.5 + x[i])" in finding.message


@pytest.mark.parametrize(
    "loop",
    [
        "    while queue:\n        u = queue.popleft()\n        for v in adj[u]:\n            queue.append(v)\n",
        "    while len(stack) > 0:\n        u = stack.pop()\n        for v in graph.get(u, ()):\n            stack.append(v)\n",
        "    while pq:\n        d, u = heapq.heappop(pq)\n        for v, w in edges[u].items():\n            heapq.heappush(pq, (d + w, v))\n",
        "    while frontier:\n        u = frontier.pop(0)\n        for v in g.neighbors(u):\n            frontier.extend([v])\n",
    ],
)
def test_cpn410_graph_traversals(loop: str) -> None:
    src = ("import heapq\nimport numpy as np\nfrom collections import deque\n\n"
           "def walk(adj, graph, edges, g):\n    queue = deque([0])\n    stack = [0]\n    pq = [(0, 0)]\n    frontier = [0]\n"
           + loop + "    return np.zeros(1)\n")
    findings = _findings(src, "CPN410")
    assert [(f.line, f.data["kind"]) for f in findings] == [(10, "graph")], [f.message for f in findings]
    assert findings[0].in_loop


def test_cpn410_message_names_the_kind() -> None:
    words = {
        "import numpy as np\nimport scipy.sparse\n": "sparse-matrix work",
        "import numpy as np\nimport networkx\n": "graph traversal",
        "import numpy as np\nimport torch\n": "machine-learning training or inference",
        "import numpy as np\nimport spacy\n": "string/NLP processing",
        "import numpy as np\ny = np.ones(50)\nfor n in range(1, 50):\n    y[n] = y[n - 1] * 2.0\n": "a sequential recurrence",
    }
    for source, text in words.items():
        (finding,) = _findings(source, "CPN410")
        assert text in finding.message and "(Gate 4)" in finding.message


# ----------------------------------------------------------- real flake8
API_PROGRAM = """\
import numpy as np
import scipy.sparse as sp

m = np.ones((8, 8))
y = np.interp(0.5, m[0], m[1])
u, s, vt = np.linalg.svd(m)
spec = np.fft.rfft(m[0])
"""


def _cpn4(out: str) -> set[tuple[int, str]]:
    found = set()
    for line in out.splitlines():
        parts = line.split(":", 3)
        if len(parts) == 4 and parts[3].split()[0].startswith("CPN4"):
            found.add((int(parts[1]), parts[3].split()[0]))
    return found


@pytest.mark.e2e
def test_flake8_select_cpn_shows_401_and_410_only(write) -> None:
    path = write("prog.py", API_PROGRAM)
    result = run_flake8("--select", "CPN", str(path))
    assert _cpn4(result.stdout) == {(2, "CPN410"), (5, "CPN401")}, result.stdout + result.stderr


@pytest.mark.e2e
def test_flake8_assessment_shows_402_and_403(write) -> None:
    path = write("prog.py", API_PROGRAM)
    result = run_flake8("--select", "CPN", "--cpn-assessment", str(path))
    assert _cpn4(result.stdout) == {(2, "CPN410"), (5, "CPN401"), (6, "CPN402"), (7, "CPN403")}, result.stdout
    assert "multi-GPU partial: data-parallel axis-wise batching only" in result.stdout


@pytest.mark.e2e
def test_flake8_noqa_silences_an_api_finding(write) -> None:
    path = write("prog.py", API_PROGRAM.replace("m[1])\n", "m[1])  # noqa: CPN401\n"))
    result = run_flake8("--select", "CPN", str(path))
    assert _cpn4(result.stdout) == {(2, "CPN410")}


@pytest.mark.parametrize(
    ("lacks", "gap"),
    [
        (True, "numpy.interp is missing from cuPyNumeric 99.1 (AttributeError)"),
        (False, "numpy.interp exists in cuPyNumeric 99.1 but is not supported there"),
        (None, "numpy.interp is not implemented in cuPyNumeric 99.1"),  # a format-1 manifest does not say
    ],
)
def test_cpn401_says_how_the_name_fails(monkeypatch: pytest.MonkeyPatch, lacks, gap: str) -> None:
    custom = Manifest(
        snapshot_date=dt.date(2030, 1, 1), cupynumeric_version="99.1", numpy_version=None,
        entries={"numpy.interp": ApiSupport("numpy.interp", Status.NOT_IMPLEMENTED, "Module-Level", lacks=lacks)},
    )
    monkeypatch.setattr(_api_support, "manifest", lambda: custom)
    (finding,) = _findings("import numpy as np\ny = np.interp(0.5, [0, 1], [0, 1])\n", "CPN401")
    assert finding.message.startswith(f"np.interp(...): {gap}")
    # a name it has is not reported when used without a call (only missing names are)
    assert _findings("import numpy as np\nf = np.interp\n", "CPN401") == ([] if lacks is False else _findings(
        "import numpy as np\nf = np.interp\n", "CPN401"))
