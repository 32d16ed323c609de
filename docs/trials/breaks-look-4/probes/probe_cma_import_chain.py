"""Probe (import chain): `import cma` fails at import time on a name cuPyNumeric
lacks. This probe imports cma in a loop: each time the import fails on a missing
name, it prints the failing library line, supplies that one name from host NumPy
(arguments read to host arrays, array results handed back as cuPyNumeric
arrays), drops the half-imported cma modules and tries again. It stops when the
import succeeds, then runs the cma driver's calls with all supplied names in
place, to see what fails next on each path."""
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
    return _host_np.asarray(v.__array__()) if isinstance(v, cupynumeric.ndarray) else v


def _wrap(fn):
    if not callable(fn):
        return fn

    def f(*a, **k):
        r = fn(*[_to_host(x) for x in a], **{kk: _to_host(vv) for kk, vv in k.items()})
        return np.asarray(r) if isinstance(r, _host_np.ndarray) else r
    return f


sys.path.insert(0, __file__.rsplit("/", 1)[0])
for level in range(1, 30):
    try:
        import cma  # noqa: F401
        print(f"PROBE level {level}: import cma ok", flush=True)
        break
    except ModuleNotFoundError as e:  # a whole NumPy submodule is missing: supply host NumPy's
        msg = str(e).splitlines()[0]
        frames = [f for f in traceback.extract_tb(e.__traceback__) if "/cma/" in f.filename]
        where = f"{frames[-1].filename.split('breaks-look-4/')[-1]}:{frames[-1].lineno}" if frames else "?"
        print(f"PROBE level {level}: {type(e).__name__}: {msg}", flush=True)
        print(f"PROBE     at {where}: {frames[-1].line if frames else ''}", flush=True)
        mod = re.search(r"No module named '([\w.]+)'", msg).group(1)
        host_mod = importlib.import_module(_host_np.__name__ + "." + mod.split(".", 1)[1])
        sys.modules[mod] = host_mod
        setattr(sys.modules[mod.rsplit(".", 1)[0]], mod.rsplit(".", 1)[1], host_mod)
        print(f"PROBE     supplied module {mod} as host {host_mod.__name__} (its functions return host NumPy arrays)", flush=True)
        for k in [k for k in sys.modules if k == "cma" or k.startswith("cma.")]:
            del sys.modules[k]
    except (ImportError, AttributeError) as e:
        msg = str(e).splitlines()[0]
        frames = [f for f in traceback.extract_tb(e.__traceback__) if "/cma/" in f.filename]
        where = f"{frames[-1].filename.split('breaks-look-4/')[-1]}:{frames[-1].lineno}" if frames else "?"
        print(f"PROBE level {level}: {type(e).__name__}: {msg}", flush=True)
        print(f"PROBE     at {where}: {frames[-1].line if frames else ''}", flush=True)
        m = (re.search(r"cannot import name '(\w+)' from '([\w.]+)'", msg)
             or re.search(r"module '([\w.]+)' has no attribute '(\w+)'", msg))
        if not m:
            raise
        name, mod = (m.group(1), m.group(2)) if "cannot import" in msg else (m.group(2), m.group(1))
        target = sys.modules[mod]
        host_obj = _host_np
        for part in mod.split(".")[1:]:
            host_obj = getattr(host_obj, part)
        setattr(target, name, _wrap(getattr(host_obj, name)))
        print(f"PROBE     supplied {mod}.{name} from host NumPy", flush=True)
        for k in [k for k in sys.modules if k == "cma" or k.startswith("cma.")]:
            del sys.modules[k]
exec(compile(open(__file__.replace("probe_cma_import_chain.py", "cma_driver.py")).read(), "cma_driver.py", "exec"))
