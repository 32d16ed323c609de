"""Probe (level 3): supply both names the level-2 probe hit, np.issubdtype
(pythtb.py:3950) and np.linalg.det (pythtb.py:122, the second check in
tb_model.__init__), each as host NumPy's function with the result handed back to
cuPyNumeric, then run the pythtb driver's calls again, to see what fails next."""
import numpy as np
import cupynumeric._array.array as _cpn_array_mod

_host_np = _cpn_array_mod.np          # the real NumPy that cuPyNumeric itself imported
print("PROBE numpy module is", np.__name__, "; host numpy is", _host_np.__name__, flush=True)


def _host(v):
    return _host_np.asarray(v.__array__()) if hasattr(v, "__array__") else _host_np.asarray(v)


np.issubdtype = _host_np.issubdtype
np.linalg.det = lambda a: np.asarray(_host_np.linalg.det(_host(a)))
exec(compile(open(__file__.replace("probe_pythtb_level3.py", "pythtb_driver.py")).read(), "pythtb_driver.py", "exec"))
