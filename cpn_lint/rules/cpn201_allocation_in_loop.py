"""CPN201: a loop that allocates a buffer of the same shape on every iteration."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..model.hoisting import (
    escapes_iteration,
    hoist_frame,
    invariant_through_calls,
    kept_beyond_call,
    runs_every_call,
    runs_every_iteration,
)
from ._context import LoopContext, describe_loop, loop_context
from ..registry import Category, FixExample, Invalid, NoFix, Rule, Valid

# Fresh buffers: the API, the positional indexes and keywords that fix the
# result's shape and dtype (everything else, such as a fill value, may vary).
_BUFFERS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "zeros": ((0, 1), ("shape", "dtype")),
    "ones": ((0, 1), ("shape", "dtype")),
    "empty": ((0, 1), ("shape", "dtype")),
    "full": ((0, 2), ("shape", "dtype")),
    "zeros_like": ((0, 1), ("dtype", "shape")),
    "ones_like": ((0, 1), ("dtype", "shape")),
    "empty_like": ((0, 1), ("dtype", "shape")),
    "full_like": ((0, 2), ("dtype", "shape")),
}
# Constant arrays: with invariant arguments the loop rebuilds the same values.
_CONSTANTS = frozenset({"arange", "linspace", "eye", "identity"})
# Copies of an existing array.
_COPIES = frozenset({"copy", "array"})

_CALLEES = frozenset(_BUFFERS) | _CONSTANTS | _COPIES

ALLOCATION = "allocation"
COPY = "copy"


@dataclass(frozen=True)
class _Allocation:
    call: ast.Call
    kind: str  # ALLOCATION or COPY
    fixed: tuple[ast.AST, ...]  # what fixes the shape: must not change in the loop
    source: ast.expr | None = None  # the array copied, for COPY


class AllocationInLoop(Rule):
    """
    ## What it does
    Reports a call inside a `for` or `while` loop that makes a new array of a
    shape the loop never changes:

    * fresh buffers: `np.zeros`, `np.ones`, `np.empty`, `np.full` and their
      `_like` forms, and constant arrays (`np.arange`, `np.linspace`,
      `np.eye`, `np.identity`) built from unchanging arguments;
    * copies of an array: `u.copy()`, `np.copy(u)`, `np.array(u)` — typically
      the "previous state" of a time-stepping loop, `un = u.copy()`.

    The shape counts as unchanging when nothing it is computed from (`n`,
    `a.shape`, the array copied) is rebound inside the loop; arrays that
    the loop only swaps with buffers of their own shape (`u, un = un, u`)
    keep their shape. The finding is at the call and names the outermost
    loop the allocation could move before.

    An allocation in a helper function counts too when a loop of the same
    file calls the helper on every iteration with arguments of unchanging
    shape (`b = np.zeros_like(u)` in `build_up_b(u, ...)`, called every time
    step): the message names the helper and the loop.

    ## Why it does not scale on cuPyNumeric
    Every new array is a request to the Legate runtime's allocator for
    device memory (framebuffer memory on a GPU), and every discarded one is
    a release that can only happen once the tasks still using it are done.
    Repeated once per iteration, that churn costs allocator round trips,
    fragments the memory pool and adds short-lived tasks, while one buffer
    made before the loop would have served every iteration.

    ## Example
    ```python
    import numpy as np

    def advect(u: np.ndarray, c: float, steps: int):
        for step in range(steps):
            un = u.copy()
            u[1:] = un[1:] - c * (un[1:] - un[:-1])
        return u
    ```

    ## Use instead
    Allocate once before the loop and refill the buffer in place (recipe
    RR-alloc):
    ```python
    def advect(u: np.ndarray, c: float, steps: int):
        un = np.empty_like(u)
        for step in range(steps):
            np.copyto(un, u)
            u[1:] = un[1:] - c * (un[1:] - un[:-1])
        return u
    ```
    When the loop computes a new state from the old one, keep two buffers
    and swap them (`u, un = un, u`) after writing the new state with `out=`.
    A helper that allocates its result can take the buffer as a parameter
    and fill it with `out=`.

    ## Known false alarms
    * Not reported: allocations made before the loop; shapes that depend on
      the loop variable or on anything rebound in the loop (in a helper: on
      what a call site passes, unless that is unchanging in the calling
      loop); helpers no loop of the file calls, or that are also passed
      around as values (their other callers are unknown); allocations only
      loops over a few axes or taps repeat; random draws (a fresh sample per
      step is the point of a Monte Carlo loop, and drawing every step's
      numbers at once multiplies the memory by the number of steps); `np.array` of a list or tuple literal (a handful
      of constants, not a copy of an array); allocations kept beyond their
      iteration (appended to a list, stored in a dict or an attribute,
      yielded); allocations in a branch that runs rarely (lazy
      initialisation `if buf is None:`, every N steps `if step % N == 0:`,
      the first iteration `if it == 0:`, a branch that ends in `break` or
      `return`, an `except` handler); copies of values not known to be
      arrays.
    * A buffer the loop body hands to code that keeps a reference to it
      cannot simply be reused; suppress with `# noqa: CPN201`.
    """

    code = "CPN201"
    slug = "allocation-in-loop"
    category = Category.REFACTOR
    recipe = "RR-alloc"
    summary = "Array allocated with the same shape on every loop iteration"
    message = "{call} {what} {where} though its shape never changes; {fix} (RR-alloc)"
    short = "{call} allocates every iteration: allocate once before the loop (RR-alloc)"

    valid = (
        # a sweep over a few settings named once: not a hot loop
        Valid("""
            import numpy as np
            steps = [1000, 250, 100, 50]
            stations = [0, 4, 10, 20]
            for step, count in zip(steps, stations):
                cells = np.zeros(step * (count + 1))
                print(cells.sum())
            """),
        # hoisted before the loop, refilled with out=
        Valid(
            """
            import numpy as np
            n = 100
            temp = np.zeros(n)
            arr = np.ones(n)
            for step in range(50):
                np.multiply(arr, 0.5, out=temp)
                arr, temp = temp, arr
            """
        ),
        # shape depends on the loop variable
        Valid("""
            import numpy as np
            for k in range(1, 20):
                block = np.zeros((k, k))
                block[0, 0] = k
            """),
        # shape depends on a value rebound in the loop
        Valid(
            """
            import numpy as np
            def roots(paths):
                for path in paths:
                    data = np.load(path)
                    out = np.empty_like(data)
                    np.sqrt(data, out=out)
            """
        ),
        # kept beyond the iteration: a list of distinct buffers
        Valid("""
            import numpy as np
            layers = []
            for i in range(10):
                w = np.zeros((64, 64))
                layers.append(w)
            """),
        # the helper's allocation depends on what each call passes, which changes
        Valid(
            """
            import numpy as np
            def padded(u):
                tmp = np.zeros(u.shape[0] + 2)
                tmp[1:-1] = u
                return tmp
            u = np.ones(10)
            for t in range(100):
                u = padded(u)
            """
        ),
        # a fresh random sample every step is not a hoistable buffer
        Valid("""
            import numpy as np
            x = np.zeros(1000)
            for t in range(500):
                x += 0.1 * np.random.randn(1000)
            """),
        # small constants, lazy initialisation, and a loop over three axes
        Valid(
            """
            import numpy as np
            buf = None
            grid = np.ones((8, 8, 8))
            for t in range(100):
                w = np.array([0.25, 0.5, 0.25])
                if buf is None:
                    buf = np.empty_like(grid)
            for axis in range(3):
                tmp = np.zeros(8)
            """
        ),
        # the random draw has no size (one number) or is written into a buffer
        Valid(
            """
            import numpy as np
            rng = np.random.default_rng(0)
            buf = np.empty(100)
            for t in range(100):
                jitter = rng.normal()
                rng.random(out=buf)
            """
        ),
    )
    invalid = (
        # the list of settings grows, so the loop is not known to be short
        Invalid("""
            import numpy as np
            sizes = [1000, 250]
            for extra in range(50):
                sizes.append(extra)
            for size in sizes:
                cells = np.zeros(256)
                cells[:] = size
            """, line=6),
        Invalid(
            """
            import numpy as np
            n = 100
            arr = np.ones(n)
            for step in range(50):
                temp = np.zeros(n)
                temp[:] = arr * 0.5
                arr = temp
            """,
            line=5,
            contains="np.zeros(n)",
        ),
        Invalid(
            """
            import numpy as np
            def advect(u: np.ndarray, c, steps):
                for step in range(steps):
                    un = u.copy()
                    u[1:] = un[1:] - c * (un[1:] - un[:-1])
                return u
            """,
            line=4,
            contains="swap",
        ),
        Invalid(
            """
            import numpy as np
            u = np.zeros((32, 32))
            while u.max() < 10.0:
                grad = np.zeros(u.shape)
                grad[1:] = u[:-1] + 1.0
                u += grad
            """,
            line=4,
            contains="'while' loop",
        ),
        Invalid(
            """
            import numpy as np
            def step(u):
                tmp = np.zeros_like(u)
                tmp[1:] = u[:-1]
                return tmp
            u = np.ones(10)
            for t in range(100):
                u = step(u)
            """,
            line=3,
            contains="in 'step', called on every iteration of loop 'for t in range(100)' (line 7)",
        ),
        Invalid(
            """
            import numpy as np
            arr = np.ones(64)
            for step in range(10):
                temp = np.zeros_like(arr)
                np.multiply(arr, 0.9, out=temp)
                arr = temp
            """,
            line=4,
        ),
        Invalid(
            """
            import numpy as np
            field = np.ones((16, 16))
            for epoch in range(3):
                for batch in range(100):
                    grad = np.empty((16, 16))
                    np.subtract(field, 1.0, out=grad)
            """,
            line=5,
            contains="for epoch in range(3)",
        ),
    )

    fix_note = (
        "`cpn-lint fix` moves the allocation before the loop when nothing it reads is rebound in the loop "
        "(in-place updates aside), the name is bound nowhere else and nothing in the loop keeps the buffer "
        "(another name, a container, a callee that may keep it): zeros, ones and fill-value arrays the loop "
        "never writes into, and any new buffer whose every element the statements right after it write "
        "(`t[:] = ...`, `out=t`, `np.copyto(t, ...)`, `t.fill(v)`) before anything reads it. A copy "
        "`un = u.copy()` becomes `un = np.empty_like(u)` before the loop and `np.copyto(un, u)` in it. "
        "Allocations in helpers, buffers kept across iterations (`arr = temp`) and buffers written in parts are "
        "left."
    )
    fix_examples = (
        FixExample(
            """
            import numpy as np
            def advect(u, c, steps):
                u = np.asarray(u, dtype=float)
                for step in range(steps):
                    un = u.copy()
                    u[1:] = un[1:] - c * (un[1:] - un[:-1])
                return u
            """,
            """
            import numpy as np
            def advect(u, c, steps):
                u = np.asarray(u, dtype=float)
                un = np.empty_like(u)
                for step in range(steps):
                    np.copyto(un, u)
                    u[1:] = un[1:] - c * (un[1:] - un[:-1])
                return u
            """,
        ),
        FixExample(
            """
            import numpy as np
            forces = np.ones(64)
            positions = np.zeros(64)
            for step in range(100):
                velocity = np.zeros_like(positions)
                np.multiply(forces, 0.05, out=velocity)
                positions += velocity
            """,
            """
            import numpy as np
            forces = np.ones(64)
            positions = np.zeros(64)
            velocity = np.zeros_like(positions)
            for step in range(100):
                np.multiply(forces, 0.05, out=velocity)
                positions += velocity
            """,
        ),
        FixExample(
            """
            import numpy as np
            weights = np.ones((8, 8))
            for epoch in range(3):
                for batch in range(100):
                    decay = np.full(weights.shape, 0.99)
                    weights *= decay
            """,
            """
            import numpy as np
            weights = np.ones((8, 8))
            decay = np.full(weights.shape, 0.99)
            for epoch in range(3):
                for batch in range(100):
                    weights *= decay
            """,
        ),
        NoFix(
            """
            import numpy as np
            n = 100
            arr = np.ones(n)
            for step in range(50):
                temp = np.zeros(n)
                temp[:] = arr * 0.5
                arr = temp
            """,
            "may be kept beyond the iteration",
        ),
        NoFix(
            """
            import numpy as np
            u = np.zeros((32, 32))
            for t in range(100):
                grad = np.zeros(u.shape)
                grad[1:] = u[:-1] + 1.0
                u += grad
            """,
            "before every element is written",
        ),
        NoFix(
            """
            import numpy as np
            def step(u):
                tmp = np.zeros_like(u)
                tmp[1:] = u[:-1]
                return tmp
            u = np.ones(10)
            for t in range(100):
                u = step(u)
            """,
            "in a helper the loop calls",
        ),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy():
            return
        for call in model.nodes(ast.Call):
            inner = model.loop_of(call)
            if inner is not None and inner.is_comprehension:
                continue
            allocation = _allocation(model, call)
            if allocation is None or not _used_per_iteration(model, call):
                continue
            target = _assigned_name(model, call)
            statement = model.statement_of(call)
            if statement is None:
                continue
            if inner is not None:
                frame = hoist_frame(model, call, allocation.fixed, shape_only=True)
                if frame is None or not runs_every_iteration(model, statement, frame, target):
                    continue
                if escapes_iteration(model, call, frame):
                    continue
                where = f"on every iteration of {describe_loop(model, frame)}"
                data = {"kind": allocation.kind, "loop_line": frame.line}
            else:
                context = loop_context(model, call)
                if context is None or context.call is None or not _repeated_by(model, call, context, allocation, target):
                    continue
                frame = context.loop
                where = f"in '{context.function}', called on every iteration of {describe_loop(model, frame)}"
                data = {"kind": allocation.kind, "loop_line": frame.line, "through_call": True}
            yield self.finding(
                call,
                in_loop=True,
                call=model.segment(call, 40),
                what=_WHAT[allocation.kind],
                where=where,
                fix=_fix(model, allocation, target, through_call=inner is None),
                data=data,
            )


def _repeated_by(model: FileModel, call: ast.Call, context: LoopContext, allocation: _Allocation, target: str | None) -> bool:
    """A helper's allocation that its calling loop repeats with the same
    shape on every iteration, kept no longer than one call."""
    statement = model.statement_of(call)
    site = model.statement_of(context.call) if context.call is not None else None
    if statement is None or site is None or not runs_every_call(model, statement, target):
        return False
    if not runs_every_iteration(model, site, context.loop) or not invariant_through_calls(model, call, allocation.fixed, shape_only=True):
        return False
    return not kept_beyond_call(model, call)


_WHAT = {
    ALLOCATION: "allocates a new array",
    COPY: "copies into a new array",
}


def _allocation(model: FileModel, call: ast.Call) -> _Allocation | None:
    func = call.func
    callee = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if callee not in _CALLEES or any(k.arg == "out" for k in call.keywords):
        return None  # cheap tests before resolving the name through the imports
    api = model.call_api(call)
    if api in _BUFFERS:
        positions, keywords = _BUFFERS[api]
        fixed = [call.args[i] for i in positions if i < len(call.args)]
        fixed += [k.value for k in call.keywords if k.arg in keywords]
        if not fixed:
            return None
        return _Allocation(call, ALLOCATION, tuple(fixed))
    if api in _CONSTANTS:
        if not call.args:
            return None
        return _Allocation(call, ALLOCATION, tuple(call.args) + tuple(call.keywords))
    if api in _COPIES:
        return _copy(model, call, call.args[0] if call.args else None)
    if isinstance(func, ast.Attribute) and func.attr == "copy" and not call.args and model.is_array(func.value):
        return _copy(model, call, func.value)
    return None


def _copy(model: FileModel, call: ast.Call, source: ast.expr | None) -> _Allocation | None:
    if source is None or not model.is_array(source):
        return None  # np.array([1.0, 2.0]): a few constants, not a copy of an array
    if any(k.arg == "copy" and isinstance(k.value, ast.Constant) and k.value.value is not True for k in call.keywords):
        return None  # np.array(a, copy=False) does not copy
    return _Allocation(call, COPY, (source,) + tuple(k.value for k in call.keywords), source)


def _used_per_iteration(model: FileModel, call: ast.Call) -> bool:
    """The buffer or copy is assigned to a name (not built into an expression)."""
    parent = model.parent(call)
    return isinstance(parent, ast.Assign) and parent.value is call and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)


def _assigned_name(model: FileModel, call: ast.Call) -> str | None:
    parent = model.parent(call)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        return parent.targets[0].id
    return None


def _fix(model: FileModel, allocation: _Allocation, target: str | None, through_call: bool = False) -> str:
    if through_call:
        return "allocate it once before the loop and pass it in (out=)"
    if allocation.kind == COPY and target is not None and allocation.source is not None:
        source = model.segment(allocation.source, 24)
        return (
            f"allocate '{target}' once before the loop and refresh it in place (np.copyto({target}, {source})), "
            f"or keep two buffers and swap them ({source}, {target} = {target}, {source})"
        )
    name = f"'{target}'" if target else "it"
    return f"allocate {name} once before the loop and reuse it (out=, or swap two buffers)"
