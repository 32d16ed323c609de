"""(b) A reduction: the sum of squares of N elements, taken 10 times.

Cost shape: 10 x (one elementwise launch + one reduction launch) over O(N)
bytes; the partial results stay on the device, one host sync at the end.
"""

import sys
import time

import numpy as np

REPEATS = 10


def main(n):
    a = np.random.rand(n)
    total = np.sum(a * a)  # warm-up
    float(total)

    start = time.perf_counter()
    total = 0.0
    for _ in range(REPEATS):
        total = total + np.sum(a * a)
    float(total)
    print(f"CPN_TIME {time.perf_counter() - start:.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
