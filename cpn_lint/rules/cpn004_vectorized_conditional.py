"""CPN004: vectorised conditionals — np.where, select, choose, putmask (SCALES)."""

from __future__ import annotations

from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..registry import Category, Default, Invalid, Rule, Valid
from ._scales import operand_findings


class VectorizedConditional(Rule):
    """
    ## What it does
    Reports elementwise choices between arrays: three-argument `np.where`,
    `np.select`, `np.choose`, `np.putmask`, `np.place`, and the masked copy
    `np.copyto(dst, src, where=mask)`. One finding per statement, at the first
    such call. `np.clip` is elementwise arithmetic (CPN001), and the
    one-argument `np.where(cond)`, which returns indices, is not a conditional.

    ## Why it does not scale on cuPyNumeric
    It does scale; this is a "what works" finding for the assessment. The
    condition and the branches are partitioned like any elementwise operand,
    so each GPU picks between the branches for its own block, with no Python
    `if` per element and no trip to the host. Note that `np.where` evaluates
    both branches on every element; when one branch is expensive, compute it
    only where needed (`out[mask] = f(a[mask])`).

    ## Example
    ```python
    import numpy as np

    relu = np.where(x > 0.0, x, 0.01 * x)
    np.putmask(grid, grid < 0.0, 0.0)
    ```

    ## Use instead
    Nothing to change: keep the conditional as it is after the import swap.

    ## Known false alarms
    * `np.where(cond)` with one argument (CPN204 territory when used to
      index), conditionals on lists or host-alias arrays, and conditionals
      inside element loops that index with the loop variable are not reported.
    * A ufunc's own `where=` mask (`np.divide(a, b, out=c, where=b != 0)`) is
      not reported, nor is anything else in its statement: cuPyNumeric 26.6.1
      raises `NotImplementedError` for it. Use `np.copyto(c, a / b, where=m)`
      or `np.where` instead.
    """

    code = "CPN004"
    slug = "vectorized-conditional"
    category = Category.SCALES
    default = Default.ASSESSMENT
    summary = "Vectorised conditional (np.where, select, choose, putmask)"
    message = (
        "{call} chooses elementwise between {arrays} on every GPU's own block, with no Python branch "
        "and no host round trip, so it scales after the import swap"
    )
    short = "{call}: vectorised conditional, scales as is"

    valid = (
        Valid("""
            import numpy as np
            a = np.ones(8)
            idx = np.where(a > 0)
            """),
        Valid("""
            import numpy as np
            x = 3.0
            y = np.where(x > 0, x, 0.0)
            """),
        Valid("""
            import numpy as np
            v = np.ones(8)
            for i in range(8):
                v[i] = np.where(v[i] > 0, v[i], 0.0)
            """),
        Valid("""
            import numpy as np
            a = np.ones(8)
            b = np.clip(a, 0.0, 1.0)
            """),
        Valid("""
            import numpy as np
            a = np.ones(8)
            c = np.zeros(8)
            np.divide(a, a, out=c, where=a != 0)
            """),
    )
    invalid = (
        Invalid("""
            import numpy as np
            x = np.linspace(-1.0, 1.0, 9)
            r = np.where(x > 0.0, x, 0.01 * x)
            """, line=3, contains="'x'"),
        Invalid("""
            import numpy as np
            g = np.ones((4, 4))
            np.putmask(g, g < 0.0, 0.0)
            """, line=3),
        Invalid(
            """
            import numpy as np
            x = np.linspace(0.0, 1.0, 9)
            y = np.select([x < 0.3, x < 0.6], [x, 2.0 * x], default=0.0)
            """,
            line=3,
        ),
        Invalid("""
            import numpy as np
            a = np.ones(8)
            b = np.ones(8)
            c = np.zeros(8)
            np.copyto(c, a / b, where=b != 0)
            """, line=5),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        yield from operand_findings(self, model, "call")
