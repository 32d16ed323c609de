"""Probe (level 2): the import-chain probe's supplies, plus conversion to an
ndarray subclass. quantities' Quantity and UnitQuantity subclass np.ndarray
(here cupynumeric.ndarray), and build their instances with `.view(cls)`
(quantities/unitquantity.py:47 `numpy.array(1, dtype='d').view(cls)`, run at
import time for every unit; quantity.py:174 `.view(cls)` in Quantity.__new__).
cuPyNumeric's ndarray.view refuses a subclass type. The probe wraps
cupynumeric.ndarray.view so that, given a cuPyNumeric ndarray subclass, it
builds an instance of that subclass on the same data (cuPyNumeric's own
internal `_init_from_thunk`) and calls its `__array_finalize__`, as NumPy does.
The import loop then supplies any missing NumPy name from host NumPy as before,
and the quantities driver's calls run, to see what fails next."""
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


_orig_view = cupynumeric.ndarray.view
_view_count = [0]


def _view(self, dtype=None, type=None):
    cls = type if type is not None else dtype
    if isinstance(cls, __builtins__["type"] if isinstance(__builtins__, dict) else __builtins__.type) and issubclass(cls, cupynumeric.ndarray):
        _view_count[0] += 1
        arr = object.__new__(cls)
        arr._init_from_thunk(self._thunk, writeable=self._writeable)
        fin = getattr(arr, "__array_finalize__", None)
        if callable(fin):
            fin(self)
        return arr
    return _orig_view(self, dtype) if dtype is not None else _orig_view(self)


cupynumeric.ndarray.view = _view

_here = __file__.rsplit("/", 1)[0]
sys.path.insert(0, _here)
_import_chain("quantities", ["quantities", "quantities.umath", "quantities.constants"], _here)
exec(compile(open(_here + "/quantities_driver.py").read(), "quantities_driver.py", "exec"))
print(f"PROBE subclass views supplied: {_view_count[0]}", flush=True)
