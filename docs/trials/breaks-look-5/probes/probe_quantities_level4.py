"""Probe (level 4): the level-3 probe's supplies, plus NumPy scalars for
one-element results: the level-3 run stopped at import time in
quantities/dimensionality.py:165 `assert np.isscalar(other)` (Dimensionality
.__pow__), because `p = q2.min()` at dimensionality.py:306 is a 0-d
cuPyNumeric array where NumPy gives a NumPy scalar, so np.isscalar says False
and :167 raises TypeError. The probe makes cupynumeric.isscalar return True for
a 0-d cuPyNumeric array (as breaks-look-4's cma level-3 probe did). Then the
driver's calls run again.

Level-3 text, kept for reference: the level-2 probe's supplies, plus NumPy's ufunc protocol
for subclasses. cuPyNumeric's arithmetic and ufuncs return a plain
cupynumeric.ndarray for a subclass input and never call the subclass's
`__array_wrap__`, which is where quantities attaches the units
(quantity.py:323); so `s*1000` at unitquantity.py:203 (UnitQuantity.__mul__ ->
`self.view(Quantity).__mul__(other)`, inherited from cupynumeric.ndarray)
gives a unitless array, and unitquantity.py:60 fails on it at import time. The
probe wraps the arithmetic and comparison operators of cupynumeric.ndarray and
every cuPyNumeric ufunc so that, when an input is an ndarray subclass with its
own `__array_wrap__`, the result is passed to the `__array_wrap__` of the input
with the highest `__array_priority__`, with NumPy's context
(ufunc, inputs, 0). Then the driver's calls run again.

Level-2 text, kept for reference: the import-chain probe's supplies, plus conversion to an
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
        except Exception as e:  # any other failure stops the chain: print its package frames
            msg = str(e).splitlines()[0] if str(e) else ""
            print(f"PROBE import level {level}: {type(e).__name__}: {msg} (not a missing name; the chain stops)", flush=True)
            for f in traceback.extract_tb(e.__traceback__):
                if f"/{pkg}/" in f.filename:
                    print(f"PROBE     via {f.filename.split(here + '/')[-1]}:{f.lineno} ({f.name}): {f.line}", flush=True)
            raise
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

_wrap_count = [0]
_base_wrap = getattr(cupynumeric.ndarray, "__array_wrap__", None)


def _subclass_wrap(uf, inputs, res):
    subs = [x for x in inputs if isinstance(x, cupynumeric.ndarray) and type(x) is not cupynumeric.ndarray
            and getattr(type(x), "__array_wrap__", None) is not _base_wrap]
    if not subs or not isinstance(res, cupynumeric.ndarray):
        return res
    top = max(subs, key=lambda x: getattr(x, "__array_priority__", 0.0))
    _wrap_count[0] += 1
    return top.__array_wrap__(res, (uf, tuple(inputs), 0))


import cupynumeric._ufunc.ufunc  # noqa: E402,F401
_cpn_ufunc_mod = sys.modules["cupynumeric._ufunc.ufunc"]
_UFUNC_NAMES = sorted(n for n in dir(cupynumeric) if isinstance(getattr(cupynumeric, n), _cpn_ufunc_mod.ufunc))
for _name in _UFUNC_NAMES:
    def _make(name, orig):
        def f(*a, **k):
            return _subclass_wrap(getattr(cupynumeric, name), a, orig(*a, **k))
        f.__name__ = name
        f.reduce = getattr(orig, "reduce", None)
        f.nin, f.nout = getattr(orig, "nin", None), getattr(orig, "nout", None)
        return f
    setattr(cupynumeric, _name, _make(_name, getattr(cupynumeric, _name)))
_OPS = {"__add__": "add", "__radd__": "add", "__sub__": "subtract", "__rsub__": "subtract",
        "__mul__": "multiply", "__rmul__": "multiply", "__truediv__": "true_divide",
        "__rtruediv__": "true_divide", "__floordiv__": "floor_divide", "__mod__": "remainder",
        "__pow__": "power", "__rpow__": "power", "__neg__": "negative", "__pos__": "positive",
        "__abs__": "absolute", "__lt__": "less", "__le__": "less_equal", "__gt__": "greater",
        "__ge__": "greater_equal", "__eq__": "equal", "__ne__": "not_equal"}
for _op, _uf in _OPS.items():
    def _make_op(op, ufname, orig):
        reflected = op.startswith("__r") and op not in ("__rshift__",)
        def f(self, *other):
            res = orig(self, *other)
            if res is NotImplemented:
                return res
            inputs = (other[0], self) if (reflected and other) else (self,) + other
            return _subclass_wrap(getattr(cupynumeric, ufname), inputs, res)
        f.__name__ = op
        return f
    setattr(cupynumeric.ndarray, _op, _make_op(_op, _uf, getattr(cupynumeric.ndarray, _op)))
print(f"PROBE {len(_UFUNC_NAMES)} ufuncs and {len(_OPS)} operators call a subclass's __array_wrap__", flush=True)

_orig_isscalar = cupynumeric.isscalar
cupynumeric.isscalar = lambda x: (isinstance(x, cupynumeric.ndarray) and x.ndim == 0) or _orig_isscalar(x)

_here = __file__.rsplit("/", 1)[0]
sys.path.insert(0, _here)
_import_chain("quantities", ["quantities", "quantities.umath", "quantities.constants"], _here)
exec(compile(open(_here + "/quantities_driver.py").read(), "quantities_driver.py", "exec"))
print(f"PROBE subclass views supplied: {_view_count[0]}; __array_wrap__ calls supplied: {_wrap_count[0]}", flush=True)
