"""Argument forms cuPyNumeric 26.6.1 rejects (issue 12, groundwork for CPN404).

tests/data/oracle/api_forms.py holds one minimal reproduction per form; under
NumPy each runs (but the out= dtype case, which NumPy refuses as well), under
the real cuPyNumeric each fails with the exact error recorded here. The forms,
and how a static check would recognise each, are in docs/design/cpn404-forms.md.
A change of cuPyNumeric that lifts a limit fails this test: update the table
and the design note together.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest


from . import oracle_support as support

PROBE = support.ROOT / "tests" / "data" / "oracle" / "api_forms.py"
DESIGN = support.ROOT / "docs" / "design" / "cpn404-forms.md"
SCALAR = "only 0-dimensional arrays can be converted to Python scalars"
# form -> (exception type, exact message) under cuPyNumeric 26.6.1; None: it works.
EXPECTED: dict[str, tuple[str, str] | None] = {
    "normal_with_array_mean": ("TypeError", SCALAR),
    "normal_with_array_scale": ("TypeError", SCALAR),
    "uniform_with_array_bounds": ("TypeError", SCALAR),
    "randint_with_0d_bound": ("NotImplementedError", "'low' must be an integer"),
    "randint_with_array_high": ("NotImplementedError", "'high' must be an integer or None"),
    "random_without_size_into_slot_picked_by_0d_index": (
        "ValueError", "std::invalid_argument: Alignment requires the stores to have the same shape, but found [1] and []"),
    "normal_without_size_added_into_scalar_slot": (
        "ValueError", "non-broadcastable output operand with shape () doesn't match the broadcast shape (1,)"),
    "float_of_random_without_size": ("TypeError", SCALAR),
    "random_without_size_into_scalar_slot": None,
    "random_without_size_shape": None,  # works, but returns (1,) where NumPy returns ()
    "generator_normal_with_array_mean": ("TypeError", SCALAR),
    "ufunc_where_keyword": ("NotImplementedError", "the 'where' keyword is not yet supported"),
    "ufunc_out_of_a_narrower_dtype": (
        "TypeError", "Cannot cast ufunc 'multiply' output from float64 to int64 with casting rule 'same_kind'"),
    "range_of_a_0d_array": None,
    "index_with_a_0d_array": None,
    "convolve_default_mode": ("NotImplementedError", "Only support mode='same'"),
    "ndim_of_a_string": ("TypeError", "cuPyNumeric does not support dtype=<U2"),
    "matplotlib_limits_of_0d_values": ("IndexError", "tuple index out of range"),
    "matplotlib_patch_at_0d_point": ("IndexError", "tuple index out of range"),
    "array_of_strings": ("TypeError", "cuPyNumeric does not support dtype=<U1"),
    "where_choosing_strings": ("TypeError", "cuPyNumeric does not support dtype=<U3"),
    "scipy_special_ufunc_of_array": (
        "NotImplementedError", "cuPyNumeric has not implemented jv.__call__. This ufunc method is not available."),
    "scipy_special_ufunc_of_0d_value": (
        "NotImplementedError", "cuPyNumeric has not implemented gamma.__call__. This ufunc method is not available."),
    "matmul_with_keyword": None,
    "norm_of_order_two": ("NotImplementedError", "2-norm requires SVD decomposition"),
    "matrix_power_negative": ("NotImplementedError", "Negative exponent in matrix_power"),
    "qr_of_a_wide_matrix": None,
    "unique_with_return_index": ("NotImplementedError", "Keyword arguments for `unique` are not yet supported"),
    "gamma_with_list_shape": ("TypeError", "float() argument must be a string or a real number, not 'list'"),
    "generator_integers_with_array_high": (
        "ValueError", "setting an array element with a sequence. The requested array has an inhomogeneous shape "
        "after 1 dimensions. The detected shape was (2,) + inhomogeneous part."),
    "seed_with_array": ("TypeError", "seed must be an integer or None"),
    "math_of_normal_without_size": ("TypeError", SCALAR),
    "format_of_random_without_size": ("TypeError", SCALAR),
    "int_of_comparison_with_random_without_size": ("TypeError", SCALAR),
    "int_of_ufunc_of_random_without_size": ("TypeError", SCALAR),
    "float_of_combined_comparisons_of_draws": ("TypeError", SCALAR),
    "round_of_random_without_size": ("ValueError", "Python's round method can be called only on scalars"),
    "norm_nuclear": ("NotImplementedError", "nuclear norm requires SVD decomposition"),
    "isclose_with_equal_nan": ("NotImplementedError", "cuPyNumeric does not support `equal_nan` yet for isclose"),
    "histogram_with_bin_rule": ("TypeError", "`bins` must be array or integer type"),
    "view_as_ndarray_subclass": ("NotImplementedError", "cuPyNumeric does not currently support type reinterpretation"),
    "ndarray_new_of_subclass": ("AttributeError", "'Tagged' object has no attribute '_writeable'"),
    "ndarray_new_with_buffer": ("TypeError", "object.__new__() takes exactly one argument (the type to instantiate)"),
    "ndarray_subscripted_as_type": ("TypeError", "type 'ndarray' is not subscriptable"),
    "eig_of_a_symmetric_matrix": None,  # runs, with another dtype: SILENT
    "isinstance_of_an_element": None,  # runs, with another answer: SILENT
    "isscalar_of_a_sum": None,
    "true_in_a_mask": ("ValueError", "Expected bytes or NumPy ndarray, but got <class 'numpy.bool'>"),
    # forms CPN404 leaves alone, and the recipes its messages give: all run
    "bool_of_comparison_with_random_without_size": None,
    "int_of_comparison_with_rand": None,
    "rand_without_size_as_float": None,
    "randn_added_into_scalar_slot": None,
    "draw_added_into_a_row": None,
    "draw_into_row_through_0d_index": None,
    "generator_integers_with_0d_bound": None,
    "int_of_generator_integers_without_size": None,  # rng.integers(n) is 0-d: int() of it works
    "normal_with_0d_mean": None,
    "recipe_one_element_draw_as_float": None,
    "recipe_one_element_draw_added_into_scalar_slot": None,
    "recipe_shift_and_scale_standard_normals": None,
    "recipe_uniform_onto_array_bounds": None,
    "recipe_int_of_0d_bound": None,
    "recipe_singular_values_for_spectral_norm": None,
    "recipe_bincount_for_unique_counts": None,
    "recipe_convolve_same_on_padded_input": None,
    "recipe_where_instead_of_ufunc_where": None,
    "recipe_convolve_valid_by_slicing_same": None,
    "recipe_scipy_special_ufunc_of_host_copy": None,
    "recipe_strings_kept_in_a_list": None,
    "recipe_matplotlib_limits_of_floats": None,
    "recipe_convolve_full_by_padding_then_slicing": None,
}
# forms that run under both but give another result: (NumPy's, cuPyNumeric's);
# CPN404 reports them as silent changes
SILENT = {"eig_of_a_symmetric_matrix": ("'float64 float64'", "'complex128 complex128'"),
          "isinstance_of_an_element": ("True", "False"), "isscalar_of_a_sum": ("True", "False")}
# recipes that check their own answer against a plain-Python reference
SELF_CHECKING = ("recipe_convolve_valid_by_slicing_same", "recipe_convolve_full_by_padding_then_slicing")
REFUSED_BY_NUMPY_TOO = {"ufunc_out_of_a_narrower_dtype"}


NEEDS_MATPLOTLIB = {"matplotlib_limits_of_0d_values", "matplotlib_patch_at_0d_point", "recipe_matplotlib_limits_of_floats"}


def test_every_form_runs_under_numpy() -> None:
    done = subprocess.run([sys.executable, str(PROBE)], capture_output=True, text=True, check=True, timeout=120)
    outcomes = json.loads(done.stdout)
    assert set(outcomes) == set(EXPECTED)
    # the test environment may lack matplotlib (the oracle's has it)
    missing = {name for name in NEEDS_MATPLOTLIB if outcomes[name].get("error") == "ModuleNotFoundError"}
    assert {name for name, result in outcomes.items() if "error" in result} - missing == REFUSED_BY_NUMPY_TOO
    assert outcomes["random_without_size_shape"] == {"ok": "()"}
    assert all(outcomes[name] == {"ok": "True"} for name in SELF_CHECKING)
    assert all(outcomes[name] == {"ok": numpy_result} for name, (numpy_result, _) in SILENT.items())


def test_every_cpn404_form_is_backed_by_failing_reproductions() -> None:
    from cpn_lint.rules.cpn404_unsupported_argument_form import FORMS

    from .test_oracle_doctor_artefacts import DOCTOR_OFF

    failing = ({name for name, expected in EXPECTED.items() if expected is not None} - REFUSED_BY_NUMPY_TOO) | set(SILENT)
    # np.mgrid raises under Doctor whatever its form; its own failure is shown with Doctor off
    failing |= {name for name, outcome in DOCTOR_OFF.items() if not outcome.startswith("ok")}
    backed = {probe for form in FORMS for probe in form.probes if not probe.endswith(".py")}
    # a form that kills the process is shown by a program of its own, with its own oracle test
    alone = [probe for form in FORMS for probe in form.probes if probe.endswith(".py")]
    assert all((PROBE.parent / name).is_file() for name in alone)
    assert all(form.probes for form in FORMS)
    assert backed <= failing, f"forms cite reproductions that do not fail: {sorted(backed - failing)}"
    # every failing reproduction is a form CPN404 reports (none is forgotten)
    assert failing <= backed, f"failing forms CPN404 does not report: {sorted(failing - backed)}"


def test_cpn404_reports_each_failing_reproduction_and_no_working_one() -> None:
    """The rule, run on the reproductions themselves: a finding in each
    failing case, none in a case that runs."""

    from cpn_lint.engine import lint_source

    source = PROBE.read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = {f.line for f in lint_source(source, str(PROBE)) if f.code == "CPN404"}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in EXPECTED:
            reported = any(node.lineno <= line <= (node.end_lineno or node.lineno) for line in lines)
            should = (EXPECTED[node.name] is not None and node.name not in REFUSED_BY_NUMPY_TOO) or node.name in SILENT
            assert reported == should, f"{node.name}: CPN404 {'misses it' if should else 'reports a form that runs'}"


def test_the_design_note_lists_every_failing_form() -> None:
    text = DESIGN.read_text(encoding="utf-8")
    for name, expected in EXPECTED.items():
        if expected is not None:
            assert f"`{name}`" in text, f"{name} is not in {DESIGN.name}"
            assert expected[1] in text, f"the error of {name} is not quoted in {DESIGN.name}"
    for name, (_, changed) in SILENT.items():
        assert f"`{name}`" in text and changed.strip("'") in text, f"{name} and its result are not in {DESIGN.name}"


# ------------------------------------------------------------ missing names
NAMES_PROBE = support.ROOT / "tests" / "data" / "oracle" / "api_names.py"
# Of the names api_names.py tries, those cuPyNumeric 26.6.1 has; every other
# one raises AttributeError there (issue 23: np.int, np.float, ... and every
# name NumPy 2 dropped).
PRESENT_IN_CUPYNUMERIC = {"cast", "find_common_type", "in1d"}


def _probed_names() -> dict[str, tuple[str, ...]]:
    tree = ast.parse(NAMES_PROBE.read_text(encoding="utf-8"))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple):
            found[node.targets[0].id] = tuple(e.value for e in node.value.elts)
    return found


def test_cpn401_reports_every_probed_name_cupynumeric_lacks() -> None:
    from cpn_lint.engine import lint_source

    groups = _probed_names()
    assert set(groups) == {"TYPE_ALIASES", "ONLY_IN_NUMPY_1", "ITERATORS", "CLASSES"}
    for name in groups["TYPE_ALIASES"] + groups["ONLY_IN_NUMPY_1"] + groups["ITERATORS"] + groups["CLASSES"]:
        codes = {f.code for f in lint_source(f"import numpy as np\nthing = np.{name}\n")}
        assert ("CPN401" in codes) == (name not in PRESENT_IN_CUPYNUMERIC), name
    for name in groups["CLASSES"]:  # a method called through the class fails where the class is looked up
        codes = {f.code for f in lint_source(f"import numpy as np\nw = np.ones(3)\nwT = np.{name}.transpose(w)\n")}
        assert "CPN401" in codes, name


def test_removed_type_aliases_name_the_python_type() -> None:
    from cpn_lint.engine import lint_source

    (finding,) = lint_source("import numpy as np\nmask = np.zeros(4, dtype=np.int)\n")
    assert finding.code == "CPN401" and finding.message.startswith("np.int: numpy.int (NumPy 1.x only) is missing")
    assert "use Python's int" in finding.message


@pytest.fixture(scope="module")
def venv() -> Path:
    return support.require_oracle_venv()


@pytest.mark.oracle
def test_each_form_fails_with_its_exact_error_on_cupynumeric(venv: Path) -> None:
    run = support.cached_run(PROBE, venv)
    assert run.ok, run.stderr_tail
    outcomes = json.loads(run.stdout.strip().splitlines()[-1])
    actual = {name: None if "ok" in result else (result["error"], result["message"]) for name, result in outcomes.items()}
    assert actual == EXPECTED
    assert all(outcomes[name] == {"ok": changed} for name, (_, changed) in SILENT.items())
    assert outcomes["random_without_size_shape"] == {"ok": "(1,)"}
    # the one-line equivalents CPN404 gives for np.convolve give NumPy's answer
    assert all(outcomes[name] == {"ok": "True"} for name in SELF_CHECKING)


@pytest.mark.oracle
def test_which_probed_names_cupynumeric_has(venv: Path) -> None:
    run = support.cached_run(NAMES_PROBE, venv)
    assert run.ok, run.stderr_tail
    outcomes = json.loads(next(line for line in run.stdout.splitlines() if line.startswith("{")))
    assert {name for name, result in outcomes.items() if result == "present"} == PRESENT_IN_CUPYNUMERIC
    assert {result for name, result in outcomes.items() if result != "present"} == {"AttributeError"}


def test_the_shipped_scipy_ufunc_list_names_scipy_ufuncs() -> None:
    """Every name in cpn_lint/data/scipy-special-ufuncs.json is a ufunc of
    the installed SciPy (the list was read from SciPy; a release may add more)."""
    special = pytest.importorskip("scipy.special")
    import numpy

    from cpn_lint.rules._api_support import scipy_special_ufuncs

    names = scipy_special_ufuncs()
    assert len(names) > 100
    present = [n for n in names if hasattr(special, n)]
    assert len(present) >= 0.9 * len(names)
    assert all(isinstance(getattr(special, n), numpy.ufunc) for n in present)
