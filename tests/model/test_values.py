"""The value engine: kinds and shapes of expressions, as the runtime has them."""

from __future__ import annotations

import ast
import textwrap

import pytest

from cpn_lint.model import FileModel, Kind
from cpn_lint.model import shapes


def _model(source: str) -> FileModel:
    text = textwrap.dedent(source)
    return FileModel(ast.parse(text), text)


def _probe(body: str, prelude: str = "import numpy as np\n") -> tuple[Kind, object]:
    """Kind and shape of the value bound to ``probe`` on the last line."""
    model = _model(prelude + body + "\n")
    (binding,) = model.module_scope.bindings["probe"]
    return model.kind(binding.value), model.shape(binding.value)


@pytest.mark.parametrize(
    ("body", "kind", "shape"),
    [
        # 0-d device values: the runtime returns cupynumeric arrays for these
        ("probe = np.sqrt(2.0)", Kind.DEVICE_SCALAR, ()),
        ("probe = np.isnan(0.5)", Kind.DEVICE_SCALAR, ()),
        ("dx = 0.1\nprobe = np.sqrt(2) * dx", Kind.DEVICE_SCALAR, ()),
        ("a = np.arange(10.0)\nprobe = np.sum(a)", Kind.DEVICE_SCALAR, ()),
        ("a = np.arange(10.0)\nprobe = a.max()", Kind.DEVICE_SCALAR, ()),
        ("a = np.arange(10.0)\nprobe = a[3]", Kind.DEVICE_SCALAR, ()),
        ("b = np.ones((4, 5))\nprobe = b[1, 2]", Kind.DEVICE_SCALAR, ()),
        ("a = np.ones(5)\nprobe = a @ a", Kind.DEVICE_SCALAR, ()),
        ("a = np.ones(5)\nprobe = np.dot(a, a)", Kind.DEVICE_SCALAR, ()),
        ("probe = np.random.randint(10)", Kind.DEVICE_SCALAR, ()),
        ("probe = np.random.random()", Kind.DEVICE_SCALAR, ()),
        ("probe = np.random.normal(0.0, 1.0)", Kind.DEVICE_SCALAR, ()),
        ("rng = np.random.default_rng(0)\nprobe = rng.integers(5)", Kind.DEVICE_SCALAR, ()),
        # Python numbers
        ("probe = np.pi * 2", Kind.SCALAR, ()),
        ("probe = np.float64(2.0)", Kind.SCALAR, ()),
        ("a = np.ones(3)\nprobe = len(a)", Kind.SCALAR, ()),
        ("a = np.ones((3, 4))\nprobe = a.shape[0]", Kind.SCALAR, ()),
        ("a = np.ones(3)\nprobe = a[0].item()", Kind.SCALAR, ()),
        ("import math\nprobe = math.sqrt(2.0)", Kind.SCALAR, ()),
        ("it = 0\nit += 1\nprobe = it", Kind.SCALAR, ()),
        # arrays and their shapes
        ("b = np.ones((4, 5))\nprobe = b[1]", Kind.DEVICE, (5,)),
        ("b = np.ones((4, 5))\nprobe = b[:, 2]", Kind.DEVICE, (4,)),
        ("b = np.ones((4, 5))\nprobe = b[1:-1, :]", Kind.DEVICE, (2, 5)),
        ("b = np.ones((4, 5))\nprobe = b[..., None]", Kind.DEVICE, (4, 5, 1)),
        ("b = np.ones((4, 5))\nprobe = np.sum(b, axis=1)", Kind.DEVICE, (4,)),
        ("b = np.ones((4, 5))\nprobe = b.sum(axis=0, keepdims=True)", Kind.DEVICE, (1, 5)),
        ("b = np.ones((4, 5))\nprobe = b @ np.ones(5)", Kind.DEVICE, (4,)),
        ("b = np.ones((4, 5))\nprobe = b.T", Kind.DEVICE, (5, 4)),
        ("b = np.ones((4, 5))\nprobe = b.ravel()", Kind.DEVICE, (20,)),
        ("b = np.ones((4, 5))\nprobe = b[None, :, :] - b[:, None, :]", Kind.DEVICE, (4, 4, 5)),
        ("probe = np.random.normal(0.0, 1.0, (8, 2))", Kind.DEVICE, (8, 2)),
        ("probe = np.logspace(0, 1, 1000)", Kind.DEVICE, (1000,)),
        ("probe = np.random.binomial(10, 0.5, 1000)", Kind.DEVICE, (1000,)),
        ("probe = np.random.exponential(1.0, 1000)", Kind.DEVICE, (1000,)),
        ("lo = np.zeros(7)\nhi = np.ones(7)\nprobe = np.random.uniform(lo, hi)", Kind.DEVICE, (7,)),
        ("probe = np.array([0.25, 0.5, 0.25])", Kind.DEVICE, (3,)),
        ("def f(n):\n    return np.zeros((n, 3))\nprobe = f(10)", Kind.DEVICE, ("n", 3)),
        # symbolic extents: a name, never a guess
        ("def f(n):\n    probe = np.zeros(n)\n    return probe\nprobe = 0", Kind.SCALAR, ()),
        # host arrays beside cupynumeric
        ("probe = onp.ones(3)", Kind.HOST, None),
    ],
)
def test_kind_and_shape(body: str, kind: Kind, shape: object) -> None:
    prelude = "import cupynumeric as np\nimport numpy as onp\n" if "onp" in body else "import numpy as np\n"
    found_kind, found_shape = _probe(body, prelude)
    assert found_kind is kind
    if shape is not None:
        assert found_shape == shape


