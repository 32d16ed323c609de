"""Probe (level 4): the level-3 probe's supplies, plus np.interp, which
cuPyNumeric lacks (sharppy/sharptab/interp.py:410 in generic_interp_pres and
:356 in generic_interp_hght, the vertical interpolation behind almost every
sounding parameter), supplied from host NumPy (arguments read to host arrays).
Then the driver's calls run again.

Level-3 text, kept for reference: the import-chain probe's supplies (numpy.ma and
numpy.testing as host NumPy's modules), plus the two blockers the level-2 run
met on every path past the profile constructor:
- cuPyNumeric refuses a negative-step slice (sharppy/sharptab/interp.py:98
  `prof.logp[::-1]`, and the same form at :54 and :256). The probe wraps
  cupynumeric.ndarray.__getitem__ so that an index with a negative-step slice is
  taken on a host copy and handed back as a cuPyNumeric array.
- cuPyNumeric functions do not honour a NumPy MaskedArray argument: at
  profile.py:339 `np.log10(self.pres.copy())` gets a masked array and returns a
  plain cuPyNumeric ndarray without its mask, and interp.py:339 then calls the
  masked-array method `.count()` on it. The probe wraps every cuPyNumeric
  function that host NumPy also has so that, when any argument is a host
  MaskedArray, the host NumPy function runs instead (NumPy's own behaviour).
Then the sharppy driver's calls run again, to see what fails next."""
import importlib
import re
import sys
import traceback
import numpy as np
import cupynumeric
import cupynumeric._array.array as _cpn_array_mod

_host_np = _cpn_array_mod.np          # the real NumPy that cuPyNumeric itself imported
print("PROBE numpy module is", np.__name__, "; host numpy is", _host_np.__name__, flush=True)


def _to_host(v):
    if isinstance(v, cupynumeric.ndarray):
        return _host_np.asarray(v.__array__())
    if isinstance(v, (list, tuple)) and any(isinstance(x, cupynumeric.ndarray) for x in v):
        return type(v)(_to_host(x) for x in v)
    return v


def _wrap(fn):
    if not callable(fn) or isinstance(fn, type):
        return fn

    def f(*a, **k):
        r = fn(*[_to_host(x) for x in a], **{kk: _to_host(vv) for kk, vv in k.items()})
        return np.asarray(r) if type(r) is _host_np.ndarray else r
    return f


