"""CPN206: reshaping the same array to the same shape on every loop iteration."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, LoopFrame
from ..model.hoisting import hoist_frame
from ..model.iteration import fresh_in_iteration
from ..model.loop_iterations import hot_loop
from ..model.numpy_api import REDUCTION_METHODS, REDUCTIONS
from ..model.syntax import name_key, positional_or_keyword
from ..registry import Category, Invalid, Rule, Valid
from ._context import describe_loop, loop_context

# Device functions that write into their first argument.
_WRITING_FUNCTIONS = frozenset({"copyto", "put", "putmask", "place", "fill_diagonal", "put_along_axis"})
_MUTATING_METHODS = frozenset({"fill", "sort", "put", "itemset", "partition"})


class ReshapeInLoop(Rule):
    """
    ## What it does
    Reports `x.reshape(...)` and `np.reshape(x, ...)` repeated by a hot loop
    in two cases:

    * neither the array nor the new shape changes between iterations (the
      array is not rebound in the loop and the shape is built from
      constants or values the loop does not rebind): the finding names the
      outermost loop the reshape could move before;
    * the reshape only adds or drops axes of length 1 (`v.reshape((n, 1))`
      of a vector, `np.sum(a, 1).reshape((m, 1))`), inside the loop or in a
      helper the loop calls on every iteration: indexing with `None` or
      `keepdims=True` gives the same shape without a copy;
    * the loop re-lays out the array it carries from one iteration to the
      next (`x = x.reshape(2, -1, m)` at the top of an FFT's stage loop):
      every iteration copies the whole state into a new layout.

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
    original shape, `x[:, 0:1]` or `x[:, 0, None]` is a column as a view,
    and a reduction keeps its axis with `np.sum(a, 1, keepdims=True)`.

    ## Known false alarms
    * Not reported: a reshape before the loop; a reshape of an array made
      or rebound in the iteration (there is nothing to hoist — reshape the
      inputs once instead, or restructure) unless the result replaces the
      array the loop carries; shapes that depend on the loop
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
    summary = "Array reshaped on every loop iteration where a hoisted reshape or a view would do"
    message = "{call} {what} {why}; {fix} (RR-reshape)"
    short = "{call} reshapes every iteration: reshape once or use a view (RR-reshape)"

    valid = (
        # hoisted
        Valid(
            """
            import numpy as np
            data = np.zeros(64)
            work = data.reshape(8, 8)
            for step in range(100):
                work[1:-1, :] = 0.5 * (work[:-2, :] + work[2:, :])
            """
        ),
        # made in the iteration
        Valid("""
            import numpy as np
            x = np.ones(64)
            for step in range(100):
                y = np.sqrt(x + step)
                z = y.reshape(8, 8)
                print(z[0, 0])
            """),
        # the shape depends on the loop variable
        Valid("""
            import numpy as np
            flat = np.arange(64.0)
            for k in (1, 2, 4, 8, 16, 32, 64, 2, 4):
                m = flat.reshape(k, -1)
                print(m.shape)
            """),
        # the array itself is rebound in the loop
        Valid("""
            import numpy as np
            u = np.ones(16)
            for t in range(10):
                g = u.reshape(4, 4)
                u = np.roll(u, 1)
            """),
        # the loop writes to the original directly
        Valid(
            """
            import numpy as np
            data = np.zeros(16)
            for t in range(10):
                data[t % 16] = 1.0
                grid = data.reshape(4, 4)
                print(grid.sum())
            """
        ),
        # a handful of axes
        Valid("""
            import numpy as np
            v = np.ones(12)
            for axis in range(3):
                w = v.reshape(3, 4)
            """),
        # a reshape of a changing array that really changes its shape
        Valid("""
            import numpy as np
            u = np.ones(64)
            for t in range(10):
                u = u * 0.5
                g = u.reshape(8, 8)
                print(g.sum())
            """),
        # the reshaped array is bound afresh earlier in the iteration
        Valid("""
            import numpy as np
            u = np.ones(64)
            for t in range(10):
                g = np.sqrt(u + t)
                g = g.reshape(8, 8)
                u = u + g.sum()
            """),
        # a unit-axis reshape outside every loop
        Valid("""
            import numpy as np
            def column(v):
                return v.reshape((v.shape[0], 1))
            c = column(np.ones(10))
            """),
    )
    invalid = (
        # the stage loop of an FFT: the carried state is re-laid out every stage
        Invalid(
            """
            import numpy as np
            def stockham(x):
                n = x.shape[0]
                m = 1
                while m < n:
                    x = x.reshape(2, -1, m)
                    w = np.exp(-1j * np.pi * np.arange(m) / m)
                    x = np.concatenate([x[0] + x[1] * w, x[0] - x[1] * w], axis=1)
                    m *= 2
                return x.reshape(-1)
            """,
            line=6,
            contains="the array the loop carries",
        ),
        Invalid(
            """
            import numpy as np

            def separations(r):
                n = r.shape[0]
                x = r[:, 0].reshape((n, 1))
                return x - x.T

            pos = np.random.randn(500, 3)
            for step in range(100):
                d = separations(pos)
                pos = pos + 0.01 * d[:, :3]
            """,
            line=5,
            contains="in 'separations', called on every iteration of loop 'for step in range(100)' (line 9) only to add or drop axes of length 1",
        ),
        Invalid(
            """
            import numpy as np
            acc = np.zeros((300, 300))
            for step in range(100):
                acc = acc + 0.1
                rho = np.sum(acc, 1).reshape((300, 1))
                acc = acc / rho
            """,
            line=5,
            contains="keepdims=True",
        ),
        Invalid(
            """
            import numpy as np
            data = np.zeros(64)
            for step in range(100):
                work = data.reshape(2, -1)
                work[:] = work * 0.5
            """,
            line=4,
            contains="'data'",
        ),
        Invalid(
            """
            import numpy as np
            def smooth(data: np.ndarray, rows: int, cols: int, steps: int):
                for step in range(steps):
                    grid = np.reshape(data, (rows, cols))
                    grid[1:-1, :] = 0.5 * (grid[:-2, :] + grid[2:, :])
            """,
            line=4,
        ),
        Invalid(
            """
            import numpy as np
            img = np.ones((32, 32))
            k = np.ones(1024)
            it = 0
            while it < 50:
                s = (img.reshape(-1) * k).sum()
                it += 1
            """,
            line=6,
            contains="'while' loop",
        ),
        Invalid(
            """
            import numpy as np
            a = np.ones((4, 6))
            for epoch in range(5):
                for batch in range(20):
                    b = a.reshape(a.shape[0] * 2, -1)
            """,
            line=5,
            contains="for epoch in range(5)",
        ),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy() or "reshape" not in model.source or not model.loops:
            return
        for call in model.nodes(ast.Call):
            inner = model.loop_of(call)
            if inner is not None and inner.is_comprehension:
                continue
            reshaped = _reshaped(model, call)
            if reshaped is None:
                continue
            array, shape = reshaped
            if inner is not None and name_key(_base(array)) is not None:
                frame = hoist_frame(model, call, [array, *shape])
                if frame is not None and not _written_directly(model, array, frame, call):
                    yield self.finding(
                        call,
                        in_loop=True,
                        call=model.segment(call, 40),
                        what=f"reshapes '{model.segment(array, 24)}' on every iteration of {describe_loop(model, frame)}",
                        why="though neither the array nor the shape changes",
                        fix="reshape once before the loop and reuse the result",
                        data={"loop_line": frame.line, "form": "invariant"},
                    )
                    continue
            if not _only_unit_axes(model, call, array):
                frame = _relaid_state(model, call, array, inner)
                if frame is not None:
                    yield self.finding(
                        call,
                        in_loop=True,
                        call=model.segment(call, 40),
                        what=f"re-lays out '{model.segment(array, 24)}', the array the loop carries, on every iteration "
                             f"of {describe_loop(model, frame)}",
                        why="and on cuPyNumeric a reshape is a copy",
                        fix="keep one layout through the iterations (reshape once before the loop and reach each "
                            "stage's parts through views such as x[0] and x[1])",
                        data={"loop_line": frame.line, "form": "relayout"},
                    )
                continue
            context = loop_context(model, call)
            if context is None:
                continue
            where = (
                f"on every iteration of {describe_loop(model, context.loop)}"
                if not context.through_call
                else f"in '{context.function}', called on every iteration of {describe_loop(model, context.loop)}"
            )
            yield self.finding(
                call,
                in_loop=True,
                call=model.segment(call, 40),
                what=f"reshapes '{model.segment(array, 24)}' {where}",
                why="only to add or drop axes of length 1",
                fix=_unit_axis_fix(model, array),
                data={"loop_line": context.line, "form": "unit-axes", "through_call": context.through_call},
            )


def _relaid_state(model: FileModel, call: ast.Call, array: ast.expr, frame: LoopFrame | None) -> LoopFrame | None:
    """The hot loop whose state the reshape re-lays out: ``x = x.reshape(2, -1, m)``
    where ``x`` comes from the previous iteration (the stage loop of an FFT
    written with reshapes). Each iteration copies the whole state into a new
    layout."""
    if frame is None or not isinstance(array, ast.Name):
        return None
    statement = model.parent(call)
    if not (isinstance(statement, ast.Assign) and statement.value is call and len(statement.targets) == 1):
        return None
    target = statement.targets[0]
    if not (isinstance(target, ast.Name) and target.id == array.id):
        return None
    hot = hot_loop(frame)
    if hot is None or fresh_in_iteration(model, statement, hot, array.id):
        return None  # bound afresh earlier in the iteration: not the state carried over
    return hot


def _only_unit_axes(model: FileModel, call: ast.Call, array: ast.expr) -> bool:
    """Does the reshape only insert or remove axes of length 1
    (``v.reshape((n, 1))`` of a vector, ``np.sum(a, 1).reshape((m, 1))``)?
    Such a reshape is a copy in cuPyNumeric, where ``v[:, None]`` is a view
    and ``keepdims=True`` keeps the reduced axis."""
    target = _target_shape(model, call)
    source = model.shape(array)
    if target is None:
        return False
    wide = [e for e in target if e != 1]
    if source is not None:
        kept = [e for e in source if e != 1]
        if len(kept) != len(wide) or len(source) == len(target):
            return False
        if len(kept) == 1:
            return True  # a vector given unit axes (or a column made a vector)
        return all(w == -1 or (w is not None and w == k) for w, k in zip(wide, kept))
    return _reduced_along_one_axis(model, array) and len(wide) == len(target) - 1


def _target_shape(model: FileModel, call: ast.Call) -> tuple[object, ...] | None:
    if model.call_api(call) == "reshape":
        args = call.args[1:]
    else:
        args = call.args
    if any(isinstance(a, ast.Starred) for a in args) or call.keywords and not args:
        return None
    if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
        args = args[0].elts
    extents: list[object] = []
    for arg in args:
        value = model.const_int(arg)
        extents.append(value if value is not None else model.values.extent(arg))
    return tuple(extents) if extents else None


def _reduced_along_one_axis(model: FileModel, array: ast.expr) -> bool:
    """``np.sum(x, 1)`` / ``x.max(axis=0)``: a reduction along one literal axis."""
    if not isinstance(array, ast.Call):
        return False
    tail = model.call_api(array)
    func = array.func
    method = func.attr if isinstance(func, ast.Attribute) and tail is None and model.is_array(func.value) else None
    if tail not in REDUCTIONS and method not in REDUCTION_METHODS:
        return False
    axis = positional_or_keyword(array, 1 if tail is not None else 0, "axis")
    return axis is not None and model.const_int(axis) is not None


def _unit_axis_fix(model: FileModel, array: ast.expr) -> str:
    if _reduced_along_one_axis(model, array):
        return "pass keepdims=True to the reduction instead"
    return "index with None instead (v[:, None]), a view"


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
    if not model.is_array(array):
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
