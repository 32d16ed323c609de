"""CPN302: matrix factorisations that run on one device in cuPyNumeric (INFO)."""

from __future__ import annotations

from typing import Iterator

from ..findings import Finding
from ..model import FileModel, shapes
from ..registry import Category, Default, Invalid, Rule, Valid
from ._context import loop_place
from ._info import call_text, candidate_calls, per_item_loop

# What cuPyNumeric 26.6.1 does with one call (its docstrings' "Availability"
# and notes, and the implementation): facts, in this project's words.
_MORE_GPUS = "more GPUs will not speed it up, so keep it off the hot path for large matrices"
_SINGLE_GPU = {
    "linalg.svd": f"runs on a single GPU in cuPyNumeric and accepts no stack of matrices; {_MORE_GPUS}",
    "linalg.qr": (
        "runs on a single GPU in cuPyNumeric and accepts no stack of matrices (builds with cuSolverMp "
        f"may split a matrix of 2^20 elements or more across GPUs); {_MORE_GPUS}"
    ),
    "linalg.pinv": f"runs on a single GPU in cuPyNumeric and accepts no stack of matrices; {_MORE_GPUS}",
    "linalg.inv": (
        "runs on a single GPU in cuPyNumeric; to solve a system, np.linalg.solve(A, b) avoids the inverse "
        "and has a distributed path for large matrices (CPN305)"
    ),
}
_BATCHED_ONLY = frozenset({"linalg.eig", "linalg.eigh", "linalg.eigvals", "linalg.eigvalsh"})


class SingleDeviceFactorization(Rule):
    """
    ## What it does
    Reports calls to the dense factorisations that cuPyNumeric does not split
    across GPUs for a single matrix: `np.linalg.svd`, `np.linalg.qr`,
    `np.linalg.inv`, `np.linalg.pinv` (single-GPU only), and
    `np.linalg.eig`, `eigh`, `eigvals`, `eigvalsh` (one matrix per GPU; only a
    stack of matrices is spread across GPUs). The message says which, and
    when the call sits in a loop that factorises one matrix per iteration.
    An eigen-decomposition of an array the file shows to be a stack
    (`np.zeros((64, 8, 8))`) is not reported; an SVD of a literal matrix with
    more columns than rows, or an SVD/QR/pseudo-inverse of a literal stack,
    is reported with the fact that cuPyNumeric 26.6.1 raises on it.

    ## Why it does not scale on cuPyNumeric
    These routines call the GPU solver library on one device. More GPUs do
    not make one SVD or QR faster, so they cap the speed-up of a program
    whose time goes there; for moderate matrix sizes that is usually fine.
    cuPyNumeric's SVD and QR take only one 2-D matrix (and SVD only tall or
    square ones); its eigen-solvers accept a stack of matrices and hand
    different matrices to different GPUs, which is how many independent
    problems scale.

    ## Example
    ```python
    import numpy as np

    for k in range(n_blocks):
        w[k], v[k] = np.linalg.eigh(H[k])     # one small problem per iteration
    ```

    ## Use instead
    Stack independent problems along a leading axis and make one call
    (recipe RR-batch):
    ```python
    w, v = np.linalg.eigh(H)                  # H has shape (n_blocks, m, m)
    ```
    For `inv`, solve the system instead of forming the inverse.

    ## Known false alarms
    * A factorisation of a small matrix done once is harmless; the note only
      tells where multi-GPU runs will not help.
    * Calls on the host alias (`onp.linalg.svd` beside cuPyNumeric) are not
      reported: that is the recommended place for host-side work.
    """

    code = "CPN302"
    slug = "single-device-factorization"
    category = Category.INFO
    recipe = "RR-batch"
    default = Default.ASSESSMENT
    summary = "Factorisation that runs on one device (svd, qr, inv, pinv, eig)"
    message = "{call} {fact}"
    short = "{call}: a factorisation runs on one device (RR-batch)"

    valid = (
        Valid("""
            import numpy as np
            H = np.ones((64, 8, 8))
            w, v = np.linalg.eigh(H)
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            u, s, vt = onp.linalg.svd(onp.ones((4, 4)))
            """),
        Valid("""
            import numpy as np
            x = np.linalg.solve(np.eye(4), np.ones(4))
            n = np.linalg.norm(np.ones(4))
            """),
        Valid("""
            import scipy.linalg as linalg
            import numpy as np
            q, r = linalg.qr(np.ones((4, 4)))
            """),
    )
    invalid = (
        Invalid("""
            import numpy as np
            A = np.ones((100, 50))
            u, s, vt = np.linalg.svd(A)
            """, line=3, contains="single GPU"),
        Invalid(
            """
            import numpy as np
            H = np.ones((16, 8, 8))
            w = np.zeros((16, 8))
            for k in range(16):
                w[k] = np.linalg.eigvalsh(H[k])
            """,
            line=5,
            contains="(RR-batch)",
        ),
        Invalid("""
            from numpy.linalg import inv
            import numpy as np
            B = inv(np.eye(3))
            """, line=3, contains="np.linalg.solve"),
        Invalid("""
            import numpy as np
            def basis(a):
                q, r = np.linalg.qr(a)
                return q
            """, line=3),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy():
            return
        for call, api in candidate_calls(model, set(_SINGLE_GPU) | _BATCHED_ONLY):
            shape = model.literal_shape(call.args[0]) if call.args else None
            loop = per_item_loop(model, call)
            if api in _BATCHED_ONLY:
                if shape is not None and len(shape) > 2 and loop is None:
                    continue  # a stack of matrices: split across GPUs already
                fact = "factorises one matrix on one GPU; cuPyNumeric spreads eigen-decompositions across GPUs only for a stack of matrices"
                if loop is not None:
                    fact += f", and here {loop_place(loop)} solves one matrix per iteration: stack them along a leading axis and make one call (RR-batch)"
                else:
                    fact += " along a leading axis, so batch independent problems into one call (RR-batch)"
            else:
                fact = _SINGLE_GPU[api]  # type: ignore[index]
                if loop is not None:
                    fact += f"; here {loop_place(loop)} makes one call per iteration, one after another"
                failure = _unsupported_shape(api, shape)
                if failure:
                    fact += f"; {failure}"
            yield self.finding(
                call,
                in_loop=model.in_loop(call),
                call=call_text(model, call),
                fact=fact,
                data={"api": api, "shape": list(shape) if shape else None, "per_iteration_loop": loop.line if loop else None},
            )


def _unsupported_shape(api: str, shape: tuple[int, ...] | None) -> str | None:
    """What cuPyNumeric 26.6.1 does with a literal shape its svd/qr/pinv refuse."""
    if shape is None or api not in ("linalg.svd", "linalg.qr", "linalg.pinv"):
        return None
    if len(shape) > 2:
        return f"this {shapes.text(shape)} stack makes it raise NotImplementedError (loop over the matrices, or batch an eigen-solver instead)"
    if api == "linalg.svd" and len(shape) == 2 and shape[0] < shape[1]:
        return f"this {shapes.text(shape)} matrix has more columns than rows, which its SVD does not take (it raises); factorise the transpose"
    return None
