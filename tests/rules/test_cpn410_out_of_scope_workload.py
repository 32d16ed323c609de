"""CPN410 (out-of-scope-workload) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

import pytest

from cpn_lint import lint_source


def _findings(source: str, *codes: str):
    return [f for f in lint_source(textwrap.dedent(source), assessment=True, codes=codes or None)
            if not codes or f.code in codes]


def _lines(source: str, code: str) -> list[int]:
    return [f.line for f in _findings(source, code)]


# ---------------------------------------------------------------------- CPN410
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
        ("import torch\nnet = torch.nn.Linear(3, 1)\n", "ml", 1),  # evidence with or without NumPy in the file
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
        # tensor libraries as array engines: draws and math, no layers, optimisers or training
        "import numpy as np\nimport torch\nx = torch.randn(1000)\ny = torch.exp(x).numpy()\n",
        "import numpy as np\nimport tensorflow as tf\nx = tf.random.normal([1000])\ny = tf.reduce_sum(tf.exp(x))\n",
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
    from sklearn.decomposition import PCA
    scaler = PCA()
    X = scaler.fit_transform(np.ones((4, 2)))
    Ridge().fit(X, np.ones(4))
    poly = np.polynomial.Polynomial.fit(np.ones(3), np.ones(3), 1)
    """
    findings = {f.line: f.message for f in _findings(src, "CPN410")}
    assert "(training/inference calls: Ridge().fit at line 6)" in findings[2]
    assert "(training/inference calls: scaler.fit_transform at line 5)" in findings[3]


def test_cpn410_data_utilities_of_scikit_learn_are_not_evidence_but_metrics_are() -> None:
    # SPEC §4: "import sklearn… / from sklearn… import … (ML estimators and metrics)"
    src = """\
    import numpy as np
    from sklearn.preprocessing import StandardScaler
    from sklearn.metrics import accuracy_score
    from sklearn.model_selection import GridSearchCV, train_test_split
    from sklearn import datasets, svm
    from sklearn.metrics.pairwise import cosine_similarity
    """
    findings = {f.line: f.data["module"] for f in _findings(src, "CPN410")}
    assert findings == {3: "sklearn.metrics.accuracy_score", 4: "sklearn.model_selection.GridSearchCV",
                        5: "sklearn.svm", 6: "sklearn.metrics.pairwise.cosine_similarity"}


def test_cpn410_library_work_counts_reads_of_what_the_library_returned() -> None:
    src = """\
    import numpy as np
    from sklearn.datasets import make_blobs
    from sklearn.metrics.pairwise import cosine_similarity

    def data():
        X, y = make_blobs(n_samples=500)
        return X

    def tags(features):
        sim = cosine_similarity(features)
        out = []
        for i in range(sim.shape[0]):
            out.append(np.argsort(sim[i])[-5:])
        return out
    """
    (found,) = _findings(src, "CPN410")  # make_blobs is a data utility: no evidence, no work
    assert found.line == 3 and found.data["regions"] == [[9, 14]]
    assert found.data["library_work"] == 1 + 5  # the call, and the row of its result read in the loop


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
        assert f"replace the loop with one np.{scan} call" in finding.message and "Gate 4" not in finding.message
    else:
        assert "(Gate 4)" in finding.message


def test_cpn410_a_running_sum_fed_by_state_the_loop_computes_is_an_integration() -> None:
    """x[i] from x[i - 1] and v[i - 1], v updated in the same loop: no scan."""
    src = ("import numpy as np\nx = np.zeros(90)\nv = np.ones(90)\nfor i in range(1, 90):\n"
           "    v[i] = v[i - 1] - 0.1 * x[i - 1]\n    x[i] = x[i - 1] + v[i - 1] * 0.1\n")
    (finding,) = _findings(src, "CPN410")
    assert finding.data.get("scan") is None and "(Gate 4)" in finding.message


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
        # a flood fill over a lattice: the neighbours listed, or a table of step offsets
        "    while stack:\n        i, j = stack.pop()\n        for a, b in [(i + 1, j), (i, j + 1)]:\n            stack.append((a, b))\n",
        "    while queue:\n        i, j = queue.popleft()\n        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):\n"
        "            queue.append((i + di, j + dj))\n",
    ],
)
def test_cpn410_graph_traversals(loop: str) -> None:
    src = ("import heapq\nimport numpy as np\nfrom collections import deque\n\n"
           "def walk(adj, graph, edges, g):\n    queue = deque([0])\n    stack = [0]\n    pq = [(0, 0)]\n    frontier = [0]\n"
           + loop + "    return np.zeros(1)\n")
    findings = _findings(src, "CPN410")
    assert [(f.line, f.data["kind"]) for f in findings] == [(10, "graph")], [f.message for f in findings]
    assert findings[0].in_loop


def test_cpn410_a_worklist_over_a_table_of_weights_is_not_a_traversal() -> None:
    src = ("import numpy as np\n\ndef spread(items):\n    out = np.zeros(10)\n    work = list(items)\n    while work:\n"
           "        k = work.pop()\n        for w in (1, 2):\n            out[k] += w\n    return out\n")
    assert _findings(src, "CPN410") == []


def test_cpn410_message_names_the_kind() -> None:
    words = {
        "import numpy as np\nimport scipy.sparse\n": "sparse-matrix work",
        "import numpy as np\nimport networkx\n": "graph traversal",
        "import numpy as np\nimport torch\n": "machine-learning training or inference",
        "import numpy as np\nimport spacy\n": "string/NLP processing",
        "import numpy as np\ny = np.ones(50)\nfor n in range(1, 50):\n    y[n] = np.sin(y[n - 1]) + 1.0\n": "a sequential recurrence",
    }
    for source, text in words.items():
        (finding,) = _findings(source, "CPN410")
        assert text in finding.message and "(Gate 4)" in finding.message
