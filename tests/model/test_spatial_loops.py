"""Spatial loops, recurrences and iteration classes (SPEC §3, issue 23 §3).

Each program is a class of loop the runtime serialises (or does not), as the
model must classify it for every rule at once: the role of the loop at a
given line (element loop, recurrence, time step, other).
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from cpn_lint import lint_source
from cpn_lint.model import FileModel, IterKind, Role
from cpn_lint.model.loops import walked_arrays


def _model(source: str) -> FileModel:
    text = textwrap.dedent(source)
    return FileModel(ast.parse(text), text)


def _role_at(source: str, line: int) -> Role:
    model = _model(source)
    return model.role(next(frame for frame in model.loops if frame.line == line))


ELEMENT = Role.ELEMENT_LOOP
RECURRENCE = Role.RECURRENCE

# (name, program, line of the loop, role it must have)
CLASSES = [
    ("forward substitution reads a growing prefix: a spatial element loop", """
        import numpy as np
        def forward(L, b):
            x = np.zeros_like(b)
            for i in range(x.shape[0]):
                x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
            return x
        """, 5, ELEMENT),
    ("back substitution counts down and reads the suffix", """
        import numpy as np
        def backward(U, b):
            n = U.shape[0]
            x = np.zeros(n)
            for i in range(n - 1, -1, -1):
                x[i] = (b[i] - np.dot(U[i, i + 1:], x[i + 1:])) / U[i, i]
            return x
        """, 6, ELEMENT),
    ("forward substitution by full-row dot products, reversed(range)", """
        import numpy as np
        def solve(lu, b):
            rows = lu.shape[0]
            x = np.zeros(rows)
            for row in reversed(range(rows)):
                sub = np.dot(lu[row], x)
                x[row] = (b[row] - sub) / lu[row, row]
            return x
        """, 6, ELEMENT),
    ("LU by loops: up[i, j] from the prefix lo[i, :i] and up[:i, j]", """
        import numpy as np
        def lu(a):
            n = a.shape[0]
            lo = np.eye(n)
            up = np.zeros((n, n))
            for i in range(n):
                for j in range(i, n):
                    up[i, j] = a[i, j] - np.sum(lo[i, :i] * up[:i, j])
                for j in range(i + 1, n):
                    lo[j, i] = (a[j, i] - np.sum(lo[j, :i] * up[:i, i])) / up[i, i]
            return lo, up
        """, 7, ELEMENT),
    ("Cholesky by loops", """
        import numpy as np
        def cholesky(A):
            n = A.shape[0]
            L = np.zeros_like(A)
            for i in range(n):
                for j in range(i + 1):
                    s = np.dot(L[i, :j], L[j, :j])
                    if i == j:
                        L[i, j] = np.sqrt(A[i, i] - s)
                    else:
                        L[i, j] = (A[i, j] - s) / L[j, j]
            return L
        """, 6, ELEMENT),
    ("per-pixel convolution: a pixel across the batch from a window, weights read whole", """
        import numpy as np
        def conv(inp: np.ndarray, w: np.ndarray, K: int) -> np.ndarray:
            N, H, W, C = inp.shape
            out = np.zeros((N, H - K + 1, W - K + 1, w.shape[-1]))
            for i in range(H - K + 1):
                for j in range(W - K + 1):
                    out[:, i, j, :] = np.sum(inp[:, i:i + K, j:j + K, :, None] * w[None], axis=(1, 2, 3))
            return out
        """, 6, ELEMENT),
    ("per-pixel max-pooling over blocks on two axes", """
        import numpy as np
        def pool(x: np.ndarray, s: int) -> np.ndarray:
            N, H, W, C = x.shape
            out = np.zeros((N, H // s, W // s, C))
            for i in range(H // s):
                for j in range(W // s):
                    out[:, i, j, :] = np.max(x[:, i * s:(i + 1) * s, j * s:(j + 1) * s, :], axis=(1, 2))
            return out
        """, 6, ELEMENT),
    ("a window times a small filter handed in", """
        import numpy as np
        def filter2d(img: np.ndarray, k: np.ndarray) -> np.ndarray:
            h, w = img.shape
            out = np.zeros((h - 2, w - 2))
            for i in range(h - 2):
                for j in range(w - 2):
                    out[i, j] = np.sum(img[i:i + 3, j:j + 3] * k)
            return out
        """, 6, ELEMENT),
    ("an FIR filter: coefficients dotted with a sliding window", """
        import numpy as np
        def fir(x: np.ndarray, b: np.ndarray) -> np.ndarray:
            M = b.shape[0]
            y = np.zeros(x.shape[0] - M)
            for n in range(M, x.shape[0]):
                y[n - M] = np.dot(b, x[n - M:n])
            return y
        """, 6, ELEMENT),
    ("per-row CSR product", """
        import numpy as np
        def csr(vals: np.ndarray, cols: np.ndarray, ptr: np.ndarray, x: np.ndarray) -> np.ndarray:
            n = len(ptr) - 1
            y = np.zeros(n)
            for i in range(n):
                y[i] = vals[ptr[i]:ptr[i + 1]] @ x[cols[ptr[i]:ptr[i + 1]]]
            return y
        """, 6, ELEMENT),
    ("per-row CSR product through bounds bound in the loop", """
        import numpy as np
        def csr(data: np.ndarray, indices: np.ndarray, indptr: np.ndarray, x: np.ndarray) -> np.ndarray:
            y = np.zeros(len(indptr) - 1)
            for i in range(len(indptr) - 1):
                start = indptr[i]
                end = indptr[i + 1]
                y[i] = np.dot(data[start:end], x[indices[start:end]])
            return y
        """, 5, ELEMENT),
    ("a column broadcast, one column per pass", """
        import numpy as np
        def fill(t: np.ndarray, m: int) -> np.ndarray:
            w = np.zeros((t.shape[0], m))
            for c in range(m):
                w[:, c] = t
            return w
        """, 5, ELEMENT),
    ("a window loop with a separate output counter", """
        import numpy as np
        def sums(a: np.ndarray, k: int) -> np.ndarray:
            out = np.zeros(a.shape[0] - k + 1)
            i = 0
            o = 0
            while i + k <= a.shape[0]:
                out[o] = np.sum(a[i:i + k])
                i += 1
                o += 1
            return out
        """, 7, ELEMENT),
    ("a per-sample prediction: weights dotted with one row", """
        import numpy as np
        def predict(X: np.ndarray, w: np.ndarray, b: float) -> np.ndarray:
            out = np.zeros(X.shape[0])
            for i in range(X.shape[0]):
                out[i] = np.dot(X[i], w) + b
            return out
        """, 5, ELEMENT),
    ("a per-pixel lookup of a prefix the pixel's value bounds", """
        import numpy as np
        def equalize(image: np.ndarray, hist: np.ndarray) -> np.ndarray:
            out = np.empty(image.shape)
            for i in range(image.shape[0]):
                for j in range(image.shape[1]):
                    out[i, j] = np.sum(hist[:image[i, j]])
            return out
        """, 5, ELEMENT),
    ("a running maximum is a reduction: the loop is an element loop, not a recurrence", """
        import numpy as np
        def check(V: np.ndarray) -> float:
            delta = 0.0
            for i in range(V.shape[0]):
                delta = max(delta, abs(V[i, i] - 1.0))
            return delta
        """, 5, ELEMENT),
    ("an element nest over range(4) inside a sweep loop is an element loop of its own", """
        import numpy as np
        spins = np.ones((64, 64))
        field = np.zeros((64, 64))
        J = np.random.rand(4, 4)
        s = np.zeros(4)
        for sweep in range(1000):
            field[1:-1, 1:-1] = spins[:-2, 1:-1] + spins[2:, 1:-1]
            for i in range(4):
                for j in range(4):
                    s[i] += J[i, j] * spins[i, j]
        """, 9, ELEMENT),
    ("all-pairs forces: the inner loop also picks by the outer index, one nest", """
        import numpy as np
        def forces(pos: np.ndarray, mass: np.ndarray) -> np.ndarray:
            acc = np.zeros_like(pos)
            n = pos.shape[0]
            for i in range(n):
                for j in range(n):
                    if i != j:
                        dx = pos[j, 0] - pos[i, 0]
                        acc[i, 0] += mass[j] * dx
            return acc
        """, 6, ELEMENT),
    ("a DP table through a view made before the loop", """
        import numpy as np
        def dtw(x, y):
            n, m = len(x), len(y)
            d0 = np.zeros((n + 1, m + 1))
            d0[0, 1:] = np.inf
            d0[1:, 0] = np.inf
            d1 = d0[1:, 1:]
            d1[:] = np.abs(x[:, None] - y[None, :])
            for i in range(n):
                for j in range(m):
                    d1[i, j] += min(d0[i, j], d0[i, j + 1], d0[i + 1, j])
            return d1[-1, -1]
        """, 10, RECURRENCE),
    ("a DP table by chained picks", """
        import numpy as np
        def align(s1, s2, gap):
            score = np.zeros((len(s1) + 1, len(s2) + 1))
            for i in range(1, len(s1) + 1):
                for j in range(1, len(s2) + 1):
                    score[i][j] = max(0, score[i - 1][j - 1] + 1, score[i - 1][j] - gap, score[i][j - 1] - gap)
            return score
        """, 5, RECURRENCE),
    ("a 2-body leapfrog over 2-element vectors", """
        import numpy as np
        def orbit(steps):
            r = np.array([1.0, 0.0])
            v = np.array([0.0, 1.0])
            dt = 0.001
            for k in range(steps):
                a = -r / np.linalg.norm(r) ** 3
                v = v + a * dt
                r = r + v * dt
            return r
        """, 7, RECURRENCE),
    ("an IIR filter whose feedback runs over inner taps", """
        import numpy as np
        def iir(x: np.ndarray, b: np.ndarray, a: np.ndarray) -> np.ndarray:
            y = np.zeros(len(x))
            for n in range(len(x)):
                for k in range(len(b)):
                    if n - k >= 0:
                        y[n] = y[n] + b[k] * x[n - k]
                for k in range(1, len(a)):
                    if n - k >= 0:
                        y[n] = y[n] - a[k] * y[n - k]
            return y
        """, 5, RECURRENCE),
    ("an IIR filter on an extended buffer (the index plus a fixed offset)", """
        import numpy as np
        def iir(x: np.ndarray, a: np.ndarray, history: np.ndarray) -> np.ndarray:
            y = np.concatenate([history, np.zeros(len(x))])
            for n in range(len(x)):
                m = n + len(history)
                for k in range(1, len(a)):
                    y[m] -= a[k] * y[m - k]
            return y
        """, 5, RECURRENCE),
]

QUIET = [
    ("time stepping with per-step saves", """
        import numpy as np
        def heat(n, steps):
            u = np.zeros(n)
            energy = np.zeros(steps)
            for i in range(steps):
                u[1:-1] = u[1:-1] + 0.1 * (u[2:] - 2 * u[1:-1] + u[:-2])
                energy[i] = np.sum(u * u)
            return energy
        """, 6),
    ("a k-means update over K clusters with a mask over all points", """
        import numpy as np
        def update(X: np.ndarray, labels: np.ndarray, K: int) -> np.ndarray:
            centers = np.zeros((K, X.shape[1]))
            for k in range(K):
                mask = labels == k
                centers[k] = X[mask].mean(axis=0)
            return centers
        """, 5),
    ("mixture components against an attribute the class uses as an array", """
        import numpy as np
        from .base import Model
        class GMM(Model):
            def e_step(self):
                resp = np.zeros((self.X.shape[0], self.k))
                for c in range(self.k):
                    diff = self.X - self.mu[c]
                    resp[:, c] = np.exp(-0.5 * np.sum(diff ** 2, axis=1))
                return resp
        """, 7),
    ("a tap loop shifting a whole array into an accumulator", """
        import numpy as np
        def taps(u: np.ndarray, w: np.ndarray, n: int) -> np.ndarray:
            acc = np.zeros(n)
            for k in range(len(w)):
                acc += w[k] * u[k:k + n]
            return acc
        """, 5),
    ("im2col by taps: each pass copies a whole shifted image", """
        import numpy as np
        def im2col(img, kh, kw):
            C, H, W = img.shape
            oh, ow = H - kh + 1, W - kw + 1
            cols = np.empty((C, kh, kw, oh, ow))
            for di in range(kh):
                for dj in range(kw):
                    cols[:, di, dj, :, :] = img[:, di:di + oh, dj:dj + ow]
            return cols
        """, 7),
    ("a lag loop over the taps of a filter", """
        import numpy as np
        def lags(b: np.ndarray, x: np.ndarray, M: int) -> np.ndarray:
            zi = np.zeros(M)
            for m in range(M):
                zi[m] = np.sum(b[m + 1:] * x[:M - m])
            return zi
        """, 5),
    ("a minibatch loop", """
        import numpy as np
        def batches(X: np.ndarray, bs: int) -> float:
            total = 0.0
            for b in range(X.shape[0] // bs):
                total += float(np.sum(X[b * bs:(b + 1) * bs] ** 2))
            return total
        """, 5),
    ("a loop over three species with whole-row stencils", """
        import numpy as np
        def react(conc, steps):
            lap = np.empty_like(conc)
            for step in range(steps):
                for s in range(3):
                    lap[s] = np.roll(conc[s], 1) + np.roll(conc[s], -1) - 2.0 * conc[s]
                conc += 0.1 * lap
            return conc
        """, 6),
]


@pytest.mark.parametrize(("name", "source", "line", "role"), CLASSES, ids=[c[0] for c in CLASSES])
def test_loop_class(name: str, source: str, line: int, role: Role) -> None:
    assert _role_at(source, line) is role


@pytest.mark.parametrize(("name", "source", "line"), QUIET, ids=[c[0] for c in QUIET])
def test_not_an_element_loop(name: str, source: str, line: int) -> None:
    model = _model(source)
    frames = [frame for frame in model.loops if frame.line == line]
    assert frames and all(model.role(frame) not in (ELEMENT, RECURRENCE) for frame in frames)
    assert not [f for f in lint_source(textwrap.dedent(source)) if f.code in ("CPN101", "CPN410")]


ELIM = """\
import numpy as np


def elim(m: np.ndarray):
    for r in range(m.shape[0] - 1):
        p = m[r, r]
        for c in range(r + 1, m.shape[0]):
            f = m[c, r] / p
            m[c, :] -= f * m[r, :]
"""


def test_work_does_not_depend_on_which_loop_is_asked_first() -> None:
    forward = _model(ELIM)
    backward = _model(ELIM)
    first = [forward.work(f).work for f in forward.loops]
    second = [backward.work(f).work for f in reversed(backward.loops)][::-1]
    assert first == second
    assert [forward.role(f) for f in forward.loops] == [backward.role(f) for f in backward.loops]


def test_elimination_is_an_element_loop_with_and_without_assessment() -> None:
    plain = [(f.line, f.code) for f in lint_source(ELIM) if f.code == "CPN101"]
    assessed = [(f.line, f.code) for f in lint_source(ELIM, assessment=True) if f.code == "CPN101"]
    assert plain == assessed == [(5, "CPN101")]


def test_inner_taps_of_a_recurrence_are_not_separate_element_loops() -> None:
    source = textwrap.dedent(CLASSES[[c[0] for c in CLASSES].index("an IIR filter whose feedback runs over inner taps")][1])
    codes = [(f.line, f.code) for f in lint_source(source) if f.code in ("CPN101", "CPN410")]
    assert codes == [(5, "CPN410")]


def test_item_iterators_walk_their_array() -> None:
    model = _model("""
        import numpy as np
        Z = np.random.rand(10, 10)
        t = 0.0
        for idx, v in np.ndenumerate(Z):
            t += v
        for v in np.nditer(Z):
            t += v
        for v in Z.flat:
            t += v
        for idx in np.ndindex(Z.shape):
            t += Z[idx]
        """)
    kinds = [(f.iter_kind, sorted(f.index_vars), [ast.unparse(a) for a in walked_arrays(model, f)]) for f in model.loops]
    assert kinds == [
        (IterKind.ARRAY, ["idx"], ["Z"]),
        (IterKind.ARRAY, [], ["Z"]),
        (IterKind.ARRAY, [], ["Z"]),
        (IterKind.INDEX_PRODUCT, ["idx"], []),
    ]
