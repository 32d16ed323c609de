"""Probe: the form at pythtb.py:1840 on its own: `np.mgrid[0:n, 0:m]`. Under the
oracle, cuPyNumeric's Doctor (CUPYNUMERIC_DOCTOR, which the oracle turns on) is
called on every wrapped function and reads `args[0].ndim`; for
`np.mgrid.__getitem__` args[0] is the _MGridClass object, which has no ndim.
The probe runs the same line with Doctor on, then with Doctor switched off
through cuPyNumeric's own setting, to tell a Doctor artifact from a runtime
failure."""
import numpy as np
print("PROBE numpy module is", np.__name__)


def try_mgrid(label):
    try:
        k = np.mgrid[0:3, 0:2]
        print(f"PROBE {label}: ok shape {tuple(k.shape)} sum {int(k.sum())}")
    except Exception as e:
        print(f"PROBE {label}: {type(e).__name__}: {e}")


if np.__name__ == "cupynumeric":
    from cupynumeric.settings import settings
    print("PROBE doctor setting:", settings.doctor())
    try_mgrid("mgrid with Doctor on")
    settings.doctor.set_value(False)
    print("PROBE doctor setting:", settings.doctor())
    try_mgrid("mgrid with Doctor off")
else:
    try_mgrid("mgrid")
