"""Probe: the form at spectral/algorithms/clustering.py:361 and
spectral/algorithms/algorithms.py:1130 on its own: `set(arr.ravel())`.
Iterating a NumPy array yields hashable NumPy scalars; iterating a
cuPyNumeric array yields 0-d cuPyNumeric arrays, whose __hash__ raises."""
import numpy as np
print("PROBE numpy module is", np.__name__)
labels = np.array([[1, 2], [2, 0]])
try:
    print("PROBE set(labels.ravel()) =", sorted(int(v) for v in set(labels.ravel())))
except TypeError as e:
    print("PROBE set(labels.ravel()) raised TypeError:", e)
print("PROBE type of one element while iterating:", type(next(iter(labels.ravel()))).__name__)
print("PROBE set(labels.ravel().tolist()) =", sorted(set(labels.ravel().tolist())))
