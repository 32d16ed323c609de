"""Probe (level 5): the level-4 patches (np.issubdtype, np.linalg.det, `in` on
arrays) plus the missing names and the complex max that level 4 showed:
- np.max on a complex array raises NotImplementedError in cuPyNumeric
  (pythtb.py:935, the Hermiticity check in _sol_ham, on every diagonalisation):
  answer complex np.max from a host copy (NumPy orders complex numbers
  lexicographically);
- np.get_printoptions / np.set_printoptions (pythtb.py:2003, k_path) and
  np.linalg.lstsq (pythtb.py:1385) are missing: supply host NumPy's.
Then run the pythtb driver's calls again, to see what fails next."""
import numpy as np
import cupynumeric
import cupynumeric._array.array as _cpn_array_mod

_host_np = _cpn_array_mod.np          # the real NumPy that cuPyNumeric itself imported
print("PROBE numpy module is", np.__name__, "; host numpy is", _host_np.__name__, flush=True)


def _host(v):
    return _host_np.asarray(v.__array__()) if hasattr(v, "__array__") else _host_np.asarray(v)


def _wrap(fn):
    def f(*a, **k):
        r = fn(*[_host(x) if isinstance(x, cupynumeric.ndarray) else x for x in a], **k)
        if isinstance(r, tuple):
            return tuple(np.asarray(x) if isinstance(x, _host_np.ndarray) else x for x in r)
        return np.asarray(r) if isinstance(r, _host_np.ndarray) else r
    return f


np.issubdtype = _host_np.issubdtype
np.linalg.det = lambda a: np.asarray(_host_np.linalg.det(_host(a)))
cupynumeric.ndarray.__contains__ = lambda self, v: v in _host(self)
_max = np.max
np.max = lambda a, *args, **kw: (np.asarray(_host_np.max(_host(a), *args, **kw))
                                 if getattr(a, "dtype", None) is not None and a.dtype.kind == "c" else _max(a, *args, **kw))
np.get_printoptions = _host_np.get_printoptions
np.set_printoptions = _host_np.set_printoptions
np.linalg.lstsq = _wrap(_host_np.linalg.lstsq)
exec(compile(open(__file__.replace("probe_pythtb_level5.py", "pythtb_driver.py")).read(), "pythtb_driver.py", "exec"))
