"""CPN102: np.vectorize / np.frompyfunc — a Python function run per element."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..registry import Category, Invalid, Rule, Valid

_FUNCTIONS = frozenset({"vectorize", "frompyfunc"})


class NumpyVectorize(Rule):
    """
    ## What it does
    Reports `np.vectorize(f)` and `np.frompyfunc(f, ...)` — as calls or as the
    `@np.vectorize` decorator — when the name resolves to NumPy (or
    cuPyNumeric) through the file's imports.

    ## Why it does not scale on cuPyNumeric
    `np.vectorize` is a Python loop in disguise: it calls a Python function
    once for every element. No GPU kernel can run a Python function, so on
    cuPyNumeric the work stays on one CPU thread however many GPUs you have.

    ## Example
    ```python
    import numpy as np

    relu_plus = np.vectorize(lambda x: x * x + 1.0 if x > 0 else 0.0)
    out = relu_plus(arr)
    ```

    ## Use instead
    ```python
    out = np.where(arr > 0, arr * arr + 1.0, 0.0)
    ```
    When one branch is expensive, compute it only on the masked elements
    (`out[mask] = f(arr[mask])`), recipe RR-where.

    ## Known false alarms
    A `vectorize` from another library (`numba.vectorize`, the host alias
    `onp.vectorize` beside cuPyNumeric) is not reported.
    """

    code = "CPN102"
    slug = "numpy-vectorize"
    category = Category.BLOCKS
    recipe = "RR-where"
    summary = "np.vectorize/np.frompyfunc runs a Python function per element"
    message = ("{call} calls a Python function once per element{gap}; rewrite it with np.where or whole-array "
               "arithmetic (RR-where)")
    short = "{call} calls a Python function per element{missing} (RR-where)"

    valid = (
        Valid("""
            import numpy as np
            out = np.where(a > 0, a * a + 1.0, 0.0)
            """),
        Valid("""
            from numba import vectorize
            @vectorize
            def f(x):
                return x + 1
            import numpy as np
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            f = onp.vectorize(len)
            """),
        Valid("""
            import numpy as np
            # np.vectorize(f) would be slow here
            s = 'np.vectorize(f)'
            """),
    )
    invalid = (
        Invalid("""
            import numpy as np
            f = np.vectorize(lambda x: x if x > 0 else 0.0)
            """, line=2, contains="np.vectorize"),
        Invalid("""
            from numpy import vectorize
            f = vectorize(abs)
            """, line=2),
        Invalid("""
            import numpy
            @numpy.vectorize
            def g(x):
                return x * 2
            """, line=2),
        Invalid("""
            import cupynumeric as cpn
            h = cpn.frompyfunc(max, 2, 1)
            """, line=2),
        Invalid("""
            import numpy as np
            x = np.arange(5.0)
            y = np.vectorize(round, otypes='d')(x)
            """, line=3, contains="np.vectorize"),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy() or ("vectorize" not in model.source and "frompyfunc" not in model.source):
            return
        for reference in _vectorize_references(model):
            node = _call_or_decorator(model, reference)
            if node is None:
                continue  # a bare reference (`vec = np.vectorize`) is not a use yet
            callee = node.func if isinstance(node, ast.Call) else node
            gap = _gap(model, reference)
            yield self.finding(node, in_loop=model.in_loop(node), gap=gap, missing=", missing in cuPyNumeric" if gap else "",
                               call=model.segment(callee, 40) + ("(...)" if isinstance(node, ast.Call) else ""))


def _gap(model: FileModel, reference: ast.expr) -> str:
    """", and cuPyNumeric 26.6.1 lacks it (AttributeError)" when the manifest
    in use says the name is missing (CPN401 leaves these names to this rule)."""
    from ..manifest import active

    entry = active().lookup(f"numpy.{model.array_api(reference)}")
    if entry is None or entry.status.implemented:
        return ""
    return f", and cuPyNumeric {active().cupynumeric_version} lacks it (AttributeError)" if entry.lacks else \
        f", and cuPyNumeric {active().cupynumeric_version} does not support it"


def _vectorize_references(model: FileModel) -> list[ast.expr]:
    """Every reference to NumPy's vectorize or frompyfunc."""
    index = model.nodes_by_type()
    found: list[ast.expr] = []
    for node_type, label in ((ast.Attribute, "attr"), (ast.Name, "id")):
        for node in index.get(node_type, ()):
            if getattr(node, label) in _FUNCTIONS and model.array_api(node) in _FUNCTIONS:  # type: ignore[arg-type]
                found.append(node)  # type: ignore[arg-type]
    return found


def _call_or_decorator(model: FileModel, reference: ast.expr) -> ast.AST | None:
    """The call made with the reference (``np.vectorize(f)``, also as
    ``@np.vectorize(...)``), or the reference used as a decorator."""
    parent = model.parent(reference)
    if isinstance(parent, ast.Call) and parent.func is reference:
        return parent
    if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and any(d is reference for d in parent.decorator_list):
        return reference
    return None
