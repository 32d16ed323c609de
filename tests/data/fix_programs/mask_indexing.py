"""CPN204 fixes under NumPy: index arrays made from a mask become the mask."""
# fixes: 4

import numpy as np


def clamp(n):
    arr = np.linspace(-1.0, 1.0, n)
    arr[np.nonzero(arr < 0)] = 0.0
    return arr


def hot_cells():
    grid = np.arange(16.0).reshape((4, 4))
    grid = np.sin(grid)
    hot = grid > 0.2
    return grid[np.where(hot)]


def positives(n):
    x = np.linspace(-2.0, 3.0, n)
    return x[np.where(x > 0)[0]]


def method_form(n):
    a = np.cos(np.arange(float(n)))
    a[(a > 0.5).nonzero()] = 0.5
    return a


if __name__ == "__main__":
    print(clamp(11))
    print(hot_cells())
    print(positives(12))
    print(method_form(10))
