"""Probe: the missing names behind this trial's AttributeErrors/ImportErrors, on
their own (library line where each is first reached in brackets)."""
import numpy as np
print("PROBE numpy module is", np.__name__)
checks = [
    ("np.issubdtype", np, "issubdtype", "pythtb.py:3950"),
    ("np.linalg.det", np.linalg, "det", "pythtb.py:122"),
    ("np.linalg.lstsq", np.linalg, "lstsq", "pythtb.py:1385"),
    ("np.get_printoptions", np, "get_printoptions", "pythtb.py:2003"),
    ("np.resize", np, "resize", "cma/bbobbenchmarks.py:119, import time"),
    ("np.random.standard_normal", np.random, "standard_normal", "cma/bbobbenchmarks.py:120, import time"),
    ("np.size", np, "size", "cma/evolution_strategy.py:854"),
    ("np.std", np, "std", "bezier/hazmat/curve_helpers.py:894"),
    ("np.asfortranarray", np, "asfortranarray", "bezier/hazmat/curve_helpers.py:33, import time"),
]
for label, mod, name, where in checks:
    print(f"PROBE hasattr {label} = {hasattr(mod, name)}   [{where}]")
print("PROBE hasattr ndarray.resize =", hasattr(np.zeros(3), "resize"), "  [cma/evolution_strategy.py:1273]")
try:
    from numpy.polynomial import polynomial  # noqa: F401
    print("PROBE from numpy.polynomial import polynomial: ok   [bezier/hazmat/algebraic_intersection.py:44]")
except ImportError as e:
    print(f"PROBE from numpy.polynomial import polynomial: {type(e).__name__}: {e}   [bezier/hazmat/algebraic_intersection.py:44]")
