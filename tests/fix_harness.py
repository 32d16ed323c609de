"""Run one program with ``print`` recording what it prints, for the
before/after tier of ``cpn-lint fix`` (tests/test_fix_equivalence.py).

``python tests/fix_harness.py PROGRAM OUT.pickle``: the program runs as
``__main__`` from its own folder with NumPy's and Python's random streams
seeded, and the arguments of every ``print`` call are pickled to OUT.
"""

from __future__ import annotations

import os
import pickle
import random
import runpy
import sys


def main(program: str, out: str) -> None:
    import numpy as np

    np.random.seed(0)
    random.seed(0)
    records: list[tuple[object, ...]] = []

    def record(*args: object, **_: object) -> None:
        records.append(tuple(_snapshot(a) for a in args))

    folder = os.path.dirname(os.path.abspath(program))
    sys.path.insert(0, folder)
    os.chdir(folder)
    runpy.run_path(program, init_globals={"print": record}, run_name="__main__")
    with open(out, "wb") as handle:
        pickle.dump(records, handle)


def _snapshot(value: object) -> object:
    """A copy taken when printed: later in-place updates must not change it."""
    import numpy as np

    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, (list, tuple)):
        return type(value)(_snapshot(v) for v in value)
    try:
        pickle.dumps(value)
    except Exception:
        return repr(value)
    return value


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
