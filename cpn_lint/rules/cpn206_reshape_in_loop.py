"""CPN206: reshaping the same array to the same shape on every loop iteration."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, LoopFrame
from ..model.hoisting import hoist_frame
from ..model.syntax import name_key
from ._context import describe_loop
from ..registry import Category, Invalid, Rule, Valid

# Device functions that write into their first argument.
_WRITING_FUNCTIONS = frozenset({"copyto", "put", "putmask", "place", "fill_diagonal", "put_along_axis"})
_MUTATING_METHODS = frozenset({"fill", "sort", "put", "itemset", "partition"})


class ReshapeInLoop(Rule):
    """
    ## What it does
    Reports `x.reshape(...)` and `np.reshape(x, ...)` inside a loop when
    neither the array nor the new shape changes between iterations: the
    array is not rebound in the loop and the shape is built from constants
    or from values the loop does not rebind. The finding is at the call and
    names the outermost loop the reshape could move before.

    ## Why it does not scale on cuPyNumeric
    A NumPy reshape is almost always a free view. In cuPyNumeric a new shape
    often does not line up with how the array is split across GPUs, and the
    reshape becomes a full copy, possibly with data moving between devices
    (on cuPyNumeric 26.6.1 even reshaping a vector into a matrix copies).
    Inside a loop that copy is repeated on every iteration for the same
    result.

    ## Example
    ```python
    import numpy as np

    def smooth(data, rows, cols, steps):
        for step in range(steps):
            grid = data.reshape(rows, cols)
            grid[1:-1, :] = 0.5 * (grid[:-2, :] + grid[2:, :])
        return data
    ```

    ## Use instead
    Reshape once before the loop and work on the reshaped array (recipe
    RR-reshape):
    ```python
    def smooth(data, rows, cols, steps):
        grid = data.reshape(rows, cols)
        for step in range(steps):
            grid[1:-1, :] = 0.5 * (grid[:-2, :] + grid[2:, :])
        return grid
    ```
    Often the reshape is not needed at all: broadcasting
    (`data * scale[:, np.newaxis]`) expresses the same computation on the
    original shape.

    ## Known false alarms
    * Not reported: a reshape before the loop; a reshape of an array made
      or rebound in the iteration (there is nothing to hoist — reshape the
      inputs once instead, or restructure); shapes that depend on the loop
      variable; a loop over a few axes or taps; a reshape of an array that
      the loop also writes to directly (`data[...] = ...`, `out=data`):
      since the reshape may be a copy, one made before the loop would not
      see those writes.
    * A loop that runs only a few times pays little; suppress with
      `# noqa: CPN206`.
    """

    code = "CPN206"
    slug = "reshape-in-loop"
    category = Category.REFACTOR
    recipe = "RR-reshape"
    summary = "Same array reshaped to the same shape on every loop iteration"
    message = (
        "{call} reshapes '{array}' on every iteration of {loop} though neither the array nor the "
        "shape changes; reshape once before the loop and reuse the result (RR-reshape)"
    )

    valid = (
        # hoisted
        Valid(
            "import numpy as np\ndata = np.zeros(64)\nwork = data.reshape(8, 8)\nfor step in range(100):\n"
            "    work[1:-1, :] = 0.5 * (work[:-2, :] + work[2:, :])\n"
        ),
        # made in the iteration
        Valid("import numpy as np\nx = np.ones(64)\nfor step in range(100):\n    y = np.sqrt(x + step)\n    z = y.reshape(8, 8)\n    print(z[0, 0])\n"),
        # the shape depends on the loop variable
        Valid("import numpy as np\nflat = np.arange(64.0)\nfor k in (1, 2, 4, 8, 16, 32, 64, 2, 4):\n    m = flat.reshape(k, -1)\n    print(m.shape)\n"),
        # the array itself is rebound in the loop
        Valid("import numpy as np\nu = np.ones(16)\nfor t in range(10):\n    g = u.reshape(4, 4)\n    u = np.roll(u, 1)\n"),
        # the loop writes to the original directly
        Valid(
            "import numpy as np\ndata = np.zeros(16)\nfor t in range(10):\n    data[t % 16] = 1.0\n"
            "    grid = data.reshape(4, 4)\n    print(grid.sum())\n"
        ),
        # a handful of axes
        Valid("import numpy as np\nv = np.ones(12)\nfor axis in range(3):\n    w = v.reshape(3, 4)\n"),
    )
    invalid = (
        Invalid(
            "import numpy as np\ndata = np.zeros(64)\nfor step in range(100):\n    work = data.reshape(2, -1)\n"
            "    work[:] = work * 0.5\n",
            line=4,
            contains="'data'",
        ),
        Invalid(
            "import numpy as np\ndef smooth(data: np.ndarray, rows: int, cols: int, steps: int):\n    for step in range(steps):\n"
            "        grid = np.reshape(data, (rows, cols))\n        grid[1:-1, :] = 0.5 * (grid[:-2, :] + grid[2:, :])\n",
            line=4,
        ),
        Invalid(
            "import numpy as np\nimg = np.ones((32, 32))\nk = np.ones(1024)\nit = 0\nwhile it < 50:\n"
            "    s = (img.reshape(-1) * k).sum()\n    it += 1\n",
            line=6,
            contains="'while' loop",
        ),
        Invalid(
            "import numpy as np\na = np.ones((4, 6))\nfor epoch in range(5):\n    for batch in range(20):\n"
            "        b = a.reshape(a.shape[0] * 2, -1)\n",
            line=5,
            contains="for epoch in range(5)",
        ),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy() or "reshape" not in model.source or not model.loops:
            return
        for call in model.nodes(ast.Call):
            inner = model.loop_of(call)
            if inner is None or inner.is_comprehension:
                continue
            reshaped = _reshaped(model, call)
            if reshaped is None:
                continue
            array, shape = reshaped
            frame = hoist_frame(model, call, [array, *shape])
            if frame is None or _written_directly(model, array, frame, call):
                continue
            yield self.finding(
                call,
                in_loop=True,
                call=model.segment(call, 40),
                array=model.segment(array, 24),
                loop=describe_loop(model, frame),
                data={"loop_line": frame.line},
            )


def _reshaped(model: FileModel, call: ast.Call) -> tuple[ast.expr, list[ast.AST]] | None:
    """The array and the shape arguments of a reshape of a device array."""
    func = call.func
    if model.call_api(call) == "reshape" and call.args:
        array = call.args[0]
        shape: list[ast.AST] = list(call.args[1:]) + list(call.keywords)
    elif isinstance(func, ast.Attribute) and func.attr == "reshape" and (call.args or call.keywords):
        array = func.value
        shape = list(call.args) + list(call.keywords)
    else:
        return None
    if not model.is_array(array) or name_key(_base(array)) is None:
        return None
    return array, shape


def _base(expr: ast.expr) -> ast.expr:
    while isinstance(expr, ast.Subscript):
        expr = expr.value
    return expr


def _written_directly(model: FileModel, array: ast.expr, frame: LoopFrame, call: ast.Call) -> bool:
    """Does the loop write to the reshaped array through its own name?"""
    key = name_key(_base(array))
    for node in model.nodes_in_loop(frame, ast.Subscript, ast.Call, ast.AugAssign):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and name_key(_base(node.value)) == key:
            return True
        if isinstance(node, ast.AugAssign) and name_key(_base(node.target)) == key:
            return True
        if isinstance(node, ast.Call) and node is not call:
            if any(k.arg == "out" and name_key(_base(k.value)) == key for k in node.keywords):
                return True
            if model.call_api(node) in _WRITING_FUNCTIONS and node.args and name_key(_base(node.args[0])) == key:
                return True
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _MUTATING_METHODS and name_key(_base(func.value)) == key:
                return True
    return False
