"""(i) A loop over 4 components, each body a whole-array update of N elements.

Cost shape: 4 x a few O(N) launches (a fixed, small trip count: the loop
does not scale with N); no host syncs.
"""

import sys
import time

import numpy as np

COMPONENTS = 4


def main(n):
    fields = np.random.rand(COMPONENTS, n)
    forcing = np.random.rand(COMPONENTS, n)
    out = np.zeros((COMPONENTS, n))
    out[0] = 0.9 * fields[0] + 0.1 * np.sin(forcing[0])  # warm-up
    float(out.sum())

    start = time.perf_counter()
    for k in range(COMPONENTS):
        out[k] = 0.9 * fields[k] + 0.1 * np.sin(forcing[k])
    float(out.sum())
    print(f"CPN_TIME {time.perf_counter() - start:.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
