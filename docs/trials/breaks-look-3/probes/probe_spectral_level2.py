"""Probe (level 2): get past the three spectral failures of the main run, then
run the spectral driver's calls again, to see what fails next on each path.
- np.interp is missing: supply it (host NumPy's interp, result handed back as a
  cuPyNumeric array);
- `set(arr.ravel())` fails because iterating a cuPyNumeric array yields 0-d
  arrays, which are unhashable: give the two modules that do it a module-level
  `set` that reads the array to a host list first."""
import builtins
import numpy as np
import cupynumeric._array.array as _cpn_array_mod

_host_np = _cpn_array_mod.np
print("PROBE numpy module is", np.__name__, flush=True)


def _interp(x, xp, fp, *a, **k):
    host = lambda v: _host_np.asarray(v.__array__()) if hasattr(v, "__array__") else v
    return np.asarray(_host_np.interp(host(x), host(xp), host(fp), *a, **k))


def _set(it=()):
    return builtins.set(it.tolist() if hasattr(it, "tolist") else it)


np.interp = _interp
import sys  # noqa: E402
import spectral  # noqa: E402,F401
sys.modules["spectral.algorithms.clustering"].set = _set
sys.modules["spectral.algorithms.algorithms"].set = _set
exec(compile(open(__file__.replace("probe_spectral_level2.py", "spectral_driver.py")).read(), "spectral_driver.py", "exec"))
