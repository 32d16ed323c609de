"""Calibration: the per-launch overhead and the host round-trip latency.

COUNT (sys.argv[1]) tiny operations on a 16-element array, timed three ways:

* ``x = x + 1``: one launch per operation, no host sync (per_launch_s);
* ``a[0] = a[0] + 1``: an element update as element loops write it
  (element_update_s: per statement, whatever number of launches it makes);
* ``float(x.sum())``: one reduction launch and one host round trip
  (sync_s: per round trip, the launch included).

Prints one line per figure: ``CPN_CALIBRATION <name> <seconds>``.
"""

import sys
import time

import numpy as np


def per_launch(x, count):
    float(x.sum())
    start = time.perf_counter()
    for _ in range(count):
        x = x + 1
    float(x.sum())
    return (time.perf_counter() - start) / count


def per_element_update(a, count):
    float(a.sum())
    start = time.perf_counter()
    for _ in range(count):
        a[0] = a[0] + 1
    float(a.sum())
    return (time.perf_counter() - start) / count


def per_round_trip(x, count):
    float(x.sum())
    start = time.perf_counter()
    total = 0.0
    for _ in range(count):
        total += float(x.sum())
    return (time.perf_counter() - start) / count


def main(count):
    x = np.zeros(16)
    per_launch(x, 50)  # warm-up
    per_element_update(x, 50)
    per_round_trip(x, 50)
    print(f"CPN_CALIBRATION per_launch_s {per_launch(x, count):.9f}")
    print(f"CPN_CALIBRATION element_update_s {per_element_update(x, count):.9f}")
    print(f"CPN_CALIBRATION sync_s {per_round_trip(x, count):.9f}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
