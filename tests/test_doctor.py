"""cpn_lint.doctor: reading Doctor's JSON, mapping checks to codes, reconciling.

The captured reports under tests/data/doctor/ are what cuPyNumeric Doctor
26.6.1 wrote for the programs beside them (paths from the capture machine,
kept as written); tests/test_oracle_differential.py checks they still are.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpn_lint.doctor import (
    DOCTOR_CHECKS,
    DoctorFinding,
    DoctorReportError,
    check_of,
    load_doctor_report,
    reconcile,
)
from cpn_lint.engine import FileResult, LintOptions, analyze_source
from cpn_lint.findings import Finding

DATA = Path(__file__).resolve().parent / "data" / "doctor"
SMOOTHING = DATA / "smoothing.py"
HALO = DATA / "halo_mpi.py"

# The issue's table, written out independently of the module under test.
EXPECTED_CODES = {
    "RepeatedItemOps": "CPN101",
    "RepeatedSliceAccessCheck": "CPN101",
    "IterCheck": "CPN103",
    "StackOpsCheck": "CPN203",
    "NonzeroCheck": "CPN204",
    "Mpi4pyCheck": "CPN108",
    "ArrayGatherCheck": None,
    "AdvancedIndexingCheck": None,
}


def _captured(program: Path) -> list[DoctorFinding]:
    return load_doctor_report(program.with_suffix(".json").read_text(), origin=program.name)


def _entry(filename: str, line: int, description: str, source: str = "") -> dict:
    return {"filename": filename, "lineno": line, "traceback": "", "source": source,
            "description": description, "reference": None}


def _report(*entries: dict) -> list[DoctorFinding]:
    return load_doctor_report(json.dumps(list(entries)))


def _builtin(*names: str) -> str:
    label = "built-in" if len(names) == 1 else "built-ins"
    return f"Python {label} {', '.join(names)} used with cuPyNumeric array; prefer: ..."


ITEM_OPS = "multiple scalar item accesses repeated on the same line"
ITER = "iterating over a cuPyNumeric array with __iter__ is slow; use vectorized operations instead"
MPI = "mpi4py is imported in this application; ..."


# -- reading real reports ---------------------------------------------------------


def test_the_captured_reports_cover_all_nine_checks() -> None:
    seen = {f.check for f in _captured(SMOOTHING) + _captured(HALO)}
    assert seen == set(DOCTOR_CHECKS) and len(DOCTOR_CHECKS) == 9


def test_captured_findings_keep_file_line_and_source() -> None:
    findings = _captured(SMOOTHING)
    first = findings[0]
    assert (Path(first.filename).name, first.line, first.check, first.code) == (
        "smoothing.py", 14, "RepeatedItemOps", "CPN101")
    assert first.source == "out[i] = (signal[i - 1] + signal[i]) / 2.0"
    raw = json.loads(SMOOTHING.with_suffix(".json").read_text())
    assert [(f.line, f.description) for f in findings] == [(e["lineno"], e["description"]) for e in raw]


@pytest.mark.parametrize("finding", _captured(SMOOTHING) + _captured(HALO),
                         ids=lambda f: f"{Path(f.filename).name}:{f.line}:{f.check}")
def test_captured_findings_map_as_the_issue_says(finding: DoctorFinding) -> None:
    if finding.check == "BuiltinReductionCheck":
        conversion = any(name in finding.description for name in ("float", " int", "bool"))
        assert finding.code == ("CPN104" if conversion else "CPN110")
    else:
        assert finding.code == EXPECTED_CODES[finding.check]


@pytest.mark.parametrize(("description", "source", "codes"), [
    (_builtin("sum"), "total = sum(a)", ["CPN110"]),
    (_builtin("max", "min"), "span = max(a) - min(a)", ["CPN110"]),
    (_builtin("float"), "e = float(err)", ["CPN104"]),
    (_builtin("int"), "k = int(a[i])", ["CPN104"]),
    (_builtin("bool"), "ok = bool(done)", ["CPN104"]),
    (_builtin("float", "sum"), "t = float(sum(a))", ["CPN104", "CPN110"]),  # one finding per code
    # max(0, x) compares two values and round(x) returns a Python number: conversions of a 0-d value
    (_builtin("max"), "V += [max(0, S - K)]", ["CPN104"]),
    (_builtin("round"), "k = round(x)", ["CPN104"]),
    # No built-in called on the line: Doctor listed names it found among the
    # frame's variables (``from pylab import *``); what it saw is the if's bool()
    (_builtin("bool", "max", "min", "pow", "round"), "elif lat < 25 and lon > -97 :", ["CPN104"]),
    (_builtin("bool", "max", "min", "pow", "round"), "f.write(str(lat) + ','", ["CPN104"]),  # a fragment
    (_builtin("sum"), "", ["CPN110"]),  # no source quoted: the description decides
])
def test_builtin_reductions_split_conversions_from_iteration(description: str, source: str, codes: list[str]) -> None:
    findings = _report(_entry("p.py", 3, description, source))
    assert [f.code for f in findings] == codes
    assert {f.check for f in findings} == {"BuiltinReductionCheck"}


def test_an_unknown_check_is_kept_without_a_code() -> None:
    [finding] = _report(_entry("p.py", 2, "a future check's advice"))
    assert (finding.check, finding.code) == ("unrecognized", None)


def test_a_check_named_by_the_report_wins_over_the_description() -> None:
    entry = _entry("p.py", 2, "wording of a later release") | {"check": "NonzeroCheck"}
    assert [(f.check, f.code) for f in _report(entry)] == [("NonzeroCheck", "CPN204")]


def test_check_names_come_from_the_descriptions() -> None:
    assert check_of(ITEM_OPS) == "RepeatedItemOps"
    assert check_of(ITER) == "IterCheck"
    assert check_of("  " + _builtin("sum") + "  ") == "BuiltinReductionCheck"
    assert check_of("Python built-in sums") == "unrecognized"


def test_an_empty_list_is_a_report_without_findings() -> None:
    assert load_doctor_report("[]\n") == []


def test_null_source_and_missing_optional_keys_are_accepted() -> None:
    [finding] = load_doctor_report('[{"filename": "p.py", "lineno": 4, "description": "use of nonzero", "source": null}]')
    assert finding.source == "" and finding.code == "CPN204"


# -- malformed and foreign input ----------------------------------------------------


@pytest.mark.parametrize(("text", "reason"), [
    ("", "empty file"),
    ("   \n", "empty file"),
    ("\n!!! cuPyNumeric Doctor reported issues !!!\n\n- issue: ...", "plain-text output"),
    ("filename,lineno,traceback,source,description,reference\np.py,3,,x,y,", "CSV output"),
    ("[{'filename': 'p.py'}]", "not JSON"),
    ('{"version": "2.1.0", "runs": []}', "found an object (keys: runs, version)"),
    ('{"files": {}}', "found an object (keys: files)"),
    ('"doctor"', "found the string 'doctor'"),
    ("42", "found the number 42"),
    ("null", "found null"),
    ('[["p.py", 3, "x"]]', "entry 1 is a list"),
    ('[{"filename": "p.py", "lineno": 3}]', "entry 1 lacks description"),
    ('[{"path": "p.py", "line": 3, "message": "x"}]', "lacks filename, lineno, description"),
    ('[{"filename": "p.py", "lineno": "3", "description": "x"}]', "lineno must be a line number, found the string '3'"),
    ('[{"filename": "p.py", "lineno": true, "description": "x"}]', "lineno must be a line number, found a boolean"),
    ('[{"filename": "p.py", "lineno": 0, "description": "x"}]', "lineno must be a line number"),
    ('[{"filename": "p.py", "lineno": 2.5, "description": "x"}]', "lineno must be a line number"),
    ('[{"filename": "", "lineno": 3, "description": "x"}]', "filename must be a non-empty string"),
    ('[{"filename": 7, "lineno": 3, "description": "x"}]', "filename must be a non-empty string"),
    ('[{"filename": "p.py", "lineno": 3, "description": ["x"]}]', "description must be a string, found a list"),
    ('[{"filename": "p.py", "lineno": 3, "description": "x", "source": 1}]', "source must be a string or null"),
    ("[" * 100000 + "]" * 100000, "nested too deeply"),
])
def test_malformed_or_foreign_input_gets_a_one_line_reason(text: str, reason: str) -> None:
    with pytest.raises(DoctorReportError) as caught:
        load_doctor_report(text, origin="report.json")
    message = str(caught.value)
    assert message.startswith("report.json: ") and reason in message
    assert "\n" not in message


def test_the_error_names_the_bad_entry() -> None:
    good = _entry("p.py", 3, ITEM_OPS)
    with pytest.raises(DoctorReportError, match=r"entry 2 lacks lineno"):
        load_doctor_report(json.dumps([good, {"filename": "p.py", "description": "x"}]))


def test_report_errors_are_value_errors() -> None:
    assert issubclass(DoctorReportError, ValueError)


# -- reconciling with static findings --------------------------------------------


def _file(tmp_path: Path, name: str, source: str, *findings: tuple[str, int]) -> FileResult:
    """A linted file with hand-placed findings (the matching rules, not the rules' detection)."""
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source)
    return FileResult(str(path), [Finding(code, line, 0, "static") for code, line in findings])


