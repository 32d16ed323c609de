"""CPN410: evidence of a workload cuPyNumeric does not accelerate (Gate 4)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, LoopFrame
from ..model.recurrence_forms import Recurrence, scan_form
from ..model.call_recurrences import call_recurrences
from ..model.integrators import small_state_chain
from ..model.numpy_api import OUT_OF_SCOPE_DATA_UTILITIES, OUT_OF_SCOPE_MODULES
from ..model.syntax import callback_args, is_type_checking, walk
from ..model.worklists import worklist_queue
from ..registry import Category, Invalid, Rule, Valid
from ._roots import folded_counts, folded_text, recurrence_loops, root_at, traversal_loops
from ._api_support import hot_loop

_IMPORT_KINDS = OUT_OF_SCOPE_MODULES

_DATA_UTILITIES = OUT_OF_SCOPE_DATA_UTILITIES

_WORKLOAD = {
    "sparse": "sparse-matrix work",
    "graph": "graph traversal",
    "ml": "machine-learning training or inference",
    "nlp": "string/NLP processing",
    "recurrence": "a sequential recurrence",
}
_KIND_WORDS = {"sparse": "sparse-matrix", "graph": "graph", "ml": "ML", "nlp": "string/NLP", "recurrence": "sequential-recurrence"}
_ADVICE = {
    "sparse": "keep it on a sparse library (or evaluate legate-sparse) and port only the dense array code",
    "graph": "keep it on a graph library and port only the dense array code",
    "ml": "keep it in its framework and port only the NumPy array code around it",
    "nlp": "keep text processing on the host and port only the numeric arrays",
    "recurrence": "restructure it (a whole-array scan, a closed form, or many independent sequences at once) or keep it off the ported path",
}
_SWEEP_ADVICE = ("make it whole-array with another algorithm (Jacobi updates into a second array, or red-black "
                 "ordering), or keep it off the ported path")
# Method calls that train or run an ML model, quoted as supporting evidence.
_TRAINING_CALLS = frozenset({"fit", "fit_transform", "partial_fit", "fit_predict", "predict", "predict_proba", "backward", "train_on_batch"})


@dataclass(frozen=True)
class _Evidence:
    node: ast.AST
    kind: str
    text: str
    origin: str  # the code the headline quotes: an import, a call, a loop header
    in_loop: bool = False
    extra: tuple[tuple[str, object], ...] = ()


class OutOfScopeWorkload(Rule):
    """
    ## What it does
    Collects evidence that the file's work is of a kind cuPyNumeric does not
    accelerate, naming the kind in the message:

    * **sparse** — imports of `scipy.sparse` (or its use through `import scipy`);
    * **graph** — imports of networkx, igraph, graph-tool, rustworkx or
      `scipy.sparse.csgraph`, and `while` loops that pop a node from a
      queue or stack and push its neighbours from an adjacency container
      (`for v in adj[u]: queue.append(v)`) — breadth- or depth-first search;
      also `while True:` around a pop (`heappop(heap)`, even through a
      local alias) that ends when the queue is empty — a priority flood fill;
    * **ml** — imports of scikit-learn (estimators, and metrics such as
      `sklearn.metrics.pairwise.cosine_similarity`), PyTorch,
      TensorFlow/Keras, JAX's training libraries (flax, optax, `jax.nn`,
      `jax.grad`) and gradient boosting libraries; training or inference
      calls seen in the file (`model.fit`) are quoted. Also a neural network
      written in NumPy and
      trained by a SciPy minimiser (`fmin_cg`, `minimize`, ...): the cost or
      gradient function it calls back applies an activation (`tanh`,
      `expit`, or the file's own `1 / (1 + exp(-z))`) to a matrix product;
    * **nlp** — imports of nltk, spaCy, transformers, tokenizers, gensim or
      scikit-learn's text features, and `np.char`/`np.strings` calls;
    * **recurrence** — a loop that carries element-sized state from one
      iteration to the next, reported at the loop (never also as CPN101):
      an element written from one an earlier iteration wrote (also a cell
      of a table kept in a dict, filled over a list of `(i, j)` cells, that
      reads cells behind it on every axis and none ahead: a DTW table), an
      in-place sweep whose updates read neighbours the same sweep already
      wrote on both sides (`u[i, j]` from `u[i - 1, j]` and `u[i + 1, j]`:
      Gauss-Seidel, SOR; made whole-array it is another algorithm, Jacobi or
      red-black ordering; also `x_new[i]` from the `x_new[j]` of an inner
      loop that reaches only `j < i`, in a sweep a loop around repeats:
      Gauss-Seidel on a dense system; run once, that is a substitution, an
      element loop), each line of a table filled cell by cell from the line
      before along an axis of the input data (a DP table over `len(x)`, seam
      carving over the rows of an image: parallel across a line at best,
      sequential along the data; a whole line per step from the one before
      is time stepping)
      (`y[n] = a * y[n - 1] + x[n]`, also through intermediate names), a
      few numbers updated from themselves in a non-additive way
      (`acc = a * acc + x[i]`, a filter's 4-number state
      `x, P = step(x, P, z)`), a Markov chain whose few parameters are
      accepted or rejected against a random draw every step, a chain that
      accepts or rejects a change at a site it drew this step
      (`if dE <= 0 or random() < exp(-b * dE): S[x, y] = -S[x, y]`,
      single-site Metropolis: the next proposal sees this one's outcome;
      also through a helper the loop calls each step, as annealing's
      `swap(tour, beta)` does), a
      trajectory of a few numbers written out before the loop
      (`U = np.array([1, 0, 0, 1])`, then `U = U + dt * f(U, t)`), numbers
      each rebound from the other (`x = normal(0.5 * y)`, then
      `y = normal(0.5 * x)`: a Gibbs sampler), or each value
      computed from the last item of a list the loop appends to. Also
      through a view of the table made before the loop (`d1 = d0[1:, 1:]`;
      `d1[i, j] += min(d0[i, j], ...)`), through feedback over inner taps
      (`y[n] -= a[k] * y[n - k]`), and a few numbers that feed each other's
      increments (a leapfrog step `v = v + a * dt; r = r + v * dt` with `a`
      from `r`); state of any size stepped once per sample or row of the
      data (`for k in range(len(x))` picking `x[k]`) whose increment reads
      the state itself, also through elements the iteration stored and the
      object's own methods (an adaptive filter: `y[k] = self.predict(x[k])`,
      `e[k] = d[k] - y[k]`, `self.w += mu * e[k] * x[k]`): as many steps as
      the data has samples, each waiting for the one before. A row or slab carried across iterations (`walk[:, t]` from
      `walk[:, t - 1]` over many walkers) is time stepping, a growing prefix
      (`x[:i]` in forward substitution) is a spatial element loop (CPN101),
      and a running sum, product, maximum or minimum is a reduction: none
      is reported here. A running sum or product stored element by element
      (`c[i] = c[i - 1] + x[i]`) is reported with the one call that replaces
      it (`np.cumsum`, `np.cumprod`); the verdict counts it as a blocking
      idiom with a recipe, not as Gate 4 evidence, unless what it adds is
      state the same loop computes (`x[i] = x[i - 1] + v[i - 1] * dt` with
      `v` updated beside it is an integration). A SciPy integrator
      (`odeint`, `solve_ivp`, `RK45`, ...) stepping an initial state of at
      most 64 numbers the code writes out (`odeint(deriv, [20, 20], t)`) is
      the same chain run by the host; a state of unknown or larger size (a
      discretised field) is not judged. So is SciPy's stateful `ode`
      stepped by `.integrate(t)` in a loop.
    - **a per-call recurrence**: a method that writes a few numbers of
      state on the object from its argument and that state
      (`self.y_prev[0] = y` with `y` from `x` and `self.y_prev[0]`), called
      by no loop of the file: the caller feeds it one sample per call, and
      each call needs the last. Reported at the method's `def`; the verdict
      counts one call per element of the data.

    One finding per import statement (with or without NumPy in the file),
    per traversal or recurrence loop, and per string-processing statement. The verdict weighs how much of the code
    the evidence covers (Gate 4). A recurrence loop's element-level findings
    (CPN104, CPN105, CPN110, CPN103 inside it) are counted in its finding.

    ## Why it does not scale on cuPyNumeric
    cuPyNumeric speeds up dense, regular array arithmetic by splitting arrays
    into tiles that GPUs process independently. Sparse matrices and graphs are
    irregular (the work follows pointers, not tiles); models and text have
    their own runtimes or are not numeric arrays; and a recurrence must
    compute step `n - 1` before step `n`, so it runs one element at a time
    however many GPUs there are.

    ## Example
    ```python
    import numpy as np

    def smooth(x, alpha):
        y = np.empty_like(x)
        y[0] = x[0]
        for n in range(1, x.shape[0]):
            y[n] = alpha * x[n] + (1 - alpha) * y[n - 1]
        return y
    ```

    ## Use instead
    No mechanical rewrite applies. Keep such work on the library made for it
    and port only the dense array code around it. A recurrence sometimes has
    a whole-array form: a running sum is `np.cumsum`, a running product
    `np.cumprod`, and many independent sequences can advance together as the
    rows of one array (one loop over time, vectorised across sequences).

    ## Known false alarms
    * An import used for a small helper is still reported; the verdict, not
      this rule, decides whether the workload is dominant.
    * scikit-learn's data utilities (`sklearn.datasets`,
      `sklearn.preprocessing`, and `train_test_split` and the K-fold
      splitters of `sklearn.model_selection`) are not evidence: a script
      that writes its own model in NumPy imports them for test data. Other
      names of `sklearn.model_selection` (`GridSearchCV`) are, since they
      train; so are the metrics (`accuracy_score`, `cosine_similarity`).
    * Imports guarded by `try: ... except ImportError` or `if TYPE_CHECKING:`
      are optional and are not reported.
    * Plain Python string handling (`text.split()`) is not reported; only
      NLP libraries and NumPy's string functions are.
    * A scalar that each iteration starts afresh (`prod = 1.0` before an
      inner `prod *= ...`) carries nothing from one iteration to the next and
      is not a recurrence of that loop.
    * The state of a small-state recurrence must be made with literal sizes
      in the file (`np.zeros(4)`); a state passed in from outside is not
      judged. A recurrence nested in an element loop, or in a helper an
      element loop runs every iteration (a bisection per row), is left to
      CPN101 (vectorising the outer loop runs the sequences side by side).
    """

    code = "CPN410"
    slug = "out-of-scope-workload"
    category = Category.SCOPE
    summary = "workload outside cuPyNumeric's scope: sparse, graph, ML, string/NLP or a sequential recurrence"
    message = "{evidence}: {consequence}; {advice}"
    short = "{origin}: {headline}"

    valid = (
        # an optimiser's step on state as large as the parameters it moves:
        # whole-array work per call, which ports
        Valid("""
            import numpy as np

            class Momentum:
                def __init__(self, params, lr=0.01, beta=0.9):
                    self.lr, self.beta = lr, beta
                    self.velocity = np.zeros_like(params)

                def step(self, grad):
                    self.velocity = self.beta * self.velocity - self.lr * grad
                    return self.velocity
            """),
        # PyTorch as an array engine (tensors, draws, math), no layers,
        # optimisers or gradients: another array library, not ML work
        Valid("""
            import numpy as np
            import torch

            paths = torch.ones(100000) * 100.0
            for t in range(250):
                paths = paths * torch.exp(0.01 * torch.randn(100000))
            price = np.mean(np.maximum(paths.numpy() - 100.0, 0.0))
            """),
        # a pure-Python path loop in a notebook that later reuses the names
        # for arrays: the loop's own values are numbers, not device values
        Valid("""
            import random
            from math import exp, sqrt
            import numpy as np

            total = 0.0
            for i in range(1000):
                v = 0.01
                for t in range(250):
                    z = random.gauss(0.0, 1.0)
                    v = max(v, 0.0)
                    v = v + 2.0 * (0.01 - v) * 0.004 + 0.1 * sqrt(v * 0.004) * z
                total += v
            v = np.ones(1000) * 0.01
            for t in range(250):
                z = np.random.normal(size=1000)
                v = np.maximum(v, 0.0)
                v = v + 2.0 * (0.01 - v) * 0.004 + 0.1 * np.sqrt(v * 0.004) * z
            """),
        # steepest descent: the residual is rebound from the iterate the pass
        # moved, but both are vectors (whole-array iterations, not a recurrence)
        Valid("""
            import numpy as np

            def descend(A, b, x, steps=100, tol=1e-8):
                r = b - A @ x
                for _ in range(steps):
                    alpha = (r @ r) / (r @ A @ r)
                    x = x + alpha * r
                    r = b - A @ x
                    if np.linalg.norm(r) < tol:
                        break
                return x
            """),
        # whole-array bodies: a leapfrog time loop that stores its history
        Valid("""
            import numpy as np

            nt = 1000
            x = np.random.rand(5000)
            v = np.zeros(5000)
            energy = np.zeros(nt)
            for n in range(nt):
                a = -x
                v += a * 0.01
                x += v * 0.01
                energy[n] = np.sum(v * v)
            """),
        # per-sample work that adds to a sum without reading it: a reduction;
        # weights stepped by whole-data gradients: time stepping
        Valid("""
            import numpy as np

            def fit(X, y, lr, iterations):
                w = np.zeros(X.shape[1])
                for it in range(iterations):
                    w -= lr * X.T @ (X @ w - y)
                score = 0.0
                for k in range(len(y)):
                    score += y[k] * 0.5
                return w, score
            """),
        # scattering each pixel into a second array through a table of taps
        # reads only the input: the pixels are independent (an element loop)
        Valid("""
            import numpy as np

            TAPS = [(1, 0, 0.5), (0, 1, 0.5)]

            def spread(img):
                out = np.zeros((img.shape[0] + 1, img.shape[1] + 1))
                for y in range(img.shape[0]):
                    for x in range(img.shape[1]):
                        for dx, dy, w in TAPS:
                            yn, xn = y + dy, x + dx
                            out[yn, xn] += img[y, x] * w
                return out
            """),
        # Jacobi by loops: x_new[i] from the previous sweep's x only
        Valid("""
            import numpy as np
            def jacobi(A, f, x, sweeps=100):
                n = A.shape[0]
                for k in range(sweeps):
                    x_new = np.zeros(n)
                    for i in range(n):
                        s = 0.0
                        for j in range(n):
                            if j < i or j > i:
                                s += A[i, j] * x[j]
                        x_new[i] = (f[i] - s) / A[i, i]
                    x = x_new
                return x
            """),
        # a Gauss-Seidel sweep over a list of cells reads neighbours on both
        # sides: a relaxation (CPN101's sweep), not a dynamic program
        Valid("""
            import numpy as np

            def relax(u, cells, sweeps):
                u = np.asarray(u, dtype=float)
                for _ in range(sweeps):
                    for i, j in cells:
                        u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
                return u
            """),
        # a transformer written in NumPy on scikit-learn's interface: the
        # base classes and input checks train nothing
        Valid("""
            import numpy as np
            from sklearn.base import BaseEstimator, TransformerMixin
            from sklearn.utils.validation import check_array

            class RecurrencePlot(BaseEstimator, TransformerMixin):
                def transform(self, X):
                    X = check_array(X)
                    return np.abs(X[:, :, None] - X[:, None, :])
            """),
        # a running maximum is a reduction (np.max), the loop an element loop (CPN101)
        Valid("""
            import numpy as np

            def check(V: np.ndarray) -> float:
                delta = 0.0
                for i in range(V.shape[0]):
                    delta = max(delta, abs(V[i, i] - 1.0))
                return delta
            """),
        # a bisection in a helper that a row loop runs every pass: the row loop is the finding (CPN101)
        Valid("""
            import numpy as np

            def row_root(c0, c1, c2):
                lo, hi = 0.0, 1.0
                for _ in range(50):
                    mid = 0.5 * (lo + hi)
                    val = c0 + c1 * mid + c2 * mid * mid
                    lo, hi = (mid, hi) if val < 0 else (lo, mid)
                return 0.5 * (lo + hi)

            def all_roots(C):
                out = np.zeros(C.shape[0])
                for i in range(C.shape[0]):
                    out[i] = row_root(C[i, 0], C[i, 1], C[i, 2])
                return out

            all_roots(np.random.rand(1000, 3))
            """),
        # the function solved for sums over the data every step: that work ports
        Valid("""
            import numpy as np
            from scipy.optimize import brentq

            data = np.random.rand(10_000_000)

            def moment_gap(lam):
                return np.mean(np.exp(lam * data)) - 2.0

            lam = brentq(moment_gap, 0.0, 5.0)
            """),
        # an explicit upwind step u[x, t + 1] from u[x - 1, t]: the loop around
        # runs over time steps (range(999)), not along an axis of input data,
        # so the loop along x is an element loop (CPN101), not a line sweep
        Valid("""
            import numpy as np
            u = np.zeros((100, 1000))
            u[4:10, 0] = 1.0
            u0 = u.copy()
            for t in range(999):
                for x in range(1, 99):
                    u[x, t + 1] = u0[x, t] - 0.5 * (u0[x, t] - u0[x - 1, t])
                    u0 = u
            """),
        # red-black ordering: one colour's sites never read each other (CPN101)
        Valid("""
            import numpy as np
            N = 64
            u = np.zeros((N, N))
            red = [(i, j) for i in range(1, N - 1) for j in range(1, N - 1) if (i + j) % 2 == 0]
            black = [(i, j) for i in range(1, N - 1) for j in range(1, N - 1) if (i + j) % 2 == 1]
            for sweep in range(100):
                for (i, j) in red + black:
                    u[i, j] += 1.5 * ((u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]) / 4 - u[i, j])
            """),
        # forward substitution carries a growing prefix, not element-sized state (CPN101)
        Valid("""
            import numpy as np

            def forward(L, b):
                x = np.zeros_like(b)
                for i in range(x.shape[0]):
                    x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
                return x
            """),
        # a helper that only adds to the count it is handed and returns it: a sum, not a recurrence
        Valid("""
            import numpy as np

            def crossing(speed, x, position, flow):
                if x < position and speed + x >= position:
                    flow += 1
                return flow

            v = np.random.randint(0, 5, size=200)
            flow = 0
            for step in range(1000):
                for i in range(200):
                    flow = crossing(v[i], i, 50, flow)
            """),
        # dy is the inner loop's own target: rebinding it carries nothing to the next pass
        Valid("""
            import numpy as np
            density = np.zeros((16, 16))
            cells = np.random.randint(0, 16, size=(2, 2))
            offsets = np.random.uniform(0.0, 1.0, size=(2, 2))
            for (x, dx) in zip(cells[0], offsets[0]):
                for (y, dy) in zip(cells[1], offsets[1]):
                    if dy > 0.5:
                        dy = 1.0 - dy
                    density[x, y] += (1 - dx) * (1 - dy)
            """),
        # a model written in NumPy, tested on scikit-learn's toy data
        Valid("""
            import numpy as np
            from sklearn.datasets import make_blobs
            from sklearn.model_selection import train_test_split

            X, y = make_blobs(n_samples=500, centers=3, random_state=0)
            X_train, X_test, y_train, y_test = train_test_split(X, y)
            centroids = X_train[:3].copy()
            for _ in range(50):
                labels = np.argmin(((X_train[:, None, :] - centroids) ** 2).sum(axis=2), axis=1)
                centroids = np.stack([X_train[labels == k].mean(axis=0) for k in range(3)])
            """),
        Valid("""
            import numpy as np
            import scipy.linalg
            x = scipy.linalg.solve(np.eye(3), np.ones(3))
            """),
        # a slab recurrence over many walkers is time stepping, not Gate 4
        Valid(
            """
            import numpy as np
            walkers, steps = 100000, 200
            walk = np.zeros((walkers, steps))
            for t in range(1, steps):
                walk[:, t] = walk[:, t - 1] + np.random.normal(0, 1, walkers)
            """
        ),
        # a running product is a reduction (np.prod), not a recurrence
        Valid("""
            import numpy as np
            x = np.linspace(0.1, 1.0, 500)
            acc = 1.0
            for i in range(500):
                acc *= np.cos(x[i])
            """),
        Valid("""
            import numpy as np
            u = np.zeros(100)
            for step in range(10):
                u[1:-1] = 0.5 * (u[:-2] + u[2:])
            """),
        Valid("""
            import numpy as np
            def words(texts):
                return [t.lower().split() for t in texts]
            counts = np.zeros(3)
            """),
        Valid("""
            import numpy as np
            try:
                import torch
            except ImportError:
                torch = None
            a = np.ones(3)
            """),
        Valid(
            """
            import numpy as np
            import os
            def walk(root):
                todo = [root]
                while todo:
                    d = todo.pop()
                    for entry in os.scandir(d):
                        todo.append(entry.path)
                return np.zeros(1)
            """
        ),
        Valid("""
            try:
                import scipy.sparse as sp
            except ImportError:
                sp = None
            import numpy as np
            """),
        # a product restarted in every outer iteration carries nothing to the next one
        Valid(
            """
            import numpy as np
            def shapes(y, m):
                out = np.zeros(m)
                for j in range(1, m):
                    prod = 1.0
                    for i in range(j):
                        prod *= np.cos(y[i])
                    out[j] = prod
                return out
            """
        ),
    )
    # a least-squares fit of a model's few parameters is not training
    valid += (
        Valid(
            """
            import numpy as np
            from scipy.optimize import minimize

            def loss(p, t, y):
                return np.sum((p[0] * np.exp(-p[1] * t) - y) ** 2)

            t = np.linspace(0, 5, 200)
            y = 2.0 * np.exp(-0.7 * t)
            fit = minimize(loss, np.ones(2), args=(t, y))
            """
        ),
        Valid(
            """
            import numpy as np
            from scipy.optimize import minimize

            def energy(x, A, b):
                return 0.5 * x @ A @ x - b @ x

            A = np.eye(50)
            b = np.ones(50)
            res = minimize(energy, np.zeros(50), args=(A, b))
            """
        ),
    )
    # an integrator stepping a field whose size the code does not write out
    # (method of lines) is not judged here: the right-hand side may be whole-array work
    valid += (
        Valid("""
            import numpy as np
            from scipy.integrate import odeint

            def heat(u, t, dx):
                du = np.zeros_like(u)
                du[1:-1] = (u[2:] - 2 * u[1:-1] + u[:-2]) / dx ** 2
                return du

            def run(x, t):
                u0 = np.sin(np.pi * x)
                return odeint(heat, u0, t, args=(x[1] - x[0],))
            """),
        # a counter wrapped every few passes is an index, not state
        Valid("""
            import numpy as np

            def flush_every(x, batch):
                out = np.zeros_like(x)
                k = 0
                for i in range(x.shape[0]):
                    out[i] = 2.0 * x[i]
                    k += 1
                    if k >= batch:
                        k = 0
                return out
            """),
        # visits counted along a walk: no update reads another entry
        Valid("""
            import numpy as np

            def visits(env, steps):
                counts = np.zeros(env.n_states)
                s = env.reset()
                for _ in range(steps):
                    s2, r, done = env.step(s)
                    counts[s] += 1
                    s = s2
                return counts
            """),
    )
    # a flag tested for truth in a scan is the last element's sign again
    # (run-length intervals come from np.diff of the nonzero mask)
    valid += (
        Valid("""
            import numpy as np

            def runs(x):
                x = np.asarray(x)
                inside = False
                starts = []
                for k in range(len(x)):
                    if x[k] > 0 and not inside:
                        starts.append(k)
                        inside = True
                    elif x[k] <= 0 and inside:
                        inside = False
                return starts
            """),
    )
    invalid = (
        # a daily water balance kept on the object: each day's storage is
        # written from the day before's
        Invalid("""
            import numpy as np

            class Bucket:
                def __init__(self, rain, days):
                    self.rain = np.asarray(rain)
                    self.s = np.zeros(days + 1)
                    self.days = days

                def run(self, k):
                    for t in range(self.days):
                        loss = k * self.s[t]
                        self.s[t + 1] = self.s[t] + self.rain[t] - loss
                    return self.s
            """, line=10, contains="sequential"),
        # a point process thinned event by event: the clock and the excitation
        # live on the object, and max(...) shows they are numbers
        Invalid("""
            import numpy as np

            class Process:
                def __init__(self, base, jump, decay):
                    self.base, self.jump, self.decay = base, jump, decay
                    self.t, self.excess, self.events = 0.0, 0.0, []

                def run(self, n):
                    while len(self.events) < n:
                        upper = max(self.base, self.base + self.excess)
                        dt = np.random.exponential(1 / upper)
                        self.t += dt
                        self.excess = self.excess * np.exp(-self.decay * dt)
                        if upper * np.random.uniform() <= self.base + self.excess:
                            self.events += [self.t]
                            self.excess = self.excess + self.jump
                    return self.events
            """, line=9, contains="sequential"),
        # intensities rebuilt from the last one, list item by list item
        Invalid("""
            import numpy as np

            def intensities(times, base, jump, decay):
                out = [base]
                for k in range(1, len(times)):
                    out += [base + (out[-1] - base) * np.exp(-decay * (times[k] - times[k - 1])) + jump]
                return out
            """, line=5, contains="sequential"),
        # a stack pushed every pass and popped as its top items decide (a
        # three-point range count): what a pass pops, earlier passes left
        Invalid("""
            import numpy as np

            def ranges(turns):
                turns = np.asarray(turns)
                out, stack = [], []
                for t in turns:
                    stack.append(t)
                    while len(stack) >= 3:
                        a, b, c = stack[-3], stack[-2], stack[-1]
                        if abs(b - a) <= abs(c - b):
                            out.append(abs(b - a))
                            del stack[-2]
                        else:
                            break
                return out
            """, line=6, contains="sequential"),
        # four numbers stepped by RK4, each state appended to a growing
        # history: the history is no state, the four numbers are
        Invalid("""
            import numpy as np

            def pendulum(r):
                return np.array([r[1], -np.sin(r[0])], float)

            def rk4(h, steps):
                r = np.array([1.0, 0.0], float)
                rs = np.array([r])
                for t in np.arange(0.0, steps * h, h):
                    k1 = h * pendulum(r)
                    k2 = h * pendulum(r + 0.5 * k1)
                    r += (k1 + 2 * k2) / 3
                    rs = np.append(rs, np.array([r]), axis=0)
                return rs
            """, line=9, contains="sequential"),
        # a store model's level kept on the object, stepped once per day of
        # the series: the outflow taken from it is computed from the level
        Invalid("""
            import numpy as np

            class Bucket:
                def __init__(self, rain, level0):
                    self.rain = np.copy(rain)
                    self.level = np.copy(level0)
                    self.flow = np.zeros(self.rain.size)

                def run(self, k):
                    for i in range(self.rain.size):
                        self.out = k * self.level ** 1.5
                        self.level = self.level + self.rain[i] - self.out
                        self.flow[i] = self.out
                    return self.flow
            """, line=10, contains="sequential"),
        # a state machine: the mode each day enters depends on the one the
        # last day left (entries at |z| > 1, exits at |z| < 0.5)
        Invalid("""
            import numpy as np

            def trade(z, prices):
                z = np.asarray(z)
                mode = 0
                pnl = 0.0
                entry = 0.0
                for i in range(len(z)):
                    if mode == 0 and z[i] < -1.0:
                        mode = 1
                        entry = prices[i]
                    elif mode == 1 and z[i] > -0.5:
                        mode = 0
                        pnl += prices[i] - entry
                return pnl
            """, line=8, contains="sequential"),
        # a filter that takes one sample per call: its caller's loop is out of
        # sight, but each call needs the outputs the last one left on the object
        Invalid("""
            import numpy as np

            class OnePole:
                def __init__(self, a):
                    self.a = a
                    self.y_prev = np.zeros(1)

                def process(self, x):
                    y = (1.0 - self.a) * x + self.a * self.y_prev[0]
                    self.y_prev[0] = y
                    return y
            """, line=8, contains="self.y_prev"),
        # SciPy's stateful ode interface stepping two numbers, one call a step
        Invalid("""
            import numpy as np
            from scipy.integrate import ode

            def rhs(t, y, a):
                return np.array([y[1], -a * y[0]])

            solver = ode(rhs).set_integrator("dopri5").set_f_params(2.0)
            solver = solver.set_initial_value(np.array([1.0, 0.0]), 0.0)
            trace = []
            while solver.successful() and solver.t < 100.0:
                trace.append(solver.integrate(solver.t + 0.01))
            """, line=11),
        # one orbit by leapfrog: the position and velocity are the written-out
        # 2-vectors the script hands the integrator, carried step to step
        Invalid("""
            import numpy as np

            def orbit(r, v, steps, dt):
                track = []
                for t in range(steps):
                    r_half = r + 0.5 * v * dt
                    v += -r_half / np.linalg.norm(r_half) ** 3 * dt
                    r = r_half + 0.5 * v * dt
                    track.append(r)
                return np.array(track)

            r = np.array([1.0, 0.0])
            v = np.array([0.0, 1.0])
            path = orbit(r, v, 100000, 0.001)
            """, line=5),
        # a carver walking a lattice: the position moves to one of the sites
        # the pass listed around it, so each step starts where the last ended
        Invalid("""
            import numpy as np

            def carve(Z, start, steps):
                y, x = start
                for k in range(steps):
                    moves = []
                    if x > 1:
                        moves.append((y, x - 2))
                    if x < Z.shape[1] - 2:
                        moves.append((y, x + 2))
                    target = moves[np.random.randint(len(moves))]
                    if Z[target] == 0:
                        Z[target] = 1
                        y, x = target
                return Z
            """, line=5),
        # over-relaxation in place: each x[i] is dotted with the whole x, the
        # elements this sweep already wrote included
        Invalid("""
            import numpy as np
            H = np.random.rand(50, 50)
            g = np.random.rand(50)
            x = np.zeros(50)
            for sweep in range(20):
                for i in range(50):
                    x[i] = x[i] + 0.8 * (np.dot(H[i, :], x) - x[i] + g[i])
            """, line=6),
        # an intensity carried from event to event in two steps (the decayed
        # value, then the jump): the pass branches on it, so it is one number,
        # and so is the log-likelihood summed from it
        Invalid("""
            import numpy as np

            def loglik(times, mu, alpha, beta):
                lam = mu + alpha
                total = np.log(mu)
                for k in range(2, len(times)):
                    decayed = mu + (lam - mu) * np.exp(-beta * (times[k] - times[k - 1]))
                    if decayed <= 0:
                        return -np.inf
                    total = total + np.log(decayed)
                    lam = decayed + alpha
                return total
            """, line=6),
        # an adaptive (LMS) filter: the weights are stepped once per sample,
        # each update from an error the current weights made
        Invalid("""
            import numpy as np

            class LMS:
                def __init__(self, taps, mu):
                    self.w = np.zeros(taps)
                    self.mu = mu

                def predict(self, x):
                    return np.dot(self.w, x)

                def run(self, d, x):
                    n = len(x)
                    y = np.zeros(n)
                    e = np.zeros(n)
                    for k in range(n):
                        y[k] = self.predict(x[k])
                        e[k] = d[k] - y[k]
                        self.w += self.mu * e[k] * x[k]
                    return y, e
            """, line=15, contains="carries 'self.w'"),
        # a sigma-delta modulator: the integrator's increment is decided by a
        # test on the integrator itself, once per input sample
        Invalid("""
            import numpy as np

            N = 4096
            out = np.zeros(N)
            x = np.cos(np.linspace(0.0, 50.0, N))
            v1 = 0.0
            for n in range(N):
                if x[n] - v1 > 0:
                    q = 1.0
                else:
                    q = -1.0
                out[n] = q
                v1 += q
                level = x * 0.5
            """, line=7, contains="carries 'v1'"),
        # a timing loop: each output sample is interpolated at a phase the loop
        # filter set from a window of the samples already written
        Invalid("""
            import numpy as np

            def recover(sig, gain):
                out = np.zeros(len(sig))
                phase = 0.0
                n = 2
                while n < len(sig) - 2:
                    out[n] = sig[n] + phase * (sig[n + 1] - sig[n])
                    err = np.dot(out[n - 2:n + 1], np.array([1.0, 0.0, -1.0]))
                    phase -= gain * err
                    n += 1
                return out
            """, line=7, contains="a value 'phase' carries"),
        # a closed loop kept in lists: each output from the one the last pass
        # appended, the controller's NumPy work in a helper
        Invalid("""
            import numpy as np

            def control(e):
                return 0.1 * e[-1] + 0.01 * np.sum(e)

            def simulate(steps, target):
                out, err = [], []
                for t in range(steps):
                    last = out[t - 1] if t > 0 else 0.0
                    err.append(target - last)
                    out.append(last + control(err))
                return out
            """, line=8, contains="each item of 'out'"),
        # Runge-Kutta on one number: the stages are elements of a four-element
        # array, the number a parameter gives is stored one element per step
        Invalid("""
            import numpy as np

            def rk4(f, t0, y0, h, n):
                ts = np.zeros(n)
                ys = np.zeros(n)
                t, y = t0, y0
                k = np.zeros(4)
                for i in range(n):
                    k[0] = h * f(t, y)
                    k[1] = h * f(t + h / 2, y + k[0] / 2)
                    k[2] = h * f(t + h / 2, y + k[1] / 2)
                    k[3] = h * f(t + h, y + k[2])
                    y += (k[0] + 2 * k[1] + 2 * k[2] + k[3]) / 6
                    t += h
                    ts[i] = t
                    ys[i] = y
                return ts, ys
            """, line=8, contains="'y'"),
        # Gauss-Seidel by rows: each unknown reads the prefix this sweep has
        # already updated (a dot product with x[:i]), sweep after sweep
        Invalid("""
            import numpy as np

            def gauss_seidel(A, b, sweeps):
                x = np.zeros_like(b)
                for _ in range(sweeps):
                    x_old = x.copy()
                    for i in range(A.shape[0]):
                        x[i] = (b[i] - np.dot(A[i, :i], x[:i]) - np.dot(A[i, i + 1:], x_old[i + 1:])) / A[i, i]
                return x
            """, line=7, contains="computes 'x' from values of earlier iterations"),
        # a plucked-string delay line: each sample appended is the average of
        # the two oldest, so the buffer feeds itself one sample at a time
        Invalid("""
            import numpy as np
            from collections import deque

            def pluck(n_samples, period, rng):
                line = deque(rng.uniform(-0.5, 0.5, period).tolist())
                out = np.zeros(n_samples)
                for i in range(n_samples):
                    out[i] = line[0]
                    line.append(0.498 * (line[0] + line[1]))
                    line.popleft()
                return out
            """, line=7, contains="'line'"),
        # integrate and fire: the potential decays, gains input and starts
        # again when it crosses a threshold — a test on its own value
        Invalid("""
            import numpy as np

            def neuron(inputs: np.ndarray, decay: float, threshold: float) -> list:
                v = 0.0
                spikes = []
                for t in range(len(inputs)):
                    v *= decay
                    v += inputs[t]
                    if v > threshold:
                        v = 0.0
                        spikes.append(t)
                return spikes
            """, line=6, contains="'v'"),
        # one timing loop per channel: the loop skips or repeats a sample as
        # its phase decides, so the channels' loops cannot run in step
        Invalid("""
            import numpy as np

            def recover_all(sig, gain):
                out = np.zeros(sig.shape)
                for ch in range(sig.shape[1]):
                    phase = 0.0
                    n = 1
                    while n < sig.shape[0] - 1:
                        out[n, ch] = sig[n, ch] + phase * (sig[n + 1, ch] - sig[n, ch])
                        phase -= gain * (out[n, ch] - out[n - 1, ch])
                        if phase > 1.0:
                            phase -= 1.0
                            n += 2
                        else:
                            n += 1
                return out
            """, line=8, contains="a value 'phase' carries"),
        # three masses on springs: the velocities are moved element by element
        # from the positions, the positions from the velocities, step by step
        Invalid("""
            import numpy as np

            N = 3
            x = np.array([-1.1, 0.2, 0.7])
            v = np.zeros(N)
            k = np.ones(N)
            for step in range(30000):
                x += 0.5e-3 * v
                for i in range(N - 1):
                    f = k[i] * (x[i + 1] - x[i] - 1.0)
                    v[i] += f * 1e-3
                    v[i + 1] -= f * 1e-3
                x += 0.5e-3 * v
            """, line=7, contains="'x'"),
        # temporal-difference learning: each update reads the table where the
        # walk goes next, and the walk continues from there
        Invalid("""
            import numpy as np

            def td0(env, episodes, alpha=0.1, gamma=0.9):
                V = np.zeros(env.n_states)
                for _ in range(episodes):
                    s = env.reset()
                    done = False
                    while not done:
                        s2, r, done = env.step(s)
                        delta = r + gamma * V[s2] - V[s]
                        V[s] += alpha * delta
                        s = s2
                return V
            """, line=8, contains="where 's' ended"),
        # error diffusion through a table of taps: each pixel pushes its error
        # to neighbours that later iterations read
        Invalid("""
            import numpy as np

            TAPS = [(1, 0, 7 / 16), (-1, 1, 3 / 16), (0, 1, 5 / 16), (1, 1, 1 / 16)]

            def dither(img):
                a = np.array(img, dtype=float)
                for y in range(a.shape[0]):
                    for x in range(a.shape[1]):
                        old = a[y, x]
                        new = np.round(old / 255.0) * 255.0
                        a[y, x] = new
                        for dx, dy, w in TAPS:
                            xn, yn = x + dx, y + dy
                            if 0 <= xn < a.shape[1] and yn < a.shape[0]:
                                a[yn, xn] += (old - new) * w
                return a
            """, line=7, contains="sweeps 'a' in place"),
        # an integer np.arange over the data's extent steps through indices like range
        Invalid("""
            import numpy as np

            def level(y, alpha, start):
                L = np.zeros(y.shape[0])
                for t in np.arange(start, y.shape[0]):
                    smoothed = alpha * y[t] + (1 - alpha) * L[t - 1]
                    L[t] = smoothed
                return L
            """, line=5, contains="computes 'L' from values of earlier iterations"),
        # an attack/release follower: the state goes through the output
        # element the iteration stored and comes back from it
        Invalid("""
            import numpy as np

            def follow(x, state, attack, release):
                out = np.zeros(x.shape[0])
                for i in range(x.shape[0]):
                    if state > x[i]:
                        out[i] = (1 - release) * state
                    else:
                        out[i] = attack * x[i] + (1 - attack) * state
                    state = out[i]
                return out
            """, line=5, contains="a value 'state' carries from one iteration to the next"),
        # a warping path's cost table: each cell adds the neighbour a step
        # table picked from the cells written before it
        Invalid("""
            import numpy as np

            def warp(D):
                moves = np.array([[-1, -1], [-1, 0], [0, -1]])
                C = np.zeros(D.shape)
                C[0, :] = np.cumsum(D[0, :])
                C[:, 0] = np.cumsum(D[:, 0])
                step = np.zeros(D.shape, dtype=int)
                for i in range(1, D.shape[0]):
                    for j in range(1, D.shape[1]):
                        step[i, j] = int(np.argmin([C[i - 1, j - 1], C[i - 1, j], C[i, j - 1]]))
                        prev = [i, j] + moves[step[i, j], :]
                        C[i, j] = D[i, j] + C[prev[0], prev[1]]
                return C
            """, line=9, contains="computes 'C' from values of earlier iterations"),
        # a two-species model: two numbers through every step of the integrator
        Invalid("""
            import numpy as np
            from scipy.integrate import odeint

            def deriv(state, t, a, b):
                prey, predator = state
                return [a * prey - b * prey * predator, b * prey * predator - a * predator]

            t = np.linspace(0.0, 70.0, 500)
            start = [20.0, 20.0]
            path = odeint(deriv, start, t, args=(0.5, 0.02))
            """, line=10, contains="odeint(...) integrates 2 numbers step by step"),
        Invalid("""
            import numpy as np
            from scipy.integrate import solve_ivp

            def lorenz(t, s, sigma=10.0, rho=28.0, beta=8.0 / 3.0):
                x, y, z = s
                return [sigma * (y - x), x * (rho - z) - y, x * y - beta * z]

            sol = solve_ivp(lorenz, (0.0, 40.0), y0=np.array([1.0, 1.0, 1.0]), max_step=0.01)
            """, line=8, contains="integrates 3 numbers"),
        # a one-number Metropolis chain; the name is reused for a plot grid
        # once the chain is done, which does not make the state large
        Invalid("""
            import numpy as np

            def pdf(x):
                return np.exp(-x * x / 2.0)

            x = 0.0
            chain = []
            delta = np.random.uniform(-0.5, 0.5, 100000)
            for i in range(100000):
                trial = x + delta[i]
                if np.random.uniform(0, 1) < pdf(trial) / pdf(x):
                    x = trial
                chain.append(x)
            x = np.arange(-6.0, 6.0, 0.01)
            """, line=9, contains="is a Markov chain: 'x'"),
        Invalid("""
            import numpy as np
            from collections import deque

            def lattice_steps(i, j, n):
                return [((i + 1) % n, j), ((i - 1) % n, j), (i, (j + 1) % n), (i, (j - 1) % n)]

            def cluster(spins, start):
                n = spins.shape[0]
                seen = np.zeros_like(spins, dtype=bool)
                q = deque([start])
                while q:
                    i, j = q.popleft()
                    nb = lattice_steps(i, j, n)
                    for a, b in nb:
                        if not seen[a, b] and spins[a, b] == spins[i, j]:
                            seen[a, b] = True
                            q.append((a, b))
                return seen
            """, line=11, contains="it also holds 1 scalar branch"),
        # a DP table filled through a view of it made before the loop
        Invalid("""
            import numpy as np

            def dtw(x, y):
                n, m = len(x), len(y)
                d0 = np.full((n + 1, m + 1), np.inf)
                d0[0, 0] = 0.0
                d1 = d0[1:, 1:]
                d1[:] = np.abs(x[:, None] - y[None, :])
                for i in range(n):
                    for j in range(m):
                        d1[i, j] += min(d0[i, j], d0[i, j + 1], d0[i + 1, j])
                return d1[-1, -1]
            """, line=9, contains="sequential recurrence"),
        # a two-body leapfrog on 2-element vectors: r and v feed each other
        Invalid("""
            import numpy as np
            r = np.array([1.0, 0.0])
            v = np.array([0.0, 1.0])
            for step in range(10000):
                a = -r / np.linalg.norm(r) ** 3
                v = v + a * 0.001
                r = r + v * 0.001
            """, line=4, contains="carries 'v'"),
        # a pairwise metric is ML compute (SPEC §4: estimators and metrics)
        Invalid("""
            import numpy as np
            from sklearn.metrics.pairwise import cosine_similarity

            def nearest(features):
                sim = cosine_similarity(features)
                return np.argsort(sim, axis=1)[:, -5:]
            """, line=2, contains="sklearn.metrics.pairwise.cosine_similarity"),
        # a three-coordinate state integrated step by step: the column is a few elements
        Invalid("""
            import numpy as np

            def lorenz(t, s):
                x, y, z = s
                return np.array([10 * (y - x), x * (28 - z) - y, x * y - 8 / 3 * z])

            def integrate(f, h, n, start):
                w = np.zeros((len(start), n + 1))
                w[:, 0] = start
                for i in range(n):
                    w[:, i + 1] = w[:, i] + h * f(i * h, w[:, i])
                return w

            initial = (5.0, 5.0, 5.0)
            path = integrate(lorenz, 0.001, 50000, initial)
            """, line=10),
        # one orbit of four numbers stepped by RK4; the clock array handed to
        # the right-hand side is never read, so it adds no whole-array work
        Invalid("""
            import numpy as np

            N = 1000
            t = np.zeros(N)

            def kepler(U, t):
                x, y, vx, vy = U[0], U[1], U[2], U[3]
                r3 = (x ** 2 + y ** 2) ** 1.5
                return np.array([vx, vy, -x / r3, -y / r3])

            U = np.array([1.0, 0.0, 0.0, 1.0])
            xs = np.zeros(N)
            for i in range(N):
                k1 = kepler(U, t)
                k2 = kepler(U + k1 * 0.005, t + 0.005)
                U = U + 0.01 * (k1 + k2) / 2
                xs[i] = U[0]
            """, line=13),
        # the helper reads the element the previous pass wrote
        Invalid("""
            import numpy as np

            def smooth(y, x, n):
                return 0.9 * y[n - 1] + 0.1 * x[n]

            x = np.random.normal(size=100000)
            y = np.zeros_like(x)
            for n in range(1, len(x)):
                y[n] = smooth(y, x, n)
            """, line=8),
        # the helper scales what it is handed: each pass needs the one before
        Invalid("""
            import numpy as np

            def decay(speed, state):
                state = 0.9 * state + speed
                return state

            v = np.random.randint(0, 5, size=200)
            state = 0.0
            for step in range(1000):
                for i in range(200):
                    state = decay(v[i], state)
            """, line=9),
        # an Euler step over the items of an integer arange: each item is the step index
        Invalid("""
            import numpy as np
            steps = 200
            x = np.arange(steps)
            S = np.zeros(steps)
            I = np.zeros(steps)
            S[0], I[0] = 990.0, 10.0
            for t in x[:-1]:
                new = 0.3 / 1000 * S[t] * I[t]
                S[t + 1] = S[t] - new
                I[t + 1] = I[t] + new - 0.1 * I[t]
            """, line=7),
        Invalid("""
            import numpy as np
            import scipy.sparse as sp
            m = sp.csr_matrix(np.eye(4))
            """, line=2, contains="sparse"),
        # a network written in NumPy, trained by a SciPy minimiser
        Invalid(
            """
            import numpy as np
            from scipy import optimize

            def sigmoid(z):
                return 1.0 / (1.0 + np.exp(-z))

            def cost(w, X, y):
                W = w.reshape(3, 4)
                p = sigmoid(X @ W.T)
                return np.sum((p - y) ** 2)

            X = np.random.rand(500, 4)
            y = np.random.rand(500, 3)
            w = optimize.fmin_cg(cost, np.zeros(12), args=(X, y))
            """,
            line=14, contains="trains a neural network",
        ),
        # a Markov chain over a few parameters
        Invalid(
            """
            import numpy as np

            def log_post(theta, data):
                return -np.sum((data - theta[0]) ** 2) / theta[1] ** 2

            data = np.random.normal(1.0, 0.5, 40)
            theta = np.array([0.0, 1.0])
            chain = np.zeros((5000, 2))
            for i in range(5000):
                proposal = theta + np.random.normal(0.0, 0.1, 2)
                if np.random.rand() < np.exp(log_post(proposal, data) - log_post(theta, data)):
                    theta = proposal
                chain[i] = theta
            """,
            line=9,
            contains="Markov chain",
        ),
        # a filter over a 4-number state, carried through a helper
        Invalid(
            """
            import numpy as np

            def step(x, P, z):
                K = P @ np.linalg.inv(P + np.eye(4))
                return x + K @ (z - x), (np.eye(4) - K) @ P

            x = np.zeros(4)
            P = np.eye(4)
            zs = np.random.normal(0.0, 1.0, (1000, 4))
            for z in zs:
                x, P = step(x, P, z)
            """,
            line=10,
            contains="carries 'x' from one iteration to the next",
        ),
        Invalid(
            """
            import numpy as np
            from sklearn.linear_model import Ridge
            X = np.ones((8, 2))
            model = Ridge()
            model.fit(X, X[:, 0])
            """,
            line=2, contains="model.fit at line 5",
        ),
        Invalid(
            """
            import numpy as np
            y = np.zeros(100)
            x = np.ones(100)
            for n in range(1, 100):
                y[n] = 0.9 * y[n - 1] + x[n]
            """,
            line=4, contains="sequential recurrence",
        ),
        Invalid(
            """
            import numpy as np
            from collections import deque

            def bfs(adj, start):
                seen = {start}
                queue = deque([start])
                order = []
                while queue:
                    u = queue.popleft()
                    order.append(u)
                    for v in adj[u]:
                        if v not in seen:
                            seen.add(v)
                            queue.append(v)
                return np.array(order)
            """,
            line=8, contains="graph traversal",
        ),
        # dart throwing from an active list: a drawn point leaves the list, the
        # candidates around it that fit join it through a helper
        Invalid("""
            import numpy as np

            def poisson_disc(grid, radius, k, sampler):
                active = [np.array([0.5, 0.5])]

                def accept(p):
                    active.append(p)
                    grid[tuple((p / radius).astype(int))] = 1

                while len(active):
                    i = np.random.randint(len(active))
                    p = active[i]
                    del active[i]
                    for q in sampler(p, radius, k):
                        if grid[tuple((q / radius).astype(int))] == 0:
                            accept(q)
                return grid
            """, line=10, contains="graph traversal"),
        # annealing through a helper: two drawn cities swapped, kept or undone against a draw
        Invalid("""
            import random
            import numpy as np
            xs = [0.0, 10.0, 9.0, 5.0, 10.0, 5.0, 4.0, 2.0]

            def length(p):
                return sum(abs(p[k + 1] - p[k]) for k in range(len(p) - 1))

            def swap(p, beta):
                i, j = random.randint(0, 7), random.randint(0, 7)
                old = length(p)
                p[i], p[j] = p[j], p[i]
                if random.random() > np.exp(-beta * (length(p) - old)):
                    p[i], p[j] = p[j], p[i]

            for t in range(100000):
                swap(xs, 1.0 / (20.0 * np.exp(-t / 1000.0)))
            """, line=15, contains="a site of 'xs' drawn each step"),
        # a Gibbs sampler: x is drawn from y, then y from x; y carries the chain
        Invalid("""
            import numpy as np
            n = 100000
            samples = np.zeros((n, 2))
            x, y = 0.0, 0.0
            for i in range(n):
                x = np.random.normal(0.5 * y, 0.8)
                y = np.random.normal(0.5 * x, 0.8)
                samples[i, 0] = x
                samples[i, 1] = y
            """, line=5, contains="a value 'y' carries from one iteration"),
        # Gauss-Seidel: each update reads neighbours this sweep already wrote
        Invalid("""
            import numpy as np
            def relax(u: np.ndarray, f: np.ndarray) -> np.ndarray:
                n = u.shape[0]
                for i in range(1, n - 1):
                    for j in range(1, n - 1):
                        u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - f[i, j])
                return u
            """, line=4, contains="sweeps 'u' in place"),
        # Gauss-Seidel on a dense system by loops: x_new[i] from the x_new[j]
        # this sweep already wrote (j < i); the Jacobi form beside it, which
        # reads only the previous sweep's x, is an element loop (CPN101)
        Invalid("""
            import numpy as np
            def gauss_seidel(A, f, x, sweeps=100):
                n = A.shape[0]
                x_new = np.zeros(n)
                for k in range(sweeps):
                    for i in range(n):
                        s1, s2 = 0.0, 0.0
                        for j in range(n):
                            if j < i:
                                s1 += A[i, j] * x_new[j]
                            elif j > i:
                                s2 += A[i, j] * x[j]
                        x_new[i] = (f[i] - s1 - s2) / A[i, i]
                    x = x_new
                return x
            """, line=6, contains="computes 'x_new' from values of earlier iterations"),
        # each row of a DP table read only from earlier rows (steps (1, 1),
        # (2, 1), (1, 2)), filled cell by cell along the rows of the input:
        # the rows wait for each other, each as wide as one row (a line sweep)
        Invalid("""
            import numpy as np
            def accumulate(C):
                N, M = C.shape
                D = np.zeros((N + 2, M + 2))
                for n in range(N):
                    for m in range(M):
                        D[n + 2, m + 2] = C[n, m] + min(D[n + 1, m + 1], D[n, m + 1], D[n + 1, m])
                return D
            """, line=5, contains="fills each line of 'D' from the line before"),
        # a Wolff cluster grown from a pocket: a random member is taken and
        # removed, its like neighbours join the pocket (a graph traversal)
        Invalid("""
            import numpy as np

            def grow_cluster(spins, neighbours, p):
                k = np.random.randint(0, len(spins))
                pocket = [k]
                cluster = [k]
                while pocket != []:
                    s = np.random.choice(pocket)
                    for n in neighbours[s]:
                        if spins[n] == spins[s] and n not in cluster and np.random.random_sample() < p:
                            pocket.append(n)
                            cluster.append(n)
                    pocket.remove(s)
                return cluster
            """, line=7, contains="graph"),
        # a walker kept on the object: a method moves self.pos from where it was,
        # and the loop freezes the walker into the lattice where it stops
        Invalid("""
            import numpy as np

            class Aggregate:
                def __init__(self, L):
                    self.L = L
                    self.lattice = np.zeros((L, L), dtype=int)
                    self.pos = np.zeros(2, dtype=int)
                    self.moves = np.array([[-1, 0], [1, 0], [0, -1], [0, 1]])

                def move(self):
                    new_pos = self.pos + self.moves[np.random.randint(4)]
                    self.pos = np.clip(new_pos, 0, self.L - 1)

                def run(self, steps):
                    for k in range(steps):
                        self.move()
                        if self.lattice[self.pos[0], self.pos[1]] > 0:
                            break
            """, line=15, contains="walks 'lattice'"),
        # raster-order labelling: each pixel takes the label of its upper or left
        # neighbour (clamped at the edge with max), read through a few names
        Invalid("""
            import numpy as np
            def label_pixels(mask):
                H, W = mask.shape
                label = mask.astype(int)
                n = 1
                for y in range(H):
                    for x in range(W):
                        if label[y, x] == 0:
                            continue
                        up = label[max(y - 1, 0), x]
                        left = label[y, max(x - 1, 0)]
                        pair = [up, left]
                        seen = [a for a in pair if a > 1]
                        if not seen:
                            n += 1
                            label[y, x] = n
                        else:
                            label[y, x] = min(seen)
                return label
            """, line=6, contains="computes 'label' from values of earlier iterations"),
        # a DP table over the rows of an input image, filled cell by cell from
        # the row before: each row waits for the last (a line sweep)
        Invalid("""
            import numpy as np
            def cumulative_energy(energy):
                h, w = energy.shape
                M = energy.copy()
                for i in range(1, h):
                    for j in range(1, w - 1):
                        M[i, j] += np.min(M[i - 1, j - 1:j + 2])
                return M
            """, line=5, contains="fills each line of 'M' from the line before"),
        # a DTW table kept in a dict, filled over a list of cells
        Invalid("""
            import numpy as np
            from collections import defaultdict

            def dtw(x, y):
                x, y = np.asarray(x), np.asarray(y)
                cells = [(i + 1, j + 1) for i in range(len(x)) for j in range(len(y))]
                D = defaultdict(lambda: float("inf"))
                D[0, 0] = 0.0
                for i, j in cells:
                    cost = abs(x[i - 1] - y[j - 1])
                    D[i, j] = cost + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
                return D[len(x), len(y)]
            """, line=9, contains="computes 'D' from values of earlier iterations"),
        # Levinson-Durbin: the error P scales by a factor computed from P itself
        Invalid("""
            import numpy as np

            def levinson(r, order):
                r = np.asarray(r, dtype=float)
                a = np.zeros(order)
                p = r[0]
                for k in range(order):
                    acc = r[k + 1]
                    for j in range(k):
                        acc = acc + a[j] * r[k - j]
                    g = -acc / p
                    p = p * (1.0 - g * g)
                    a[k] = g
                return a, p
            """, line=7, contains="carries 'p'"),
        # single-site Metropolis: each step flips a drawn site of the lattice or not
        Invalid("""
            import numpy as np

            def sweep(S, beta, steps):
                n = S.shape[0]
                for t in range(steps):
                    x = np.random.randint(0, n)
                    y = np.random.randint(0, n)
                    dE = 2 * S[x, y] * (S[(x + 1) % n, y] + S[x - 1, y] + S[x, (y + 1) % n] + S[x, y - 1])
                    if dE <= 0 or np.random.random() < np.exp(-beta * dE):
                        S[x, y] = -S[x, y]
                return S
            """, line=5, contains="a site of 'S' drawn each step"),
        # a priority flood fill: `while True` around a pop through a local alias
        Invalid("""
            import heapq
            import numpy as np

            def fill(dem):
                out = np.full(dem.shape, np.inf)
                heap = [(dem[0, 0], 0, 0)]
                get = heapq.heappop
                while True:
                    try:
                        h, r, c = get(heap)
                    except IndexError:
                        break
                    for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                        if out[nr, nc] == np.inf:
                            out[nr, nc] = max(h, dem[nr, nc])
                            heapq.heappush(heap, (out[nr, nc], nr, nc))
                return out
            """, line=8, contains="pops nodes from 'heap'"),
        Invalid("""
            import numpy as np
            names = np.array(['a b', 'c d'])
            upper = np.char.upper(names)
            """, line=3, contains="string/NLP"),
        # simulated annealing: the state and its energy accepted together against a draw
        Invalid("""
            import numpy as np
            def energy(x):
                return np.sum(x ** 2) + np.sum(np.sin(5 * x))
            x = np.random.randn(10)
            e = energy(x)
            for k in range(100000):
                cand = x + 0.1 * np.random.randn(10)
                ec = energy(cand)
                if ec < e or np.random.rand() < np.exp(e - ec):
                    x, e = cand, ec
            """, line=6, contains="Markov chain"),
        # a walker on a lattice: each step reads the site where the last one ended
        Invalid("""
            import numpy as np
            lattice = np.random.rand(512, 512)
            pos = np.array([256, 256])
            for t in range(100000):
                step = np.random.randint(4)
                if lattice[pos[0], pos[1]] > 0.5:
                    pos[step % 2] += 1 if step < 2 else -1
                pos %= 512
            """, line=4, contains="walks 'lattice'"),
        # a DP table in shifted indices that reads the cell before it in the
        # same row (D[n + 2, m + 1] for D[n + 2, m + 2]): a wavefront
        Invalid("""
            import numpy as np
            def accumulate(C):
                N, M = C.shape
                D = np.zeros((N + 2, M + 2))
                for n in range(N):
                    for m in range(M):
                        D[n + 2, m + 2] = C[n, m] + min(D[n + 1, m + 1], D[n + 2, m + 1], D[n + 1, m + 2])
                return D
            """, line=5, contains="earlier iterations"),
        # Wilder's smoothing: the state starts from a sum divided by a parameter
        # whose default is a number, so it is a number carried sample by sample
        Invalid("""
            import numpy as np

            def rsi(prices, n=14):
                deltas = np.diff(prices)
                up = deltas[:n][deltas[:n] > 0].sum() / n
                out = np.zeros_like(prices)
                for i in range(n, len(prices)):
                    gain = max(deltas[i - 1], 0)
                    up = (up * (n - 1) + gain) / n
                    out[i] = up
                return out
            """, line=7, contains="value 'up' carries"),
        # a DP table filled through a scratch array (Needleman-Wunsch): the
        # three candidates come from cells behind, their max is the new cell
        Invalid("""
            import numpy as np

            def align(x, y, gap):
                F = np.zeros((len(x) + 1, len(y) + 1))
                t = np.zeros(3)
                for i in range(len(x)):
                    for j in range(len(y)):
                        t[0] = F[i, j] + (1 if x[i] == y[j] else -1)
                        t[1] = F[i, j + 1] - gap
                        t[2] = F[i + 1, j] - gap
                        F[i + 1, j + 1] = np.max(t)
                return F
            """, line=6, contains="earlier iterations"),
        # an integrator handed its initial state through a parameter whose
        # callers pass three numbers (or leave the default): one trajectory
        Invalid("""
            import numpy as np
            from scipy.integrate import odeint

            def rates(x, t, r0):
                s, i, c = x
                return -r0 * s * i, r0 * s * i - i / 9, i / 9

            x_0 = 0.999, 0.001, 0.0

            def solve(r0, t, x_init=x_0):
                return odeint(rates, x_init, t, args=(r0,))

            t = np.linspace(0, 500, 100000)
            paths = [solve(r0, t) for r0 in (1.5, 2.0)]
            late = solve(2.5, t, x_init=(0.99, 0.01, 0.0))
            """, line=11, contains="odeint"),
        # a root of one number per parameter value: each bracket step needs the last
        Invalid("""
            import numpy as np
            from scipy.optimize import brentq

            def excess(s, r0):
                return s - np.log(s) / r0

            def final_size(r0):
                return brentq(lambda s: excess(s, r0) - 1.0, 1e-6, 0.999)

            sizes = [final_size(r0) for r0 in np.linspace(1.1, 4.0, 500)]
            """, line=8, contains="solves for one number"),
        # union-find run per pixel: find chases parent links that union writes,
        # so the pixels depend on each other (unlike a bisection per row)
        Invalid("""
            import numpy as np

            def find(label, parent):
                j = int(label)
                while parent[j] != 0:
                    j = parent[j]
                return j

            def union(a, b, parent):
                ra, rb = find(a, parent), find(b, parent)
                if ra != rb:
                    parent[rb] = ra

            def label(image):
                h, w = image.shape
                parent = np.zeros(image.size, dtype=int)
                for y in range(1, h):
                    for x in range(1, w):
                        if image[y, x] and image[y - 1, x]:
                            union(y * w + x, (y - 1) * w + x, parent)
                return parent
            """, line=5, contains="carries 'j'"),
        Invalid("""
            import numpy as np
            import scipy
            m = scipy.sparse.identity(5)
            """, line=3, contains="scipy.sparse"),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        # Library imports are evidence of the workload with or without NumPy
        # in the file; loops and string calls are judged on NumPy code only.
        evidence = [*_import_evidence(model), *_bare_root_sparse(model)]
        if model.uses_numpy():
            evidence += [*_traversals(model), *_string_calls(model), *_recurrence_loops(model),
                         *_optimiser_training(model), *_ode_integrations(model), *_per_call_recurrences(model)]
        for item in sorted(evidence, key=lambda e: (getattr(e.node, "lineno", 0), getattr(e.node, "col_offset", 0))):
            yield self.finding(
                item.node,
                in_loop=item.in_loop,
                data={"kind": item.kind, **{k: v for k, v in item.extra if k != "advice"},
                      "regions": _regions(model, item), "library_work": _library_work(model, item)},
                evidence=item.text,
                origin=item.origin,
                **_consequence(item),
            )


def _consequence(item: _Evidence) -> dict[str, str]:
    """What the evidence means for the port. A running sum or product is
    one ``np.cumsum``/``np.cumprod`` call away: a fix, not Gate 4."""
    scan = dict(item.extra).get("scan")
    if scan:
        return {"consequence": f"a running {'sum' if scan == 'cumsum' else 'product'} needs no loop",
                "advice": f"replace the loop with one np.{scan} call (RR-loop)",
                "headline": f"running {'sum' if scan == 'cumsum' else 'product'} in a loop: use np.{scan}"}
    return {"consequence": f"{_WORKLOAD[item.kind]} is outside what cuPyNumeric accelerates (Gate 4)",
            "advice": dict(item.extra).get("advice", _ADVICE[item.kind]),
            "headline": f"{_KIND_WORDS[item.kind]} work is outside cuPyNumeric (Gate 4)"}


# ------------------------------------------------------------------ regions
def _regions(model: FileModel, item: _Evidence) -> list[list[int]]:
    """The lines whose work the evidence covers, as ``[first, last]`` spans,
    for the verdict's share of array work (Gate 4): a loop's own lines; for
    an import, every function that uses the library (a use outside
    functions: its statement)."""
    module = dict(item.extra).get("module")
    if module is None or not isinstance(item.node, (ast.Import, ast.ImportFrom, ast.Attribute)):
        node = item.node
        spans = {(getattr(node, "lineno", 1), getattr(node, "end_lineno", None) or getattr(node, "lineno", 1))}
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            spans |= _called_from(model, node)  # a chain's step: the functions each iteration calls
        spans |= {tuple(span) for span in dict(item.extra).get("covers", ())}  # type: ignore[misc]
        return [list(span) for span in sorted(spans)]
    root = _import_root(str(module))
    return [list(span) for span in model.derived(("cpn410-library-spans", root), lambda m: _library_spans(m, root))]


def _library_spans(model: FileModel, root: str) -> list[tuple[int, int]]:
    """The spans of every function (or outside functions, statement) that
    uses the library ``root``; the same for every finding of the file."""
    spans: set[tuple[int, int]] = set()
    for node in model.imported_name_uses():  # only these resolve to a library's name
        if not isinstance(getattr(node, "ctx", None), ast.Load) or isinstance(model.parent(node), ast.Attribute):
            continue
        if not _in_library(model.qualname(node) or "", root):
            continue
        scope = model.scope_of(node).function_like()
        owner = scope.node if scope.parent is not None else model.statement_of(node)
        if owner is not None and hasattr(owner, "lineno"):
            spans.add((owner.lineno, getattr(owner, "end_lineno", None) or owner.lineno))
    return sorted(spans)


def _called_from(model: FileModel, loop: ast.AST, depth: int = 3) -> set[tuple[int, int]]:
    """The spans of the file's own functions a loop calls, and those they call."""
    spans: set[tuple[int, int]] = set()
    todo: list[tuple[ast.AST, int]] = [(loop, 0)]
    seen: set[int] = set()
    while todo:
        node, level = todo.pop()
        for call in (n for n in walk(node) if isinstance(n, ast.Call)):
            scope = model.calls.callee(call)
            if scope is None or id(scope) in seen or level >= depth:
                continue
            seen.add(id(scope))
            definition = scope.node
            spans.add((definition.lineno, getattr(definition, "end_lineno", None) or definition.lineno))  # type: ignore[attr-defined]
            todo.append((definition, level + 1))
    return spans


