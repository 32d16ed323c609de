"""Value facts behind the issue-23 recall work on the labelled corpus (values-recall).

Each test names the corpus program whose class it holds; each failed before its change.
"""

from __future__ import annotations

import ast
import textwrap

from cpn_lint import lint_source
from cpn_lint.model import FileModel, Kind


def _model(source: str) -> FileModel:
    text = textwrap.dedent(source)
    return FileModel(ast.parse(text), text)


def _kind_of(model: FileModel, text: str, nth: int = 0) -> Kind:
    """The kind of the ``nth`` expression written exactly as ``text``."""
    found = [n for n in ast.walk(model.tree) if isinstance(n, ast.expr) and ast.unparse(n) == text]
    return model.kind(found[nth])


def _codes(source: str, code: str) -> list[int]:
    return [f.line for f in lint_source(textwrap.dedent(source)) if f.code == code]


# --------------------------------------------------------- optional values
def test_array_or_none_is_the_array_where_used() -> None:
    """s_mpi_heat: ``full = np.empty(n) if rank == 0 else None`` then ``full[::1000]``."""
    model = _model(
        """
        import numpy as np
        def gather(rank, n):
            full = np.empty(n) if rank == 0 else None
            return full[::10]
        """
    )
    assert _kind_of(model, "full") is Kind.DEVICE
    assert model.shape(next(n for n in ast.walk(model.tree) if isinstance(n, ast.IfExp))) == ("n",)


# ------------------------------------------------------- class attributes
def test_class_attribute_named_like_array_metadata() -> None:
    """l_sparse_matrix: ``self.data = np.asarray(data)`` is the class's array, not ndarray.data."""
    model = _model(
        """
        import numpy as np
        class CSR:
            def __init__(self, data):
                self.data = np.asarray(data, dtype=float)
            def density(self):
                return sum(self.data != 0)
        """
    )
    assert _kind_of(model, "self.data", 1) is Kind.DEVICE
    assert _codes(model.source, "CPN110") == [7]


