"""CPN202 fixes under NumPy: every update below is rewritten in place by
cpn-lint fix, and the results must not change."""
# fixes: 7

import numpy as np

x = np.zeros(50)
y = np.linspace(0.0, 1.0, 50)
for _ in range(20):
    x = x + 0.1 * y
    x = x * 0.99

counts = np.arange(12)
for _ in range(50):
    counts = counts + 3
    counts = counts % 7


def wrap(n, steps):
    box = 2.0
    pos = np.linspace(0.0, 3.0 * box, n)
    vel = np.ones(n) * 0.7
    for _ in range(steps):
        pos = np.mod(pos, box)
        pos = vel * 0.05 + pos
    return pos


def toward(target_value, steps):
    x = np.zeros(500)
    target = np.full(500, float(target_value))
    for _ in range(steps):
        x = target - x
    return x


if __name__ == "__main__":
    print(x)
    print(counts)
    print(wrap(30, 40))
    print(toward(2.5, 7))
