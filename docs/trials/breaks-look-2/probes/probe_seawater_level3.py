"""Probe (level 3): as probe_seawater_asanyarray.py, and also supply the
missing np.polyval (Horner's rule) that `alpha` hit next, then run the
seawater driver's calls again."""
import numpy as np
print("PROBE numpy module is", np.__name__, "; patching np.asanyarray and np.polyval")
np.asanyarray = np.asarray


def _polyval(c, x):
    y = np.zeros_like(np.asarray(x, dtype=float))
    for ci in c:
        y = y * x + ci
    return y


np.polyval = _polyval
exec(compile(open(__file__.replace("probe_seawater_level3.py", "seawater_driver.py")).read(), "seawater_driver.py", "exec"))