# ------------------------------------------------------- optional imports
def test_import_with_none_fallback_still_names_the_module() -> None:
    """l_cupy_backend: ``try: import cupy as cp / except ImportError: cp = None``."""
    model = _model(
        """
        import numpy as np
        try:
            import cupy as cp
        except ImportError:
            cp = None
        g = cp.asarray(np.ones(3))
        """
    )
    call = next(n for n in ast.walk(model.tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "cp.asarray")
    assert model.qualname(call.func) == "cupy.asarray"
    assert model.kind(call) is Kind.CUPY


def test_rebinding_outside_an_import_guard_still_shadows() -> None:
    model = _model(
        """
        import numpy as np
        np = None
        x = np.zeros(3)
        """
    )
    call = next(n for n in ast.walk(model.tree) if isinstance(n, ast.Call))
    assert model.qualname(call.func) is None


# --------------------------------------------------------------- containers
def test_items_of_a_list_the_loop_appends_arrays_to() -> None:
    """s_burgers_cupy: ``frames.append(u.copy())`` ... ``for frame in frames``."""
    model = _model(
        """
        import numpy as np
        u = np.zeros(8)
        frames = []
        for step in range(10):
            frames.append(u.copy())
        for frame in frames:
            print(frame)
        last = frames[-1]
        rest = frames[1:]
        """
    )
    assert _kind_of(model, "frame") is Kind.DEVICE
    assert _kind_of(model, "frames[-1]") is Kind.DEVICE
    assert _kind_of(model, "frames[1:]") is not Kind.DEVICE  # a slice is a list


def test_values_of_a_dict_of_arrays_and_its_keys() -> None:
    """l_tensor_ops: ``self.entries[name] = np.asarray(arr)``; a loop over the dict gets its keys."""
    model = _model(
        """
        import numpy as np
        class Packer:
            def __init__(self):
                self.entries = {}
            def add(self, name, arr):
                self.entries[name] = np.asarray(arr)
            def pack(self):
                for name in self.entries:
                    a = self.entries[name]
        """
    )
    assert _kind_of(model, "self.entries[name]") is Kind.DEVICE
    assert _kind_of(model, "name", 2) is not Kind.DEVICE


def test_a_list_with_an_unknown_item_has_no_item_kind() -> None:
    model = _model(
        """
        import numpy as np
        def run(load, files):
            frames = [np.zeros(3)]
            for f in files:
                frames.append(load(f))
            for frame in frames:
                print(frame)
        """
    )
    assert _kind_of(model, "frame") is Kind.UNKNOWN


# ------------------------------------------------------------ iterators
def test_items_of_nditer_and_ndenumerate_are_device_scalars() -> None:
    """k_array_iterators: NumPy's iterators hand out 0-d arrays, not numbers."""
    model = _model(
        """
        import numpy as np
        def walk(a: np.ndarray):
            for x in np.nditer(a):
                print(x)
            for idx, v in np.ndenumerate(a):
                print(v)
            with np.nditer(a, op_flags=["readwrite"]) as it:
                for y in it:
                    print(y)
            for chunk in np.nditer(a, flags=["external_loop"]):
                print(chunk)
        """
    )
    assert _kind_of(model, "x") is Kind.DEVICE_SCALAR
    assert _kind_of(model, "v") is Kind.DEVICE_SCALAR
    assert _kind_of(model, "y") is Kind.DEVICE_SCALAR
    assert _kind_of(model, "chunk") is not Kind.DEVICE_SCALAR
    assert _kind_of(model, "idx") is not Kind.DEVICE_SCALAR


# ------------------------------------------------------ helpers and callbacks
def test_vectorized_helper_keeps_the_device_scalar_its_loop_passes() -> None:
    """s_sph_toy_star: kernel(r, H) in a pair loop, and np.vectorize(kernel) for a plot."""
    source = """
        import numpy as np
        H = 0.1
        def kernel(r, h):
            q = r / h
            if q < 1.0:
                return 1.0 - q
            return 0.0
        def density(pos):
            rho = np.zeros(pos.shape[0])
            for i in range(pos.shape[0]):
                for j in range(pos.shape[0]):
                    r = np.sqrt((pos[i, 0] - pos[j, 0]) ** 2)
                    rho[i] += kernel(r, H)
            return rho
        rho = density(np.random.rand(50, 2))
        w = np.vectorize(kernel)(np.linspace(0, 1, 10), H)
        """
    model = _model(source)
    assert _kind_of(model, "q") is Kind.DEVICE_SCALAR
    # the branch is the pair loop's per-element work: folded into its CPN101
    pair_loop = [f for f in lint_source(textwrap.dedent(source)) if f.code == "CPN101"]
    assert [f.line for f in pair_loop] == [11] and pair_loop[0].data["folded"] == {"CPN105": 1}
    assert 6 not in _codes(source, "CPN105")


def test_a_callback_passed_elsewhere_keeps_numbers_unknown() -> None:
    model = _model(
        """
        import numpy as np
        from scipy.integrate import quad
        def f(x, h):
            return x / h
        v = f(1.0, 2.0)
        area = quad(f, 0.0, 1.0, args=(2.0,))
        """
    )
    assert _kind_of(model, "h") is Kind.UNKNOWN  # args= may hold anything
    assert _kind_of(model, "x") is Kind.SCALAR  # quad hands the first parameter a float


# ---------------------------------------------------------------- generators
def test_generator_class_follows_parameters_and_attributes() -> None:
    """k_kmeans_update, l_linear_models, l_neural_layers: Generator methods on a passed or stored rng."""
    model = _model(
        """
        import numpy as np
        def seed_centres(X, rng):
            return rng.choice(X.shape[0])
        class Layer:
            def __init__(self, n, rng):
                self.W = rng.standard_normal((n, n))
        class Model:
            def __init__(self, seed):
                self.rng = np.random.RandomState(seed)
            def order(self, n):
                return self.rng.permutation(n)
        def build(X):
            rng = np.random.default_rng(0)
            return seed_centres(X, rng), Layer(4, rng)
        """
    )
    receivers = {ast.unparse(n.func.value): n.func.value for n in ast.walk(model.tree)
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("choice", "standard_normal", "permutation")}
    assert model.values.generator_class(receivers["rng"]) == "numpy.random.Generator"
    assert model.values.generator_class(receivers["self.rng"]) == "numpy.random.RandomState"


def test_generator_of_unseen_origin_has_no_class() -> None:
    model = _model(
        """
        import numpy as np
        def draw(gen):
            return gen.choice(10)
        """
    )
    call = next(n for n in ast.walk(model.tree) if isinstance(n, ast.Call))
    assert model.values.generator_class(call.func.value) is None


# -------------------------------------------------------------- stride tricks
def test_sliding_window_view_is_an_array_with_a_window_axis() -> None:
    """k_moving_windows: ``sliding_window_view(a, k).std(axis=1)``."""
    model = _model(
        """
        import numpy as np
        from numpy.lib.stride_tricks import sliding_window_view
        a = np.arange(10.0)
        w = sliding_window_view(a, 3)
        """
    )
    assert _kind_of(model, "w") is Kind.DEVICE
    assert model.shape(next(n for n in ast.walk(model.tree) if isinstance(n, ast.Name) and n.id == "w")) == (None, None)


# ------------------------------------------------------- methods on instances
_PARTICLES = """
    import numpy as np
    class System:
        def __init__(self, pos):
            self.pos = pos
        @classmethod
        def lattice(cls, n):
            return cls(np.zeros((n, 3)))
        @staticmethod
        def clamp(x):
            return np.clip(x, -1.0, 1.0)
        def forces(self):
            F = np.zeros_like(self.pos)
            return F
        def energy(self):
            return float(np.sum(self.pos ** 2))
        def run(self, n_steps):
            log = []
            for s in range(n_steps):
                if s % 50 == 0:
                    log.append(self.energy())
            return log
    def simulate(n, n_steps):
        system = System.lattice(n)
        trace = []
        for s in range(n_steps):
            F = system.forces()
            system.pos += System.clamp(F)
            trace.append(system.energy())
        return trace
    """


def test_calls_on_instances_and_class_methods_are_resolved() -> None:
    """l_particle_dataclass: ``system = System.lattice(n)`` then ``system.forces()`` in the time loop."""
    model = _model(_PARTICLES)
    callees = {ast.unparse(c.func): model.calls.target(c) for c in model.nodes(ast.Call)}
    assert callees["System.lattice"].name == "lattice"
    assert callees["system.forces"].name == "forces"
    assert callees["System.clamp"].name == "clamp"
    assert model.values.instance_class(next(n for n in model.nodes(ast.Name) if n.id == "system")).name == "System"
    clamp = callees["System.clamp"]
    (site,) = model.calls.sites(clamp)
    assert ast.unparse(model.calls.argument(site, clamp, "x")) == "F"  # a static method takes no receiver


def test_calling_loop_prefers_a_loop_that_runs_the_call_every_time() -> None:
    """l_particle_dataclass:25: run() logs every 50 steps; simulate() calls energy() every step."""
    model = _model(_PARTICLES)
    energy = next(s for s in model.scopes if s.name == "energy")
    loop, call = model.calls.calling_loop(energy)
    assert model.scope_of(call).name == "simulate"
    assert 16 in _codes(model.source, "CPN104")


# ------------------------------------------------ allocations in called helpers
def test_helper_allocation_with_a_first_call_before_the_loop() -> None:
    """s_nbody_loops:22 / n_nbody_compare: ``acc = accel(pos)`` once, then every step."""
    source = """
        import numpy as np
        def accel(pos):
            acc = np.zeros_like(pos)
            acc[:] = -pos
            return acc
        pos = np.ones((100, 3))
        acc = accel(pos)
        for step in range(500):
            pos = (pos + 0.01 * acc) % 10.0
            acc = accel(pos)
        """
    assert _codes(source, "CPN201") == [4]


def test_method_allocation_shaped_like_an_attribute_updated_in_place() -> None:
    """l_particle_dataclass:30: ``F = np.zeros_like(self.pos)`` in a method the time loop calls."""
    source = """
        import numpy as np
        class System:
            def __init__(self, n):
                self.pos = np.zeros((n, 3))
            def forces(self):
                F = np.zeros_like(self.pos)
                F -= self.pos
                return F
        def run(n, steps):
            system = System(n)
            for s in range(steps):
                system.pos += 0.01 * system.forces()
        """
    assert _codes(source, "CPN201") == [7]
    regrown = source.replace("system.pos += 0.01 * system.forces()",
                             "system.pos = np.concatenate([system.pos, system.forces()])")
    assert _codes(regrown, "CPN201") == []


# ------------------------------------------------------------------- ranks
def test_rank_a_function_states_for_its_parameter() -> None:
    """k_power_iteration:64: ``assert A.ndim == 2`` then ``np.linalg.norm(A, 2)``."""
    model = _model(
        """
        import numpy as np
        def spectral_norm(A):
            assert A.ndim == 2
            return np.linalg.norm(A, 2)
        def rows(X):
            n, d = X.shape
            return X[0, 1]
        def vector(v):
            if v.ndim != 1:
                raise ValueError("a vector")
            return v[3]
        def rebound(X):
            X = X.reshape(-1)
            n, d = X.shape
            return X
        """
    )
    assert model.shape(next(n for n in ast.walk(model.tree) if isinstance(n, ast.Name) and n.id == "A")) == (None, None)
    assert _kind_of(model, "X[0, 1]") is Kind.DEVICE_SCALAR
    assert _kind_of(model, "v[3]") is Kind.DEVICE_SCALAR
    assert _codes(model.source, "CPN404") == [5]
    receiver = next(n for n in ast.walk(model.tree) if isinstance(n, ast.Name) and n.id == "X" and n.lineno == 14
                    and isinstance(n.ctx, ast.Load))
    assert model.shape(receiver) is None  # the unpacking comes after a rebinding: not the parameter's rank


def test_repeat_flattens_to_one_axis() -> None:
    """n_langevin_escape: ``x = np.repeat(wells[:1], N)`` is a vector; ``x[i] += draw`` updates one element."""
    source = """
        import numpy as np
        N = 100
        wells = np.array([-1.0, -1.0])
        x = np.repeat(wells[:1], N)
        y = np.repeat(np.ones((3, 4)), 2, axis=1)
        for i in range(N):
            x[i] += 0.1 * np.random.normal(0.0, 1.0)
        """
    model = _model(source)
    assert model.shape(next(n for n in ast.walk(model.tree) if isinstance(n, ast.Name) and n.id == "x")) == (100,)
    assert model.shape(next(n for n in ast.walk(model.tree) if isinstance(n, ast.Name) and n.id == "y")) == (3, None)
    assert _codes(source, "CPN404") == [8]


def test_helper_allocation_in_one_arm_of_a_dispatch_or_kept_by_the_caller() -> None:
    """arpack's ``elif ido == 4:`` restart draw; sammy_kmeans' ``self.centroid = self._centroids(...)``."""
    dispatch = """
        import numpy as np
        class Solver:
            def __init__(self, n):
                self.n = n
                self.ido = 1
                self.rng = np.random.default_rng(0)
                self.resid = np.zeros(n)
            def iterate(self):
                if self.ido == 1:
                    self.resid *= 0.5
                elif self.ido == 2:
                    self.resid += 1.0
                elif self.ido == 4:
                    self.resid[:] = self.rng.uniform(-1.0, 1.0, size=self.n)
        def solve(n):
            s = Solver(n)
            for it in range(100):
                s.iterate()
        """
    assert _codes(dispatch, "CPN201") == []
    kept = """
        import numpy as np
        class KMeans:
            def __init__(self, X, k):
                self.X = X
                self.k = k
                self.centroid = np.zeros((k, X.shape[1]))
            def _centroids(self):
                c = np.zeros((self.k, self.X.shape[1]))
                c[:] = self.X[:self.k]
                return c
            def fit(self, n_iter):
                for _ in range(n_iter):
                    old = self.centroid
                    self.centroid = self._centroids()
        """
    assert _codes(kept, "CPN201") == []
    assert _codes(kept.replace("self.centroid = self._centroids()", "c = self._centroids()"), "CPN201") == [9]


def test_sum_of_a_list_of_device_scalars_and_sized_parameters() -> None:
    """sammy_kmeans:40: ``sum([dist(a[i], b[i]) for i in ...]) == 0``; altman_classic_fft: ``n = x.size``."""
    model = _model(
        """
        import numpy as np
        def dist(p, q):
            return np.sqrt(np.sum((p - q) ** 2))
        def converged(old, new, k):
            distances = [dist(old[i], new[i]) for i in range(k)]
            return sum(distances) == 0
        def fftr2(x):
            n = x.size
            return x[0:n:2]
        """
    )
    assert _kind_of(model, "sum(distances)") is Kind.DEVICE_SCALAR
    assert _kind_of(model, "x", 1) is Kind.DEVICE
    assert _codes(model.source, "CPN106") == [10]


def test_a_parameter_handed_to_a_helper_that_uses_it_as_an_array() -> None:
    """altman_classic_fft:222: ``n, n1 = get_sizes(x)`` where ``get_sizes`` reads ``x.size``."""
    source = """
        import numpy as np
        def get_sizes(x):
            n = x.size
            return n, n // 2
        def split(x):
            n, h = get_sizes(x)
            return x[0:n:2], x[1:n:2]
        def unrelated(items):
            return len(items)
        def caller(xs):
            return unrelated(xs), xs[::2]
        """
    model = _model(source)
    assert _kind_of(model, "x", 2) is Kind.DEVICE
    assert _kind_of(model, "xs", 1) is not Kind.DEVICE
    assert _codes(source, "CPN106") == [8, 8]


def test_numba_ufunc_results_and_single_axis_gradients_are_arrays() -> None:
    """n_numba_julia_sets: ``images.append(escape_time(Z0, c, 200))`` then ``images[0][::8, ::8]``;
    k_numba_lbm_kernels: ``(np.gradient(uy, axis=0) - np.gradient(ux, axis=1))[::k, ::k]``."""
    model = _model(
        """
        import numpy as np
        from numba import vectorize
        @vectorize(["int32(complex128, complex128)"])
        def escape(z, c):
            return 1
        Z0 = np.zeros((4, 4), dtype=complex)
        images = []
        for c in (0.1, 0.2):
            images.append(escape(Z0, c))
        coarse = images[0][::2, ::2]
        def vorticity(ux, uy):
            return np.gradient(uy, axis=0) - np.gradient(ux, axis=1)
        both = np.gradient(Z0)
        """
    )
    assert _kind_of(model, "escape(Z0, c)") is Kind.DEVICE
    assert _kind_of(model, "images[0]") is Kind.DEVICE
    assert _kind_of(model, "np.gradient(uy, axis=0)") is Kind.DEVICE
    assert _kind_of(model, "np.gradient(Z0)") is Kind.SEQ
