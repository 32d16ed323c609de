"""Driver for ahrs (Mayitzin/ahrs): attitude and heading estimation. Quaternion
and DCM classes, orientation helpers, and the library's attitude filters run on
a deterministic 2-second, 100 Hz IMU/MARG record synthesised here (constant
body rate; accelerometer and magnetometer are the reference vectors rotated
into the body frame; no noise, no RNG). Each call prints one
`CALL name: ok <checksum>` line, or `CALL name: <Exception>: <message>`
followed by its traceback (indented, on stdout). The checksum is
shape:sum/sum(abs) (10 significant digits) of every returned array, so host
and oracle runs can be compared line by line."""
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

ahrs = import_or_stop("ahrs", lambda: __import__("ahrs"))
import datetime  # noqa: E402
from ahrs import Quaternion, QuaternionArray, DCM  # noqa: E402
from ahrs.filters import Madgwick, Mahony, EKF, Complementary, Tilt, QUEST, FAMC, AngularRate  # noqa: E402
from ahrs.common.orientation import slerp, q2R  # noqa: E402
from ahrs.utils import metrics  # noqa: E402
from ahrs.utils.wmm import WMM  # noqa: E402

print(f"INFO numpy module is {np.__name__}", flush=True)

# --- synthetic MARG record: constant body rate w, R(t) = exp(t [w]x) ---------
N, fs = 200, 100.0
t = np.arange(N) / fs
w = np.array([0.3, -0.2, 0.5])                       # rad/s
th = np.linalg.norm(w) * t                           # rotation angle at each t
k = w / np.linalg.norm(w)
K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
s, c = np.sin(th)[:, None, None], np.cos(th)[:, None, None]
R = np.eye(3)[None] + s * K[None] + (1.0 - c) * (K @ K)[None]   # (N, 3, 3) body->earth
g_ref = np.array([0.0, 0.0, 9.81])
m_ref = np.array([21.0, 1.5, 43.0])                  # uT, NED-like field
acc = np.einsum("nji,j->ni", R, g_ref)                # R^T g
mag = np.einsum("nji,j->ni", R, m_ref)                # R^T m
gyr = np.tile(w, (N, 1))
q_true = np.concatenate([np.cos(th / 2)[:, None], np.sin(th / 2)[:, None] * k[None, :]], axis=1)

q1 = call("Quaternion.product", lambda: Quaternion([0.7, 0.1, -0.2, 0.3]).product([0.9, 0.3, 0.1, -0.2]))
call("Quaternion(rpy).to_DCM", lambda: Quaternion(rpy=[0.1, -0.4, 1.2]).to_DCM())
call("QuaternionArray.to_angles", lambda: QuaternionArray(q_true).to_angles())
call("DCM(rpy).to_quaternion", lambda: DCM(rpy=[10.0, -20.0, 30.0]).to_quaternion())
call("orientation.slerp", lambda: slerp(q_true[0], q_true[-1], np.linspace(0.0, 1.0, 11)))
mad = call("filters.Madgwick", lambda: Madgwick(gyr=gyr, acc=acc, mag=mag, frequency=fs).Q)
call("filters.Mahony", lambda: Mahony(gyr=gyr, acc=acc, mag=mag, frequency=fs).Q)
call("filters.EKF", lambda: EKF(gyr=gyr, acc=acc, mag=mag, frequency=fs).Q)
call("filters.Complementary", lambda: Complementary(gyr=gyr, acc=acc, mag=mag, frequency=fs).Q)
call("filters.Tilt", lambda: Tilt(acc=acc, mag=mag).Q)
call("filters.QUEST", lambda: QUEST(acc=acc, mag=mag).Q)
call("filters.FAMC", lambda: FAMC(acc=acc, mag=mag).Q)
ang = call("filters.AngularRate", lambda: AngularRate(gyr=gyr, q0=q_true[0], frequency=fs).Q)
if ang is not None:
    call("metrics.qad(AngularRate, truth)", lambda: metrics.qad(ang, q_true))
call("utils.WMM", lambda: (lambda m: (m.X, m.Y, m.Z, m.F, m.I, m.D))(WMM(date=datetime.date(2022, 6, 1), latitude=48.1, longitude=11.6, height=0.5)))
