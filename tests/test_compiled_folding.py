"""Findings inside a Numba-compiled function fold into its CPN112 (issue 25):
one root cause, one finding, whatever codes are selected."""

from __future__ import annotations

from cpn_lint import lint_source

KERNEL = '''\
import numba
import numpy as np


@numba.njit
def relax(u, out):
    for i in range(1, u.shape[0] - 1):
        if u[i] > 0.0:
            out[i] = 0.5 * (u[i - 1] + u[i + 1])
        tmp = np.zeros(3)
        out[i] += float(u[i]) + tmp[0]


@numba.njit
def helper(x, y):
    if x > y:
        return x
    return y


u = np.random.random(1000)
out = np.zeros_like(u)
for step in range(100):
    relax(u, out)
best = helper(1.0, 2.0)
for i in range(u.shape[0]):
    out[i] = u[i] * 2.0
'''


def test_findings_inside_a_compiled_function_are_counted_not_listed() -> None:
    findings = lint_source(KERNEL)
    inside = [f for f in findings if 6 <= f.line <= 18 and f.code != "CPN112"]
    assert inside == []
    (kernel,) = [f for f in findings if f.code == "CPN112"]
    assert kernel.line == 6 and kernel.data["callers"] == [["<module>", 24]]
    assert kernel.data["folded"].get("CPN101") == 1 and sum(kernel.data["folded"].values()) >= 2
    # the element loop outside compiled code is still reported on its own
    assert any(f.code == "CPN101" and f.line == 26 for f in findings)


def test_folding_does_not_depend_on_the_codes_selected() -> None:
    for code in ("CPN101", "CPN105", "CPN201", "CPN104"):
        alone = [f for f in lint_source(KERNEL, codes=[code]) if f.code == code]
        together = [f for f in lint_source(KERNEL) if f.code == code]
        assert alone == together, code
