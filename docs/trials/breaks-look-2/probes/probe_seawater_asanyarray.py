"""Probe: alias the missing np.asanyarray to np.asarray, then run the
seawater driver's calls again, to see what fails next on each path."""
import numpy as np
print("PROBE numpy module is", np.__name__, "; patching np.asanyarray = np.asarray")
np.asanyarray = np.asarray
exec(compile(open(__file__.replace("probe_seawater_asanyarray.py", "seawater_driver.py")).read(), "seawater_driver.py", "exec"))
