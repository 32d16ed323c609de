"""CPN001: whole-array elementwise arithmetic, comparisons and ufuncs (SCALES)."""

from __future__ import annotations

from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..registry import Category, Default, Invalid, Rule, Valid
from ._scales import array_list, names, quote, scales_analysis


class WholeArrayElementwise(Rule):
    """
    ## What it does
    Reports statements that compute elementwise over whole NumPy arrays:
    arithmetic (`c = a * x + b * y`), comparisons and their combinations
    (`(a > lo) & (b < hi)`), ufuncs such as `np.sin`, `np.exp`, `np.maximum`
    and `np.clip`, and augmented assignments (`u += dt * lap`). One finding per
    statement, at the statement. This is the catch-all of the SCALES codes: a
    statement that is also a reduction, a matrix product, a vectorised
    conditional, a stencil, an `out=` call or a masked update is reported
    under that more specific code instead.

    ## Why it does not scale on cuPyNumeric
    It does scale; this is a "what works" finding for the assessment. Each
    operator becomes one task that the runtime splits into blocks, one per
    GPU, and when the operands are partitioned alike every GPU works on its
    own block with no data exchanged. Elementwise work is bound by memory
    bandwidth, so it speeds up once each GPU holds a large block (well above
    65,536 elements). Long chains create one temporary per operator; in a hot
    loop, `out=` (CPN006) keeps them from being reallocated.

    ## Example
    ```python
    import numpy as np

    t = np.linspace(0.0, 10.0, 1_000_000)
    signal = np.sin(t) + 0.5 * np.cos(2.0 * t)
    in_band = (signal > -0.2) & (signal < 0.2)
    ```

    ## Use instead
    Nothing to change: keep the expression as it is after the import swap.

    ## Known false alarms
    * Arrays that are tiny at run time are reported like large ones; the
      verdict's Gate 2 weighs sizes.
    * Not reported: arithmetic on Python numbers, lists, host-alias arrays
      (`onp` beside cuPyNumeric), masked arrays (`np.ma`), 0-d results
      (`total / n` after a full reduction, `np.dot(f, f)`, `np.inner`) or
      single elements (`a[0] + a[1]`); parameters the code shows to be arrays
      only by passing them to a ufunc (`np.log(x)` also takes a number);
      statements inside element loops that index with the loop variable
      (CPN101) or use the items of a loop over an array (CPN103); statements
      with a stepped slice (CPN106) or a `dtype=object` array (CPN107); and
      expressions that only feed `print`, f-strings, plots, `np.testing`,
      SciPy, an API cuPyNumeric lacks (CPN401) or, inside a loop, a
      conversion to a Python number (CPN104).
    """

    code = "CPN001"
    slug = "whole-array-elementwise"
    category = Category.SCALES
    default = Default.ASSESSMENT
    summary = "Whole-array elementwise arithmetic, comparison or ufunc"
    message = (
        "{statement} is whole-array elementwise work on {arrays}; each GPU computes its own block "
        "of the result, so it scales after the import swap"
    )
    short = "{statement}: whole-array elementwise work, scales as is"

    valid = (
        Valid("""
            import numpy as np
            a = np.arange(8.0)
            total = np.sum(a)
            mean = total / 8
            first = a[0] + a[1]
            """),
        Valid("""
            import numpy as np
            items = [1.0, 2.0]
            scaled = [x * 2 for x in items]
            n = 3 * 4
            """),
        Valid("""
            import numpy as np
            out = np.zeros(8)
            a = np.ones(8)
            for i in range(8):
                out[i] = a[i] * 2.0
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            h = onp.ones(8)
            g = h * 2.0
            """),
        Valid("""
            import numpy as np
            a = np.ones((4, 4))
            for row in a:
                r = row * 2.0
            """),
        Valid("""
            import numpy as np
            a = np.ones(8)
            print(a * 2.0)
            label = f'{a.mean() * 2.0}'
            """),
    )
    invalid = (
        Invalid("""
            import numpy as np
            a = np.ones(8)
            b = np.ones(8)
            c = a * 2.0 + b * 3.0
            """, line=4, contains="'a' and 'b'"),
        Invalid("""
            import numpy as np
            t = np.linspace(0.0, 1.0, 100)
            y = np.sin(t) + 0.5 * np.cos(2.0 * t)
            """, line=3),
        Invalid("""
            import numpy as np
            def band(a: np.ndarray, lo, hi):
                return (a > lo) & (a < hi)
            """, line=3),
        Invalid("""
            import numpy as np
            u = np.zeros(64)
            lap = np.ones(64)
            for step in range(10):
                u += 0.1 * lap
            """, line=5),
        Invalid("""
            import numpy as np
            x = np.linspace(-1.0, 1.0, 50)
            y = np.clip(x, -0.5, 0.5)
            """, line=3),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        for site in scales_analysis(model).sites(self.code):
            arrays = names(model, site.facts["operands"])
            yield self.finding(
                site.node,
                in_loop=site.in_loop,
                statement=quote(model, site.node),
                arrays=arrays or "arrays",
                data={"arrays": array_list(model, site.facts["operands"])},
            )
