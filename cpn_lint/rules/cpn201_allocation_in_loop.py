"""CPN201: a loop that allocates a buffer of the same shape on every iteration."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, Kind
from ..model.hoisting import escapes_iteration, hoist_frame, runs_every_iteration
from ._context import describe_loop
from ..registry import Category, Invalid, Rule, Valid

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
# Random draws: the position of the `size` argument (None: every positional
# argument is a dimension, as in np.random.rand(d0, d1)).
_DRAWS: dict[str, int | None] = {
    "rand": None, "randn": None,
    "random": 0, "random_sample": 0, "ranf": 0, "sample": 0, "standard_normal": 0,
    "standard_exponential": 0, "standard_cauchy": 0,
    "exponential": 1, "poisson": 1, "standard_gamma": 1, "chisquare": 1, "standard_t": 1,
    "geometric": 1, "rayleigh": 1, "weibull": 1, "pareto": 1, "power": 1, "choice": 1,
    "normal": 2, "uniform": 2, "randint": 2, "integers": 2, "lognormal": 2, "laplace": 2,
    "logistic": 2, "gumbel": 2, "binomial": 2, "beta": 2, "gamma": 2,
}

_CALLEES = frozenset(_BUFFERS) | _CONSTANTS | _COPIES | frozenset(_DRAWS)

ALLOCATION = "allocation"
COPY = "copy"
DRAW = "draw"


@dataclass(frozen=True)
class _Allocation:
    call: ast.Call
    kind: str  # ALLOCATION, COPY or DRAW
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
      the "previous state" of a time-stepping loop, `un = u.copy()`;
    * random draws of a fixed size: `np.random.randn(n)`,
      `rng.normal(size=n)`, `rng.random((n, m))`.

    The shape counts as unchanging when nothing it is computed from (`n`,
    `a.shape`, the array copied) is rebound inside the loop; arrays that
    the loop only swaps with buffers of their own shape (`u, un = un, u`)
    keep their shape. The finding is at the call and names the outermost
    loop the allocation could move before.

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
    For random numbers, draw every iteration's values in one call before the
    loop (`noise = rng.normal(size=(steps, n))`, then `noise[step]`); for
    uniform numbers `rng.random(out=buf)` refills one buffer (the only
    generator method with `out=` in cuPyNumeric 26.6.1).

    ## Known false alarms
    * Not reported: allocations made before the loop; shapes that depend on
      the loop variable or on anything rebound in the loop; allocations in a
      function that the loop merely calls; allocations only loops over a few
      axes or taps repeat; `np.array` of a list or tuple literal (a handful
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
    message = "{call} {what} on every iteration of {loop} though its shape never changes; {fix} (RR-alloc)"

    valid = (
        # hoisted before the loop, refilled with out=
        Valid(
            "import numpy as np\nn = 100\ntemp = np.zeros(n)\narr = np.ones(n)\nfor step in range(50):\n"
            "    np.multiply(arr, 0.5, out=temp)\n    arr, temp = temp, arr\n"
        ),
        # shape depends on the loop variable
        Valid("import numpy as np\nfor k in range(1, 20):\n    block = np.zeros((k, k))\n    block[0, 0] = k\n"),
        # shape depends on a value rebound in the loop
        Valid(
            "import numpy as np\ndef roots(paths):\n    for path in paths:\n        data = np.load(path)\n"
            "        out = np.empty_like(data)\n        np.sqrt(data, out=out)\n"
        ),
        # kept beyond the iteration: a list of distinct buffers
        Valid("import numpy as np\nlayers = []\nfor i in range(10):\n    w = np.zeros((64, 64))\n    layers.append(w)\n"),
        # the allocation is in a function the loop only calls
        Valid(
            "import numpy as np\ndef step(u):\n    tmp = np.zeros_like(u)\n    tmp[1:] = u[:-1]\n    return tmp\n"
            "u = np.ones(10)\nfor t in range(100):\n    u = step(u)\n"
        ),
        # small constants, lazy initialisation, and a loop over three axes
        Valid(
            "import numpy as np\nbuf = None\ngrid = np.ones((8, 8, 8))\nfor t in range(100):\n    w = np.array([0.25, 0.5, 0.25])\n"
            "    if buf is None:\n        buf = np.empty_like(grid)\nfor axis in range(3):\n    tmp = np.zeros(8)\n"
        ),
        # the random draw has no size (one number) or is written into a buffer
        Valid(
            "import numpy as np\nrng = np.random.default_rng(0)\nbuf = np.empty(100)\nfor t in range(100):\n"
            "    jitter = rng.normal()\n    rng.random(out=buf)\n"
        ),
    )
    invalid = (
        Invalid(
            "import numpy as np\nn = 100\narr = np.ones(n)\nfor step in range(50):\n    temp = np.zeros(n)\n"
            "    temp[:] = arr * 0.5\n    arr = temp\n",
            line=5,
            contains="np.zeros(n)",
        ),
        Invalid(
            "import numpy as np\ndef advect(u: np.ndarray, c, steps):\n    for step in range(steps):\n        un = u.copy()\n"
            "        u[1:] = un[1:] - c * (un[1:] - un[:-1])\n    return u\n",
            line=4,
            contains="swap",
        ),
        Invalid(
            "import numpy as np\nx = np.zeros(1000)\nfor t in range(500):\n    x += 0.1 * np.random.randn(1000)\n",
            line=4,
            contains="random",
        ),
        Invalid(
            "import numpy as np\nrng = np.random.default_rng(1)\nu = np.zeros((32, 32))\nwhile u.max() < 10.0:\n"
            "    noise = rng.normal(0.0, 1.0, size=u.shape)\n    u += np.abs(noise)\n",
            line=5,
            contains="'while' loop",
        ),
        Invalid(
            "import numpy as np\narr = np.ones(64)\nfor step in range(10):\n    temp = np.zeros_like(arr)\n"
            "    np.multiply(arr, 0.9, out=temp)\n    arr = temp\n",
            line=4,
        ),
        Invalid(
            "import numpy as np\nfield = np.ones((16, 16))\nfor epoch in range(3):\n    for batch in range(100):\n"
            "        grad = np.empty((16, 16))\n        np.subtract(field, 1.0, out=grad)\n",
            line=5,
            contains="for epoch in range(3)",
        ),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy():
            return
        for call in model.nodes(ast.Call):
            inner = model.loop_of(call)
            if inner is None or inner.is_comprehension:
                continue
            allocation = _allocation(model, call)
            if allocation is None:
                continue
            frame = hoist_frame(model, call, allocation.fixed, shape_only=True)
            if frame is None or not _used_per_iteration(model, call, allocation.kind):
                continue
            statement = model.statement_of(call)
            target = _assigned_name(model, call)
            if statement is None or not runs_every_iteration(model, statement, frame, target):
                continue
            if escapes_iteration(model, call, frame):
                continue
            yield self.finding(
                call,
                in_loop=True,
                call=model.segment(call, 40),
                what=_WHAT[allocation.kind],
                loop=describe_loop(model, frame),
                fix=_fix(model, allocation, target),
                data={"kind": allocation.kind, "loop_line": frame.line},
            )


_WHAT = {
    ALLOCATION: "allocates a new array",
    COPY: "copies into a new array",
    DRAW: "draws a new array of random numbers",
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
    return _draw(model, call, api)


def _copy(model: FileModel, call: ast.Call, source: ast.expr | None) -> _Allocation | None:
    if source is None or not model.is_array(source):
        return None  # np.array([1.0, 2.0]): a few constants, not a copy of an array
    if any(k.arg == "copy" and isinstance(k.value, ast.Constant) and k.value.value is not True for k in call.keywords):
        return None  # np.array(a, copy=False) does not copy
    return _Allocation(call, COPY, (source,) + tuple(k.value for k in call.keywords), source)


def _draw(model: FileModel, call: ast.Call, api: str | None) -> _Allocation | None:
    func = call.func
    if api is not None and api.startswith("random."):
        method = api.partition(".")[2]
    elif isinstance(func, ast.Attribute) and model.kind(func.value) is Kind.GENERATOR:
        method = func.attr
    else:
        return None
    if method not in _DRAWS:
        return None
    position = _DRAWS[method]
    size = next((k.value for k in call.keywords if k.arg == "size"), None)
    if position is None:
        if not call.args:
            return None
        return _Allocation(call, DRAW, tuple(call.args))
    if size is None and position < len(call.args):
        size = call.args[position]
    if size is None or (isinstance(size, ast.Constant) and size.value is None):
        return None  # one number, not an array
    return _Allocation(call, DRAW, (size,))


def _used_per_iteration(model: FileModel, call: ast.Call, kind: str) -> bool:
    """A buffer or copy assigned to a name; a draw may also feed arithmetic
    (`x += sigma * rng.standard_normal(n)`)."""
    parent = model.parent(call)
    if isinstance(parent, ast.Assign) and parent.value is call:
        return len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)
    if kind != DRAW:
        return False
    node: ast.AST = call
    while isinstance(parent, (ast.BinOp, ast.UnaryOp)) or (
        isinstance(parent, ast.Call) and model.call_api(parent) is not None and node is not parent.func
    ):
        node, parent = parent, model.parent(parent)
    if isinstance(parent, ast.keyword):
        node, parent = parent, model.parent(parent)
        return isinstance(parent, ast.Call) and model.call_api(parent) is not None and _is_statement_value(model, parent)
    return _is_statement_value(model, node)


def _is_statement_value(model: FileModel, node: ast.AST) -> bool:
    parent = model.parent(node)
    if isinstance(parent, (ast.Assign, ast.AugAssign)) and parent.value is node:
        return True
    return isinstance(parent, ast.Expr)


def _assigned_name(model: FileModel, call: ast.Call) -> str | None:
    parent = model.parent(call)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        return parent.targets[0].id
    return None


def _fix(model: FileModel, allocation: _Allocation, target: str | None) -> str:
    if allocation.kind == COPY and target is not None and allocation.source is not None:
        source = model.segment(allocation.source, 24)
        return (
            f"allocate '{target}' once before the loop and refresh it in place (np.copyto({target}, {source})), "
            f"or keep two buffers and swap them ({source}, {target} = {target}, {source})"
        )
    if allocation.kind == DRAW:
        return "draw every iteration's numbers in one call before the loop (size=(steps, ...)) and index them by step"
    name = f"'{target}'" if target else "it"
    return f"allocate {name} once before the loop and reuse it (out=, or swap two buffers)"
