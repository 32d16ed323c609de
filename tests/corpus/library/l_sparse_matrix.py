"""A small compressed-sparse-row matrix class and a row-list builder for
assembling finite-difference systems."""
import numpy as np


class CSRMatrix:
    """CSR storage: ``data[indptr[r]:indptr[r + 1]]`` are the entries of row r."""

    def __init__(self, data, indices, indptr, shape):
        self.data = np.asarray(data, dtype=float)
        self.indices = np.asarray(indices, dtype=np.int64)
        self.indptr = np.asarray(indptr, dtype=np.int64)
        self.shape = tuple(shape)

    @classmethod
    def from_dense(cls, A, tol=0.0):
        rows, cols = np.nonzero(np.abs(A) > tol)
        counts = np.bincount(rows, minlength=A.shape[0])
        indptr = np.concatenate(([0], np.cumsum(counts)))
        return cls(A[rows, cols], cols, indptr, A.shape)

    @property
    def nnz(self):
        return int(self.indptr[-1])

    def matvec(self, x):
        """y = A @ x, one row at a time."""
        n_rows = self.shape[0]
        y = np.zeros(n_rows)
        for r in range(n_rows):
            lo, hi = self.indptr[r], self.indptr[r + 1]
            y[r] = self.data[lo:hi] @ x[self.indices[lo:hi]]
        return y

    def diagonal(self):
        n = min(self.shape)
        d = np.zeros(n)
        for r in range(n):
            for k in range(self.indptr[r], self.indptr[r + 1]):
                if self.indices[k] == r:
                    d[r] = self.data[k]
        return d

    def to_dense(self):
        D = np.zeros(self.shape)
        row_of = np.repeat(np.arange(self.shape[0]), np.diff(self.indptr))
        D[row_of, self.indices] = self.data
        return D

    def scale_rows(self, s):
        """Multiply row r by s[r], without a loop."""
        row_of = np.repeat(np.arange(self.shape[0]), np.diff(self.indptr))
        self.data *= s[row_of]
        return self

    def eliminate_zeros(self):
        keep = self.data != 0
        idx = np.flatnonzero(keep)
        self.data = self.data[idx]
        self.indices = self.indices[idx]
        row_of = np.repeat(np.arange(self.shape[0]), np.diff(self.indptr))[keep]
        counts = np.bincount(row_of, minlength=self.shape[0])
        self.indptr = np.concatenate(([0], np.cumsum(counts)))
        return self

    def __repr__(self):
        density = sum(self.data != 0) / max(self.shape[0] * self.shape[1], 1)
        return f"CSRMatrix(shape={self.shape}, nnz={self.nnz}, density={density:.3g})"


class LILBuilder:
    """Row lists for assembly, converted to CSR once."""

    def __init__(self, n_rows, n_cols):
        self.shape = (n_rows, n_cols)
        self.rows = np.empty(n_rows, dtype=object)
        for r in range(n_rows):
            self.rows[r] = []

    def add(self, r, c, v):
        self.rows[r].append((c, v))

    def tocsr(self):
        indptr = [0]
        indices, data = [], []
        for entries in self.rows:
            entries.sort()
            indices.extend(c for c, _ in entries)
            data.extend(v for _, v in entries)
            indptr.append(len(indices))
        return CSRMatrix(data, indices, indptr, self.shape)


def assemble_laplacian_1d(n):
    b = LILBuilder(n, n)
    for i in range(n):
        b.add(i, i, 2.0)
        if i > 0:
            b.add(i, i - 1, -1.0)
        if i < n - 1:
            b.add(i, i + 1, -1.0)
    return b.tocsr()


def jacobi_sparse(A, b, n_iter=100):
    """Jacobi iterations with the CSR product."""
    d = A.diagonal()
    x = np.zeros_like(b)
    for _ in range(n_iter):
        x = x + (b - A.matvec(x)) / d
    return x
