"""CPN101: a Python loop that indexes arrays one element (or row) at a time."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, IterKind, LoopFrame, Role, Work
from ..registry import Category, Invalid, Rule, Valid


class ElementLoopIndexing(Rule):
    """
    ## What it does
    Finds loops whose every iteration does element-sized work on NumPy
    arrays: each access picks single elements (`a[i]`, `out[i, j]`) or rows
    and columns (`x[i, :]`, `b[:, k]`), by the loop's index or by values the
    body computes from it or draws (`j = rng.integers(n); v[j]`), and the
    body works on no whole array. One finding per loop nest, at the `for`
    (or `while`) of the outermost such loop, naming the arrays it picks from;
    a row loop gets the broadcasting recipe.

    A loop whose body does whole-array or slab work (`u[1:-1] = ...`,
    `np.sum(u * u)`, `x[:, k:k + n]`, `out=` updates, a helper called with
    whole arrays) is a time-step or tap loop and is not reported, even when
    it also stores per-step history (`energy[i] = np.sum(u * u)`), reads one
    row of a pre-drawn array (`noise[t]`) or one tap (`w[k]`). A loop that
    carries element-sized state from one iteration to the next (`y[n]` from
    `y[n - 1]`, a Markov chain) is a recurrence, reported as CPN410.

    ## Why it does not scale on cuPyNumeric
    cuPyNumeric turns every array operation into a task that the Legate
    runtime schedules across GPUs. Inside an element loop each `a[i]` is its
    own tiny operation: the fixed cost of launching and tracking it is
    thousands of times larger than the work on one element, and Python runs
    the iterations one after another, so more GPUs cannot help.

    ## Example
    ```python
    import numpy as np

    def scale(a):
        out = np.empty_like(a)
        for i in range(a.shape[0]):
            out[i] = a[i] * 2.0 + 1.0
        return out
    ```

    ## Use instead
    ```python
    def scale(a):
        return a * 2.0 + 1.0
    ```
    Branches become `np.where`, row-wise scaling becomes broadcasting
    (`data * w[:, None]`), sums become `np.sum`/`np.dot`, and loops over many
    independent small problems become one batched call (recipes RR-loop,
    RR-broadcast, RR-batch).

    ## Known false alarms
    * Work per iteration is judged from the code: an array made with a few
      literal elements (`np.zeros(3)`, a 4 × 4 matrix) counts as element
      work, one sized by a name (`np.zeros(nx)`) as a whole array whatever
      the name's value. A loop over a large but fixed number of channels
      whose body works on whole channel slabs is quiet; over rows of a 2-D
      array with nothing else done it is reported (broadcast instead).
    * Values of unknown kind (an untyped parameter no call site in the file
      explains) are not counted as work; a loop whose only whole-array
      operation involves such a value may be reported. Annotate the
      parameter or suppress with `# noqa: CPN101`.
    * Loops over a handful of literal constants (`for axis in range(3)`) are
      never reported.
    * Around an index loop that does not use its own index (`for step in
      range(T): for i in range(n): u[i] = ...`) the outer loop is a step
      loop and the inner loop is reported. For a time loop around an
      element sweep whose picks use the time index too (`u[n + 1, i]` from
      row `n`), the sweep is reported and the time loop (a row recurrence)
      is not.
    * Arrays are recognised through imports, assignments and the file's own
      call sites; a loop over a parameter nothing in the file shows to be
      an array stays quiet.
    """

    code = "CPN101"
    slug = "element-loop-indexing"
    category = Category.BLOCKS
    recipe = "RR-loop"
    summary = "Python loop indexing arrays element by element"
    message = "{loop} indexes {arrays} one {unit} at a time; {fix} (RR-loop)"

    valid = (
        Valid("import numpy as np\nu = np.zeros(100)\nfor step in range(1000):\n    u[1:-1] = 0.5 * (u[:-2] + u[2:])\n"),
        Valid("import numpy as np\nv = np.zeros((3, 64, 64))\nwork = np.zeros_like(v)\nfor axis in range(3):\n    work[axis] = 2.0 * v[axis] + np.roll(v[axis], 1, axis=-1)\n"),
        Valid("import numpy as np\nitems = [1, 2, 3, 4]\nfor i in range(len(items)):\n    items[i] = items[i] * 2\n"),
        Valid(
            "import numpy as np\nx = np.ones((10000, 3))\nout = np.empty(10000)\nchunk = 1024\n"
            "for i in range(0, len(x), chunk):\n    out[i:i + chunk] = x[i:i + chunk, :].sum(axis=1)\n"
        ),
        Valid("import numpy as np\ny = np.zeros(100)\nx = np.ones(100)\nfor n in range(1, 100):\n    y[n] = 0.9 * y[n - 1] + x[n]\n"),
        Valid("import numpy as np\nfiles = ['a.npy', 'b.npy']\nfor i in range(len(files)):\n    data = np.load(files[i])\n"),
        Valid("import mylib as np\na = np.zeros(10)\nfor i in range(10):\n    a[i] = i\n"),
        # a time-step loop that also stores per-step history and snapshots
        Valid(
            "import numpy as np\nn, steps = 4096, 500\nu = np.zeros(n)\nenergy = np.zeros(steps)\nsnap = np.zeros((n, n, 10))\n"
            "for i in range(steps):\n    u[1:-1] = u[1:-1] + 0.1 * (u[2:] - 2 * u[1:-1] + u[:-2])\n    energy[i] = np.sum(u * u)\n"
            "    snap[:, :, i % 10] = u\n"
        ),
        # one row of a pre-drawn noise array per step, beside whole-array work
        Valid(
            "import numpy as np\nn, steps = 4096, 500\nnoise = np.random.normal(0, 1, (steps, n))\nu = np.zeros(n)\n"
            "for t in range(steps):\n    u = 0.5 * (np.roll(u, 1) + np.roll(u, -1))\n    u += 0.01 * noise[t]\n"
        ),
        # a scalar tap per iteration beside slab work
        Valid(
            "import numpy as np\nn, taps = 4096, 12\nw = np.ones(taps)\nu = np.ones(n + taps)\nacc = np.zeros(n)\n"
            "for k in range(taps):\n    acc += w[k] * u[k:k + n]\n"
        ),
        # a slab recurrence over many walkers is time stepping
        Valid(
            "import numpy as np\nwalkers, steps = 100000, 200\nwalk = np.zeros((walkers, steps))\n"
            "for t in range(1, steps):\n    walk[:, t] = walk[:, t - 1] + np.random.normal(0, 1, walkers)\n"
        ),
        # a time-step loop around an element loop: the inner loop is reported, once
        Valid(
            "import numpy as np\nu = np.zeros(100)\nfor step in range(1000):\n    u = 0.5 * (np.roll(u, 1) + u)\n"
        ),
    )
    invalid = (
        Invalid("import numpy as np\na = np.arange(100.0)\nfor i in range(len(a)):\n    a[i] = a[i] * 2.0 + 1.0\n", line=3, contains="'a'"),
        Invalid("import numpy as np\na = np.arange(100.0)\nfor i in range(0, len(a), 2):\n    a[i:i + 2] = a[i:i + 2][::-1]\n", line=3),
        Invalid(
            "import numpy as np\nfrom itertools import product\nout = np.zeros((4, 4))\narr = np.ones((4, 4))\n"
            "for i, j in product(range(4), range(4)):\n    out[i, j] = arr[i, j] ** 2\n",
            line=5,
        ),
        Invalid(
            "import numpy as np\ndef smooth(u, un, c):\n    for n in range(10):\n        un = u.copy()\n"
            "        for i in range(1, u.shape[0]):\n            u[i] = un[i] - c * (un[i] - un[i - 1])\n    return u\n",
            line=5,
        ),
        Invalid("import numpy as np\ndata = np.ones((50, 8))\nw = np.ones(50)\nout = np.empty_like(data)\nfor i in range(50):\n    out[i, :] = data[i, :] * w[i]\n", line=5),
        Invalid("import numpy as np\na = np.ones(9)\nsquares = [a[i] ** 2 for i in range(9)]\n", line=3),
        # elements picked by a value computed in the body (a random site)
        Invalid(
            "import numpy as np\nrng = np.random.default_rng(0)\nn = 1000\nv = np.zeros(n)\n"
            "for sweep in range(100000):\n    j = rng.integers(n)\n    v[j] = 0.5 * (v[j - 1] + v[(j + 1) % n])\n",
            line=5,
            contains="'v' one element at a time",
        ),
        # an untyped helper whose call sites pass arrays
        Invalid(
            "import numpy as np\n\ndef solve(t, e):\n    out = np.zeros(len(t))\n    for i in range(len(t)):\n"
            "        out[i] = e[i] * t[i]\n    return out\n\nx = np.linspace(0, 1, 100)\nsolve(x, np.ones(100))\n",
            line=5,
            contains="'e', 'out', 't'",
        ),
        # a time-step loop around an element loop: the inner loop
        Invalid(
            "import numpy as np\nu = np.zeros(100)\nun = np.zeros(100)\nfor step in range(1000):\n"
            "    for i in range(1, 99):\n        un[i] = u[i] + 0.1 * (u[i + 1] - 2 * u[i] + u[i - 1])\n    u, un = un, u\n",
            line=5,
        ),
        # rows picked by the index and nothing else: broadcast instead
        Invalid(
            "import numpy as np\nx = np.ones((5000, 300))\nscale = np.ones(5000)\n"
            "for i in range(5000):\n    x[i, :] = x[i, :] * scale[i]\n",
            line=4,
            contains="one row at a time; broadcast over the rows instead",
        ),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy():
            return
        reported: set[int] = set()  # ids of reported frames
        for frame in model.loops:  # outer loops come before the loops they contain
            if model.role(frame) is not Role.ELEMENT_LOOP:
                continue
            if any(id(outer) in reported for outer in frame.chain()[1:]):
                continue
            reported.add(id(frame))
            work = model.work(frame)
            names = sorted({model.segment(sub.value, 24) for sub in work.picks})
            shown = ", ".join(repr(n) for n in names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
            rows = work.work is Work.ROW
            yield self.finding(
                frame.node,
                in_loop=True,
                loop=_describe(model, frame),
                arrays=shown,
                unit="row" if rows else "element",
                fix="broadcast over the rows instead" if rows else "vectorise the body",
                data={"arrays": names, "accesses": len(work.picks), "work": work.work.name.lower(),
                      "repeated_by": _repeated_by(model, frame)},
            )


def _repeated_by(model: FileModel, frame: LoopFrame) -> int | None:
    """The line of the loop that runs this element loop over and over (an
    enclosing loop, or one calling its function every iteration): then the
    element loop is the program's main work, which the verdict weighs."""
    for outer in frame.chain()[1:]:
        if outer.iter_kind is not IterKind.SMALL_CONSTANT:
            return outer.line
    found = model.calling_loop(frame.node)
    return found[0].line if found is not None else None


def _describe(model: FileModel, frame: LoopFrame) -> str:
    node = frame.node
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return f"loop 'for {model.segment(node.target, 20)} in {model.segment(node.iter, 40)}'"
    if isinstance(node, ast.While):
        return f"'while {model.segment(node.test, 30)}' loop"
    return "comprehension"
