"""CPN201: a loop that allocates a buffer of the same shape on every iteration."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, LoopFrame, numpy_api
from ..model.hoisting import (
    escapes_iteration,
    hoist_frame,
    invariant_through_calls,
    kept_beyond_call,
    own_state_target,
    runs_every_call,
    runs_every_iteration,
    state_kept_elsewhere,
)
from ..model.syntax import positional_or_keyword
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
# Arrays whose values, not only their shape, are fixed by their arguments:
# built inline (``np.kron(A, np.ones((3, 3)))``) with unchanging arguments,
# the loop rebuilds the same constant every iteration. ``empty`` is left
# out: its values are whatever the memory held.
_CONSTANT_VALUES = frozenset({"zeros", "ones", "full", "zeros_like", "ones_like", "full_like"}) | _CONSTANTS
# The _like forms take their shape from the first argument: only its shape
# must not change.
_LIKE = frozenset({"zeros_like", "ones_like", "full_like"})

# Random draws with a size: a new array of that shape.
_DRAWS = (frozenset(numpy_api.RANDOM_SIZE_POSITION) | numpy_api.RANDOM_DIMS_AS_ARGS) - numpy_api.RANDOM_VECTOR_DRAWS

ALLOCATION = "allocation"
COPY = "copy"
DRAW = "draw"
CONSTANT = "constant"


@dataclass(frozen=True)
class _Allocation:
    call: ast.Call
    kind: str  # ALLOCATION, COPY, DRAW or CONSTANT
    fixed: tuple[ast.AST, ...]  # what fixes the shape: must not change in the loop
    source: ast.expr | None = None  # the array copied, for COPY
    values: tuple[ast.AST, ...] = ()  # for CONSTANT: what fixes the values, which must not change either


class AllocationInLoop(Rule):
    """
    ## What it does
    Reports a call inside a `for` or `while` loop that makes a new array of a
    shape the loop never changes:

    * fresh buffers: `np.zeros`, `np.ones`, `np.empty`, `np.full` and their
      `_like` forms, and constant arrays (`np.arange`, `np.linspace`,
      `np.eye`, `np.identity`) built from unchanging arguments;
    * copies of an array: `u.copy()`, `np.copy(u)`, `np.array(u)` — typically
      the "previous state" of a time-stepping loop, `un = u.copy()`, also
      when a buffer for it was made before the loop;
    * random draws with a size (`z = np.random.randn(n_paths)`,
      `z = rng.normal(0.0, 1.0, size=n)`, also inside an expression:
      `s *= np.exp(vol * rng.normal(0.0, 1.0, size=n))`): a new array of
      the same shape every step of a Monte-Carlo loop;
    * constant arrays built inside an expression from unchanging arguments
      (`np.kron(A, np.ones((3, 3)))`, `A + lam * np.eye(n)`): the loop
      rebuilds the same values every iteration.

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
    A per-step random draw becomes one draw of many steps before the loop
    (`z = rng.normal(size=(n_steps, n_paths))`, row `z[t]` in the loop), or
    one per block of steps when all of them would not fit; cuPyNumeric
    26.6.1 fills a buffer in place only for uniforms (`rng.random(out=buf)`).
    A helper that allocates its result can take the buffer as a parameter
    and fill it with `out=`.

    ## Known false alarms
    * Not reported: allocations made before the loop; shapes that depend on
      the loop variable or on anything rebound in the loop (in a helper: on
      what a call site passes, unless that is unchanging in the calling
      loop); helpers no loop of the file calls, or that are also passed
      around as values (their other callers are unknown); allocations only
      loops over a few axes or taps repeat; draws without a size (one
      number) and draws used inside an expression (`x += s * np.random.randn(n)`,
      a temporary like any other operand); `np.array` of a list or tuple literal (a handful
      of constants, not a copy of an array); allocations kept beyond their
      iteration (appended to a list, stored in a dict or an attribute,
      yielded; an attribute of the object a method runs on counts as
      replaced, not kept, when the loop refreshes one object and the class
      hands that attribute to nothing else); allocations in a branch that runs rarely (lazy
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
    message = "{call} {what} {where} though its {invariant} never changes; {fix} (RR-alloc)"
    short = "{call} {brief} (RR-alloc)"

    valid = (
        # one number drawn and converted at once is a number, not an array kept
        Valid("""
            import numpy as np
            x = 0.0
            for k in range(100):
                u = float(np.random.rand(1))
                x = x + (u - 0.5)
            """),
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
        # an empty start that the loop grows (the growth is CPN203's)
        Valid("""
            import numpy as np
            for epoch in range(10):
                pred = np.zeros((0, 10))
                for b in range(5):
                    pred = np.vstack([pred, np.ones((2, 10))])
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
        # constants whose values change every iteration, or built for a host call
        Valid("""
            import numpy as np
            u = np.ones(64)
            for t in range(100):
                u = u + np.full(64, 0.1 * t)
                print(np.zeros(3))
            """),
        # each object keeps its own copy; the class hands the state on
        Valid(
            """
            import numpy as np
            class Body:
                def __init__(self, n):
                    self.x = np.zeros(n)
                    self.history = []
                def save(self):
                    self.x_old = self.x.copy()
                    self.history.append(self.x_old)
            bodies = [Body(3) for _ in range(100)]
            for body in bodies:
                body.x_old = body.x.copy()
            for t in range(100):
                bodies[0].save()
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
        # a per-step draw of the same shape (the Monte-Carlo case study)
        # a draw used inside an expression is a new array every step too (SPEC §4 R201)
        Invalid("""
            import numpy as np
            x = np.zeros(1000)
            for t in range(500):
                x += 0.1 * np.random.randn(1000)
            """, line=4, contains="np.random.randn(1000)"),
        Invalid("""
            import numpy as np
            rng = np.random.default_rng(0)
            s = np.ones(100)
            for step in range(50):
                s *= np.exp(0.1 * rng.normal(0.0, 1.0, size=100))
            """, line=5, contains="rng.normal"),
        Invalid("""
            import numpy as np
            def price(s0, n_paths, n_steps, dt):
                paths = np.zeros((n_paths, n_steps + 1))
                paths[:, 0] = s0
                for t in range(1, n_steps + 1):
                    z = np.random.randn(n_paths)
                    paths[:, t] = paths[:, t - 1] * np.exp(0.2 * dt + 0.3 * z)
                return paths
            """, line=6, contains="draws into a new array"),
        Invalid("""
            import numpy as np
            rng = np.random.default_rng(1)
            x = np.zeros(1000)
            for t in range(500):
                kick = rng.normal(0.0, 0.1, size=x.shape)
                x += kick
            """, line=5, contains="many steps at once"),
        # the copy refreshes a buffer that already exists
        Invalid("""
            import numpy as np
            def poisson(p, b, nit):
                pn = np.empty_like(p)
                for q in range(nit):
                    pn = p.copy()
                    p[1:-1, 1:-1] = 0.25 * (pn[1:-1, 2:] + pn[1:-1, :-2] + b[1:-1, 1:-1])
                return p
            """, line=5),
        # the object's own state replaced by a copy on every step
        Invalid(
            """
            import numpy as np
            class Wave:
                def __init__(self, n):
                    self.u = np.zeros((n, n))
                    self.u_prev = np.zeros((n, n))
                def step(self):
                    self.u_prev = self.u.copy()
                    self.u[1:-1] = 0.5 * (self.u_prev[2:] + self.u_prev[:-2])
                def run(self, steps):
                    for t in range(steps):
                        self.step()
            """,
            line=7,
            contains="np.copyto(self.u_prev, self.u)",
        ),
        # a constant built inline from unchanging arguments
        Invalid("""
            import numpy as np
            A = np.ones((4, 4))
            for s in range(100):
                A = 0.5 * np.kron(A, np.ones((3, 3)))[:4, :4]
            """, line=4, contains="np.ones((3, 3)) rebuilds the same constant array"),
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
            state = own_state_target(model, call)
            if _used_per_iteration(model, call) or state is not None:
                allocation = _allocation(model, call)
            else:
                # a constant built inside an expression, or a draw used in
                # one (``s * np.exp(vol * rng.normal(0, 1, size=n))``,
                # ``rng.random((n, n)) < p``): a new array every iteration
                allocation = _inline_constant(model, call) or _inline_draw(model, call)
            if allocation is None:
                continue
            target = _assigned_name(model, call)
            statement = model.statement_of(call)
            if statement is None:
                continue
            if inner is not None:
                frame = _hoist_frame(model, allocation)
                if frame is None or not runs_every_iteration(model, statement, frame, target):
                    continue
                if _escapes(model, call, frame, state):
                    continue
                where = f"on every iteration of {describe_loop(model, frame)}"
                data = {"kind": allocation.kind, "loop_line": frame.line}
            else:
                context = loop_context(model, call)
                if context is None or context.call is None or not _repeated_by(model, call, context, allocation, target, state):
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
                invariant="value" if allocation.kind == CONSTANT else "shape",
                brief=_BRIEF[allocation.kind],
                fix=_fix(model, allocation, target, through_call=inner is None, state=state),
                data=data,
            )


def _escapes(model: FileModel, call: ast.Call, frame: LoopFrame, state: ast.Attribute | None) -> bool:
    """Is the new array kept beyond its iteration? ``self.u_prev = u.copy()``
    replaces the object's own state each time: kept only when the class
    hands that state on, or the loop changes which object ``self`` is."""
    if state is None:
        return escapes_iteration(model, call, frame)
    return state_kept_elsewhere(model, state) or hoist_frame(model, call, [state.value]) is None


def _same_object_each_call(model: FileModel, context: LoopContext) -> bool:
    """``self.step()`` or ``sim.step()`` with ``sim`` unchanged in the loop:
    every call refreshes the state of one object."""
    func = context.call.func if context.call is not None else None
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return False
    return hoist_frame(model, context.call, [func.value]) is not None


def _repeated_by(model: FileModel, call: ast.Call, context: LoopContext, allocation: _Allocation, target: str | None,
                 state: ast.Attribute | None = None) -> bool:
    """A helper's allocation that its calling loop repeats with the same
    shape on every iteration, kept no longer than one call."""
    statement = model.statement_of(call)
    site = model.statement_of(context.call) if context.call is not None else None
    if statement is None or site is None or not runs_every_call(model, statement, target):
        return False
    if not runs_every_iteration(model, site, context.loop) or not invariant_through_calls(model, call, allocation.fixed, shape_only=True):
        return False
    if allocation.values and not invariant_through_calls(model, call, allocation.values):
        return False
    if allocation.kind == DRAW and any(_made_in_function(model, v) for v in allocation.values):
        return False  # a generator the helper makes on each call: each call draws a stream of its own
    if escapes_iteration(model, context.call, context.loop):
        return False  # the caller keeps each result (self.centroid = step(...)): a new one per call is needed
    if state is not None:
        return _same_object_each_call(model, context) and not state_kept_elsewhere(model, state)
    return not kept_beyond_call(model, call)


def _made_in_function(model: FileModel, value: ast.AST) -> bool:
    """Is ``value`` a name the enclosing function binds itself (not a parameter)?"""
    if not isinstance(value, ast.Name):
        return False
    scope = model.lookup(value)
    if scope is None or scope is not model.scope_of(value).function_like() or scope is model.module_scope:
        return False
    return value.id not in getattr(scope, "params", ())


def _hoist_frame(model: FileModel, allocation: _Allocation) -> LoopFrame | None:
    """The outermost loop in which the allocation's shape (and, for a
    constant, its values) never change, when that loop is hot."""
    frame = hoist_frame(model, allocation.call, allocation.fixed, shape_only=True)
    if frame is None or not allocation.values:
        return frame
    by_value = hoist_frame(model, allocation.call, allocation.values)
    if by_value is None:
        return None
    return by_value if frame.contains(by_value) else frame


_BRIEF = {
    ALLOCATION: "allocates every iteration: allocate once before the loop",
    COPY: "allocates every iteration: allocate once before the loop",
    DRAW: "draws a new array every iteration: draw many steps at once",
    CONSTANT: "rebuilds a constant every iteration: build it once before the loop",
}
_WHAT = {
    ALLOCATION: "allocates a new array",
    COPY: "copies into a new array",
    DRAW: "draws into a new array",
    CONSTANT: "rebuilds the same constant array",
}


def _allocation(model: FileModel, call: ast.Call) -> _Allocation | None:
    func = call.func
    callee = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if any(k.arg == "out" for k in call.keywords):
        return None
    if callee not in _CALLEES:
        return _draw(model, call) if callee in _DRAWS else None  # cheap tests before resolving the name
    api = model.call_api(call)
    if api in _BUFFERS:
        positions, keywords = _BUFFERS[api]
        fixed = [call.args[i] for i in positions if i < len(call.args)]
        fixed += [k.value for k in call.keywords if k.arg in keywords]
        if not fixed:
            return None
        literal = model.literal_shape(call)
        if literal is not None and 0 in literal:
            return None  # np.zeros((0, 10)): an empty start, no buffer to reuse
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


def _draw(model: FileModel, call: ast.Call) -> _Allocation | None:
    """A random draw with a size (``np.random.randn(n)``,
    ``rng.normal(0, 1, size=n)``): a new array of that shape. The size, not
    the distribution's parameters, fixes the shape; without one the draw is
    one number."""
    name = model.draw_name(call)
    if name is None:
        return None
    if name in numpy_api.RANDOM_DIMS_AS_ARGS:
        fixed = tuple(call.args)
    elif name in numpy_api.RANDOM_SIZE_POSITION and name not in numpy_api.RANDOM_VECTOR_DRAWS:
        size = positional_or_keyword(call, numpy_api.RANDOM_SIZE_POSITION[name], "size")
        fixed = () if size is None or (isinstance(size, ast.Constant) and size.value is None) else (size,)
    else:
        return None  # permutations and shuffles reorder data; vector draws have dimensions of their own
    if not fixed or _one_number_taken(model, call, fixed):
        return None
    # A generator made anew in the loop (one seed per iteration) draws
    # different streams: its draws cannot move before the loop.
    generator = (call.func.value,) if isinstance(call.func, ast.Attribute) and model.qualname(call.func) is None else ()
    return _Allocation(call, DRAW, fixed + tuple(k.value for k in call.keywords if k.arg == "dtype"), values=generator)


def _one_number_taken(model: FileModel, call: ast.Call, size: tuple[ast.expr, ...]) -> bool:
    """``float(np.random.rand(1))``: one number drawn and converted at once,
    a draw of a number (like ``np.random.rand()``), not an array kept."""
    if len(size) != 1 or model.const_int(size[0]) != 1:
        return False
    parent = model.parent(call)
    return isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in ("float", "int", "complex") \
        and parent.args == [call] and model.is_builtin(parent.func)


def _inline_draw(model: FileModel, call: ast.Call) -> _Allocation | None:
    func = call.func
    callee = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if callee not in _DRAWS or any(k.arg == "out" for k in call.keywords):
        return None
    return _draw(model, call)


def _inline_constant(model: FileModel, call: ast.Call) -> _Allocation | None:
    """A constant array built inside an expression (``np.kron(A, np.ones((3, 3)))``,
    ``A + lam * np.eye(n)``): an operand of arithmetic or of a NumPy call.
    Its shape and its values come from its arguments alone."""
    func = call.func
    callee = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if callee not in _CONSTANT_VALUES or not call.args or any(k.arg == "out" for k in call.keywords):
        return None
    parent = model.parent(call)
    consumer = model.call_api(parent) if isinstance(parent, ast.Call) and parent.func is not call else None
    if not (isinstance(parent, ast.BinOp) or (consumer is not None and not numpy_api.is_internal_api(consumer))):
        return None  # np.testing.assert_equal(r, np.zeros(0)), print(np.ones(3)): not array work
    api = model.call_api(call)
    if api not in _CONSTANT_VALUES:
        return None
    shape = model.shape(call)
    if shape is not None and (not shape or 0 in shape):
        return None  # a 0-d or an empty array: no buffer to speak of
    arguments = list(call.args) + [k.value for k in call.keywords]
    if api in _LIKE:
        return _Allocation(call, CONSTANT, (arguments[0],), values=tuple(arguments[1:]))
    return _Allocation(call, CONSTANT, (), values=tuple(arguments))


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


def _fix(model: FileModel, allocation: _Allocation, target: str | None, through_call: bool = False,
         state: ast.Attribute | None = None) -> str:
    if state is not None and allocation.kind == COPY and allocation.source is not None:
        held = model.segment(state, 24)
        return f"make '{held}' once (in __init__) and refresh it in place (np.copyto({held}, {model.segment(allocation.source, 24)}))"
    if allocation.kind == CONSTANT:
        return "build it once before the loop and reuse it"
    if allocation.kind == DRAW:
        return (
            "draw the numbers of many steps at once before the loop (a leading steps axis, one row per step) "
            "or in blocks of steps"
        )
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