def _confirmed(reconciliation) -> list[tuple[str, int, list[tuple[str, int]]]]:
    return [(f.code, f.line, [(d.check, d.line) for d in evidence]) for _, f, evidence in reconciliation.confirmed]


LOOP = """\
import numpy as np
a = np.ones(20)
for i in range(20):
    x = a[i]
    if x > 0:
        a[i] = x
after = a[3]
"""


def test_a_loop_finding_is_confirmed_anywhere_in_its_nest(tmp_path: Path) -> None:
    result = _file(tmp_path, "loop.py", LOOP, ("CPN101", 3))
    inside, nested, outside = (_report(_entry(result.filename, n, ITEM_OPS))[0] for n in (4, 6, 7))
    rec = reconcile([result], [inside, nested, outside])
    assert _confirmed(rec) == [("CPN101", 3, [("RepeatedItemOps", 4), ("RepeatedItemOps", 6)])]
    assert rec.runtime_only == [outside]


def test_codes_must_agree(tmp_path: Path) -> None:
    result = _file(tmp_path, "loop.py", LOOP, ("CPN102", 3), ("CPN204", 4))
    doctor = _report(_entry(result.filename, 4, ITEM_OPS))
    rec = reconcile([result], doctor)
    assert rec.confirmed == [] and rec.runtime_only == doctor


