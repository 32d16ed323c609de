"""(g) A 2-D nested element loop over a sqrt(N) x sqrt(N) grid.

Cost shape: N x a few single-element launches (two nested data-extent
loops of sqrt(N) trips each).
"""

import math
import sys
import time

import numpy as np


def main(n):
    m = math.isqrt(n)
    a = np.random.rand(m, m)
    b = np.random.rand(m, m)
    out = np.zeros((m, m))
    for j in range(4):  # warm-up
        out[0, j] = 2.0 * a[0, j] + b[0, j]
    float(out.sum())

    start = time.perf_counter()
    for i in range(m):
        for j in range(m):
            out[i, j] = 2.0 * a[i, j] + b[i, j]
    float(out.sum())
    print(f"CPN_TIME {time.perf_counter() - start:.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
