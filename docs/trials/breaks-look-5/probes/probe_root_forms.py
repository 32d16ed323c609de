"""Probe (root forms alone): each form behind a root line of breaks-look-5, in
a few lines, outside the libraries. Run under plain Python and under the
oracle; each FORM line prints `ok <value>` or the exception."""
import numpy as np


def form(name, fn):
    try:
        print(f"FORM {name}: ok {fn()!r}", flush=True)
    except Exception as e:
        print(f"FORM {name}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", flush=True)


a = np.array([1.0, 2.0, 4.0])
form("a[::-1] (periodictable nsf.py:526, sharppy interp.py:54/98/256)", lambda: a[::-1].tolist())
for name in ("fix", "ptp", "nanstd", "loadtxt", "interp"):
    form(f"np.{name} exists (quantities dimensionality.py:333 / quantity.py:667,773; periodictable xsf.py:263, nsf.py:453; sharppy interp.py:356,410)", lambda name=name: hasattr(np, name))
form("np.ndarray.std exists (quantities quantity.py:762)", lambda: hasattr(np.ndarray, "std"))
def _import_ma():
    import numpy.ma as ma
    return ma.__name__


def _import_testing():
    import numpy.testing as npt
    return npt.__name__


form("import numpy.ma as ma (sharppy profile.py:4)", _import_ma)
form("import numpy.testing as npt (sharppy interp.py:5)", _import_testing)


class Sub(np.ndarray):
    def __array_finalize__(self, obj):
        self.tag = getattr(obj, "tag", "set")


form("np.array(1.0).view(Sub) (quantities unitquantity.py:47)", lambda: type(np.array(1.0).view(Sub)).__name__)


form("ndarray has no Python-level __init__ that a subclass without one inherits (quantities quantity.py:116)",
     lambda: np.ndarray.__init__ is object.__init__)
m = np.array([3.0, 1.0, 2.0]).min()
form("np.isscalar(a.min()) (quantities dimensionality.py:165)", lambda: (type(m).__name__, np.isscalar(m)))
form("hash of a reduction's result (quantities dimensionality.py:66)", lambda: hash(("m", np.array([2, 3]).min())) is not None)


def _inplace():
    e = np.array([2, 1]).max()   # int exponent held as a reduction result
    e *= 0.5
    return (type(e).__name__, float(e))


form("int reduction result *= 0.5 (quantities dimensionality.py:172)", _inplace)
