"""Calibration: effective memory bandwidth of a whole-array operation.

``c = a + b`` on N (sys.argv[1]) float64 elements, 10 times: each operation
reads two arrays and writes one, 3 x 8 x N bytes. Prints
``CPN_CALIBRATION bandwidth_bytes_per_s <bytes per second>`` and
``CPN_CALIBRATION add_s <seconds per operation>``.
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


if __name__ == "__main__":
    main(int(sys.argv[1]))
