"""CPN103-CPN105 beyond their examples and fixtures: messages, positions, which of CPN104/CPN105 reports a sync, the recipes' own fixes staying quiet, hot loops, quiet values."""

from __future__ import annotations

import textwrap

import pytest

from cpn_lint import lint_source

SYNC_CODES = ("CPN103", "CPN104", "CPN105")


def _findings(source: str, *codes: str) -> list:
    wanted = codes or SYNC_CODES
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code in wanted]


def _positions(source: str, *codes: str) -> list[tuple[int, int, str]]:
    return [(f.line, f.col, f.code) for f in _findings(source, *codes)]


# -------------------------------------------------------------------- messages
def test_item_message_names_value_loop_line_and_recipe() -> None:
    (finding,) = _findings(
        """
        import numpy as np
        u = np.ones(8)
        w = np.zeros(8)
        for step in range(100):
            err = np.max(np.abs(u - w))
            value = err.item()
            if value < 1e-6:
                break
        """,
        "CPN104",
    )
    assert finding.line == 7
    assert finding.message.startswith(".item() on 'err' inside the loop at line 5 is a host sync every iteration")
    assert finding.message.endswith("(RR-sync)")
    assert finding.in_loop and finding.data["loop_line"] == 5


def test_while_message_quotes_test_and_array() -> None:
    (finding,) = _findings(
        """
        import numpy as np
        u = np.ones(6)
        err = np.inf
        while err > 1e-3:
            new = u * 0.5
            err = np.max(np.abs(new - u))
            u = new
        """,
        "CPN105",
    )
    assert (finding.line, finding.col) == (5, 0)
    assert "while test 'err > 1e-3' branches on array 'err' on every pass" in finding.message
    assert finding.message.endswith("(RR-converge)")


def test_iteration_message_names_every_zipped_array() -> None:
    (finding,) = _findings(
        """
        import numpy as np
        a = np.ones(3)
        b = np.zeros(3)
        for x, y in zip(a, b):
            print(x, y)
        """,
        "CPN103",
    )
    assert "iterates array 'a', 'b'" in finding.message
    assert finding.message.endswith("(RR-loop)")


def test_numpy_range_iteration_suggests_python_range() -> None:
    source = """
        import numpy as np
        times = np.linspace(0.0, 1.0, 11)
        u = np.ones(4)
        for t in times:
            u *= t
        for row in np.eye(3):
            u[:3] += row
        """
    first, second = _findings(source, "CPN103")
    assert "Python range" in first.message
    assert "whole-array operations" in second.message


# ------------------------------------------------------------------- positions
def test_positions_follow_spec() -> None:
    source = """
        import numpy as np
        u = np.ones(4)
        for step in range(100):
            if step < 3:
                u += 1
            elif u.any():
                u -= 1
            total = [float(v) for v in np.split(u, 2)]
        """
    assert _positions(source) == [
        (7, 4, "CPN105"),  # at the elif keyword
        (9, 13, "CPN104"),  # at the call
    ]


def test_comprehension_reported_at_the_comprehension() -> None:
    assert _positions("import numpy as np\na = np.ones(3)\nb = [x + 1 for x in a]\n", "CPN103") == [(3, 4, "CPN103")]


# ---------------------------------- CPN104 or CPN105: which one reports a sync
def test_test_on_converted_value_is_only_cpn104() -> None:
    source = """
        import numpy as np
        u = np.ones(4)
        for step in range(100):
            u *= 0.9
            err = float(np.max(u))
            if err < 1e-3:
                break
        """
    assert [(line, code) for line, _, code in _positions(source)] == [(6, "CPN104")]


def test_while_test_that_converts_is_only_cpn104() -> None:
    source = """
        import numpy as np
        u = np.ones(4)
        while float(np.max(np.abs(u))) > 1e-3:
            u *= 0.5
        while np.max(u).item() > 1e-3:
            u *= 0.5
        """
    assert [(line, code) for line, _, code in _positions(source)] == [(4, "CPN104"), (6, "CPN104")]


