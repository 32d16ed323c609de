"""Driver for periodictable (pkienzle/periodictable): chemical elements and
isotopes, chemical formulas, neutron and X-ray scattering (scattering length
densities, cross sections, index of refraction, mirror reflectivity, atomic
X-ray form factors), magnetic form factors, neutron activation and
biomolecule (FASTA) scattering. Covers energy/wavelength conversions, tabulated
X-ray scattering factors, Cromer-Mann form factors, neutron SLD for compounds
and composites, activation after exposure, and FASTA sequences. Inputs are
fixed formulas and small arrays. Each call prints one `CALL name: ok
<checksum>` line, or `CALL name: <Exception>: <message>` followed by its
traceback (indented, on stdout). The checksum is shape:sum/sum(abs) (10
significant digits) of every returned array."""
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


periodictable = import_or_stop("periodictable", lambda: __import__("periodictable"))
import_or_stop("periodictable.{nsf,xsf,cromermann,activation,fasta,util}",
               lambda: [__import__("periodictable." + m) for m in ("nsf", "xsf", "cromermann", "activation", "fasta", "util")])
from periodictable import elements, formula, nsf, xsf, cromermann, activation, fasta, util, mix_by_weight  # noqa: E402

print(f"INFO numpy module is {np.__name__}; periodictable {periodictable.__version__}", flush=True)

E_meV = np.array([1.0, 5.0, 25.0, 81.8])
L_ang = np.array([1.0, 1.54, 1.8, 4.75])
Q = np.linspace(0.0, 6.0, 7)

call("nsf.neutron_wavelength", lambda: nsf.neutron_wavelength(E_meV))
call("nsf.neutron_energy", lambda: nsf.neutron_energy(L_ang))
call("xsf.xray_wavelength/xray_energy", lambda: (xsf.xray_wavelength(np.array([8.05, 17.4])), xsf.xray_energy(L_ang)))
call("Fe.xray.scattering_factors", lambda: elements.Fe.xray.scattering_factors(energy=np.array([5.0, 8.0, 12.0])))
call("Ni.xray.sld", lambda: elements.Ni.xray.sld(wavelength=1.54))
call("xsf.xray_sld(SiO2)", lambda: xsf.xray_sld("SiO2", density=2.2, wavelength=1.54))
call("xsf.index_of_refraction", lambda: xsf.index_of_refraction("SiO2", density=2.2, wavelength=np.array([1.0, 1.54])))
call("xsf.mirror_reflectivity", lambda: xsf.mirror_reflectivity("Ni", density=8.9, wavelength=1.54, angle=np.array([0.1, 0.2, 0.3, 0.5])))
call("Si.xray.f0", lambda: elements.Si.xray.f0(np.array([0.0, 1.0, 2.0, 4.0])))
call("cromermann.fxrayatq", lambda: cromermann.fxrayatq("Si", Q))
call("nsf.neutron_sld(H2O)", lambda: nsf.neutron_sld("H2O", density=1.0))
call("nsf.neutron_scattering(Si, vector wavelength)", lambda: nsf.neutron_scattering("Si", density=2.33, wavelength=L_ang))
call("Gd.neutron.sld (energy dependent)", lambda: elements.Gd.neutron.sld(wavelength=L_ang))
call("nsf.neutron_composite_sld", lambda: nsf.neutron_composite_sld([formula("H2O"), formula("D2O")], wavelength=1.8)(np.array([0.3, 0.7]), density=1.05))
call("nsf.D2O_match", lambda: nsf.D2O_match("C3H6O", density=0.79))
call("magnetic_ff Fe2+ j0_Q/j2_Q/j4_Q", lambda: (lambda m: (m.j0_Q(Q), m.j2_Q(Q), m.j4_Q(Q)))(elements.Fe.ion[2].magnetic_ff[2]))
call("activation Co", lambda: (lambda s: (s.calculate_activation(activation.ActivationEnvironment(fluence=1e5), exposure=10, rest_times=(0, 1, 24)), np.array(sorted(v for a in s.activity.values() for v in a)))[1])(activation.Sample("Co", 1e-3)))
call("fasta.Sequence sld/D2Omatch", lambda: (lambda s: (s.sld, s.Dsld, s.D2Omatch))(fasta.Sequence("pep", "ACDEFGHIKLMNPQRSTVWY", type="aa")))
call("mix_by_weight.neutron_sld", lambda: mix_by_weight("H2O@1", 30, "D2O@1.11", 70).neutron_sld(wavelength=1.8))
call("util.cell_volume", lambda: util.cell_volume(a=5.0, b=5.0, c=7.0, gamma=120.0))
