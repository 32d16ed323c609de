"""Driver for colorspacious (njsmith/colorspacious): converts small batches
of colours between its public colour spaces. Each call prints `CALL name: ok`
or the exception with its traceback (to stdout); CHECK lines print cheap
rounded sums to compare against a plain-NumPy run."""
import sys
import traceback
import numpy as np

try:
    import colorspacious
    from colorspacious import (cspace_convert, cspace_converter, deltaE,
        CIECAM02Space, CIECAM02Surround, CAM02UCS, machado_et_al_2009_matrix,
        standard_illuminant_XYZ100, as_XYZ100_w)
    print("CALL import colorspacious: ok")
except Exception as e:
    print(f"CALL import colorspacious: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    traceback.print_exc(file=sys.stdout)
    raise SystemExit(0)


def call(name, fn):
    try:
        out = fn()
        print(f"CALL {name}: ok")
        return out
    except Exception as e:
        msg = str(e).splitlines()[0] if str(e) else ""
        print(f"CALL {name}: {type(e).__name__}: {msg}")
        traceback.print_exc(file=sys.stdout)
        return None


def check(name, value):
    print(f"CHECK {name}: {float(value):.10g}")


# deterministic inputs (no RNG, so host and oracle see the same colours)
srgb = 0.05 + (np.arange(48, dtype=float).reshape(16, 3) * 0.377) % 0.9

r = call("cspace_convert(sRGB1->XYZ100)", lambda: cspace_convert(srgb, "sRGB1", "XYZ100"))
if r is not None:
    check("xyz.shape0", r.shape[0])
    check("xyz.sum", np.sum(r))

r = call("cspace_convert(sRGB1->CIELab)", lambda: cspace_convert(srgb, "sRGB1", "CIELab"))
if r is not None:
    check("lab.sum", np.sum(r))
    check("lab.L_max", np.max(r[..., 0]))

r = call("cspace_convert(sRGB1->JCh)", lambda: cspace_convert(srgb, "sRGB1", "JCh"))
if r is not None:
    check("jch.sum", np.sum(r))

r = call("cspace_convert(sRGB1->CAM02-UCS)", lambda: cspace_convert(srgb, "sRGB1", "CAM02-UCS"))
if r is not None:
    check("ucs.sum", np.sum(r))
    back = call("cspace_convert(CAM02-UCS->sRGB1)", lambda: cspace_convert(r, "CAM02-UCS", "sRGB1"))
    if back is not None:
        check("ucs.roundtrip_maxerr_lt_1e-6", np.max(np.abs(back - srgb)) < 1e-6)

r = call("cspace_converter(sRGB1->xyY1)", lambda: cspace_converter("sRGB1", "xyY1")(srgb))
if r is not None:
    check("xyy.sum", np.sum(r))

cvd = {"name": "sRGB1+CVD", "cvd_type": "deuteranomaly", "severity": 50}
r = call("cspace_convert(CVD deuteranomaly)", lambda: cspace_convert(srgb, cvd, "sRGB1"))
if r is not None:
    check("cvd.sum", np.sum(r))

r = call("machado_et_al_2009_matrix", lambda: machado_et_al_2009_matrix("protanomaly", 35))
if r is not None:
    check("machado.sum", np.sum(r))

r = call("deltaE(CAM02-UCS)", lambda: deltaE(srgb[:8], srgb[8:]))
if r is not None:
    check("deltaE.sum", np.sum(r))

r = call("deltaE(CIE76 CIELab)", lambda: deltaE(srgb[:8], srgb[8:], uniform_space="CIELab"))
if r is not None:
    check("deltaE76.sum", np.sum(r))

# XYZ100 input for the CIECAM02 calls, from the published sRGB matrix (host-side arithmetic only)
M = np.array([[41.24, 35.76, 18.05], [21.26, 71.52, 7.22], [1.93, 11.92, 95.05]])
lin = srgb ** 2.2
xyz = lin @ M.T
space = CIECAM02Space(XYZ100_w="D65", Y_b=20, L_A=64 / np.pi / 5)
r = call("CIECAM02Space.XYZ100_to_CIECAM02", lambda: space.XYZ100_to_CIECAM02(xyz))
if r is not None:
    check("ciecam.J_sum", np.sum(r.J))
    check("ciecam.h_sum", np.sum(r.h))
    check("ciecam.H_sum", np.sum(r.H))
    r2 = call("CIECAM02Space.CIECAM02_to_XYZ100", lambda: space.CIECAM02_to_XYZ100(J=r.J, C=r.C, h=r.h))
    if r2 is not None:
        check("ciecam.inv_sum", np.sum(r2))