LOOP_WEIGHT = 5  # a call repeated by a loop stands for more work than one made once


def _library_work(model: FileModel, item: _Evidence) -> int:
    """How much work the out-of-scope library stands for: the file's calls
    into it (``nx.shortest_path(...)``, and methods of what it made:
    ``g.neighbors``) and its reads of what the library returned (``sim[i]``,
    a row of a similarity matrix), each weighing LOOP_WEIGHT inside a loop,
    1 outside. The verdict adds it to the array work when it weighs Gate 4.
    Evidence that is not an import (a recurrence loop, a string call) has
    none here."""
    module = dict(item.extra).get("module")
    if module is None:
        return 0
    root = _import_root(str(module))
    work = 0
    for call in model.nodes(ast.Call):
        func = call.func
        made_by_library = _in_library(model.qualname(func) or "", root)
        if not made_by_library and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            made_by_library = _made_by_library(model, func.value, root)
        if made_by_library:
            work += LOOP_WEIGHT if hot_loop(model, call) is not None else 1
    for read in model.nodes(ast.Subscript):
        if isinstance(read.ctx, ast.Load) and isinstance(read.value, ast.Name) and _made_by_library(model, read.value, root):
            work += LOOP_WEIGHT if hot_loop(model, read) is not None else 1
    return work


