"""Driver for pymap3d (geospace-code/pymap3d): geodetic <-> ECEF/ENU/AER/NED
transforms, Vincenty and rhumb-line geodesics, auxiliary latitudes, radii of
curvature and line-of-sight intersection, on a small deterministic set of
points. Each call prints one `CALL name: ok <checksum>` line, or
`CALL name: <Exception>: <message>` followed by its traceback (indented, on
stdout). The checksum is shape:sum/sum(abs) (10 significant digits) of every returned
array, so host and oracle runs can be compared line by line."""
import faulthandler
import sys
import traceback
import numpy as np

# a runtime abort (SIGABRT) is not a Python exception: print the Python stack to stdout
faulthandler.enable(file=sys.stdout)


def _summ(v):
    """short checksum of one result: shape:sum/sum(abs), 10 significant digits;
    a sum below 1e-9 of sum(abs) prints as 0, complex arrays give real+jimag parts"""
    if isinstance(v, dict):
        return "{" + ",".join(f"{k}={_summ(v[k])}" for k in sorted(v)) + "}"
    if isinstance(v, tuple):
        return "(" + ",".join(_summ(x) for x in v) + ")"
    if v is None:
        return "None"
    if isinstance(v, str):
        return repr(v)
    if not isinstance(v, (list, bool, int, float, complex)) and not hasattr(v, "dtype"):
        return type(v).__name__  # a result object: its arrays are checked by the driver
    a = np.asarray(v)
    if a.dtype.kind in "biufc":
        parts = [a.real, a.imag] if a.dtype.kind == "c" else [a]
        out = []
        for p in parts:
            f = p.astype(float)
            tot, mag = float(np.sum(f)), float(np.sum(np.abs(f)))
            if abs(tot) <= 1e-9 * mag:  # a sum at round-off level carries no information
                tot = 0.0
            if mag < 1e-12:
                tot = mag = 0.0
            out.append(f"{tot:.10g}/{mag:.10g}")
        return f"{tuple(a.shape)}:" + ("+j".join(out))
    return f"{type(v).__name__}"


def call(name, fn):
    """run one library call; print one CALL line, then (on failure) the traceback, indented"""
    try:
        out = fn()
    except Exception as e:
        msg = str(e).splitlines()[0] if str(e) else ""
        print(f"CALL {name}: {type(e).__name__}: {msg}", flush=True)
        for line in traceback.format_exc().rstrip().splitlines():
            print("    | " + line, flush=True)
        return None
    try:
        cks = _summ(out)
    except Exception as e:  # the checksum itself failed: say so, keep the call ok
        cks = f"checksum failed: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    print(f"CALL {name}: ok  {cks}", flush=True)
    return out


def import_or_stop(label, fn):
    try:
        mod = fn()
        print(f"CALL import {label}: ok", flush=True)
        return mod
    except Exception as e:
        msg = str(e).splitlines()[0] if str(e) else ""
        print(f"CALL import {label}: {type(e).__name__}: {msg}", flush=True)
        for line in traceback.format_exc().rstrip().splitlines():
            print("    | " + line, flush=True)
        raise SystemExit(0)

pm = import_or_stop("pymap3d", lambda: __import__("pymap3d"))
import datetime  # noqa: E402
import pymap3d.vincenty as vin  # noqa: E402
import pymap3d.lox as lox  # noqa: E402
import pymap3d.latitude as latm  # noqa: E402
import pymap3d.los as los  # noqa: E402
import pymap3d.haversine as hv  # noqa: E402
import pymap3d.mathfun as mf  # noqa: E402

# which module the package's math names came from (numpy/cupynumeric, or the math fallback)
print(f"INFO numpy module is {np.__name__}; pymap3d.mathfun.sin is {getattr(mf.sin, '__module__', None) or type(mf.sin).__name__}")

# eight observation points along a track (deterministic, no RNG)
lat = np.linspace(-60.0, 75.0, 8)
lon = np.linspace(-170.0, 160.0, 8)
alt = np.linspace(0.0, 3500.0, 8)
lat0, lon0, h0 = 42.0, -82.0, 200.0  # local-frame origin (scalar)
t0 = datetime.datetime(2024, 3, 20, 12, 0, 0)

ecef = call("geodetic2ecef", lambda: pm.geodetic2ecef(lat, lon, alt))
if ecef is not None:
    call("ecef2geodetic", lambda: pm.ecef2geodetic(*ecef))
enu = call("geodetic2enu", lambda: pm.geodetic2enu(lat, lon, alt, lat0, lon0, h0))
if enu is not None:
    call("enu2geodetic", lambda: pm.enu2geodetic(*enu, lat0, lon0, h0))
aer = call("geodetic2aer", lambda: pm.geodetic2aer(lat, lon, alt, lat0, lon0, h0))
if aer is not None:
    call("aer2geodetic", lambda: pm.aer2geodetic(*aer, lat0, lon0, h0))
if ecef is not None:
    # no astropy in either environment, so this is the package's own (numpy) ECI path
    call("eci2ecef", lambda: pm.eci2ecef(*ecef, t0))
call("vincenty.vdist", lambda: vin.vdist(lat[:-1], lon[:-1], lat[1:], lon[1:]))
call("vincenty.vreckon", lambda: vin.vreckon(lat, lon, np.full(8, 250e3), np.linspace(0.0, 315.0, 8)))
call("lox.loxodrome_inverse", lambda: lox.loxodrome_inverse(lat[:-1], lon[:-1], lat[1:], lon[1:]))
call("lox.meanm", lambda: lox.meanm(lat, lon))
call("latitude.geodetic2isometric", lambda: latm.geodetic2isometric(lat))
call("los.lookAtSpheroid", lambda: los.lookAtSpheroid(lat0, lon0, 10e3, np.linspace(0.0, 350.0, 8), np.linspace(5.0, 40.0, 8)))
call("haversine.anglesep", lambda: hv.anglesep(lon[:-1], lat[:-1], lon[1:], lat[1:]))
# last, because under cuPyNumeric this call aborts the whole process (see README)
call("vincenty.track2", lambda: vin.track2(40.0, -75.0, 51.5, -0.1, npts=16))
