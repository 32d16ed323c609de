"""benchmarks.doctor_trial: Doctor as judge over a folder of programs (issue 31).

The first group judges canned runs (no oracle); the ``oracle`` test runs the
harness on two tiny programs under the real cuPyNumeric.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import doctor_trial as dt
from cpn_lint import oracle

from . import oracle_support as support

ELEMENT_LOOP = """\
import numpy as np
a = np.arange(30.0)
for i in range(30):
    x = a[i]
    a[i] = x + 1.0
total = float(a.sum())
for step in range(3):
    err = float(a.max())
print(total, err)
"""

OLD_NAME = """\
import numpy as np
x = np.linspace(0.0, 1.0, 11)
area = np.trapz(x * x, x)
print(area)
"""

ITEM_OPS = "multiple scalar item accesses repeated on cuPyNumeric array"
FLOAT_SEEN = "Python built-in float used with cuPyNumeric array; prefer the cuPyNumeric reduction"
GATHER = "entire cuPyNumeric array is being gathered into one memory, ..."


def _entry(path: Path, line: int, description: str) -> dict:
    return {"filename": str(path), "lineno": line, "traceback": "", "source": "x", "description": description,
            "reference": None}


def _run(path: Path, entries: list[dict], returncode: int = 0, stop: dict | None = None,
         stderr: str = "", timed_out: bool = False) -> oracle.OracleRun:
    return oracle.OracleRun(str(path), returncode, entries, stderr, 1.0, timed_out, stop)


def test_doctors_findings_are_counted_per_check_and_matched_by_reconcile(tmp_path: Path) -> None:
    program = tmp_path / "sub" / "loop.py"
    program.parent.mkdir()
    program.write_text(ELEMENT_LOOP)
    entries = [_entry(program, 4, ITEM_OPS), _entry(program, 5, ITEM_OPS),  # in the CPN101 loop of line 3
               _entry(program, 6, FLOAT_SEEN),  # after every loop: set aside
               _entry(program, 8, FLOAT_SEEN),  # in a time-step loop cpn-lint does not flag
               _entry(program, 2, GATHER),  # no CPN code: out of scope
               _entry(tmp_path / "sub" / "helper.py", 3, ITEM_OPS)]  # another file of the folder
    report = dt.assess(program, tmp_path, _run(program, entries))
    assert report.program == "sub/loop.py" and report.status == dt.FINISHED and report.elsewhere == 1
    assert report.static.get("CPN101") == 1
    found = {(d.line, d.check): (d.in_scope, d.set_aside, d.predicted_by) for d in report.diagnostics}
    assert found[(4, "RepeatedItemOps")] == (True, False, ["CPN101:3"])
    assert found[(5, "RepeatedItemOps")] == (True, False, ["CPN101:3"])
    assert found[(6, "BuiltinReductionCheck")] == (True, True, [])
    assert found[(2, "ArrayGatherCheck")] == (False, False, [])
    summary = dt.summarise(tmp_path, 90.0, [report], ["broken.py"], ["nb.ipynb"])
    checks = summary["checks"]
    assert checks["RepeatedItemOps"] == {"diagnostics": 2, "in_scope": 2, "set_aside": 0, "predicted": 2}
    assert checks["ArrayGatherCheck"] == {"diagnostics": 1, "in_scope": 0, "set_aside": 0, "predicted": 0}
    builtin = checks["BuiltinReductionCheck"]
    assert (builtin["diagnostics"], builtin["set_aside"]) == (2, 1)
    assert builtin["predicted"] == int(found[(8, "BuiltinReductionCheck")][2] != [])
    text = dt.markdown(summary)
    assert "| RepeatedItemOps | CPN101 | 2 | 2 | 2 | 100% | 0 |" in text
    assert "1 notebook(s) left out (notebooks are not run in this version)" in text
    json.dumps(summary)  # everything --json writes is JSON


def test_a_failure_is_classified_and_named_by_cpn401(tmp_path: Path) -> None:
    program = tmp_path / "old.py"
    program.write_text(OLD_NAME)
    stop = {"error": "AttributeError", "message": "module 'cupynumeric' has no attribute 'trapz'",
            "filename": str(program), "line": 3}
    report = dt.assess(program, tmp_path, _run(program, [], returncode=1, stop=stop))
    assert report.status == dt.FAILED and report.failure is not None
    assert (report.failure.exception, report.failure.line, report.failure.named) == ("AttributeError", 3, True)
    assert report.failure.finding.startswith("CPN401:3 ")
    summary = dt.summarise(tmp_path, 90.0, [report], [], [])
    assert report.failure.environment is False
    assert "| old.py | AttributeError | 3 | yes |  | CPN401:3 " in dt.markdown(summary)


@pytest.mark.parametrize(("error", "message", "environment"), [
    ("ModuleNotFoundError", "No module named 'pandas'", True),
    ("ModuleNotFoundError", "No module named 'utils.plot'", True),
    ("ModuleNotFoundError", "No module named 'cupynumeric.polynomial'", False),  # the program's numpy.polynomial
    ("FileNotFoundError", "[Errno 2] No such file or directory: 'data.csv'", True),
    ("ImportError", "cannot import name 'trapz' from 'cupynumeric'", False),
    ("NotImplementedError", "", False),
])
def test_failures_the_machine_causes_are_told_apart(error: str, message: str, environment: bool) -> None:
    assert dt.is_environment(error, message) is environment


def test_the_failing_line_is_the_last_frame_in_the_program(tmp_path: Path) -> None:
    program = tmp_path / "main.py"
    program.write_text("import helper\nhelper.go()\n")
    stderr = (f'Traceback (most recent call last):\n  File "{program}", line 2, in <module>\n    helper.go()\n'
              f'  File "{tmp_path / "helper.py"}", line 5, in go\n    raise ValueError\nValueError\n')
    stop = {"error": "ValueError", "message": "", "filename": str(tmp_path / "helper.py"), "line": 5}
    report = dt.assess(program, tmp_path, _run(program, [], returncode=1, stop=stop, stderr=stderr))
    assert report.failure is not None and (report.failure.line, report.failure.named) == (2, False)


@pytest.mark.parametrize(("returncode", "stop", "timed_out", "status"), [
    (-9, None, True, dt.TIMED_OUT),
    (1, {"error": "TimeLimit"}, False, dt.TIMED_OUT),  # stopped by the harness's limit, Doctor's report written
    (1, {"error": "EOFError"}, False, dt.NEEDS_STDIN),
    (1, {"error": "SystemExit"}, False, dt.EXITED),
    (-11, None, False, dt.CRASHED),
    (1, {"error": "KeyError"}, False, dt.FAILED),
])
def test_how_a_run_ended(returncode: int, stop: dict | None, timed_out: bool, status: str) -> None:
    assert dt.status_of(_run(Path("p.py"), [], returncode, stop, timed_out=timed_out)) == status


def test_a_timed_out_run_still_counts_what_doctor_wrote(tmp_path: Path) -> None:
    program = tmp_path / "loop.py"
    program.write_text(ELEMENT_LOOP)
    report = dt.assess(program, tmp_path, _run(program, [_entry(program, 4, ITEM_OPS)], -9, timed_out=True))
    assert report.status == dt.TIMED_OUT and report.failure is None
    assert [d.predicted_by for d in report.diagnostics] == [["CPN101:3"]]


def test_discovery_skips_what_does_not_parse_and_lists_notebooks(tmp_path: Path) -> None:
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "deep" / "er" / "ok.py").write_text("x = 1\n")
    (tmp_path / "broken.py").write_text("def (:\n")
    (tmp_path / "nb.ipynb").write_text("{}")
    programs, unparsable, notebooks = dt.discover(tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in programs] == ["deep/er/ok.py"]
    assert (unparsable, notebooks) == (["broken.py"], ["nb.ipynb"])


def test_the_command_refuses_parallel_jobs(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        dt.main([str(tmp_path), "--jobs", "2"])


def test_the_agg_backend_is_forced_for_the_child_and_then_restored(monkeypatch) -> None:
    monkeypatch.setenv("MPLBACKEND", "TkAgg")
    with dt._agg_backend():
        import os

        assert os.environ["MPLBACKEND"] == "Agg"
    assert os.environ["MPLBACKEND"] == "TkAgg"


# -- with the oracle environment -------------------------------------------------------


@pytest.fixture(scope="module")
def venv() -> Path:
    return support.require_oracle_venv()


@pytest.mark.oracle
def test_the_harness_on_two_tiny_programs(venv: Path, tmp_path: Path) -> None:
    (tmp_path / "loop.py").write_text(ELEMENT_LOOP)
    (tmp_path / "old.py").write_text(OLD_NAME)
    summary = dt.trial(tmp_path, timeout=90, venv=venv, progress=False)
    assert summary["programs"] == 2 and summary["status"] == {dt.FINISHED: 1, dt.FAILED: 1}
    item_ops = summary["checks"]["RepeatedItemOps"]
    assert item_ops["in_scope"] >= 1 and item_ops["predicted"] == item_ops["in_scope"]
    [failure] = summary["failures"]
    assert (failure["program"], failure["exception"], failure["line"], failure["named"], failure["environment"]) == (
        "old.py", "AttributeError", 3, True, False)
    assert failure["finding"].startswith("CPN401:3 ")
    # float() after every loop is set aside; the one in the 3-pass loop (line 8) is not predicted today
    assert summary["checks"]["BuiltinReductionCheck"] == {"diagnostics": 2, "in_scope": 1, "set_aside": 1,
                                                          "predicted": 0}
    assert [m["example"] for m in summary["misses"]] == ["loop.py:8"]