def _made_by_library(model: FileModel, name: ast.Name, root: str) -> bool:
    return any(_in_library(origin, root) for origin in _constructors(model, name))


def _import_root(qualname: str) -> str:
    """The module prefix an evidence import stands for (``scipy.sparse`` for
    ``scipy.sparse.linalg.spsolve``)."""
    for prefix, _ in _IMPORT_KINDS:
        if _within(qualname, prefix):
            return prefix
    return qualname


def _is_utility(qualname: str) -> bool:
    return any(_within(qualname, utility) for utility in _DATA_UTILITIES)


def _in_library(qualname: str, root: str) -> bool:
    """``qualname`` belongs to the library ``root`` stands for (scikit-learn's
    data utilities do not: they make the program's data)."""
    return _within(qualname, root) and not _is_utility(qualname)


# ------------------------------------------------------------------ imports
def _import_kind(qualname: str) -> str | None:
    if _is_utility(qualname):
        return None
    for prefix, kind in _IMPORT_KINDS:
        if qualname == prefix or qualname.startswith(prefix + "."):
            return kind
    return None


# Tensor libraries are array engines as well as ML frameworks: their import is
# ML evidence only when the file reaches for the learning parts.
_TENSOR_LIBRARIES = ("torch", "tensorflow")
_LEARNING_PARTS = ("torch.nn", "torch.optim", "torch.autograd", "torch.utils.data", "torch.distributions",
                   "tensorflow.keras", "tensorflow.nn", "tensorflow.train", "tensorflow.optimizers",
                   "tensorflow.GradientTape", "tensorflow.losses", "tensorflow.metrics", "tensorflow.estimator",
                   "tensorflow.compat.v1.train", "tensorflow.data")
