"""CPN007: indexing an array with a boolean mask (SCALES)."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..registry import Category, Default, Invalid, Rule, Valid
from ._scales import scales_analysis


class BooleanMaskIndexing(Rule):
    """
    ## What it does
    Reports reads and writes of a NumPy array through a boolean mask of the
    array's own shape: `arr[arr > 0.5] = 0.0`, `arr[arr > 0.5] *= 2`,
    `arr[(arr > lo) & (arr < hi)]`, `field[np.isnan(field)] = 0.0`,
    `np.sum(arr[mask])`. The index counts as a mask when it is a comparison
    of arrays, a `&`/`|`/`~` combination of masks, a boolean ufunc
    (`np.isnan`, `np.isfinite`, `np.logical_and`, ...), an array built with
    `dtype=bool` or `.astype(bool)`, or a name bound only to such values; it
    has the array's shape when it is computed elementwise from the whole
    array, or when both shapes are literal and equal. One finding per
    statement, at the first masked subscript.

    ## Why it does not scale on cuPyNumeric
    It does scale; this is a "what works" finding for the assessment. A mask
    has the shape of the array it selects from, so the runtime partitions the
    two alike and each GPU applies its part of the mask to its own block; no
    index array is built (compare `np.nonzero` + indexing, CPN204). A masked
    write stays entirely local to each GPU; a masked read gathers the selected
    values into a new, shorter array.

    ## Example
    ```python
    import numpy as np

    field[np.isnan(field)] = 0.0
    hot = temps[(temps > lo) & (temps < hi)]
    ```

    ## Use instead
    Nothing to change: keep the mask as it is after the import swap.

    ## Known false alarms
    * An index array of integers (`arr[idx]`, fancy indexing) is not a mask
      and is not reported; neither is a mask whose origin or shape the code
      does not show (an element of a list, a mask from another
      array of unknown shape).
    * A row mask (`grid[grid[:, 0] > 0]`) or a mask inside a tuple index
      (`grid[mask, :]`) is not reported: cuPyNumeric treats it as advanced
      indexing (Doctor's AdvancedIndexingCheck), and version 26.6.1 fails on a
      write through a row mask.
    * A masked assignment in a function that takes both arrays
      (`def clamp(arr, mask, value): arr[mask] = value`) is reported as a
      mask when nothing shows the index is not boolean: the file passes no
      other kind of array to it. An integer index array given by a caller
      in another file would be a scatter instead, which also runs as one
      whole-array operation.
    * Masked subscripts inside element loops that index with the loop
      variable are not reported, nor are writes through `a.flat[mask]`:
      `.flat` is a copy in cuPyNumeric, so the write never reaches `a`.
    """

    code = "CPN007"
    slug = "boolean-mask-indexing"
    category = Category.SCALES
    default = Default.ASSESSMENT
    summary = "Array indexed with a boolean mask"
    message = (
        "{subscript} {action} {array} through the boolean mask {mask}: the mask is partitioned like the array, "
        "so each GPU applies it to its own block with no index array; it scales after the import swap"
    )
    short = "{subscript}: boolean-mask indexing, scales as is"

    valid = (
        Valid("""
            import numpy as np
            a = np.ones(8)
            idx = np.arange(4)
            b = a[idx]
            c = a[2]
            """),
        Valid("""
            import numpy as np
            def f(a: np.ndarray, m):
                return a[m]
            """),
        Valid("""
            import numpy as np
            items = [1, 2, 3]
            flags = [True, False, True]
            x = items[0]
            """),
        Valid("""
            import numpy as np
            g = np.ones((8, 8))
            rows = g[:, 0] > 0.5
            r = g[rows]
            s = g[rows, :]
            """),
        Valid("""
            import numpy as np
            a = np.ones(100)
            b = np.zeros(100)
            for i in range(len(a)):
                b[i] = a[i] if a[i] > 0 else 0.0
            """),
    )
    valid = valid + (
        Valid("""
            import numpy as np

            def put(arr: np.ndarray, idx: np.ndarray, value: float) -> np.ndarray:
                arr[idx] = value
                return arr

            put(np.zeros(10), np.arange(3), 1.0)
            """),
    )
    invalid = (
        Invalid("""
            import numpy as np
            a = np.linspace(0.0, 1.0, 8)
            a[a > 0.5] = 0.0
            """, line=3, contains="writes"),
        Invalid("""
            import numpy as np

            def masked_assign(arr: np.ndarray, mask: np.ndarray, value: float) -> np.ndarray:
                arr[mask] = value
                return arr
            """, line=4, contains="'mask'"),
        Invalid("""
            import numpy as np
            t = np.ones(8)
            lo, hi = 0.2, 0.8
            sel = t[(t > lo) & (t < hi)]
            """, line=4, contains="reads"),
        Invalid("""
            import numpy as np
            f = np.ones(8)
            bad = np.isnan(f)
            f[bad] = 0.0
            """, line=4, contains="'bad'"),
        Invalid("""
            import numpy as np
            a = np.ones(8)
            m = np.zeros(8, dtype=bool)
            total = np.sum(a[m])
            """, line=4),
        # a time-step loop's whole-array work, history stores beside it
        Invalid(
            """
            import numpy as np
            u = np.ones(1000)
            hot = np.zeros(50)
            for step in range(50):
                u[u > 0.5] *= 0.9
                hot[step] = np.sum(u)
            """,
            line=5,
        ),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        for site in scales_analysis(model).sites(self.code):
            subscript: ast.Subscript = site.node  # type: ignore[assignment]
            writes = isinstance(subscript.ctx, ast.Store) or (
                isinstance(site.statement, ast.AugAssign) and site.statement.target is subscript
            )
            mask = site.facts["mask"]
            yield self.finding(
                subscript,
                in_loop=site.in_loop,
                subscript=repr(model.segment(subscript, 50)),
                action="writes" if writes else "reads",
                array=repr(model.segment(subscript.value, 24)),
                mask=repr(model.segment(mask, 30)),
                data={"array": model.segment(subscript.value, 24), "mask": model.segment(mask, 30), "write": writes},
            )
