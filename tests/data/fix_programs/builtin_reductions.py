"""CPN110 fixes under NumPy: builtins that walk an array become reductions
along axis 0. Float sums may differ in the last bits (pairwise summation)."""
# fixes: 6

import numpy as np

err = np.abs(np.linspace(0.0, 1.0, 101) - 0.3)
total = sum(err)
worst = max(err)
best = min(err)
flags = err > 0.5
some = any(flags)
every = all(err >= 0.0)

table = np.arange(12.0).reshape((3, 4))
columns = sum(table)

if __name__ == "__main__":
    print(total, worst, best, some, every)
    print(columns)
