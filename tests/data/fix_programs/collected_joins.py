"""CPN203 fixes under NumPy: growing joins become a list joined once."""
# fixes: 4

import numpy as np


def grow_flat(count):
    out = np.array([])
    for i in range(count):
        out = np.append(out, i * 0.5)
    return out


def grow_rows(rows, cols):
    table = np.zeros((1, cols))
    for i in range(rows):
        table = np.vstack([table, np.full((1, cols), float(i))])
    return table


def grow_columns(cols):
    block = np.ones((3, 1))
    for j in range(cols):
        block = np.hstack((block, np.arange(3.0).reshape((3, 1)) * j))
    return block


def reused_row(rows):
    row = np.zeros(4)
    acc = np.zeros((0, 4))
    for i in range(rows):
        row[:] = i
        acc = np.concatenate((acc, row[None, :]), axis=0)
    return acc


if __name__ == "__main__":
    print(grow_flat(9))
    print(grow_rows(4, 3))
    print(grow_columns(4))
    print(reused_row(5))
    print(grow_flat(0))
