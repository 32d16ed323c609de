"""Sequence comparison by dynamic programming: Levenshtein distance and the
longest common subsequence, on integer code arrays."""
import numpy as np


def encode(text):
    """Byte codes of a string as an integer array."""
    return np.frombuffer(text.encode("utf-8"), dtype=np.uint8).astype(np.int32)


def levenshtein(a, b):
    """Edit distance between two code arrays."""
    n, m = a.shape[0], b.shape[0]
    D = np.zeros((n + 1, m + 1), dtype=np.int64)
    D[:, 0] = np.arange(n + 1)
    D[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            D[i, j] = min(D[i - 1, j] + 1, D[i, j - 1] + 1, D[i - 1, j - 1] + cost)
    return int(D[n, m])


def lcs_table(x, y):
    """Table of LCS lengths of all prefix pairs."""
    n, m = x.shape[0], y.shape[0]
    L = np.zeros((n + 1, m + 1), dtype=np.int32)
    for i in range(n):
        for j in range(m):
            if x[i] == y[j]:
                L[i + 1, j + 1] = L[i, j] + 1
            else:
                L[i + 1, j + 1] = max(L[i, j + 1], L[i + 1, j])
    return L


def lcs_backtrack(L, x, y):
    """One longest common subsequence, walking the table back from the corner."""
    i, j = x.shape[0], y.shape[0]
    out = []
    while i > 0 and j > 0:
        if x[i - 1] == y[j - 1]:
            out.append(int(x[i - 1]))
            i -= 1
            j -= 1
        elif L[i - 1, j] >= L[i, j - 1]:
            i -= 1
        else:
            j -= 1
    return out[::-1]


def similarity(s, t):
    """1 - normalised edit distance."""
    a, b = encode(s), encode(t)
    d = levenshtein(a, b)
    return 1.0 - d / max(len(s), len(t), 1)
