"""CPN110: a Python builtin (``sum``, ``max``, ``sorted``, ``list``, ...) that iterates a device array."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..registry import Category, FixExample, Invalid, NoFix, Rule, Valid
from ._context import loop_context
from ._roots import unfolded

# Builtins that consume an iterable, with the NumPy way to say the same thing.
_CONSUMERS: dict[str, str] = {
    "sum": "np.sum",
    "min": "np.min",
    "max": "np.max",
    "any": "np.any",
    "all": "np.all",
    "sorted": "np.sort",
    "set": "np.unique",
    "frozenset": "np.unique",
    "list": "the array itself, or one .tolist() at a host boundary",
    "tuple": "the array itself, or one .tolist() at a host boundary",
    "dict": "whole-array operations, or one .tolist() at a host boundary",
    "reversed": "np.flip",
    "iter": "whole-array operations",
    "map": "a whole-array expression (NumPy ufuncs apply elementwise)",
    "filter": "a boolean mask (a[cond])",
    "enumerate": "whole-array operations with np.arange for the positions",
    "zip": "whole-array operations on the arrays together",
}
# Builtins that iterate lazily and pass the items on; `enumerate(arr)` and
# `zip(arr, ...)` on their own are loops over an array (CPN101/CPN103), so
# they are reported only inside a consumer such as `dict(enumerate(arr))`.
_LAZY = frozenset({"map", "filter", "reversed", "iter", "enumerate", "zip"})
_ONLY_INSIDE_CONSUMER = frozenset({"enumerate", "zip"})
# Builtins that hash each item: a device array's items are 0-d arrays, which
# cuPyNumeric 26.6.1 cannot hash (TypeError).
_HASHING = frozenset({"set", "frozenset"})
# Builtins that only collect what they iterate.
_CONTAINERS = frozenset({"list", "tuple", "dict", "set", "frozenset"})


class BuiltinOnArray(Rule):
    """
    ## What it does
    Reports a Python builtin that walks through a NumPy array item by item:
    `sum(a)`, `min(a)`, `max(a)`, `any(mask)`, `all(mask)`, `sorted(a)`,
    `list(a)`, `tuple(a)`, `set(a)`, `frozenset(a)`, `reversed(a)`,
    `iter(a)`, `map(f, a)`, `filter(f, a)`, and consumers of those such as
    `dict(enumerate(a))` or `list(zip(a, b))` (one finding, at the outermost
    call). `min`/`max` are reported here only with a single positional
    argument: `max(a, b)` compares two values and does not iterate (on a 0-d
    device value that comparison is a host sync, CPN104's finding).

    `len(a)` is not reported: it reads the length from the array's shape and
    touches no data. Inside an element loop (CPN101) or a recurrence
    (CPN410) the call is part of that loop's finding, which counts it.

    ## Why it does not scale on cuPyNumeric
    A Python builtin knows nothing about arrays: it asks the array for its
    items one at a time through the iteration protocol. On cuPyNumeric every
    item is a separate host-side fetch from a distributed array, with a
    synchronisation each time, so a reduction that one GPU task could do in
    parallel becomes a serial Python loop — the same problem as iterating
    over an array with `for`. `set(a)`, `frozenset(a)` and `seen.update(a)`
    on a set do not even run:
    the items are 0-d arrays, which cuPyNumeric 26.6.1 cannot hash
    (`TypeError: unhashable type`, seen under the runtime), so the report
    lists them under "What breaks first"; `np.unique(a)` gives the values.

    ## Example
    ```python
    import numpy as np

    errors = np.abs(predicted - observed)
    total = sum(errors)
    worst = max(errors)
    ok = all(errors < 1e-3)
    ```

    ## Use instead
    ```python
    total = np.sum(errors)
    worst = np.max(errors)
    ok = np.all(errors < 1e-3)
    ```
    Wrap the result in `float(...)`/`bool(...)` only where a Python value is
    really needed, once, outside the hot loop (recipe RR-loop).

    ## Known false alarms
    Builtins applied to lists, tuples, generators and ranges, to `a.shape`
    or `a.tolist()`, to arrays of the host alias (`onp` beside
    `import cupynumeric as np`) and to values the model cannot show to be
    arrays are not reported, nor is a name inside
    `if isinstance(x, (list, tuple)):`; neither are names that shadow a
    builtin (a local `def sum(...)`, `from numpy import max`,
    `from numpy import *`).
    """

    code = "CPN110"
    slug = "builtin-on-array"
    category = Category.BLOCKS
    recipe = "RR-loop"
    summary = "Python builtin iterating a NumPy array"
    message = (
        "{call} iterates array '{array}' one item at a time through Python, a host fetch per item; "
        "use {replacement} instead (RR-loop)"
    )
    short = "{call} iterates '{array}' item by item in Python (RR-loop)"

    valid = (
        Valid("""
            import numpy as np
            a = np.arange(10)
            n = len(a)
            total = np.sum(a)
            rows = max(a.shape)
            dims = tuple(a.shape)
            """),
        Valid("""
            import numpy as np
            total = sum(x for x in range(3))
            best = max([1, 2, 3])
            names = sorted({'b', 'a'})
            """),
        Valid("""
            import numpy as np
            a = np.arange(4)
            items = list(a.tolist())
            first = min(a.tolist())
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            h = onp.arange(5)
            s = sum(h)
            m = max(h)
            """),
        Valid("""
            import numpy as np
            def sum(values):
                return np.sum(values)
            a = np.ones(3)
            t = sum(a)
            """),
        Valid("""
            import numpy as np
            a = np.ones(3)
            b = np.zeros(3)
            c = max(a, b)
            """),
        Valid("""
            from numpy import *
            a = arange(3)
            t = sum(a)
            m = max(a)
            """),
        Valid("""
            import numpy as np
            def norm(shape):
                if isinstance(shape, (list, tuple)):
                    return tuple(shape)
                return np.asarray(shape)
            """),
        Valid("""
            import numpy as np
            a = np.ones(3)
            for i, v in enumerate(a):
                print(i, v)
            pairs = zip(a, a)
            """),
    )
    invalid = (
        # a lambda bound to a name is a function of the file: its result is
        # NumPy's square root of an array
        Invalid("""
            import numpy as np
            circ = lambda x: np.sqrt(1.0 - x ** 2)
            fx = circ(np.random.rand(1000))
            top = max(fx)
            """, line=4, contains="max(fx)"),
        Invalid("""
            import numpy as np
            err = np.abs(np.ones(5) - 0.5)
            total = sum(err)
            """, line=3, contains="np.sum"),
        # a set filled from an array's items: unhashable 0-d items on cuPyNumeric
        Invalid("""
            import numpy as np
            seen = set()
            for row in np.eye(3):
                seen.update(np.sign(row).astype(int))
            """, line=4, contains="np.unique"),
        # through a module's alias of a NumPy function
        Invalid("""
            import numpy as np
            _SIGN = np.sign
            def corner_signs(nodes):
                signs = set()
                signs.update(_SIGN(np.asarray(nodes)[0]).astype(int))
                return signs
            """, line=5, contains="signs.update"),
        # pylab star-imports NumPy, then puts Python's max, min and round back
        Invalid("""
            from pylab import *
            T = zeros(8)
            total = sum(T)
            peak = max(T)
            """, line=4, contains="max(T)"),
        Invalid("""
            import numpy as np
            a = np.arange(6)
            peak = max(a, key=abs)
            """, line=3, contains="'a'"),
        Invalid("""
            import numpy as np
            mask = np.ones(4) > 0
            ok = any(mask)
            """, line=3),
        Invalid("""
            import numpy as np
            a = np.arange(4)
            lookup = dict(enumerate(a))
            """, line=3, contains="dict(enumerate(a))"),
        Invalid("""
            import numpy as np
            a = np.linspace(0, 1, 5)
            vals = list(map(float, a))
            """, line=3, contains="whole-array expression"),
        Invalid("""
            import numpy as np
            def ordered(x: np.ndarray):
                return sorted(x)
            """, line=3, contains="np.sort"),
        Invalid("""
            import numpy as np
            a = np.arange(5)
            for v in reversed(a):
                print(v)
            """, line=3, contains="np.flip"),
    )

    fix_note = (
        "`cpn-lint fix` rewrites one-argument `sum(a)`, `min(a)`, `max(a)`, `any(a)` and `all(a)` on an array as "
        "the NumPy reduction along axis 0, which is what the builtin computes (`np.sum(a)` when `a` is known to "
        "be 1-D), spelled with the file's NumPy alias. `sum` only when `a`'s dtype is known: the builtin adds in "
        "the array's own dtype, so a narrow integer sum wraps where `np.sum` widens. Floating-point sums may "
        "differ in the last bits (NumPy adds pairwise), and with NaNs in the array `np.max`/`np.min` return NaN "
        "where the builtin's answer depends on where the NaN sits. `sorted`, `list`, `set` and the other "
        "builtins, and calls with a start value, `key=` or `default=`, are left."
    )
    fix_examples = (
        FixExample(
            """
            import numpy as np
            err = np.abs(np.linspace(0.0, 1.0, 5) - 0.5)
            total = sum(err)
            worst = max(err)
            """,
            """
            import numpy as np
            err = np.abs(np.linspace(0.0, 1.0, 5) - 0.5)
            total = np.sum(err)
            worst = np.max(err)
            """,
        ),
        FixExample(
            """
            import numpy as xp
            mask = xp.ones(4) > 0
            ok = any(mask)
            """,
            """
            import numpy as xp
            mask = xp.ones(4) > 0
            ok = xp.any(mask)
            """,
        ),
        FixExample(
            """
            import numpy as np
            def column_totals(table: np.ndarray):
                return sum(table.astype(float))
            """,
            """
            import numpy as np
            def column_totals(table: np.ndarray):
                return np.sum(table.astype(float), axis=0)
            """,
        ),
        NoFix("""
            import numpy as np
            def ordered(x: np.ndarray):
                return sorted(x)
            """, "no one-call NumPy replacement"),
        NoFix("""
            import numpy as np
            a = np.arange(6)
            peak = max(a, key=abs)
            """, "only the one-argument"),
        NoFix("""
            import numpy as np
            def total(x: np.ndarray):
                return sum(x)
            """, "dtype is not known"),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        # inside an element loop or a recurrence this is part of that loop's finding
        yield from unfolded(model, self.code)

    def detect(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy():
            return
        for call in model.nodes(ast.Call):
            name = _builtin_name(model, call)
            if name is None or name in _ONLY_INSIDE_CONSUMER:
                continue
            array = _iterated_array(model, call)
            if array is None or _consumed_further_out(model, call):
                continue
            context = loop_context(model, call)
            yield self.finding(
                call,
                in_loop=model.in_loop(call),
                call=model.segment(call, 40),
                array=model.segment(array, 24),
                replacement=_replacement(model, call),
                # the loop whose iterations repeat it: the report lists a loop's host waits as one root cause;
                # a set of the items raises (tests/test_oracle_hashing.py), so the report lists it as a break
                data=_data(context.line if context is not None else None,
                           name in _HASHING and bool(call.args) and call.args[0] is array),
            )
        for call, array in _set_updates(model):
            context = loop_context(model, call)
            yield self.finding(call, in_loop=model.in_loop(call), call=model.segment(call, 40),
                               array=model.segment(array, 24), replacement="np.unique",
                               data=_data(context.line if context is not None else None, True))


def _set_updates(model: FileModel) -> Iterator[tuple[ast.Call, ast.expr]]:
    """``seen.update(a)`` with ``seen = set()`` (or a set display) and ``a`` a
    device array: the set hashes the array's items, 0-d arrays under
    cuPyNumeric, which are unhashable (TypeError)."""
    for call in model.nodes(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "update" and isinstance(func.value, ast.Name)
                and len(call.args) == 1 and model.is_array(call.args[0])):
            continue
        bindings = model.reaching_bindings(func.value)
        if bindings and all(_makes_a_set(b.value) for b in bindings):
            yield call, call.args[0]


def _makes_a_set(value: ast.expr | None) -> bool:
    return isinstance(value, (ast.Set, ast.SetComp)) or (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "set")


def _data(loop_line: int | None, unhashable: bool) -> dict[str, object] | None:
    data: dict[str, object] = {}
    if loop_line is not None:
        data["loop_line"] = loop_line
    if unhashable:
        data["unhashable"] = True
    return data or None


def _builtin_name(model: FileModel, call: ast.Call) -> str | None:
    """The builtin a call invokes, when it is one of ours and not shadowed."""
    func = call.func
    if not isinstance(func, ast.Name) or func.id not in _CONSUMERS or not model.is_builtin(func):
        return None  # a local def, or NumPy's own sum/max after the star import (pylab puts max, min, round back)
    return func.id


def _iterated_array(model: FileModel, call: ast.Call) -> ast.expr | None:
    """The device array a builtin call iterates (directly or through lazy builtins)."""
    name = _builtin_name(model, call)
    if name is None:
        return None
    for argument in _iterables(name, call):
        if isinstance(argument, ast.Starred):
            continue
        if model.is_array(argument) and not _narrowed(model, argument):
            return argument
        if isinstance(argument, ast.Call) and _builtin_name(model, argument) in _LAZY:
            inner = _iterated_array(model, argument)
            if inner is not None:
                return inner
    return None


def _replacement(model: FileModel, call: ast.Call) -> str:
    """What to write instead; for ``list(map(f, a))`` the inner builtin says more."""
    name = _builtin_name(model, call) or ""
    inner = call.args[0] if call.args and name in _CONTAINERS else None
    if isinstance(inner, ast.Call) and _builtin_name(model, inner) in _LAZY:
        return _replacement(model, inner)
    return _CONSUMERS[name]


def _narrowed(model: FileModel, argument: ast.expr) -> bool:
    """``if isinstance(x, list): x = tuple(x)``: here x is not an array."""
    return isinstance(argument, ast.Name) and model.narrowed_to_non_array(argument)


def _iterables(name: str, call: ast.Call) -> list[ast.expr]:
    """The arguments the builtin iterates over."""
    args = call.args
    if name in ("min", "max"):
        return args[:1] if len(args) == 1 else []  # max(a, b) compares, it does not iterate
    if name == "map":
        return args[1:]
    if name == "filter":
        return args[1:2]
    if name == "zip":
        return list(args)
    return args[:1]


def _consumed_further_out(model: FileModel, call: ast.Call) -> bool:
    """``map(f, a)`` inside ``list(...)`` or ``dict(enumerate(...))``: the
    consumer further out carries the one finding for the chain."""
    node: ast.AST = call
    while _builtin_name(model, node) in _LAZY:  # type: ignore[arg-type]
        parent = model.parent(node)
        if not isinstance(parent, ast.Call):
            return False
        parent_name = _builtin_name(model, parent)
        if parent_name is None or node not in _iterables(parent_name, parent):
            return False
        if parent_name not in _ONLY_INSIDE_CONSUMER:
            return True
        node = parent
    return False
