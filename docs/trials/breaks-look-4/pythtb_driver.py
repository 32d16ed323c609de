"""Driver for PythTB (pythtb/pythtb, single module `pythtb.py`): tight-binding
models of electrons in crystals. Builds the Haldane model on a honeycomb lattice
(2 orbitals, complex second-neighbour hoppings) and a 1-D Rice-Mele-like chain,
all with fixed parameters, and covers band structures along a k-path and on a
uniform mesh, eigenvectors, finite ribbons and flakes (cut_piece), supercells,
orbital removal, dimensional reduction, position operators and hybrid Wannier
centres, and Berry phases and Berry flux on a wave-function grid (wf_array).
Each call prints one `CALL name: ok <checksum>` line, or `CALL name:
<Exception>: <message>` followed by its traceback (indented, on stdout). The
checksum is shape:sum/sum(abs) (10 significant digits) of every returned array.
Eigenvectors are only defined up to a phase, so the driver checksums |evec|^2,
which does not depend on the phase the eigensolver picks."""
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

ptb = import_or_stop("pythtb", lambda: __import__("pythtb"))
import contextlib  # noqa: E402
import hashlib  # noqa: E402
import io  # noqa: E402

print(f"INFO numpy module is {np.__name__}", flush=True)


def _quiet(fn):  # k_path and others print a report to stdout
    with contextlib.redirect_stdout(io.StringIO()):
        return fn()


def haldane(delta=0.2):
    lat = [[1.0, 0.0], [0.5, np.sqrt(3.0) / 2.0]]
    orb = [[1.0 / 3.0, 1.0 / 3.0], [2.0 / 3.0, 2.0 / 3.0]]
    m = ptb.tb_model(2, 2, lat, orb)
    t, t2 = -1.0, 0.15 * np.exp(1.0j * np.pi / 2.0)
    t2c = t2.conjugate()
    m.set_onsite([-delta, delta])
    m.set_hop(t, 0, 1, [0, 0])
    m.set_hop(t, 1, 0, [1, 0])
    m.set_hop(t, 1, 0, [0, 1])
    m.set_hop(t2, 0, 0, [1, 0])
    m.set_hop(t2, 1, 1, [1, -1])
    m.set_hop(t2, 1, 1, [0, 1])
    m.set_hop(t2c, 1, 1, [1, 0])
    m.set_hop(t2c, 0, 0, [1, -1])
    m.set_hop(t2c, 0, 0, [0, 1])
    return m


def chain():
    # 1-D chain with two orbitals per cell, staggered on-site and dimerised hopping
    m = ptb.tb_model(1, 1, [[1.0]], [[0.0], [0.5]])
    m.set_onsite([0.3, -0.3])
    m.set_hop(-1.2, 0, 1, [0])
    m.set_hop(-0.8, 1, 0, [1])
    return m


def text_digest(fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn()
    txt = buf.getvalue()
    return f"{len(txt.splitlines())} lines md5 {hashlib.md5(txt.encode()).hexdigest()[:12]}"


path = [[0.0, 0.0], [2.0 / 3.0, 1.0 / 3.0], [0.5, 0.5], [1.0 / 3.0, 2.0 / 3.0], [0.0, 0.0]]

call("tb_model+set_hop(haldane)", lambda: (lambda m: (m.get_orb(), m.get_lat(), np.array(m._hoppings[-1][0])))(haldane()))
call("display", lambda: text_digest(haldane().display))
kp = call("k_path", lambda: _quiet(lambda: haldane().k_path(path, 61)))
call("solve_all(k_path)", lambda: haldane().solve_all(_quiet(lambda: haldane().k_path(path, 61))[0]))
call("solve_all(eig_vectors) |evec|^2", lambda: (lambda r: (r[0], np.abs(r[1]) ** 2))(haldane().solve_all([[0.1, 0.2], [0.3, 0.1], [0.5, 0.5]], eig_vectors=True)))
call("solve_one", lambda: haldane().solve_one([0.25, 0.4]))
call("k_uniform_mesh", lambda: haldane().k_uniform_mesh([6, 5]))
call("cut_piece(ribbon).solve_all", lambda: haldane().cut_piece(6, 1, glue_edgs=False).solve_all([[0.0], [0.2], [0.5]]))
call("cut_piece(flake).position_expectation", lambda: (lambda f: (lambda ev: f.position_expectation(ev[1][:4], 0))(f.solve_all(eig_vectors=True)))(haldane().cut_piece(3, 0).cut_piece(3, 1)))
call("make_supercell.solve_one", lambda: _quiet(lambda: haldane().make_supercell([[2, 0], [0, 1]]).solve_one([0.1, 0.2])))
call("remove_orb.solve_all", lambda: haldane().remove_orb([1]).solve_all([[0.0, 0.0], [0.25, 0.5]]))
call("reduce_dim.solve_all", lambda: haldane().reduce_dim(1, 0.25).solve_all([[0.0], [0.3], [0.6]]))
call("position_hwf(ribbon)", lambda: (lambda r: r.position_hwf(r.solve_one([0.2], eig_vectors=True)[1][:6], 1))(haldane().cut_piece(5, 1)))
call("change_nonperiodic_vector", lambda: _quiet(lambda: haldane().cut_piece(4, 1).change_nonperiodic_vector(1, to_home=False).get_lat()))
call("chain: wf_array.berry_phase", lambda: (lambda w: (w.solve_on_grid([0.0]), w.berry_phase([0], 0))[1])(ptb.wf_array(chain(), [41])))
call("haldane: wf_array.berry_phase(per ky)", lambda: (lambda w: (w.solve_on_grid([-0.5, -0.5]), w.berry_phase([0], 0, contin=True))[1])(ptb.wf_array(haldane(0.0), [15, 15])))
call("haldane: wf_array.berry_flux", lambda: (lambda w: (w.solve_on_grid([-0.5, -0.5]), w.berry_flux([0]))[1])(ptb.wf_array(haldane(0.0), [15, 15])))
