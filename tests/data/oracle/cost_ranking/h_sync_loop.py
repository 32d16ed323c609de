"""(h) A 50-step time loop with a whole-array body and a host sync each step.

Cost shape: 50 x (a few O(N) launches + one reduction + one host round
trip: float(np.max(...)) waits for the device every step).
"""

import sys
import time

import numpy as np

STEPS = 50


def advance(u, dt):
    new = u + dt * (1.0 - u * u)
    change = float(np.max(np.abs(new - u)))
    return new, change


def main(n):
    dt = 0.01
    u = np.random.rand(n)
    u, change = advance(u, dt)  # warm-up

    start = time.perf_counter()
    for _ in range(STEPS):
        u, change = advance(u, dt)
    float(u.sum())
    print(f"CPN_TIME {time.perf_counter() - start:.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