_LEARNING_METHODS = frozenset({"backward", "zero_grad", "fit", "compile", "train_on_batch", "predict"})


def _tensors_only(model: FileModel, root: str) -> bool:
    """Is ``root`` (torch, tensorflow) used as an array engine alone:
    tensors, random draws and math (``torch.randn``, ``tf.exp``), no
    layers, optimisers, gradients or training calls anywhere in the file?"""
    if any(_within(r.qualname, part) for r in model.imports.records for part in _LEARNING_PARTS):
        return False
    used = False  # an import with no use says nothing either way: left as evidence
    for node in model.nodes(ast.Attribute):
        qualname = model.qualname(node)
        if qualname is None or not _within(qualname, root):
            continue
        if any(_within(qualname, part) for part in _LEARNING_PARTS):
            return False
        used = True
    return used and not any(isinstance(call.func, ast.Attribute) and call.func.attr in _LEARNING_METHODS
                            for call in model.nodes(ast.Call))


def _import_evidence(model: FileModel) -> Iterator[_Evidence]:
    by_statement: dict[ast.stmt, list[tuple[str, str]]] = {}
    arrays_only = {root: _tensors_only(model, root) for root in _TENSOR_LIBRARIES
                   if any(_within(r.qualname, root) for r in model.imports.records)}
    for record in model.imports.records:
        kind = _import_kind(record.qualname)
        if kind == "ml" and arrays_only.get(record.qualname.partition(".")[0]):
            continue  # torch.randn and tf.exp: another array library, no learning
        if kind is not None and not _optional_import(model, record.node):
            by_statement.setdefault(record.node, []).append((record.qualname, kind))
    calls = _training_calls(model) if any(k in ("ml", "nlp") for hits in by_statement.values() for _, k in hits) else []
    for statement, hits in by_statement.items():
        qualname, kind = hits[0]
        text = f"import of {qualname}"
        if kind in ("ml", "nlp"):
            mine = [where for origin, where in calls if any(_within(origin, q) for q, _ in hits)]
            if mine:
                more = f" and {len(mine) - 2} more" if len(mine) > 2 else ""
                text += f" (training/inference calls: {', '.join(mine[:2])}{more})"
        yield _Evidence(statement, kind, text, f"import {qualname}", extra=(("module", qualname),))


