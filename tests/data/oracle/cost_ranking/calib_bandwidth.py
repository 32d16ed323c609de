"""Calibration: effective memory bandwidth of a whole-array operation, and
the FP64 rate of a matrix product.

``c = a + b`` on N (sys.argv[1]) float64 elements, 10 times: each operation
reads two arrays and writes one, 3 x 8 x N bytes. Prints
``CPN_CALIBRATION bandwidth_bytes_per_s <bytes per second>`` and
``CPN_CALIBRATION add_s <seconds per operation>``. Then ``m @ m`` on a
1,000 x 1,000 matrix, 3 times (2 x 1000**3 operations each):
``CPN_CALIBRATION fp64_per_s <operations per second>``.
"""

import sys
import time

import numpy as np

REPEATS = 10


def main(n):
    a = np.random.rand(n)
    b = np.random.rand(n)
    c = a + b  # warm-up
    float(c.sum() + a.sum() + b.sum())

    start = time.perf_counter()
    for _ in range(REPEATS):
        c = a + b
        a = c
    float(c[0])
    seconds = (time.perf_counter() - start) / REPEATS
    print(f"CPN_CALIBRATION bandwidth_bytes_per_s {3 * 8 * n / seconds:.6e}")
    print(f"CPN_CALIBRATION add_s {seconds:.9f}")

    m = np.random.rand(1000, 1000)
    p = m @ m  # warm-up
    float(p[0, 0])
    start = time.perf_counter()
    for _ in range(3):
        p = m @ m
        float(p[0, 0])
    seconds = (time.perf_counter() - start) / 3
    print(f"CPN_CALIBRATION fp64_per_s {2 * 1000 ** 3 / seconds:.6e}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
