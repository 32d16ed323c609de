"""What works is whole-array work only (issue 25 §4): arithmetic inside a
root cause — an element loop or a recurrence reported as CPN101/CPN410, a
Numba-compiled kernel, or a helper such a loop runs every iteration — is
scalar work of that root cause, and no SCALES rule quotes it, whatever codes
are selected (so ``flake8 --cpn-assessment`` and the verdict agree)."""

from __future__ import annotations

from cpn_lint import lint_source

SCALES = ("CPN001", "CPN002", "CPN003", "CPN004", "CPN005", "CPN006", "CPN007")

ROW_LOOP = '''\
import numpy as np


def blend(w, left, right):
    mixed = w * left + (1.0 - w) * right
    return mixed


def smooth(u):
    out = np.empty_like(u)
    for i in range(1, u.shape[0] - 1):
        left = u[i - 1]
        right = u[i + 1]
        avg = 0.5 * (left + right)
        out[i] = blend(0.5, avg, u[i])
    return out


grid = np.random.random((400, 400))
shifted = grid * 2.0 + 1.0
'''

KERNEL = '''\
import numba
import numpy as np


@numba.njit
def flux(u, f):
    for i in range(1, u.shape[0]):
        d = u[i] - u[i - 1]
        f[i] = 0.5 * d * d
    s = np.sum(f)
    return s


u = np.random.random(10_000)
f = np.zeros_like(u)
total = flux(u, f)
scaled = u * 3.0
'''

RECURRENCE = '''\
import numpy as np


def ewma(x, alpha):
    y = np.empty_like(x)
    y[0] = x[0]
    for n in range(1, x.shape[0]):
        prev = y[n - 1]
        y[n] = alpha * x[n] + (1.0 - alpha) * prev
    return y


signal = np.random.random(100_000)
smooth = ewma(signal, 0.1)
detrended = signal - smooth
'''


def _scales(source: str, codes: tuple[str, ...] = SCALES) -> list[tuple[str, int]]:
    return sorted((f.code, f.line) for f in lint_source(source, assessment=True, codes=list(codes)) if f.code in SCALES)


def test_arithmetic_in_an_element_loop_and_its_helper_is_not_what_works() -> None:
    findings = lint_source(ROW_LOOP)
    assert any(f.code == "CPN101" and f.line == 11 for f in findings)
    scales = _scales(ROW_LOOP)
    assert all(line == 20 for _, line in scales), scales  # only the whole-array line at module level
    assert ("CPN001", 20) in scales


def test_arithmetic_in_a_compiled_kernel_is_not_what_works_nor_folded_as_scales() -> None:
    findings = lint_source(KERNEL, assessment=True)
    (kernel,) = [f for f in findings if f.code == "CPN112"]
    assert not set(kernel.data.get("folded", {})) & set(SCALES)
    assert _scales(KERNEL) == [("CPN001", 17)]


def test_arithmetic_in_a_recurrence_is_not_what_works() -> None:
    findings = lint_source(RECURRENCE)
    assert any(f.code == "CPN410" and f.line == 7 for f in findings)
    assert _scales(RECURRENCE) == [("CPN001", 15)]


def test_the_exclusion_does_not_depend_on_the_codes_selected() -> None:
    for source in (ROW_LOOP, KERNEL, RECURRENCE):
        for code in SCALES:
            alone = [s for s in _scales(source, (code,)) if s[0] == code]
            together = [s for s in _scales(source) if s[0] == code]
            assert alone == together, (code, source[:40])
