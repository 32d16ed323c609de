"""The cost model (cpn_lint.model.cost): what each kind of loop costs, how
trip counts are read, and which kind of time each site is filed under.
Figures are compared as ratios and shares, never against a clock."""

from __future__ import annotations

import ast
import textwrap

import pytest

from cpn_lint.model import FileModel
from cpn_lint.model.kinds import Kind
from cpn_lint.model.cost import file_sites
from cpn_lint.model.cost_terms import PROFILES, Scale, Share, Site, profile_for

A100 = PROFILES["A100"]


def sites(source: str) -> list[Site]:
    source = textwrap.dedent(source)
    return file_sites(FileModel(ast.parse(source), source, "prog.py"))


def seconds(found: list[Site], scale: Scale = Scale()) -> float:
    return sum(s.seconds(scale, A100) for s in found)


def share_of(found: list[Site], share: Share, scale: Scale = Scale()) -> float:
    total = seconds(found, scale)
    return sum(s.seconds(scale, A100) for s in found if s.share == share.value) / total


ELEMENT_LOOP = """
    import numpy as np
    def scale(a: np.ndarray, out: np.ndarray) -> np.ndarray:
        for i in range(len(a)):
            out[i] = a[i] * 2.0 + 1.0
        return out
"""

IIR = """
    import numpy as np
    def lowpass(x, alpha):
        y = np.zeros_like(x)
        for n in range(1, len(x)):
            y[n] = alpha * y[n - 1] + (1 - alpha) * x[n]
        return y
    u = np.random.rand(1000)
    for t in range(500):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
    v = lowpass(u, 0.9)
"""


def test_an_element_loop_over_the_data_grows_with_the_data() -> None:
    found = sites(ELEMENT_LOOP)
    small, large = seconds(found, Scale(elements=1e6)), seconds(found, Scale(elements=1e7))
    assert large / small == pytest.approx(10, rel=0.01)
    assert share_of(found, Share.ELEMENT_LOOP) > 0.99


def test_a_recurrence_over_the_data_dwarfs_a_stencil_time_loop() -> None:
    found = sites(IIR)
    assert share_of(found, Share.SEQUENTIAL) > 0.99
    stencil = [s for s in found if s.share == Share.WHOLE_ARRAY.value]
    assert stencil and all(s.loop_line == 9 for s in stencil if s.line == 10)


def test_a_whole_array_statement_costs_bandwidth_and_more_gpus_divide_it() -> None:
    found = sites("import numpy as np\nu = np.ones(1000)\nv = u * 2.0 + u\n")
    one, four = seconds(found, Scale(gpus=1)), seconds(found, Scale(gpus=4))
    assert four < one
    assert share_of(found, Share.WHOLE_ARRAY) > 0.99


def test_a_loop_over_a_few_components_runs_as_written() -> None:
    found = sites("""
        import numpy as np
        x = np.random.rand(1000)
        means = np.zeros(4)
        for k in range(4):
            w = np.exp(-(x - k) ** 2)
            means[k] = np.sum(w * x) / np.sum(w)
    """)
    body = [s for s in found if s.line == 6]
    assert body and all(s.share == Share.WHOLE_ARRAY.value for s in body)
    # four passes of whole-array work: doubling the data doubles the bandwidth part only
    assert seconds(body, Scale(elements=1e9)) < 4 * 10 * seconds(body, Scale(elements=1e8))


def test_an_unstated_count_is_one_shared_symbol() -> None:
    found = sites("""
        import numpy as np
        def run(u, steps):
            for t in range(steps):
                u[1:-1] = 0.5 * (u[2:] + u[:-2])
            return u
    """)
    assert seconds(found, Scale(steps=2000)) / seconds(found, Scale(steps=1000)) == pytest.approx(2, rel=0.01)


def test_a_count_the_data_holds_is_not_an_extent_of_it() -> None:
    # a table sized by a model parameter (a few ordinates), filled element by
    # element: its loop runs as often as the parameter says, whatever the data's size
    found = sites("""
        import numpy as np
        def ordinates(params):
            params = np.asarray(params, dtype=float)
            n = int(np.ceil(params[3])) + 2
            table = np.zeros(2 * n)
            m = 2 * n
            for i in range(1, m):
                table[i] = (i / params[3]) ** 2.5
            return table
    """)
    loop = [s for s in found if s.share == Share.ELEMENT_LOOP.value]
    assert loop and seconds(loop, Scale(elements=1e9)) == pytest.approx(seconds(loop, Scale(elements=1e6)), rel=1e-6)
    assert seconds(loop, Scale(steps=2000)) / seconds(loop, Scale(steps=1000)) == pytest.approx(2, rel=0.01)