def _within(name: str, module: str) -> bool:
    return name == module or name.startswith(module + ".")


def _optional_import(model: FileModel, statement: ast.stmt) -> bool:
    """Inside ``try: ... except ImportError`` or ``if TYPE_CHECKING:``."""
    child: ast.AST = statement
    for ancestor in model.ancestors(statement):
        if isinstance(ancestor, ast.Try) and any(child is s for s in ancestor.body):
            if any(_catches_import_error(h) for h in ancestor.handlers):
                return True
        if isinstance(ancestor, ast.If) and any(child is s for s in ancestor.body) and is_type_checking(ancestor.test):
            return True
        child = ancestor
    return False


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(t, ast.Name) and t.id in ("ImportError", "ModuleNotFoundError", "Exception") for t in types)


def _training_calls(model: FileModel) -> list[tuple[str, str]]:
    """``(what made the receiver, "model.fit at line 13")`` for each training
    or inference call whose receiver was built by an imported constructor
    (``model = Ridge(); model.fit(...)`` or ``Ridge().fit(...)``)."""
    found = []
    for call in model.nodes(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in _TRAINING_CALLS):
            continue
        for origin in _constructors(model, func.value):
            found.append((origin, f"{model.segment(func, 30)} at line {call.lineno}"))
            break
    return found


