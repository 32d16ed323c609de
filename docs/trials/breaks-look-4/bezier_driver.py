"""Driver for bezier (dhermes/bezier, pure-Python path: the optional compiled
`_speedup` is not built, so every call runs the package's NumPy code in
bezier/hazmat/): Bezier curves and triangles for computer-aided geometric
design. Covers curve evaluation, arc length, hodograph, subdivision, degree
elevation and reduction, specialisation, point location, curve-curve
intersection (geometric and algebraic strategies), self-intersection, triangle
evaluation, area, subdivision, validity (Jacobian sign), point location,
triangle-triangle intersection (curved polygons), and three hazmat helpers
(Bernstein polynomial roots, curvature, 2x2 solve). Inputs are fixed node
arrays. Each call prints one `CALL name: ok <checksum>` line, or `CALL name:
<Exception>: <message>` followed by its traceback (indented, on stdout). The
checksum is shape:sum/sum(abs) (10 significant digits) of every returned array;
intersection results are checksummed by sums, which do not depend on the order
the points are found in."""
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

bezier = import_or_stop("bezier", lambda: __import__("bezier"))
from bezier.hazmat import algebraic_intersection, curve_helpers, helpers  # noqa: E402
from bezier.hazmat.intersection_helpers import IntersectionStrategy  # noqa: E402

print(f"INFO numpy module is {np.__name__}; compiled speedup: {bezier._HAS_SPEEDUP}", flush=True)

C1 = lambda: bezier.Curve(np.asfortranarray([[0.0, 0.375, 0.75], [0.0, 0.75, 0.375]]), degree=2)
C2 = lambda: bezier.Curve(np.asfortranarray([[0.5, 0.5], [0.0, 1.0]]), degree=1)
C3 = lambda: bezier.Curve(np.asfortranarray([[0.0, 0.5, 1.0, 1.25], [0.0, 1.0, -0.25, 0.5]]), degree=3)
LOOP = lambda: bezier.Curve(np.asfortranarray([[0.0, -1.0, 1.0, -0.75], [2.0, 0.0, 1.0, 1.625]]), degree=3)
T1 = lambda: bezier.Triangle(np.asfortranarray([[0.0, 0.5, 1.0, 0.125, 0.375, 0.25], [0.0, 0.0, 0.25, 0.5, 0.375, 1.0]]), degree=2)
T2 = lambda: bezier.Triangle(np.asfortranarray([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), degree=1)
T3 = lambda: bezier.Triangle(np.asfortranarray([[0.25, 1.25, 0.25], [0.125, 0.125, 1.125]]), degree=1)
# objects are built inside each call, so a failing constructor fails that call only
s_vals = np.linspace(0.0, 1.0, 9)

call("Curve.evaluate_multi", lambda: C3().evaluate_multi(s_vals))
call("Curve.length", lambda: C3().length)
call("Curve.evaluate_hodograph", lambda: C3().evaluate_hodograph(0.3))
call("Curve.subdivide", lambda: tuple(c.nodes for c in C3().subdivide()))
call("Curve.elevate.reduce_", lambda: (C3().elevate().nodes, C3().elevate().reduce_().nodes))
call("Curve.specialize", lambda: C3().specialize(0.25, 0.75).nodes)
call("Curve.locate", lambda: (lambda c: c.locate(c.evaluate(0.4)))(C3()))
call("Curve.intersect (geometric)", lambda: C1().intersect(C2()))
call("Curve.intersect (algebraic)", lambda: C1().intersect(C2(), strategy=IntersectionStrategy.ALGEBRAIC))
call("Curve.self_intersections", lambda: LOOP().self_intersections())
call("Triangle.evaluate_cartesian_multi", lambda: T1().evaluate_cartesian_multi(np.asfortranarray([[0.0, 0.0], [0.25, 0.5], [0.5, 0.125], [0.2, 0.7]])))
call("Triangle.area", lambda: T1().area)
call("Triangle.subdivide", lambda: tuple(t.nodes for t in T1().subdivide()))
call("Triangle.is_valid", lambda: T1().is_valid)
call("Triangle.locate", lambda: (lambda t: t.locate(t.evaluate_cartesian(0.25, 0.5)))(T1()))
call("Triangle.intersect -> CurvedPolygon.area", lambda: tuple(p.area for p in T2().intersect(T3())))
call("hazmat bezier_roots", lambda: np.sort(algebraic_intersection.bezier_roots(np.asfortranarray([2.0, -3.0, 1.5, 0.25]))))
call("hazmat get_curvature", lambda: (lambda c: curve_helpers.get_curvature(c.nodes, c.evaluate_hodograph(0.3), 0.3))(C3()))
call("hazmat solve2x2", lambda: helpers.solve2x2(np.asfortranarray([[1.0, 2.0], [3.0, 4.5]]), np.array([1.0, -2.0])))
