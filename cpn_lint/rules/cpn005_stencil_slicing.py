"""CPN005: stencils written with shifted slices of small constant offsets (SCALES)."""

from __future__ import annotations

from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..registry import Category, Default, Invalid, Rule, Valid
from ._scales import MAX_STENCIL_OFFSET, View, scales_analysis


class StencilSlicing(Rule):
    """
    ## What it does
    Reports statements that combine several shifted slices of the same extent
    — `u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]`,
    `u[2:] - 2 * u[1:-1] + u[:-2]`, `x[1:] - x[:-1]`,
    `u[1:n - 1] - u[0:n - 2]` — where every slice bound is a small constant
    (at most 4 away from either end) and the step is 1. One finding per
    statement, at the statement (the stencil assignment).

    ## Why it does not scale on cuPyNumeric
    It is partitionable, and usually scales; this is a "what works" finding
    for the assessment, with a condition. The runtime reads the slice
    offsets, gives each GPU its block plus a thin halo of neighbouring rows,
    and exchanges only that halo between neighbours each step. The halo grows
    with a block's surface and the work with its volume, so a stencil pays off
    when each GPU holds a large block (around a million elements or more) and
    one time loop drives simple 5- or 7-point updates. With small blocks,
    per-step runtime overhead and halo copies can cancel the gain, so ask for
    the per-GPU problem size before promising a speed-up.

    ## Example
    ```python
    import numpy as np

    for step in range(steps):
        work[1:-1, 1:-1] = 0.25 * (
            u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
        )
        u, work = work, u
    ```

    ## Use instead
    Nothing to change: keep the slices; allocate the buffers once and swap
    them (CPN006).

    ## Known false alarms
    * Slices with a step other than 1 (`u[::2]`) are CPN106, never a stencil.
    * Offsets held in variables (`u[k:]`), offsets larger than 4, `np.roll`
      based stencils and slices that index with an element loop's variable
      are not reported.
    * Two slices of different arrays at different offsets (`x[1:] * y[:-1]`)
      count as a stencil: they need the same halo exchange.
    """

    code = "CPN005"
    slug = "stencil-slicing"
    category = Category.SCALES
    default = Default.ASSESSMENT
    summary = "Stencil built from shifted slices with small constant offsets"
    message = (
        "stencil: {statement} combines {count} slices of {arrays} shifted by up to {offset}; "
        "only a thin halo moves between neighbouring GPUs, so it scales when each GPU holds a large block"
    )
    short = "stencil {statement}: {count} shifted slices, scales with large blocks"

    valid = (
        Valid("""
            import numpy as np
            u = np.ones(100)
            v = u[1:-1] * 2.0
            w = u[:] + u[:]
            """),
        Valid("""
            import numpy as np
            u = np.ones(100)
            evens = u[2::2] + u[:-2:2]
            """),
        Valid("""
            import numpy as np
            u = np.ones(100)
            k = 10
            d = u[k:] - u[:-k]
            halves = u[:50] + u[50:]
            """),
        Valid("""
            import numpy as np
            u = np.ones(100)
            for i in range(1, 99):
                u[i] = u[i - 1:i + 2].sum()
            """),
        Valid("""
            import numpy as np
            items = list(range(10))
            d = [a - b for a, b in zip(items[1:], items[:-1])]
            """),
    )
    invalid = (
        Invalid(
            """
            import numpy as np
            u = np.ones((64, 64))
            work = np.zeros_like(u)
            work[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
            """,
            line=4,
            contains="4 slices of 'u' shifted by up to 2 cells",
        ),
        Invalid("""
            import numpy as np
            u = np.ones(100)
            lap = u[2:] - 2.0 * u[1:-1] + u[:-2]
            """, line=3),
        Invalid(
            """
            import numpy as np
            def advect(un: np.ndarray, c: float, n: int):
                un[1:n - 1] = un[1:n - 1] - c * (un[1:n - 1] - un[0:n - 2])
                return un
            """,
            line=3,
        ),
        Invalid("""
            import numpy as np
            x = np.linspace(0.0, 1.0, 50)
            dx = x[1:] - x[:-1]
            """, line=3, contains="shifted by up to 1 cell;"),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        for site in scales_analysis(model).sites(self.code):
            views: list[View] = site.facts["views"]
            arrays = list(dict.fromkeys(v.array for v in views))
            shifts = {v.shift for v in views}
            offset = max(max(s[d] for s in shifts) - min(s[d] for s in shifts) for d in range(len(views[0].shift)))
            yield self.finding(
                site.node,
                in_loop=site.in_loop,
                statement=repr(model.segment(site.node, 60)),
                count=len(views),
                arrays=_names(arrays),
                offset=f"{offset} cell{'s' if offset > 1 else ''}",
                data={"arrays": arrays, "slices": len(views), "max_shift": offset, "limit": MAX_STENCIL_OFFSET},
            )


def _names(arrays: list[str]) -> str:
    quoted = [repr(a) for a in arrays[:3]] + ([f"{len(arrays) - 3} more"] if len(arrays) > 3 else [])
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
