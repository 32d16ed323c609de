"""CPN401: a NumPy name cuPyNumeric 26.6.1 does not implement."""

from __future__ import annotations

import ast
from typing import Any

from ..manifest import ApiSupport
from ..model import FileModel
from ..registry import Category, Invalid, Valid
from ._api_support import (
    ONE_LINE_EQUIVALENTS,
    ApiCall,
    ApiSupportRule,
    finding_data,
    kept_on_numpy,
    kept_on_numpy_fix,
    uses_not_implemented,
    version_text,
)

HINT_LIMIT = 48  # a longer equivalent stays in the full message, out of the ~100-character headline
HOST_FALLBACK = "keep it on host NumPy at a boundary or rewrite it with supported calls"


class ApiNotImplemented(ApiSupportRule):
    """
    ## What it does
    Reports every use of a NumPy name that cuPyNumeric does not implement.
    The API manifest (`cpn-lint manifest show`) covers the whole public
    surface of NumPy 1.26 and 2.x: functions and constants of `numpy`,
    `numpy.linalg`, `numpy.fft`, `numpy.random`, `numpy.ma`, the methods of
    arrays, of random generators (`rng.choice`, `RandomState(0).normal`) and
    of ufuncs (`np.add.at`), and the names NumPy 2 removed (`np.trapz`,
    `np.product`, `np.NaN`). Calls are reported (`np.interp(...)`,
    `la.lstsq(...)` after `import numpy.linalg as la`, `a.std()` on an
    array), and so is any other use of a name cuPyNumeric lacks altogether
    (`dtype=np.float_`, `isinstance(m, np.ma.MaskedArray)`, and
    `from numpy import trapz`, which fails at the import). So is the
    import of a submodule cuPyNumeric does not have (`import numpy.ma as
    ma`, `from numpy.testing import assert_allclose`, `numpy.polynomial`,
    `numpy.lib.stride_tricks`, `numpy.char`, `numpy.core`): the statement
    raises ModuleNotFoundError on load, before any name of it is used. The
    test helpers and `numpy.typing` stay on NumPy, where they are right:
    a note, not a refactor. The message
    says whether the name is missing from cuPyNumeric (the access raises
    AttributeError) or present but unsupported. A use inside a loop is
    marked as being on the hot path, which lowers the verdict by one tier.

    ## Why it does not scale on cuPyNumeric
    cuPyNumeric has no fallback to NumPy: after `import cupynumeric as np` a
    missing name raises AttributeError where it is used, so the program
    stops. Keeping such a call working means routing it to host NumPy, which
    copies the data off the GPUs and computes on one CPU; inside a loop that
    round trip is paid on every iteration and caps the program at host speed.

    ## Example
    ```python
    import numpy as np

    def resample(t, xp, fp):
        return np.interp(t, xp, fp)
    ```

    ## Use instead
    Keep the call on host NumPy at an explicit boundary, outside hot loops,
    and convert once (recipe RR-host-fallback):
    ```python
    import cupynumeric as np
    import numpy as onp

    def resample(t, xp, fp):
        return np.asarray(onp.interp(onp.asarray(t), onp.asarray(xp), onp.asarray(fp)))
    ```
    or express it with supported calls (`a.std()` is `np.sqrt(a.var())`;
    `np.ptp(a)` is `a.max() - a.min()`; `np.add.at(a, i, v)` with unique
    `i` is `a[i] += v`). For a name NumPy 2 removed, the message names its
    NumPy 2 spelling when cuPyNumeric has it (`np.product` -> `np.prod`).

    ## Known false alarms
    * A use the program guards is not reported: inside `if hasattr(np,
      "trapz"):` (cuPyNumeric never takes that branch; its `else` is
      judged as usual) or in a `try` whose handler catches the
      AttributeError (ImportError for `from numpy import ...`).
    * The manifest is a dated snapshot (`cpn-lint manifest show`); a name
      implemented since then is still reported until the manifest is
      refreshed (`cpn-lint manifest refresh`).
    * `np.vectorize`/`np.frompyfunc` are CPN102's, and `np.ndindex`,
      `np.ndenumerate`, `np.nditer` as the iterable of a loop the loop rules
      report (over an array's items, or picking elements with its indices)
      belong to them: the fix removes the call with the loop. A loop that
      only uses the indices (`for idx in np.ndindex(shape): print(idx)`) is
      reported here. Names that are in no NumPy
      release, and the host alias beside cuPyNumeric (`onp.interp`), are
      never reported.
    * The aliases of Python's types that NumPy 1.24 removed (`np.int`,
      `np.float`, `np.complex`, `np.object`, `np.str`, `np.unicode`) are
      older than the manifest's releases and are reported from a table of
      their own; the message names the Python type to use.
    * A method is looked up only when the receiver is known to be a NumPy
      array, a random generator whose constructor is seen, or a NumPy ufunc.
    """

    code = "CPN401"
    slug = "api-not-implemented"
    category = Category.API
    recipe = "RR-host-fallback"
    summary = "NumPy name that cuPyNumeric does not implement"
    message = "{call}: {api} {gap}{where}; {fix} (RR-host-fallback)"
    short = "{call} is unsupported on cuPyNumeric: {hint} (RR-host-fallback)"

    valid = (
        # a pandas Series built from arrays: its .std() is pandas', whatever
        # the name was before (a list handed to np.vstack)
        Valid("""
            import numpy as np
            import pandas as pd
            log = open("laser.log")
            readings = []
            for k, line in enumerate(log):
                if line[0] == "L":
                    values = np.array(line[2:].split(), dtype=np.float64)
                    readings.append(values[6:-1])
            readings = pd.Series(np.vstack(readings).flatten())
            readings.plot.hist(bins=20)
            readings[readings < 1000].std()
            """),
        # an optional submodule the program already does without
        Valid("""
            import numpy as np
            try:
                from numpy import ma
            except ImportError:
                ma = None
            """),
        # guarded by the program itself: cuPyNumeric never takes the branch,
        # and the handler catches the AttributeError
        Valid("""
            import numpy as np
            if hasattr(np, "trapz"):
                integrate = np.trapz
            else:
                integrate = None
            try:
                legacy = np.trapz
            except AttributeError:
                legacy = None
            try:
                from numpy import trapz
            except ImportError:
                trapz = None
            """),
        Valid("""
            import numpy as np
            x = np.linspace(0.0, 1.0, 50)
            y = np.sin(x) + np.cumsum(x)
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            xp = onp.arange(5.0)
            y = onp.interp(2.5, xp, xp * 2)
            """),
        Valid("""
            import numpy as np
            f = np.vectorize(abs)
            grid = np.mgrid[0:4, 0:4]
            """),
        Valid("""
            import numpy as np
            items = [3, 1, 2]
            items.repeat = None
            s = 'np.interp(x, xp, fp)'
            """),
        Valid("""
            from mylib import interp
            import numpy as np
            y = interp(np.arange(3.0), [0, 1], [0, 2])
            """),
        # an element loop: CPN101 reports it, and its fix removes np.ndindex
        Valid("""
            import numpy as np
            a = np.zeros((4, 4))
            for idx in np.ndindex(a.shape):
                a[idx] = idx[0] * idx[1]
            """),
        Valid("""
            import numpy as np
            x = np.zeros(3, dtype=np.float64)
            y = np.nan + np.pi
            z = np.not_a_numpy_name(x)
            """),
        Valid("""
            import numpy as np
            rng = np.random.default_rng(0)
            x = rng.normal(0.0, 1.0, 100)
            """),
        Valid("""
            import numpy as np
            def draw(gen):
                return gen.choice(10)
            """),
    )
    invalid = (
        # a method reached through a class cuPyNumeric lacks fails where the
        # class is looked up (AttributeError under the runtime)
        Invalid("""
            import numpy as np
            w = np.ones(3) / 3
            wT = np.matrix.transpose(w)
            """, line=3, contains="np.matrix.transpose"),
        # the import of a submodule cuPyNumeric lacks fails on load, before any
        # use of it (ModuleNotFoundError under the runtime)
        Invalid("""
            import numpy as np
            import numpy.ma as ma
            """, line=2, contains="import numpy.ma"),
        # cuPyNumeric has no numpy.polynomial at all: every name under it is missing
        Invalid("""
            import numpy as np
            from numpy.polynomial.legendre import leggauss
            """, line=2, contains="numpy.polynomial.legendre.leggauss"),
        # removed from NumPy 1.24, missing from cuPyNumeric
        Invalid("""
            import numpy as np
            counts = np.zeros(8, dtype=np.int)
            """, line=2, contains="use Python's int"),
        Invalid("""
            import numpy as np
            for idx in np.ndindex(4, 4):
                print(idx)
            """, line=2, contains="numpy.ndindex is missing"),
        Invalid("""
            import numpy as np
            xp = np.arange(10.0)
            y = np.interp(2.5, xp, xp ** 2)
            """, line=3,
                contains="numpy.interp is missing from cuPyNumeric 26.6.1 (AttributeError)"),
        Invalid("""
            import numpy.linalg as la
            import numpy as np
            a = np.eye(3)
            x = la.lstsq(a, np.ones(3))
            """, line=4, contains="numpy.linalg.lstsq"),
        Invalid("""
            from numpy import random as npr
            picks = npr.choice(5, 2)
            """, line=2, contains="numpy.random.choice"),
        Invalid("from numpy import trapz\n", line=1, contains="from numpy import trapz: numpy.trapz (NumPy 1.x only) is "
                "missing from cuPyNumeric 26.6.1 (ImportError)"),
        Invalid(
            """
            import numpy as np
            u = np.random.rand(100, 100)
            for step in range(50):
                spread = u.std(axis=0)
            """,
            line=4, contains="inside the loop at line 3",
        ),
        Invalid("""
            import cupynumeric as cpn
            v = cpn.ones(8)
            w = cpn.nanstd(v)
            """, line=3, contains="numpy.nanstd"),
        Invalid("""
            import numpy as np
            m = np.ma.masked_array(np.ones(4), mask=[0, 1, 0, 0])
            """, line=2, contains="numpy.ma.masked_array"),
        Invalid("""
            import numpy as np
            h = np.zeros(8)
            np.add.at(h, [1, 1, 2], 1.0)
            """, line=3, contains="numpy.ufunc.at"),
        Invalid("""
            import numpy as np
            x = np.linspace(0, 1, 9)
            area = np.trapz(x * x, x)
            """, line=3, contains="NumPy 1.x only"),
        Invalid("""
            import numpy as np
            vals = np.arange(5.0)
            total = np.product(vals)
            """, line=3, contains="use np.prod"),
        Invalid("""
            import numpy as np
            missing = np.zeros(3) * np.NaN
            """, line=2, contains="use np.nan"),
        Invalid("""
            import numpy as np
            rng = np.random.default_rng(7)
            pick = rng.choice(10, size=3)
            """, line=3,
                contains="numpy.random.Generator.choice"),
        Invalid("""
            import numpy as np
            rs = np.random.RandomState(1)
            z = rs.normal(size=4)
            """, line=3,
                contains="numpy.random.RandomState.normal"),
        # a generator handed to a helper, or kept on self, is still the one made
        Invalid("""
            import numpy as np
            def draw(gen):
                return gen.choice(10)
            pick = draw(np.random.default_rng(0))
            """, line=3, contains="numpy.random.Generator.choice"),
        Invalid("""
            import numpy as np
            class Shuffler:
                def __init__(self, seed):
                    self.rng = np.random.default_rng(seed)
                def order(self, n):
                    return self.rng.permutation(n)
            """, line=6, contains="numpy.random.Generator.permutation"),
    )

    def uses(self, model: FileModel) -> list[ApiCall]:
        return uses_not_implemented(model)

    def data(self, model: FileModel, use: ApiCall) -> dict[str, object]:
        return {**finding_data(use, model), "error": _error(use)}

    def fields(self, model: FileModel, use: ApiCall) -> dict[str, Any]:
        error = _error(use)
        fix = fix_text(model, use)
        hint = fix if use.entry.replacement is not None or use.entry.api in ONE_LINE_EQUIVALENTS \
            else "keep it on host NumPy"
        if kept_on_numpy(use.entry.api):
            error, hint = "ModuleNotFoundError once the import is renamed", "keep the import on NumPy"
        if len(hint) > HINT_LIMIT:
            hint = "a one-line equivalent exists"
        return {"gap": gap_text(use.entry, version_text(), error), "fix": fix, "hint": hint}


