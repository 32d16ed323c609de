"""Value facts issue 23 lists as misses, decided in the model for every rule:
matrices, flat iteration, NumPy names from pylab, device scalars packed into a
tuple for a helper, arrays kept on objects held in a list."""

from __future__ import annotations

import ast
import textwrap

from cpn_lint import lint_source
from cpn_lint.model import FileModel, Kind


def _model(source: str) -> FileModel:
    text = textwrap.dedent(source)
    return FileModel(ast.parse(text), text)


def _at(model: FileModel, text: str) -> list[tuple[Kind, object]]:
    """Kind and shape of every expression written ``text``."""
    nodes = model.nodes(ast.Name, ast.Attribute, ast.Subscript, ast.Call)
    return [(model.kind(n), model.shape(n)) for n in nodes if ast.unparse(n) == text and isinstance(n.ctx, ast.Load)]


def _codes(source: str, assessment: bool = False) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in lint_source(textwrap.dedent(source), assessment=assessment)]


def test_a_matrix_is_a_two_dimensional_array() -> None:
    model = _model(
        """
        import numpy as np
        M = np.matrix([[1.0, 2.0], [3.0, 4.0]])
        R = np.matrix([1.0, 2.0, 3.0])
        G = np.asmatrix(np.ones((5, 4)))
        S = np.matrix(load())
        e = M[0, 1]
        """
    )
    assert _at(model, "M") == [(Kind.DEVICE, (2, 2))]
    assert _at(model, "R") == [] and model.shape(model.module_scope.bindings["R"][0].value) == (1, 3)
    assert model.shape(model.module_scope.bindings["G"][0].value) == (5, 4)
    assert model.shape(model.module_scope.bindings["S"][0].value) == (None, None)
    assert _at(model, "M[0, 1]") == [(Kind.DEVICE_SCALAR, ())]


def test_flat_iterates_the_elements_of_any_array() -> None:
    model = _model(
        """
        import numpy as np
        def count(a, b):
            n = b.shape
            for v in a.flat:
                print(v)
            for w in b.flat:
                print(w)
        """
    )
    assert _at(model, "a.flat") == [(Kind.DEVICE, (None,))]  # a: .flat is array evidence
    assert _at(model, "v") == [(Kind.DEVICE_SCALAR, ())]
    assert _at(model, "w") == [(Kind.DEVICE_SCALAR, ())]


def test_pylab_star_import_brings_numpy_names() -> None:
    source = """
        from pylab import *
        N = 1000
        x = zeros(N)
        v = rand(N)
        for i in range(N):
            x[i] = x[i] + v[i] * 0.1
        m = max(x[0], 1.0)
        y = np.sin(x)
        plot(x, y)
        """
    model = _model(source)
    assert model.device_root == "numpy"
    calls = {ast.unparse(c.func): model.qualname(c.func) for c in model.nodes(ast.Call)}
    assert calls["zeros"] == "numpy.zeros" and calls["rand"] == "numpy.random.rand"
    assert calls["np.sin"] == "numpy.sin"
    assert calls["max"] is None  # pylab puts Python's max back
    assert calls["plot"] is None
    assert (6, "CPN101") in _codes(source)
    for module in ("matplotlib.pylab",):
        assert _model(f"from {module} import *\nx = zeros(3)\n").device_root == "numpy"


def test_device_scalars_packed_into_a_tuple_keep_their_kind_in_a_helper() -> None:
    source = """
        import numpy as np

        def energy(state):
            x, v = state
            return 0.5 * v * v + 0.5 * x * x

        a = np.random.rand(1000)
        x = np.sum(a)
        v = np.mean(a)
        state = (x, v)
        pair = x, np.ones(3)
        for k in range(100):
            e = energy(state)
            if e > 1.0:
                break
            s, w = pair
        """
    model = _model(source)
    assert {k for k, _ in _at(model, "v")} == {Kind.DEVICE_SCALAR}
    assert _at(model, "e")[-1] == (Kind.DEVICE_SCALAR, ())
    (w,) = model.module_scope.bindings["w"]
    assert model.values.binding_kind(w) is Kind.DEVICE and model.values.binding_shape(w) == (3,)
    assert (15, "CPN105") in _codes(source)


def test_a_tuple_iterated_is_not_unpacked() -> None:
    model = _model(
        """
        import numpy as np
        pairs = ((np.ones(3), 1.0), (np.zeros(3), 2.0))
        for a, b in pairs:
            print(a, b)
        names = [n for n, p in (("x", 1.0), ("y", 2.0))]
        scales = [p for n, p in pairs]
        """
    )
    (a,) = model.module_scope.bindings["a"]
    assert model.values.binding_kind(a) is not Kind.SCALAR  # items of each pair, not the second pair
    comprehension = next(s for s in model.scopes if s.kind.name == "COMPREHENSION" and "p" in s.bindings and "n" in s.bindings)
    (p,) = comprehension.bindings["p"]
    assert model.values.binding_kind(p) is Kind.SCALAR  # 1.0 and 2.0, not the tuple ("y", 2.0)


