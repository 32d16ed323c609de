"""Probe: the two missing module attributes behind this trial's AttributeErrors,
on their own: np.genfromtxt (ahrs/utils/wmm.py:459, reached at import time) and
np.interp (spectral/algorithms/continuum.py:194)."""
import numpy as np
print("PROBE numpy module is", np.__name__)
for name in ("genfromtxt", "interp"):
    print(f"PROBE hasattr(np, {name!r}) =", hasattr(np, name))
