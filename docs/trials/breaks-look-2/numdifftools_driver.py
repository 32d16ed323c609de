"""Driver for numdifftools (pbrod/numdifftools): numerical derivatives,
gradients, Jacobians, Hessians, limits, extrapolation and Fornberg weights on
small analytic functions. Each call prints `CALL name: ok` or the exception
with its traceback (to stdout); CHECK lines print rounded results to compare
against a plain-NumPy run."""
import sys
import traceback
import numpy as np

try:
    import numdifftools as nd
    import numdifftools.fornberg as ndf
    from numdifftools.limits import Limit
    print("CALL import numdifftools: ok")
except Exception as e:
    print(f"CALL import numdifftools: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
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
    # rounded to 6 significant digits: finite-difference results differ in
    # the last bits between step sequences, not in the leading digits
    print(f"CHECK {name}: {float(value):.6g}")


def rosen(x):
    return (1.0 - x[0]) ** 2 + 105.0 * (x[1] - x[0] ** 2) ** 2


r = call("Derivative(exp)", lambda: nd.Derivative(np.exp)(np.array([1.0, 2.0])))
if r is not None:
    check("deriv.sum", np.sum(r))

r = call("Derivative(n=2)", lambda: nd.Derivative(lambda x: x ** 3 + x ** 2, n=2)(1.0))
if r is not None:
    check("deriv2", r)

r = call("Derivative(method=complex)", lambda: nd.Derivative(np.sin, method="complex")(0.5))
if r is not None:
    check("deriv_cplx", r)

r = call("Gradient(rosen)", lambda: nd.Gradient(rosen)(np.array([1.5, 2.0])))
if r is not None:
    check("grad.sum", np.sum(r))

xdata = np.arange(0.0, 1.0, 0.1)
ydata = 1 + 2 * np.exp(0.75 * xdata)
r = call("Jacobian(residuals)", lambda: nd.Jacobian(lambda c: (c[0] + c[1] * np.exp(c[2] * xdata) - ydata) ** 2)(np.array([1.0, 2.1, 0.7])))
if r is not None:
    check("jac.shape0", r.shape[0])
    check("jac.sum", np.sum(r))

r = call("Hessian(rosen)", lambda: nd.Hessian(rosen)(np.array([1.0, 1.0])))
if r is not None:
    check("hess.sum", np.sum(r))
    check("hess.00", r[0, 0])

r = call("directionaldiff(rosen)", lambda: nd.directionaldiff(rosen, np.array([1.5, 1.0]), np.array([1.0, 2.0])))
if r is not None:
    check("ddiff", r)

r = call("dea3", lambda: nd.dea3(np.array([3.0, 3.1]), np.array([3.14, 3.141]), np.array([3.1415, 3.14159])))
if r is not None:
    check("dea3.sum", np.sum(r[0]))

r = call("fornberg.fd_weights", lambda: ndf.fd_weights(np.linspace(-1, 1, 5) * 1e-3, x0=0, n=1))
if r is not None:
    check("fdw.sum_abs", np.sum(np.abs(r)))

xs = np.linspace(-1, 1, 25)
r = call("fornberg.fd_derivative", lambda: ndf.fd_derivative(np.exp(xs), xs, n=1))
if r is not None:
    check("fdd.sum", np.sum(r))

r = call("fornberg.taylor", lambda: ndf.taylor(lambda x: 1.0 / (1 - x), z0=0, n=6))
if r is not None:
    check("taylor.sum", np.sum(np.real(r)))

r = call("Limit(sin(x)/x at 0)", lambda: Limit(lambda x: np.sin(x) / x)(0))
if r is not None:
    check("limit.sum", np.sum(r))
