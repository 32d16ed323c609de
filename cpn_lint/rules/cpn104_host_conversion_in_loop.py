"""CPN104: ``.item()``, ``.tolist()``, ``float()``, ``int()``, ``bool()``, ``complex()``, ``round()`` of an array (or ``max(0, x)`` on one) inside a loop."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..model.file_loops import walks_input_files
from ..model.hostsync import is_device_value, is_throttled, leaves_loop, scalar_math_origin
from ..registry import Category, Invalid, NoFix, Rule, Valid
from ._roots import item_loop_line, unfolded
from ._context import LoopContext, loop_context, runs_once, where_text
from ..model.scopes import BindKind
from ..model.syntax import walk

_CONVERTING_METHODS = frozenset({"item", "tolist"})
_CONVERTING_BUILTINS = frozenset({"float", "int", "bool", "complex"})
# Built-ins that test their arguments on the host: `max(0, x)` asks bool() of
# `0 < x`, `round(x)` asks for a Python int. On a 0-d device value each waits.
_COMPARING_BUILTINS = {"max": "np.maximum", "min": "np.minimum"}
# How many assignments back a compared value is followed to an element pick.
_PICK_DEPTH = 3


class HostConversionInLoop(Rule):
    """
    ## What it does
    Reports a conversion of a NumPy array value to Python inside a loop:
    `.item()`, `.tolist()`, and `float(...)`, `int(...)`, `bool(...)`,
    `complex(...)`, `round(...)` applied to an array, a NumPy reduction
    (`np.max(r)`) or an array element (`a[i]`), and Python's `max`/`min` of
    several values one of which is such a value (`max(0, s - k)` asks the
    host whether `0 < s - k`; `np.maximum` keeps it on the device). The finding is at the call and names the value
    and the loop. Inside an element loop (CPN101) or a recurrence (CPN410)
    it is part of that loop's finding, which counts it.

    ## Why it does not scale on cuPyNumeric
    cuPyNumeric runs ahead of Python: array operations are queued as tasks
    and execute while the interpreter goes on issuing more. Turning a result
    into a Python number stops that. The interpreter must wait until every
    queued task the value depends on has finished, and the value is copied
    from GPU memory to the host. Done once per iteration, the queue drains
    every time, the GPUs sit idle between steps, and the loop runs at the
    speed of the round trip rather than of the hardware.

    ## Example
    ```python
    import numpy as np

    for step in range(n_steps):
        new = 0.25 * (np.roll(u, 1) + np.roll(u, -1) + 2.0 * u)
        err = np.max(np.abs(new - u)).item()
        u = new
        if err < tol:
            break
    ```

    ## Use instead
    Check every N steps, so that the runtime can queue N iterations between
    two waits (recipe RR-sync):
    ```python
    CHECK_EVERY = 50
    for step in range(n_steps):
        new = 0.25 * (np.roll(u, 1) + np.roll(u, -1) + 2.0 * u)
        diff = np.max(np.abs(new - u))
        u = new
        if step % CHECK_EVERY == 0:
            if float(diff) < tol:
                break
    ```
    Values collected for logging can stay arrays in a list and be converted
    once after the loop.

    ## Known false alarms
    * Deliberately quiet: a conversion under a modulo test on a loop counter
      (`if step % CHECK_EVERY == 0:`, `if it % 50 == 0 and verbose:`) — that
      is the recommended fix, one wait every N iterations. `if step % N != 0:`
      runs on most iterations and does not count.
    * A conversion outside every loop (`return float(np.sum(x))`), in a
      `return` or `raise` inside a loop, or in a branch that ends the loop
      nest (`...; break` in a loop no other loop repeats) runs once and is
      not reported; neither is one in a loop over a handful of constants
      (`for axis in range(3)`, `for f in (u, v)`) that no other loop
      repeats. Inside a time loop such a small loop is reported, naming the
      time loop.
    * A conversion whose loop walks input files or images (`for path in
      glob.glob("*.npy")`, `for f in sys.argv[1:]`, a body that opens a
      file named from the loop variable), directly or in the helper such a
      loop calls, runs once per file: a sync at the pace of the file
      system, not of a computation, and it is not reported. A time loop
      inside the file loop is still a hot loop.
    * Conversions of metadata (`int(a.shape[0])`, `len(a)`), of Python
      numbers (`float(step)`) and of host-alias arrays (`onp`) are quiet, as
      are f-strings and `print` of an array (not conversions this rule
      tracks). NumPy math on Python numbers (`int(np.ceil(t / dt))`) is
      reported: cuPyNumeric returns a 0-d device array for it, and its
      Doctor flags the conversion; Python's `math` module avoids both.
    * A conversion in a helper function is reported when a loop of the same
      file calls that helper on every iteration (`log.append(energy(u))`),
      naming the loop; a helper nobody in the file calls in a loop is quiet.
    * Inside `for x in arr` the conversion of each item is reported here and
      the loop itself by CPN103; vectorising the loop removes both.
    """

    code = "CPN104"
    slug = "host-conversion-in-loop"
    category = Category.BLOCKS
    recipe = "RR-sync"
    summary = "Array value converted to a Python value inside a loop"
    message = "{call} on '{value}' {where} is a host sync every iteration; {fix} (RR-sync)"
    short = "{call} on '{value}' syncs with the host every iteration (RR-sync)"

    valid = (
        # a table of lattice directions written out in the file, converted
        # while setting up: a handful of round trips in all
        Valid("""
            import numpy as np
            q = 9
            c = np.array([(x, y) for x in (0, -1, 1) for y in (0, -1, 1)])
            bounce = [c.tolist().index((-c[i]).tolist()) for i in range(q)]
            """),
        Valid("""
            import numpy as np
            def energy(x):
                return float(np.sum(x * x))
            """),
        Valid(
            """
            import numpy as np
            a = np.ones((5, 2))
            for step in range(10):
                n = int(a.shape[0]) + len(a)
                t = float(step)
                k = int(step // 3)
            """
        ),
        Valid(
            """
            import numpy as np
            u = np.ones(8)
            w = np.zeros(8)
            CHECK_EVERY = 50
            for step in range(1000):
                u, w = 0.5 * (u + w), u
                if step % CHECK_EVERY == 0:
                    err = float(np.max(np.abs(u - w)))
                    if err < 1e-6:
                        break
            """
        ),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            h = onp.ones(3)
            for i in range(3):
                v = h[i].item()
            """),
        Valid(
            """
            import numpy as np
            def solve(u, tol):
                for it in range(100):
                    u = u * 0.5
                    if it > 10:
                        return float(np.max(u))
                return None
            """
        ),
        Valid("""
            import numpy as np
            u = np.ones(4)
            for step in range(3):
                u = u * 2
                print(f'{u}')
            """),
    )
    valid = valid + (
        Valid("""
            import glob
            import sys
            import numpy as np

            def summarise(path):
                data = np.load(path)
                return int(np.argmax(data)), float(np.mean(data))

            for path in sorted(glob.glob("runs/*.npy")):
                peak, mean = summarise(path)
                print(path, peak, mean)
            for n in range(1, len(sys.argv)):
                field = np.load(sys.argv[n])
                print(float(field.max()))
            """),
        Valid("""
            import numpy as np
            a = np.arange(10)
            for i in range(10):  # CPN101 holds it: "it also holds 1 host conversion"
                if int(a[i]) > 3:
                    print(i)
            """),
    )
    valid = valid + (
        # max of Python numbers, and NumPy's own max after `from numpy import *`
        Valid("""
            import numpy as np
            best = 0.0
            for i in range(10):
                best = max(best, i * 0.5)
            """),
        Valid("""
            from numpy import *
            u = ones(8)
            for step in range(10):
                m = max(u, 0)
            """),
    )
    invalid = (
        Invalid(
            """
            import numpy as np
            u = np.ones(8)
            w = np.zeros(8)
            for step in range(100):
                w = 0.5 * u
                err = np.max(np.abs(u - w)).item()
                if err < 1e-6:
                    break
                u = w
            """,
            line=6,
            contains=".item() on 'np.max(np.abs(u - w))' inside the loop at line 4",
        ),
        Invalid(
            """
            import numpy as np
            for step in range(10):
                k = int(np.ceil(step / 3))
            """,
            line=3,
            contains="np.ceil() of Python numbers is a 0-d device array: use the math module",
        ),
        Invalid(
            """
            import numpy as np

            def energy(u):
                return float(np.sum(u * u))

            u = np.ones(100)
            log = []
            for step in range(500):
                u = 0.5 * (u + np.roll(u, 1))
                log.append(energy(u))
            """,
            line=4,
            contains="in 'energy', called every iteration of the loop at line 8",
        ),
        Invalid(
            """
            import numpy as np
            wave = np.linspace(0, 1, 100)
            energy = []
            for step in range(50):
                wave *= 0.99
                energy.append(float(np.sum(wave * wave)))
            """,
            line=6,
            contains="float()",
        ),
        Invalid("""
            import numpy as np
            a = np.arange(10)
            for step in range(10):
                a = a * 2
                if int(a[0]) > 3:
                    print(step)
            """, line=5, contains="'a[0]'"),
        Invalid("""
            import glob
            import numpy as np
            for path in glob.glob("*.npy"):
                u = np.load(path)
                for step in range(100):
                    u = 0.5 * (u + np.roll(u, 1))
                    if float(np.max(u)) < 1e-3:
                        print(step)
            """, line=7, contains="inside the loop at line 5"),
        Invalid("""
            import numpy as np
            parts = np.split(np.ones(6), 3)
            lists = [p.tolist() for p in parts]
            """, line=3, contains="comprehension"),
        # max(0, x) asks bool() of `0 < x` on the host: a 0-d device value waits each pass
        Invalid("""
            import numpy as np
            final = 40 * np.exp(0.2 * np.random.standard_normal(100000))
            payoffs = []
            for strike in range(30, 60):
                mean_price = np.mean(np.abs(final - 40))
                payoffs.append(max(0, mean_price - strike))
            """, line=6, contains="max() on 'mean_price - strike' inside the loop at line 4 is a host sync every iteration; "
                                  "use np.maximum"),
        Invalid("""
            import numpy as np
            u = np.linspace(0, 1, 100)
            for step in range(50):
                u = 0.5 * (u + np.roll(u, 1))
                k = round(np.sum(u))
            """, line=5, contains="round()"),
        Invalid(
            """
            import numpy as np
            u = np.ones(4)
            step = 0
            while float(np.max(u)) > 1e-3:
                u = u * 0.5
                if step % 10 != 0:
                    print(bool(np.any(u > 1)))
                step += 1
            """,
            contains="bool()",
        ),
    )

    fix_note = (
        "No automatic fix: checking every N steps instead of every step changes when the loop stops (it may run "
        "up to N - 1 more iterations), which only the author can accept; apply RR-sync by hand."
    )
    fix_examples = (
        NoFix(
            """
            import numpy as np
            u = np.linspace(0.0, 1.0, 100)
            for step in range(1000):
                new = 0.5 * (u + np.roll(u, 1))
                err = new - u
                u = new
                if float(np.max(err)) < 1e-6:
                    break
            """,
            "changes when the loop stops",
        ),
        NoFix(
            """
            import numpy as np
            r = np.ones(100)
            while True:
                r *= 0.5
                if np.linalg.norm(r).item() < 1e-9:
                    break
            """,
            "changes when the loop stops",
        ),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        # inside an element loop or a recurrence this is part of that loop's finding
        yield from unfolded(model, self.code)

    def detect(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy():
            return
        for call in model.nodes(ast.Call):
            conversion = _conversion(model, call)
            if conversion is None:
                continue
            label, value = conversion
            context = loop_context(model, call)
            if context is None or not is_device_value(model, value):
                continue
            if walks_input_files(model, context.loop):
                continue  # once per input file or image, at the pace of the file system: not a hot-loop sync
            if _table_set_up_once(model, value, context):
                continue
            # A modulo guard anywhere inside the hot loop throttles; a branch
            # ending in `break` leaves only the loop the break belongs to.
            site = context.call or call
            if is_throttled(model, site, context.loop) or leaves_loop(model, site, context.frame or context.loop):
                continue
            origin = scalar_math_origin(model, value)
            fix = _fix(model, label, origin)
            yield self.finding(
                call,
                in_loop=True,
                call=label,
                value=model.segment(value, 40),
                where=where_text(context),
                fix=fix,
                data={"conversion": label, "loop_line": context.line, "through_call": context.through_call,
                      "item_of": item_loop_line(model, call, value)},
            )


def _fix(model: FileModel, label: str, origin: ast.Call | None) -> str:
    comparing = _COMPARING_BUILTINS.get(label.rstrip("()"))
    if comparing:
        return f"use {comparing}, which stays on the device"
    if origin is not None:
        return f"{model.segment(origin.func, 20)}() of Python numbers is a 0-d device array: use the math module"
    return "check every N steps or convert once after the loop"


def _conversion(model: FileModel, call: ast.Call) -> tuple[str, ast.expr] | None:
    """(how it is shown, the value converted) when ``call`` converts to Python."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _CONVERTING_METHODS:
        if func.attr == "tolist" and (call.args or call.keywords):
            return None
        return f".{func.attr}()", func.value
    if (
        isinstance(func, ast.Name)
        and func.id in _CONVERTING_BUILTINS
        and model.lookup(func) is None
        and len(call.args) == 1
        and not call.keywords
        and not isinstance(call.args[0], ast.Starred)
    ):
        return f"{func.id}()", call.args[0]
    if isinstance(func, ast.Name) and model.is_builtin(func):
        values = [a for a in call.args if not isinstance(a, ast.Starred)]
        if func.id == "round" and len(call.args) == 1 and not call.keywords and values:
            return "round()", values[0]
        if func.id in _COMPARING_BUILTINS and len(values) >= 2 and len(values) == len(call.args):
            device = next((v for v in values if model.is_device(v)), None)
            if device is not None and not _picked_element(model, device):
                return f"{func.id}()", device
    return None


def _picked_element(model: FileModel, value: ast.expr, depth: int = 0) -> bool:
    """Is ``value`` made from elements a loop picks (``a[i]``, the items of
    ``zip(rows, cols)``), directly or through names? Then the comparison is
    a symptom of that element loop, which is the finding (CPN101/CPN103):
    vectorising it removes the comparison too."""
    if depth > _PICK_DEPTH:
        return False
    for node in walk(value):
        if isinstance(node, ast.Subscript) and model.is_array(node.value):
            return True
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            for binding in model.reaching_bindings(node):
                if binding.kind is BindKind.ELEMENT and model.is_array(binding.value):
                    return True
                if binding.kind in (BindKind.VALUE, BindKind.AUG) and binding.value is not None \
                        and _picked_element(model, binding.value, depth + 1):
                    return True
    return False


def _table_set_up_once(model: FileModel, value: ast.expr, context: LoopContext) -> bool:
    """A conversion of a table the code writes out (``c.tolist()`` of nine
    lattice directions) in a loop no other loop repeats: setting up, a
    handful of round trips in all."""
    if context.call is not None or not runs_once(model, context.loop):
        return False
    arrays = [n for n in walk(value) if isinstance(n, ast.Name) and model.is_array(n)]
    return bool(arrays) and all(model.values.written_out(n) for n in arrays)
