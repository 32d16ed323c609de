"""Property tests: the engine never raises, is deterministic, and its findings
are invariant under changes that do not change what the code does."""

from __future__ import annotations

import ast
from collections import Counter

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpn_lint import LintOptions, analyze_source, lint_source

from .numpy_programs import Program, programs

PROPERTY_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _positions(source: str) -> list[tuple[int, str]]:
    return sorted((f.line, f.code) for f in lint_source(source, assessment=True))


def _codes(source: str) -> Counter[str]:
    return Counter(f.code for f in lint_source(source, assessment=True))


@PROPERTY_SETTINGS
@given(programs)
def test_generated_programs_never_raise_or_fail_internally(program: Program) -> None:
    source = program.render()
    findings = lint_source(source, assessment=True)
    assert not [f for f in findings if f.code == "CPN000"], [f.text for f in findings if f.code == "CPN000"]


@PROPERTY_SETTINGS
@given(programs)
def test_findings_are_deterministic(program: Program) -> None:
    source = program.render()
    first = [(f.line, f.col, f.text) for f in lint_source(source, assessment=True)]
    second = [(f.line, f.col, f.text) for f in lint_source(source, assessment=True)]
    assert first == second


@PROPERTY_SETTINGS
@given(programs, st.sampled_from([("xp", "numpy"), ("numpy", "numpy"), ("cnp", "numpy")]))
def test_renaming_the_numpy_alias_changes_nothing(program: Program, alias: tuple[str, str]) -> None:
    assert _positions(program.render("np")) == _positions(program.render(*alias))


@PROPERTY_SETTINGS
@given(programs, st.integers(min_value=1, max_value=5))
def test_leading_comments_and_blank_lines_only_shift_lines(program: Program, k: int) -> None:
    source = program.render()
    padded = "".join("# header comment\n" if i % 2 else "\n" for i in range(k)) + source
    assert [(line + k, code) for line, code in _positions(source)] == _positions(padded)


@PROPERTY_SETTINGS
@given(programs)
def test_interleaved_comments_change_no_code(program: Program) -> None:
    assert _codes(program.render()) == _codes(program.render(padding=True))


@PROPERTY_SETTINGS
@given(programs)
def test_reformatting_changes_no_code(program: Program) -> None:
    source = program.render()
    reformatted = ast.unparse(ast.parse(source))
    assert _codes(source) == _codes(reformatted)


@PROPERTY_SETTINGS
@given(programs)
def test_wrapping_in_a_function_only_shifts_lines(program: Program) -> None:
    flat = program.render(wrap=False)
    wrapped = program.render(wrap=True)
    # The wrapped body starts one line later (the def line).
    assert [(line + 1, code) for line, code in _positions(flat) if line > 2] == [
        p for p in _positions(wrapped) if p[0] > 3
    ]


@PROPERTY_SETTINGS
@given(programs)
def test_code_that_is_not_numpy_is_quiet(program: Program) -> None:
    assert lint_source(program.render("np", "mylib"), assessment=True) == []


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::SyntaxWarning")  # hypothesmith's programs call literals
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # ...and hold invalid escapes ("\\d"), which 3.11 warns about when the test parses them
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(hypothesmith.from_grammar())
def test_arbitrary_valid_python_never_raises(source: str) -> None:
    try:
        ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    # Give the rules something to chew on: make numpy visible to the model.
    result = analyze_source("import numpy as np\n" + source, "<generated>", LintOptions(assessment=True))
    assert result.error is None or "parse" in result.error
    assert not [f.text for f in result.findings if f.code == "CPN000"]


@pytest.mark.parametrize("alias", ["np", "xp"])
def test_alias_property_has_teeth(alias: str) -> None:
    """The alias property would catch a rule matching the text 'np.'."""
    source = f"import numpy as {alias}\nf = {alias}.vectorize(abs)\n"
    assert _positions(source) == [(2, "CPN102")]


def test_a_diag_of_unknown_rank_written_at_module_level_follows_its_reads_as_in_a_function() -> None:
    """Hypothesis found it: module-level code was judged as if other modules
    read its globals, so the same lines gave CPN205 there and not inside a
    function."""
    body = "b = np.ones(64)\nb = b + np.zeros(8)\nd = np.diag(b)\nd[0] = 1.0\n"
    flat = [f.code for f in lint_source("import numpy as np\n" + body) if f.code == "CPN205"]
    wrapped = "import numpy as np\n\n\ndef f():\n" + "".join("    " + line + "\n" for line in body.splitlines())
    assert flat == [f.code for f in lint_source(wrapped) if f.code == "CPN205"] == []
