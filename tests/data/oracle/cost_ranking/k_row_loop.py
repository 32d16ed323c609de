"""(k) A row loop: out[i, :] = a[i, :] * 2 over the sqrt(N) rows of a sqrt(N) x sqrt(N) array.

Cost shape: sqrt(N) x a couple of launches, each on one row of sqrt(N)
elements.
"""

import math
import sys
import time

import numpy as np


def main(n):
    rows = math.isqrt(n)
    a = np.random.rand(rows, rows)
    out = np.zeros((rows, rows))
    out[0, :] = a[0, :] * 2  # warm-up
    float(out.sum())

    start = time.perf_counter()
    for i in range(rows):
        out[i, :] = a[i, :] * 2
    float(out.sum())
    print(f"CPN_TIME {time.perf_counter() - start:.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