def _error(use: ApiCall) -> str:
    """What the use raises under cuPyNumeric: a missing module fails its
    import, a missing name its ``from`` import or its attribute access."""
    if use.error is not None:
        return use.error
    if kept_on_numpy(use.entry.api):
        return "ModuleNotFoundError"
    return "ImportError" if isinstance(use.call, ast.alias) else "AttributeError"


def gap_text(entry: ApiSupport, version: str, error: str = "AttributeError") -> str:
    """What cuPyNumeric lacks: the name itself (``error`` is what its use
    raises), or support for a name it has."""
    only_v1 = "(NumPy 1.x only) " if entry.removed_in_numpy2 else ""
    if entry.lacks is True:
        return f"{only_v1}is missing from {version} ({error})"
    if entry.lacks is False:
        return f"{only_v1}exists in {version} but is not supported there"
    return f"{only_v1}is not implemented in {version}"


def fix_text(model: FileModel, use: ApiCall) -> str:
    """The NumPy 2 spelling when cuPyNumeric has it, else the host fallback."""
    replacement = use.entry.replacement
    if kept_on_numpy(use.entry.api):
        return kept_on_numpy_fix(use.entry.api)
    if replacement is None:
        equivalent = ONE_LINE_EQUIVALENTS.get(use.entry.api)
        return f"use {equivalent}" if equivalent else HOST_FALLBACK
    written = use.call.func if isinstance(use.call, ast.Call) else use.call
    return f"use {_spelled_like(model, written, replacement)}"


def _spelled_like(model: FileModel, written: ast.expr, replacement: str) -> str:
    """``np.prod`` for ``np.product`` (the replacement under the file's own
    alias); the full NumPy name when the call was imported by name."""
    if not replacement.startswith("numpy."):
        return f"Python's {replacement}"  # np.int -> int: a builtin type
    if isinstance(written, ast.Attribute):
        return f"{model.segment(written.value, 40)}.{replacement.rsplit('.', 1)[1]}"
    return replacement