def test_arrays_kept_on_objects_in_a_list_keep_their_kind_in_a_helper() -> None:
    source = """
        import numpy as np

        class Particle:
            def __init__(self, pos, vel):
                self.pos = pos
                self.vel = vel

        def move(particles, dt):
            for p in particles:
                p.pos += p.vel * dt
                q = p.pos

        particles = [Particle(np.zeros(2), np.ones(2)) for _ in range(1000)]
        crowd = []
        for k in range(10):
            crowd.append(Particle(np.zeros(2), np.ones(2)))
        for step in range(100):
            move(particles, 0.01)
            move(crowd, 0.01)
        """
    model = _model(source)
    assert set(_at(model, "p.vel")) == {(Kind.DEVICE, (2,))}
    (q,) = next(s for s in model.scopes if s.name == "move").bindings["q"]
    assert (model.values.binding_kind(q), model.values.binding_shape(q)) == (Kind.DEVICE, (2,))
    (pos,) = [a for a in model.nodes(ast.Attribute) if ast.unparse(a) == "p.pos" and a.lineno == 12]
    assert model.values.small_by_construction(pos)


def test_an_object_built_somewhere_out_of_sight_gives_no_attribute_kinds() -> None:
    model = _model(
        """
        import numpy as np

        class Particle:
            def __init__(self, pos):
                self.pos = pos

        def move(particles):
            for p in particles:
                p.pos += p.pos * 0.5

        factory = Particle  # built elsewhere too: the constructor's arguments are not all seen
        move([Particle([0.0, 1.0])])
        """
    )
    assert {k for k, _ in _at(model, "p.pos")} == {Kind.UNKNOWN}


def test_a_device_scalar_compared_with_a_parameter_is_a_device_value() -> None:
    # the while-test regression (issue 23 §3): tol of unknown kind, or a float
    source = """
        import numpy as np
        def jacobi(u, work, tol, level: float):
            while np.max(np.abs(u - work)) > tol:
                work = 0.5 * (u + work)
            for v in u.flat:
                if v > level:
                    break
            return work
        """
    model = _model(source)
    tests = [n.test for n in model.nodes(ast.While, ast.If)]
    assert [model.kind(t) for t in tests] == [Kind.DEVICE_SCALAR, Kind.DEVICE_SCALAR]
    (level,) = [b for s in model.scopes for b in s.bindings.get("level", ())]
    assert model.values.binding_kind(level) is Kind.SCALAR
    assert [line for line, code in _codes(source) if code == "CPN105"] == [4, 7]


def test_a_parameter_only_its_own_recursive_calls_feed_is_judged_by_its_uses() -> None:
    # fft(x[0::2]) inside fft: a cycle with no call from outside; x.shape shows an array
    source = """
        import numpy as np
        def fft(x):
            n = x.shape[0]
            if n == 1:
                return x
            even = fft(x[0::2])
            odd = fft(x[1::2])
            return np.concatenate([even, odd])
        """
    model = _model(source)
    (x,) = [b for s in model.scopes for b in s.bindings.get("x", ())]
    assert model.values.binding_kind(x) is Kind.DEVICE
    assert [line for line, code in _codes(source) if code == "CPN106"] == [7, 8]


def test_the_ndarray_constructor_makes_an_array_of_its_shape() -> None:
    """``np.ndarray((n, n), int)`` is an uninitialised (n, n) array (the
    oracle runs it as one): its columns are picked like any 2-D array's."""
    source = """
        import numpy as np
        n = 20
        spin = np.ndarray((n, n), int)
        for i in range(n):
            spin[i][0] = -1
        energy = 0
        for i in range(n - 1):
            energy = energy + sum(spin[:, i] * spin[:, i + 1])
        """
    model = _model(source)
    assert model.shape(model.module_scope.bindings["spin"][0].value) == (20, 20)
    assert (8, "CPN101") in _codes(source)


def test_a_class_body_assignment_is_what_self_reads() -> None:
    """``cys = np.array([...])`` in a class body is an attribute every
    method reads as ``self.cys``: iterating it item by item is CPN103."""
    source = """
        import numpy as np

        class Lattice:
            cys = np.array([0, 1, 1, 0, -1, -1, -1, 0, 1])
            G = np.ones((50, 50, 9))

            def stream(self):
                for i, cy in enumerate(self.cys):
                    self.G[:, :, i] = np.roll(self.G[:, :, i], cy, axis=0)
        """
    model = _model(source)
    assert _at(model, "self.cys") == [(Kind.DEVICE, (9,))]
    assert (9, "CPN103") in _codes(source)


