"""Probe (level 3): as probe_numdifftools_typing.py, and also patch the two
missing names it hit (np.errstate -> no-op context manager, np.int_ ->
np.int64), then run the numdifftools driver's calls again."""
import contextlib
import sys
import types
import numpy as np
print("PROBE numpy module is", np.__name__)
class _NDArray:
    def __class_getitem__(cls, item):
        return object
stub = types.ModuleType(np.__name__ + ".typing")
stub.ArrayLike = stub.DTypeLike = object
stub.NDArray = _NDArray
sys.modules[np.__name__ + ".typing"] = stub
np.typing = stub
np.errstate = lambda *a, **kw: contextlib.nullcontext()
np.int_ = np.int64
exec(compile(open(__file__.replace("probe_numdifftools_level3.py", "numdifftools_driver.py")).read(), "numdifftools_driver.py", "exec"))
