"""Driver for pycwt (regeirk/pycwt): calls its public functions on small
synthetic inputs. Each call prints `CALL name: ok` or the exception; CHECK
lines print cheap scalar summaries to compare against a plain-NumPy run."""
import sys
import traceback
import numpy as np

try:
    import pycwt
    from pycwt import helpers
    print("CALL import pycwt: ok")
except Exception as e:
    print(f"CALL import pycwt: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
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


N = 128
dt = 0.25
t = np.arange(N) * dt
y1 = np.sin(2 * np.pi * t / 4.0) + 0.5 * np.sin(2 * np.pi * t / 1.3)
y2 = np.cos(2 * np.pi * t / 4.0) + 0.3 * np.sin(2 * np.pi * t / 2.1)
dj = 0.25

r = call("cwt", lambda: pycwt.cwt(y1, dt, dj=dj, s0=2 * dt, J=20, wavelet="morlet"))
if r is not None:
    W, sj, freqs, coi, fft_, fftfreqs = r
    check("cwt.sum_abs_W", np.sum(np.abs(W)))
    check("cwt.sum_sj", np.sum(sj))
    check("cwt.sum_coi", np.sum(coi))

    rec = call("icwt", lambda: pycwt.icwt(W, sj, dt, dj=dj, wavelet="morlet"))
    if rec is not None:
        check("icwt.sum_abs_real", np.sum(np.abs(np.real(rec))))

    sig = call("significance", lambda: pycwt.significance(
        1.0, dt, sj, sigma_test=0, alpha=0.5, significance_level=0.95,
        wavelet="morlet"))
    if sig is not None:
        check("significance.sum_signif", np.sum(sig[0]))

    sig_a = call("significance(array signal)", lambda: pycwt.significance(
        y1, dt, sj, sigma_test=0, alpha=0.5, significance_level=0.95,
        wavelet="morlet"))
    if sig_a is not None:
        check("significance_array.sum_signif", np.sum(sig_a[0]))

r = call("cwt_dog", lambda: pycwt.cwt(y1, dt, dj=dj, s0=2 * dt, J=20,
                                      wavelet=pycwt.DOG(2)))
if r is not None:
    check("cwt_dog.sum_abs_W", np.sum(np.abs(r[0])))

r = call("xwt", lambda: pycwt.xwt(y1, y2, dt, dj=dj, s0=2 * dt, J=20,
                                  wavelet="morlet"))
if r is not None:
    check("xwt.sum_abs_W12", np.sum(np.abs(r[0])))

r = call("wct", lambda: pycwt.wct(y1, y2, dt, dj=dj, s0=2 * dt, J=20,
                                  sig=False, wavelet="morlet"))
if r is not None:
    check("wct.sum_WCT", np.sum(r[0]))

r = call("wct_significance", lambda: pycwt.wct_significance(
    0.5, 0.5, dt, dj, 2 * dt, 20, significance_level=0.95, wavelet=pycwt.Morlet(6),
    mc_count=2, progress=False, cache=False))
if r is not None:
    check("wct_significance.len", len(r))

r = call("helpers.ar1", lambda: helpers.ar1(y1))
if r is not None:
    check("ar1.g", r[0])

r = call("helpers.rednoise", lambda: helpers.rednoise(64, 0.5))
if r is not None:
    check("rednoise.len", len(r))