MULTILINE = """\
import numpy as np
a = np.ones(20)
total = (
    1.0
    + sum(
        a
    )
)
if sum(a) > 0:
    print(max(a))
"""


def test_a_simple_statement_covers_all_its_lines(tmp_path: Path) -> None:
    result = _file(tmp_path, "m.py", MULTILINE, ("CPN110", 5))
    doctor = _report(_entry(result.filename, 6, ITER), _entry(result.filename, 3, ITER))
    assert _confirmed(reconcile([result], doctor)) == [("CPN110", 5, [("IterCheck", 6), ("IterCheck", 3)])]


def test_a_non_loop_compound_statement_covers_only_its_header(tmp_path: Path) -> None:
    result = _file(tmp_path, "m.py", MULTILINE, ("CPN110", 9))
    header, body = _report(_entry(result.filename, 9, _builtin("sum"), "if sum(a) > 0:"),
                           _entry(result.filename, 10, _builtin("max"), "print(max(a))"))
    rec = reconcile([result], [header, body])
    assert _confirmed(rec) == [("CPN110", 9, [("BuiltinReductionCheck", 9)])]
    assert rec.runtime_only == [body]


ITERATION = """\
import numpy as np
a = np.ones(20)
b = np.zeros(20)
for value in reversed(a):
    b[3] = value
for item in a:
    b[4] = item
"""


def test_builtin_iteration_side_effects_are_confirmed_only_on_the_builtin_statement(tmp_path: Path) -> None:
    result = _file(tmp_path, "it.py", ITERATION, ("CPN110", 4))
    header_iter, header_items, body_items = _report(
        _entry(result.filename, 4, ITER), _entry(result.filename, 4, ITEM_OPS), _entry(result.filename, 5, ITEM_OPS))
    rec = reconcile([result], [header_iter, header_items, body_items])
    assert _confirmed(rec) == [("CPN110", 4, [("IterCheck", 4), ("RepeatedItemOps", 4)])]
    assert rec.runtime_only == [body_items]


