"""Driver for SHARPpy's analysis core (sharppy/SHARPpy, the `sharppy.sharptab`
package with the `sharppy.io.qc_tools` and `sharppy.databases` modules it
imports; the Qt GUI is not used): severe-weather analysis of atmospheric
soundings. Covers parcel thermodynamics (potential, equivalent-potential and
wet-bulb temperature, LCL, moist-adiabatic lift, mixing ratio, virtual
temperature), wind vector conversion, building a sounding Profile, vertical
interpolation, stability indices (K index, total totals, precipitable water,
lapse rate), parcel ascent with CAPE/CIN (surface and most-unstable parcels),
mean wind and bulk shear, storm-relative helicity, Bunkers storm motion, the
effective inflow layer, downdraft CAPE, and the composite indices STP and SCP.
The input is one fixed synthetic sounding (21 levels, 1000-100 hPa, built with
plain Python arithmetic). Each call prints one `CALL name: ok <checksum>` line,
or `CALL name: <Exception>: <message>` followed by its traceback (indented, on
stdout). The checksum is shape:sum/sum(abs) (10 significant digits) of every
returned array; a Parcel is checksummed by its main attributes."""
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


sharppy = import_or_stop("sharppy.sharptab", lambda: __import__("sharppy.sharptab.profile"))
from sharppy.sharptab import profile, params, thermo, interp, winds, utils  # noqa: E402

print(f"INFO numpy module is {np.__name__}; sharppy {sharppy.__version__}", flush=True)

import datetime  # noqa: E402

_P = [1000.0, 975.0, 950.0, 925.0, 900.0, 850.0, 800.0, 750.0, 700.0, 650.0, 600.0,
      550.0, 500.0, 450.0, 400.0, 350.0, 300.0, 250.0, 200.0, 150.0, 100.0]
_Z = [44330.8 * (1.0 - (p / 1013.25) ** 0.190263) for p in _P]          # m, standard atmosphere
_T = [max(28.0 - 7.0e-3 * (z - _Z[0]), -57.0) for z in _Z]              # C, lapse to a tropopause
_TD = [t - (4.0 + 0.9 * i + (6.0 if 4 <= i <= 7 else 0.0)) for i, t in enumerate(_T)]  # C
_WS = [10.0 + 2.5 * i for i in range(len(_P))]                          # kt
_WD = [160.0 + 5.5 * i for i in range(len(_P))]                        # deg


def PROF(kind="default"):
    extra = {"date": datetime.datetime(2020, 5, 20, 0), "latitude": 35.0} if kind == "convective" else {}
    return profile.create_profile(profile=kind, **extra, pres=np.array(_P), hght=np.array(_Z), tmpc=np.array(_T),
                                  dwpc=np.array(_TD), wspd=np.array(_WS), wdir=np.array(_WD))


def PCL(p):
    """main attributes of a Parcel"""
    return tuple(float(getattr(p, a)) for a in ("bplus", "bminus", "lclhght", "lfchght", "elhght", "li5", "b3km"))


p3, t3, td3 = np.array([1000.0, 850.0, 700.0]), np.array([28.0, 18.0, 8.0]), np.array([20.0, 10.0, -5.0])

call("thermo.theta/thetae/wetbulb", lambda: (thermo.theta(p3, t3), np.array([thermo.thetae(p, t, td) for p, t, td in zip(_P[:5], _T[:5], _TD[:5])]), thermo.wetbulb(1000.0, 28.0, 20.0)))
call("thermo.lcltemp/drylift", lambda: (thermo.lcltemp(t3, td3), thermo.drylift(1000.0, 28.0, 20.0)))
call("thermo.mixratio/virtemp/relh", lambda: (thermo.mixratio(p3, td3), thermo.virtemp(p3, t3, td3), thermo.relh(p3, t3, td3)))
call("thermo.wetlift/wobf", lambda: (thermo.wetlift(850.0, 18.0, 500.0), thermo.wobf(t3)))
call("utils.vec2comp/comp2vec", lambda: (lambda uv: (uv, utils.comp2vec(*uv)))(utils.vec2comp(np.array(_WD), np.array(_WS))))
call("create_profile(default)", lambda: (lambda pr: (pr.thetae, pr.wetbulb, pr.u, pr.v, pr.sfc, pr.top))(PROF()))
call("interp.temp/hght/pres/components", lambda: (lambda pr: (interp.temp(pr, 775.0), interp.hght(pr, np.array([925.0, 500.0])), interp.pres(pr, interp.to_msl(pr, 3000.0)), interp.components(pr, 600.0)))(PROF()))
call("params.k_index/t_totals/precip_water", lambda: (lambda pr: (params.k_index(pr), params.t_totals(pr), params.precip_water(pr)))(PROF()))
call("params.lapse_rate", lambda: (lambda pr: (params.lapse_rate(pr, 700.0, 500.0, pres=True), params.lapse_rate(pr, 0.0, 3000.0, pres=False)))(PROF()))
call("params.parcelx(surface)", lambda: PCL(params.parcelx(PROF(), flag=1)))
call("params.parcelx(most unstable)", lambda: PCL(params.parcelx(PROF(), flag=3)))
call("winds.mean_wind/wind_shear", lambda: (lambda pr: (winds.mean_wind(pr, pbot=850.0, ptop=250.0), winds.wind_shear(pr, pbot=1000.0, ptop=500.0)))(PROF()))
call("winds.helicity 0-3 km", lambda: winds.helicity(PROF(), 0.0, 3000.0, stu=10.0, stv=5.0))
call("params.bunkers_storm_motion", lambda: params.bunkers_storm_motion(PROF()))
call("params.effective_inflow_layer", lambda: params.effective_inflow_layer(PROF()))
call("params.dcape", lambda: params.dcape(PROF())[0])
call("params.stp_fixed/scp", lambda: (params.stp_fixed(2500.0, 900.0, 220.0, 25.0), params.scp(3000.0, 250.0, 25.0)))
call("create_profile(convective)", lambda: (lambda pr: (PCL(pr.mupcl), PCL(pr.mlpcl), pr.srwind, pr.ebottom, pr.etop, pr.stp_cin, pr.right_scp))(PROF("convective")))
