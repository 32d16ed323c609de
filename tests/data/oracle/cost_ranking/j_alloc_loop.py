"""(j) A 20-step loop that allocates tmp = np.zeros(N) every step.

Cost shape: 20 x (one allocation + fill of N elements + a few O(N)
launches); no host syncs.
"""

import sys
import time

import numpy as np

STEPS = 20


def step(a, b, acc, n):
    tmp = np.zeros(n)
    tmp += a * b
    return acc + tmp


def main(n):
    a = np.random.rand(n)
    b = np.random.rand(n)
    acc = np.zeros(n)
    acc = step(a, b, acc, n)  # warm-up
    float(acc.sum())

    start = time.perf_counter()
    for _ in range(STEPS):
        acc = step(a, b, acc, n)
    float(acc.sum())
    print(f"CPN_TIME {time.perf_counter() - start:.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
