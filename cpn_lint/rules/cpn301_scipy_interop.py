"""CPN301: SciPy calls, at a boundary or inside a loop (INFO)."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import BindKind, FileModel, Kind
from ..registry import Category, Default, Invalid, Rule, Valid
from ._api_support import device_arguments, scipy_special_ufuncs
from ._context import loop_context, loop_place
from ._info import call_text

# scipy.sparse (and its linalg/csgraph) is a Gate 4 question: CPN410 owns it.
_OWNED_ELSEWHERE = ("scipy.sparse",)
# SciPy's own subpackages. Any other public top-level name (`scipy.ones`,
# `scipy.random`) is one of the NumPy aliases old SciPy releases re-exported.
_SUBPACKAGES = frozenset({
    "cluster", "constants", "datasets", "differentiate", "fft", "fftpack", "integrate", "interpolate", "io",
    "linalg", "misc", "ndimage", "odr", "optimize", "signal", "sparse", "spatial", "special", "stats",
})


class ScipyInterop(Rule):
    """
    ## What it does
    Reports each call into SciPy (`scipy.linalg.lu(A)`,
    `ndimage.gaussian_filter(img, 2)`, `optimize.minimize(f, x0)`), resolved
    through the file's imports, and says whether it sits inside a loop or at
    a boundary outside every loop, and which SciPy subpackage it uses. Calls
    into `scipy.sparse` are left to CPN410 (a sparse workload is a Gate 4
    question, not a cost note), and calls whose arguments are all constants
    written in the code (`scipy.special.gamma(0.5)`, `io.loadmat("f.mat")`)
    pass no array and are not reported; numbers the program passes in
    (`signal.butter(order, cutoff)`) are, since the arrays SciPy computes
    from them come back to the NumPy code.

    ## Why it does not scale on cuPyNumeric
    SciPy is a host library: it converts what it receives to host NumPy
    arrays, so a cuPyNumeric array passed to it is gathered from every GPU
    into host memory, the SciPy routine runs on the CPU, and the result comes
    back as a host array that must be copied to the GPUs again. Once at the
    start or end of a run that is a boundary cost and fine; inside a time or
    iteration loop it happens every iteration and caps the speed-up.

    ## Example
    ```python
    import numpy as np
    from scipy import ndimage

    for step in range(steps):
        u = ndimage.gaussian_filter(u, sigma=1.0)   # host round trip every step
    ```

    ## Use instead
    Keep SciPy at an explicit boundary on a host array, and do the loop's
    work with cuPyNumeric operations (recipe RR-host-fallback):
    ```python
    import numpy as onp
    import cupynumeric as np

    smoothed = ndimage.gaussian_filter(onp.asarray(u0), sigma=1.0)  # once
    u = np.asarray(smoothed)
    for step in range(steps):
        u[1:-1] = 0.5 * u[1:-1] + 0.25 * (u[:-2] + u[2:])
    ```

    ## Known false alarms
    * A SciPy call on data that never becomes a cuPyNumeric array is still
      reported; it is a host touchpoint for Gate 5 all the same.
    * A device array handed to one of `scipy.special`'s ufuncs (`jv`,
      `erf`, `gamma`) is not a round trip: the call raises, and CPN404
      reports it.
    * Calls through objects SciPy returned (`interp = interp1d(x, y);
      interp(x_new)`) are not traced; only the constructing call is reported.
    """

    code = "CPN301"
    slug = "scipy-interop"
    category = Category.INFO
    recipe = "RR-host-fallback"
    default = Default.ASSESSMENT
    summary = "SciPy call: host round trip at a boundary or in a loop"
    message = "{call} runs SciPy ({module}) on the host: {transfer}; {where} (RR-host-fallback)"
    short = "{call} runs SciPy on the host (RR-host-fallback)"

    valid = (
        # old SciPy releases re-exported NumPy names at the top level
        Valid("""
            import numpy as np
            import scipy
            state = -scipy.ones((2, np.int64(100)), dtype=int)
            picks = scipy.random.choice(100, size=10, replace=False)
            """),
        Valid("""
            import numpy as np
            import scipy.sparse as sp
            m = sp.csr_matrix((3, 3))
            """),
        Valid("""
            import numpy as np
            from scipy import special, io
            g = special.gamma(0.5)
            d = io.loadmat('data.mat')
            """),
        Valid("""
            import numpy as np
            import mylib as scipy
            r = scipy.linalg.lu(np.ones((3, 3)))
            """),
        Valid("""
            import numpy as np
            # scipy.linalg.lu(A) would run on the host
            s = 'scipy.linalg.lu(A)'
            """),
    )
    invalid = (
        Invalid(
            """
            import numpy as np
            from scipy import ndimage
            u = np.ones((8, 8))
            for step in range(10):
                u = ndimage.gaussian_filter(u, 1.0)
            """,
            line=5,
            contains="every iteration of the loop at line 4",
        ),
        # in a helper that a loop calls every iteration
        Invalid(
            """
            import numpy as np
            from scipy.spatial import KDTree

            def neighbours(points, radius, i):
                tree = KDTree(points)
                return tree.query_ball_point(points[i], radius)

            pos = np.random.rand(1000, 2)
            for i in range(1000):
                found = neighbours(pos, 0.05, i)
            """,
            line=5,
            contains="every iteration of the loop at line 9, which calls 'neighbours'",
        ),
        Invalid("""
            import numpy as np
            import scipy.linalg
            A = np.ones((4, 4))
            P, L, U = scipy.linalg.lu(A)
            """, line=4, contains="scipy.linalg"),
        # numbers the program passes in: SciPy's arrays come back to the NumPy code
        Invalid("""
            import numpy as np
            from scipy import signal
            def design_taps(cutoff: float, order: int) -> np.ndarray:
                b, a = signal.butter(order, cutoff, btype="low")
                return np.asarray(b / a[0])
            """, line=4, contains="outside every loop"),
        Invalid(
            """
            import numpy as np
            from scipy.optimize import minimize
            def fit(x0: np.ndarray):
                return minimize(lambda x: float(np.sum(x * x)), x0)
            """,
            line=4,
            contains="outside every loop",
        ),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.imports.imports_any("scipy"):
            return
        scipy_names = {r.local for r in model.imports.records if r.qualname.split(".", 1)[0] == "scipy"}
        for call in model.nodes(ast.Call):
            if _base_name(call.func) not in scipy_names:
                continue
            name = model.qualname(call.func)
            if name is None or not name.startswith("scipy.") or name.startswith(_OWNED_ELSEWHERE):
                continue
            top = name.split(".")[1]
            if top not in _SUBPACKAGES and not top.startswith("_"):
                continue  # an old NumPy alias, not SciPy's own code
            arguments = list(call.args) + [kw.value for kw in call.keywords]
            if not arguments or all(_passes_nothing(model, a) for a in arguments):
                continue
            if name.rpartition(".")[2] in scipy_special_ufuncs() and name.startswith("scipy.special.") \
                    and device_arguments(model, call):
                continue  # a SciPy ufunc of a device array raises: CPN404, not a round trip
            module = ".".join(name.split(".")[:2]) if name.count(".") >= 2 else name
            devices = list(dict.fromkeys(model.segment(a, 24) for a in arguments if model.is_array(a)))
            if devices:
                transfer = ", ".join(repr(d) for d in devices[:3]) + (" is" if len(devices) == 1 else " are") + " copied from the GPUs to host memory and the result comes back as a host array"
            else:
                transfer = "any cuPyNumeric array passed to it is copied to host memory first"
            frame = model.loop_of(call)
            through = loop_context(model, call) if frame is None else None  # a helper a loop calls
            if frame is not None:
                where = f"this repeats every iteration of {loop_place(frame)}, so move the call out of the loop or keep this stage on a host array"
            elif through is not None:
                frame = through.loop
                where = (f"this repeats every iteration of {loop_place(frame)}, which calls '{through.function}'; "
                         "move the call out of the loop or keep this stage on a host array")
            else:
                where = "outside every loop this is a one-off boundary, which is fine; keep it there"
            yield self.finding(
                call,
                in_loop=frame is not None,
                call=call_text(model, call),
                module=module,
                transfer=transfer,
                where=where,
                data={"api": name, "module": module, "arrays": devices, "loop_line": frame.line if frame else None},
            )


def _base_name(func: ast.expr) -> str | None:
    while isinstance(func, ast.Attribute):
        func = func.value
    return func.id if isinstance(func, ast.Name) else None


def _passes_nothing(model: FileModel, argument: ast.expr) -> bool:
    """An argument that brings no program data: a constant written in the
    code, or something certainly not an array or a number (a string, a
    module, a class, a list of options) that SciPy does not call back."""
    if _constant(model, argument):
        return True
    return model.kind(argument) is Kind.NOT and not _is_callable(model, argument)


def _constant(model: FileModel, expr: ast.expr, depth: int = 0) -> bool:
    """An argument fixed where the code is written: a literal (``0.5``,
    ``"data.mat"``), a display of literals, or a name bound only to those
    (a module constant). A parameter or a computed number is a value the
    program hands SciPy at run time (``signal.butter(order, cutoff)``), and
    the arrays SciPy computes from it come back to the NumPy code."""
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, ast.Attribute) and model.qualname(expr) is not None and model.kind(expr) is Kind.SCALAR:
        return True  # np.inf, np.pi
    if isinstance(expr, ast.UnaryOp):
        return _constant(model, expr.operand, depth)
    if isinstance(expr, (ast.Tuple, ast.List)):
        return all(_constant(model, e, depth) for e in expr.elts)
    if isinstance(expr, ast.Name) and depth < 3 and not _is_callable(model, expr):
        bindings = model.reaching_bindings(expr)
        return bool(bindings) and all(
            b.kind is BindKind.VALUE and b.value is not None and _constant(model, b.value, depth + 1) for b in bindings)
    return False


def _is_callable(model: FileModel, expr: ast.expr) -> bool:
    """A function handed to SciPy (``minimize(f, x0)``): SciPy will call it on
    host arrays, so the call still matters."""
    if isinstance(expr, ast.Lambda):
        return True
    if isinstance(expr, ast.Name):
        scope = model.lookup(expr)
        return scope is not None and any(isinstance(b.node, (ast.FunctionDef, ast.AsyncFunctionDef)) for b in scope.bindings.get(expr.id, ()))
    return False