def test_a_loop_over_an_array_explains_item_accesses_only_in_its_header(tmp_path: Path) -> None:
    result = _file(tmp_path, "it.py", ITERATION, ("CPN103", 6))
    header_iter, header_items, body_items = _report(
        _entry(result.filename, 6, ITER), _entry(result.filename, 6, ITEM_OPS), _entry(result.filename, 7, ITEM_OPS))
    rec = reconcile([result], [header_iter, header_items, body_items])
    assert _confirmed(rec) == [("CPN103", 6, [("IterCheck", 6), ("RepeatedItemOps", 6)])]
    assert rec.runtime_only == [body_items]


def test_doctors_own_code_is_preferred_over_an_explaining_one(tmp_path: Path) -> None:
    source = "import numpy as np\na = np.ones(20)\nfor i in range(20): s = sum(a[i:i + 2]) + a[i]\n"
    result = _file(tmp_path, "both.py", source, ("CPN101", 3), ("CPN110", 3))
    rec = reconcile([result], _report(_entry(result.filename, 3, ITEM_OPS)))
    assert _confirmed(rec) == [("CPN101", 3, [("RepeatedItemOps", 3)])]


def test_a_recurrence_reported_as_out_of_scope_confirms_the_element_accesses(tmp_path: Path) -> None:
    source = "import numpy as np\ny = np.ones(20)\nfor n in range(1, 20):\n    y[n] = 0.5 * y[n - 1]\n"
    result = _file(tmp_path, "ema.py", source, ("CPN410", 3))
    assert _confirmed(reconcile([result], _report(_entry(result.filename, 4, ITEM_OPS)))) == [
        ("CPN410", 3, [("RepeatedItemOps", 4)])]


def test_mpi4py_is_confirmed_by_the_import_wherever_doctor_noticed_it(tmp_path: Path) -> None:
    comm = _file(tmp_path, "comm.py", "from mpi4py import MPI\nimport numpy as np\n", ("CPN108", 1))
    main = _file(tmp_path, "main.py", "import numpy as np\nimport comm\nu = np.zeros(4)\n")
    rec = reconcile([comm, main], _report(_entry(main.filename, 3, MPI)))
    assert [(Path(path).name, f.code, f.line) for path, f, _ in rec.confirmed] == [("comm.py", "CPN108", 1)]
    local = _file(tmp_path, "both.py", "from mpi4py import MPI\nimport numpy as np\nu = np.zeros(4)\n", ("CPN108", 1))
    rec = reconcile([comm, local], _report(_entry(local.filename, 3, MPI)))
    assert [Path(path).name for path, _, _ in rec.confirmed] == ["both.py"]


def test_unmapped_checks_are_runtime_only_even_beside_a_static_finding(tmp_path: Path) -> None:
    result = _file(tmp_path, "loop.py", LOOP, ("CPN101", 3))
    gather = _report(_entry(result.filename, 4, "entire cuPyNumeric array is being gathered into one memory, ..."))
    rec = reconcile([result], gather)
    assert rec.confirmed == [] and [(d.check, d.code) for d in rec.runtime_only] == [("ArrayGatherCheck", None)]


def test_paths_match_across_checkouts_by_the_longest_unique_suffix(tmp_path: Path) -> None:
    one = _file(tmp_path, "pkg1/util.py", LOOP, ("CPN101", 3))
    two = _file(tmp_path, "pkg2/util.py", LOOP, ("CPN101", 3))
    elsewhere = _report(_entry("/other/machine/pkg2/util.py", 4, ITEM_OPS))
    rec = reconcile([one, two], elsewhere)
    assert [path for path, _, _ in rec.confirmed] == [two.filename]
    assert rec.confirmed[0][2][0].filename == two.filename  # cited as linted
    ambiguous = _report(_entry("/other/machine/util.py", 4, ITEM_OPS))
    rec = reconcile([one, two], ambiguous)
    assert rec.confirmed == [] and rec.runtime_only[0].filename == "/other/machine/util.py"


