"""Probe (level 3): the level-2 probe's negative-step slice, plus the two
NumPy functions the level-2 run found missing at call time: np.loadtxt
(periodictable/xsf.py:263, reading the X-ray scattering factor tables) and
np.interp (nsf.py:453 for energy-dependent neutron lengths; xsf.py:299-300 for
X-ray factors), both supplied from host NumPy (arguments read to host arrays,
host array results handed back as cuPyNumeric arrays). Then the
periodictable driver's calls run again, to see what fails next.

Level-2 text, kept for reference: periodictable's first blocker is not a missing name but a
slice form: cuPyNumeric refuses a negative-step slice
(periodictable/nsf.py:526 `wavelength[::-1], xs[::-1]`, run when the neutron
tables are first loaded; fasta.py:231 loads them at import time). This probe
supplies that one form: it wraps cupynumeric.ndarray.__getitem__ so that an
index containing a slice with a negative step is taken on a host copy of the
array and handed back as a cuPyNumeric array (every other index goes to
cuPyNumeric as before). Then it imports the package in the same loop as the
import-chain probes (supplying any missing NumPy name from host NumPy) and runs
the periodictable driver's calls, to see what fails next on each path."""
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
_orig_getitem = cupynumeric.ndarray.__getitem__


def _has_neg_step(key):
    keys = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, slice) and k.step is not None and k.step < 0 for k in keys)


def _getitem(self, key):
    if _has_neg_step(key):
        _neg_step_count[0] += 1
        if _neg_step_count[0] == 1:
            frames = [f for f in traceback.extract_stack()[:-1] if "/periodictable/" in f.filename]
            if frames:
                print(f"PROBE first negative-step slice supplied at {frames[-1].filename.split('/')[-1]}:{frames[-1].lineno}: {frames[-1].line}", flush=True)
        return np.asarray(_host_np.asarray(self.__array__())[key])
    return _orig_getitem(self, key)


cupynumeric.ndarray.__getitem__ = _getitem
for _name in ("loadtxt", "interp"):
    setattr(cupynumeric, _name, _wrap(getattr(_host_np, _name)))
    print(f"PROBE supplied cupynumeric.{_name} from host NumPy", flush=True)
_here = __file__.rsplit("/", 1)[0]
sys.path.insert(0, _here)
_import_chain("periodictable", ["periodictable"] + ["periodictable." + m for m in ("nsf", "xsf", "cromermann", "activation", "fasta", "util")], _here)
exec(compile(open(_here + "/periodictable_driver.py").read(), "periodictable_driver.py", "exec"))
print(f"PROBE negative-step slices supplied: {_neg_step_count[0]}", flush=True)
