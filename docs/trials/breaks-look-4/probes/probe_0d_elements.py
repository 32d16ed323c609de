"""Probe: four forms in which an element of a cuPyNumeric array is a 0-d array,
where NumPy gives a NumPy scalar, on their own:
1. cma/fitness_functions.py:254 and :326: `isscalar(x[0])` on a 1-D array is
   False, so the test function takes one point for a population;
2. cma/bbobbenchmarks.py:1240: `np.hstack(v)` on a 0-d value raises IndexError,
   where NumPy raises the TypeError that the library's `except TypeError` expects;
3. bezier/hazmat/triangle_helpers.py:748: `set.update(array)` hashes the
   elements, and 0-d cuPyNumeric arrays are unhashable;
4. pythtb.py:277: `True in bool_array` raises ValueError inside cuPyNumeric's
   ndarray.__contains__."""
import numpy as np
print("PROBE numpy module is", np.__name__)
x = np.array([0.3, -0.7, 1.1])


def run(label, fn):
    try:
        print(f"PROBE {label}: {fn()!r}")
    except Exception as e:
        print(f"PROBE {label}: {type(e).__name__}: {str(e).splitlines()[0]}")


run("type(x[0]).__name__", lambda: type(x[0]).__name__)
run("np.isscalar(x[0])", lambda: np.isscalar(x[0]))
v = np.dot(x, x)
run("type(np.dot(x, x)).__name__", lambda: type(v).__name__)


def hstack_idiom():
    try:
        return ("hstack ok", np.hstack(v).shape)
    except TypeError as e:
        return ("caught TypeError as the library expects", str(e)[:40])


run("try: np.hstack(np.dot(x, x)) except TypeError", hstack_idiom)


def set_update():
    s = set()
    s.update(np.sign(np.array([1.0, -2.0, 3.0])).astype(int))
    return sorted(int(i) for i in s)


run("set().update(np.sign(a).astype(int))", set_update)
run("True in np.array([False, True])", lambda: True in np.array([False, True]))
run("True in np.array([False, False])", lambda: True in np.array([False, False]))