def test_a_number_accumulating_a_device_scalar_becomes_one() -> None:
    model = _model(
        """
        import numpy as np
        dx = 0.01
        dt = np.sqrt(2) * dx
        t = 0.0
        while t < 1.0:
            t += dt
        """
    )
    uses = [n for n in model.nodes(ast.Name) if n.id == "t" and isinstance(n.ctx, ast.Load)]
    assert {model.kind(n) for n in uses} == {Kind.DEVICE_SCALAR}


def test_float_once_outside_the_loop_keeps_a_python_number() -> None:
    model = _model(
        """
        import numpy as np
        dt = float(np.sqrt(2) * 0.01)
        t = 0.0
        while t < 1.0:
            t += dt
        """
    )
    uses = [n for n in model.nodes(ast.Name) if n.id == "t" and isinstance(n.ctx, ast.Load)]
    assert {model.kind(n) for n in uses} == {Kind.SCALAR}


def test_parameters_take_the_kind_and_shape_the_call_sites_pass() -> None:
    model = _model(
        """
        import numpy as np
        def solve(t, e, n):
            return t * e
        x = np.linspace(0, 1, 100)
        solve(x, np.ones(100), 5)
        solve(np.zeros(100), x, 6)
        """
    )
    scope = next(s for s in model.scopes if s.name == "solve")
    t, e, n = (scope.bindings[name][0] for name in ("t", "e", "n"))
    assert model.values.binding_kind(t) is Kind.DEVICE and model.values.binding_shape(t) == (100,)
    assert model.values.binding_kind(e) is Kind.DEVICE
    assert model.values.binding_kind(n) is Kind.SCALAR


def test_a_parameter_passed_a_list_somewhere_is_not_an_array() -> None:
    model = _model(
        """
        import numpy as np
        def f(a):
            return a.shape
        f(np.ones(3))
        f([1, 2, 3])
        """
    )
    scope = next(s for s in model.scopes if s.name == "f")
    assert model.values.binding_kind(scope.bindings["a"][0]) is Kind.NOT


def test_a_function_used_as_a_callback_keeps_unknown_parameters() -> None:
    model = _model(
        """
        import numpy as np
        from scipy.integrate import solve_ivp
        def rhs(t, y):
            return -y
        rhs(0.0, 1.0)
        solve_ivp(rhs, (0, 1), np.ones(3))
        """
    )
    scope = next(s for s in model.scopes if s.name == "rhs")
    assert model.values.binding_kind(scope.bindings["y"][0]) is Kind.UNKNOWN


