"""cpn-verdict --doctor: a cuPyNumeric Doctor JSON report merged into the assessment.

The reports below have the shape Doctor 26.x writes with
CUPYNUMERIC_DOCTOR_FORMAT=json (a list of {filename, lineno, source,
description, reference, traceback}); the descriptions carry the fixed wording
cpn_lint.doctor recognises each check by.
"""

from __future__ import annotations

import json

import pytest

from cpn_lint.verdict import command
from cpn_lint.verdict.collect import Unit
from cpn_lint.verdict.report import unit_for_path
from cpn_lint.engine import FileResult

pytest.importorskip("cpn_lint.doctor")

PROGRAM = """\
import numpy as np

a = np.arange(100.0)
for i in range(len(a)):
    a[i] = a[i] * 2.0 + 1.0
f = np.vectorize(lambda v: v + 1)
total = a.sum()
picked = a[[1, 5, 7]]
"""


def _entry(path, line, source, description):
    return {"filename": str(path), "lineno": line, "source": source, "description": description,
            "reference": "https://docs.nvidia.com/cupynumeric/latest/user/doctor.html", "traceback": ""}


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "main.py").write_text(PROGRAM)
    return tmp_path


def _run(capsys, *args):
    status = command.main(["--isolated", "--elements", "40M", *args])  # the literal 100 would fail Gate 2
    out, err = capsys.readouterr()
    return status, out, err


def test_confirmed_and_runtime_only_findings(project, capsys):
    report = [
        _entry(project / "main.py", 5, "a[i] = a[i] * 2.0 + 1.0",
               "scalar item accesses repeated in a loop; vectorize the loop"),
        _entry(project / "main.py", 8, "picked = a[[1, 5, 7]]", "use of advanced indexing can be slow"),
    ]
    (project / "doctor-report.json").write_text(json.dumps(report))
    status, out, err = _run(capsys, "main.py", "--doctor", "doctor-report.json")
    assert status == 0, err
    assert "`main.py:4` (confirmed at runtime by Doctor)" in out
    blocks = out.split("## 3. What blocks")[1].split("## 4.")[0]
    assert "Seen only at runtime by cuPyNumeric Doctor" in blocks and "`main.py:8`" in blocks
    steps = out.split("## 8. Recommended next steps")[1]
    assert steps.index("Start with what Doctor confirmed") < steps.index("Apply RR-loop")
    assert "Look at what only Doctor saw" in steps
    assert "a cuPyNumeric Doctor report was supplied" in out


def test_runtime_only_findings_with_a_code_count_toward_the_verdict(project, capsys):
    before = _run(capsys, "main.py", "--format", "json")[1]
    assert json.loads(before)["verdict"] == "LIGHT REFACTOR"  # CPN101, CPN102
    report = [_entry("/elsewhere/checkout/main.py", 7, "total = sum(a)", "Python built-in sum used with cuPyNumeric array")]
    (project / "doctor-report.json").write_text(json.dumps(report))
    status, out, _ = _run(capsys, "main.py", "--doctor", "doctor-report.json", "--format", "json")
    document = json.loads(out)
    runtime = document["sections"]["what_blocks"]["runtime_only"]
    assert [(i["code"], i["location"]["citation"], i["source"]) for i in runtime] == [("CPN110", "main.py:7", "doctor")]
    assert document["verdict"] == "SIGNIFICANT REFACTOR"  # three distinct BLOCKS codes now
    assert document["doctor"]["supplied"] is True


@pytest.mark.parametrize("text, reason", [
    ("{not json", "not JSON"),
    ('{"findings": []}', "expected the JSON list"),
    ('[{"lineno": 3}]', "lacks filename"),
    ("", "empty file"),
])
def test_malformed_or_foreign_doctor_reports_are_usage_errors(project, capsys, text, reason):
    (project / "doctor-report.json").write_text(text)
    status, out, err = _run(capsys, "main.py", "--doctor", "doctor-report.json")
    assert status == 2 and out == "" and reason in err and err.count("\n") == 1


def test_missing_doctor_report(project, capsys):
    status, _, err = _run(capsys, "main.py", "--doctor", "nope.json")
    assert status == 2 and "nope.json" in err


def test_runtime_paths_match_assessed_files_by_suffix():
    units = [Unit(p, FileResult(p)) for p in ("src/pkg/solver.py", "tests/solver.py", "src/pkg/io.py")]
    assert unit_for_path("/home/ci/build/src/pkg/solver.py", units).path == "src/pkg/solver.py"
    assert unit_for_path("/x/io.py", units).path == "src/pkg/io.py"
    assert unit_for_path("/x/other.py", units) is None
    assert unit_for_path("/x/solver.py", units) is None  # two candidates: no guess