def test_a_relative_linted_path_matches_doctors_absolute_one(tmp_path: Path, monkeypatch) -> None:
    result = _file(tmp_path, "loop.py", LOOP, ("CPN101", 3))
    monkeypatch.chdir(tmp_path)
    relative = FileResult("loop.py", result.findings)
    rec = reconcile([relative], _report(_entry(str(tmp_path / "loop.py"), 5, ITEM_OPS)))
    assert [path for path, _, _ in rec.confirmed] == ["loop.py"]


def test_a_file_that_cannot_be_read_again_matches_on_the_line_only(tmp_path: Path) -> None:
    result = _file(tmp_path, "gone.py", LOOP, ("CPN101", 3))
    Path(result.filename).unlink()
    rec = reconcile([result], _report(_entry(result.filename, 3, ITEM_OPS), _entry(result.filename, 4, ITEM_OPS)))
    assert _confirmed(rec) == [("CPN101", 3, [("RepeatedItemOps", 3)])]
    assert [d.line for d in rec.runtime_only] == [4]


def test_the_model_is_used_when_the_result_keeps_it(tmp_path: Path) -> None:
    path = tmp_path / "prog.py"
    path.write_text(LOOP)
    result = analyze_source(LOOP, str(path), LintOptions(), keep_model=True)
    path.unlink()  # the tree comes from the model, not the disk
    assert ("CPN101", 3) in [(f.code, f.line) for f in result.findings]
    assert _confirmed(reconcile([result], _report(_entry(str(path), 6, ITEM_OPS)))) == [
        ("CPN101", 3, [("RepeatedItemOps", 6)])]


def test_nothing_to_reconcile() -> None:
    rec = reconcile([], [])
    assert rec.confirmed == [] and rec.runtime_only == []


# -- the real captured run, end to end ----------------------------------------------


def test_real_report_on_the_smoothing_program() -> None:
    result = analyze_source(SMOOTHING.read_bytes(), str(SMOOTHING), LintOptions(), keep_model=True)
    rec = reconcile([result], _captured(SMOOTHING))
    confirmed = {(f.code, f.line): sorted((d.check, d.line) for d in e) for _, f, e in rec.confirmed}
    assert confirmed[("CPN101", 13)] == [("RepeatedItemOps", 14)]
    assert confirmed[("CPN110", 66)] == [("BuiltinReductionCheck", 66), ("IterCheck", 66), ("RepeatedItemOps", 66)]
    # the helper `scaled` runs once per element of the loop at line 53 that calls it
    assert confirmed[("CPN101", 53)] == [("RepeatedItemOps", 48)]
    runtime_only = {(d.check, d.line) for d in rec.runtime_only}
    assert {("ArrayGatherCheck", 68), ("AdvancedIndexingCheck", 35)} <= runtime_only
    # float() once after the loops: a boundary conversion, not R104 (issue 12)
    assert [(d.check, d.line) for d in rec.boundary] == [("BuiltinReductionCheck", 68)]
    assert all(d.filename == str(SMOOTHING) for d in rec.runtime_only)  # captured elsewhere, cited here


def test_real_report_on_the_mpi_program() -> None:
    result = analyze_source(HALO.read_bytes(), str(HALO), LintOptions(), keep_model=True)
    rec = reconcile([result], _captured(HALO))
    assert [(f.code, f.line, [d.check for d in e]) for _, f, e in rec.confirmed] == [("CPN108", 8, ["Mpi4pyCheck"])]
    assert [(d.check, d.line) for d in rec.runtime_only] == [("RepeatedSliceAccessCheck", 17)]


# ------------------------------------------------------- issue 12: faithful reading
def _entry(filename: str, line: int, description: str, source: str = "x") -> dict:
    return {"filename": filename, "lineno": line, "description": description, "source": source}


ITEM_OPS = "multiple scalar item accesses repeated on cuPyNumeric array"
FLOAT_SEEN = "Python built-in float used with cuPyNumeric array; prefer the cuPyNumeric reduction"


