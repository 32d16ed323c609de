"""CPN111: data crossing between CuPy and cuPyNumeric/NumPy inside a loop."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, Kind, LoopFrame
from ..registry import Category, Invalid, Rule, Valid
from ._context import describe_loop

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


class CupyMixedInLoop(Rule):
    """
    ## What it does
    Reports a loop whose body moves arrays between CuPy and cuPyNumeric (or
    the NumPy code about to become cuPyNumeric): `cp.asarray(x)` or
    `cp.array(x)` of a NumPy array, `cp.asnumpy(y)` or `y.get()` of a CuPy
    array, `np.asarray(y)` of a CuPy array. It is reported when the loop also
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
        for frame in model.loops:
            if frame.parent is not None:
                continue  # nested loops are reported with their outermost loop
            crossings = _crossings(model, frame)
            if not crossings:
                continue
            directions = {c.direction for c in crossings}
            crossing_calls = {id(c.call) for c in crossings}
            numpy_op, cupy_op = _runtime_operations(model, frame, crossing_calls)
            if not (numpy_op and cupy_op) and len(directions) < 2:
                continue
            names = [model.segment(c.call, 30) for c in crossings]
            listed = ", ".join(names[:_MAX_LISTED]) + (f" and {len(names) - _MAX_LISTED} more" if len(names) > _MAX_LISTED else "")
            first = crossings[0].call
            yield self.finding(
                first,
                in_loop=True,
                loop=describe_loop(model, frame),
                crossings=listed,
                data={"crossings": names, "loop_line": frame.line},
            )


def _crossings(model: FileModel, frame: LoopFrame) -> list[_Crossing]:
    found: list[_Crossing] = []
    for call in model.nodes_in_loop(frame, ast.Call):
        direction = _crossing_direction(model, call)
        if direction is not None:
            found.append(_Crossing(call, direction))
    found.sort(key=lambda c: (c.call.lineno, c.call.col_offset))
    return found


def _crossing_direction(model: FileModel, call: ast.Call) -> str | None:
    func = call.func
    first = call.args[0] if call.args else None
    qualname = model.qualname(func)
    if qualname in _INTO_CUPY and model.is_array(first):
        return TO_CUPY
    if qualname == "cupy.asnumpy":
        return FROM_CUPY
    if model.array_api(func) in _INTO_NUMPY and model.kind(first) is Kind.CUPY:
        return FROM_CUPY
    if isinstance(func, ast.Attribute) and func.attr == "get" and not call.args and model.kind(func.value) is Kind.CUPY:
        return FROM_CUPY
    return None


def _runtime_operations(model: FileModel, frame: LoopFrame, crossing_calls: set[int]) -> tuple[bool, bool]:
    """Does the loop compute with NumPy, and with CuPy, besides converting?"""
    numpy_op = cupy_op = False
    for call in model.nodes_in_loop(frame, ast.Call):
        if id(call) in crossing_calls:
            continue
        runtime = _call_runtime(model, call)
        numpy_op |= runtime is Kind.DEVICE
        cupy_op |= runtime is Kind.CUPY
    for operation in model.nodes_in_loop(frame, ast.BinOp):
        kind = model.kind(operation)
        numpy_op |= kind is Kind.DEVICE
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

