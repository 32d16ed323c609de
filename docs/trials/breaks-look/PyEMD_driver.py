"""Driver for PyEMD (laszukdawid/PyEMD): calls its public functions on small
synthetic inputs. Each call prints `CALL name: ok` or the exception; CHECK
lines print cheap scalar summaries to compare against a plain-NumPy run."""
import sys
import traceback
import numpy as np

try:
    import PyEMD
    from PyEMD import EMD, EEMD, CEEMDAN
    from PyEMD import checks, compact, splines, utils
    print("CALL import PyEMD: ok")
except Exception as e:
    print(f"CALL import PyEMD: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
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


T = np.linspace(0, 1, 200)
S = np.sin(2 * np.pi * 5 * T) + 0.5 * np.sin(2 * np.pi * 23 * T) + T

imfs = call("EMD.emd", lambda: EMD().emd(S, T))
if imfs is not None:
    check("EMD.n_imfs", imfs.shape[0])
    check("EMD.sum_abs", np.sum(np.abs(imfs)))
    check("EMD.recon_err", np.max(np.abs(np.sum(imfs, axis=0) - S)))

imfs_a = call("EMD.emd(akima)", lambda: EMD(spline_kind="akima").emd(S, T))
if imfs_a is not None:
    check("EMD_akima.sum_abs", np.sum(np.abs(imfs_a)))

# float32 signal with a float64 time axis and parabolic extrema: EMD unifies the dtypes first
imfs32 = call("EMD.emd(float32 signal, parabol)", lambda: EMD(extrema_detection="parabol").emd(S.astype(np.float32), T))
if imfs32 is not None:
    check("EMD32.n_imfs", imfs32.shape[0])

r = call("EEMD.eemd", lambda: EEMD(trials=4, parallel=False, noise_seed=1).eemd(S, T, max_imf=3))
if r is not None:
    check("EEMD.shape0", r.shape[0])

r = call("CEEMDAN.ceemdan", lambda: CEEMDAN(trials=4, parallel=False).ceemdan(S, T, max_imf=2))
if r is not None:
    check("CEEMDAN.shape0", r.shape[0])

# three synthetic oscillatory modes (independent of EMD, so the call runs either way)
wn_imfs = np.vstack([
    np.sin(2 * np.pi * 23 * T), 0.8 * np.sin(2 * np.pi * 5 * T), T - 0.5])
r = call("checks.whitenoise_check", lambda: checks.whitenoise_check(wn_imfs, test_name="apriori"))
print("CHECK whitenoise.result:", r)

r = call("compact.pade6", lambda: compact.pade6(S, T[1] - T[0]))
if r is not None:
    check("pade6.sum_abs", np.sum(np.abs(r)))

r = call("compact.filt6", lambda: compact.filt6(S, 0.4))
if r is not None:
    check("filt6.sum_abs", np.sum(np.abs(r)))

r = call("splines.cubic_spline_3pts", lambda: splines.cubic_spline_3pts(
    np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0, 0.0]), T))
if r is not None:
    check("spline3.sum", np.sum(r[1]))

r = call("utils.get_timeline", lambda: utils.get_timeline(300, np.dtype(np.float16)))
if r is not None:
    check("timeline.last", r[-1])
