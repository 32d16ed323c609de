"""CPN111: data crossing between CuPy and cuPyNumeric/NumPy inside a loop."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, Kind, LoopFrame
from ..registry import Category, Invalid, Rule, Valid
from ._context import describe_loop
from ..model.syntax import walk

_CUPY_ROOTS = ("cupy", "cupyx")
# CuPy functions that take a foreign array in (the data leaves cuPyNumeric).
_INTO_CUPY = frozenset({"cupy.asarray", "cupy.array", "cupy.asanyarray", "cupy.ascontiguousarray"})
# Device-numpy functions that take a foreign array in (the data leaves CuPy).
_INTO_NUMPY = frozenset({"asarray", "array", "asanyarray", "ascontiguousarray"})
_MAX_LISTED = 3

TO_CUPY = "to CuPy"
FROM_CUPY = "from CuPy"


@dataclass(frozen=True)
class _Crossing:
    call: ast.Call
    direction: str
    function: str | None = None  # the helper the loop calls, when the crossing is in one


class CupyMixedInLoop(Rule):
    """
    ## What it does
    Reports a loop whose body moves arrays between CuPy and cuPyNumeric (or
    the NumPy code about to become cuPyNumeric): `cp.asarray(x)` or
    `cp.array(x)` of a NumPy array, `cp.asnumpy(y)` or `y.get()` of a CuPy
    array, `np.asarray(y)` of a CuPy array, and `cp.asarray(x)` of what
    came back from CuPy earlier (the second half of a round trip). Crossings
    in a function of the file the loop calls on every iteration count as the
    loop's (`u = u + dt * spectral_step(u)` where `spectral_step` converts to
    CuPy and back). It is reported when the loop also
    works with both libraries — a NumPy operation and a CuPy operation besides
    the conversions — or converts in both directions (a round trip). One
    finding per outermost loop, at its first crossing, naming the crossings.

    ## Why it does not scale on cuPyNumeric
    CuPy and cuPyNumeric are separate runtimes with separate GPU memory
    pools; neither can read the other's arrays. Every hop goes through host
    memory: a device-to-host copy, a host-to-device copy and a
    synchronisation that drains cuPyNumeric's pipeline of queued tasks.
    Inside a loop that cost is paid on every iteration and with the whole
    array as payload.

    ## Example
    ```python
    import cupy as cp
    import cupynumeric as np

    for step in range(n_steps):
        x = np.add(a, b)
        spectrum = cp.fft.fft(cp.asarray(x))
        a = np.asarray(cp.asnumpy(spectrum.real))
    ```

    ## Use instead
    Keep one runtime inside the loop (recipe RR-one-runtime). If both are
    needed, convert once before the loop and once after it. When CuPy was
    used only for a function cuPyNumeric lacked, check whether cuPyNumeric
    now provides it (`np.fft.fft` here) and drop CuPy:
    ```python
    for step in range(n_steps):
        x = np.add(a, b)
        a = np.fft.fft(x).real
    ```

    ## Known false alarms
    Conversions outside loops, loops that use only CuPy (`cp.asnumpy` to
    save results), a loop that converts in one direction without computing
    with both libraries, and files that import CuPy but neither NumPy nor
    cuPyNumeric are not reported. Conversions of values the model cannot show
    to be arrays of the other runtime are not counted.
    """

    code = "CPN111"
    slug = "cupy-mixed-in-loop"
    category = Category.BLOCKS
    recipe = "RR-one-runtime"
    summary = "Arrays moved between CuPy and cuPyNumeric inside a loop"
    message = (
        "{loop} moves arrays between CuPy and cuPyNumeric on every iteration ({crossings}); each hop "
        "copies through host memory and synchronises, so keep one runtime in the loop and convert "
        "once outside it (RR-one-runtime)"
    )
    short = "{loop} moves arrays between CuPy and cuPyNumeric (RR-one-runtime)"

    valid = (
        Valid(
            """
            import cupy as cp
            import cupynumeric as np
            a = np.ones(8)
            g = cp.asarray(a)
            for step in range(10):
                g = cp.sqrt(g) + 1.0
            a = np.asarray(cp.asnumpy(g))
            """
        ),
        Valid("""
            import cupy as cp
            x = cp.ones(4)
            for i in range(3):
                host = cp.asnumpy(x * i)
                print(host)
            """),
        Valid(
            """
            import cupy as cp
            import numpy as np
            results = [cp.ones(4) for _ in range(3)]
            saved = []
            for r in results:
                saved.append(cp.asnumpy(r))
            total = np.zeros(4)
            """
        ),
        Valid("""
            import cupy as cp
            import numpy as np
            for i in range(3):
                y = cp.arange(4) * 2
                z = cp.sum(y)
            """),
        Valid(
            """
            import cupy as cp
            import numpy as np
            chunks = np.array_split(np.arange(12.0), 3)
            parts = []
            for c in chunks:
                parts.append(cp.asarray(c))
            """
        ),
    )
    invalid = (
        # an optional CuPy import; what came back from CuPy goes back to it every step
        Invalid(
            """
            import numpy as np
            try:
                import cupy as cp
            except ImportError:
                cp = None
            def relax(u, k2, n_steps, dt):
                for step in range(n_steps):
                    lap = cp.asnumpy(cp.fft.ifft2(-k2 * cp.fft.fft2(cp.asarray(u))).real)
                    u = u + dt * lap
                return u
            """,
            line=8,
            contains="cp.asarray(u)",
        ),
        Invalid(
            """
            import cupy as cp
            import cupynumeric as np
            a = np.ones(8)
            b = np.ones(8)
            for step in range(5):
                x = np.add(a, b)
                y = cp.fft.fft(cp.asarray(x))
                a = np.asarray(cp.asnumpy(y.real))
            """,
            line=7,
            contains="cp.asarray(x)",
        ),
        Invalid(
            """
            import cupy as cp
            import numpy as np
            u = np.zeros(16)
            k = cp.ones(16)
            for it in range(100):
                g = cp.asarray(u) * k
                u = u + g.get()
            """,
            line=6,
            contains="g.get()",
        ),
        Invalid(
            """
            import cupy as cp
            import numpy as np
            state = np.ones(4)
            while True:
                d = cp.asarray(state)
                state = np.asarray(cp.asnumpy(d * 2))
                if state[0] > 100:
                    break
            """,
            line=5,
        ),
        # the round trip is in a helper the time loop calls
        Invalid(
            """
            import cupy as cp
            import numpy as np
            K = cp.ones(64)
            def spectral_step(u):
                g = cp.fft.ifft(cp.fft.fft(cp.asarray(u)) * K)
                return cp.asnumpy(g.real)
            u = np.random.rand(64)
            for t in range(100):
                u = u + 0.01 * spectral_step(u)
            """,
            line=5,
            contains="in 'spectral_step'",
        ),
        # what came back from CuPy goes back to it on the next iteration
        Invalid(
            """
            import cupy
            from cupy import asnumpy
            import numpy
            def relax(grid, iters):
                grid = numpy.asarray(grid, dtype=float)
                for it in range(iters):
                    d = cupy.array(grid)
                    d[1:-1] = 0.5 * (d[2:] + d[:-2])
                    grid = asnumpy(d)
                return grid
            """,
            line=7,
            contains="cupy.array(grid), asnumpy(d)",
        ),
        Invalid(
            """
            import cupy as cp
            import cupynumeric as np
            w = cp.ones(4)
            acc = np.zeros(4)
            for step in range(3):
                for part in range(2):
                    acc += np.asarray(cp.asnumpy(w * part))
                    w = cp.tanh(w)
            """,
            line=7,
            contains="loop 'for step in range(3)'",
        ),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy() or not model.imports.imports_any(*_CUPY_ROOTS):
            return
        for frame, crossings, helpers in _crossings_by_loop(model):
            directions = {c.direction for c in crossings}
            crossing_calls = {id(c.call) for c in crossings}
            numpy_op, cupy_op = _runtime_operations(model, frame, helpers, crossing_calls)
            if not (numpy_op and cupy_op) and len(directions) < 2:
                continue
            names = [_named(model, c) for c in crossings]
            listed = ", ".join(names[:_MAX_LISTED]) + (f" and {len(names) - _MAX_LISTED} more" if len(names) > _MAX_LISTED else "")
            first = crossings[0].call
            yield self.finding(
                first,
                in_loop=True,
                loop=describe_loop(model, frame),
                crossings=listed,
                data={"crossings": names, "loop_line": frame.line},
            )


def _crossings_by_loop(model: FileModel) -> list[tuple[LoopFrame, list[_Crossing], list[ast.AST]]]:
    """The crossings each outermost loop makes on every iteration: in its
    body, or in a function of the file the loop calls on every iteration
    (``spectral_step(u)`` converting to CuPy and back), with those functions."""
    groups: dict[int, tuple[LoopFrame, list[_Crossing], list[ast.AST]]] = {}
    for call in model.nodes(ast.Call):
        direction = _crossing_direction(model, call)
        if direction is None:
            continue
        frame = model.loop_of(call)
        helper = None
        if frame is None:
            found = model.calling_loop(call)
            if found is None:
                continue
            frame = found[0]
            helper = model.scope_of(call).function_like()
        frame = frame.outermost()  # nested loops are reported with their outermost loop
        _, crossings, helpers = groups.setdefault(id(frame), (frame, [], []))
        crossings.append(_Crossing(call, direction, helper.name if helper is not None else None))
        if helper is not None and not any(h is helper.node for h in helpers):
            helpers.append(helper.node)
    ordered = []
    for frame, crossings, helpers in groups.values():
        crossings.sort(key=lambda c: (c.function is not None, c.call.lineno, c.call.col_offset))
        ordered.append((frame, crossings, helpers))
    ordered.sort(key=lambda g: (g[1][0].call.lineno, g[1][0].call.col_offset))
    return ordered


def _named(model: FileModel, crossing: _Crossing) -> str:
    text = model.segment(crossing.call, 30)
    return f"{text} in '{crossing.function}'" if crossing.function else text


def _came_from_cupy(model: FileModel, expr: ast.expr | None) -> bool:
    """A name bound (on some path reaching here) to what came back from CuPy:
    converting it again is the second half of a round trip."""
    if not isinstance(expr, ast.Name):
        return False
    return any(
        isinstance(b.value, ast.Call) and _from_cupy(model, b.value) for b in model.reaching_bindings(expr)
    )


def _numpy_array(model: FileModel, expr: ast.expr | None) -> bool:
    """A NumPy array of the program: a device array, or in a NumPy file (no
    cupynumeric import) also the host NumPy arrays CuPy hands back
    (``lap = cp.asnumpy(...)``), which are the NumPy code's arrays there."""
    kind = model.kind(expr)
    return kind is Kind.DEVICE or (kind is Kind.HOST and model.device_root == "numpy")