def test_small_literal_arrays_stay_small() -> None:
    found = sites("import numpy as np\nstate = np.zeros(4)\nfor t in range(100):\n    state = state * 0.5 + 1.0\n")
    assert seconds(found, Scale(elements=1e9)) == pytest.approx(seconds(found, Scale(elements=1e6)), rel=1e-6)


def test_a_worklist_traversal_visits_the_data_once_and_is_sequential() -> None:
    found = sites("""
        import numpy as np
        from collections import deque
        def fill(grid, start):
            seen = np.zeros_like(grid)
            queue = deque([start])
            while queue:
                i, j = queue.popleft()
                if grid[i, j] and not seen[i, j]:
                    seen[i, j] = 1
                    queue.append((i + 1, j))
            return seen
    """)
    assert share_of(found, Share.SEQUENTIAL) > 0.99
    assert seconds(found, Scale(elements=2e7)) / seconds(found, Scale(elements=1e7)) == pytest.approx(2, rel=0.05)


def test_a_recursive_flood_fill_visits_each_cell_once_not_once_per_caller() -> None:
    found = sites("""
        import numpy as np
        N = 100
        grid = np.zeros((N, N))
        label = np.zeros((N, N))
        def fill(x, y, k):
            if x < 0 or x >= N or y < 0 or y >= N or not grid[y][x] or label[y][x]:
                return
            label[y][x] = k
            fill(x + 1, y, k)
            fill(x - 1, y, k)
        for y in range(N):
            for x in range(N):
                fill(x, y, 1)
    """)
    assert share_of(found, Share.SEQUENTIAL) > 0.99
    ratio = seconds(found, Scale(elements=2e7)) / seconds(found, Scale(elements=1e7))
    assert ratio == pytest.approx(2, rel=0.05)  # linear in the data, not quadratic


def test_calls_into_an_out_of_scope_library_are_host_work() -> None:
    found = sites("""
        import numpy as np
        import networkx as nx
        from sklearn.model_selection import train_test_split
        g = nx.karate_club_graph()
        for source in g.nodes:
            lengths = nx.single_source_shortest_path_length(g, source)
        a, b = train_test_split(np.arange(10))
    """)
    library = [s for s in found if s.share == Share.LIBRARY.value]
    assert {s.line for s in library} == {5, 7}  # the data utility is not out of scope


def test_a_function_runs_as_often_as_its_callers_loops() -> None:
    once = sites("import numpy as np\ndef step(u):\n    return u * 2.0\nu = np.ones(1000)\nu = step(u)\n")
    many = sites("import numpy as np\ndef step(u):\n    return u * 2.0\nu = np.ones(1000)\n"
                 "for t in range(50):\n    u = step(u)\n")
    body = lambda found: seconds([s for s in found if s.line == 3])  # noqa: E731
    assert body(many) / body(once) == pytest.approx(50, rel=0.01)
    assert [s.callers for s in many if s.line == 3] == [(6,)]


@pytest.mark.parametrize("model, expected", [
    ("NVIDIA H100 80GB HBM3", "H100"), ("a100-sxm4-40gb", "A100"), ("Tesla V100", "V100"), (None, "A100"),
    ("L40S", "L40S"), ("some future card", "A100"),
])
def test_the_named_gpu_picks_its_profile(model: str | None, expected: str) -> None:
    assert profile_for(model).name == expected


def test_at_production_size_loops_over_the_data_dwarf_whole_array_programs() -> None:
    """The oracle tier's ranking programs, projected on the default GPU at the
    default size: every element loop, recurrence, nest and DP table is at
    least a hundred times slower than every whole-array program."""
    from benchmarks.cost_ranking import FOLDER

    def at_default(name: str) -> float:
        source = (FOLDER / name).read_text(encoding="utf-8")
        return seconds(file_sites(FileModel(ast.parse(source), source, name)), Scale(elements=4e7))

    loops = ["e_element_loop.py", "f_recurrence.py", "g_nested_loop.py", "l_dp_table.py"]
    whole = ["a_elementwise.py", "b_reduction.py", "d_stencil.py", "i_components.py", "j_alloc_loop.py"]
    assert min(at_default(n) for n in loops) >= 100 * max(at_default(n) for n in whole)


