"""CPN401: a NumPy API the manifest lists as not implemented in cuPyNumeric."""

from __future__ import annotations

from typing import Iterator

from ..findings import Finding
from ..manifest import Status
from ..model import FileModel
from ..registry import Category, Invalid, Rule, Valid
from ._api_support import calls_with_status, describe_call, finding_data, version_text, where


class ApiNotImplemented(Rule):
    """
    ## What it does
    Looks up every NumPy call in the API manifest (`cpn-lint manifest show`)
    and reports the calls of APIs cuPyNumeric does not implement:
    `np.interp(...)`, `la.lstsq(...)` after `import numpy.linalg as la`,
    `interp(...)` after `from numpy import interp`, and methods of arrays such
    as `a.std()` (`numpy.ndarray.std`). One finding per call; a call inside a
    loop is marked as being on the hot path, which lowers the verdict by one
    tier.

    ## Why it does not scale on cuPyNumeric
    After `import cupynumeric as np` the name is simply not there: the call
    fails, or it has to be routed back to host NumPy, which copies the data
    off the GPUs and computes on one CPU. Inside a loop that round-trip is
    paid on every iteration and caps the whole program at host speed.

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
    or express it with supported calls (`a.std()` is
    `np.sqrt(a.var())`; `np.ptp(a)` is `a.max() - a.min()`).

    ## Known false alarms
    * The manifest is a dated snapshot (`cpn-lint manifest show`); an API
      implemented since then is still reported until the manifest is
      refreshed (`cpn-lint manifest refresh`).
    * `np.vectorize`/`np.frompyfunc` are CPN102's, and `np.ndindex`,
      `np.ndenumerate`, `np.nditer` as the iterable of a loop belong to the
      loop rules; they are not reported here. APIs the manifest does not list
      (`np.mgrid`, `np.max`) and the host alias beside cuPyNumeric
      (`onp.interp`) are never reported.
    * A method call is looked up only when the receiver is known to be a
      NumPy array.
    """

    code = "CPN401"
    slug = "api-not-implemented"
    category = Category.API
    recipe = "RR-host-fallback"
    summary = "NumPy API that cuPyNumeric does not implement"
    message = (
        "{call} calls {api}, which {version} does not implement{where}; keep the call on host NumPy at an "
        "explicit boundary or rewrite it with supported calls (RR-host-fallback)"
    )

    valid = (
        Valid("import numpy as np\nx = np.linspace(0.0, 1.0, 50)\ny = np.sin(x) + np.cumsum(x)\n"),
        Valid("import cupynumeric as np\nimport numpy as onp\nxp = onp.arange(5.0)\ny = onp.interp(2.5, xp, xp * 2)\n"),
        Valid("import numpy as np\nf = np.vectorize(abs)\ngrid = np.mgrid[0:4, 0:4]\n"),
        Valid("import numpy as np\nitems = [3, 1, 2]\nitems.repeat = None\ns = 'np.interp(x, xp, fp)'\n"),
        Valid("from mylib import interp\nimport numpy as np\ny = interp(np.arange(3.0), [0, 1], [0, 2])\n"),
        Valid("import numpy as np\na = np.zeros((4, 4))\nfor idx in np.ndindex(a.shape):\n    pass\n"),
    )
    invalid = (
        Invalid("import numpy as np\nxp = np.arange(10.0)\ny = np.interp(2.5, xp, xp ** 2)\n", line=3, contains="numpy.interp"),
        Invalid("import numpy.linalg as la\nimport numpy as np\na = np.eye(3)\nx = la.lstsq(a, np.ones(3))\n", line=4, contains="numpy.linalg.lstsq"),
        Invalid("from numpy import interp, arange\ny = interp(1.5, arange(4.0), arange(4.0))\n", line=2),
        Invalid(
            "import numpy as np\nu = np.random.rand(100, 100)\nfor step in range(50):\n    spread = u.std(axis=0)\n",
            line=4, contains="inside the loop at line 3",
        ),
        Invalid("import cupynumeric as cpn\nv = cpn.ones(8)\nw = cpn.nanstd(v)\n", line=3, contains="numpy.nanstd"),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        version = version_text()
        for api_call in calls_with_status(model, Status.NOT_IMPLEMENTED):
            yield self.finding(
                api_call.call,
                in_loop=api_call.in_loop,
                data=finding_data(api_call),
                call=describe_call(model, api_call.call),
                api=api_call.entry.api,
                version=version,
                where=where(api_call),
            )