def _constructors(model: FileModel, receiver: ast.expr) -> list[str]:
    values: list[ast.expr] = [receiver]
    if isinstance(receiver, ast.Name):
        values = [b.value for b in model.reaching_bindings(receiver) if b.value is not None]
    names = []
    for value in values:
        if isinstance(value, ast.Call):
            qualname = model.qualname(value.func)
            if qualname is not None:
                names.append(qualname)
    return names


def _bare_root_sparse(model: FileModel) -> Iterator[_Evidence]:
    """``import scipy`` then ``scipy.sparse.x``: the first use, once per file."""
    if any(_import_kind(r.qualname) in ("sparse", "graph") and r.qualname.startswith("scipy.") for r in model.imports.records):
        return  # the import itself is reported
    uses = [a for a in model.nodes(ast.Attribute) if (model.qualname(a) or "").startswith("scipy.sparse")]
    outermost = [a for a in uses if not isinstance(model.parent(a), ast.Attribute)]
    if not outermost:
        return
    first = min(outermost, key=lambda a: (a.lineno, a.col_offset))
    qualname = model.qualname(first) or "scipy.sparse"
    kind = _import_kind(qualname) or "sparse"
    statement = model.statement_of(first) or first
    yield _Evidence(statement, kind, f"use of {qualname}", qualname, extra=(("module", qualname),))


