"""CPN106: a slice with a non-unit step (``a[::2]``, ``a[::-1]``) of a device array.

The candidates come from the model's index of ``ast.Slice`` nodes (built by
its one walk, so a file without a stepped slice costs one list scan): the step
is an ``ast`` field, whereas tree-sitter's ``slice`` node has no step field and
a structural pattern would have to re-check it here anyway.
"""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, Kind
from ..registry import Category, Invalid, Rule, Valid
from ._api_support import version_text


class StridedSlice(Rule):
    """
    ## What it does
    Reports a subscript of a NumPy array that uses a slice with a step other
    than 1 — `a[::2]`, `a[1::2]`, `a[::-1]`, `a[:, ::4]`,
    `a[slice(0, n, 2)]` — whether the subscript is read or assigned to. A
    step held in a variable (`a[::k]`) is reported too, since nothing shows it
    is 1. One finding per subscript, at the subscript.

    ## Why it does not scale on cuPyNumeric
    A distributed array is split into blocks across GPUs, and cuPyNumeric's
    partitioning has no notion of "every k-th element". cuPyNumeric 26.6.1
    raises `NotImplementedError: Unsupported slice` on any stepped slice,
    read or written, reversals (`a[::-1]`) included (checked under the
    runtime oracle, `tests/test_oracle_slices.py`), with one worse
    exception: a negative step between bounds whose start is not below its
    stop (`a[:0:-1]`, `a[-1:0:-1]`, `a[8:2:-2]`) returns an empty array
    without any error, so the program runs on with wrong data; the message
    says which of the two the slice gets. Releases that accept stepped
    slices take them off the distributed path.

    ## Example
    ```python
    import numpy as np

    signal = np.linspace(0.0, 1.0, 1_000_000)
    evens = signal[::2]
    backwards = signal[::-1]
    ```

    ## Use instead
    Build the selection once as a boolean mask on a host array, hand the
    finished mask to cuPyNumeric, and index with it (recipe RR-strided):
    ```python
    import numpy as onp          # host NumPy under its own alias
    import cupynumeric as np

    keep = onp.zeros(signal.shape[0], dtype=bool)
    keep[::2] = True             # a stepped write on a host array is fine
    evens = signal[np.asarray(keep)]
    ```
    For a reversal use `np.flip(signal)` (`np.flip(img, axis=1)` for one
    axis), which cuPyNumeric runs (the 26.6.1 manifest lists it as single-GPU;
    it returns a copy, not a view); a reversed range is better built in
    descending order (`np.linspace(1.0, 0.0, n)`).

    ## Known false alarms
    * A step held in a variable that is always 1 at run time is reported;
      write the slice without a step, or `# noqa: CPN106`.
    * Slices of Python lists, strings and tuples, of arrays made with the host
      alias (`onp` beside `import cupynumeric as np`) and the index helpers
      `np.mgrid`, `np.ogrid`, `np.r_`, `np.c_`, `np.s_` and `np.index_exp`
      are not reported, nor is a name inside `if isinstance(x, list):`. A
      value the model cannot show to be an array (a parameter never used as
      one) stays quiet.
    """

    code = "CPN106"
    slug = "strided-slice"
    category = Category.BLOCKS
    recipe = "RR-strided"
    summary = "Slice with a non-unit step of a NumPy array"
    message = "{subscript} slices array '{array}' with {step}: {version} {effect}; {fix} (RR-strided)"
    short = "{subscript} {effect_short}: {fix_short} (RR-strided)"

    valid = (
        Valid("""
            import numpy as np
            a = np.arange(10)
            b = a[1:-1]
            c = a[::1]
            d = a[2:8:1]
            e = a[::None]
            """),
        Valid("""
            import numpy as np
            name = 'signal'
            rev = name[::-1]
            items = [1, 2, 3, 4]
            odd = items[1::2]
            """),
        Valid("""
            import numpy as np
            x = np.mgrid[0:1:10j]
            y = np.r_[0:10:2]
            z = np.ogrid[0:4:2]
            sl = np.s_[::2]
            ix = np.index_exp[::3]
            """),
        Valid(
            """
            import numpy as onp
            import cupynumeric as np
            arr = np.arange(10.0)
            keep = onp.zeros(arr.shape[0], dtype=bool)
            keep[::2] = True
            evens = arr[np.asarray(keep)]
            """
        ),
        Valid("""
            import numpy as np
            a = np.ones((4, 4))
            rev_shape = a.shape[::-1]
            rows = a.tolist()[::2]
            """),
        Valid("""
            import pandas as pd
            import numpy as np
            df = pd.DataFrame({'a': [1, 2, 3]})
            half = df.iloc[::2]
            """),
    )
    invalid = (
        # the array is an attribute of a grid object another object holds:
        # `self.grid = grid`, passed a Grid by its only caller
        Invalid("""
            import numpy as np

            class Grid:
                def __init__(self, n):
                    self.phi = np.zeros(n + 2)

            class Solver:
                def __init__(self, grid):
                    self.grid = grid

                def relax_odd(self):
                    g = self.grid
                    g.phi[1:-1:2] = 0.0

            Solver(Grid(64)).relax_odd()
            """, line=13, contains="g.phi[1:-1:2]"),
        # no error here: the runtime hands back an empty array
        Invalid("""
            import numpy as np
            x = np.linspace(0.0, 1.0, 8)
            tail = x[:0:-1]
            """, line=3, contains="returns an empty array here, without an error (silently wrong)"),
        Invalid("""
            import numpy as np
            arr = np.arange(10)
            evens = arr[::2]
            """, line=3, contains="step 2"),
        Invalid("""
            import numpy as np
            sig = np.linspace(0.0, 1.0, 8)
            rev = sig[::-1]
            """, line=3, contains="rejects stepped slices (NotImplementedError); reverse it with np.flip(sig)"),
        Invalid("""
            import numpy as np
            img = np.zeros((64, 64))
            mirrored = img[:, ::-1]
            """, line=3, contains="np.flip(img, axis=1)"),
        Invalid("""
            import numpy as np
            t = np.arange(0.1, 2.0, 0.1)[::-1]
            """, line=2, contains="or reverse it with np.flip(np.arange(0.1, 2.0, 0.1))"),
        Invalid("""
            import numpy as np
            def backwards(signal: np.ndarray):
                return signal[::-1]
            """, line=3, contains="reverse it with np.flip(signal), which cuPyNumeric runs"),
        Invalid("""
            import numpy as np
            t = np.arange(0.1, 2.0, 0.1)
            head = t[5::-1]
            """, line=3, contains="boolean mask"),
        Invalid("""
            import numpy as np
            grid = np.zeros((8, 8))
            grid[:, 1::2] = 1.0
            """, line=3, contains="'grid'"),
        Invalid(
            """
            import numpy as np
            def decimate(x: np.ndarray, k: int):
                return x[::k]
            """,
            line=3,
            contains="not known to be 1",
        ),
        Invalid("""
            import cupynumeric as np
            mask = np.zeros(10, dtype=bool)
            mask[::2] = True
            """, line=3),
        Invalid("""
            import numpy as np
            a = np.arange(12)
            b = a[slice(0, 12, 3)]
            """, line=3, contains="step 3"),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy():
            return
        steps: dict[ast.Subscript, list[str]] = {}
        for part in self._stepped_parts(model):
            subscript = _owning_subscript(model, part)
            if subscript is None or model.kind(subscript.value) is not Kind.DEVICE:
                continue
            if isinstance(subscript.value, ast.Name) and model.narrowed_to_non_array(subscript.value):
                continue  # inside `if isinstance(x, (list, tuple)):`
            described = _describe_step(model, part)
            if described is not None:
                steps.setdefault(subscript, []).append(described)
        reported: set[tuple[int, int]] = set()
        for subscript, described in sorted(steps.items(), key=lambda item: (item[0].lineno, item[0].col_offset)):
            position = (subscript.lineno, subscript.col_offset)
            if position in reported:  # a[::2][::2]: both subscripts start here; report once
                continue
            reported.add(position)
            effect = _effect(model, subscript)
            yield self.finding(
                subscript,
                in_loop=model.in_loop(subscript),
                subscript=model.segment(subscript, 40),
                array=model.segment(subscript.value, 24),
                step=_steps_text(list(dict.fromkeys(described))),
                version=version_text(),
                effect=_EFFECT_TEXT[effect],
                effect_short="returns an empty array on cuPyNumeric" if effect == "empty" else "is a strided slice",
                data={"effect": effect},
                **_advice(model, subscript),
            )

    @staticmethod
    def _stepped_parts(model: FileModel) -> Iterator[ast.expr]:
        """Slices with a step, and ``slice(start, stop, step)`` calls."""
        for node in model.nodes(ast.Slice):
            if node.step is not None:
                yield node
        for call in model.nodes(ast.Call):
            func = call.func
            if isinstance(func, ast.Name) and func.id == "slice" and len(call.args) == 3 and model.lookup(func) is None:
                yield call


_RANGE_BUILDERS = frozenset({"arange", "linspace", "logspace", "geomspace"})
_MASK_ADVICE = {"fix": "build the selection as a boolean mask on a host array", "fix_short": "use a boolean mask"}


def _advice(model: FileModel, subscript: ast.Subscript) -> dict[str, str]:
    """``np.flip`` for a whole reversal (``a[::-1]``, ``a[:, ::-1]``), which
    stays distributed; a host-built boolean mask for any other step."""
    parts = list(subscript.slice.elts) if isinstance(subscript.slice, ast.Tuple) else [subscript.slice]
    axes: list[int] = []
    for axis, part in enumerate(parts):
        if not isinstance(part, ast.Slice) or part.lower is not None or part.upper is not None:
            return _MASK_ADVICE
        if part.step is not None and model.const_int(part.step) == -1:
            axes.append(axis)
        elif part.step is not None and model.const_int(part.step) != 1:
            return _MASK_ADVICE
    if not axes:
        return _MASK_ADVICE
    array = model.segment(subscript.value, 24)
    where = "" if len(parts) == 1 else f", axis={axes[0]}" if len(axes) == 1 else f", axis={tuple(axes)}"
    flip = f"np.flip({array}{where})"
    if model.call_api(subscript.value) in _RANGE_BUILDERS:
        return {"fix": f"build the range in descending order instead, or reverse it with {flip}",
                "fix_short": "build it descending"}
    return {"fix": f"reverse it with {flip}, which cuPyNumeric runs", "fix_short": "use np.flip"}


def _owning_subscript(model: FileModel, part: ast.expr) -> ast.Subscript | None:
    """The subscript whose index is ``part`` (or a tuple holding it)."""
    parent = model.parent(part)
    if isinstance(parent, ast.Tuple):
        holder = model.parent(parent)
        if isinstance(holder, ast.Subscript) and holder.slice is parent:
            return holder
        return None
    if isinstance(parent, ast.Subscript) and parent.slice is part:
        return parent
    return None


# What cuPyNumeric 26.6.1 does with a stepped slice (tests/test_oracle_slices.py):
# it raises, except a negative step between bounds whose start is not below
# its stop once normalised (a[:0:-1], a[8:2:-2]): that returns an empty array.
_EFFECT_TEXT = {
    "raises": "rejects stepped slices (NotImplementedError)",
    "empty": "returns an empty array here, without an error (silently wrong)",
    "either": "rejects stepped slices (NotImplementedError) or, with some bounds, returns an empty array",
}


def _effect(model: FileModel, subscript: ast.Subscript) -> str:
    """"raises", "empty" (silently wrong) or "either" when the bounds are
    not known; an empty result of any axis empties the whole selection."""
    parts = list(subscript.slice.elts) if isinstance(subscript.slice, ast.Tuple) else [subscript.slice]
    effects = {_slice_effect(model, p) for p in parts if isinstance(p, ast.Slice) and p.step is not None}
    for found in ("empty", "either"):
        if found in effects:
            return found
    return "raises"


def _slice_effect(model: FileModel, part: ast.Slice) -> str:
    if part.upper is None:
        return "raises"  # the stop is the length, past any start
    step = model.const_int(part.step)
    if step is None:
        return "either"
    if step >= 0:
        return "raises"
    start = 0 if part.lower is None else model.const_int(part.lower)
    stop = model.const_int(part.upper)
    if start is None or stop is None:
        return "either"
    if (start < 0) == (stop < 0):
        return "empty" if start >= stop else "raises"
    if start < 0 and stop == 0:
        return "empty"  # a[-1:0:-1]: the start counts back from the end, past 0
    return "either"  # one bound counts from the end: it depends on the length


def _describe_step(model: FileModel, part: ast.expr) -> str | None:
    """``"step 2"``, ``"step 'k', which is not known to be 1"``, or None for a unit step."""
    step = part.step if isinstance(part, ast.Slice) else part.args[2]  # type: ignore[attr-defined]
    if isinstance(step, ast.Constant) and step.value is None:
        return None
    if isinstance(step, ast.UnaryOp) and isinstance(step.op, ast.UAdd):
        step = step.operand
    value = model.const_int(step)
    if value == 1:
        return None
    if value is not None:
        return f"step {value}"
    return UNKNOWN_STEP + model.segment(step, 20)


UNKNOWN_STEP = "\0"  # marks a step whose value is not known


def _steps_text(described: list[str]) -> str:
    """``step 2 and step 3``; unknown steps named once: ``step 'k', which is
    not known to be 1`` or ``steps 'k' and 'm', which are not known to be 1``."""
    known = [d for d in described if not d.startswith(UNKNOWN_STEP)]
    unknown = [f"'{d[1:]}'" for d in described if d.startswith(UNKNOWN_STEP)]
    parts = list(known)
    if len(unknown) == 1:
        parts.append(f"step {unknown[0]}, which is not known to be 1")
    elif unknown:
        parts.append(f"steps {', '.join(unknown[:-1])} and {unknown[-1]}, which are not known to be 1")
    return " and ".join(parts)
