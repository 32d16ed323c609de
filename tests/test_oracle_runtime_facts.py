"""The value engine against the runtime: what each probed expression is,
statically (cpn-lint's model) and once cuPyNumeric 26.6.1 runs it.

tests/data/runtime_facts.py probes expressions whose kind the engine
decides by a runtime fact (NumPy math on Python numbers is a 0-d device
array, a scalar index is a 0-d device array, a draw without ``size`` is one
element on the device, ``np.float64(x)`` is a host number, ...). The oracle
tier runs it under the real cuPyNumeric and every probe must agree with the
model's kind and shape for the same expression.
"""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import pytest

from cpn_lint import oracle
from cpn_lint.model import FileModel, Kind

from . import oracle_support as support

pytestmark = pytest.mark.oracle

PROGRAM = Path(__file__).parent / "data" / "runtime_facts.py"
DEVICE_TYPE = "cupynumeric.ndarray"
HOST_NUMBER_TYPES = {"builtins.float", "builtins.int", "builtins.bool", "numpy.float64", "numpy.int64", "numpy.bool_"}


def _static_probes() -> dict[str, tuple[Kind, tuple | None, bool]]:
    """label -> (kind, shape, is a one-element draw) the model infers for
    each probed expression."""
    source = PROGRAM.read_text(encoding="utf-8")
    model = FileModel(ast.parse(source), source, str(PROGRAM))
    found: dict[str, tuple[Kind, tuple | None, bool]] = {}
    for call in model.nodes(ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id == "probe" and len(call.args) == 2:
            label = call.args[0]
            assert isinstance(label, ast.Constant)
            value = call.args[1]
            found[label.value] = (model.kind(value), model.shape(value), model.unit_draw(value) is not None)
    return found


def _runtime_kind(fact: dict) -> Kind:
    if fact["type"] == DEVICE_TYPE:
        # a one-element draw (shape (1,)) behaves as a device scalar
        return Kind.DEVICE_SCALAR if fact["shape"] in ([], [1]) else Kind.DEVICE
    if fact["type"] in HOST_NUMBER_TYPES:
        return Kind.SCALAR
    raise AssertionError(f"unexpected runtime type {fact['type']}")


@pytest.fixture(scope="module")
def runtime_facts() -> dict[str, dict]:
    try:
        venv = oracle.ensure_venv(support.oracle_venv_path())
    except oracle.OracleError as exc:
        if os.environ.get("CPN_ORACLE_REQUIRED"):
            pytest.fail(f"the oracle environment is required here but could not be created: {exc}")
        pytest.skip(f"cuPyNumeric oracle environment cannot be created: {exc}")
    run = support.cached_run(PROGRAM, venv)
    assert run.returncode == 0, run.stderr_tail
    line = next(line for line in run.stdout.splitlines() if line.startswith("RUNTIME-FACTS "))
    return json.loads(line[len("RUNTIME-FACTS "):])


def test_every_probe_is_checked(runtime_facts: dict[str, dict]) -> None:
    assert set(runtime_facts) == set(_static_probes())


@pytest.mark.parametrize("label", sorted(_static_probes()))
def test_model_agrees_with_the_runtime(runtime_facts: dict[str, dict], label: str) -> None:
    kind, shape, unit_draw = _static_probes()[label]
    fact = runtime_facts[label]
    expected = _runtime_kind(fact)
    assert kind is expected, f"{label}: model says {kind}, cuPyNumeric 26.6.1 gives {fact}"
    if expected is Kind.DEVICE_SCALAR:
        # CPN404 relies on telling a one-element draw (shape (1,)) from a 0-d value
        assert unit_draw == (fact["shape"] == [1]), f"{label}: model unit draw {unit_draw}, runtime {fact}"
    if expected is Kind.DEVICE and shape is not None:
        assert list(shape) == fact["shape"], f"{label}: model shape {shape}, runtime {fact['shape']}"