def test_library_frames_and_repeated_rows_are_dropped() -> None:
    report = json.dumps([
        _entry("/venv/lib/python3.11/site-packages/matplotlib/cbook.py", 1830, ITEM_OPS),
        _entry("/usr/lib/python3/dist-packages/numpy/lib/_function_base_impl.py", 403, ITEM_OPS),
        _entry("/usr/lib/python3.11/runpy.py", 88, ITEM_OPS),
        _entry("<frozen runpy>", 88, ITEM_OPS),
        _entry("/home/me/sim/wave.py", 29, ITEM_OPS, "u[0] = 0.0"),
        _entry("/home/me/sim/wave.py", 29, ITEM_OPS, "u[0] = 0.0"),  # the same line, another call stack
        _entry("/home/me/sim/wave.py", 30, ITEM_OPS, "u[-1] = 0.0"),
    ])
    assert [(d.filename, d.line) for d in load_doctor_report(report)] == [
        ("/home/me/sim/wave.py", 29), ("/home/me/sim/wave.py", 30)]
    assert len(load_doctor_report(report, keep_library=True)) == 6


@pytest.mark.parametrize(
    ("filename", "library"),
    [
        ("/venv/lib/python3.11/site-packages/scipy/ndimage/_filters.py", True),
        ("C:\\Python311\\Lib\\site-packages\\numpy\\core.py", True),
        ("/usr/lib/python3.11/json/decoder.py", True),
        ("/root/.pyenv/versions/3.11.7/lib/python3.11/runpy.py", True),
        ("<string>", True),
        ("/home/me/project/lib/solver.py", False),
        ("/home/me/python3.11/model.py", False),
        ("fixtures/rules/cpn101_element_loop.py", False),
    ],
)
def test_library_files(filename: str, library: bool) -> None:
    from cpn_lint.doctor import is_library_file

    assert is_library_file(filename) is library


def test_a_conversion_outside_every_loop_is_not_cpn104(tmp_path: Path) -> None:
    program = tmp_path / "p.py"
    program.write_text(
        "import numpy as np\n"
        "a = np.ones(8)\n"
        "for step in range(10):\n"
        "    a = a * 0.5\n"
        "    err = float(a.max())\n"
        "total = float(a.sum())\n"
        "values = [float(v) for v in a]\n"
    )
    result = analyze_source(program.read_bytes(), str(program), LintOptions(), keep_model=True)
    doctor = load_doctor_report(json.dumps([_entry(str(program), line, FLOAT_SEEN) for line in (5, 6, 7)]))
    rec = reconcile([result], doctor)
    assert [d.line for d in rec.boundary] == [6]
    assert {f.line for _, f, _ in rec.confirmed} | {d.line for d in rec.runtime_only} == {5, 7}


def test_a_loop_finding_is_credited_only_within_its_tight_nest(tmp_path: Path) -> None:
    program = tmp_path / "p.py"
    program.write_text(
        "import numpy as np\n"
        "def f(a):\n"
        "    for i in range(a.shape[0]):\n"
        "        for j in range(a.shape[1]):\n"
        "            a[i, j] = a[i, j] * 2.0\n"
        "    for i in range(a.shape[0]):\n"
        "        a[i, 0] = 1.0\n"
        "        b = a[i, :2] * 2.0\n"
        "        for k in range(3):\n"
        "            b = b + 1.0\n"
        "        a[0, i] = b[0]\n"
    )
    result = analyze_source(program.read_bytes(), str(program), LintOptions(), keep_model=True)
    assert [f.line for f in result.findings if f.code == "CPN101"] == [3, 6]
    doctor = load_doctor_report(json.dumps([_entry(str(program), line, ITEM_OPS) for line in (5, 7, 10)]))
    rec = reconcile([result], doctor)
    credited = {d.line: f.line for _, f, evidence in rec.confirmed for d in evidence}
    assert credited == {5: 3, 7: 6}  # through the tight nest; line 7 is in the i loop's own body
    assert [d.line for d in rec.runtime_only] == [10]  # in the k loop, not the flagged i loop's pattern
    from cpn_lint.doctor import _Unit

    unit = _Unit(result)
    assert unit.nest_headers(5) == {3, 4}
    assert unit.nest_headers(10) == {9}  # the k loop is one statement among several of the i loop
    assert unit.nest_headers(11) == {6}


def test_runtime_only_findings_name_their_check() -> None:
    from cpn_lint.doctor import DOCTOR_CHECKS, checks_seeing

    assert checks_seeing("CPN101") == ("RepeatedItemOps", "RepeatedSliceAccessCheck")
    assert checks_seeing("CPN104") == ("BuiltinReductionCheck", "RepeatedItemOps")
    assert checks_seeing("CPN206") == ()
    assert all(c.codes == () for c in DOCTOR_CHECKS.values() if c.name in ("ArrayGatherCheck", "AdvancedIndexingCheck"))


