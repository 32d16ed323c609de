"""CPN002: reductions over device arrays (SCALES)."""

from __future__ import annotations

from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..registry import Category, Default, Invalid, Rule, Valid
from ._scales import scales_analysis


class ArrayReduction(Rule):
    """
    ## What it does
    Reports reductions of NumPy arrays: `np.sum`, `np.mean`, `np.max`/`np.min`
    (and `amax`/`amin`), `np.prod`, `np.var`, `np.any`/`np.all`, their `nan`
    variants, `np.argmax`/`np.argmin`, `np.count_nonzero`, `np.average` and
    `np.linalg.norm`, as functions or as array methods (`a.sum(axis=0)`,
    `err.max()`). One finding per statement, at the first reduction call.

    ## Why it does not scale on cuPyNumeric
    It does scale; this is a "what works" finding for the assessment. Each GPU
    reduces its own block and the partial results are combined across GPUs
    in a tree, so the communication is a handful of small messages however
    large the array. Two things to keep in mind after the port: the result
    is a 0-d device array, and turning it into a Python number (`float()`,
    `.item()`, an `if` on it) waits for the GPUs, so do that outside hot
    loops (CPN104, CPN105); and floating-point sums may differ in the last
    bits between GPU counts, so compare results with a tolerance.

    ## Example
    ```python
    import numpy as np

    def energy(u, v):
        return np.sum(u * u + v * v) / u.size

    col_means = data.mean(axis=0)
    ```

    ## Use instead
    Nothing to change: keep the reduction as it is after the import swap.

    ## Known false alarms
    * `np.std` and `ndarray.std` are not reported: cuPyNumeric 26.6.1 does not
      implement them (CPN401); nor is any reduction the bundled API manifest
      marks as not implemented. `np.median` and percentiles sort rather than
      reduce and are not reported either.
    * Reductions of lists, of host-alias arrays, of single elements, inside
      element loops (`np.sum(a[i])` in `for i in range(n)`) or inside a loop
      condition (CPN105) are not reported.
    """

    code = "CPN002"
    slug = "array-reduction"
    category = Category.SCALES
    default = Default.ASSESSMENT
    summary = "Reduction (sum, mean, max, norm, ...) over an array"
    message = (
        "{call} reduces {array}{axis}: each GPU reduces its own block and the partial results are "
        "combined across GPUs, so it scales after the import swap"
    )
    short = "{call}: reduction of {array}, scales as is"

    valid = (
        Valid("""
            import numpy as np
            total = np.sum([1, 2, 3])
            m = max([1, 2])
            """),
        Valid("""
            import numpy as np
            a = np.ones((8, 8))
            for i in range(8):
                s = np.sum(a[i])
            """),
        Valid("""
            import numpy as np
            u = np.ones(8)
            while np.max(np.abs(u)) > 1e-3:
                u = u * 0.5
            """),
        Valid("""
            import numpy as np
            a = np.ones(8)
            spread = np.std(a)
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            h = onp.ones(8)
            t = onp.sum(h)
            """),
    )
    invalid = (
        Invalid("""
            import numpy as np
            a = np.ones(8)
            total = np.sum(a)
            """, line=3, contains="'a'"),
        Invalid("""
            import numpy as np
            data = np.ones((4, 8))
            col = data.mean(axis=0)
            """, line=3, contains="along axis 0"),
        Invalid("""
            import numpy as np
            u = np.ones(8)
            v = np.zeros(8)
            e = np.sum((u - v) ** 2)
            """, line=4),
        Invalid("""
            import numpy as np
            r = np.ones(8)
            res = np.linalg.norm(r)
            """, line=3),
        Invalid("""
            import numpy as np
            a = np.ones(8)
            for step in range(5):
                peak = a.max()
            """, line=4),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        for site in scales_analysis(model).sites(self.code):
            call = site.node
            array = site.facts["array"]
            yield self.finding(
                call,
                in_loop=site.in_loop,
                call=repr(model.segment(call, 50)),
                array=repr(model.segment(array, 30)),
                axis=site.facts["axis"],
                data={"array": model.segment(array, 30), "axis": site.facts["axis"].replace(" along axis ", "") or None},
            )
