"""CPN202: ``x = x + y`` on an array inside a loop — a new array every iteration."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import BindKind, FileModel, Kind
from ..model.loop_iterations import hot_chain
from ..model.hoisting import runs_every_iteration
from ..model.iteration import fresh_in_iteration
from ._context import describe_loop, kept_each_iteration, key_text
from ..registry import Category, FixExample, Invalid, NoFix, Rule, Valid
from ..model.numpy_api import COMMUTATIVE_OPERATORS, IN_PLACE_OPERATORS, OUT_UFUNCS, ZERO_D_REDUCTIONS
from ..model.syntax import walk

_OPERATORS = IN_PLACE_OPERATORS
_COMMUTATIVE = COMMUTATIVE_OPERATORS


class RebindInLoop(Rule):
    """
    ## What it does
    Reports an assignment inside a loop that computes a new array from the
    same name and rebinds the name to it — `x = x + y`, `x = x * c`,
    `x = 0.5 * (x + y)`, `x = np.sin(x) + y` — when `x` is a NumPy array
    carried from one iteration to the next and every step from `x` to the
    result is elementwise (operators, or ufuncs such as `np.sin`,
    `np.maximum`, `np.clip`), so the result has `x`'s shape. The finding is
    at the assignment.

    ## Why it does not scale on cuPyNumeric
    Each evaluation of `x + y` allocates a new array for the result and
    abandons the old `x`. On cuPyNumeric the old array cannot be freed at
    once: tasks already queued still read it, so its memory is held until
    they finish while the next iteration allocates again. Per iteration
    that is one allocation, one deferred release and extra pressure on the
    device memory pool — work an in-place update does not need.

    ## Example
    ```python
    import numpy as np

    def relax(x, y, steps):
        for _ in range(steps):
            x = x + 0.1 * y
        return x
    ```

    ## Use instead
    Update the array in place (recipe RR-inplace):
    ```python
    def relax(x, y, steps):
        x = x.copy()                   # only if the caller's array must stay untouched
        for _ in range(steps):
            x += 0.1 * y               # or np.add(x, 0.1 * y, out=x)
        return x
    ```
    Longer expressions become a chain of ufunc calls with `out=`:
    `x = np.sin(x) + y` becomes `np.sin(x, out=x); np.add(x, y, out=x)`.

    ## Known false alarms
    * Not reported: tuple swaps (`u, w = w, u`, the double-buffer idiom),
      `np.add(x, y, out=x)` and `x += y` (already in place); names that
      hold a single number — they start as a Python number, a whole-array
      reduction (`total = total + np.sum(a)`, `r = r * norm` after
      `r = np.linalg.norm(v)`) or one element (`p = a[i, j]`), or are tested
      as a truth value (`while n > 2:`); a one-element start that
      broadcasting grows (`value = np.array([0.0])`); lists; rebinds that
      change the shape or the buffer (`x = x[1:]`, `x = x.reshape(...)`,
      `x = x.T`, `x = x @ A`); an `x` freshly bound earlier in the same
      iteration (a loop target, `x = load(f)` a line before, or
      `s = np.sum(t * s, axis=0)` before `s = s / norm`); an `x` the loop
      keeps every iteration (`rows.append(x)`, `history[t] = x` into a
      list), which needs a new array each time; loops over a few axes or
      taps.
    * An in-place update changes the array itself: if `x` is also known by
      another name (a caller's argument, an array stored elsewhere), copy it
      once before the loop. If broadcasting makes the result larger than
      `x`, or an integer array meets a float, the in-place form does not
      apply; suppress with `# noqa: CPN202`.
    """

    code = "CPN202"
    slug = "rebind-in-loop"
    category = Category.REFACTOR
    recipe = "RR-inplace"
    summary = "Array rebound to a new array computed from itself inside a loop"
    message = (
        "'{statement}' allocates a new array for '{name}' on every iteration of {loop} and leaves "
        "the old one to be freed; update it in place: {fix} (RR-inplace)"
    )
    short = "'{statement}' makes a new array each iteration: update it in place (RR-inplace)"

    valid = (
        # a name bound to itself computes nothing (an else branch kept for symmetry)
        Valid("""
            import numpy as np
            best = np.zeros(2)
            X = np.random.rand(20, 2)
            for i in range(20):
                if X[i, 0] > best[0]:
                    best = X[i, :]
                else:
                    best = best
            """),
        # the double buffer: a tuple swap, with out= writes
        Valid(
            """
            import numpy as np
            u = np.zeros(100)
            w = np.zeros(100)
            for step in range(50):
                np.add(u, 1.0, out=w)
                u, w = w, u
            """
        ),
        # already in place
        Valid("""
            import numpy as np
            x = np.ones(10)
            y = np.ones(10)
            for i in range(100):
                np.add(x, y, out=x)
                x += y
            """),
        # scalars, reductions and lists
        Valid(
            """
            import numpy as np
            a = np.ones(10)
            total = 0.0
            items = []
            for i in range(100):
                total = total + np.sum(a)
                items = items + [i]
                s = np.max(a)
                s = s * 2
            """
        ),
        # the result is a different buffer or shape
        Valid(
            """
            import numpy as np
            x = np.arange(100.0)
            m = np.eye(100)
            for i in range(10):
                x = x[1:]
                x = x.reshape(-1, 1).ravel()
                x = m @ x
            """
        ),
        # freshly bound in the iteration
        Valid("""
            import numpy as np
            def run(frames):
                for frame in frames:
                    img = np.asarray(frame)
                    img = img * 2.0
            """),
        # a rescaling made every N steps only
        Valid("""
            import numpy as np
            v = np.ones(100)
            for i in range(1000):
                v *= 0.999
                if i % 100 == 0:
                    v = 1.01 * v
            """),
        # a filter's output sample: one coefficient times one input, then tap by tap
        Valid("""
            import numpy as np
            class Fir:
                def __init__(self, taps: np.ndarray):
                    self.taps = taps
                    self.buffer = np.zeros(len(taps))
                def step(self, x: float) -> float:
                    y = x * self.taps[0]
                    for i in range(1, len(self.taps)):
                        y = y + self.buffer[i - 1] * self.taps[i]
                    return y
            """),
        # outside any loop
        Valid("""
            import numpy as np
            x = np.ones(4)
            x = x + 1
            """),
        # every iteration's array is kept: a new one per step is the point
        Valid("""
            import numpy as np
            s = np.ones(100)
            rows = [s]
            for step in range(50):
                s = s * 1.01
                rows.append(s)
            """),
        # made afresh earlier in the iteration by a reduction, then scaled
        Valid("""
            import numpy as np
            def scores(table, rounds):
                s = np.ones(table.shape[1])
                for _ in range(rounds):
                    s = np.sum(table * s, axis=0)
                    s = s / np.linalg.norm(s)
                return s
            """),
    )
    invalid = (
        # the weights an estimator keeps on itself, updated every epoch
        Invalid("""
            import numpy as np
            class Regression:
                def fit(self, X, y, lr, n_iter):
                    self.w = np.zeros(X.shape[1])
                    for _ in range(n_iter):
                        grad = X.T @ (X @ self.w - y)
                        self.w = self.w - lr * grad
            """, line=7, contains="self.w -= lr * grad"),
        Invalid(
            """
            import numpy as np
            x = np.zeros(100)
            y = np.ones(100)
            for _ in range(1000):
                x = x + y
            """,
            line=5,
            contains="x += y",
        ),
        Invalid(
            """
            import numpy as np
            x = np.ones(100)
            for _ in range(1000):
                x = x * 0.99
            """,
            line=4,
            contains="np.multiply(x, 0.99, out=x)",
        ),
        Invalid(
            """
            import numpy as np
            x = np.linspace(0, 1, 100)
            y = np.ones(100)
            step = 0
            while step < 10:
                x = np.sin(x) + y
                step += 1
            """,
            line=6,
            contains="out=",
        ),
        Invalid(
            """
            import numpy as np
            def relax(x: np.ndarray, y: np.ndarray, steps: int):
                for _ in range(steps):
                    x = 0.5 * (x + y)
                return x
            """,
            line=4,
        ),
        Invalid(
            """
            import numpy as np
            v = np.zeros((8, 8))
            force = np.ones((8, 8))
            for t in range(100):
                v = np.clip(v + force, -1.0, 1.0)
            """,
            line=5,
        ),
    )

    fix_note = (
        "`cpn-lint fix` rewrites `x = x <op> y` as `x <op>= y`, and `x = y - x` or `x = np.<ufunc>(..., x, ...)` "
        "as a call with `out=x`, when the model proves the loop owns the array: every binding of `x` that reaches "
        "the loop or is made in it creates a new array (not a parameter, another name or a view), no read of `x` "
        "keeps the array (another name, a container, a callee that may keep it, another function), `y` keeps "
        "`x`'s shape, and the update keeps `x`'s dtype (an integer `x` with a float `y`, or a float `x` with a "
        "complex `y`, is refused). Longer expressions (`x = 0.5 * (x + y)`) are left for a chain of `out=` calls "
        "by hand."
    )
    fix_examples = (
        FixExample(
            """
            import numpy as np
            x = np.zeros(100)
            y = np.ones(100)
            for _ in range(1000):
                x = x + 0.1 * y
            """,
            """
            import numpy as np
            x = np.zeros(100)
            y = np.ones(100)
            for _ in range(1000):
                x += 0.1 * y
            """,
        ),
        FixExample(
            """
            import numpy as np
            def wrap(n, steps):
                box = 2.0
                pos = np.linspace(0.0, 2.0 * box, n)
                for _ in range(steps):
                    pos = np.mod(pos, box)
                return pos
            """,
            """
            import numpy as np
            def wrap(n, steps):
                box = 2.0
                pos = np.linspace(0.0, 2.0 * box, n)
                for _ in range(steps):
                    np.mod(pos, box, out=pos)
                return pos
            """,
        ),
        FixExample(
            """
            import numpy as np
            x = np.zeros(1000)
            target = np.ones(1000)
            for _ in range(10):
                x = target - x
            """,
            """
            import numpy as np
            x = np.zeros(1000)
            target = np.ones(1000)
            for _ in range(10):
                np.subtract(target, x, out=x)
            """,
        ),
        NoFix(
            """
            import numpy as np
            def relax(x: np.ndarray, y: np.ndarray, steps: int):
                for _ in range(steps):
                    x = x + y
                return x
            """,
            "is a parameter",
        ),
        NoFix(
            """
            import numpy as np
            x = np.zeros(10)
            start = x
            for _ in range(100):
                x = x + 1.0
            """,
            "may also be kept at line 3",
        ),
        NoFix(
            """
            import numpy as np
            x = np.zeros(10)
            history = []
            for _ in range(100):
                x = x + 1.0
                keep(history, x)
            """,
            "may also be kept at line 6",
        ),
        NoFix("""
            import numpy as np
            x = np.arange(10)
            for _ in range(100):
                x = x + 0.5
            """, "may change the dtype"),
        NoFix(
            """
            import numpy as np
            x = np.zeros(4)
            wave = np.ones(4) * 1j
            for _ in range(100):
                x = x + wave
            """,
            "may change the dtype",
        ),
        NoFix(
            """
            import numpy as np
            x = np.zeros(4)
            m = np.ones((3, 4))
            for _ in range(100):
                x = x + m
            """,
            "not known to keep the shape",
        ),
        NoFix(
            """
            import numpy as np
            x = np.zeros(8)
            y = np.ones(8)
            for _ in range(100):
                x = 0.5 * (x + y)
            """,
            "are rewritten automatically",
        ),
        NoFix(
            """
            import numpy as np
            state = np.zeros(3)
            for _ in range(100):
                state = np.mod(state, 0.3)
            """,
            "would hide CPN410",
        ),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy():
            return
        for stmt in model.nodes(ast.Assign):
            frame = model.loop_of(stmt)
            if frame is None or not hot_chain(frame):
                continue
            if len(stmt.targets) != 1:
                continue
            name = key_text(stmt.targets[0])  # x, or self.weights updated in a method's loop
            if name is None or (isinstance(stmt.targets[0], ast.Attribute) and "." in name.partition(".")[2]):
                continue  # a.b.c: too far from the object to follow
            use = _elementwise_use(model, stmt.value, name)
            if use is None or use is stmt.value:
                continue  # x = x: a no-op, nothing computed or allocated
            if model.kind(use) is not Kind.DEVICE or model.kind(stmt.value) is not Kind.DEVICE:
                continue
            if _starts_small(model, use, stmt) or fresh_in_iteration(model, stmt, frame, name) or _tested_as_truth_value(model, name, stmt):
                continue
            if not _carried(model, stmt, frame, name) or kept_each_iteration(model, frame, name) is not None:
                continue
            if not runs_every_iteration(model, stmt, frame):
                continue  # every N steps (if i % 100 == 0) or once: not an allocation per iteration
            yield self.finding(
                stmt,
                in_loop=True,
                statement=model.segment(stmt, 50),
                name=name,
                loop=describe_loop(model, frame),
                fix=_fix(model, stmt.value, name),
                data={"name": name, "loop_line": frame.line},
            )


def _carried(model: FileModel, stmt: ast.Assign, frame, name: str, depth: int = 0) -> bool:  # type: ignore[no-untyped-def]
    """Does the array the statement updates come from an earlier iteration
    (or from before the loop), directly or through elementwise updates of
    itself earlier in this iteration (``x = x + a; x = x * b``)? Not when
    the last statement of the iteration that binds ``name`` before this one
    made it afresh by anything else (``s = np.sum(t * s, axis=0)`` then
    ``s = s / norm``): that array is new every iteration whatever this
    line does."""
    earlier = _last_binding_before(model, stmt, frame, name)
    if earlier is None or isinstance(earlier, ast.AugAssign) or depth > 8:
        return True
    use = _elementwise_use(model, earlier.value, name)
    return use is not None and _carried(model, earlier, frame, name, depth + 1)


def _last_binding_before(model: FileModel, stmt: ast.stmt, frame, name: str) -> ast.Assign | ast.AugAssign | None:  # type: ignore[no-untyped-def]
    """The nearest statement before ``stmt`` in the same iteration that
    always binds ``name`` (in ``stmt``'s block or a block enclosing it
    inside the loop), or None."""
    child: ast.AST = stmt
    for ancestor in model.ancestors(stmt):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(ancestor, field, None)
            if not isinstance(block, list) or not any(s is child for s in block):
                continue
            position = next(i for i, s in enumerate(block) if s is child)
            for earlier in reversed(block[:position]):
                if isinstance(earlier, ast.Assign) and any(key_text(t) == name for t in earlier.targets):
                    return earlier
                if isinstance(earlier, ast.AugAssign) and key_text(earlier.target) == name:
                    return earlier
        if ancestor is frame.node:
            return None
        child = ancestor
    return None


def _elementwise_use(model: FileModel, expr: ast.expr, name: str) -> ast.Name | ast.Attribute | None:
    """The load of ``name`` (``x`` or ``self.x``) reached from ``expr``
    through elementwise steps only."""
    if isinstance(expr, (ast.Name, ast.Attribute)):
        return expr if key_text(expr) == name else None
    if isinstance(expr, ast.BinOp):
        if isinstance(expr.op, ast.MatMult):
            return None
        return _elementwise_use(model, expr.left, name) or _elementwise_use(model, expr.right, name)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        return _elementwise_use(model, expr.operand, name)
    if isinstance(expr, ast.Call) and model.call_api(expr) in OUT_UFUNCS:
        if any(k.arg == "out" for k in expr.keywords) or len(expr.args) > _max_inputs(model.call_api(expr)):
            return None  # writes into out= already
        for arg in expr.args:
            found = _elementwise_use(model, arg, name)
            if found is not None:
                return found
    return None


def _max_inputs(api: str | None) -> int:
    """Positional inputs before a positional out argument."""
    if api == "clip":
        return 3
    binary = {"add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power", "float_power",
              "remainder", "mod", "fmod", "arctan2", "hypot", "maximum", "minimum", "fmax", "fmin",
              "copysign", "logaddexp", "logaddexp2"}
    return 2 if api in binary else 1


def _starts_small(model: FileModel, use: ast.Name | ast.Attribute, stmt: ast.Assign) -> bool:
    """The name begins as something an in-place update cannot hold: a
    Python number or a whole-array reduction (the accumulator idiom), one
    element of an array (``p = a[i, j]``), or a one-element array that
    broadcasting grows (``value = np.array([0.0])``)."""
    if isinstance(use, ast.Attribute):
        bindings = model.class_attribute_bindings(use) or []
    else:
        bindings = model.reaching_bindings(use)
    for binding in bindings:
        if model.statement_of(binding.node) is stmt or binding.kind is not BindKind.VALUE:
            continue
        if binding.value is not None and _is_small(model, binding.value, 0):
            return True
    return False


_MAX_DEPTH = 3


def _is_small(model: FileModel, value: ast.expr, depth: int) -> bool:
    """A number, a 0-d reduction, an element, a one-element array, or a
    name bound only to those (``phibar = beta`` after ``beta = norm(u)``)."""
    if model.kind(value) is Kind.SCALAR:
        return True
    if isinstance(value, ast.Call):
        return _is_full_reduction(model, value) or _is_single_element(model, value)
    if isinstance(value, ast.Subscript):
        parts = value.slice.elts if isinstance(value.slice, ast.Tuple) else [value.slice]
        return not any(isinstance(p, ast.Slice) or (isinstance(p, ast.Constant) and p.value in (None, Ellipsis)) for p in parts)
    if isinstance(value, ast.BinOp) and not isinstance(value.op, ast.MatMult):
        # x * coefficients[0]: arithmetic on numbers and elements is one number
        return _is_small(model, value.left, depth) and _is_small(model, value.right, depth)
    if isinstance(value, ast.UnaryOp):
        return _is_small(model, value.operand, depth)
    if isinstance(value, ast.Name) and depth < _MAX_DEPTH:
        bindings = model.reaching_bindings(value)
        return bool(bindings) and all(
            b.kind is BindKind.VALUE and b.value is not None and _is_small(model, b.value, depth + 1) for b in bindings
        )
    return False


def _tested_as_truth_value(model: FileModel, name: str, stmt: ast.Assign) -> bool:
    """``while n > 2:``, ``if n % 2:`` — an array with more than one element
    has no truth value, so a name tested like this holds a single number."""
    scope = model.scope_of(stmt).function_like()
    return name in model.derived(_names_tested_bare, _names_tested_bare).get(id(scope), ())


def _names_tested_bare(model: FileModel) -> dict[int, set[str]]:
    """Per function-like scope (by id), the names some ``if``/``while``/
    conditional expression/``assert`` test reaches as a bare operand: built
    once per file, so the question costs the same in a file of any size."""
    tested: dict[int, set[str]] = {}
    for node_type in (ast.If, ast.While, ast.IfExp, ast.Assert):
        for node in model.nodes_by_type().get(node_type, ()):
            names = tested.setdefault(id(model.scope_of(node).function_like()), set())
            try:
                _collect_bare_operands(node.test, names)  # type: ignore[attr-defined]
            except RecursionError:
                continue  # a pathologically deep test: its names count as untested
    return tested


def _collect_bare_operands(test: ast.expr, names: set[str]) -> None:
    """Add the names ``test`` reaches through comparisons, boolean and
    arithmetic operators only (``a @ b`` may be a number: not entered)."""
    if isinstance(test, ast.Name):
        names.add(test.id)
    elif isinstance(test, ast.Compare):
        for operand in (test.left, *test.comparators):
            _collect_bare_operands(operand, names)
    elif isinstance(test, ast.BoolOp):
        for value in test.values:
            _collect_bare_operands(value, names)
    elif isinstance(test, ast.UnaryOp):
        _collect_bare_operands(test.operand, names)
    elif isinstance(test, ast.BinOp) and not isinstance(test.op, ast.MatMult):
        _collect_bare_operands(test.left, names)
        _collect_bare_operands(test.right, names)


def _is_single_element(model: FileModel, call: ast.Call) -> bool:
    """``np.array([0.0])``, ``np.array(0.0)``, ``np.zeros(1)``, ``np.ones((1, 1))``."""
    api = model.call_api(call)
    first = call.args[0] if call.args else None
    if api in ("array", "asarray"):
        if isinstance(first, ast.Constant):
            return True
        return isinstance(first, (ast.List, ast.Tuple)) and len(first.elts) == 1 and not isinstance(first.elts[0], (ast.List, ast.Tuple))
    if api in ("zeros", "ones", "empty", "full"):
        dims = first.elts if isinstance(first, (ast.Tuple, ast.List)) else [first]
        return bool(dims) and all(model.const_int(d) == 1 for d in dims)
    return False


def _is_full_reduction(model: FileModel, call: ast.Call) -> bool:
    func = call.func
    api = model.call_api(call)
    if api is None and isinstance(func, ast.Attribute) and model.is_array(func.value):
        api = func.attr
        positional_axis = 0
    else:
        positional_axis = 1
    if api not in ZERO_D_REDUCTIONS:
        return False
    if api in ("dot", "vdot", "inner"):
        return api != "dot"
    has_axis = any(k.arg == "axis" and not (isinstance(k.value, ast.Constant) and k.value.value is None) for k in call.keywords)
    return not has_axis and len(call.args) <= positional_axis


def _fix(model: FileModel, value: ast.expr, name: str) -> str:
    if isinstance(value, ast.BinOp) and type(value.op) in _OPERATORS:
        symbol, ufunc = _OPERATORS[type(value.op)]
        other = None
        if key_text(value.left) == name:
            other = value.right
        elif key_text(value.right) == name and isinstance(value.op, _COMMUTATIVE):
            other = value.left
        if other is not None:
            text = model.segment(other, 30)
            return f"{name} {symbol}= {text} (or np.{ufunc}({name}, {text}, out={name}))"
    steps = _in_place_steps(model, value, name)
    if steps and len(steps) <= _MAX_STEPS:
        return "; ".join(steps)
    return f"write each step into '{name}' with out= (np.add(a, b, out={name}) and the like)"


_MAX_STEPS = 3


def _in_place_steps(model: FileModel, expr: ast.expr, name: str) -> list[str] | None:
    """``x = np.sin(x) + y`` -> ``["np.sin(x, out=x)", "np.add(x, y, out=x)"]``:
    the ufunc calls that compute the same value inside ``x``'s own buffer.
    None unless ``x`` occurs once and every step on the way to it is elementwise."""
    if isinstance(expr, (ast.Name, ast.Attribute)) and key_text(expr) == name:
        return []
    if isinstance(expr, ast.Name):
        return None
    if sum(key_text(n) == name for n in walk(expr) if isinstance(n, (ast.Name, ast.Attribute))) != 1:
        return None
    if isinstance(expr, ast.BinOp) and type(expr.op) in _OPERATORS:
        ufunc = _OPERATORS[type(expr.op)][1]
        if _mentions(expr.left, name):
            inner, args = _in_place_steps(model, expr.left, name), f"{name}, {model.segment(expr.right, 30)}"
        else:
            inner, args = _in_place_steps(model, expr.right, name), f"{model.segment(expr.left, 30)}, {name}"
        return None if inner is None else inner + [f"np.{ufunc}({args}, out={name})"]
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = _in_place_steps(model, expr.operand, name)
        return None if inner is None else inner + [f"np.negative({name}, out={name})"]
    if isinstance(expr, ast.Call) and model.call_api(expr) in OUT_UFUNCS and not expr.keywords:
        texts: list[str] = []
        inner = None
        for arg in expr.args:
            if _mentions(arg, name):
                inner = _in_place_steps(model, arg, name)
                texts.append(name)
            else:
                texts.append(model.segment(arg, 30))
        if inner is None:
            return None
        return inner + [f"np.{model.call_api(expr)}({', '.join(texts)}, out={name})"]
    return None


def _mentions(expr: ast.expr, name: str) -> bool:
    return any(key_text(n) == name for n in walk(expr) if isinstance(n, (ast.Name, ast.Attribute)))
