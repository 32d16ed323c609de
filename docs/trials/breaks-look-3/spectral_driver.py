"""Driver for spectral (spectralpython/spectral, "SPy"): hyperspectral image
analysis on a deterministic 24 x 24 pixel, 20-band cube synthesised here as a
linear mixture of three smooth endmember spectra with spatially varying
abundances and a small deterministic (non-random) texture term. Covers
statistics, PCA, MNF, target/anomaly detectors, unmixing and angle mapping,
clustering, a Gaussian classifier, continuum removal, band resampling and
SMACC endmember extraction. Each call prints one `CALL name: ok <checksum>`
line, or `CALL name: <Exception>: <message>` followed by its traceback
(indented, on stdout). The checksum is shape:sum/sum(abs) (10 significant
digits) of every returned array, so host and oracle runs can be compared line
by line."""
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

spy = import_or_stop("spectral", lambda: __import__("spectral"))
import contextlib  # noqa: E402
import io  # noqa: E402
import logging  # noqa: E402
from spectral.algorithms import continuum, resampling  # noqa: E402

spy.settings.show_progress = False
logging.getLogger("spectral").setLevel(logging.WARNING)  # kmeans logs each iteration
print(f"INFO numpy module is {np.__name__}", flush=True)

# --- synthetic cube: 3 endmembers x spatial abundances + texture -------------
R, C, B = 24, 24, 20
wl = np.linspace(450.0, 2400.0, B)                     # band centres, nm
x = (wl - 450.0) / 1950.0
E = np.stack([
    0.08 + 0.45 / (1.0 + np.exp(-(wl - 720.0) / 25.0)) - 0.15 * x,   # vegetation-like red edge
    0.20 + 0.25 * x - 0.08 * np.exp(-((wl - 1400.0) / 60.0) ** 2),   # soil-like, water dip
    0.55 - 0.30 * x + 0.05 * np.cos(6.0 * x),                         # bright mineral-like
])
ii = np.arange(R, dtype=float)[:, None] / (R - 1)
jj = np.arange(C, dtype=float)[None, :] / (C - 1)
a0 = 0.2 + 0.6 * ii * (1.0 - jj)
a1 = 0.1 + 0.5 * jj + 0.0 * ii
a2 = 0.1 + 0.3 * (1.0 - ii) * (1.0 - jj)
A = np.stack([a0, a1, a2], axis=-1)
A = A / A.sum(axis=-1, keepdims=True)                  # (R, C, 3), sums to 1
kk = np.arange(B, dtype=float)[None, None, :]
# each band gets its own spatial pattern, so the band covariance has full rank
texture = 0.004 * np.sin(1.3 * (kk + 1.0) * ii[..., None] * 23 + 0.7 * (kk + 2.0) * jj[..., None] * 23 + kk)
img = A @ E + texture                                  # (R, C, B)
img[5, 7] = E[2] * 1.3 + 0.05                          # one anomalous pixel
labels = (a0 > a1).astype(int) + 1                     # two training classes, ids 1 and 2
spectra = img.reshape(-1, B)

stats = call("calc_stats", lambda: spy.calc_stats(img))
if stats is not None:
    print(f"INFO stats.mean ok {_summ(stats.mean)}", flush=True)
pc = call("principal_components", lambda: (lambda p: (p.eigenvalues, p.reduce(num=3).transform(img)))(spy.principal_components(img)))
call("rx", lambda: spy.rx(img))
call("matched_filter", lambda: spy.matched_filter(img, E[0]))
call("ace", lambda: spy.ace(img, E[2]))
call("spectral_angles", lambda: spy.spectral_angles(img, E))
call("msam", lambda: spy.msam(img, E))
call("unmix", lambda: spy.unmix(img, E))
call("ndvi", lambda: spy.ndvi(img, 4, 7))
call("mnf(noise_from_diffs)", lambda: spy.mnf(spy.calc_stats(img), spy.noise_from_diffs(img)).reduce(img, num=3))
call("kmeans", lambda: spy.kmeans(img, nclusters=3, max_iterations=10))
call("GaussianClassifier.classify_image", lambda: spy.GaussianClassifier(spy.create_training_classes(img, labels)).classify_image(img))
call("continuum.remove_continuum", lambda: continuum.remove_continuum(spectra[:50], wl))
call("BandResampler", lambda: resampling.BandResampler(wl, np.linspace(500.0, 2300.0, 10))(spectra[3]))
def _quiet(fn):  # smacc prints its progress to stdout without newlines
    with contextlib.redirect_stdout(io.StringIO()):
        return fn()


call("smacc", lambda: _quiet(lambda: spy.smacc(spectra, min_endmembers=3)))
