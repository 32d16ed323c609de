"""CPN101: a Python loop that indexes arrays one element (or row) at a time."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, IterKind, LoopFrame, Work
from ..registry import Category, Invalid, Rule, Valid
from ._roots import element_loop_nests, folded_counts, folded_text, root_at


class ElementLoopIndexing(Rule):
    """
    ## What it does
    Finds loops whose every iteration does element-sized work on NumPy
    arrays: each access picks single elements (`a[i]`, `out[i, j]`) or rows
    and columns (`x[i, :]`, `b[:, k]`), by the loop's index or by values the
    body computes from it or draws (`j = rng.integers(n); v[j]`), and the
    body works on no whole array. One finding per loop nest, at the `for`
    (or `while`) of the outermost such loop, naming the arrays it picks from;
    a row loop gets the broadcasting recipe. A loop that indexes nothing
    but draws its numbers one at a time (`x = np.random.normal()` every
    pass, used in arithmetic) and does no whole-array work is an element
    loop too: each number is a task of its own until they are drawn at once
    with `size=`.

    Spatial loops count too: the pieces an index picks include a prefix
    along an axis it walks (`L[i, :i] @ x[:i]` in forward substitution, LU
    and Cholesky by loops), a sliding window (`img[i:i + K, j:j + K]`), a
    block on two axes (pooling), a row of a compressed sparse layout
    (`vals[ptr[i]:ptr[i + 1]]`) and a pixel across a batch
    (`out[:, i, j, :]`), blocks that tile an axis one per pass when each
    pass stores one element (`out[o] = np.mean(a[i:i + k])` with `i += k`),
    and the elements a helper of the file picks with the indices it is
    handed. A small operand read whole every pass beside such a piece — a
    filter, convolution weights, coefficients, a vector stored into the
    piece or contracted with a picked row (`A[i] @ x`), the centres beside
    one point of the data — does not make it whole-array work.

    A loop whose body does whole-array or slab work (`u[1:-1] = ...`,
    `np.sum(u * u)`, `x[:, k:k + n]`, `out=` updates, a helper called with
    whole arrays) is a time-step or tap loop and is not reported, even when
    it also stores per-step history (`energy[i] = np.sum(u * u)`), reads one
    row of a pre-drawn array (`noise[t]`) or one tap (`w[k]`). The exception
    is a loop that changes the arrays it carries only one element at a time,
    at a site each pass picks for itself (`x = rng.integers(n)`, a popped
    index): single-site Metropolis or random filling moves its state element
    by element whatever it also reads whole each step (`M[t] = S.sum()`), so
    it is reported, with the branches of the helpers it runs every pass
    (`dE = flip(S, x, y)`). A loop that
    carries element-sized state from one iteration to the next (`y[n]` from
    `y[n - 1]`, a Markov chain) is a recurrence, reported as CPN410.
    The host conversions, scalar branches, builtin reductions and
    item-by-item iterations inside the nest (CPN104, CPN105, CPN110, CPN103)
    go away with it, so they are part of this finding: the message counts
    them ("it also holds 3 scalar branches") and they are not listed again.

    ## Why it does not scale on cuPyNumeric
    cuPyNumeric turns every array operation into a task that the Legate
    runtime schedules across GPUs. Inside an element loop each `a[i]` is its
    own tiny operation: the fixed cost of launching and tracking it is
    thousands of times larger than the work on one element, and Python runs
    the iterations one after another, so more GPUs cannot help.

    ## Example
    ```python
    import numpy as np

    def scale(a):
        out = np.empty_like(a)
        for i in range(a.shape[0]):
            out[i] = a[i] * 2.0 + 1.0
        return out
    ```

    ## Use instead
    ```python
    def scale(a):
        return a * 2.0 + 1.0
    ```
    Branches become `np.where`, row-wise scaling becomes broadcasting
    (`data * w[:, None]`), sums become `np.sum`/`np.dot`, and loops over many
    independent small problems become one batched call (recipes RR-loop,
    RR-broadcast, RR-batch). An in-place sweep whose updates read neighbours
    written earlier in the same sweep (Gauss-Seidel, SOR) is not an element
    loop: each update waits for the ones before it, so CPN410 reports it as
    sequential work (its fix is another algorithm: Jacobi, red-black).

    ## Known false alarms
    * Work per iteration is judged from the code: an array made with a few
      literal elements (`np.zeros(3)`, a 4 × 4 matrix) counts as element
      work, one sized by a name (`np.zeros(nx)`) as a whole array whatever
      the name's value. A loop over a large but fixed number of channels
      whose body works on whole channel slabs is quiet; over rows of a 2-D
      array with nothing else done it is reported (broadcast instead).
    * Values of unknown kind (an untyped parameter no call site in the file
      explains) are not counted as work; a loop whose only whole-array
      operation involves such a value may be reported. Annotate the
      parameter or suppress with `# noqa: CPN101`. A name the loop rebinds
      to a NumPy call on such a value (`value = np.where(p[t] > c, ...)`)
      counts as whole-array work, so that loop stays quiet.
    * Loops over a handful of literal constants (`for axis in range(3)`), over
      `range(a.ndim)` or over a count of dimensions by name (`range(n_dim)`,
      `range(self.ndims)`) are never reported, unless the name holds a known
      number (`ndim = 512` cells per side is judged by its value); a loop
      over `range(dim)` is judged like any other, since `dim` also names
      feature sizes.
    * A loop that picks a matrix or larger block per iteration
      (`a[:, :, k]`) counts as slab work and stays quiet, even when the
      matrices are tiny and the loop runs over many of them (a batch of
      3 × 3 inversions); such a batch is better done in one stacked call.
    * Around an index loop that does not use its own index (`for step in
      range(T): for i in range(n): u[i] = ...`) the outer loop is a step
      loop and the inner loop is reported. For a time loop around an
      element sweep whose picks use the time index too (`u[n + 1, i]` from
      row `n`), the sweep is reported and the time loop (a row recurrence)
      is not.
    * Arrays are recognised through imports, assignments and the file's own
      call sites; a loop over a parameter nothing in the file shows to be
      an array stays quiet.
    * Quiet: a loop that steps an object of a class defined in the file
      (`crowd.step()` as a statement) does that object's work, which is out
      of sight; storing one number per step beside it is not element work.
    * Quiet: a loop that calls a function of another module of the project
      (a relative import, or a module or package beside the file), as a
      parameter sweep does (`energy[j] = simulate(n, temps[j])`): that work
      is out of the file's sight. A module of that name installed elsewhere
      does not count, so the same loop is reported where no such file is.
    * A parameter sweep over a function of the same file that is handed one
      element per run (`data[:, n] = simulate(k, eta[n])`) is reported when
      the function's own arrays are not shown to be large: the whole run is
      out of the loop's sight. Batching the runs is then the port.
    * Code inside a Numba-compiled function (`@numba.njit`) is judged as if
      cuPyNumeric ran it. Numba cannot take cuPyNumeric arrays at all, so such
      a function either stays on host NumPy behind a boundary (`np.asarray`)
      or is rewritten with whole-array operations; the findings in it mark
      what the rewrite must change.
    """

    code = "CPN101"
    slug = "element-loop-indexing"
    category = Category.BLOCKS
    recipe = "RR-loop"
    summary = "Python loop indexing arrays element by element"
    message = "{loop} {what} one {unit} at a time; {fix}{folded} (RR-loop)"
    short = "{loop} {what} {unit} by {unit} (RR-loop)"

    valid = (
        # the upper triangle of a 3x3 block: range(i, 3) is at most three passes
        Valid("""
            import numpy as np

            def block(k):
                M = np.zeros((3, 3))
                for i in range(3):
                    for j in range(i, 3):
                        M[i, j] = k[i] * k[j]
                return M
            """),
        # one particle per pass, each walking until it sticks: the walk is a
        # chain (CPN410), and the passes depend on the particles stuck before
        Valid("""
            import numpy as np
            stuck = [[0.0, 0.0]]
            radius = 1.0
            while radius < 20.0:
                angle = np.random.uniform(0.0, 2.0 * np.pi)
                x, y = np.ceil(radius * np.cos(angle)), np.ceil(radius * np.sin(angle))
                while np.hypot(x, y) <= 2 * radius:
                    if [x + 1, y] in stuck or [x - 1, y] in stuck:
                        stuck.append([x, y])
                        radius = radius + 1
                        break
                    step = np.random.uniform()
                    x = x + 1 if step < 0.5 else x - 1
            """),
        # the loop picks rows of a 9 x 2 table written out in the file: its
        # trips are bounded by the table, not by the data
        Valid("""
            import numpy as np
            q = 9
            c = np.array([(x, y) for x in (0, -1, 1) for y in (0, -1, 1)])
            opposite = [int(np.argmin(np.abs(c + c[i]).sum(axis=1))) for i in range(q)]
            """),
        # a counter-driven time loop storing one number per step: the
        # state is not moved element by element at a picked site
        Valid("""
        import numpy as np

        def sweeps(img, k, n):
            img = np.asarray(img, dtype=float)
            sums = np.zeros(n)
            it = 0
            while it < n:
                sums[it] = np.sum(img * k)
                it += 1
            return sums
        """),
        # a random kick beside a whole-array update: time stepping
        Valid("""
        import numpy as np

        def kicked(u, steps, rng):
            for t in range(steps):
                u = 0.5 * (np.roll(u, 1) + np.roll(u, -1))
                i = rng.integers(u.shape[0])
                u[i] += 1.0
            return u
        """),
        # k-means: every pass selects with a mask over all points
        Valid("""
            import numpy as np

            def update(X: np.ndarray, labels: np.ndarray, K: int) -> np.ndarray:
                centers = np.zeros((K, X.shape[1]))
                for k in range(K):
                    mask = labels == k
                    centers[k] = X[mask].mean(axis=0)
                return centers
            """),
        # im2col by taps: each pass copies a whole shifted image
        Valid("""
            import numpy as np

            def im2col(img, kh, kw):
                C, H, W = img.shape
                oh, ow = H - kh + 1, W - kw + 1
                cols = np.empty((C, kh, kw, oh, ow))
                for di in range(kh):
                    for dj in range(kw):
                        cols[:, di, dj, :, :] = img[:, di:di + oh, dj:dj + ow]
                return cols
            """),
        # mixture components against data the class keeps (set in another module)
        Valid("""
            import numpy as np
            from .base import Model

            class GMM(Model):
                def e_step(self):
                    resp = np.zeros((self.X.shape[0], self.k))
                    for c in range(self.k):
                        diff = self.X - self.mu[c]
                        resp[:, c] = np.exp(-0.5 * np.sum(diff ** 2, axis=1))
                    return resp
            """),
        # the helper works on whole rows of u (slices), so the time loop does slab work
        Valid("""
            import numpy as np

            def advance(u, t, c):
                return u[t, 1:-1] + c * (u[t, 2:] - 2 * u[t, 1:-1] + u[t, :-2])

            u = np.zeros((1000, 4096))
            for t in range(999):
                u[t + 1, 1:-1] = advance(u, t, 0.1)
            """),
        # the row theta[k, :] is fixed by the loops around `for i`: each i reads all of it
        Valid("""
            import numpy as np
            theta = np.random.uniform(-1.0, 1.0, size=(3, 1000))
            omega = np.random.uniform(-1.0, 1.0, size=(3, 1000))
            for k in range(3):
                for t in range(500):
                    for i in range(1000):
                        theta[k, i] += 0.01 * (omega[k, i] + np.sum(np.sin(theta[k, :] - theta[k, i])))
            """),
        # backward induction over time: each step fits and compares whole path arrays
        Valid("""
            import numpy as np

            def american_value(paths, payoffs, discounts, degree=5):
                value = payoffs[-1]
                for t in range(len(discounts) - 2, 0, -1):
                    df = discounts[t, 1] / discounts[t + 1, 1]
                    fit = np.polyfit(paths[t], value * df, degree)
                    continuation = np.polyval(fit, paths[t])
                    value = np.where(payoffs[t] > continuation, payoffs[t], value * df)
                return value
            """),
        # one buffer per worker: each item is a slab of a shape with a starred grid
        Valid("""
            import numpy as np
            buffers = None

            def per_worker(workers, grid):
                global buffers
                if buffers is None:
                    buffers = np.zeros((workers, 1024, *grid))
                return [buffers[w] for w in range(workers)]
            """),
        # a time loop stepping an object of the file, storing one count per step
        Valid("""
            import numpy as np

            class Crowd:
                def __init__(self, n):
                    self.sick = [False] * n
                def step(self):
                    self.sick = [s or np.random.rand() < 0.01 for s in self.sick]
                def count(self):
                    return sum(self.sick)

            crowd = Crowd(500)
            history = np.zeros(100)
            for t in range(100):
                crowd.step()
                history[t] = crowd.count()
            """),
        # an Euler recurrence over the items of an integer arange is CPN410's
        Valid("""
            import numpy as np
            x = np.arange(200)
            S = np.zeros(200)
            S[0] = 990.0
            for t in x[:-1]:
                S[t + 1] = S[t] - 0.001 * S[t]
            """),
        Valid("""
            import numpy as np
            u = np.zeros(100)
            for step in range(1000):
                u[1:-1] = 0.5 * (u[:-2] + u[2:])
            """),
        Valid("""
            import numpy as np
            v = np.zeros((3, 64, 64))
            work = np.zeros_like(v)
            for axis in range(3):
                work[axis] = 2.0 * v[axis] + np.roll(v[axis], 1, axis=-1)
            """),
        Valid("""
            import numpy as np
            def wrap(pos, box, n_dim):
                for d in range(n_dim):
                    outside = np.logical_or(pos[:, d] > box[d], pos[:, d] < 0)
                    pos[:, d][outside] = np.mod(pos[:, d][outside], box[d])
            wrap(np.zeros((1000, 3)), np.ones(3), 3)
            """),
        Valid("""
            import numpy as np
            def stream(lattice, size, shifts):
                out = np.zeros((*size, len(shifts)))
                for q in range(len(shifts)):
                    out[:, :, q] = np.roll(lattice.field(q), shifts[q], axis=(0, 1))
                return out
            """),
        Valid("""
            import numpy as np
            items = [1, 2, 3, 4]
            for i in range(len(items)):
                items[i] = items[i] * 2
            """),
        Valid(
            """
            import numpy as np
            x = np.ones((10000, 3))
            out = np.empty(10000)
            chunk = 1024
            for i in range(0, len(x), chunk):
                out[i:i + chunk] = x[i:i + chunk, :].sum(axis=1)
            """
        ),
        Valid("""
            import numpy as np
            y = np.zeros(100)
            x = np.ones(100)
            for n in range(1, 100):
                y[n] = 0.9 * y[n - 1] + x[n]
            """),
        Valid("""
            import numpy as np
            files = ['a.npy', 'b.npy']
            for i in range(len(files)):
                data = np.load(files[i])
            """),
        Valid("""
            import mylib as np
            a = np.zeros(10)
            for i in range(10):
                a[i] = i
            """),
        # a time-step loop that also stores per-step history and snapshots
        Valid(
            """
            import numpy as np
            n, steps = 4096, 500
            u = np.zeros(n)
            energy = np.zeros(steps)
            snap = np.zeros((n, n, 10))
            for i in range(steps):
                u[1:-1] = u[1:-1] + 0.1 * (u[2:] - 2 * u[1:-1] + u[:-2])
                energy[i] = np.sum(u * u)
                snap[:, :, i % 10] = u
            """
        ),
        # one row of a pre-drawn noise array per step, beside whole-array work
        Valid(
            """
            import numpy as np
            n, steps = 4096, 500
            noise = np.random.normal(0, 1, (steps, n))
            u = np.zeros(n)
            for t in range(steps):
                u = 0.5 * (np.roll(u, 1) + np.roll(u, -1))
                u += 0.01 * noise[t]
            """
        ),
        # a scalar tap per iteration beside slab work
        Valid(
            """
            import numpy as np
            n, taps = 4096, 12
            w = np.ones(taps)
            u = np.ones(n + taps)
            acc = np.zeros(n)
            for k in range(taps):
                acc += w[k] * u[k:k + n]
            """
        ),
        # a slab recurrence over many walkers is time stepping
        Valid(
            """
            import numpy as np
            walkers, steps = 100000, 200
            walk = np.zeros((walkers, steps))
            for t in range(1, steps):
                walk[:, t] = walk[:, t - 1] + np.random.normal(0, 1, walkers)
            """
        ),
        # a time-step loop around an element loop: the inner loop is reported, once
        Valid(
            """
            import numpy as np
            u = np.zeros(100)
            for step in range(1000):
                u = 0.5 * (np.roll(u, 1) + u)
            """
        ),
        # a parameter sweep: each pass runs a function of another module of
        # the project (out of this file's sight) and stores one number
        Valid(
            """
            import numpy as np
            from .ising import simulate

            energy = np.zeros(40)
            for j in range(40):
                energy[j] = simulate(32, 0.5 + 0.05 * j)
            """
        ),
        # minibatch training: each pass updates the weights from one batch
        Valid(
            """
            import numpy as np

            def train(X, y, w, bs, lr):
                losses = []
                for start in range(0, X.shape[0], bs):
                    xb = X[start:start + bs]
                    err = xb @ w - y[start:start + bs]
                    w -= lr * xb.T @ err / bs
                    losses.append(float(np.mean(err ** 2)))
                return w, losses
            """
        ),
        # the helper's if-test compares a 0-d value, but its other work is on
        # whole arrays: the loop that calls it each step is a time loop
        Valid(
            """
            import numpy as np

            def step(u):
                lap = np.roll(u, 1) + np.roll(u, -1) - 2 * u
                change = np.max(np.abs(lap))
                if change > 1e-3:
                    return u + 0.1 * lap
                return u

            u = np.zeros(1000)
            energy = np.zeros(100)
            for t in range(100):
                u = step(u)
                energy[t] = np.sum(u * u)
            """
        ),
    )
    valid = valid + (
        # a number drawn for a plot's colour: no work on data
        Valid("""
            import numpy as np
            import matplotlib.pyplot as plt
            from matplotlib import cm
            ys = np.cumsum(np.random.normal(size=(100, 50)), axis=1)
            for i in range(100):
                plt.plot(ys[i, :], color=cm.viridis(np.random.rand()))
            """),
        Valid("""
            import numpy as np
            u = np.zeros(100)
            for k in [0, 50, 99]:  # a few settings written out: a sweep, not a scatter
                u[k] = 1.0
            """),
    )
    invalid = (
        # finite-element assembly: each triangle of the mesh scatters into the
        # matrix one entry at a time (the items index the picks)
        Invalid("""
            import numpy as np

            def assemble(nodes, triangles, k):
                A = np.zeros((len(nodes), len(nodes)))
                for tri in triangles:
                    for i in range(3):
                        for j in range(i, 3):
                            A[tri[i], tri[j]] += k[i] * k[j]
                return A
            """, line=5, contains="one element at a time"),
        # a moving window per pixel: the slices look like whole-array work, but
        # each pass reduces a few elements around (r, c) and stores one
        Invalid("""
            import numpy as np

            def local_energy(gx, gy, w):
                h = w.shape[0] // 2
                out = np.zeros(gx.shape)
                for r in range(h, gx.shape[0] - h):
                    for c in range(h, gx.shape[1] - h):
                        wx = gx[r - h:r + h + 1, c - h:c + h + 1]
                        wy = gy[r - h:r + h + 1, c - h:c + h + 1]
                        out[r, c] = (w * (wx * wx + wy * wy)).sum()
                return out
            """, line=6, contains="one element at a time"),
        # nearest-neighbour scaling pixel by pixel: the ratios unpacked from an
        # array are numbers (int() of several elements would raise)
        Invalid("""
            import numpy as np

            def rescale(img, size):
                dst = np.zeros(size[::-1], img.dtype)
                ry, rx = np.divide(size[::-1], img.shape[:2])
                for y in range(img.shape[0]):
                    for x in range(img.shape[1]):
                        i, j = int(y * ry), int(x * rx)
                        dst[i, j] = img[y, x]
                return dst
            """, line=6, contains="one element at a time"),
        # the method form of a dot product with a picked row: one number per pass
        Invalid("""
            import numpy as np

            def scores(X, w):
                n = X.shape[0]
                y = np.zeros(n)
                for i in range(n):
                    y[i] = w.dot(X[i])
                return y
            """, line=6),
        # elimination on a system written out in the script: the loop writes
        # into the matrix, so it is the data, not a lookup table; and back
        # substitution over range(n)[::-1] is as much an index loop as range
        Invalid("""
            import numpy as np
            a = np.array([[2.0, 1.0, 1.0], [4.0, -6.0, 0.0], [-2.0, 7.0, 2.0]])
            b = np.array([5.0, -2.0, 9.0])
            n = len(b)
            for k in range(n - 1):
                for i in range(k + 1, n):
                    f = a[i, k] / a[k, k]
                    for j in range(k, n):
                        a[i, j] = a[i, j] - f * a[k, j]
                    b[i] = b[i] - f * b[k]
            """, line=5),
        Invalid("""
            import numpy as np
            def back_substitute(U, y):
                n = len(y)
                x = np.zeros(n)
                for i in range(n)[::-1]:
                    x[i] = (y[i] - np.dot(U[i, i + 1:], x[i + 1:])) / U[i, i]
                return x
            """, line=5),
        # pixels read and written through methods (OpenCV tutorials' style):
        # img.item(i, j) is img[i, j], one element per pass; the nest roots at
        # the row loop, and the integer np.arange an inner loop walks is its
        # indices, not work on data
        Invalid("""
            import numpy as np
            img = np.random.rand(480, 640)
            out = img.copy()
            for i in np.arange(1, 479):
                for j in np.arange(1, 639):
                    out.itemset((i, j), (img.item(i - 1, j) + img.item(i + 1, j)) / 2)
            """, line=4, contains="'img', 'out'"),
        # a per-pixel helper out of sight, handed the image and the position
        # the pass also picks: it works at that pixel, not on the whole image
        Invalid("""
            import numpy as np
            import edge_helpers as eh
            mag = np.random.rand(480, 640)
            keep = np.zeros((480, 640))
            for i in range(1, 479):
                for j in range(1, 639):
                    if eh.is_local_max(mag, i, j):
                        keep[i, j] = mag[i, j]
            """, line=5),
        # a red-black SOR over lists of index tuples: each colour's sites are
        # independent, so the loop is an element loop, not a sequential sweep
        Invalid("""
            import numpy as np
            N = 64
            u = np.zeros((N, N))
            red = [(i, j) for i in range(1, N - 1) for j in range(1, N - 1) if (i + j) % 2 == 0]
            black = [(i, j) for i in range(1, N - 1) for j in range(1, N - 1) if (i + j) % 2 == 1]
            for sweep in range(100):
                for (i, j) in red + black:
                    u[i, j] += 1.5 * ((u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]) / 4 - u[i, j])
            """, line=7),
        # an upwind step written with time as an axis, the old values read
        # through a name rebound to the array: the x loop is the element loop
        Invalid("""
            import numpy as np
            u = np.zeros((100, 1000))
            u0 = u.copy()
            for t in range(999):
                for x in range(1, 99):
                    u[x, t + 1] = u0[x, t] - 0.5 * (u0[x, t] - u0[x - 1, t])
                    u0 = u
            """, line=5),
        # Monte Carlo paths one at a time, one drawn number per step: each pass
        # restarts the price the step loop carries, so the runs loop is the
        # nest (drawn size=runs at once, every step advances all paths)
        Invalid("""
            import numpy as np

            payoffs = []
            for run in range(100000):
                price = 40.0
                for step in range(100):
                    shock = np.random.normal()
                    price *= 1.0 + 0.0004 + 0.02 * shock
                payoffs.append(max(price - 42.0, 0.0))
            """, line=4, contains="draws np.random.normal() one element at a time; draw them all at once"),
        # paths of a stochastic-volatility model, each restarted: the volatility
        # h is carried within a path (h = rho * h + ...), but the paths are
        # independent, so the paths loop is the element loop; the generator is
        # a parameter defaulting to the module's, S0 a number by its default
        Invalid("""
            import numpy as np
            rng = np.random.default_rng(1)

            def call_price(S0=10.0, K=12.0, n=20, M=100000, rng=rng):
                total = 0.0
                for m in range(M):
                    s = np.log(S0)
                    h = 0.0
                    for t in range(n):
                        s = s + 0.0001 + np.exp(h) * rng.standard_normal()
                        h = 0.9 * h + 0.01 * rng.standard_normal()
                    total += np.maximum(np.exp(s) - K, 0)
                return total / M
            """, line=6, contains="draws rng.standard_normal() one element at a time"),
        # two numbers drawn per step and unpacked, or a one-element draw read
        # at [0]: still a number at a time
        Invalid("""
            import numpy as np

            values = []
            for run in range(20000):
                s1, s2 = 1.0, 1.0
                for step in range(50):
                    x1, x2 = np.random.normal(size=2)
                    s1 *= 1.0 + 0.01 * x1
                    s2 *= 1.0 + 0.01 * x2
                values.append(s1 + s2)
            """, line=4, contains="draws np.random.normal() one element at a time"),
        Invalid("""
            import numpy as np

            kept = 0
            for x in range(1, 2000):
                lat = np.random.uniform(14.5, 25, 1)[0]
                if lat < 16.3:
                    kept += 1
            """, line=4, contains="draws np.random.uniform() one element at a time"),
        # one independent sequence per parameter value: vectorised across
        # the values, each step of the map advances all of them at once
        Invalid("""
            import numpy as np

            def orbit(n, x0, r):
                x = np.empty(n)
                x[0] = x0
                for k in range(1, n):
                    x[k] = r * x[k - 1] * (1 - x[k - 1])
                return x

            def sweep(rates, n):
                out = np.zeros((len(rates), n))
                for i in range(len(rates)):
                    out[i] = orbit(n, 0.2, rates[i])
                return out
            """, line=12),
        # a window clamped at the image's edges, through names bound per pixel
        Invalid("""
            import numpy as np

            def box(img: np.ndarray, r: int) -> np.ndarray:
                H, W = img.shape
                out = np.zeros_like(img)
                for y in range(H):
                    for x in range(W):
                        y0, y1 = max(0, y - r), min(H, y + r + 1)
                        x0, x1 = max(0, x - r), min(W, x + r + 1)
                        patch = img[y0:y1, x0:x1]
                        out[y, x] = np.sum(patch * patch)
                return out
            """, line=6, contains="'img', 'out'"),
        # a drawn site per pass, flipped by a helper handed the lattice and the
        # site when its energy drops (no draw decides it, so no Markov chain:
        # CPN410 takes the accept/reject form)
        Invalid("""
            import numpy as np

            def flip(s, i, j, beta):
                dE = 2 * s[i, j] * (s[i - 1, j] + s[i, j - 1])
                if dE < 0:
                    s[i, j] = -s[i, j]

            def run(s, steps, beta):
                for k in range(steps):
                    i = np.random.randint(s.shape[0])
                    j = np.random.randint(s.shape[1])
                    flip(s, i, j, beta)
            """, line=9, contains="1 scalar branch"),
        Invalid("""
            import numpy as np

            def scatter(out: np.ndarray, vals: np.ndarray, mask: np.ndarray) -> np.ndarray:
                rows = np.flatnonzero(mask).tolist()
                for r in rows:
                    out[r] += vals[r]
                return out
            """, line=5, contains="'out', 'vals'"),
        Invalid("""
            import numpy as np

            def every_other(a, n):
                picks = []
                for i in range(n):
                    picks.append(2 * i)
                b = np.zeros_like(a)
                for h in picks:
                    b[h] = a[h] * 2
                return b
            """, line=8, contains="'for h in picks'"),
        # forward substitution: row i from the prefix x[:i] the loop has written
        Invalid("""
            import numpy as np

            def forward(L, b):
                x = np.zeros_like(b)
                for i in range(x.shape[0]):
                    x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
                return x
            """, line=5, contains="'L', 'b', 'x' one row at a time"),
        # per-pixel convolution: a pixel across the batch, weights read whole
        Invalid("""
            import numpy as np

            def conv(inp: np.ndarray, w: np.ndarray, K: int) -> np.ndarray:
                N, H, W, C = inp.shape
                out = np.zeros((N, H - K + 1, W - K + 1, w.shape[-1]))
                for i in range(H - K + 1):
                    for j in range(W - K + 1):
                        out[:, i, j, :] = np.sum(inp[:, i:i + K, j:j + K, :, None] * w[None], axis=(1, 2, 3))
                return out
            """, line=6, contains="'inp', 'out'"),
        # a window per pixel dotted with the filter through np.ravel: the
        # filter is as small as the window, so each pass is element work
        Invalid("""
            import numpy as np

            def blur(img, kernel):
                n, m = img.shape
                k = kernel.shape[0]
                out = np.zeros((n - k + 1, m - k + 1))
                for i in range(n - k + 1):
                    for j in range(m - k + 1):
                        patch = img[i:i + k, j:j + k]
                        out[i, j] = np.dot(np.ravel(patch), np.ravel(kernel))
                return out
            """, line=7, contains="'img', 'out'"),
        # a pixel's neighbourhood copied into a scratch patch of a stated size,
        # equalised through its own histogram: whole-array work on the patch
        # is the pixel's work, so the pixel loop is the element loop
        Invalid("""
            import numpy as np

            R = 7

            def local_equalise(img):
                h, w = img.shape
                out = np.zeros_like(img)
                for i in range(R, h - R):
                    for j in range(R, w - R):
                        patch = np.zeros((2 * R + 1, 2 * R + 1))
                        for a in range(2 * R + 1):
                            for b in range(2 * R + 1):
                                patch[a, b] = img[i + a - R, j + b - R]
                        hist = np.bincount(patch.astype(int).ravel(), minlength=256)
                        cdf = np.cumsum(hist) / patch.size
                        out[i, j] = 255 * cdf[int(img[i, j])]
                return out
            """, line=8, contains="'img'"),
        # erosion by a structuring element: the footprint's mask selects from
        # the window each pixel takes, so the mask is as small as the window
        Invalid("""
            import numpy as np

            def erode(padded: np.ndarray, footprint: np.ndarray, h: int, w: int) -> np.ndarray:
                out = np.empty((h, w))
                for r in range(h):
                    for c in range(w):
                        window = padded[r:r + 5, c:c + 5]
                        out[r, c] = np.min(window[footprint == 1])
                return out
            """, line=5, contains="'out', 'padded'"),
        # a window centred on each sample, one slope appended per pass: a
        # sliding window over the data, whatever the window's half-width
        Invalid("""
            import numpy as np

            def local_slopes(t: np.ndarray, y: np.ndarray, half: int) -> list:
                slopes = []
                for i in range(half, len(y) - half):
                    slopes.append(np.polyfit(t[i - half:i + half + 1], y[i - half:i + half + 1], 1)[0])
                return slopes
            """, line=5, contains="'t', 'y'"),
        # every row of A against every row of B: the row the outer loop holds
        # is compared with one row per inner pass, one nest of pairs
        Invalid("""
            import numpy as np

            def drop_shared_rows(A, B):
                keep = []
                for i in range(A.shape[0]):
                    row = A[i, :]
                    for j in range(B.shape[0]):
                        if np.array_equal(row, B[j, :]):
                            keep.append(i)
                return np.delete(A, keep, axis=0)
            """, line=5, contains="'A', 'B'"),
        # one row of a CSR matrix per pass
        Invalid("""
            import numpy as np

            def csr(vals: np.ndarray, cols: np.ndarray, ptr: np.ndarray, x: np.ndarray) -> np.ndarray:
                y = np.zeros(len(ptr) - 1)
                for i in range(len(ptr) - 1):
                    y[i] = vals[ptr[i]:ptr[i + 1]] @ x[cols[ptr[i]:ptr[i + 1]]]
                return y
            """, line=5),
        # a window loop with its own output counter
        Invalid("""
            import numpy as np

            def sums(a: np.ndarray, k: int) -> np.ndarray:
                out = np.zeros(a.shape[0] - k + 1)
                i = o = 0
                while i + k <= a.shape[0]:
                    out[o] = np.sum(a[i:i + k])
                    i += 1
                    o += 1
                return out
            """, line=6),
        # block means: each pass reads the next k samples and stores one mean
        Invalid("""
            import numpy as np

            def block_means(a: np.ndarray, k: int) -> np.ndarray:
                out = np.empty(a.shape[0] // k)
                i = o = 0
                while i + k <= a.shape[0]:
                    out[o] = np.mean(a[i:i + k])
                    i += k
                    o += 1
                return out
            """, line=6),
        # k-means assignment point by point: the centres are read whole, but small
        Invalid("""
            import numpy as np

            def assign(X: np.ndarray, centers: np.ndarray) -> np.ndarray:
                labels = np.empty(X.shape[0], dtype=np.int64)
                for i in range(X.shape[0]):
                    labels[i] = np.argmin(np.sum((centers - X[i]) ** 2, axis=1))
                return labels
            """, line=5),
        # Floyd-Warshall: each pivot pass relaxes the whole matrix; the sweep is the element loop
        Invalid("""
            import numpy as np

            def floyd_warshall(D: np.ndarray) -> np.ndarray:
                n = D.shape[0]
                for k in range(n):
                    for i in range(n):
                        for j in range(n):
                            D[i, j] = min(D[i, j], D[i, k] + D[k, j])
                return D
            """, line=6, contains="'for i in range(n)'"),
        # an element nest over a handful of indices, run by every sweep
        Invalid("""
            import numpy as np
            spins = np.ones((64, 64))
            J = np.random.rand(4, 4)
            s = np.zeros(4)
            for sweep in range(1000):
                spins[1:-1] = 0.5 * (spins[:-2] + spins[2:])
                for i in range(4):
                    for j in range(4):
                        s[i] += J[i, j] * spins[i, j]
            """, line=7, contains="'for i in range(4)'"),
        # chained picks (T[i][j]) make one nest: reported at its outer loop, by array name
        Invalid("""
            import numpy as np
            T = np.zeros((100, 100))
            new = np.zeros((100, 100))
            for i in range(1, 99):
                for j in range(1, 99):
                    new[i][j] = 0.25 * (T[i + 1][j] + T[i - 1][j] + T[i][j + 1] + T[i][j - 1])
            """, line=4, contains="indexes 'T', 'new' one element"),
        # the helpers only pick single elements of u by the indices they are handed
        Invalid("""
            import numpy as np

            def rate(u, rho, i, tau):
                return rho * u[i, tau] + u[i + 1, tau] - 2 * u[i, tau]

            def euler(u, dt, rho, i, tau):
                return u[i, tau] + dt * rate(u, rho, i, tau)

            def run(cells, steps, dt, rho):
                u = np.zeros((cells, steps))
                for tau in range(steps - 1):
                    for i in range(cells - 1):
                        u[i, tau + 1] = euler(u, dt, rho, i, tau)
                return u
            """, line=12, contains="'for i in range(cells - 1)'"),
        # `ndim` here counts cells per side, not axes: its value decides
        Invalid("""
            import numpy as np
            ndim = 512
            grid = np.zeros((ndim, ndim))
            for i in range(ndim):
                for j in range(ndim):
                    grid[i, j] = i * j
            """, line=4),
        # a product by loops: the inner loop reads the row a[i, :] whole, the outer walks the rows
        Invalid("""
            import numpy as np
            a = np.ones((500, 500))
            b = np.ones((500, 500))
            c = np.zeros((500, 500))
            for i in range(500):
                for j in range(500):
                    c[i, j] = np.sum(a[i, :] * b[:, j])
            """, line=5, contains="row"),
        # a helper's count, compared in an `if`, is one element: the sweep is per cell
        Invalid("""
            import numpy as np

            class Life:
                def __init__(self, n):
                    self.n = n
                    self.cells = np.random.randint(0, 2, size=(n, n))

                def neighbours(self, i, j):
                    total = 0
                    for di in (-1, 0, 1):
                        for dj in (-1, 0, 1):
                            if di or dj:
                                total += self.cells[(i + di) % self.n][(j + dj) % self.n]
                    return total

                def step(self):
                    new = self.cells.copy()
                    for i in range(self.n):
                        for j in range(self.n):
                            alive = self.neighbours(i, j)
                            if alive < 2 or alive > 3:
                                new[i, j] = 0
                            elif alive == 3:
                                new[i, j] = 1
                    self.cells = new
            """, line=18, contains="'new'"),
        # chained indexing, T[i][j]: the chain picks one element, not a row
        Invalid("""
            import numpy as np
            T = np.zeros((200, 200))
            T_new = np.zeros((200, 200))
            for step in range(1000):
                for i in range(1, 199):
                    for j in range(1, 199):
                        T_new[i][j] = 0.25 * (T[i + 1][j] + T[i - 1][j] + T[i][j + 1] + T[i][j - 1])
                T, T_new = T_new, T
            """, line=5, contains="one element at a time"),
        # `if denom:` makes denom one element, and so the factors it is made of
        Invalid("""
            import numpy as np

            def solve_modes(rho_k, n, h):
                wx = np.exp(2j * np.pi / n[0])
                wy = np.exp(2j * np.pi / n[1])
                phi_k = np.zeros_like(rho_k)
                wn = 1
                for a in range(n[0]):
                    wm = 1
                    for b in range(n[1]):
                        denom = 4.0 - wn - 1.0 / wn - wm - 1.0 / wm
                        if denom:
                            phi_k[a, b] = rho_k[a, b] * h * h / denom
                        wm *= wy
                    wn *= wx
                return phi_k
            """, line=8, contains="'phi_k', 'rho_k'"),
        Invalid("""
            import numpy as np
            from tqdm import tqdm
            x = np.linspace(0.0, 1.0, 100_000)
            y = np.empty_like(x)
            for i in tqdm(range(len(x))):
                y[i] = x[i] ** 2 + 1.0
            """, line=5, contains="'x', 'y'"),
        Invalid("""
            import numpy as np
            from tqdm.auto import trange
            x = np.linspace(0.0, 1.0, 100_000)
            y = np.empty_like(x)
            for i in trange(len(x)):
                y[i] = x[i] ** 2 + 1.0
            """, line=5),
        Invalid("""
            import numpy as np
            from tqdm import tqdm

            def sweep(spins, beta, n):
                for _ in range(n * n):
                    i = np.random.randint(0, n)
                    j = np.random.randint(0, n)
                    s = spins[i, j]
                    cost = 2 * s * (spins[(i + 1) % n, j] + spins[i, (j + 1) % n])
                    if cost < 0 or np.random.rand() < np.exp(-cost * beta):
                        s *= -1
                    spins[i, j] = s

            def run(shape, temps):
                lattice = np.ones(shape)
                for m in tqdm(range(len(temps))):
                    sweep(lattice, 1.0 / temps[m], shape[0])

            run((64, 64), np.linspace(1.0, 4.0, 16))
            """, line=5, contains="'spins'"),
        Invalid("""
            import numpy as np
            a = np.arange(100.0)
            for i in range(len(a)):
                a[i] = a[i] * 2.0 + 1.0
            """, line=3, contains="'a'"),
        Invalid("""
            import numpy as np
            a = np.arange(100.0)
            for i in range(0, len(a), 2):
                a[i:i + 2] = a[i:i + 2][::-1]
            """, line=3),
        Invalid(
            """
            import numpy as np
            from itertools import product
            out = np.zeros((4, 4))
            arr = np.ones((4, 4))
            for i, j in product(range(4), range(4)):
                out[i, j] = arr[i, j] ** 2
            """,
            line=5,
        ),
        Invalid(
            """
            import numpy as np
            def smooth(u, un, c):
                for n in range(10):
                    un = u.copy()
                    for i in range(1, u.shape[0]):
                        u[i] = un[i] - c * (un[i] - un[i - 1])
                return u
            """,
            line=5,
        ),
        Invalid("""
            import numpy as np
            data = np.ones((50, 8))
            w = np.ones(50)
            out = np.empty_like(data)
            for i in range(50):
                out[i, :] = data[i, :] * w[i]
            """, line=5),
        Invalid("""
            import numpy as np
            a = np.ones(9)
            squares = [a[i] ** 2 for i in range(9)]
            """, line=3),
        # elements picked by a value computed in the body (a random site)
        Invalid(
            """
            import numpy as np
            rng = np.random.default_rng(0)
            n = 1000
            v = np.zeros(n)
            for sweep in range(100000):
                j = rng.integers(n)
                v[j] = 0.5 * (v[j - 1] + v[(j + 1) % n])
            """,
            line=5,
            contains="'v' one element at a time",
        ),
        # an untyped helper whose call sites pass arrays
        Invalid(
            """
            import numpy as np

            def solve(t, e):
                out = np.zeros(len(t))
                for i in range(len(t)):
                    out[i] = e[i] * t[i]
                return out

            x = np.linspace(0, 1, 100)
            solve(x, np.ones(100))
            """,
            line=5,
            contains="'e', 'out', 't'",
        ),
        # a time-step loop around an element loop: the inner loop
        Invalid(
            """
            import numpy as np
            u = np.zeros(100)
            un = np.zeros(100)
            for step in range(1000):
                for i in range(1, 99):
                    un[i] = u[i] + 0.1 * (u[i + 1] - 2 * u[i] + u[i - 1])
                u, un = un, u
            """,
            line=5,
        ),
        # rows picked by the index and nothing else: broadcast instead
        Invalid(
            """
            import numpy as np
            x = np.ones((5000, 300))
            scale = np.ones(5000)
            for i in range(5000):
                x[i, :] = x[i, :] * scale[i]
            """,
            line=4,
            contains="one row at a time; broadcast over the rows instead",
        ),
        # a per-element helper whose values an if-test compares: one element
        # each (a test on a larger array raises), so no whole-array work,
        # even when their kind comes from a callback the file cannot see
        Invalid(
            """
            import numpy as np

            def unstable(a, b, ks):
                for k in ks:
                    disc = (a - k) ** 2 - 4 * b
                    growth = a - k + np.sqrt(disc)
                    if growth > 0:
                        return True
                return False

            def scan(A, B, ks, rates):
                mask = np.zeros((A.shape[0], A.shape[1]), dtype=bool)
                for i in range(A.shape[0]):
                    for j in range(A.shape[1]):
                        fa, fb = rates(A[i, j], B[i, j])
                        mask[i, j] = unstable(fa, fb, ks)
                return mask
            """,
            line=13,
            contains="'A', 'B', 'mask'",
        ),
        # a kernel with no caller: np.shape shows the parameter is an array (SPEC §3)
        Invalid("""
            import numpy as np
            def scale(X, c):
                n, m = np.shape(X)
                for i in range(n):
                    for j in range(m):
                        X[i][j] = X[i][j] * c
                return X
            """, line=4, contains="indexes 'X' one element"),
        # self.W comes from a base class in another module; its uses show it is an array
        Invalid("""
            import numpy as np
            from base import Base
            class Model(Base):
                def fit(self):
                    for i in range(self.W.shape[0]):
                        self.W[i, 0] = 0.0
            """, line=5, contains="'self.W'"),
        # from pylab import * brings NumPy's names: zeros and rand are NumPy's
        Invalid("""
            from pylab import *
            x = zeros(1000)
            v = rand(1000)
            for i in range(1000):
                x[i] = x[i] + v[i] * 0.1
            """, line=4, contains="'v', 'x'"),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        for frame in element_loop_nests(model):  # one per nest; none inside a recurrence (CPN410's)
            work = model.work(frame)
            folded = folded_counts(model, root_at(model, frame, self.code))
            names = sorted({model.segment(_chain_root(sub), 24) for sub in work.picks})
            shown = ", ".join(repr(n) for n in names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
            rows = work.work is Work.ROW
            fix = "broadcast over the rows instead" if rows else "vectorise the body"
            what = f"indexes {shown}"
            draws = ([*model.draws_one_at_a_time(frame),
                      *(d for inner in model.loops_within(frame) for d in model.draws_one_at_a_time(inner))]
                     if not names else [])
            if draws:
                # nothing indexed: the pass works on numbers it draws one at a time
                what = f"draws {model.segment(draws[0].func, 30)}()"
                fix = "draw them all at once with size= and vectorise the body"
            yield self.finding(
                frame.node,
                in_loop=True,
                loop=_describe(model, frame),
                what=what,
                unit="row" if rows else "element",
                fix=fix,
                folded=folded_text(folded),
                data={"arrays": names, "accesses": len(work.picks), "work": work.work.name.lower(),
                      "repeated_by": _repeated_by(model, frame), "folded": folded},
            )


def _repeated_by(model: FileModel, frame: LoopFrame) -> int | None:
    """The line of the loop that runs this element loop over and over (an
    enclosing loop, or one calling its function every iteration): then the
    element loop is the program's main work, which the verdict weighs."""
    for outer in frame.chain()[1:]:
        if outer.iter_kind is not IterKind.SMALL_CONSTANT:
            return outer.line
    found = model.calling_loop(frame.node)
    return found[0].line if found is not None else None


def _describe(model: FileModel, frame: LoopFrame) -> str:
    node = frame.node
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return f"loop 'for {model.segment(node.target, 20)} in {model.segment(node.iter, 40)}'"
    if isinstance(node, ast.While):
        return f"'while {model.segment(node.test, 30)}' loop"
    return "comprehension"


def _chain_root(sub: ast.Subscript) -> ast.expr:
    """``T`` for ``T[i][j]``: the array a chain of picks starts from."""
    base = sub.value
    while isinstance(base, ast.Subscript):
        base = base.value
    return base