def test_tuple_returns_give_each_target_its_own_item() -> None:
    model = _model(
        """
        import numpy as np
        def step(x, P):
            return x + 1.0, P @ P
        x = np.zeros(4)
        P = np.eye(4)
        for k in range(100):
            x, P = step(x, P)
        probe_x, probe_p = x, P
        """
    )
    probe_x = model.module_scope.bindings["probe_x"][0]
    probe_p = model.module_scope.bindings["probe_p"][0]
    assert model.values.binding_shape(probe_x) == (4,)
    assert model.values.binding_shape(probe_p) == (4, 4)


def test_answers_do_not_depend_on_the_order_of_questions() -> None:
    source = """
        import numpy as np
        def rv(e, t):
            E = 0 * t
            for i in range(len(t)):
                Ei = np.pi
                dE = 1.0
                while np.abs(dE) > 1e-8:
                    dE = -(Ei - e * np.sin(Ei) - t[i]) / (1.0 - e * np.cos(Ei))
                    Ei = Ei - dE
                E[i] = Ei
            return E
        theta = np.zeros(7)
        rv(theta[4], np.linspace(0, 1, 30))
        rv(0.3, np.linspace(0, 1, 30))
        """
    forward = _model(source)
    names = [n for n in forward.nodes(ast.Name) if isinstance(n.ctx, ast.Load)]
    first = [(n.lineno, n.col_offset, forward.kind(n), forward.shape(n)) for n in names]
    backward = _model(source)
    names = [n for n in backward.nodes(ast.Name) if isinstance(n.ctx, ast.Load)]
    second = [(n.lineno, n.col_offset, backward.kind(n), backward.shape(n)) for n in reversed(names)]
    assert sorted(first, key=str) == sorted(second, key=str)
    assert {k for (_, _, k, _) in first if k is not Kind.NOT} >= {Kind.DEVICE_SCALAR}


@pytest.mark.parametrize(
    ("body", "small"),
    [
        ("probe = np.zeros(3)", True),
        ("probe = np.array([0.25, 0.5, 0.25])", True),
        ("probe = np.eye(4) @ np.zeros(4)", True),
        ("rng = np.random.default_rng(0)\nprobe = rng.normal(0.0, 1.0, 2)", True),
        ("nx = 41\nprobe = np.zeros(nx)", False),  # a problem size, not a few numbers
        ("nbody = 3\nprobe = np.zeros((nbody, 2))", True),  # a few bodies, named
        ("probe = np.zeros(100000)", False),
        ("probe = np.append(np.zeros(2), 1.0)", False),  # joins may grow
        ("x = np.zeros(3)\nfor k in range(9):\n    x = x * 0.5\nprobe = x", True),
        ("x = np.ones(1000)\nfor k in range(9):\n    x = x % 2.0\nprobe = x", False),
    ],
)
def test_small_by_construction(body: str, small: bool) -> None:
    model = _model("import numpy as np\n" + body + "\n")
    (binding,) = model.module_scope.bindings["probe"]
    assert model.values.small_by_construction(binding.value) is small


def test_shape_helpers() -> None:
    assert shapes.broadcast((8, 1, 3), (4, 3)) == (8, 4, 3)
    assert shapes.broadcast(("n", 3), (1, 3)) == ("n", 3)
    assert shapes.broadcast((2, 3), (3, 2)) is None
    assert shapes.broadcast((None, 3), (5, 3)) == (None, 3)
    assert shapes.matmul((4, 5), (5,)) == (4,)
    assert shapes.matmul((3,), (3,)) == ()
    assert shapes.reduce((4, 5), 1) == (4,)
    assert shapes.reduce((4, 5), None) == ()
    assert shapes.literal_size((64, 64)) == 4096 and shapes.literal_size(("n", 3)) is None
    assert shapes.text((1000, 1000)) == "1,000 × 1,000"


