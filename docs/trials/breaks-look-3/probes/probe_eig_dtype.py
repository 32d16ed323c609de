"""Probe: the form at spectral/algorithms/algorithms.py:567 (and :1684) on its
own. NumPy's np.linalg.eig on a real symmetric matrix returns float64
eigenvalues/eigenvectors when every eigenvalue is real; cuPyNumeric's returns
complex128 with zero imaginary parts, so principal_components / mnf results
become complex arrays (same values, different dtype)."""
import numpy as np
print("PROBE numpy module is", np.__name__)
a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
L, V = np.linalg.eig(a)
print("PROBE eig dtypes:", L.dtype, V.dtype, "; eigenvalue sum:", f"{float(np.sum(L.real)):.10g}", "; max |imag|:", float(np.max(np.abs(L.imag))) if L.dtype.kind == "c" else 0.0)
Y = np.ones((2, 3)) @ V[:, :2]
print("PROBE projection dtype:", Y.dtype)
