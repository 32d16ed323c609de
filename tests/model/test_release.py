"""A model nobody keeps is freed by reference counting, not left for the
cyclic garbage collector (which, in a flake8 run, would trace every table
entry of every file's model)."""

from __future__ import annotations

import ast
import gc
import weakref

import pytest

from cpn_lint import engine
from cpn_lint.engine import LintOptions, analyze_source
from cpn_lint.model import FileModel

from ..conftest import ROOT

PROGRAM = (ROOT / "tests" / "data" / "determinism" / "channel.py").read_bytes()


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[weakref.ref]:
    refs: list[weakref.ref] = []

    class Recorded(FileModel):
        def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
            super().__init__(*args, **kwargs)
            refs.append(weakref.ref(self))

    monkeypatch.setattr(engine, "FileModel", Recorded)
    return refs


def test_an_unkept_model_is_freed_without_the_collector(made: list[weakref.ref]) -> None:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        result = analyze_source(PROGRAM, "channel.py", LintOptions(assessment=True))
        assert result.findings and result.model is None
        assert len(made) == 1 and made[0]() is None
    finally:
        if was_enabled:
            gc.enable()


def test_a_kept_model_still_answers(made: list[weakref.ref]) -> None:
    result = analyze_source(PROGRAM, "channel.py", LintOptions(assessment=True), keep_model=True)
    model = result.model
    assert model is not None and made[0]() is model
    assert model.loops and model.scopes
    calls = model.nodes(ast.Call)
    assert calls and any(model.call_api(call) == "zeros" for call in calls)
