"""Probe (level 3): the two import-time patches of probe_bezier_import_chain
(np.asfortranarray from host NumPy; numpy.polynomial as host NumPy's module),
plus: cuPyNumeric's array constructors reject the `order=` keyword
(bezier/_base.py:120 `np.asarray(nodes, order="F")`, which every Curve and
Triangle constructor runs, and 60-odd np.empty/np.zeros/np.eye(..., order="F")
lines in bezier/hazmat/). The patch wraps asarray, array, empty, zeros, ones,
eye and copy so they drop `order=`, then runs the bezier driver's calls again,
to see what fails next on each path. (Dropping the keyword changes only memory
layout, which cuPyNumeric does not expose; values are unaffected.)"""
import importlib
import sys
import numpy as np
import cupynumeric
import cupynumeric._array.array as _cpn_array_mod

_host_np = _cpn_array_mod.np          # the real NumPy that cuPyNumeric itself imported
print("PROBE numpy module is", np.__name__, "; host numpy is", _host_np.__name__, flush=True)


def _to_host(v):
    return _host_np.asarray(v.__array__()) if isinstance(v, cupynumeric.ndarray) else v


np.asfortranarray = lambda a, dtype=None: np.asarray(_host_np.asfortranarray(_to_host(a), dtype=dtype))
sys.modules["cupynumeric.polynomial"] = importlib.import_module("numpy.polynomial")
cupynumeric.polynomial = sys.modules["cupynumeric.polynomial"]


def _drop_order(fn):
    def f(*a, order=None, **k):
        return fn(*a, **k)
    return f


for _name in ("asarray", "array", "empty", "zeros", "ones", "eye", "copy"):
    setattr(np, _name, _drop_order(getattr(np, _name)))
exec(compile(open(__file__.replace("probe_bezier_level3.py", "bezier_driver.py")).read(), "bezier_driver.py", "exec"))
