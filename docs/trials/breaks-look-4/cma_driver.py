"""Driver for cma (CMA-ES/pycma): the covariance matrix adaptation evolution
strategy for derivative-free numerical optimisation. Covers the test-function
suites (cma.ff, the BBOB benchmarks, whose rotations come from the package's
own deterministic generator), recombination weights, box-constraint
transformations, the Gaussian samplers (full and diagonal covariance, updated
with fixed vectors), the linear-quadratic surrogate model, math utilities
(Hessian, eig, correlation, moving average, normal quantiles, Kendall tau), the
genotype-phenotype map, and four complete optimisation runs (fmin2 on Rosenbrock,
an ask-and-tell loop on an ellipsoid, fmin_con2 with a constraint, and the
surrogate-assisted fmin_lq_surr2). Each call prints one `CALL name: ok
<checksum>` line, or `CALL name: <Exception>: <message>` followed by its
traceback (indented, on stdout). The checksum is shape:sum/sum(abs) (10
significant digits) of every returned array.

The optimisation runs draw from np.random (seeded through the `seed` option).
cuPyNumeric's generator gives a different stream from NumPy's for the same seed,
so for those four calls the driver prints only the outcome, which does not
depend on the stream when the run converges: the best point rounded to 4
decimals and whether the target f-value was reached. Every other call is
deterministic and is checksummed in full."""
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

cma = import_or_stop("cma", lambda: __import__("cma"))
import warnings  # noqa: E402
from cma import bbobbenchmarks as bn  # noqa: E402
from cma import fitness_models, recombination_weights, sampler, transformations  # noqa: E402
from cma.boundary_handler import BoundTransform  # noqa: E402
from cma.utilities import math as cmath  # noqa: E402

warnings.simplefilter("ignore")
print(f"INFO numpy module is {np.__name__}", flush=True)

x5 = np.array([0.3, -0.7, 1.1, 0.05, -0.4])
X = np.array([[0.1 * i - 0.03 * j * j + 0.01 * i * j for j in range(5)] for i in range(12)])
OPTS = {"seed": 3, "verbose": -9, "tolfun": 1e-12, "tolx": 1e-11}


def outcome(xbest, fbest, target):
    """RNG-independent summary of an optimisation run"""
    return (np.round(np.asarray(xbest, dtype=float), 4), float(fbest) < target)


def gauss_full():
    s = sampler.GaussFullSampler(5)
    w = np.array([0.5, 0.3, 0.2])
    for k in range(3):
        s.update(X[3 * k:3 * k + 3] * (1.0 + 0.5 * k), w)
    return s.covariance_matrix, np.sort(s.eigenspectrum), s.transform(x5), s.transform_inverse(x5)


def gauss_diag():
    s = sampler.GaussDiagonalSampler(5)
    s.update(X[:4], np.array([0.4, 0.3, 0.2, 0.1]))
    return s.variances, s.transform(x5), s.norm(x5)


def lq_model():
    m = fitness_models.LQModel()
    for x in X:
        m.add_data_row(x, float(np.sum((x - 0.2) ** 2 * np.arange(1, 6)) + 0.5 * x[0] * x[1]))
    return m.coefficients, m.xopt, m.eval(x5), m.eigenvalues


def ask_tell():
    es = cma.CMAEvolutionStrategy(5 * [0.5], 0.3, dict(OPTS, ftarget=1e-10))
    while not es.stop():
        xs = es.ask()
        es.tell(xs, [cma.ff.elli(x) for x in xs])
    return outcome(es.result.xbest, es.result.fbest, 1e-9)


call("ff.rosen/elli/sphere/cigar/tablet", lambda: np.array([cma.ff.rosen(x5), cma.ff.elli(x5), cma.ff.sphere(x5), cma.ff.cigar(x5), cma.ff.tablet(x5)]))
call("bbob F3,F8,F10,F15 (instance 13)", lambda: np.array([bn.F3(13)([0, 1, 2]), bn.F8(13)(x5), bn.F10(13)(x5), bn.F15(13)(x5)]))
def rweights():
    w = recombination_weights.RecombinationWeights(12)
    w.finalize_negative_weights(5, 0.05, 0.1)
    return np.array(w), np.array([w.mu, w.mueff, w.mueffminus]), w.positive_weights


call("RecombinationWeights(12).finalize_negative_weights", rweights)
call("BoxConstraintsLinQuadTransformation", lambda: (lambda t: (t(np.array([-1.5, 0.0, 0.5, 2.5, 3.2])), t.inverse(t(np.array([-1.5, 0.0, 0.5, 2.5, 3.2])))))(transformations.BoxConstraintsLinQuadTransformation([[-1.0, 2.0]])))
call("BoundTransform.repair/transform", lambda: (lambda b: (b.repair(np.array([-0.1, 0.0, 1.0, 1.2])), b.transform(np.array([-1.0, 0.0, 1.0, 2.0]))))(BoundTransform([0, None])))
call("GenoPheno(scaling, fixed)", lambda: (lambda g: (g.pheno(np.array([1.0, 2.0, 3.0, 4.0])), g.geno(np.array([2.0, 5.0, 6.0, 12.0, 20.0]))))(transformations.GenoPheno(5, scaling=[2.0, 1.0, 1.0, 3.0, 5.0], fixed_values={1: 5.0})))
call("GaussFullSampler.update", gauss_full)
call("GaussDiagonalSampler.update", gauss_diag)
call("LQModel", lq_model)
call("math.Hessian(elli)", lambda: cmath.Hessian(lambda x: cma.ff.elli(x, cond=100.0), x5))
call("math.eig/to_correlation_matrix", lambda: (lambda C: (np.sort(cmath.eig(C)[0]), cmath.to_correlation_matrix(C)))(X.T @ X + np.eye(5)))
call("math.moving_average/normal_ppf/geometric_sd", lambda: (cmath.moving_average(np.arange(20.0) ** 1.5, 5), np.array([cmath.normal_ppf(p) for p in (0.01, 0.05, 0.3, 0.5)]), np.array(cmath.geometric_sd(np.array([1.0, 2.0, 4.0, 8.0])))))
call("fitness_models.kendall_tau", lambda: np.array(fitness_models.kendall_tau(np.arange(10.0), np.array([0.0, 2, 1, 3, 5, 4, 6, 9, 8, 7]))))
call("fmin2(rosen) outcome", lambda: (lambda r: outcome(r[1].result.xbest, r[1].result.fbest, 1e-9))(cma.fmin2(cma.ff.rosen, 4 * [0.1], 0.5, dict(OPTS, ftarget=1e-11))))
call("ask/tell(elli) outcome", ask_tell)
call("fmin_con2 outcome", lambda: (lambda r: outcome(r[0], cma.ff.sphere(r[0]), 10.0))(cma.fmin_con2(cma.ff.sphere, 3 * [1.0], 0.5, constraints=lambda x: [1.0 - x[0]], options=dict(OPTS, maxfevals=3000))))
call("fmin_lq_surr2(sphere) outcome", lambda: (lambda r: outcome(r[0], cma.ff.sphere(r[0]), 1e-9))(cma.fmin_lq_surr2(cma.ff.sphere, 4 * [0.5], 0.3, dict(OPTS, ftarget=1e-11))))
