"""(c) A matrix product of two sqrt(N) x sqrt(N) matrices.

Cost shape: one launch, O(N**1.5) flops over O(N) bytes.
"""

import math
import sys
import time

import numpy as np


def main(n):
    m = math.isqrt(n)
    a = np.random.rand(m, m)
    b = np.random.rand(m, m)
    float((a @ b).sum())  # warm-up

    start = time.perf_counter()
    c = a @ b
    float(c.sum())
    print(f"CPN_TIME {time.perf_counter() - start:.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
