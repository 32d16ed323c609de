"""Probe: the form at pymap3d/vincenty.py:118 on its own. On NumPy,
np.radians(40.0) is a NumPy scalar: `lat1[i]` raises TypeError and vdist takes
its scalar `except TypeError` branch. Under cuPyNumeric the result is a 0-d
ndarray, so `lat1[i]` with a 0-d boolean mask runs a boolean-indexing task on
a 0-d store, and Legion aborts the process (SIGABRT; no Python exception)."""
import faulthandler
import sys
import numpy as np
faulthandler.enable(file=sys.stdout)
lat1 = np.radians(40.0)
print("PROBE numpy module is", np.__name__, "; type(np.radians(40.0)) =", type(lat1).__name__, "; ndim =", np.ndim(lat1), flush=True)
i = abs(np.pi / 2 - abs(lat1)) < 1e-10
print("PROBE mask:", type(i).__name__, bool(i), flush=True)
try:
    sel = lat1[i]
    print("PROBE lat1[i] ok, shape", sel.shape, flush=True)
    lat1[i] = np.sign(lat1[i]) * (np.pi / 2 - 1e-10)
    print("PROBE lat1[i] = ... ok", flush=True)
except TypeError as e:
    print("PROBE lat1[i] raised TypeError (the branch NumPy takes):", e, flush=True)