def test_a_running_sum_is_element_loop_time_not_sequential() -> None:
    """c[i] = c[i - 1] + x[i] is one np.cumsum call away (CPN410's scan form)."""
    found = sites("""
        import numpy as np
        def running(x):
            c = np.zeros_like(x)
            for i in range(1, len(x)):
                c[i] = c[i - 1] + x[i]
            return c
    """)
    assert share_of(found, Share.ELEMENT_LOOP) > 0.99 and share_of(found, Share.SEQUENTIAL) == 0


def test_a_recurrence_per_pixel_vectorises_across_the_pixels() -> None:
    """An escape-time iteration inside a pixel loop: the pixel loop is the
    element loop to vectorise; each step then advances every pixel at once."""
    found = sites("""
        import numpy as np
        def mandelbrot(size, iterations):
            m = np.zeros((size, size))
            for i in range(size):
                for j in range(size):
                    c = -2 + 3.0 / size * j + 1j * (1.5 - 3.0 / size * i)
                    z = 0
                    for n in range(iterations):
                        if np.abs(z) <= 10:
                            z = z * z + c
                            m[i, j] = n
                        else:
                            break
            return m
    """)
    assert share_of(found, Share.ELEMENT_LOOP) > 0.99 and share_of(found, Share.SEQUENTIAL) == 0
    iir = sites(IIR)
    assert share_of(iir, Share.SEQUENTIAL) > 0.5  # a recurrence with no element loop around it stays sequential


ODE_PROGRAM = """
    import numpy as np
    from scipy.integrate import odeint
    def deriv(state, t):
        s, i, r = state
        return [-0.3 * s * i, 0.3 * s * i - 0.1 * i, 0.1 * i]
    t = np.linspace(0.0, 160.0, 160)
    grid = np.linspace(0.0, 1.0, 1000)
    profile = np.exp(-grid ** 2)
    path = odeint(deriv, STATE, t)
"""


def test_a_few_numbers_integrated_by_scipy_are_sequential_time() -> None:
    """odeint stepping three numbers: every step is a host round trip after
    the one before, whatever array work sits beside it."""
    few = sites(ODE_PROGRAM.replace("STATE", "[0.99, 0.01, 0.0]"))
    assert share_of(few, Share.SEQUENTIAL) > 0.5
    # a state as large as the data (a discretised field) is not judged a chain
    field = sites(ODE_PROGRAM.replace("STATE", "profile"))
    assert share_of(field, Share.SEQUENTIAL) == 0


def test_a_callback_handed_to_a_root_finder_takes_numbers() -> None:
    """brentq calls f with floats: f's parameter is a number, so its np.log
    is one scalar operation, not whole-array work over the data."""
    source = textwrap.dedent("""
        import numpy as np
        from scipy.optimize import brentq
        def f(s, r0):
            return s - np.log(s) / r0
        root = brentq(lambda s: f(s, 2.0) - f(0.8, 2.0), 0.001, 0.5)
        direct = brentq(f, 0.001, 0.5, args=(2.0,))
    """)
    model = FileModel(ast.parse(source), source, "prog.py")
    names = [n for n in ast.walk(model.tree) if isinstance(n, ast.Name) and n.id == "s"]
    assert names and all(model.kind(n) is Kind.SCALAR for n in names)


def test_training_passes_over_the_data_once_per_iteration() -> None:
    """model.fit runs the training's epochs or iterations (a count the code
    does not state); a prediction is one pass over the data."""
    found = sites("""
        import numpy as np
        from sklearn.neural_network import MLPRegressor
        X = np.random.rand(10000, 50)
        y = X.sum(axis=1)
        model = MLPRegressor(hidden_layer_sizes=(10, 10))
        model.fit(X, y)
        guess = model.predict(X)
    """)
    by_line = {s.line: s.seconds(Scale(), A100) for s in found if s.share == Share.LIBRARY.value}
    assert {7, 8} <= set(by_line)
    assert by_line[7] > 100 * by_line[8]
