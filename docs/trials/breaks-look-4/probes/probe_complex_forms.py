"""Probe: two complex-number forms from pythtb on their own:
1. pythtb.py:935 `np.max(ham - ham.T.conj()) > 1e-9`: np.max of a complex array
   (NumPy orders complex values lexicographically; cuPyNumeric raises);
2. pythtb.py:298 `self._site_energies[i] += complex_value` on a float array:
   NumPy warns (ComplexWarning) and keeps the real part; cuPyNumeric raises."""
import warnings
import numpy as np
print("PROBE numpy module is", np.__name__)
h = np.array([[0.2, 1.0 - 0.5j], [1.0 + 0.5j, -0.2]])
try:
    print("PROBE np.max(h - h.T.conj()) =", complex(np.max(h - h.T.conj())))
except Exception as e:
    print(f"PROBE np.max(h - h.T.conj()): {type(e).__name__}: {e}")
e_site = np.zeros(2, dtype=float)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    try:
        e_site[0] += np.array(0.3 + 0.0j)
        print("PROBE float_arr[0] += complex: ok, now", [float(v) for v in e_site], "; warnings:", [type(x.message).__name__ for x in w])
    except Exception as ex:
        print(f"PROBE float_arr[0] += complex: {type(ex).__name__}: {ex}")
