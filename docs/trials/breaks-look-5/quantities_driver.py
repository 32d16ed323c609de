"""Driver for quantities (python-quantities/python-quantities): physical
quantities with units, as an ndarray subclass. Covers unit conversion
(rescale, simplified), unit arithmetic and powers, the unit-aware reductions
and methods of Quantity (sum, mean, std, cumsum, min/max/argmax, clip, round),
comparisons, item assignment with unit conversion, the unit-aware functions of
quantities.umath (gradient, cross, unwrap, hypot, arctan2, sin, ediff1d),
physical constants, uncertain quantities with error propagation, and the
refusal of incompatible units (the driver returns the exception type there).
Inputs are fixed small arrays. Each call prints one `CALL name: ok <checksum>`
line, or `CALL name: <Exception>: <message>` followed by its traceback
(indented, on stdout). The checksum is shape:sum/sum(abs) (10 significant
digits) of every returned array; a quantity is checksummed by its magnitude
plus its unit string."""
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


pq = import_or_stop("quantities", lambda: __import__("quantities"))
import_or_stop("quantities.{umath,constants}", lambda: [__import__("quantities." + m) for m in ("umath", "constants")])
from quantities import umath  # noqa: E402
from quantities import constants as pc  # noqa: E402

print(f"INFO numpy module is {np.__name__}; quantities {pq.__version__}", flush=True)


def Qs(q):
    """a quantity: (magnitude, unit string), so the unit is compared too;
    anything else (a plain array, a tuple) is returned as it is"""
    if isinstance(q, tuple):
        return tuple(Qs(x) for x in q)
    if not hasattr(q, "dimensionality"):
        return q
    return (np.asarray(q.magnitude), str(q.dimensionality))


def refused(fn):
    """the exception type a call raises, or 'accepted'"""
    try:
        fn()
    except Exception as e:
        return type(e).__name__
    return "accepted"


L = lambda: pq.Quantity([1.0, 2.5, 4.0, 7.5], "m")
V = lambda: np.array([3.0, -1.0, 2.0]) * pq.m / pq.s

call("rescale m->ft", lambda: Qs(L().rescale(pq.ft)))
call("arithmetic m/s -> km/h", lambda: Qs(((L() / (2.0 * pq.s)) ** 2).rescale("km**2/h**2")))
call("rescale J->eV, simplified", lambda: (Qs(pq.Quantity([1e-19, 3e-19], "J").rescale("eV")), Qs((2.0 * pq.N * pq.m / pq.s).simplified)))
call("Quantity.sum/mean/std", lambda: (Qs(L().sum()), Qs(L().mean()), Qs(L().std())))
call("Quantity.cumsum/min/max/argmax", lambda: (Qs(L().cumsum()), Qs(L().min()), Qs(L().max()), int(L().argmax())))
call("Quantity.clip/round", lambda: (Qs(L().clip(1.5 * pq.m, 5.0 * pq.m)), Qs((L() / 3.0).round(2))))
call("comparison with other unit", lambda: L() > 300.0 * pq.cm)
call("setitem with unit conversion", lambda: (lambda q: (q.__setitem__(0, 50.0 * pq.cm), Qs(q))[1])(L()))
call("ufunc sqrt/square", lambda: (Qs(np.sqrt(L() * L())), Qs(np.square(V()))))
call("umath.gradient", lambda: Qs(umath.gradient(pq.Quantity([[1.0, 2.5, 4.0], [2.0, 4.5, 9.0]], "m"), 0.5 * pq.s)))
call("umath.cross", lambda: Qs(umath.cross(V(), np.array([0.0, 1.0, 1.0]) * pq.s)))
call("umath.unwrap/sin/arctan2", lambda: (Qs(umath.unwrap(np.array([0.0, 3.0, 6.5, 9.0]) * pq.rad)), Qs(umath.sin(np.array([0.0, 30.0, 90.0]) * pq.deg)), Qs(umath.arctan2(1.0 * pq.m, np.array([1.0, 2.0]) * pq.m))))
call("umath.hypot/ediff1d", lambda: (Qs(umath.hypot(np.array([3.0, 5.0]) * pq.m, np.array([4.0, 12.0]) * pq.m)), Qs(umath.ediff1d(L()))))
call("constants: photon energy", lambda: Qs((pc.h * pq.c / (np.array([400.0, 500.0, 700.0]) * pq.nm)).rescale("eV")))
call("UncertainQuantity product", lambda: (lambda u: (Qs(u * u), np.asarray((u * u).uncertainty.magnitude), np.asarray(u.relative_uncertainty)))(pq.UncertainQuantity([1.0, 2.0], pq.m, [0.1, 0.2])))
call("UncertainQuantity sum/mean", lambda: (lambda u: (Qs(u.sum()), np.asarray(u.sum().uncertainty.magnitude), Qs(u.mean())))(pq.UncertainQuantity([1.0, 2.0, 4.0], pq.s, [0.1, 0.2, 0.2])))
call("incompatible units refused", lambda: (refused(lambda: L() + 1.0 * pq.s), refused(lambda: L().rescale(pq.kg))))
