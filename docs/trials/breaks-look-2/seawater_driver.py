"""Driver for seawater (pyoceans/python-seawater): EOS-80 seawater properties
on a small CTD-like profile. Each call prints `CALL name: ok` or the exception
with its traceback (to stdout); CHECK lines print cheap rounded sums to compare
against a plain-NumPy run."""
import sys
import traceback
import warnings
import numpy as np

warnings.simplefilter("ignore")

try:
    import seawater as sw
    print("CALL import seawater: ok")
except Exception as e:
    print(f"CALL import seawater: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
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


# A 12-level profile (deterministic): salinity, temperature, pressure.
nz = 12
p = np.linspace(0.0, 1100.0, nz)
s = 34.0 + 1.2 * np.tanh(p / 300.0)
t = 4.0 + 18.0 * np.exp(-p / 250.0)
lat = np.array([30.0, 32.0, 35.0])
lon = np.array([-60.0, -58.5, -57.0])

r = call("dens", lambda: sw.dens(s, t, p))
if r is not None:
    check("dens.sum", np.sum(r))

r = call("pden", lambda: sw.pden(s, t, p, pr=0))
if r is not None:
    check("pden.sum", np.sum(r))

r = call("ptmp", lambda: sw.ptmp(s, t, p))
if r is not None:
    check("ptmp.sum", np.sum(r))
# temp runs even if ptmp failed (then on a stand-in potential temperature)
pt_in = r if r is not None else t - 1e-4 * p
r2 = call("temp (inverse of ptmp)", lambda: sw.temp(s, pt_in, p))
if r2 is not None:
    check("temp.sum", np.sum(r2))
    if r is not None:
        check("temp.roundtrip_maxerr_lt_1e-6", np.max(np.abs(r2 - t)) < 1e-6)

r = call("svel", lambda: sw.svel(s, t, p))
if r is not None:
    check("svel.sum", np.sum(r))

r = call("cndr -> salt", lambda: sw.salt(sw.cndr(s, t, p), t, p))
if r is not None:
    check("salt.roundtrip_maxerr_lt_1e-6", np.max(np.abs(r - s)) < 1e-6)
    check("salt.sum", np.sum(r))

r = call("alpha", lambda: sw.alpha(s, t, p))
if r is not None:
    check("alpha.sum_x1e4", np.sum(r) * 1e4)

r = call("satO2", lambda: sw.satO2(s, t))
if r is not None:
    check("satO2.sum", np.sum(r))

r = call("dist", lambda: sw.dist(lat, lon, units="km"))
if r is not None:
    check("dist.sum", np.sum(r[0]))
    check("dist.angle_sum", np.sum(r[1]))

S2 = np.column_stack([s, s + 0.1, s - 0.1])
T2 = np.column_stack([t, t - 0.5, t + 0.5])
P2 = p[:, None]
r = call("bfrq", lambda: sw.bfrq(S2, T2, P2, lat))
if r is not None:
    n2, q, pave = r
    check("bfrq.n2_sum_x1e4", np.sum(n2) * 1e4)
    check("bfrq.shape0", n2.shape[0])

r = call("gpan", lambda: sw.gpan(S2, T2, P2))
if r is not None:
    check("gpan.sum", np.sum(r))
# gvel runs even if gpan failed (then on a stand-in anomaly profile)
ga_in = r if r is not None else np.outer(np.linspace(0.0, 20.0, nz), np.array([1.0, 1.02, 0.97]))
r2 = call("gvel", lambda: sw.gvel(ga_in, lat, lon))
if r2 is not None:
    check("gvel.sum", np.sum(r2))
