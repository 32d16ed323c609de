"""CPN305: linalg.solve / linalg.cholesky go distributed only above a size (INFO)."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, shapes
from ..registry import Category, Default, Invalid, Rule, Valid
from ._context import loop_place
from ._info import call_text, candidate_calls, per_item_loop

# Smallest matrix (rows) for which cuPyNumeric 26.6.1 splits one system or
# factorisation across GPUs: linalg/_solve.py MIN_SOLVE_MATRIX_SIZE and
# linalg/_cholesky.py MIN_CHOLESKY_MATRIX_SIZE. (Some migration guides quote
# 512 for solve; that is the tile size of the distributed solve, not its
# threshold.)
THRESHOLDS = {"linalg.solve": 2048, "linalg.cholesky": 8192}
_NEEDS = {
    "linalg.solve": "cuSolverMp and more than one GPU",
    "linalg.cholesky": "more than one GPU",
}


class DistributedSolverThreshold(Rule):
    """
    ## What it does
    Reports calls to `np.linalg.solve` and `np.linalg.cholesky` and states the
    matrix size from which cuPyNumeric splits one problem across GPUs: 2,048
    rows for `solve` (with cuSolverMp on more than one GPU) and 8,192 rows for
    `cholesky` (cuPyNumeric 26.6.1). When the file spells out the matrix's
    shape with constants, the message says which side of the threshold it
    is on, or that it is a stack of problems; when the call solves one
    problem per iteration of a loop, it says so.

    ## Why it does not scale on cuPyNumeric
    Below the threshold a single system or factorisation runs on one GPU,
    which is the expected behaviour, not a fault: splitting a small matrix
    costs more in communication than it saves. A stack of systems
    (`A` of shape `(k, n, n)`) is split across GPUs a whole system at a time
    whatever `n` is, so many small problems scale best as one batched call.

    ## Example
    ```python
    import numpy as np

    A = np.random.rand(1000, 1000) + 1000.0 * np.eye(1000)
    x = np.linalg.solve(A, b)        # 1,000 rows: one GPU
    ```

    ## Use instead
    Nothing to change for one large system. For many small ones, stack them
    and call once:
    ```python
    x = np.linalg.solve(A_stack, b_stack)   # A_stack: (k, n, n)
    ```

    ## Known false alarms
    * Every call is reported, including ones that are correctly sized; the
      note tells which runs will use one GPU.
    * The threshold and the cuSolverMp requirement are cuPyNumeric 26.6.1's;
      other versions may differ.
    """

    code = "CPN305"
    slug = "distributed-solver-threshold"
    category = Category.INFO
    default = Default.ASSESSMENT
    summary = "linalg.solve/cholesky split across GPUs only above a matrix size"
    message = "{call} splits one problem across GPUs only from {threshold} rows up (needs {needs}); {detail}"
    short = "{call} splits across GPUs only from {threshold} rows up"

    valid = (
        Valid("""
            import numpy as np
            A = np.eye(4)
            q, r = np.linalg.qr(A)
            x = np.dot(A, A)
            """),
        Valid("""
            import scipy.linalg
            import numpy as np
            x = scipy.linalg.solve(np.eye(3), np.ones(3))
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            L = onp.linalg.cholesky(onp.eye(3))
            """),
    )
    invalid = (
        Invalid(
            """
            import numpy as np
            A = np.random.rand(1000, 1000)
            b = np.ones(1000)
            x = np.linalg.solve(A, b)
            """,
            line=4,
            contains="below that size",
        ),
        Invalid("""
            import numpy as np
            S = np.eye(10000)
            L = np.linalg.cholesky(S)
            """, line=3, contains="10,000 × 10,000"),
        Invalid("""
            import numpy as np
            A = np.ones((64, 8, 8))
            b = np.ones((64, 8))
            x = np.linalg.solve(A, b)
            """, line=4, contains="stack of 64"),
        Invalid("""
            import numpy as np
            def step(K, f):
                return np.linalg.solve(K, f)
            """, line=3, contains="not visible"),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy():
            return
        for call, api in candidate_calls(model, THRESHOLDS):
            threshold = THRESHOLDS[api]
            matrix = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "a"), None)
            shape = model.literal_shape(matrix)
            loop = per_item_loop(model, call)
            detail, side = _detail(model, matrix, shape, threshold)
            if loop is not None:
                detail += (
                    f"; {loop_place(loop)} solves one problem per iteration, leaving the other GPUs idle: "
                    "stack the problems along a leading axis and make one call"
                )
            yield self.finding(
                call,
                in_loop=model.in_loop(call),
                call=call_text(model, call),
                threshold=f"{threshold:,}",
                needs=_NEEDS[api],
                detail=detail,
                data={"api": api, "threshold": threshold, "shape": list(shape) if shape else None, "side": side,
                      "per_iteration_loop": loop.line if loop else None},
            )


def _detail(model: FileModel, matrix: ast.expr | None, shape: tuple[int, ...] | None, threshold: int) -> tuple[str, str]:
    """What the visible shape says, and which side of the threshold it is on."""
    name = repr(model.segment(matrix, 24)) if matrix is not None else "the matrix"
    if shape is None or len(shape) < 2:
        return f"the size of {name} is not visible here, so below {threshold:,} rows expect one GPU per problem", "unknown"
    rows = shape[-2]
    if len(shape) > 2:
        count = 1
        for extent in shape[:-2]:
            count *= extent
        return f"{name} is a stack of {count:,} matrices of {shapes.text(shape[-2:])}, which are split across GPUs one problem at a time", "batched"
    if rows >= threshold:
        return f"{name} is {shapes.text(shape)} here, at or above that size, so it can use several GPUs", "above"
    return f"{name} is {shapes.text(shape)} here, below that size, so it runs on one GPU", "below"
