"""(d) A 2-D 5-point Jacobi stencil on a sqrt(N) x sqrt(N) grid, 20 time steps.

Cost shape: 20 x a handful of sliced whole-array launches over O(N) bytes;
no host syncs inside the time loop.
"""

import math
import sys
import time

import numpy as np

STEPS = 20


def step(u, new):
    new[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return new, u


def main(n):
    m = math.isqrt(n)
    u = np.zeros((m, m))
    u[0, :] = 1.0
    new = u.copy()
    u, new = step(u, new)  # warm-up
    float(u.sum())

    start = time.perf_counter()
    for _ in range(STEPS):
        u, new = step(u, new)
    float(u.sum())
    print(f"CPN_TIME {time.perf_counter() - start:.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
