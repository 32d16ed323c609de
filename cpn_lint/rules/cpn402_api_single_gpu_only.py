"""CPN402: a NumPy API cuPyNumeric runs on one GPU/CPU only (assessment)."""

from __future__ import annotations

from ..manifest import Status
from ..model import FileModel
from ..registry import Category, Default, Invalid, Valid
from ._api_support import ApiCall, ApiSupportRule, calls_with_status


class ApiSingleGpuOnly(ApiSupportRule):
    """
    ## What it does
    Reports calls of NumPy APIs that the API manifest marks as implemented
    for a single GPU or CPU only — in cuPyNumeric 26.6.1 `np.flip`,
    `np.fliplr`, `np.flipud`, `np.rot90`, `np.roots` and `np.linalg.inv`,
    `pinv`, `qr`, `svd`. Names are resolved through the file's imports; one
    finding per call, marked when the call sits in a loop. An assessment code:
    shown by `cpn-verdict` and by flake8 with `--cpn-assessment`.

    ## Why it does not scale on cuPyNumeric
    These calls work after the import swap, but their data is gathered onto
    one device to run them. On one GPU that costs nothing; on several GPUs or
    nodes the others wait and the array moves, so a call in the hot path
    stops the program from scaling past one device.

    ## Example
    ```python
    import numpy as np

    def whiten(x):
        u, s, vt = np.linalg.svd(x, full_matrices=False)
        return u @ vt
    ```

    ## Use instead
    Nothing to change for a single-GPU target. For several GPUs, keep such
    calls out of the time-stepping loop (decompose once, reuse the factors),
    apply them to small matrices only, or batch many small problems into one
    call; `np.flip(a, axis)` can often become a reversed slice `a[::-1]` on a
    host array or be removed by reversing the index arithmetic.

    ## Known false alarms
    * Harmless when the target is one GPU; `cpn-verdict` weighs these calls
      only when `--nodes` is more than one.
    * The manifest is a dated snapshot; refresh it with `cpn-lint manifest
      refresh` after a cuPyNumeric upgrade.
    """

    code = "CPN402"
    slug = "api-single-gpu-only"
    category = Category.API
    default = Default.ASSESSMENT
    summary = "NumPy API that cuPyNumeric runs on a single GPU/CPU only"
    message = (
        "{call} calls {api}, which {version} runs on one GPU/CPU only{where}; "
        "it does not spread across GPUs or nodes, so keep it off the hot path of a multi-GPU run"
    )
    short = "{call} runs on one GPU/CPU only in cuPyNumeric"

    valid = (
        Valid("""
            import numpy as np
            a = np.arange(16.0).reshape(4, 4)
            b = a[::-1] @ np.linalg.solve(a + 4 * np.eye(4), a)
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            m = onp.eye(3)
            q, r = onp.linalg.qr(m)
            """),
        Valid("""
            import numpy as np
            def flip(x):
                return x
            y = flip(np.ones(3))
            """),
    )
    invalid = (
        Invalid("""
            import numpy as np
            m = np.random.rand(6, 6)
            u, s, vt = np.linalg.svd(m)
            """, line=3, contains="numpy.linalg.svd"),
        Invalid("""
            from numpy import flip, arange
            r = flip(arange(8))
            """, line=2, contains="numpy.flip"),
        Invalid(
            """
            import numpy as np
            field = np.zeros((64, 64))
            for step in range(100):
                field = np.rot90(field) + 1.0
            """,
            line=4, contains="inside the loop at line 3",
        ),
    )

    def uses(self, model: FileModel) -> list[ApiCall]:
        return calls_with_status(model, Status.SINGLE_GPU)
