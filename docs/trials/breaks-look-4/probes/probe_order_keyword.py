"""Probe: the form at bezier/_base.py:120 (`np.asarray(nodes, order="F")`, run by
every Curve and Triangle constructor) and bezier/hazmat/algebraic_intersection.py:716
(`np.zeros(..., order="F")`) on its own: cuPyNumeric's array constructors do not
take NumPy's `order=` keyword."""
import numpy as np
print("PROBE numpy module is", np.__name__)
for label, fn in [
    ('np.asarray([[1.0, 2.0]], order="F")', lambda: np.asarray([[1.0, 2.0]], order="F")),
    ('np.zeros((2, 2), order="F")', lambda: np.zeros((2, 2), order="F")),
    ('np.empty((2, 3), order="F")', lambda: np.empty((2, 3), order="F") * 0.0),
    ('a.reshape((3, 2), order="F")', lambda: np.arange(6.0).reshape((2, 3)).reshape((3, 2), order="F")),
    ('a.ravel(order="F")', lambda: np.arange(6.0).reshape((2, 3)).ravel(order="F")),
]:
    try:
        r = fn()
        print(f"PROBE {label}: ok shape {tuple(r.shape)} first {float(r.ravel()[1]) if r.size > 1 else None}")
    except Exception as e:
        print(f"PROBE {label}: {type(e).__name__}: {e}")