def _crossing_direction(model: FileModel, call: ast.Call) -> str | None:
    first = call.args[0] if call.args else None
    if model.qualname(call.func) in _INTO_CUPY and (_numpy_array(model, first) or _came_from_cupy(model, first)):
        return TO_CUPY
    return FROM_CUPY if _from_cupy(model, call) else None


def _from_cupy(model: FileModel, call: ast.Call) -> bool:
    """``cp.asnumpy(y)``, ``y.get()`` or ``np.asarray(y)`` of a CuPy array."""
    func = call.func
    first = call.args[0] if call.args else None
    if model.qualname(func) == "cupy.asnumpy":
        return True
    if model.array_api(func) in _INTO_NUMPY and model.kind(first) is Kind.CUPY:
        return True
    return isinstance(func, ast.Attribute) and func.attr == "get" and not call.args and model.kind(func.value) is Kind.CUPY


def _runtime_operations(model: FileModel, frame: LoopFrame, helpers: list[ast.AST],
                        crossing_calls: set[int]) -> tuple[bool, bool]:
    """Does the loop (with the helpers it calls) compute with NumPy, and with
    CuPy, besides converting?"""
    numpy_op = cupy_op = False
    calls = model.nodes_in_loop(frame, ast.Call) + [n for h in helpers for n in walk(h) if isinstance(n, ast.Call)]
    operations = model.nodes_in_loop(frame, ast.BinOp) + [n for h in helpers for n in walk(h) if isinstance(n, ast.BinOp)]
    for call in calls:
        if id(call) in crossing_calls:
            continue
        runtime = _call_runtime(model, call)
        numpy_op |= runtime is Kind.DEVICE
        cupy_op |= runtime is Kind.CUPY
    for operation in operations:
        kind = model.kind(operation)
        numpy_op |= _numpy_array(model, operation)
        cupy_op |= kind is Kind.CUPY
    return numpy_op, cupy_op


def _call_runtime(model: FileModel, call: ast.Call) -> Kind | None:
    """Kind.DEVICE for a NumPy operation, Kind.CUPY for a CuPy one."""
    if model.call_api(call) is not None:
        return Kind.DEVICE
    qualname = model.qualname(call.func) or ""
    if qualname.split(".", 1)[0] in _CUPY_ROOTS:
        return Kind.CUPY
    if isinstance(call.func, ast.Attribute):
        receiver = model.kind(call.func.value)
        if receiver in (Kind.DEVICE, Kind.CUPY):
            return receiver
    return None

