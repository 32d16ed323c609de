"""CPN006: results written into preallocated buffers — ``out=`` and the double-buffer swap (SCALES)."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..registry import Category, Default, Invalid, Rule, Valid
from ._scales import array_list, loop_phrase, names, scales_analysis


class PreallocatedOut(Rule):
    """
    ## What it does
    Reports two ways of reusing device memory instead of allocating a new
    array: a NumPy call (ufunc, reduction, product, or array method) that
    writes into an existing array through `out=`
    (`np.add(a, b, out=result)`, `a.sum(axis=0, out=row)`), and the
    double-buffer swap of arrays inside a loop (`u, work = work, u`, or a
    rotation of three) or of array attributes in a method
    (`self.u, self.v = self.v, self.u`). One finding per statement, at the call or the swap.

    ## Why it does not scale on cuPyNumeric
    It does scale; this is a "what works" finding for the assessment.
    cuPyNumeric does not fuse operators, so every intermediate result is a
    real allocation on every GPU. Writing into a buffer made once keeps a hot
    loop from allocating, freeing and re-partitioning arrays each iteration,
    and the swap lets a time-stepping loop alternate between two buffers
    with no copy at all. The buffer passed as `out=` must already have the
    result's shape and dtype.

    ## Example
    ```python
    import numpy as np

    work = np.empty_like(u)
    for step in range(steps):
        np.multiply(lap, alpha, out=work)
        np.add(u, work, out=work)
        u, work = work, u
    ```

    ## Use instead
    Nothing to change: keep the buffers and the swap after the import swap.

    ## Known false alarms
    * `out=None` and `out=np.empty_like(a)` (a fresh allocation per call) are
      not reuse and are not reported; nor is an `out=` host-alias or CuPy
      array, nor a parameter with a default (`def f(x, out=None)`, NumPy's
      pass-through style). A parameter without a default counts: every caller
      hands over its buffer.
    * The positional form (`np.add(a, b, c)`) is not recognised.
    * A swap of plain names outside any loop is taken for a one-off
      reordering and is not reported; a swap of attributes
      (`self.u, self.v = self.v, self.u`) is, since a method like that is
      usually called once per step.
    """

    code = "CPN006"
    slug = "preallocated-out"
    category = Category.SCALES
    default = Default.ASSESSMENT
    summary = "Result written into a preallocated buffer (out=, double-buffer swap)"
    message = "{what}{where}, reusing device memory instead of allocating a new array; it scales after the import swap"
    short = "{site} reuses a preallocated buffer, scales as is"

    valid = (
        Valid("""
            import numpy as np
            a = np.ones(8)
            b = np.ones(8)
            c = np.add(a, b, out=None)
            d = np.add(a, b, out=np.empty_like(a))
            """),
        Valid("""
            import numpy as np
            u = np.ones(8)
            w = np.zeros(8)
            u, w = w, u
            """),
        Valid("""
            import numpy as np
            x, y = 1, 2
            for i in range(3):
                x, y = y, x
            """),
        Valid("""
            import numpy as np
            def order(a: np.ndarray, b: np.ndarray):
                if a.size < b.size:
                    a, b = b, a
                return a, b
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            h = onp.ones(8)
            onp.multiply(h, 2.0, out=h)
            """),
        Valid("""
            import numpy as np
            def total(x: np.ndarray, out=None):
                return np.sum(x, axis=0, out=out)
            """),
    )
    invalid = (
        Invalid("""
            import numpy as np
            a = np.ones(8)
            b = np.ones(8)
            res = np.empty(8)
            np.add(a, b, out=res)
            """, line=5, contains="'res'"),
        Invalid(
            """
            import numpy as np
            u = np.ones(64)
            w = np.zeros(64)
            for step in range(10):
                w[1:-1] = 0.5 * (u[:-2] + u[2:])
                u, w = w, u
            """,
            line=6,
            contains="swaps",
        ),
        Invalid("""
            import numpy as np
            data = np.ones((4, 8))
            row = np.zeros(8)
            data.sum(axis=0, out=row)
            """, line=4),
        Invalid("""
            import numpy as np
            def forces(x: np.ndarray, k: float, out):
                np.multiply(x, -k, out=out)
                return out
            """, line=3),
        Invalid(
            """
            import numpy as np
            A = np.ones((4, 4))
            B = np.ones((4, 4))
            C = np.empty((4, 4))
            for k in range(3):
                np.matmul(A, B, out=C)
            """,
            line=6,
            contains="inside the loop at line 5",
        ),
        Invalid(
            """
            import numpy as np
            class Heat:
                def __init__(self):
                    self.u = np.zeros(8)
                    self.w = np.zeros(8)
                def step(self):
                    self.w[1:-1] = 0.5 * (self.u[:-2] + self.u[2:])
                    self.u, self.w = self.w, self.u
            """,
            line=8,
            contains="'self.u' and 'self.w'",
        ),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        for site in scales_analysis(model).sites(self.code):
            swapped = site.facts.get("swap")
            if swapped:
                what = f"{model.segment(site.statement, 50)!r} swaps the preallocated buffers {names(model, swapped)}"
                data = {"form": "swap", "arrays": array_list(model, swapped)}
            else:
                out: ast.expr = site.facts["out"]
                what = f"{model.segment(site.node, 50)!r} writes into the existing array {model.segment(out, 24)!r} through out="
                data = {"form": "out", "arrays": [model.segment(out, 24)]}
            yield self.finding(site.node, in_loop=site.in_loop, what=what, where=loop_phrase(model, site.node), data=data,
                               site=repr(model.segment(site.node, 40)))