def test_single_conversion_outside_loops_is_quiet() -> None:
    source = """
        import numpy as np
        def energy(x):
            y = np.asarray(x)
            if np.sum(y) > 0:
                print("positive")
            return float(np.sum(y * y))
        """
    assert _findings(source) == []


# ------------------------------------------------------ the recipes' own fixes
def test_rr_sync_fix_is_quiet() -> None:
    source = """
        import numpy as np
        LOG_EVERY = 50
        def run(u, u_old, tol, n_steps):
            for step in range(n_steps):
                u_old = u
                u = 0.5 * (np.roll(u, 1) + np.roll(u, -1))
                if step % LOG_EVERY == 0:
                    err = float(np.max(np.abs(u - u_old)))
                    print(f"step {step}: {err:.3e}")
                    if err < tol:
                        break
            return u
        """
    assert _findings(source) == []
    unguarded = source.replace("if step % LOG_EVERY == 0:", "if True:")
    assert [code for _, _, code in _positions(unguarded)] == ["CPN104"]


def test_rr_converge_fix_is_quiet() -> None:
    source = """
        import numpy as np
        def run(u, work, tol, max_iter):
            check_every = 25
            converged = False
            it = 0
            while not converged and it < max_iter:
                work = 0.5 * (u + work)
                u, work = work, u
                it += 1
                if it % check_every == 0:
                    err = float(np.max(np.abs(u - work)))
                    converged = err < tol
            return u
        """
    assert _findings(source) == []
    unguarded = source.replace("if it % check_every == 0:", "if True:")
    assert [code for _, _, code in _positions(unguarded)] == ["CPN104"]


@pytest.mark.parametrize(
    "guard",
    ["step % 10 == 0", "not step % 10", "(step + 1) % 10 == 0", "step % 10 == 9", "verbose and step % 10 == 0",
     "step % 10 == 0 or step == n - 1", "0 == step % every"],
)
def test_modulo_guards_throttle_conversions_and_branches(guard: str) -> None:
    source = f"""
        import numpy as np
        def run(u: np.ndarray, n, verbose, every):
            for step in range(n):
                u *= 0.5
                if {guard}:
                    print(u.max().item())
                    if np.any(u < 0):
                        break
            return u
        """
    assert _findings(source) == []
    unguarded = source.replace(guard, "verbose")
    assert [code for _, _, code in _positions(unguarded)] == ["CPN104", "CPN105"]


@pytest.mark.parametrize("guard", ["step % 10 != 0", "step % 10", "step % 10 == 0 or verbose", "size % 10 == 0"])
def test_guards_that_hold_on_most_iterations_do_not_throttle(guard: str) -> None:
    source = f"""
        import numpy as np
        def run(u: np.ndarray, n, verbose, size):
            for step in range(n):
                u *= 0.5
                if {guard}:
                    print(u.max().item())
            return u
        """
    assert [code for _, _, code in _positions(source)] == ["CPN104"]


def test_else_branch_of_a_modulo_guard_is_hot() -> None:
    source = """
        import numpy as np
        u = np.ones(3)
        for step in range(100):
            if step % 10 == 0:
                pass
            else:
                print(float(np.sum(u)))
        """
    assert [(line, code) for line, _, code in _positions(source)] == [(8, "CPN104")]


def test_short_circuit_after_modulo_check_is_throttled() -> None:
    source = """
        import numpy as np
        u = np.ones(3)
        for it in range(100):
            u *= 0.9
            if it % 20 == 0 and np.max(u) < 1e-3:
                break
            if np.max(u) < 1e-3 and it % 20 == 0:
                break
        """
    assert [(line, code) for line, _, code in _positions(source)] == [(8, "CPN105")]


def test_modulo_filter_of_a_comprehension_throttles_its_element() -> None:
    source = """
        import numpy as np
        parts = np.split(np.ones(8), 4)
        kept = [float(np.sum(p)) for i, p in enumerate(parts) if i % 2 == 0]
        every = [float(np.sum(p)) for i, p in enumerate(parts) if i % 2 != 0]
        """
    assert [(line, code) for line, _, code in _positions(source)] == [(5, "CPN104")]


