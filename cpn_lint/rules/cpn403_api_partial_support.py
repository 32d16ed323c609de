"""CPN403: a NumPy API cuPyNumeric supports only partially on many GPUs (assessment)."""

from __future__ import annotations

from typing import Any

from ..manifest import Status
from ..model import FileModel
from ..registry import Category, Default, Invalid, Valid
from ._api_support import ApiCall, ApiSupportRule, calls_with_status


class ApiPartialSupport(ApiSupportRule):
    """
    ## What it does
    Reports calls of NumPy APIs that the API manifest marks as partially
    supported across GPUs, and quotes the manifest's note on what the
    limitation is. In cuPyNumeric 26.6.1 these are the FFT transforms
    (`np.fft.fft`, `rfft`, `fft2`, `fftn`, their inverses and `hfft`/`ihfft`),
    which distribute only by batching independent transforms along the other
    axes. One finding per call, marked when the call sits in a loop. An
    assessment code: shown by `cpn-verdict` and by flake8 with
    `--cpn-assessment`.

    ## Why it does not scale on cuPyNumeric
    A partially supported API runs, but only some uses of it are split
    across GPUs. An FFT over one long axis is a single transform and runs on
    one device; many transforms stacked along another axis are shared out.
    Whether the code scales depends on which of the two it does.

    ## Example
    ```python
    import numpy as np

    def spectrum(signal):
        return np.abs(np.fft.rfft(signal)) ** 2
    ```

    ## Use instead
    Shape the work the way the note says the library distributes it: for
    FFTs, stack the independent signals into one 2-D array and transform
    along the last axis in a single call (`np.fft.rfft(batch, axis=-1)`)
    instead of transforming one long signal or looping over signals.

    ## Known false alarms
    * A call that already has the supported shape (a batched transform) is
      still reported: the note says what to check, the code cannot show the
      array's shape.
    * The manifest is a dated snapshot; refresh it with `cpn-lint manifest
      refresh` after a cuPyNumeric upgrade.
    """

    code = "CPN403"
    slug = "api-partial-support"
    category = Category.API
    default = Default.ASSESSMENT
    summary = "NumPy API that cuPyNumeric supports only partially across GPUs"
    message = "{call} calls {api}, which {version} supports only partially across GPUs{where}: {note}"
    short = "{call} is only partly distributed by cuPyNumeric"

    valid = (
        Valid("""
            import numpy as np
            freqs = np.fft.fftshift(np.arange(8.0))
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            spec = onp.fft.rfft(onp.ones(64))
            """),
        Valid("""
            import scipy.fft
            import numpy as np
            spec = scipy.fft.rfft(np.ones(64))
            """),
    )
    invalid = (
        Invalid("""
            import numpy as np
            spec = np.fft.rfft(np.ones(1024))
            """, line=2, contains="batching"),
        Invalid("""
            from numpy.fft import fft2
            import numpy as np
            img = np.ones((8, 8))
            spec = fft2(img)
            """, line=4),
        Invalid(
            """
            import numpy.fft as nf
            import numpy as np
            signals = np.ones((16, 256))
            for row in range(16):
                out = nf.fft(signals[row])
            """,
            line=5, contains="inside the loop at line 4",
        ),
    )

    def uses(self, model: FileModel) -> list[ApiCall]:
        return calls_with_status(model, Status.PARTIAL)

    def fields(self, model: FileModel, use: ApiCall) -> dict[str, Any]:
        note = use.entry.note or "the manifest gives no detail; check the cuPyNumeric documentation"
        return {**super().fields(model, use), "note": note}
