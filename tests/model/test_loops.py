"""Loops: work per iteration and the role each loop plays for cuPyNumeric."""

from __future__ import annotations

import ast
import textwrap

import pytest

from cpn_lint.model import FileModel, Role, Work


def _model(source: str) -> FileModel:
    text = textwrap.dedent(source)
    return FileModel(ast.parse(text), text)


def _loop_at(model: FileModel, line: int):
    return next(frame for frame in model.loops if frame.line == line)


PROGRAM = """\
import numpy as np
n, steps = 4096, 500
u = np.zeros(n)
energy = np.zeros(steps)
noise = np.random.normal(0, 1, (steps, n))
w = np.ones(5)
v = np.zeros(n)
walk = np.zeros((n, steps))
y = np.zeros(steps)
theta = np.array([0.0, 1.0])
rows = np.ones((n, 64))
for i in range(steps):                       # 12: time stepping with history
    u[1:-1] = 0.5 * (u[2:] + u[:-2])
    u += 0.01 * noise[i]
    energy[i] = np.sum(u * u)
for k in range(5):                           # 16: a handful of taps
    v[1:-1] += w[k] * u[1:-1]
for s in range(100000):                      # 18: random sites, element work
    j = np.random.randint(n)
    v[j] = 0.5 * (v[j - 1] + v[(j + 1) % n])
for t in range(1, steps):                    # 21: a slab recurrence over many walkers
    walk[:, t] = walk[:, t - 1] + np.random.normal(0, 1, n)
for m in range(1, steps):                    # 23: an element recurrence
    y[m] = 0.9 * y[m - 1] + 1.0
for c in range(5000):                        # 25: a Markov chain on two parameters
    proposal = theta + np.random.normal(0.0, 0.1, 2)
    if np.random.rand() < 0.5:
        theta = proposal
for r in range(n):                           # 29: rows, nothing else
    rows[r, :] = rows[r, :] * w[r % 5]
for step in range(steps):                    # 31: a step loop around an element loop
    for q in range(1, n - 1):                # 32
        v[q] = 0.5 * (u[q - 1] + u[q + 1])
"""


@pytest.mark.parametrize(
    ("line", "work", "role"),
    [
        (12, Work.SLAB, Role.TIME_STEP),
        (16, Work.SLAB, Role.OTHER),
        (18, Work.ELEMENT, Role.ELEMENT_LOOP),
        (21, Work.SLAB, Role.TIME_STEP),
        (23, Work.ELEMENT, Role.RECURRENCE),
        (25, Work.ELEMENT, Role.RECURRENCE),
        (29, Work.ROW, Role.ELEMENT_LOOP),
        (31, Work.ELEMENT, Role.OTHER),
        (32, Work.ELEMENT, Role.ELEMENT_LOOP),
    ],
)
def test_work_and_role(line: int, work: Work, role: Role) -> None:
    model = _model(PROGRAM)
    frame = _loop_at(model, line)
    assert model.work(frame).work is work
    assert model.role(frame) is role


def test_recurrence_forms() -> None:
    model = _model(PROGRAM)
    assert [r.form for r in model.recurrences(_loop_at(model, 23))] == ["element"]
    assert [(r.form, r.via) for r in model.recurrences(_loop_at(model, 25))] == [("chain", "theta")]
    assert model.recurrences(_loop_at(model, 21)) == []


def test_what_varies_per_iteration() -> None:
    model = _model(PROGRAM)
    frame = _loop_at(model, 18)
    assert model.loop_indices(frame) == {"s"}
    assert {"s", "j"} <= model.loop_varying(frame)


def test_output_is_not_device_work() -> None:
    model = _model(
        """
        import numpy as np
        import matplotlib.pyplot as plt
        x = np.zeros((1000, 3))
        for i in range(1000):
            x[i, 0] = i * 0.5
            plt.plot(x[:, 0])
            print(x)
        """
    )
    frame = model.loops[0]
    assert model.work(frame).work is Work.ELEMENT
    assert model.role(frame) is Role.ELEMENT_LOOP


