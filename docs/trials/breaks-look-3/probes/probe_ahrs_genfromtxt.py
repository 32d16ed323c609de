"""Probe (level 2): supply the missing np.genfromtxt (host NumPy's parser, result
handed back as a cuPyNumeric array) so `import ahrs` gets past the module-level
WMM() in ahrs/filters/davenport.py:112, then run the ahrs driver's calls again,
to see what fails next on each path."""
import sys
import numpy as np
import cupynumeric._array.array as _cpn_array_mod

_host_np = _cpn_array_mod.np          # the real NumPy that cuPyNumeric itself imported
print("PROBE numpy module is", np.__name__, "; host numpy is", _host_np.__name__, flush=True)


def _genfromtxt(*args, **kwargs):
    return np.asarray(_host_np.genfromtxt(*args, **kwargs))


np.genfromtxt = _genfromtxt
exec(compile(open(__file__.replace("probe_ahrs_genfromtxt.py", "ahrs_driver.py")).read(), "ahrs_driver.py", "exec"))
