"""CPN201 fixes under NumPy: allocations moved before their loop."""
# fixes: 4

import numpy as np


def advect(n, c, steps):
    u = np.exp(-np.linspace(-3.0, 3.0, n) ** 2)
    for step in range(steps):
        un = u.copy()
        u[1:] = un[1:] - c * (un[1:] - un[:-1])
    return u


def relax(steps):
    forces = np.linspace(-1.0, 1.0, 64)
    positions = np.zeros(64)
    for step in range(steps):
        velocity = np.zeros_like(positions)
        np.multiply(forces, 0.05, out=velocity)
        positions += velocity
    return positions


def decay(epochs, batches):
    weights = np.ones((8, 8))
    for epoch in range(epochs):
        for batch in range(batches):
            factor = np.full(weights.shape, 0.99)
            weights *= factor
    return weights


def smooth(n, steps):
    field = np.sin(np.linspace(0.0, 6.0, n))
    for step in range(steps):
        scratch = np.empty(n)
        scratch[:] = 0.5 * (field + np.roll(field, 1))
        field += 0.1 * scratch
    return field


if __name__ == "__main__":
    print(advect(40, 0.3, 25))
    print(relax(30))
    print(decay(3, 10))
    print(smooth(20, 15))