def _import_chain(pkg, modules, here):
    """import `modules` in a loop; on each missing NumPy name or submodule, print the
    failing library line, supply it from host NumPy, drop the half-imported package
    modules and retry"""
    for level in range(1, 40):
        try:
            for m in modules:
                importlib.import_module(m)
            print(f"PROBE import level {level}: import {', '.join(modules)} ok", flush=True)
            return
        except ModuleNotFoundError as e:  # a whole NumPy submodule is missing: supply host NumPy's
            msg = str(e).splitlines()[0]
            frames = [f for f in traceback.extract_tb(e.__traceback__) if f"/{pkg}/" in f.filename]
            where = f"{frames[-1].filename.split(here + '/')[-1]}:{frames[-1].lineno}" if frames else "?"
            print(f"PROBE import level {level}: {type(e).__name__}: {msg}", flush=True)
            print(f"PROBE     at {where}: {frames[-1].line if frames else ''}", flush=True)
            mod = re.search(r"No module named '([\w.]+)'", msg).group(1)
            if not mod.startswith("cupynumeric."):
                raise
            host_mod = importlib.import_module(_host_np.__name__ + "." + mod.split(".", 1)[1])
            sys.modules[mod] = host_mod
            setattr(sys.modules[mod.rsplit(".", 1)[0]], mod.rsplit(".", 1)[1], host_mod)
            print(f"PROBE     supplied module {mod} as host {host_mod.__name__} (its functions return host NumPy arrays)", flush=True)
        except (ImportError, AttributeError) as e:
            msg = str(e).splitlines()[0]
            frames = [f for f in traceback.extract_tb(e.__traceback__) if f"/{pkg}/" in f.filename]
            where = f"{frames[-1].filename.split(here + '/')[-1]}:{frames[-1].lineno}" if frames else "?"
            print(f"PROBE import level {level}: {type(e).__name__}: {msg}", flush=True)
            print(f"PROBE     at {where}: {frames[-1].line if frames else ''}", flush=True)
            mm = re.search(r"type object 'ndarray' has no attribute '(\w+)'", msg)
            if mm:  # an ndarray method cuPyNumeric lacks: supply host NumPy's, run on a host copy
                setattr(cupynumeric.ndarray, mm.group(1), _wrap(getattr(_host_np.ndarray, mm.group(1))))
                print(f"PROBE     supplied method cupynumeric.ndarray.{mm.group(1)} from host NumPy", flush=True)
                for k in [k for k in sys.modules if k == pkg or k.startswith(pkg + ".")]:
                    del sys.modules[k]
                continue
            m = (re.search(r"cannot import name '(\w+)' from '([\w.]+)'", msg)
                 or re.search(r"module '([\w.]+)' has no attribute '(\w+)'", msg))
            if not m or not (m.group(2) if "cannot import" in msg else m.group(1)).startswith("cupynumeric"):
                raise
            name, mod = (m.group(1), m.group(2)) if "cannot import" in msg else (m.group(2), m.group(1))
            target = sys.modules[mod]
            host_obj = _host_np
            for part in mod.split(".")[1:]:
                host_obj = getattr(host_obj, part)
            setattr(target, name, _wrap(getattr(host_obj, name)))
            print(f"PROBE     supplied {mod}.{name} from host NumPy", flush=True)
        for k in [k for k in sys.modules if k == pkg or k.startswith(pkg + ".")]:
            del sys.modules[k]
    raise RuntimeError("import chain did not end")


_neg_step_count = [0]
_ma_dispatch_count = [0]
_orig_getitem = cupynumeric.ndarray.__getitem__


def _has_neg_step(key):
    keys = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, slice) and k.step is not None and k.step < 0 for k in keys)


def _getitem(self, key):
    if _has_neg_step(key):
        _neg_step_count[0] += 1
        return np.asarray(_host_np.asarray(self.__array__())[_to_host(key) if not isinstance(key, tuple) else tuple(_to_host(k) for k in key)])
    return _orig_getitem(self, key)


cupynumeric.ndarray.__getitem__ = _getitem


def _ma_dispatch(name, fn):
    host_fn = getattr(_host_np, name)

    def f(*a, **k):
        if any(isinstance(x, _host_np.ma.MaskedArray) for x in list(a) + list(k.values())):
            _ma_dispatch_count[0] += 1
            return host_fn(*[_to_host(x) for x in a], **{kk: _to_host(vv) for kk, vv in k.items()})
        return fn(*a, **k)
    return f


_n = 0
for _name in dir(cupynumeric):
    _obj = getattr(cupynumeric, _name)
    if _name.startswith("_") or isinstance(_obj, type) or not callable(_obj) or not callable(getattr(_host_np, _name, None)):
        continue
    setattr(cupynumeric, _name, _ma_dispatch(_name, _obj))
    _n += 1
print(f"PROBE {_n} cuPyNumeric functions hand a host MaskedArray argument to host NumPy", flush=True)

cupynumeric.interp = _wrap(_host_np.interp)
print("PROBE supplied cupynumeric.interp from host NumPy", flush=True)

_here = __file__.rsplit("/", 1)[0]
sys.path.insert(0, _here)
_import_chain("sharppy", ["sharppy.sharptab.profile", "sharppy.sharptab.params", "sharppy.sharptab.thermo",
                          "sharppy.sharptab.interp", "sharppy.sharptab.winds", "sharppy.sharptab.utils"], _here)
exec(compile(open(_here + "/sharppy_driver.py").read(), "sharppy_driver.py", "exec"))
print(f"PROBE negative-step slices supplied: {_neg_step_count[0]}; calls handed to host NumPy for a MaskedArray: {_ma_dispatch_count[0]}", flush=True)
