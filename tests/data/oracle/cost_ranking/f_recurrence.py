"""(f) A loop-carried recurrence y[i] = alpha * y[i - 1] + x[i] over N elements.

Cost shape: N x a few single-element launches, each waiting on the one
before (a serial chain); no host syncs.
"""

import sys
import time

import numpy as np


def main(n):
    alpha = 0.9
    x = np.random.rand(n)
    y = np.zeros(n)
    y[0] = x[0]
    for i in range(1, 4):  # warm-up
        y[i] = alpha * y[i - 1] + x[i]
    float(y.sum())

    start = time.perf_counter()
    for i in range(1, n):
        y[i] = alpha * y[i - 1] + x[i]
    float(y.sum())
    print(f"CPN_TIME {time.perf_counter() - start:.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
