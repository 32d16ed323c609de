"""Probe (level 4): the level-3 patches (np.issubdtype, np.linalg.det) plus a
host-side `in` for cuPyNumeric arrays: `True in bool_array` (pythtb.py:277,
tb_model.set_onsite) raises ValueError inside cuPyNumeric's ndarray.__contains__
(legate Scalar built from a numpy.bool). The patch answers `v in a` from a host
copy of `a`. Then run the pythtb driver's calls again, to see what fails next."""
import numpy as np
import cupynumeric
import cupynumeric._array.array as _cpn_array_mod

_host_np = _cpn_array_mod.np          # the real NumPy that cuPyNumeric itself imported
print("PROBE numpy module is", np.__name__, "; host numpy is", _host_np.__name__, flush=True)


def _host(v):
    return _host_np.asarray(v.__array__()) if hasattr(v, "__array__") else _host_np.asarray(v)


np.issubdtype = _host_np.issubdtype
np.linalg.det = lambda a: np.asarray(_host_np.linalg.det(_host(a)))
cupynumeric.ndarray.__contains__ = lambda self, v: v in _host(self)
exec(compile(open(__file__.replace("probe_pythtb_level4.py", "pythtb_driver.py")).read(), "pythtb_driver.py", "exec"))