def test_helpers_called_every_iteration_know_their_loop() -> None:
    model = _model(
        """
        import numpy as np
        def inner(u):
            return np.zeros_like(u)
        def outer(u):
            return inner(u) + u
        u = np.ones(100)
        for step in range(10):
            u = outer(u)
        """
    )
    call = next(c for c in model.nodes(ast.Call) if model.call_api(c) == "zeros_like")
    found = model.calling_loop(call)
    assert found is not None and found[0].line == 8 and found[1].lineno == 9


def test_a_reduction_is_not_a_recurrence() -> None:
    model = _model(
        """
        import numpy as np
        x = np.linspace(0.1, 1.0, 500)
        acc = 1.0
        s = 0.0
        for i in range(500):
            acc *= np.cos(x[i])
            s = s + x[i] * x[i]
        """
    )
    frame = model.loops[0]
    assert model.recurrences(frame) == []
    assert model.role(frame) is Role.ELEMENT_LOOP


def test_hot_arrays_cite_their_constructors_and_never_reductions() -> None:
    model = _model(
        """
        import numpy as np
        u = np.zeros((64, 64))
        for step in range(100):
            total = np.sum(u)
            u = u * 0.5 + total
        """
    )
    sizes = {(a.made_by.lineno, a.size) for a in model.hot_arrays()}
    assert (3, 4096) in sizes
    assert all(size != 1 for _, size in sizes)


def test_parameters_leave_hot_sizes_unknown() -> None:
    model = _model(
        """
        import numpy as np
        def relax(u: np.ndarray, work: np.ndarray):
            for step in range(100):
                work[1:-1] = 0.5 * (u[2:] + u[:-2])
                u, work = work, u
            return u
        """
    )
    arrays = model.hot_arrays()
    assert arrays and all(a.size is None for a in arrays)


SITES = """\
import numpy as np
def metropolis(S, steps):
    n = S.shape[0]
    M = np.zeros(steps)
    for t in range(steps):
        x = np.random.randint(n)
        y = np.random.randint(n)
        if S[x, y] * (S[x - 1, y] + S[x, y - 1]) < 0:
            S[x, y] = -S[x, y]
        M[t] = S.sum()
    return M
def rescale(img, size):
    dst = np.zeros(size[::-1], img.dtype)
    ratio_y, ratio_x = np.divide(size[::-1], img.shape[:2])
    for y in range(img.shape[0]):
        for x in range(img.shape[1]):
            i, j = int(y * ratio_y), int(x * ratio_x)
            dst[i, j] = img[y, x]
    return dst
def kicked(u, steps):
    for t in range(steps):
        u = 0.5 * (np.roll(u, 1) + np.roll(u, -1))
        i = np.random.randint(u.shape[0])
        u[i] += 1.0
    return u
"""


def test_a_loop_moving_its_state_one_drawn_site_at_a_time_is_an_element_loop() -> None:
    """Single-site Metropolis: whatever it reads whole each step (M[t] =
    S.sum()), the lattice changes one element per pass, at a site the pass
    draws for itself."""
    model = _model(SITES)
    assert model.role(_loop_at(model, 5)) is Role.ELEMENT_LOOP


def test_indices_computed_from_an_outer_loops_index_are_not_sites_a_pass_picks() -> None:
    """dst[i, j] with i from the row index: the inner loop is no single-site
    update; it is the pixel loop it looks like (int() of the rescaled
    coordinates shows the ratios are numbers)."""
    from cpn_lint.model.dependence import DependenceAnalysis

    model = _model(SITES)
    inner = _loop_at(model, 16)
    assert model.derived(DependenceAnalysis, DependenceAnalysis)._picked_sites(inner) == frozenset()
    assert model.role(inner) is Role.ELEMENT_LOOP and model.role(_loop_at(model, 15)) is Role.ELEMENT_LOOP


def test_a_whole_array_update_beside_a_drawn_kick_is_time_stepping() -> None:
    model = _model(SITES)
    assert model.role(_loop_at(model, 21)) is Role.TIME_STEP
