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
from cpn_lint.model.loop_iterations import walked_arrays

from .test_question_order import ELIM  # the review's elimination kernel


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
    ("a running maximum stored every pass: the builtin max compares single elements", """
        import numpy as np
        def running_max(a):
            out = np.empty_like(a)
            m = a[0]
            for i in range(a.shape[0]):
                m = max(m, a[i])
                out[i] = m
            return out
        """, 6, ELEMENT),
    ("an EWMA carried from the first sample: one number, non-additive", """
        import numpy as np
        def ewma(x, alpha):
            out = np.empty_like(x, dtype=float)
            acc = x[0]
            for t in range(x.shape[0]):
                acc = alpha * x[t] + (1.0 - alpha) * acc
                out[t] = acc
            return out
        """, 6, RECURRENCE),
    ("a dot product over taps by hand, started from the first tap", """
        import numpy as np
        class Fir:
            def __init__(self, taps: np.ndarray):
                self.taps = taps
                self.buffer = np.zeros(taps.shape[0])
            def apply(self, x: float) -> float:
                y = self.taps[0] * x
                for i in range(1, self.taps.shape[0]):
                    y = y + self.taps[i] * self.buffer[i - 1]
                return y
        """, 9, ELEMENT),
    ("RK4 on a 4-element state handed in by the caller", """
        import numpy as np
        def rhs(y, nu):
            s, i, r, v = y[0], y[1], y[2], y[3]
            return np.array([-s * i - nu * s, s * i - 0.1 * i, 0.1 * i, nu * s])
        def integrate(y0, nu, n_steps):
            y = y0.copy()
            out = np.zeros((n_steps + 1, 4))
            for n in range(n_steps):
                k1 = rhs(y, nu)
                k2 = rhs(y + 0.05 * k1, nu)
                y = y + 0.1 * (k1 + k2)
                out[n + 1] = y
            return out
        traj = integrate(np.array([990.0, 10.0, 0.0, 0.0]), 0.01, 2000)
        """, 9, RECURRENCE),
    ("a pair loop whose separation is wrapped in place", """
        import numpy as np
        def forces(pos, box):
            f = np.zeros_like(pos)
            for i in range(pos.shape[0]):
                for j in range(i + 1, pos.shape[0]):
                    d = pos[j] - pos[i]
                    d -= box * np.round(d / box)
                    f[i] -= d
                    f[j] += d
            return f
        """, 5, ELEMENT),
    ("a covariance matrix per trailing window: the stored piece is d x d", """
        import numpy as np
        def rolling_covariance(X, window):
            n, d = X.shape
            out = np.empty((n - window + 1, d, d))
            for t in range(n - window + 1):
                W = X[t:t + window]
                Wc = W - W.mean(axis=0)
                out[t] = Wc.T @ Wc / (window - 1)
            return out
        """, 6, ELEMENT),
    ("per-sample SGD: the weight vector is dotted with one row of X (n, d = X.shape)", """
        import numpy as np
        class LogisticSGD:
            def fit(self, X, y):
                n, d = X.shape
                self.w = np.zeros(d)
                for epoch in range(20):
                    for i in np.random.permutation(n):
                        p = 1.0 / (1.0 + np.exp(-(X[i] @ self.w)))
                        self.w -= 0.1 * (p - y[i]) * X[i]
                return self
        """, 8, ELEMENT),
    ("Cholesky by columns: a panel below the diagonal times a row into column j", """
        import numpy as np
        def cholesky_crout(A):
            n = A.shape[0]
            L = np.zeros((n, n))
            for j in range(n):
                L[j, j] = np.sqrt(A[j, j] - L[j, :j] @ L[j, :j])
                L[j + 1:, j] = (A[j + 1:, j] - L[j + 1:, :j] @ L[j, :j]) / L[j, j]
            return L
        """, 6, ELEMENT),
    ("a unit triangular solve with many right-hand sides, row by row", """
        import numpy as np
        def unit_lower_solve(L, B):
            X = B.astype(np.float64)
            for i in range(1, L.shape[0]):
                X[i, :] -= L[i, :i] @ X[:i, :]
            return X
        """, 5, ELEMENT),
    ("block means: a while loop moves a block by its width, a counter stores one mean per block", """
        import numpy as np
        def block_means(a, k):
            out = np.empty(a.shape[0] // k)
            i = 0
            o = 0
            while i + k <= a.shape[0]:
                out[o] = np.mean(a[i:i + k])
                i += k
                o += 1
            return out
        """, 7, ELEMENT),
    ("frame energies: a range stepping by the frame length, one number appended per frame", """
        import numpy as np
        def frame_energies(X, hop):
            n = np.shape(X)[0]
            energies = []
            for start in range(0, n - hop + 1, hop):
                energies.append(np.sum(X[start:start + hop] ** 2))
            return energies
        """, 6, ELEMENT),
    ("a convolution's backward pass: the weights contracted with a picked gradient into a window", """
        import numpy as np
        def backward(x, W, grad):
            dx = np.zeros_like(x)
            k = W.shape[-1]
            oh, ow = grad.shape[2], grad.shape[3]
            for i in range(oh):
                for j in range(ow):
                    g = grad[:, :, i, j]
                    dx[:, :, i:i + k, j:j + k] += np.tensordot(g, W, axes=([1], [0]))
            return dx
        """, 7, ELEMENT),
    ("k-means assignment point by point: the centres are a small operand beside one point", """
        import numpy as np
        def assign(X, centers: np.ndarray):
            labels = np.empty(X.shape[0], dtype=np.int64)
            for i in range(X.shape[0]):
                d = np.sum((centers - X[i]) ** 2, axis=1)
                labels[i] = np.argmin(d)
            return labels
        """, 5, ELEMENT),
    ("per-pixel interpolation: the helper picks by integers it computes from what it is handed", """
        import numpy as np
        def interpolate(image: np.ndarray, x: float, y: float) -> float:
            x0, y0 = np.floor(x).astype(np.int32), np.floor(y).astype(np.int32)
            fx, fy = x - x0, y - y0
            top = image[x0, y0] * (1 - fx) + image[x0 + 1, y0] * fx
            bottom = image[x0, y0 + 1] * (1 - fx) + image[x0 + 1, y0 + 1] * fx
            return top * (1 - fy) + bottom * fy
        def resize(image: np.ndarray, factor: int) -> np.ndarray:
            out = np.empty((image.shape[0] * factor, image.shape[1] * factor))
            for i in range(out.shape[0]):
                for j in range(out.shape[1]):
                    out[i, j] = interpolate(image, i / factor, j / factor)
            return out
        """, 11, ELEMENT),
    ("a velocity per lattice node: the population column of a node against the module's nine directions", """
        import numpy as np
        CX = (0, 1, 0, -1, 0, 1, -1, -1, 1)
        def velocity(f, rho):
            nq, nx, ny = f.shape
            ux = np.zeros((nx, ny))
            for i in range(nx):
                for j in range(ny):
                    ux[i, j] = (f[:, i, j] * np.array(CX)).sum() / rho[i, j]
            return ux
        """, 7, ELEMENT),
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
    ("paths updated in place from a row of pre-drawn increments", """
        import numpy as np
        z = np.random.normal(0.0, 1.0, size=(126, 200000))
        S = np.full(200000, 100.0)
        total = np.zeros(200000)
        for t in range(126):
            S *= np.exp(0.01 * z[t])
            total += S
        """, 6),
    ("a frame per step of a field the loop advances whole", """
        import numpy as np
        def run(u, steps):
            frames = np.empty((steps, u.shape[0], u.shape[1]))
            for t in range(steps):
                u = u + 0.1 * (np.roll(u, 1, 0) - u)
                frames[t] = u.T
            return frames
        """, 5),
    ("a batch of large matrix products, one per pass (b.shape[2]: b[i] is a matrix)", """
        import numpy as np
        def stacked_matmul(a, b):
            out = np.empty((a.shape[0], a.shape[1], b.shape[2]))
            for i in range(a.shape[0]):
                out[i] = np.dot(a[i], b[i])
            return out
        """, 5),
    ("streaming whole planes of a field of unknown kind, one direction per pass", """
        import numpy as np
        def advect(dfm, c_map):
            new_map = np.zeros((*dfm.size, dfm.vecs.shape[1]))
            for i in range(dfm.vecs.shape[1]):
                shift = (dfm.vecs[:, i] / dfm.ratio).astype(int)
                new_map[:, :, i] = dfm.dt * np.roll(c_map[:, :, i], shift=shift, axis=(0, 1))
            return new_map
        """, 5),
    ("right-looking LU: every pass rewrites the trailing block", """
        import numpy as np
        def lu(A):
            LU = np.array(A, dtype=float)
            n = LU.shape[0]
            for k in range(n - 1):
                LU[k + 1:, k] /= LU[k, k]
                LU[k + 1:, k + 1:] -= np.outer(LU[k + 1:, k], LU[k, k + 1:])
            return LU
        """, 6),
    ("a minibatch loop updating weights, one loss appended per batch", """
        import numpy as np
        def train(X, y, w, bs, lr):
            losses = []
            for start in range(0, X.shape[0], bs):
                xb = X[start:start + bs]
                err = xb @ w - y[start:start + bs]
                w -= lr * xb.T @ err / bs
                losses.append(float(np.mean(err ** 2)))
            return w, losses
        """, 5),
    ("a minibatch loop whose weights a method updates, one loss appended per batch", """
        import numpy as np
        def train(net, X, y, batch, lr):
            history = []
            for start in range(0, X.shape[0], batch):
                loss, grad = net.loss(net.forward(X[start:start + batch]), y[start:start + batch])
                net.backward(grad, lr)
                history.append(float(loss))
            return history
        """, 5),
    ("chunks copied through: each pass stores a chunk, not one element", """
        import numpy as np
        def scaled(x: np.ndarray, chunk: int) -> np.ndarray:
            out = np.empty_like(x)
            for start in range(0, x.shape[0], chunk):
                out[start:start + chunk] = 2.0 * x[start:start + chunk]
            return out
        """, 5),
    ("mixture components over the centres' axis: each pass fills a column over all points", """
        import numpy as np
        def e_step(X, mu):
            resp = np.zeros((X.shape[0], mu.shape[0]))
            for c in range(mu.shape[0]):
                diff = X - mu[c]
                resp[:, c] = np.exp(-0.5 * np.sum(diff ** 2, axis=1))
            return resp
        """, 5),
    ("nearest neighbours row by row: every pass reads all of X", """
        import numpy as np
        def nearest(X):
            nn = np.empty(X.shape[0], dtype=np.int64)
            for i in range(X.shape[0]):
                d = np.sum((X - X[i]) ** 2, axis=1)
                d[i] = np.inf
                nn[i] = np.argmin(d)
            return nn
        """, 5),
    ("nine lattice directions, each a whole field shaped like rho", """
        import numpy as np
        W = (4 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 36, 1 / 36, 1 / 36, 1 / 36)
        def equilibrium(rho, usq):
            feq = np.empty((9,) + rho.shape)
            for q in range(9):
                feq[q] = W[q] * rho * (1.0 - usq)
            return feq
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


NESTS = [
    ("Floyd-Warshall: the pivot loop relaxes the whole matrix per pass; the sweep inside is the element loop", """
        import numpy as np
        def floyd_warshall(W):
            n = W.shape[0]
            D = W.copy()
            for k in range(n):
                for i in range(n):
                    for j in range(n):
                        if D[i, k] + D[k, j] < D[i, j]:
                            D[i, j] = D[i, k] + D[k, j]
            return D
        """, [(7, "CPN101")]),
    ("Gauss-Seidel in place reads neighbours on both sides this sweep wrote: sequential work, one finding at the sweep", """
        import numpy as np
        def gauss_seidel(phi, sweeps):
            n = phi.shape[0]
            for sweep in range(sweeps):
                for i in range(1, n - 1):
                    for j in range(1, n - 1):
                        phi[i, j] = 0.25 * (phi[i + 1, j] + phi[i - 1, j] + phi[i, j + 1] + phi[i, j - 1])
            return phi
        """, [(6, "CPN410")]),
    ("a DP table reads only cells behind it: a recurrence", """
        import numpy as np
        def edit(a, b):
            D = np.zeros((a.shape[0] + 1, b.shape[0] + 1))
            for i in range(1, a.shape[0] + 1):
                for j in range(1, b.shape[0] + 1):
                    D[i, j] = min(D[i - 1, j] + 1, D[i, j - 1] + 1, D[i - 1, j - 1] + (a[i - 1] != b[j - 1]))
            return D
        """, [(5, "CPN410")]),
    ("rows handed out by the outer loop and a row counter make one nest with the pixel loop", """
        import numpy as np
        def scale_rows(image, k):
            out = np.empty((image.shape[0], k * image.shape[1]))
            row = 0
            for a_row in image:
                for i in range(len(a_row) - 1):
                    out[row][k * i] = a_row[i] + (a_row[i + 1] - a_row[i]) / k
                row = row + 1
            return out
        """, [(6, "CPN101")]),
    ("a per-pixel comprehension whose closure helper picks the pixels: one nest, at the pixel loop", """
        import numpy as np
        def convolve(img, kernel):
            h, w = img.shape
            k = kernel.shape[0] // 2
            def helper(x, y):
                taps = [img[x + a][y + b] * kernel[a + k][b + k] for b in range(-k, k + 1) for a in range(-k, k + 1)]
                return np.sum(taps)
            return [[helper(i, j) for j in range(k, w - k)] for i in range(k, h - k)]
        """, [(9, "CPN101")]),
    ("Gaussian elimination: the rows the pivot loop updates are picked through its own index", """
        import numpy as np
        def elim(m: np.ndarray):
            for r in range(m.shape[0] - 1):
                p = m[r, r]
                for c in range(r + 1, m.shape[0]):
                    m[c, :] -= m[c, r] / p * m[r, :]
        """, [(4, "CPN101")]),
]


@pytest.mark.parametrize(("name", "source", "expected"), NESTS, ids=[c[0] for c in NESTS])
def test_one_finding_per_nest_at_the_element_loop(name: str, source: str, expected: list[tuple[int, str]]) -> None:
    found = [(f.line, f.code) for f in lint_source(textwrap.dedent(source)) if f.code in ("CPN101", "CPN410")]
    assert found == expected


# An SOR sweep on a periodic grid: the last row and column read row 0 and
# column 0 instead of i + 1 and j + 1. The loop as a whole reads both
# neighbours of every axis, so it relaxes in place, as the interior
# statement alone would: sequential work (CPN410), each update waiting for
# the ones before it; written with chained subscripts (pot[i][j]), whose
# pot[0] of pot[0][j] is an element of the chain, not a row read whole.
SOR_PERIODIC = """
import numpy as np
pot = np.zeros((40, 40))
for t in range(1000):
    for i in range(40):
        for j in range(40):
            if i != 39 and j != 39:
                pot[i][j] = 0.25 * (pot[i + 1][j] + pot[i - 1][j] + pot[i][j + 1] + pot[i][j - 1])
            if i == 39 and j != 39:
                pot[i][j] = 0.25 * (pot[0][j] + pot[i - 1][j] + pot[i][j + 1] + pot[i][j - 1])
            if i != 39 and j == 39:
                pot[i][j] = 0.25 * (pot[i + 1][j] + pot[i - 1][j] + pot[i][0] + pot[i][j - 1])
"""


@pytest.mark.parametrize("chained", [True, False])
def test_a_periodic_relaxation_sweep_is_sequential_work(chained: bool) -> None:
    source = SOR_PERIODIC if chained else SOR_PERIODIC.replace("][", ", ")
    assert _role_at(source, 5) is Role.RECURRENCE
    codes = [(f.line, f.code) for f in lint_source(textwrap.dedent(source))]
    assert (5, "CPN410") in codes and not any(code == "CPN101" for _, code in codes)
    assert "in place" in next(f.message for f in lint_source(textwrap.dedent(source)) if f.code == "CPN410")


# A loop over a few experts (or clusters) that gathers the rows a whole mask
# selects, through the indices np.where/np.nonzero make of it: every pass
# reads the whole mask and gathers as many rows, so it is whole-array work,
# not a row loop (a mixture-of-experts dispatch).
EXPERT_DISPATCH = """
import numpy as np

def route(x, indices, weights, experts):
    out = np.zeros_like(x)
    for i in range(len(experts)):
        idx, top = np.where(indices == i)
        out[idx] += experts[i](x[idx]) * weights[idx, top][:, None]
    return out

def centroids(x, labels, k):
    means = np.zeros((k, x.shape[1]))
    for c in range(k):
        members = np.flatnonzero(labels == c)
        means[c] = x[members].mean(axis=0)
    return means
"""


def test_gathers_through_the_indices_of_a_whole_mask_are_not_row_picks() -> None:
    assert [f.code for f in lint_source(textwrap.dedent(EXPERT_DISPATCH)) if f.code == "CPN101"] == []
    assert _role_at(EXPERT_DISPATCH, 6) is not ELEMENT