# ---------------------------------------------------------------- traversal
def _traversals(model: FileModel) -> Iterator[_Evidence]:
    for frame in traversal_loops(model):
        queue = worklist_queue(model, frame).id  # type: ignore[union-attr]
        text = f"loop 'while {model.segment(frame.node.test, 30)}' pops nodes from '{queue}' and pushes their neighbours"  # type: ignore[attr-defined]
        folded = folded_counts(model, root_at(model, frame, "CPN410"))
        extra: tuple[tuple[str, object], ...] = ()
        if folded:
            extra = (("folded", folded), ("advice", _ADVICE["graph"] + folded_text(folded)))
        yield _Evidence(frame.node, "graph", text, _loop_header(model, frame), in_loop=True, extra=extra)


# ------------------------------------------------------------------ strings
def _string_calls(model: FileModel) -> Iterator[_Evidence]:
    reported: set[ast.stmt] = set()
    for call in model.nodes(ast.Call):
        api = model.array_api(call.func)
        if api is None or not api.startswith(("char.", "strings.")):
            continue
        statement = model.statement_of(call)
        if statement is None or statement in reported:
            continue
        reported.add(statement)
        text = f"{model.segment(call.func, 30)}(...) processes strings"
        yield _Evidence(call, "nlp", text, f"{model.segment(call.func, 30)}(...)", in_loop=hot_loop(model, call) is not None, extra=(("api", f"numpy.{api}"),))