# ---------------------------------------------------------- runs once per loop
def test_exits_from_the_loop_run_once() -> None:
    source = """
        import numpy as np
        def search(u: np.ndarray, limit):
            for it in range(100):
                u *= 1.5
                if it > limit:
                    peak = float(np.max(u))
                    print(peak)
                    break
                if it == 50:
                    raise ValueError(float(np.min(u)))
            for it in range(100):
                if it == limit:
                    return int(np.argmax(u))
            return -1
        """
    assert _findings(source) == []


def test_break_out_of_an_inner_loop_still_repeats() -> None:
    source = """
        import numpy as np
        def search(u: np.ndarray, n):
            for step in range(n):
                for k in range(n):
                    if k > 2:
                        print(float(u[k]))
                        break
            return u
        """
    assert [(line, code) for line, _, code in _positions(source)] == [(7, "CPN104")]


def test_comprehension_in_a_return_still_iterates() -> None:
    source = """
        import numpy as np
        def values(u: np.ndarray):
            return [float(x) for x in np.split(u, 4)]
        """
    assert [(line, code) for line, _, code in _positions(source)] == [(4, "CPN104")]


# ------------------------------------------------------------------- hot loops
def test_small_constant_loop_alone_is_not_hot_but_inside_a_time_loop_is() -> None:
    source = """
        import numpy as np
        u = np.ones(3)
        for axis in range(3):
            print(float(u[axis]))
            if np.any(u > axis):
                print(axis)
        for step in range(100):
            for axis in range(3):
                print(float(u[axis]))
        """
    (finding,) = _findings(source)
    assert (finding.line, finding.code) == (10, "CPN104")
    assert "inside the loop at line 8" in finding.message


# ---------------------------------------------------------------- quiet values
def test_math_on_python_numbers_is_reported_with_the_math_module_recipe() -> None:
    # cuPyNumeric 26.6.1 returns a 0-d device array for NumPy math on Python
    # numbers, and Doctor flags int() of it (tests/test_oracle_runtime_facts.py).
    source = """
        import numpy as np
        def schedule(n, k, xs):
            out = []
            for step in range(n):
                chunks = int(np.ceil(step / k))
                if np.isnan(step * 0.5) or np.abs(step - k) < 2:
                    continue
                out.append(chunks)
            for x in xs:
                if np.isnan(x):
                    continue
            return out
        """
    findings = _findings(source)
    assert [(f.line, f.code) for f in findings] == [(6, "CPN104"), (7, "CPN105"), (11, "CPN105")]
    assert all("of Python numbers is a 0-d device array: use the math module" in f.message for f in findings)


def test_python_math_and_converted_values_are_quiet() -> None:
    source = """
        import math
        import numpy as np
        def schedule(n, k, xs):
            out = []
            dt = float(np.sqrt(2.0) / n)
            t = 0.0
            for step in range(n):
                chunks = math.ceil(step / k)
                if math.isnan(step * 0.5) or abs(step - k) < 2 or t > 1.0:
                    continue
                t += dt
                out.append(chunks)
            return out
        """
    assert _findings(source) == []


def test_arrays_built_from_sizes_are_device_values() -> None:
    source = """
        import numpy as np
        for step in range(10):
            noise = float(np.sum(np.random.rand(100)))
            if np.zeros(4).any():
                break
        """
    assert [(line, code) for line, _, code in _positions(source)] == [(4, "CPN104"), (5, "CPN105")]


def test_host_alias_and_shadowed_builtins_are_quiet() -> None:
    source = """
        import cupynumeric as np
        import numpy as onp
        h = onp.ones(4)
        for step in range(10):
            if h[0] > 0 and onp.any(h):
                print(float(h.sum()), h.tolist())
        for v in h:
            print(v)

        def float(x):
            return x

        d = np.ones(3)
        for step in range(10):
            float(d)
        """
    assert _findings(source) == []


def test_metadata_none_and_flags_are_quiet() -> None:
    source = """
        import numpy as np
        def step(a: np.ndarray, mask=None, converged=False):
            while not converged:
                if mask is None or a.shape[0] > 3 or len(a) or a.ndim == 2 or a.dtype == np.float64:
                    converged = True
                n = int(a.shape[0]) + int(a.size)
            return n
        """
    assert _findings(source) == []


