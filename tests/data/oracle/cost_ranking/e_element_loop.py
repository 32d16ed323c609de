"""(e) An element loop: out[i] = a[i] * b[i] + 1 for each of N elements.

Cost shape: N x a few launches on single elements (per-launch overhead
dominates; the bytes are negligible).
"""

import sys
import time

import numpy as np


def main(n):
    a = np.random.rand(n)
    b = np.random.rand(n)
    out = np.zeros(n)
    for i in range(4):  # warm-up
        out[i] = a[i] * b[i] + 1
    float(out.sum())

    start = time.perf_counter()
    for i in range(n):
        out[i] = a[i] * b[i] + 1
    float(out.sum())
    print(f"CPN_TIME {time.perf_counter() - start:.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