# ------------------------------------------------------------ cycles and draws
def test_numbers_bound_in_a_cycle_stay_numbers() -> None:
    # side -> sideo2 -> side: the cycle alone says nothing, N - 1 decides it
    kind, _ = _probe("N = 1025\nside = N - 1\nwhile side > 1:\n    sideo2 = side // 2\n    side = sideo2\nprobe = side")
    assert kind is Kind.SCALAR


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        ("for (dx, dy) in ((-1, 0), (1, 0)):\n    probe = dx", Kind.SCALAR),
        ("for d in [0.5, 1.5]:\n    probe = d", Kind.SCALAR),
        ("u = np.zeros(9)\nv = np.ones(9)\nfor f in (u, v):\n    probe = f", Kind.DEVICE),
        ("for name in ('a', 'b'):\n    probe = name", Kind.NOT),
        ("pairs = ((1, 2),)\nfor (a, b) in pairs:\n    probe = a", Kind.UNKNOWN),  # not a display at the loop
    ],
)
def test_items_of_a_literal_display_a_loop_walks(body: str, kind: Kind) -> None:
    assert _probe(body)[0] is kind


def test_a_function_returning_into_its_own_callers_cycle_is_decided_whichever_question_comes_first() -> None:
    source = """
        import numpy as np
        def model(v, t):
            out = 0 * t + v
            out -= np.cos(t)
            return out
        def evaluate(theta, t):
            return model(theta[0], t)
        def main():
            t = np.linspace(0.0, 1.0, 30)
            data = model(0.5, t)
            for i in range(len(t)):
                data[i] += 1.0
            fit = evaluate(np.zeros(3), t)
            return data, fit
        """
    asked_first = _model(source)
    target = next(s for s in asked_first.nodes(ast.AugAssign) if isinstance(s.target, ast.Subscript)).target.value
    first = asked_first.kind(target)
    asked_last = _model(source)
    for name in asked_last.nodes(ast.Name):
        asked_last.kind(name)
    target = next(s for s in asked_last.nodes(ast.AugAssign) if isinstance(s.target, ast.Subscript)).target.value
    assert first is asked_last.kind(target) is Kind.DEVICE


@pytest.mark.parametrize(
    ("body", "draw"),
    [
        ("probe = np.random.random()", True),
        ("probe = np.random.normal(0.0, 2.0)", True),
        ("rng = np.random.default_rng(0)\nprobe = rng.uniform()", True),
        ("probe = 2.0 * np.random.random() + 1.0", True),
        ("r = np.random.normal()\nprobe = -r", True),
        ("def f(sigma):\n    return np.random.normal(0.0, sigma)\nprobe = f", False),  # a function, not a draw
        ("probe = np.random.rand()", False),  # rand, randn, randint, integers: 0-d on the runtime
        ("probe = np.random.randint(5)", False),
        ("probe = np.random.normal(0.0, 1.0, 5)", False),
        ("probe = np.random.normal(0.0, 1.0, size=None)", True),
        ("probe = np.random.normal(np.zeros(3), 1.0)", False),  # an array of draws
        ("probe = np.random.random() * np.ones(3)", False),
        ("r = np.random.random()\nif r > 0.5:\n    r = 0.0\nprobe = r", False),  # sometimes a Python float
        ("import numpy as onp\nimport cupynumeric as cnp\nprobe = onp.random.random()", False),  # the host alias
    ],
)
def test_draws_without_size_are_one_element_arrays(body: str, draw: bool) -> None:
    model = _model("import numpy as np\n" + body + "\n")
    (binding,) = model.module_scope.bindings["probe"]
    assert (model.unit_draw(binding.value) is not None) is draw


def test_attributes_a_tuple_target_binds_take_the_items_kinds() -> None:
    model = _model(
        "import numpy as np\n"
        "class PCA:\n"
        "    def fit(self, X):\n"
        "        self.values, self.vectors = np.linalg.eigh(np.cov(X.T))\n"
        "        return sum(self.values)\n"
    )
    read = next(n for n in model.nodes(ast.Attribute) if n.attr == "values" and isinstance(n.ctx, ast.Load))
    assert model.kind(read) is Kind.DEVICE
