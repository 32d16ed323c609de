"""CPN103: a Python ``for`` loop or comprehension that iterates a device array."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, IterKind, LoopFrame
from ..registry import Category, Invalid, Rule, Valid
from ..model.loop_iterations import walked_arrays
from ._context import runs_once
from ._roots import folded_text, folding_root, item_root, raw_findings, unfolded, walks_numpy_range

# NumPy ranges that people iterate as if they were Python ranges.
_VECTORISE = "replace the loop with whole-array operations (a reduction with axis=, broadcasting, np.where)"
_HOST_RANGE = "iterate a Python range or list of the values instead, or vectorise over them"


class IterateOverArray(Rule):
    """
    ## What it does
    Finds Python iteration over a NumPy array: `for row in arr`,
    `for i, x in enumerate(arr)`, `for a, b in zip(x, y)` when one of the
    zipped values is an array, and comprehensions or generator expressions
    that draw from an array (`[f(r) for r in arr]`, `sum(x for x in arr)`).
    The finding is at the `for` (or at the comprehension) and names the array
    iterated. Inside an element loop (CPN101) or a recurrence (CPN410) it is
    part of that loop's finding, which counts it. A loop over a NumPy range
    (`for n in np.arange(nt)`) holds the branches and conversions that are
    arithmetic on its item alone (`if n % 10 == 0:`): iterating a Python
    range instead leaves a plain number, so they go with this finding
    rather than stand as CPN105/CPN104 of their own.

    ## Why it does not scale on cuPyNumeric
    A cuPyNumeric array lives on the devices, split across GPUs. Python
    iteration asks it for item 0, then item 1, and so on: every step creates
    a separate small array for the row or element and hands it to
    interpreted code, and the loop cannot move on until that item has been
    computed. The work is serialised in Python however many GPUs there are,
    and each step carries the runtime's fixed per-operation cost.

    ## Example
    ```python
    import numpy as np

    def row_norms(points):
        norms = np.empty(points.shape[0])
        for i, row in enumerate(points):
            norms[i] = np.sqrt(np.sum(row * row))
        return norms

    scores = np.random.rand(1000)
    total = sum(s * s for s in scores)
    ```

    ## Use instead
    ```python
    def row_norms(points):
        return np.sqrt(np.sum(points * points, axis=1))

    total = np.sum(scores * scores)
    ```
    Per-row work becomes a reduction with `axis=`, per-item branches become
    `np.where`, and a loop over `np.arange(n)` or `np.linspace(...)` values
    becomes a loop over a Python `range` (or a vectorised expression)
    (recipe RR-loop).

    ## Known false alarms
    * Iterating lists, tuples, dicts, ranges, `arr.shape`, `arr.tolist()`
      (already on the host), `np.ndindex(...)`, the list of arrays from
      `np.split`/`np.array_split`, and arrays of the host alias (`onp`
      beside `import cupynumeric as np`) is not reported, nor is a value the
      model cannot show to be an array.
    * A short array of a few constants (`for c in np.array([0.5, 0.25])`) is
      reported although each pass is cheap: the loop still waits for the
      device once per item. Iterate the Python list the array was made from.
    * `for i, x in enumerate(arr)` whose body also indexes arrays with `i` is
      reported by CPN101 as well; one vectorised rewrite removes both.
    """

    code = "CPN103"
    slug = "iterate-over-array"
    category = Category.BLOCKS
    recipe = "RR-loop"
    summary = "Python for loop or comprehension iterating a NumPy array"
    message = (
        "{loop} iterates array {arrays} item by item in Python, waiting on the device for every "
        "item; {advice}{folded} (RR-loop)"
    )
    short = "{loop} iterates an array item by item in Python (RR-loop)"

    valid = (
        # a table of nine lattice directions walked once while setting up
        Valid("""
            import numpy as np
            c = np.array([(x, y) for x in (0, -1, 1) for y in (0, -1, 1)])
            w = np.full(9, 1.0 / 36.0)
            w[np.asarray([np.linalg.norm(ci) < 1.1 for ci in c])] = 1.0 / 9.0
            """),
        Valid(
            """
            import numpy as np
            a = np.ones((4, 3))
            for n in a.shape:
                print(n)
            for v in a.tolist():
                print(v)
            for name, w in {'x': 1.0}.items():
                print(name, w)
            """
        ),
        Valid("""
            import numpy as np
            a = np.arange(12.0)
            parts = np.split(a, 3)
            for part in parts:
                part *= 2.0
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            host = onp.arange(5)
            for h in host:
                print(h)
            """),
        Valid("""
            import numpy as np
            a = np.zeros((3, 4))
            for idx in np.ndindex(3, 4):
                a[idx] = 1.0
            """),
        Valid("""
            import numpy as np
            u = np.ones(3)
            v = np.ones(3)
            for arr in (u, v):
                arr *= 2.0
            for k in range(3):
                u += k
            """),
        Valid("""
            import numpy as np
            def f(values):
                return [v * 2 for v in values]
            """),
    )
    invalid = (
        # the test on the item of a NumPy range goes with the loop: a Python
        # range in its place leaves a plain number to test
        Invalid("""
            import numpy as np
            u = np.zeros(1000)
            for n in np.arange(0, 500):
                u[1:-1] = u[1:-1] + 0.1 * (u[2:] - 2 * u[1:-1] + u[:-2])
                if n % 10 == 0:
                    print(u.max())
            """, line=3, contains="it also holds 1 scalar branch"),
        Invalid("""
            import numpy as np

            def scale_in_place(a, factor):
                with np.nditer(a, op_flags=["readwrite"]) as it:
                    for x in it:
                        x[...] = x * factor
                return a
            """, line=5, contains="array 'a'"),
        Invalid(
            """
            import numpy as np
            arr = np.ones((8, 3))
            total = 0.0
            for row in arr:
                total += np.sum(row)
            """,
            line=4,
            contains="'arr'",
        ),
        Invalid(
            """
            import numpy as np
            def norms(points: np.ndarray):
                out = []
                for i, p in enumerate(points):
                    out.append(np.linalg.norm(p))
                return out
            """,
            line=4,
            contains="enumerate(points)",
        ),
        Invalid(
            """
            import numpy as np
            x = np.linspace(0, 1, 5)
            names = ['a', 'b', 'c', 'd', 'e']
            for name, value in zip(names, x):
                print(name, value)
            """,
            line=4,
            contains="'x'",
        ),
        Invalid("""
            import numpy as np
            scores = np.random.rand(10)
            sq = sum(s * s for s in scores)
            """, line=3, contains="comprehension"),
        Invalid("""
            import numpy as np
            m = np.eye(3)
            rows = [np.sum(r) for r in m]
            """, line=3),
        Invalid(
            """
            import numpy as np
            u = np.zeros(10)
            for t in np.arange(5):
                u = u + t
            """,
            line=3,
            contains="Python range",
        ),
        # numbered rows used as vectors: X is a matrix, whether or not the file calls predict
        Invalid("""
            import numpy as np
            def predict(X, w):
                out = np.zeros(len(X))
                for i, row in enumerate(X):
                    out[i] = row @ w
                return out
            """, line=4),
        # a.flat walks every element of any array (a.flat shows a is one)
        Invalid("""
            import numpy as np
            def count_positive(a):
                c = 0
                for v in a.flat:
                    c += int(v > 0)
                return c
            """, line=4, contains="array 'a'"),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        # inside an element loop or a recurrence this is part of that loop's finding
        yield from unfolded(model, self.code)

    def detect(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy():
            return
        for frame in model.loops:
            if frame.iter_kind is not IterKind.ARRAY:
                continue
            arrays = walked_arrays(model, frame)
            if not arrays or _table_walked_once(model, frame, arrays):
                continue
            names = [model.segment(a, 30) for a in arrays]
            folded = _tests_on_the_item(model, frame)
            yield self.finding(
                frame.node,
                in_loop=True,
                loop=_describe(model, frame),
                arrays=", ".join(repr(n) for n in names),
                advice=_HOST_RANGE if all(walks_numpy_range(model, a) for a in arrays) else _VECTORISE,
                folded=folded_text(folded),
                data={"arrays": names, **({"folded": folded} if folded else {})},
            )


def _tests_on_the_item(model: FileModel, frame: LoopFrame) -> dict[str, int]:
    """How many branches and conversions on the loop's item (``if n % 10 ==
    0``) go with this loop: a Python range in its place removes them."""
    root = item_root(model, frame.node.lineno)  # type: ignore[attr-defined]
    counts: dict[str, int] = {}
    for code in ("CPN105", "CPN104"):
        for finding in raw_findings(model, code):
            if finding.data.get("item_of") == frame.node.lineno and folding_root(model, finding) is root:  # type: ignore[attr-defined]
                counts[code] = counts.get(code, 0) + 1
    return counts


def _table_walked_once(model: FileModel, frame: LoopFrame, arrays: list[ast.expr]) -> bool:
    """A loop no other loop repeats over arrays of a few literal elements (a
    9 x 2 table of lattice directions walked once while setting up): a
    handful of round trips in all, not a cost that grows with the data."""
    return runs_once(model, frame) and all(model.values.written_out(a) for a in arrays)


def _iterations(frame: LoopFrame) -> list[tuple[ast.expr, ast.expr]]:
    """(target, iterable) of a ``for`` or of each generator of a comprehension."""
    node = frame.node
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return [(node.target, node.iter)]
    return [(g.target, g.iter) for g in node.generators]  # type: ignore[attr-defined]


def _describe(model: FileModel, frame: LoopFrame) -> str:
    header = " ".join(
        f"for {model.segment(target, 20)} in {model.segment(iterable, 40)}" for target, iterable in _iterations(frame)
    )
    return f"loop '{header}'" if not frame.is_comprehension else f"comprehension '{header}'"
