"""Probe: library calls that cuPyNumeric has but rejects for these arguments, on
their own (library line in brackets)."""
import numpy as np
print("PROBE numpy module is", np.__name__)


def run(label, fn, where):
    try:
        r = fn()
        print(f"PROBE {label}: ok {np.asarray(r).shape if r is not None else ''}   [{where}]")
    except Exception as e:
        print(f"PROBE {label}: {type(e).__name__}: {str(e).splitlines()[0]}   [{where}]")


run("np.linalg.pinv of a 3x6 (M < N) matrix", lambda: np.linalg.pinv(np.arange(18.0).reshape(3, 6) ** 0.5), "cma/fitness_models.py:864")
run("np.convolve(x, w, mode='valid')", lambda: np.convolve(np.arange(10.0), np.ones(3) / 3, mode="valid"), "cma/utilities/math.py:102")
run("np.unique(points, axis=1)", lambda: np.unique(np.array([[0.0, 1.0, 0.0], [0.0, 2.0, 0.0]]), axis=1), "bezier/hazmat/helpers.py:318")


def rev_assign():
    c = np.zeros((3, 3))
    s = np.array([1.0, 2.0, 3.0])
    c[0, :] = -s[::-1]
    return c


run("c[0, :] = -s[::-1]", rev_assign, "bezier/hazmat/algebraic_intersection.py:722")
run("np.dot(int64 1-D, int64 2-D)", lambda: np.dot(np.array([1, 0]), np.array([[2, 0], [0, 1]])), "pythtb.py:1611")
run("np.array(None)", lambda: np.array(None), "pythtb.py:877")
