"""Probe: patch the missing np.errstate with a no-op context manager and
run CIECAM02_to_XYZ100 again, to see what fails next on that path."""
import contextlib, sys, traceback
import numpy as np
print("numpy module is", np.__name__)
np.errstate = lambda **kw: contextlib.nullcontext()
from colorspacious import CIECAM02Space, cspace_convert
M = np.array([[41.24, 35.76, 18.05], [21.26, 71.52, 7.22], [1.93, 11.92, 95.05]])
srgb = 0.05 + (np.arange(48, dtype=float).reshape(16, 3) * 0.377) % 0.9
xyz = (srgb ** 2.2) @ M.T
space = CIECAM02Space(XYZ100_w="D65", Y_b=20, L_A=64 / np.pi / 5)
r = space.XYZ100_to_CIECAM02(xyz)
for name, fn in [("CIECAM02_to_XYZ100", lambda: space.CIECAM02_to_XYZ100(J=r.J, C=r.C, h=r.h)),
                 ("CAM02-UCS->sRGB1", lambda: cspace_convert(cspace_convert(srgb, "sRGB1", "CAM02-UCS"), "CAM02-UCS", "sRGB1"))]:
    try:
        out = fn()
        print(f"PROBE {name}: ok sum={float(np.sum(out)):.10g}")
    except Exception as e:
        print(f"PROBE {name}: {type(e).__name__}: {e}")
        traceback.print_exc(file=sys.stdout)
