"""The report's "What breaks first": what stops or silently corrupts the
ported program, before any scaling question, met-first first (issue 32)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from cpn_lint.verdict import command

from .verdict_helpers import unwrapped

LIBRARY = textwrap.dedent(
    """\
    import numpy as np

    if hasattr(np, "trapz"):
        integrate = np.trapz          # guarded: cuPyNumeric never takes this branch
    try:
        legacy = np.trapz             # guarded: the AttributeError is caught
    except AttributeError:
        legacy = None
    grid = np.fromfunction(lambda i, j: i + j, (4, 4))   # runs on load


    def smooth(signal, window):
        tail = signal[:0:-1]          # no error: an empty array
        return np.convolve(np.ones(window) / window, signal, mode="valid")


    def run(x, steps):
        for _ in range(steps):
            x = np.interp(x, x, x)
        return x


    smoothed = smooth(np.linspace(0.0, 1.0, 100), 5)
    """
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lib.py").write_text(LIBRARY)
    return tmp_path


def _report(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    command.main(["lib.py", *args])
    return capsys.readouterr().out


def test_breaks_come_first_in_the_order_a_user_meets_them(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = json.loads(_report(capsys, "--format", "json"))
    found = document["sections"]["verdict"]["breaks_first"]["items"]
    assert [(b["line"], b["code"], b["when"]) for b in found] == [
        (9, "CPN401", "on load"),
        (19, "CPN401", "in a loop"),
        (14, "CPN404", "on the data path"),
        (13, "CPN106", "when its code runs"),
    ]
    silent = {b["line"]: b["silent"] for b in found}
    assert silent == {9: False, 19: False, 13: True, 14: False}
    assert found[3]["effect"] == "returns an empty array, without an error"


def test_the_markdown_section_agrees_with_the_json_report(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = json.loads(_report(capsys, "--format", "json"))
    breaks = document["sections"]["verdict"]["breaks_first"]
    text = unwrapped(_report(capsys))
    section = text.split("### What breaks first", 1)[1].split("###", 1)[0]
    assert breaks["summary"] in section
    assert "1 of them give wrong results without an error" in breaks["summary"]
    assert [line for line in section.splitlines() if line.startswith("- ")] == [
        line for line in section.splitlines() if line.startswith("- `lib.py:")]
    assert len([line for line in section.splitlines() if line.startswith("- ")]) == len(breaks["items"])
    # the guarded uses are not there
    assert "lib.py:4" not in section and "lib.py:6" not in section


def test_code_that_runs_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.py").write_text("import numpy as np\n\n\ndef scale(a):\n    return np.flip(a) * 2.0\n")
    command.main(["ok.py"])
    assert "Nothing found that stops the ported program" in unwrapped(capsys.readouterr().out)


def _breaks_of(source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
               capsys: pytest.CaptureFixture[str]) -> list[dict]:
    """The JSON report's breaks for one file holding ``source``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "prog.py").write_text(source)
    command.main(["prog.py", "--format", "json"])
    return json.loads(capsys.readouterr().out)["sections"]["verdict"]["breaks_first"]["items"]


def test_a_failed_import_is_the_one_break_for_its_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    found = _breaks_of("import numpy as np\nfrom numpy.polynomial.legendre import leggauss as nodes\n\n\n"
                       "def integrate(f, n):\n    x, w = nodes(n)\n    return np.sum(w * f(x))\n",
                       tmp_path, monkeypatch, capsys)
    # numpy.polynomial is missing as a whole: the from-import fails loading it (oracle: ModuleNotFoundError)
    assert [(b["line"], b["effect"], b["when"]) for b in found] == [(2, "raises ModuleNotFoundError", "on load")]


def test_a_missing_submodules_import_is_the_one_break_for_its_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    found = _breaks_of("import numpy as np\nimport numpy.ma as ma\n\n\n"
                       "def clean(x):\n    return ma.masked_invalid(np.asarray(x))\n", tmp_path, monkeypatch, capsys)
    assert [(b["line"], b["effect"], b["when"]) for b in found] == [(2, "raises ModuleNotFoundError", "on load")]


def test_a_guarded_submodule_import_is_no_break(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    found = _breaks_of("import numpy as np\ntry:\n    from numpy import ma\nexcept ImportError:\n    ma = None\n\n"
                       "x = np.ones(3)\n", tmp_path, monkeypatch, capsys)
    assert found == []


def test_a_scripts_main_block_breaks_when_run_not_on_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    found = _breaks_of("import numpy as np\n\ngrid = np.fromfunction(lambda i: i, (3,))\n\n"
                       "if __name__ == \"__main__\":\n    print(np.int(3))\n", tmp_path, monkeypatch, capsys)
    assert [(b["line"], b["when"]) for b in found] == [(3, "on load"), (6, "when run as a script")]


def test_a_set_of_array_items_breaks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    # 0-d items are unhashable under cuPyNumeric (tests/test_oracle_hashing.py); sum() only syncs
    found = _breaks_of("import numpy as np\n\n\ndef classes(labels):\n    labels = np.asarray(labels)\n"
                       "    total = sum(labels.ravel())\n    return set(labels.ravel()) - {0}, total\n",
                       tmp_path, monkeypatch, capsys)
    assert [(b["line"], b["code"], b["effect"]) for b in found] == [(7, "CPN110", "raises TypeError (unhashable items)")]