def test_f_strings_and_print_of_arrays_are_out_of_scope() -> None:
    source = """
        import numpy as np
        u = np.ones(3)
        for step in range(10):
            print(u, f"{u}", str(u), repr(u))
        """
    assert _findings(source) == []


def test_item_loop_reports_iteration_conversion_and_branch() -> None:
    """Over data, the test and the conversion of each item stay syncs of
    their own whatever replaces the loop's iteration."""
    source = """
        import numpy as np
        a = np.random.rand(5)
        count = 0
        for x in a:
            if x > 2:
                count += int(x)
        """
    assert [(line, code) for line, _, code in _positions(source)] == [(5, "CPN103"), (6, "CPN105"), (7, "CPN104")]


def test_tests_on_the_item_of_a_numpy_range_go_with_the_loop() -> None:
    """Over np.arange, a Python range in the loop's place leaves plain
    numbers: the branch and the conversion are part of the CPN103 finding."""
    source = """
        import numpy as np
        a = np.arange(5)
        count = 0
        for x in a:
            if x > 2:
                count += int(x)
        """
    assert [(line, code) for line, _, code in _positions(source)] == [(5, "CPN103")]
    message = next(f.message for f in lint_source(textwrap.dedent(source)) if f.code == "CPN103")
    assert "1 scalar branch and 1 host conversion" in message


def test_nested_array_loops_are_each_reported() -> None:
    source = """
        import numpy as np
        grid = np.ones((3, 3))
        for row in grid:
            for value in row:
                print(value)
        """
    assert [(line, code) for line, _, code in _positions(source)] == [(4, "CPN103"), (5, "CPN103")]


def test_ternary_and_comprehension_filter_in_loops() -> None:
    source = """
        import numpy as np
        m = np.ones(4) > 0
        x = np.ones(4)
        once = x * 2 if np.any(m) else x
        for k in range(50):
            x = x * 2 if np.any(m) else x + 1
        rows = [r for r in np.split(x, 2) if np.any(r)]
        """
    assert [(line, col, code) for line, col, code in _positions(source, "CPN105")] == [(7, 8, "CPN105"), (8, 37, "CPN105")]


# ------------------------------------------------ NumPy's own item iterators
# np.ndenumerate and np.nditer walk an array item by item like `for v in a`;
# np.ndindex yields indices only (an element loop: CPN101, SPEC §3). The
# loop's classification is the model's (loops._classify_iteration): it calls
# these loops IterKind.ARRAY, and loops.walked_arrays names the array.
ITEM_ITERATOR_LOOPS = {
    "ndenumerate": """
        import numpy as np
        def weighted(Z: np.ndarray):
            total = 0.0
            for idx, v in np.ndenumerate(Z):
                total += v * idx[0]
            return total
        """,
    "nditer": """
        import numpy as np
        def doubled(a):
            out = []
            for x in np.nditer(a):
                out.append(x * 2)
            return out, a.shape
        """,
}


@pytest.mark.parametrize("name", sorted(ITEM_ITERATOR_LOOPS))
def test_numpy_item_iterators_are_iteration_over_the_array(name: str) -> None:
    assert _positions(ITEM_ITERATOR_LOOPS[name], "CPN103") == [(5, 4, "CPN103")]


def test_flat_iteration_is_reported_at_the_for() -> None:
    source = """
        import numpy as np
        def total(a: np.ndarray):
            s = 0.0
            for v in a.flat:
                s += v
            return s
        """
    assert _positions(source, "CPN103") == [(5, 4, "CPN103")]


def test_ndindex_with_element_reads_is_an_element_loop() -> None:
    source = """
        import numpy as np
        def squares(a: np.ndarray):
            b = np.zeros(a.shape)
            for idx in np.ndindex(a.shape):
                b[idx] = a[idx] ** 2
            return b
        """
    assert _positions(source, "CPN101", "CPN103") == [(5, 4, "CPN101")]
