"""CPN303: FFTs — one transform per GPU, batches across GPUs (INFO)."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..registry import Category, Default, Invalid, Rule, Valid
from ._context import loop_place
from ._info import call_text, candidate_calls, per_item_loop

# How many axes one call transforms (None: every axis of the input).
_TRANSFORM_AXES: dict[str, int | None] = {
    **{f"fft.{name}": 1 for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    **{f"fft.{name}": 2 for name in ("fft2", "ifft2", "rfft2", "irfft2")},
    **{f"fft.{name}": None for name in ("fftn", "ifftn", "rfftn", "irfftn")},
}


class FftTransform(Rule):
    """
    ## What it does
    Reports calls to the `np.fft` transforms (`fft`, `ifft`, `rfft`, `irfft`,
    `hfft`, `ihfft` and their 2-D and N-D forms) and says which of three cases
    the code shows: a transform repeated once per signal inside a loop, a
    single transform of a whole array, or a batch of signals stacked along
    axes the call does not transform. Array shapes come from the file's
    literal constructors (`np.zeros((64, 4096))`); when the file does not show
    the shape, the message says what the answer depends on.
    `fftshift`/`fftfreq` are not transforms and are not reported.

    ## Why it does not scale on cuPyNumeric
    cuPyNumeric runs each transform with cuFFT on one GPU; multi-dimensional
    transforms go axis by axis, each pass on one GPU. What it does split
    across GPUs is a batch: many independent signals stacked along an axis
    that is not transformed, each GPU taking its share of the signals. So a
    single large FFT does not get faster with more GPUs, and a Python loop of
    small FFTs uses one GPU at a time.

    ## Example
    ```python
    import numpy as np

    spectra = np.empty((n_signals, n), dtype=complex)
    for k in range(n_signals):
        spectra[k] = np.fft.fft(signals[k])
    ```

    ## Use instead
    Stack the signals and transform them in one call along the signal axis
    (recipe RR-batch):
    ```python
    spectra = np.fft.fft(signals, axis=-1)   # signals: (n_signals, n)
    ```

    ## Known false alarms
    * A single transform is reported even when it is small and cheap; the
      note only says where more GPUs will not help.
    * Shapes the file does not spell out with constants are unknown, so a
      batched call on such an array gets the "depends on the shape" message.
    """

    code = "CPN303"
    slug = "fft-transform"
    category = Category.INFO
    recipe = "RR-batch"
    default = Default.ASSESSMENT
    summary = "FFT: one transform runs on one GPU, only batches spread"
    message = "{call} {fact}"
    short = "{call}: one FFT runs on one GPU (RR-batch)"

    valid = (
        Valid("""
            import numpy as np
            x = np.ones(8)
            f = np.fft.fftfreq(8)
            y = np.fft.fftshift(x)
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            h = onp.fft.fft(onp.ones(8))
            """),
        Valid("""
            import mylib as np
            z = np.fft.fft([1.0, 2.0])
            """),
    )
    invalid = (
        Invalid(
            """
            import numpy as np
            signals = np.ones((16, 256))
            out = np.zeros((16, 256), dtype=complex)
            for k in range(16):
                out[k] = np.fft.fft(signals[k])
            """,
            line=5,
            contains="(RR-batch)",
        ),
        Invalid("""
            import numpy as np
            signals = np.ones((16, 256))
            spec = np.fft.rfft(signals, axis=-1)
            """, line=3, contains="16 signals"),
        Invalid("""
            import numpy as np
            img = np.ones((512, 512))
            F = np.fft.fft2(img)
            """, line=3, contains="single 2-D transform"),
        Invalid("""
            import numpy as np
            def spectrum(x: np.ndarray):
                return np.fft.fft(x)
            """, line=3, contains="depends on"),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy():
            return
        for call, api in candidate_calls(model, _TRANSFORM_AXES):
            if not call.args:
                continue
            signal = call.args[0]
            loop = per_item_loop(model, call)
            shape = model.literal_shape(signal)
            axes = _transformed_axes(call, _TRANSFORM_AXES[api], shape)
            if loop is not None:
                batched = None
                fact = (
                    f"transforms one signal per iteration of {loop_place(loop)}, each on one GPU, one after another; "
                    "stack the signals and transform them in one call along an axis so the batch is split across GPUs (RR-batch)"
                )
            elif shape is not None and axes is not None and len(shape) > axes:
                batched = True
                count = 1
                for extent in shape[: len(shape) - axes]:
                    count *= extent
                fact = (
                    f"transforms a batch of {count:,} signals stacked along {len(shape) - axes} untransformed "
                    "axis" + ("" if len(shape) - axes == 1 else "es")
                    + " in one call: cuPyNumeric splits the batch across GPUs, each transform on one GPU"
                )
            elif shape is not None:
                batched = False
                dims = len(shape) if axes is None else min(axes, len(shape))
                fact = (
                    f"is a single {dims}-D transform, which cuPyNumeric runs on one GPU"
                    + (" axis by axis" if dims > 1 else "")
                    + "; only signals stacked along an untransformed axis spread across GPUs (RR-batch)"
                )
            else:
                batched = None
                fact = (
                    f"runs each transform on one GPU; whether more GPUs help depends on {model.segment(signal, 24)!r} "
                    "stacking several signals along an axis the call does not transform (RR-batch)"
                )
            yield self.finding(
                call,
                in_loop=model.in_loop(call),
                call=call_text(model, call),
                fact=fact,
                data={"api": api, "batched": batched, "shape": list(shape) if shape else None,
                      "per_iteration_loop": loop.line if loop else None},
            )


def _transformed_axes(call: ast.Call, default: int | None, shape: tuple[int, ...] | None) -> int | None:
    """How many axes the call transforms; None when it transforms them all."""
    for kw in call.keywords:
        if kw.arg == "axes" and isinstance(kw.value, (ast.Tuple, ast.List)):
            return len(kw.value.elts)
        if kw.arg == "s" and default is None and isinstance(kw.value, (ast.Tuple, ast.List)):
            return len(kw.value.elts)
    if default is None:
        return len(shape) if shape is not None else None
    return default
