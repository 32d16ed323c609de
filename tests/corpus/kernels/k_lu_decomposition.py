"""LU factorisation kernels.

``doolittle`` fills L and U entry by entry; ``lu_partial_pivot`` is the
right-looking variant with row pivoting that updates the trailing block with
one outer product per step.
"""
import numpy


def doolittle(A):
    """Doolittle LU without pivoting: unit-lower ``L`` and upper ``U``."""
    n = A.shape[0]
    L = numpy.eye(n)
    U = numpy.zeros((n, n))
    for i in range(n):
        for k in range(i, n):
            total = 0.0
            for j in range(i):
                total += L[i, j] * U[j, k]
            U[i, k] = A[i, k] - total
        for k in range(i + 1, n):
            total = 0.0
            for j in range(i):
                total += L[k, j] * U[j, i]
            L[k, i] = (A[k, i] - total) / U[i, i]
    return L, U


def lu_partial_pivot(A):
    """Right-looking LU with partial pivoting; returns packed LU and the row order."""
    LU = numpy.array(A, dtype=float)
    n = LU.shape[0]
    perm = numpy.arange(n)
    for k in range(n - 1):
        p = k + numpy.argmax(numpy.abs(LU[k:, k]))
        if p != k:
            LU[[k, p], :] = LU[[p, k], :]
            perm[[k, p]] = perm[[p, k]]
        LU[k + 1:, k] /= LU[k, k]
        LU[k + 1:, k + 1:] -= numpy.outer(LU[k + 1:, k], LU[k, k + 1:])
    return LU, perm


def lu_solve(LU, perm, b):
    """Solve ``A x = b`` from the packed factors (library triangular solves)."""
    n = LU.shape[0]
    L = numpy.tril(LU, -1) + numpy.eye(n)
    U = numpy.triu(LU)
    y = numpy.linalg.solve(L, b[perm])
    return numpy.linalg.solve(U, y)


def pivot_growth(A):
    """max |U| / max |A|, a stability diagnostic."""
    LU, _ = lu_partial_pivot(A)
    return numpy.max(numpy.abs(numpy.triu(LU))) / numpy.max(numpy.abs(A))


def determinant(A):
    """Determinant through the library, used to cross-check the factors."""
    return numpy.linalg.det(A)


def permutation_sign(perm):
    """Sign of a permutation, counting cycles on a host list."""
    order = perm.tolist()
    seen = [False] * len(order)
    sign = 1
    for start in range(len(order)):
        if seen[start]:
            continue
        length = 0
        j = start
        while not seen[j]:
            seen[j] = True
            j = order[j]
            length += 1
        if length % 2 == 0:
            sign = -sign
    return sign


def determinant_from_lu(A):
    LU, perm = lu_partial_pivot(A)
    diag = numpy.diag(LU)
    return permutation_sign(perm) * numpy.prod(diag)