def test_a_bool_of_an_array_is_the_branch_cpn105_reports(tmp_path: Path) -> None:
    """Doctor names bool() where an if/while tests a device value: that is
    R105's sync, so CPN105 on the line confirms the conversion half of the
    entry; the iteration half (max, min) and a float() elsewhere are not it."""
    result = _file(tmp_path, "loop.py", LOOP, ("CPN105", 5))
    both = _report(_entry(result.filename, 5, _builtin("bool", "max"), "if bool(x) > max(a):"))
    floated = _report(_entry(result.filename, 5, _builtin("float"), "y = float(x)"))
    rec = reconcile([result], [*both, *floated])
    conversion = next(d for d in both if d.code == "CPN104")
    assert _confirmed(rec) == [("CPN105", 5, [("BuiltinReductionCheck", 5)])]
    assert rec.confirmed[0][2] == [conversion]
    assert {d.code for d in rec.runtime_only} == {"CPN110", "CPN104"} and floated[0] in rec.runtime_only


STEPS_WITH_A_BOUNDARY = """\
import numpy as np
p = np.zeros((400, 400))
rows = np.zeros((400, 400))
scale = np.ones(400)
for step in range(1000):
    p[1:-1, 1:-1] = 0.25 * (p[2:, 1:-1] + p[:-2, 1:-1] + p[1:-1, 2:] + p[1:-1, :-2])
    p[:, -1] = p[:, -2]
    scale[step % 400] = np.sum(p)
for i in range(400):
    rows[i, :] = rows[i, :] * scale[i]
"""


def test_a_boundary_row_each_time_step_is_set_aside_not_an_element_loop(tmp_path: Path) -> None:
    """Doctor counts a slice or an element touched on every pass; in a loop
    whose passes do whole-array work that is one task per step (R101's
    exception), set aside like a conversion at the boundary; in a loop over
    rows it stays Doctor's evidence to explain."""
    path = tmp_path / "cavity.py"
    path.write_text(STEPS_WITH_A_BOUNDARY)
    result = analyze_source(path.read_bytes(), str(path), LintOptions(), keep_model=True)
    slice_check = "repeated slice access on the same line (e.g. x[i,:] = ... in a loop); consider vectorizing instead"
    boundary, history, per_row = _report(_entry(str(path), 7, slice_check), _entry(str(path), 8, ITEM_OPS),
                                         _entry(str(path), 10, slice_check))
    rec = reconcile([result], [boundary, history, per_row])
    assert rec.per_step_accesses == [boundary, history]
    assert [(f.code, f.line) for _, f, evidence in rec.confirmed if per_row in evidence] == [("CPN101", 9)]


WHILE_AND_UNPACK = """\
import numpy as np
a, b = np.zeros((2, 8))
r = 1
while np.sqrt(a[0] ** 2 + int(r / 2)) <= 2 * r:
    r = r + 1
    x1, x2 = np.random.normal(size=2)
"""


def test_a_conversion_on_a_test_header_is_cpn105s_and_an_unpacking_outside_loops_is_set_aside(tmp_path: Path) -> None:
    """Doctor names int() on the while line (the line calls it), but the
    conversion it saw is the test's bool(): CPN105 on the header confirms it.
    An unpacking before every loop happens once; one inside the loop stays."""
    result = _file(tmp_path, "w.py", WHILE_AND_UNPACK, ("CPN105", 4))
    header = _report(_entry(result.filename, 4, _builtin("int"), "while np.sqrt(a[0] ** 2 + int(r / 2)) <= 2 * r:"))
    once = _report(_entry(result.filename, 2, ITER, "a, b = np.zeros((2, 8))"))
    inside = _report(_entry(result.filename, 6, ITER, "x1, x2 = np.random.normal(size=2)"))
    rec = reconcile([result], [*header, *once, *inside])
    assert _confirmed(rec) == [("CPN105", 4, [("BuiltinReductionCheck", 4)])]
    assert rec.boundary == once and rec.runtime_only == inside