def test_storing_into_attributes_by_unpacking_rebinds_no_name() -> None:
    """``self.ux, self.uy = self.velocity()`` in a time loop stores into
    ``self``; it does not rebind ``self``, so ``np.zeros(self.F.shape)`` in
    a helper the loop calls keeps its shape and is CPN201."""
    source = """
        import numpy as np

        class Lattice:
            def __init__(self, F):
                self.F = F

            def velocity(self):
                return self.F[:, :, 0], self.F[:, :, 1]

            def equilibrium(self):
                feq = np.zeros(self.F.shape)
                feq[:, :, 0] = self.F[:, :, 0] * 2
                return feq

            def run(self, steps=1000):
                for _ in range(steps):
                    self.ux, self.uy = self.velocity()
                    self.F += 0.5 * (self.equilibrium() - self.F)
        """
    model = _model(source)
    run = next(s for s in model.scopes if s.name == "run")
    assert [b.kind.name for b in run.bindings["self"]] == ["PARAM"]
    assert (12, "CPN201") in _codes(source)


def test_a_draw_an_object_keeps_is_not_reusable() -> None:
    """Weights drawn per layer and handed to an object the loop keeps
    (``self.W.append(Tensor(data=np.random.uniform(...)))``) must be new
    arrays every iteration: no CPN201, as for a plain ``append``."""
    source = """
        import numpy as np

        class Tensor:
            def __init__(self, data, requires_grad=False):
                self.data = data

        class Layer:
            def build(self, n_layers, units):
                self.W, self.U, self.V = [], [], []
                for idx in range(n_layers):
                    self.W.append(np.random.uniform(-1, 1, (units, units)))
                    self.U.append(Tensor(data=np.random.uniform(-1, 1, (units, units)), requires_grad=True))
                    self.V.append(Tensor(np.random.uniform(-1, 1, (units, units))))

        def noise(n, steps):
            for _ in range(steps):
                total = np.sum(Tensor(np.random.uniform(-1, 1, n)).data)
            return total
        """
    assert [(line, code) for line, code in _codes(source) if code == "CPN201"] == [(18, "CPN201")]


def test_a_function_defined_again_is_the_one_that_reaches_the_call() -> None:
    """A notebook defines a solver in one cell and again, changed, in a
    later one; each call runs the definition that reaches it. The state its
    caller passes (two numbers) makes both loops small-state recurrences."""
    solver = """
        def solve(y0, n, h):
            ys = np.zeros((n, y0.shape[0]))
            ys[0, :] = y0
            for i in range(n - 1):
                y = ys[i, :]
                ys[i + 1, :] = y + h * np.array([y[1], -y[0]])
            return ys
        """
    source = "import numpy as np\n" + textwrap.dedent(solver) + "a = solve(np.array([1.0, 0.0]), 1000, 0.01)\n" \
        + textwrap.dedent(solver).replace("-y[0]", "-2 * y[0]") + "b = solve(np.array([0.0, 1.0]), 1000, 0.01)\n"
    assert [(line, code) for line, code in _codes(source) if code == "CPN410"] == [(6, "CPN410"), (15, "CPN410")]


def test_a_result_unpacked_and_kept_escapes_the_loop() -> None:
    """``x, Y = solve(...)`` then ``runs.append(Y)`` every iteration: each
    call's arrays are kept, so the allocations inside ``solve`` are not
    reusable buffers (no CPN201 through the call)."""
    source = """
        import numpy as np

        def solve(y0, n):
            xs = np.arange(0.0, 1.0, 1.0 / n)
            ys = np.zeros((n, 2))
            ys[:, 0] = y0[0] * xs
            return xs, ys

        runs = []
        for i in range(50):
            x, Y = solve(np.random.random(2), 1000)
            runs.append(Y)
        """
    assert [code for _, code in _codes(source) if code == "CPN201" and _ != 12] == []


def test_a_rebinding_at_the_top_of_the_body_kills_the_previous_pass() -> None:
    """``grad_ch = grad[:, :, i]`` opens every pass, so the ``grad_ch`` a
    later statement of the previous pass bound never reaches the uses after
    it: the ravel copy is written back explicitly (no CPN205). A rebinding in
    a branch kills nothing: the previous pass's value still reaches an ``elif``."""
    source = """
        import numpy as np

        def backward(out):
            grad = np.zeros_like(out)
            for i in range(out.shape[-1]):
                grad_ch = grad[:, :, i]
                flat = grad_ch.ravel()
                flat[grad_ch.argmax()] = 1
                grad_ch = flat.reshape(grad_ch.shape)
                grad[:, :, i] = grad_ch[:]
            return grad

        def spectral(x, tol):
            sigma = 1.0
            while True:
                if abs(sigma) > 1 / tol:
                    sigma = 1 / tol
                elif abs(sigma) < tol:
                    sigma = tol
                sigma = np.vdot(x, x)
        """
    model = _model(source)
    uses = [n for n in model.nodes(ast.Name) if n.id == "grad_ch" and n.lineno == 9]
    assert [b.pos[0] for b in model.reaching_bindings(uses[0])] == [7]
    elif_use = next(n for n in model.nodes(ast.Name) if n.id == "sigma" and n.lineno == 19)
    assert {18, 21} <= {b.pos[0] for b in model.reaching_bindings(elif_use)}  # the branch's, and the last pass's
    assert not any(code == "CPN205" for _, code in _codes(source))