# ------------------------------------------------- training by an optimiser
# SciPy minimisers that call back into the file's cost (and gradient) function.
_MINIMISERS = frozenset({
    "scipy.optimize.minimize", "scipy.optimize.fmin_cg", "scipy.optimize.fmin_bfgs", "scipy.optimize.fmin_l_bfgs_b",
    "scipy.optimize.fmin_ncg", "scipy.optimize.fmin_tnc",
})
_CALLBACK_KEYWORDS = ("fun", "f", "func", "fprime", "jac")
_TRAINING_ADVICE = "train it with an ML framework (PyTorch, JAX) on the GPU and port only the array code around it"
_ACTIVATION_APIS = frozenset({"tanh", "scipy.special.expit", "scipy.special.softmax"})


def _optimiser_training(model: FileModel) -> Iterator[_Evidence]:
    """A neural network trained by a SciPy minimiser: the cost or gradient
    function it calls back applies an activation (``tanh``, ``expit``, or
    the file's own sigmoid ``1 / (1 + exp(-z))``) to a matrix product. A
    fit of a model's few parameters has no such layer and stays quiet."""
    for call in model.nodes(ast.Call):
        if (model.qualname(call.func) or "") not in _MINIMISERS:
            continue
        callbacks = [model.calls.function(arg) for arg in callback_args(call, _CALLBACK_KEYWORDS)]
        functions = [scope for scope in callbacks if scope is not None]
        layer = next((f for f in functions if _applies_activation_to_product(model, f.node)), None)
        if layer is None:
            continue
        covered = _called_from(model, call, depth=2)
        text = (f"{model.segment(call.func, 30)}(...) trains a neural network "
                f"(an activation of a matrix product in {layer.name})")
        yield _Evidence(call, "ml", text, f"{model.segment(call.func, 30)}(...)", in_loop=hot_loop(model, call) is not None,
                        extra=(("covers", sorted(covered | _spans(functions))), ("advice", _TRAINING_ADVICE)))


def _per_call_recurrences(model: FileModel) -> Iterator[_Evidence]:
    """A method that carries a few numbers on the object from one call to the
    next (a filter's delay line): the caller's loop, out of sight, is a
    recurrence (see :mod:`..model.call_recurrences`)."""
    for found in call_recurrences(model):
        state = ", ".join(f"self.{attr}" for attr in found.state[:3])
        text = f"method '{found.method.name}' carries {state} from one call to the next: each call needs the last"
        yield _Evidence(found.method.node, "recurrence", text, f"def {found.method.name}",
                        extra=(("covers", sorted(_spans([found.method]))),))


_ODE_ADVICE = ("keep the integration on the host, or integrate many trajectories at once "
               "as the rows of one array (one time loop, vectorised across them)")


def _ode_integrations(model: FileModel) -> Iterator[_Evidence]:
    """A SciPy integrator stepping a state of a few numbers (``odeint(deriv,
    [20, 20], t)``): every step needs the one before, and the state is far
    too small to spread over GPUs (see :mod:`..model.integrators`)."""
    for call in model.nodes(ast.Call):
        found = small_state_chain(model, call)
        if found is None:
            continue
        name = model.segment(call.func, 30)
        size = found.state_size
        text = (f"{name}(...) solves for one number step by step" if found.solve
                else f"{name}(...) integrates {size} number{'s' if size != 1 else ''} step by step")
        covered = _called_from(model, call, depth=2) | _spans(list(found.callbacks))
        yield _Evidence(call, "recurrence", text, f"{name}(...)", in_loop=hot_loop(model, call) is not None,
                        extra=(("covers", sorted(covered)), ("advice", _ODE_ADVICE)))


def _spans(functions: list) -> set[tuple[int, int]]:  # type: ignore[type-arg]
    return {(f.node.lineno, getattr(f.node, "end_lineno", None) or f.node.lineno) for f in functions}


def _applies_activation_to_product(model: FileModel, function: ast.AST) -> bool:
    for call in (n for n in walk(function) if isinstance(n, ast.Call)):
        if not any(_is_matrix_product(model, arg) for arg in call.args):
            continue
        api = model.array_api(call.func) or model.qualname(call.func) or ""
        if api in _ACTIVATION_APIS:
            return True
        callee = model.calls.callee(call)
        if callee is not None and _is_sigmoid(model, callee.node):
            return True
    return False


def _is_matrix_product(model: FileModel, expr: ast.expr) -> bool:
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.MatMult):
        return True
    return isinstance(expr, ast.Call) and model.array_api(expr.func) in ("dot", "matmul")


def _is_sigmoid(model: FileModel, function: ast.AST) -> bool:
    """A function returning ``1 / (1 + exp(-z))`` or ``tanh(z)``."""
    for ret in (n for n in walk(function) if isinstance(n, ast.Return) and n.value is not None):
        for node in walk(ret.value):
            if isinstance(node, ast.Call) and model.array_api(node.func) == "tanh":
                return True
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and any(
                isinstance(c, ast.Call) and model.array_api(c.func) == "exp" for c in walk(node.right)
            ):
                return True
    return False


# -------------------------------------------------------------- recurrences
def _recurrence_loops(model: FileModel) -> Iterator[_Evidence]:
    """One finding per outermost recurrence loop (:func:`_roots.recurrence_loops`);
    the element-level findings inside it are counted in it."""
    for frame in recurrence_loops(model):
        first = model.recurrences(frame)[0]
        text = _recurrence_text(model, frame, first)
        extra: list[tuple[str, object]] = [("array", first.array), ("form", first.form)]
        scan = scan_form(model, first, frame)
        if scan:
            extra.append(("scan", scan))
        folded = folded_counts(model, root_at(model, frame, "CPN410"))
        advice = _SWEEP_ADVICE if first.form == "sweep" else _ADVICE["recurrence"]
        if folded:
            extra.append(("folded", folded))
        if folded or first.form == "sweep":
            extra.append(("advice", advice + folded_text(folded)))
        yield _Evidence(frame.node, "recurrence", text, _loop_header(model, frame), in_loop=True, extra=tuple(extra))


def _loop_header(model: FileModel, frame: LoopFrame) -> str:
    """``loop 'for n in range(1, len(x))'`` or ``loop 'while queue'``."""
    node = frame.node
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return f"loop 'for {model.segment(node.target, 20)} in {model.segment(node.iter, 30)}'"
    return f"loop 'while {model.segment(node.test, 30)}'"  # type: ignore[attr-defined]


def _recurrence_text(model: FileModel, frame: LoopFrame, rec: Recurrence) -> str:
    node = frame.node
    if isinstance(node, (ast.For, ast.AsyncFor)):
        loop = _loop_header(model, frame)
    else:
        loop = f"'while {model.segment(node.test, 30)}' loop"  # type: ignore[attr-defined]
    statement = model.segment(rec.node, 50)
    if rec.form == "sweep":
        return f"{loop} sweeps '{rec.array}' in place: each update reads neighbours this sweep already wrote ({statement})"
    if rec.form == "element":
        return f"{loop} computes '{rec.array}' from values of earlier iterations ({statement})"
    if rec.form == "line":
        return f"{loop} fills each line of '{rec.array}' from the line before ({statement}): sequential along the data"
    if rec.form == "chain":
        return f"{loop} is a Markov chain: '{rec.via}' is accepted or rejected every step ({statement})"
    if rec.form == "site":
        return f"{loop} is a Markov chain: a site of '{rec.array}' drawn each step is accepted or rejected ({statement})"
    if rec.form == "list":
        return f"{loop} computes each item of '{rec.array}' from the one before ({statement})"
    if rec.form == "walker":
        return f"{loop} walks '{rec.array}': each step starts where '{rec.via}' ended the last ({statement})"
    if rec.array != rec.via:
        return f"{loop} stores into '{rec.array}' a value '{rec.via}' carries from one iteration to the next ({statement})"
    return f"{loop} carries '{rec.via}' from one iteration to the next ({statement})"


def _carrier_update(model: FileModel, frame: LoopFrame, name: str) -> ast.stmt | None:
    for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return stmt
    return None


