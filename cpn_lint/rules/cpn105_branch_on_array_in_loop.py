"""CPN105: an ``if``/``while`` inside a loop whose test takes the truth value of an array."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, LoopFrame
from ..model.hostsync import hot_loop, is_device_value, is_modulo_check, is_throttled, leaves_loop, scalar_math_origin
from ..registry import Category, Invalid, Rule, Valid
from ._roots import item_loop_line, unfolded, whole_array_test
from ._context import loop_context, where_text
from ..model.syntax import walk

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


class BranchOnArrayInLoop(Rule):
    """
    ## What it does
    Reports a branch that is decided by a NumPy array value on every pass of
    a loop: any `while` whose test is an array value
    (`while np.max(np.abs(u - w)) > tol:`, `while err > tol:` with `err`
    bound to a reduction), and an `if`/`elif`, a conditional expression
    (`x if np.any(m) else y`) or a comprehension filter
    (`[r for r in rows if np.any(r)]`) inside a loop whose test is one
    (`if np.sum(v) > 0:`, `if mask.any():`, `if np.allclose(a, b):`,
    `if a[i] > 0:`). The finding is at the `if`/`elif`/`while` keyword (at
    the expression for the conditional and the filter) and quotes the test.
    Inside an element loop (CPN101) or a recurrence (CPN410) a test on
    elements is part of that loop's finding, which counts it; a test on a
    whole-array value (`np.any(u < 0)`) stays a finding of its own.

    ## Why it does not scale on cuPyNumeric
    Python can only branch on a Python `bool`. To get one from a cuPyNumeric
    array the interpreter must wait for the array to be computed, which means
    draining every queued task it depends on, and copy the value to the
    host. In a loop that wait happens on every pass, so the runtime never
    gets ahead of the interpreter and the GPUs idle between iterations.

    ## Example
    ```python
    import numpy as np

    while np.max(np.abs(u - previous)) > tol:
        previous = u
        u = relax(u)
    ```

    ## Use instead
    Test a Python flag that is refreshed every N iterations (recipe
    RR-converge):
    ```python
    CHECK_EVERY = 25
    done, it = False, 0
    while not done and it < max_iter:
        previous = u
        u = relax(u)
        it += 1
        if it % CHECK_EVERY == 0:
            done = float(np.max(np.abs(u - previous))) <= tol
    ```
    When the branch chooses values per element, keep it on the device with
    `np.where(cond, a, b)` instead of testing it in Python.

    ## Known false alarms
    * A test on a value already converted with `float()`, `int()`, `bool()`
      or `.item()` is not reported here: the conversion is the sync, and
      CPN104 reports it when it is in a loop.
    * Deliberately quiet: an `if` under a modulo test on a loop counter
      (`if it % CHECK_EVERY == 0:`), or after one in the same `and`
      (`if it % 50 == 0 and np.any(bad):`) — the test runs once every N
      iterations, which is the recommended fix.
    * Quiet: an `if` outside every loop (a single check at a boundary), in
      a loop over a handful of constants (`for axis in range(3)`) that no
      other loop repeats, or in a branch that ends the loop nest
      (`return`/`raise`, or `break` from a loop no other loop repeats);
      tests on `is None`, on metadata (`a.shape[0] > 3`, `len(a)`,
      `a.ndim == 2`), on Python numbers and flags (`while not converged`),
      on NumPy math of Python numbers (`np.isnan(x)` for a float `x`) and on
      host-alias arrays. `assert` statements are not reported.
    * Inside `for x in arr`, `if x > 0` is reported here and the loop by
      CPN103; vectorising the loop with `np.where` removes both.
    * Code inside a Numba-compiled function (`@numba.njit`) is judged as if
      cuPyNumeric ran it. Numba cannot take cuPyNumeric arrays at all, so such
      a function either stays on host NumPy behind a boundary (`np.asarray`)
      or is rewritten with whole-array operations; the findings in it mark
      what the rewrite must change.
    """

    code = "CPN105"
    slug = "branch-on-array-in-loop"
    category = Category.BLOCKS
    recipe = "RR-converge"
    summary = "Loop branch decided by the truth value of an array"
    message = "{construct} test '{test}' branches on {subject} {where}, a host sync every time; {fix} (RR-converge)"
    short = "{construct} test '{test}' syncs with the host every pass (RR-converge)"

    valid = (
        # a test on the item of a NumPy range: part of CPN103's finding on the loop
        Valid("""
            import numpy as np
            u = np.zeros(1000)
            for n in np.arange(0, 500):
                u[1:-1] = u[1:-1] + 0.1 * (u[2:] - 2 * u[1:-1] + u[:-2])
                if n % 10 == 0:
                    print(u.max())
            """),
        Valid(
            """
            import numpy as np
            u = np.ones(8)
            w = np.zeros(8)
            converged = False
            it = 0
            while not converged and it < 1000:
                u, w = 0.5 * (u + w), u
                it += 1
                if it % 50 == 0:
                    err = float(np.max(np.abs(u - w)))
                    converged = err < 1e-6
            """
        ),
        Valid(
            """
            import numpy as np
            a = np.ones((4, 4))
            mask = None
            for step in range(3):
                if mask is None:
                    mask = a > 0
                if a.shape[0] > 3 and len(a) and a.ndim == 2:
                    a = a * 2
            """
        ),
        Valid("""
            import numpy as np
            def check(a, b):
                if np.allclose(a, b):
                    return 'same'
                return 'different'
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            h = onp.arange(5)
            for i in range(5):
                if h[i] > 2:
                    print(i)
            """),
        Valid(
            """
            import numpy as np
            u = np.ones(4)
            for step in range(100):
                u = u * 0.9
                err = np.max(u).item()
                if err < 1e-3:
                    break
                if step % 50 == 0 and np.any(u < 0):
                    print(step)
            """
        ),
        Valid("""
            import numpy as np
            import math
            for step in range(10):
                x = step * 0.1
                if math.isnan(x) or abs(x) > 5.0:
                    break
            """),
        Valid(
            """
            import numpy as np
            dx = 0.01
            dt = float(np.sqrt(2) * dx)
            t = 0.0
            u = np.ones(64)
            while t < 1.0:
                u = 0.5 * (u + np.roll(u, 1))
                t += dt
            """
        ),
    )
    valid = valid + (
        Valid("""
            import numpy as np
            a = np.arange(10.0)
            count = 0
            for i in range(10):  # CPN101 holds it: "it also holds 1 scalar branch"
                if a[i] > 4:
                    count += 1
            """),
    )
    invalid = (
        Invalid(
            """
            import numpy as np
            u = np.ones(8)
            w = np.zeros(8)
            while np.max(np.abs(u - w)) > 1e-6:
                w = u
                u = 0.5 * u
            """,
            line=4,
            contains="while test 'np.max(np.abs(u - w)) > 1e-6' branches on array 'np.max(np.abs(u - w))' on every pass",
        ),
        Invalid(
            """
            import numpy as np
            violations = np.zeros(10)
            for step in range(100):
                violations = violations + 0.1
                if np.sum(violations) > 0:
                    violations[:] = 0
            """,
            line=5,
            contains="inside the loop at line 3",
        ),
        Invalid(
            """
            import numpy as np
            a = np.arange(10.0)
            count = 0
            for step in range(10):
                a = a * 1.5
                if a[3] > 4:
                    count += 1
            """,
            line=6,
            contains="'a[3] > 4'",
        ),
        Invalid(
            """
            import numpy as np
            u = np.ones(6)
            err = np.inf
            while err > 1e-3:
                new = u * 0.5
                err = np.max(np.abs(new - u))
                u = new
            """,
            line=4,
            contains="'err'",
        ),
        Invalid(
            """
            import numpy as np
            m = np.zeros(4, dtype=bool)
            x = np.ones(4)
            for k in range(50):
                x = x * 2 if np.any(m) else x + 1
            """,
            line=5,
            contains="conditional expression",
        ),
        Invalid(
            """
            import numpy as np
            u = np.ones(4)
            for step in range(9):
                if step < 3:
                    u = u + 1
                elif u.any():
                    u = u - 1
            """,
            line=6,
            contains="elif test",
        ),
        Invalid(
            """
            import numpy as np
            dx = 0.01
            dt = np.sqrt(2) * dx
            t = 0.0
            u = np.ones(64)
            while t < 1.0:
                u = 0.5 * (u + np.roll(u, 1))
                t += dt
            """,
            line=6,
            contains="'t' is a 0-d device array (np.sqrt(), line 3): one float() outside the loop fixes it",
        ),
        Invalid(
            """
            import numpy as np
            for step in range(10):
                x = step * 0.1
                if np.isnan(x):
                    break
                print(x)
            """,
            line=4,
            contains="np.isnan() of Python numbers is a 0-d device array: use the math module",
        ),
        Invalid(
            """
            import numpy as np

            def check(u):
                if np.any(np.isnan(u)):
                    raise ValueError('diverged')

            u = np.ones(100)
            for step in range(500):
                u = 0.5 * (u + np.roll(u, 1))
                check(u)
            """,
            line=4,
            contains="in 'check', called every iteration of the loop at line 8",
        ),
        # device scalars packed into a tuple stay device scalars in the helper that unpacks it
        Invalid("""
            import numpy as np
            def energy(state):
                x, v = state
                return 0.5 * v * v + 0.5 * x * x
            a = np.random.rand(1000)
            state = (np.sum(a), np.mean(a))
            for k in range(100):
                if energy(state) > 1.0:
                    break
            """, line=8),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        # inside an element loop or a recurrence this is part of that loop's finding
        yield from unfolded(model, self.code)

    def detect(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy():
            return
        for node, test, construct, frame in _branches(model):
            if isinstance(node, ast.While):
                hot = hot_loop(frame)
                value = _array_truth_value(model, test) if hot is not None else None
                if hot is None or value is None:
                    continue
                where = "on every pass"
                loop_line = hot.line
            else:
                context = loop_context(model, node)
                value = _array_truth_value(model, test) if context is not None else None
                if context is None or value is None:
                    continue
                site = context.call or node
                if is_throttled(model, site, context.loop) or leaves_loop(model, site, context.frame or context.loop):
                    continue
                where, loop_line = where_text(context), context.line
            yield self.finding(
                node,
                in_loop=True,
                construct=construct,
                test=model.segment(test, 50),
                subject="an array value" if value is test else f"array '{model.segment(value, 40)}'",
                where=where,
                fix=_fix(model, value),
                data={"construct": construct, "loop_line": loop_line, "whole_array": whole_array_test(model, value),
                      "item_of": item_loop_line(model, node, value)},
            )


def _fix(model: FileModel, value: ast.expr) -> str:
    """The recipe: for a 0-d value made from Python numbers, the one
    conversion that removes it; otherwise a flag refreshed every N steps."""
    origin = scalar_math_origin(model, value)
    if origin is None:
        return "test a flag refreshed every N steps, or use np.where"
    call = f"{model.segment(origin.func, 20)}()"
    test_statement = model.statement_of(value)
    carrier = next(
        (
            n
            for n in walk(value)
            if isinstance(n, ast.Name) and model.statement_of(origin) is not test_statement and scalar_math_origin(model, n) is origin
        ),
        None,
    )
    if carrier is not None:
        return f"'{carrier.id}' is a 0-d device array ({call}, line {origin.lineno}): one float() outside the loop fixes it"
    return f"{call} of Python numbers is a 0-d device array: use the math module"


def _branches(model: FileModel) -> Iterator[tuple[ast.AST, ast.expr, str, LoopFrame | None]]:
    """(reported node, test, what it is, its innermost loop), in source order."""
    candidates: list[tuple[ast.AST, ast.expr, str, LoopFrame | None]] = []
    for loop in model.nodes(ast.While):
        candidates.append((loop, loop.test, "while", model.loop_for_node(loop)))
    for branch in model.nodes(ast.If):
        candidates.append((branch, branch.test, "elif" if _is_elif(model, branch) else "if", model.loop_of(branch)))
    for conditional in model.nodes(ast.IfExp):
        candidates.append((conditional, conditional.test, "conditional expression", model.loop_of(conditional)))
    for comprehension in model.nodes(*_COMPREHENSIONS):
        for generator in comprehension.generators:  # type: ignore[attr-defined]
            for condition in generator.ifs:
                candidates.append((condition, condition, "comprehension filter", model.loop_of(condition)))
    candidates.sort(key=lambda c: (c[0].lineno, c[0].col_offset))  # type: ignore[attr-defined]
    yield from candidates


def _is_elif(model: FileModel, branch: ast.If) -> bool:
    parent = model.parent(branch)
    if not (isinstance(parent, ast.If) and len(parent.orelse) == 1 and parent.orelse[0] is branch):
        return False
    line = model.lines[branch.lineno - 1].encode("utf-8")
    return line[branch.col_offset : branch.col_offset + 4] == b"elif"


def _array_truth_value(model: FileModel, test: ast.expr) -> ast.expr | None:
    """The part of a test whose truth value comes from a device array.

    ``and``/``or``/``not`` take the truth value of each operand; an operand
    after a modulo check in an ``and`` is evaluated once every N passes and
    does not count.
    """
    if isinstance(test, ast.BoolOp):
        for operand in test.values:
            if isinstance(test.op, ast.And) and is_modulo_check(model, operand):
                return None
            found = _array_truth_value(model, operand)
            if found is not None:
                return found
        return None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _array_truth_value(model, test.operand)
    if isinstance(test, ast.NamedExpr):
        return _array_truth_value(model, test.value)
    return _device_operand(model, test) if is_device_value(model, test) else None


def _device_operand(model: FileModel, test: ast.expr) -> ast.expr:
    """The array a comparison reads (``err`` in ``err > tol``), for the message."""
    if isinstance(test, ast.Compare):
        for operand in (test.left, *test.comparators):
            if is_device_value(model, operand):
                return operand
    return test
