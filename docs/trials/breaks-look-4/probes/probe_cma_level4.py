"""Probe (level 4): everything probe_cma_level3 supplies, plus every other
`np.*` name that cma's source uses and cuPyNumeric lacks (found by listing the
`np.X` names in cma/*.py and checking hasattr under the oracle): np.size, np.std,
np.r_, np.linalg.cond, np.loadtxt, np.random.get_state/set_state/permutation,
all from host NumPy (arguments read to host arrays, array results handed back as
cuPyNumeric arrays; np.r_ is host NumPy's object as is). This is meant to reach
the failures that are not a missing name.

Level 3 (kept below, unchanged): the two import-time patches of probe_cma_import_chain
(np.resize, np.random.standard_normal, both from host NumPy), plus two patches
for the commonest failures the chain probe showed next:
- ndarray.resize does not exist (cma/evolution_strategy.py:1273
  `self.x0.resize(self.x0.shape[0])`, reached by every optimisation run): add a
  method that accepts the no-op case used there (the new shape equals the
  current shape) and refuses anything else;
- np.isscalar(x[0]) is False for an element of a 1-D cuPyNumeric array, which is
  a 0-d array, so cma's test functions treat one point as a population
  (cma/fitness_functions.py:254, :326, ...): make isscalar also answer True for
  0-d cuPyNumeric arrays.
Then run the cma driver's calls again, to see what fails next on each path."""
import sys
import numpy as np
import cupynumeric
import cupynumeric._array.array as _cpn_array_mod

_host_np = _cpn_array_mod.np          # the real NumPy that cuPyNumeric itself imported
print("PROBE numpy module is", np.__name__, "; host numpy is", _host_np.__name__, flush=True)


def _to_host(v):
    return _host_np.asarray(v.__array__()) if isinstance(v, cupynumeric.ndarray) else v


np.resize = lambda a, new_shape: np.asarray(_host_np.resize(_to_host(a), new_shape))
np.random.standard_normal = lambda size=None: np.asarray(_host_np.random.standard_normal(size))


def _resize(self, *shape, refcheck=True):
    shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
    shape = tuple(int(s) for s in (shape if isinstance(shape, (tuple, list)) else (shape,)))
    if shape != tuple(self.shape):
        raise NotImplementedError("probe resize: only the no-op case (same shape) is supplied")


cupynumeric.ndarray.resize = _resize
_isscalar = np.isscalar
np.isscalar = lambda x: _isscalar(x) or (isinstance(x, cupynumeric.ndarray) and x.ndim == 0)


def _wrap(fn):
    def f(*a, **k):
        r = fn(*[_to_host(x) for x in a], **{kk: _to_host(vv) for kk, vv in k.items()})
        return np.asarray(r) if isinstance(r, _host_np.ndarray) else r
    return f


for _name in ("size", "std", "loadtxt"):
    setattr(np, _name, _wrap(getattr(_host_np, _name)))
np.r_ = _host_np.r_
np.linalg.cond = _wrap(_host_np.linalg.cond)
for _name in ("get_state", "set_state", "permutation"):
    setattr(np.random, _name, _wrap(getattr(_host_np.random, _name)))
sys.path.insert(0, __file__.rsplit("/", 1)[0])
exec(compile(open(__file__.replace("probe_cma_level4.py", "cma_driver.py")).read(), "cma_driver.py", "exec"))
