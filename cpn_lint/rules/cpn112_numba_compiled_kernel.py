"""CPN112: a Numba-compiled function on the program's arrays."""

from __future__ import annotations

from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..model.compiled import CompiledFunction, compiled_functions
from ..registry import Category, Invalid, Rule, Valid

CALLERS_SHOWN = 3


class NumbaCompiledKernel(Rule):
    """
    ## What it does
    Reports, once at its `def`, each function compiled by Numba in nopython
    mode (`@njit`, `@jit`, `@vectorize`, `@guvectorize`, `@stencil`, `@cfunc`,
    `@cuda.jit`, or `f = njit(g)`) that takes the program's arrays: a parameter
    used as an array or handed one by a caller in the file, an array result,
    or a call into NumPy inside the compiled body. The message names the
    callers that hand it arrays. Findings inside the function (its element
    loops, branches, conversions) belong to this one and are not listed again;
    the finding's data counts them.

    ## Why it does not scale on cuPyNumeric
    Numba compiles machine code for NumPy's own array type. After the import
    swap the arrays are cuPyNumeric's, which Numba cannot type: under
    cuPyNumeric 26.6.1 an `@njit` or `@jit` call fails with `TypingError`,
    `@vectorize` and `@guvectorize` ufuncs with `NotImplementedError` and
    `@stencil` with `ValueError`. A compiled body that calls `np.zeros` fails
    the same way, since `np` now names cuPyNumeric, and so does a 0-d device
    scalar passed as a number. The program stops; when the kernel is the hot
    path there is nothing to distribute until it is rewritten.

    ## Example
    ```python
    import numba
    import numpy as np

    @numba.njit
    def flux(u, f):
        for i in range(1, u.shape[0]):
            f[i] = 0.5 * (u[i] + u[i - 1])

    u = np.random.random(1_000_000)
    f = np.zeros_like(u)
    flux(u, f)
    ```

    ## Use instead
    Rewrite the kernel as whole-array operations, which cuPyNumeric
    distributes (recipe RR-loop):
    ```python
    f[1:] = 0.5 * (u[1:] + u[:-1])
    ```
    A kernel that cannot be vectorised (a true recurrence, branchy per-cell
    logic) can stay on the host: keep `import numpy` for it and convert at
    its boundary (`np.asarray(...)` of a host copy in, a cuPyNumeric array
    out), which serialises that step (RR-host-fallback).

    ## Known false alarms
    A compiled function only ever called with plain Python numbers is not
    reported; one whose parameters the file gives no evidence about, with
    no caller in the file, is not reported either (its callers elsewhere may
    pass anything). Object mode (`forceobj=True`, `nopython=False`) runs
    plain Python, which takes cuPyNumeric arrays, and is not reported.
    """

    code = "CPN112"
    slug = "numba-compiled-kernel"
    category = Category.BLOCKS
    recipe = "RR-loop"
    summary = "A Numba-compiled function takes the program's arrays, which cuPyNumeric arrays cannot enter"
    message = ("Numba-compiled {function} (@{compiler}) {evidence}{callers}: cuPyNumeric arrays cannot enter "
               "compiled code; rewrite it as whole-array operations (RR-loop) or keep it on the host "
               "(RR-host-fallback)")
    short = "Numba-compiled {function} {brief}: rewrite as array operations (RR-loop)"

    valid = (
        Valid("""
            import numba
            import numpy as np

            @numba.njit
            def mix(x, y):
                return x * y + 1.0

            z = mix(2.0, 3.0)
            """),
        Valid("""
            import numba
            import numpy as np

            @numba.jit(forceobj=True)
            def total(a):
                return a.sum()

            total(np.ones(10))
            """),
        Valid("""
            import numpy as np

            def total(a):
                s = 0.0
                for i in range(a.shape[0]):
                    s += a[i]
                return s
            """),
        Valid("""
            import numpy as np
            # numba.njit is mentioned only in this comment
            x = np.zeros(3)
            """),
    )
    invalid = (
        # a module of kernels that imports Numba alone: its callers elsewhere
        # hand it their NumPy arrays, cuPyNumeric's once ported
        Invalid("""
            from numba import njit

            @njit
            def laplace_step(u, out, h):
                ny, nx = u.shape
                for i in range(1, ny - 1):
                    for j in range(1, nx - 1):
                        out[i, j] = (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4 * u[i, j]) / h ** 2
            """, line=4),
        Invalid("""
            import numba
            import numpy as np

            @numba.njit
            def flux(u, f):
                for i in range(1, u.shape[0]):
                    f[i] = 0.5 * (u[i] + u[i - 1])

            u = np.random.random(1000)
            f = np.zeros_like(u)
            flux(u, f)
            """, line=5, contains="takes arrays 'u', 'f'"),
        Invalid("""
            from numba import njit, prange
            import numpy as np

            @njit(parallel=True, cache=True)
            def step(grid):
                out = np.empty_like(grid)
                for i in prange(grid.shape[0]):
                    out[i] = grid[i] * 0.5
                return out
            """, line=5, contains="np.empty_like"),
        Invalid("""
            import numba as nb
            import numpy as np

            @nb.vectorize(["float64(float64)"])
            def twice(x):
                return 2.0 * x

            y = twice(np.linspace(0.0, 1.0, 100))
            """, line=5, contains="<module>:8"),
        Invalid("""
            import numba
            import numpy as np

            def slow(a, b):
                return a.sum() + b.shape[0]

            fast = numba.njit(slow)
            """, line=4, contains="@njit"),
        Invalid("""
            from numba import stencil
            import numpy as np

            @stencil
            def smooth(a):
                return 0.5 * (a[-1] + a[1])

            def run(n):
                field = np.ones(n)
                return smooth(field)
            """, line=5, contains="run:10"),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        for compiled in compiled_functions(model):
            if compiled.takes_device_data:
                yield self._report(model, compiled)

    def _report(self, model: FileModel, compiled: CompiledFunction) -> Finding:
        evidence, brief = _evidence(compiled)
        callers = ""
        if compiled.callers:
            named = ", ".join(f"{name}:{line}" for name, line in compiled.callers[:CALLERS_SHOWN])
            more = len(compiled.callers) - CALLERS_SHOWN
            callers = f", handed arrays by {named}" + (f" and {more} more" if more > 0 else "")
        return self.finding(compiled.node, function=f"'{compiled.name}'", compiler=compiled.compiler,
                            evidence=evidence, brief=brief, callers=callers,
                            data={"function": compiled.name, "compiler": compiled.compiler,
                                  "callers": [list(c) for c in compiled.callers],
                                  "end_line": compiled.node.end_lineno or compiled.node.lineno})


def _evidence(compiled: CompiledFunction) -> tuple[str, str]:
    """What ties the function to the program's arrays: for the message, and
    a few words for the headline."""
    parts: list[str] = []
    if compiled.compiler in ("vectorize", "guvectorize") and (compiled.array_params or compiled.callers):
        parts.append("is applied to arrays")  # a ufunc: its parameters are elements, its callers pass arrays
    elif compiled.array_params:
        listed = ", ".join(f"'{name}'" for name in compiled.array_params)
        parts.append(f"takes array{'s' if len(compiled.array_params) > 1 else ''} {listed}")
    elif compiled.callers:
        parts.append("takes arrays")
    if compiled.returns_array and parts:
        parts.append("returns an array")
    if compiled.device_calls:
        parts.append(f"calls {', '.join(compiled.device_calls[:3])} inside")
    brief = ("is applied to arrays" if parts and parts[0] == "is applied to arrays" else
             "takes arrays" if compiled.array_params or compiled.callers else "calls NumPy inside")
    return " and ".join(parts), brief
