"""The cpn-verdict command: inputs, configuration, output and exit statuses."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from cpn_lint.verdict import command
from cpn_lint.verdict.collect import Progress, discover, python_of_cell

from .conftest import ROOT
from .verdict_helpers import run_verdict, unwrapped

HEADINGS = [
    "## 1. Verdict", "## 2. What works", "## 3. What blocks", "## 4. What's fixable",
    "## 5. Compatibility / cost notes", "## 6. API support gaps", "## 7. Decision-framework summary",
    "## 8. Recommended next steps",
]

VECTORIZE = "import numpy as np\n\nf = np.vectorize(lambda v: v + 1)\n"
CLEAN = "import numpy as np\n\n\ndef scale(a):\n    return a * 2.0 + 1.0\n"


def verdict(capsys, *args: str) -> tuple[int, str, str]:
    """Run the command in process; (exit status, stdout, stderr)."""
    status = command.main(list(args))
    out, err = capsys.readouterr()
    return status, unwrapped(out) if out.startswith("#") else out, err


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no config file of the repo leaks in
    return tmp_path


def _notebook(cells) -> str:
    return json.dumps({"cells": [
        {"cell_type": kind, "metadata": {}, "source": src, **({"outputs": [], "execution_count": None} if kind == "code" else {})}
        for kind, src in cells
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


# ----------------------------------------------------------------- basics
def test_every_heading_is_printed_in_order_even_for_a_clean_file(project, capsys):
    (project / "clean.py").write_text(CLEAN)
    status, out, err = verdict(capsys, "clean.py")
    assert status == 0 and err == ""
    positions = [out.index(h) for h in HEADINGS]
    assert positions == sorted(positions)
    assert "**READY**" in out
    assert out.index("## Context") < out.index("## 1. Verdict")


def test_no_path_means_the_current_directory(project, capsys):
    (project / "v.py").write_text(VECTORIZE)
    status, out, _ = verdict(capsys)
    assert status == 0 and "`v.py:3`" in out


def test_context_states_defaults_and_given_values(project, capsys):
    (project / "clean.py").write_text(CLEAN)
    _, out, _ = verdict(capsys, "clean.py", "--elements", "80M", "--gpu", "A100")
    assert "| Hot-path array size | 80 million elements | command line |" in out
    assert "| GPUs | 1–4 | default |" in out
    assert "| Target GPU | A100 (compute capability 8.0) | command line |" in out


def test_python_dash_m_cpn_lint_verdict_is_the_same_command(tmp_path):
    (tmp_path / "v.py").write_text(VECTORIZE)
    proc = run_verdict("v.py", cwd=tmp_path)
    assert proc.returncode == 0 and "`v.py:3`" in proc.stdout and proc.stderr == ""


# ----------------------------------------------------------------- exit statuses
def test_exit_zero_whatever_the_verdict(project, capsys):
    (project / "v.py").write_text(VECTORIZE)
    assert verdict(capsys, "v.py", "--gpu", "P100")[0] == 0  # NOT RECOMMENDED, still 0


@pytest.mark.parametrize("fail_on, expected", [("LIGHT", 1), ("light", 1), ("SIGNIFICANT", 0), ("NOT-RECOMMENDED", 0)])
def test_fail_on_exits_one_at_or_beyond(project, capsys, fail_on, expected):
    (project / "v.py").write_text(VECTORIZE)  # one BLOCKS code: LIGHT REFACTOR
    assert verdict(capsys, "v.py", "--fail-on", fail_on)[0] == expected


def test_fail_on_not_recommended(project, capsys):
    (project / "v.py").write_text(VECTORIZE)
    assert verdict(capsys, "v.py", "--gpu", "K80", "--fail-on", "NOT-RECOMMENDED")[0] == 1


def test_usage_errors_exit_two_with_one_line(project, capsys):
    status, out, err = verdict(capsys, "--gpu", "Voodoo5")
    assert status == 2 and out == "" and err.count("\n") == 1 and "Voodoo5" in err
    status, _, err = verdict(capsys, "--elements", "lots")
    assert status == 2 and "lots" in err
    status, _, err = verdict(capsys, "x.py", "--from-flake8", "log.txt")
    assert status == 2 and "not both" in err


def test_a_bad_file_among_good_ones_is_reported_and_the_rest_assessed(project, capsys):
    (project / "good.py").write_text(VECTORIZE)
    (project / "broken.py").write_text("def f(:\n")
    status, out, err = verdict(capsys, ".")
    assert status == 2
    assert "broken.py: does not parse" in out and "the verdict rests on the files that could be read" in out
    assert "`good.py:3`" in out and "LIGHT REFACTOR" in out


def test_a_missing_path_is_a_usage_error(project, capsys):
    (project / "good.py").write_text(VECTORIZE)
    status, out, err = verdict(capsys, ".", "missing.py")
    assert status == 2 and out == "" and err.strip() == "cpn-verdict: missing.py: no such file or directory"


def test_unreadable_file_is_an_input_error(project, capsys, monkeypatch):
    (project / "secret.py").write_text(CLEAN)
    (project / "v.py").write_text(VECTORIZE)
    real = Path.read_bytes

    def read_bytes(self):
        if self.name == "secret.py":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)  # works as root too
    status, out, _ = verdict(capsys, ".")
    assert status == 2 and "secret.py: cannot be read (Permission denied)" in out and "`v.py:3`" in out


# ----------------------------------------------------------------- output
def test_output_writes_only_the_named_file(project, capsys):
    (project / "v.py").write_text(VECTORIZE)
    before = set(project.rglob("*"))
    status, out, err = verdict(capsys, "v.py", "--format", "json", "--output", "report.json")
    assert status == 0 and out == "" and err == ""
    assert set(project.rglob("*")) - before == {project / "report.json"}
    assert json.loads((project / "report.json").read_text())["verdict"] == "LIGHT REFACTOR"


def test_output_to_an_unwritable_place_is_a_usage_error(project, capsys):
    (project / "v.py").write_text(VECTORIZE)
    status, _, err = verdict(capsys, "v.py", "--output", str(project / "no" / "such" / "dir" / "r.md"))
    assert status == 2 and "cannot write" in err


def test_progress_only_on_a_terminal_and_for_many_files():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    quiet = io.StringIO()
    Progress(100, quiet)(1, 100)
    assert quiet.getvalue() == ""
    few = Tty()
    Progress(3, few)(1, 3)
    assert few.getvalue() == ""
    many = Tty()
    bar = Progress(100, many)
    bar(50, 100)
    bar.close()
    assert "50/100" in many.getvalue()


def test_no_progress_on_stderr_when_piped(project, capsys):
    for i in range(30):
        (project / f"m{i}.py").write_text(CLEAN)
    status, _, err = verdict(capsys, ".")
    assert status == 0 and err == ""


# ----------------------------------------------------------------- config
def test_pyproject_config_is_read_and_the_command_line_wins(project, capsys):
    (project / "pyproject.toml").write_text('[tool.cpn-lint]\nelements = "70M"\ngpus = 2\ngpu = "P100"\nformat = "json"\n')
    (project / "clean.py").write_text(CLEAN)
    status, out, _ = verdict(capsys, "clean.py")
    doc = json.loads(out)
    rows = {r["key"]: r for r in doc["context"]}
    assert rows["elements"]["value"] == "70 million elements"
    assert rows["elements"]["source"] == "pyproject.toml [tool.cpn-lint]"
    assert doc["verdict"] == "NOT RECOMMENDED"  # P100 from the config fails Gate 1
    status, out, _ = verdict(capsys, "clean.py", "--compute-capability", "9.0", "--gpus", "8")
    doc = json.loads(out)
    rows = {r["key"]: r for r in doc["context"]}
    assert doc["verdict"] == "READY"
    assert rows["gpus"]["value"] == "8" and rows["gpus"]["source"] == "command line"


def test_setup_cfg_config_is_read(project, capsys):
    (project / "setup.cfg").write_text("[cpn-lint]\nnodes = 3\npattern = stencil\nfail-on = light\n")
    (project / "v.py").write_text(VECTORIZE)
    status, out, _ = verdict(capsys, "v.py")
    assert status == 1  # fail-on from the config
    assert "| Nodes | 3 | setup.cfg [cpn-lint] |" in out


def test_pyproject_is_preferred_to_setup_cfg(project, capsys):
    (project / "pyproject.toml").write_text("[tool.cpn-lint]\nnodes = 2\n")
    (project / "setup.cfg").write_text("[cpn-lint]\nnodes = 5\n")
    (project / "clean.py").write_text(CLEAN)
    _, out, _ = verdict(capsys, "clean.py")
    assert "| Nodes | 2 | pyproject.toml [tool.cpn-lint] |" in out


def test_bad_config_values_are_usage_errors(project, capsys):
    (project / "pyproject.toml").write_text("[tool.cpn-lint]\ngpus = 0\n")
    status, out, err = verdict(capsys, ".")
    assert status == 2 and out == "" and "pyproject.toml" in err and "gpus" in err


def test_unknown_config_keys_warn_and_isolated_ignores_config(project, capsys):
    (project / "pyproject.toml").write_text("[tool.cpn-lint]\ngpu-count = 2\nnodes = 4\n")
    (project / "clean.py").write_text(CLEAN)
    status, out, err = verdict(capsys, "clean.py")
    assert status == 0 and "gpu-count" in err
    _, out, _ = verdict(capsys, "clean.py", "--isolated")
    assert "| Nodes | 1 | default |" in out


def test_explicit_config_file(project, capsys):
    (project / "team.toml").write_text("[tool.cpn-lint]\nnodes = 6\n")
    (project / "clean.py").write_text(CLEAN)
    _, out, _ = verdict(capsys, "clean.py", "--config", "team.toml")
    assert "| Nodes | 6 | team.toml [tool.cpn-lint] |" in out
    assert verdict(capsys, "clean.py", "--config", "nope.toml")[0] == 2


# ----------------------------------------------------------------- discovery
def test_hidden_venv_and_build_folders_are_skipped(project):
    for folder in (".git", "venv", "build", "pkg.egg-info", "custom_env", "src"):
        (project / folder).mkdir()
        (project / folder / "m.py").write_text(CLEAN)
    (project / "custom_env" / "pyvenv.cfg").write_text("home = /usr\n")
    files, errors = discover(["."])
    assert [Path(f).as_posix() for f in files] == ["src/m.py"] and errors == []


def test_a_symlink_loop_ends_the_descent(project):
    (project / "pkg").mkdir()
    (project / "pkg" / "m.py").write_text(CLEAN)
    try:
        (project / "pkg" / "again").symlink_to(project, target_is_directory=True)
    except OSError:
        pytest.skip("no symlinks here")
    files, errors = discover(["."])
    assert len(files) == 1 and errors == []


def test_paths_with_spaces_and_non_ascii_names(project, capsys):
    (project / "my dir").mkdir()
    (project / "my dir" / "héllo wörld.py").write_text(VECTORIZE, encoding="utf-8")
    status, out, _ = verdict(capsys, "my dir")
    assert status == 0 and "héllo wörld.py:3" in out


# ----------------------------------------------------------------- notebooks
def test_notebook_findings_are_cited_by_cell_and_line(project, capsys):
    nb = _notebook([
        ("markdown", "# title"),
        ("code", "%matplotlib inline\nimport numpy as np\n"),
        ("code", "!ls -l\nx = np.ones(10)\nf = np.vectorize(lambda v: v * 2)\n"),
    ])
    (project / "nb.ipynb").write_text(nb)
    status, out, _ = verdict(capsys, "nb.ipynb")
    assert status == 0
    assert "`nb.ipynb:cell 3:line 3`" in out and "1 notebook" in out


def test_notebook_magics_and_shell_lines_are_skipped():
    cell = "%time y = 1\n!pip list\nfiles = !ls\nnp.sum?\nfor i in range(3):\n    %timeit f()\nx = 5 % 2\n"
    code = python_of_cell(cell)
    assert code.split("\n") == ["", "", "", "", "for i in range(3):", "    pass", "x = 5 % 2"]
    assert python_of_cell("%%bash\necho hi\n") is None
    assert python_of_cell("%%time\nx = 1\n").split("\n") == ["", "x = 1"]


def test_malformed_notebooks_are_input_errors(project, capsys):
    (project / "bad.ipynb").write_text("{not json")
    (project / "nocells.ipynb").write_text('{"metadata": {}}')
    (project / "markdown_only.ipynb").write_text(_notebook([("markdown", "# just words")]))
    (project / "broken_cell.ipynb").write_text(_notebook([("code", "import numpy as np\n"), ("code", "def f(:\n"),
                                                          ("code", "g = np.vectorize(abs)\n")]))
    status, out, _ = verdict(capsys, ".")
    assert status == 2
    assert "bad.ipynb: not valid JSON" in out
    assert "nocells.ipynb: not a notebook" in out
    assert "markdown_only.ipynb" not in out.split("## 1.")[0].split("Inputs not assessed")[-1]
    assert "broken_cell.ipynb:cell 2: does not parse" in out
    assert "`broken_cell.ipynb:cell 3:line 1`" in out  # the good cells are still assessed


def test_nbformat3_notebooks_are_read(project, capsys):
    doc = {"worksheets": [{"cells": [{"cell_type": "code", "input": ["import numpy as np\n", "f = np.vectorize(abs)\n"]}]}],
           "nbformat": 3}
    (project / "old.ipynb").write_text(json.dumps(doc))
    status, out, _ = verdict(capsys, "old.ipynb")
    assert status == 0 and "`old.ipynb:cell 1:line 2`" in out


# ----------------------------------------------------------------- flake8 input
FLAKE8_TEXT = """\
pkg/a.py:3:5: CPN102 np.vectorize(...) calls a Python function once per element (RR-where)
pkg/a.py:9:1: E302 expected 2 blank lines, found 1
pkg/b.py:12:1: CPN101 loop 'for i in range(n)' indexes array 'a' one element at a time (RR-loop)
"""


def test_from_flake8_text(project, capsys):
    (project / "log.txt").write_text(FLAKE8_TEXT)
    status, out, _ = verdict(capsys, "--from-flake8", "log.txt")
    assert status == 0
    assert "`pkg/a.py:3`" in out and "`pkg/b.py:12`" in out
    assert "E302 ×1" in out  # other plugins' codes are counted, not dropped silently
    assert "LIGHT REFACTOR" in out


def test_from_flake8_stdin_with_show_source_and_count(tmp_path):
    text = ("a.py:3:5: CPN102 np.vectorize(...) calls a Python function\n"
            "f = np.vectorize(abs)\n    ^\n1\n")
    proc = run_verdict("--from-flake8", "-", "--isolated", cwd=tmp_path, stdin=text)
    assert proc.returncode == 0, proc.stderr
    assert "`a.py:3`" in proc.stdout


@pytest.mark.parametrize("bad, where", [
    ("a.py:3:5: CPN102 fine\nthis is not flake8 output\n", "line 2"),
    ("a.py:three:5: CPN102 broken row\n", "line 1"),
    ("a.py:3:5: CPN102 fine\na.py:4:", "line 2"),  # truncated log
])
def test_from_flake8_malformed_lines_are_one_clear_error(project, capsys, bad, where):
    (project / "log.txt").write_text(bad)
    status, out, err = verdict(capsys, "--from-flake8", "log.txt")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and where in err and "log.txt" in err


def test_from_flake8_syntax_errors_are_input_errors(project, capsys):
    (project / "log.txt").write_text("a.py:1:7: E999 SyntaxError: invalid syntax\nb.py:3:5: CPN102 vectorize\n")
    status, out, _ = verdict(capsys, "--from-flake8", "log.txt")
    assert status == 2 and "a.py: flake8 could not parse it" in out and "`b.py:3`" in out


def test_from_flake8_cpn_json_round_trip(tmp_path):
    (tmp_path / "v.py").write_text(VECTORIZE)
    (tmp_path / "clean.py").write_text(CLEAN)
    flake8 = __import__("subprocess").run(
        [sys.executable, "-m", "flake8", "--isolated", "--select", "CPN", "--format", "cpn-json", "--output-file",
         "findings.json", "."], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert flake8.returncode == 1, flake8.stderr
    doc = json.loads((tmp_path / "findings.json").read_text())
    assert doc["schema_version"] == 2
    assert doc["findings"][0]["in_loop"] is False and isinstance(doc["findings"][0]["data"], dict)
    direct = run_verdict(".", "--format", "json", cwd=tmp_path)
    via = run_verdict("--from-flake8", "findings.json", "--format", "json", cwd=tmp_path)
    assert via.returncode == 0, via.stderr
    a, b = json.loads(direct.stdout), json.loads(via.stdout)
    assert a["verdict"] == b["verdict"] == "LIGHT REFACTOR"
    assert len(b["inputs"]["files"]) == 2  # cpn-json lists the clean file too
    cites = lambda d: [i["location"]["citation"] for i in d["sections"]["what_blocks"]["items"]]  # noqa: E731
    assert cites(a) == cites(b) == ["v.py:3"]


@pytest.mark.parametrize("doc, message", [
    ('{"schema": "something-else"}', "not flake8 --format=cpn-json"),
    ('{"schema": "cpn-lint/flake8-findings", "schema_version": 99, "findings": []}', "schema_version 99"),
    ('{"schema": "cpn-lint/flake8-findings", "schema_version": 2, "findings": [{"code": "CPN101"}]}', "finding 1"),
    ('{"schema": "cpn-lint/flake8-findings", "schema_version": 2, "findings": [', "not valid JSON"),
])
def test_from_flake8_bad_cpn_json(project, capsys, doc, message):
    (project / "f.json").write_text(doc)
    status, out, err = verdict(capsys, "--from-flake8", "f.json")
    assert status == 2 and out == "" and message in err and err.count("\n") == 1


def test_from_flake8_missing_file(project, capsys):
    status, _, err = verdict(capsys, "--from-flake8", "nope.txt")
    assert status == 2 and "nope.txt" in err


def test_repo_fixtures_report_is_complete():
    proc = run_verdict("fixtures/", "--isolated", cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    for heading in HEADINGS:
        assert heading in proc.stdout
    assert "fixtures/projects/notebook_demo/explore.ipynb" in proc.stdout or "notebook" in proc.stdout
    assert "CUPYNUMERIC_DOCTOR=1 CUPYNUMERIC_DOCTOR_FORMAT=json CUPYNUMERIC_DOCTOR_FILENAME=doctor-report.json legate --gpus 1 main.py" in proc.stdout


LOOP = "import numpy as np\na = np.arange(10.0)\nfor i in range(len(a)):\n    a[i] = a[i] * 2.0\n"


def _flake8(*args: str, cwd: Path, stdin: str | None = None):
    return __import__("subprocess").run(
        [sys.executable, "-m", "flake8", "--isolated", "--select", "CPN", "--format", "cpn-json", *args],
        cwd=cwd, input=stdin, capture_output=True, text=True, timeout=300)


def test_cpn_json_formatter_document(tmp_path):
    (tmp_path / "loop.py").write_text(LOOP)
    (tmp_path / "clean.py").write_text(CLEAN)
    proc = _flake8(".", cwd=tmp_path)
    doc = json.loads(proc.stdout)
    assert doc["schema"] == "cpn-lint/flake8-findings" and doc["schema_version"] == 2
    assert sorted(doc["files_scanned"]) == ["./clean.py", "./loop.py"]
    (item,) = doc["findings"]
    assert item["code"] == "CPN101" and item["name"] == "element-loop-indexing" and item["category"] == "BLOCKS"
    assert item["location"] == {"row": 3, "column": 1}
    assert item["physical_line"] == "for i in range(len(a)):"
    assert item["in_loop"] is True and isinstance(item["data"], dict)
    assert not item["message"].startswith("CPN101")


def test_cpn_json_facts_are_null_when_the_file_cannot_be_read_again(tmp_path):
    proc = _flake8("-", cwd=tmp_path, stdin=LOOP)
    (item,) = json.loads(proc.stdout)["findings"]
    assert item["filename"] == "stdin" and item["in_loop"] is None and item["data"] is None


def test_facts_are_read_back_from_a_message_template():
    from types import SimpleNamespace

    from cpn_lint.verdict.from_flake8 import facts_from_message

    rule = SimpleNamespace(message="{call} calls {api}, which {version} does not implement{where}; fix it (RR-x)")
    hot = "np.std(...) calls numpy.std, which cuPyNumeric 26.6.1 does not implement, inside the loop at line 3; fix it (RR-x)"
    cold = "np.std(...) calls numpy.std, which cuPyNumeric 26.6.1 does not implement; fix it (RR-x)"
    assert facts_from_message(rule, hot) == (True, {"api": "numpy.std"})
    assert facts_from_message(rule, cold) == (False, {"api": "numpy.std"})
    assert facts_from_message(rule, "worded by another version") is None


HOT_STD = "import numpy as np\nu = np.ones((4096, 4096))\nfor step in range(50):\n    spread = np.correlate(u[0], u[step])\n"


def test_text_log_keeps_the_hot_path_demotion(tmp_path):
    from cpn_lint.rules import load_rules

    if "CPN401" not in load_rules():
        pytest.skip("CPN401 not registered yet")
    (tmp_path / "hot.py").write_text(HOT_STD)
    log = __import__("subprocess").run([sys.executable, "-m", "flake8", "--isolated", "--select", "CPN", "--cpn-verbose",
                                            "hot.py"],
                                       cwd=tmp_path, capture_output=True, text=True, timeout=300).stdout
    assert "CPN401" in log
    direct = json.loads(run_verdict("hot.py", "--isolated", "--format", "json", cwd=tmp_path).stdout)
    via = json.loads(run_verdict("--from-flake8", "-", "--isolated", "--format", "json", cwd=tmp_path, stdin=log).stdout)
    assert direct["decision"]["demoted"] and via["decision"]["demoted"]
    assert direct["verdict"] == via["verdict"] == "LIGHT REFACTOR"


def test_stale_manifest_warning_stands_at_the_top(project, capsys, monkeypatch):
    """Issue 12: the warning comes before the rows it qualifies, not after them."""
    manifest = pytest.importorskip("cpn_lint.manifest")
    (project / "clean.py").write_text(CLEAN)
    stale = manifest.Staleness("2026-01-01", 200, True)
    fresh = manifest.Staleness("2026-01-01", 10, False)
    monkeypatch.setattr(manifest, "staleness", lambda today=None: stale)
    _, out, _ = verdict(capsys, "clean.py", "--format", "json")
    section = json.loads(out)["sections"]["api_support_gaps"]
    assert section["manifest"]["stale"] is True and "2026-01-01" in section["manifest"]["warning"]
    assert section["empty"] == "None for this code."
    _, out, _ = verdict(capsys, "clean.py")
    head, rest = out.split("## Context", 1)
    assert "> **Warning:**" in head and "cpn-lint manifest refresh" in head and "Warning" not in rest
    six = rest.split("## 6. API support gaps")[1].split("## 7.")[0]
    assert "None for this code." in six
    monkeypatch.setattr(manifest, "staleness", lambda today=None: fresh)
    _, out, _ = verdict(capsys, "clean.py")
    assert "Warning" not in out


def test_verdict_reads_the_manifest_it_is_given(project, capsys, tmp_path):
    """--manifest (or manifest = ... in the config) replaces the default one for
    the rules and for the staleness note; a bad one is a usage error."""
    from cpn_lint import manifest as mf

    (project / "lerp.py").write_text("import numpy as np\ny = np.interp(0.5, np.ones(2), np.ones(2))\n")
    custom = mf.Manifest(snapshot_date=__import__("datetime").date.today(), cupynumeric_version="99.0",
                         numpy_version=None, entries={"numpy.interp": mf.ApiSupport("numpy.interp", mf.Status.MULTI_GPU)})
    path = tmp_path / "fresh.json"
    path.write_text(custom.to_json(), encoding="utf-8")
    _, out, _ = verdict(capsys, "lerp.py", "--format", "json")
    assert "CPN401" in out
    _, out, _ = verdict(capsys, "lerp.py", "--format", "json", "--manifest", str(path))
    assert "CPN401" not in out and json.loads(out)["sections"]["api_support_gaps"]["manifest"]["stale"] is False
    code, _, err = verdict(capsys, "lerp.py", "--manifest", str(tmp_path / "missing.json"))
    assert code == 2 and "--manifest" in err
    mf.select(None)


def test_models_are_released_after_each_file(project):
    from cpn_lint.engine import LintOptions
    from cpn_lint.verdict.collect import assess_paths

    (project / "v.py").write_text(VECTORIZE)
    (unit,) = assess_paths(["v.py"], LintOptions(assessment=True))
    assert unit.result.model is None  # a large tree must not keep every model alive
    assert unit.uses_numpy and "numpy" in unit.imported_roots
    assert unit.quote(3) == "f = np.vectorize(lambda v: v + 1)"


PARAMETERS_ONLY = """\
import numpy as np


def relax(u, work, steps):
    for step in range(steps):
        work[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        err = np.max(np.abs(work - u))
        u, work = work, u
    return u, err
"""


def test_gate2_never_cites_a_reduction_or_an_unknown_shape(project, capsys):
    # every array is a parameter and the only literal-free 'size' is a 0-d
    # reduction: the code proves nothing about Gate 2
    (project / "relax.py").write_text(PARAMETERS_ONLY)
    _, out, _ = verdict(capsys, "relax.py", "--format", "json")
    report = json.loads(out)
    gate2 = next(g for g in report["sections"]["decision_framework"]["gates"] if g["number"] == 2)
    assert gate2["status"] != "✗", gate2
    assert "at most 1 elements" not in json.dumps(report)
    assert report["verdict"] != "NOT RECOMMENDED"


TINY = (
    "import numpy as np\nu = np.zeros((16, 16))\nfor step in range(100):\n"
    "    u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])\n"
)


def test_small_literal_arrays_leave_gate2_uncertain_with_their_constructor_cited(project, capsys):
    # SPEC §4 (revised 2026-11-26): the code's own sizes never fail Gate 2 by themselves
    (project / "tiny.py").write_text(TINY)
    _, out, _ = verdict(capsys, "tiny.py", "--format", "json")
    report = json.loads(out)
    gate2 = next(g for g in report["sections"]["decision_framework"]["gates"] if g["number"] == 2)
    assert gate2["status"] == "uncertain" and "256 elements" in gate2["reason"]
    assert "tiny.py:2" in gate2["evidence"]
    assert report["verdict"] == "READY"
    (note,) = report["sections"]["verdict"]["notes"]
    assert "256 elements, tiny.py:2" in note and "the verdict is NOT RECOMMENDED; give --elements" in note
    _, markdown, _ = verdict(capsys, "tiny.py")
    assert f"> {note}" in markdown.split("## 2.")[0]


def test_the_users_small_size_fails_gate2(project, capsys):
    (project / "tiny.py").write_text(TINY)
    _, out, _ = verdict(capsys, "tiny.py", "--format", "json", "--elements", "256", "--gpus", "1")
    report = json.loads(out)
    assert report["verdict"] == "NOT RECOMMENDED" and report["decision"]["rule"] == "gate2-size"
    assert report["sections"]["verdict"]["notes"] == []


# ------------------------------------------------- Gate 5: compute in plain Python
_PLAIN_PHYSICS = '''\
from math import sqrt


class Particle:
    def __init__(self, x, y):
        self.x, self.y, self.vx, self.vy = x, y, 0.0, 0.0


def step(particles, dt):
    for p in particles:
        for q in particles:
            if p is not q:
                d = sqrt((p.x - q.x) ** 2 + (p.y - q.y) ** 2) + 1e-3
                p.vx += (q.x - p.x) / d ** 3 * dt
                p.vy += (q.y - p.y) / d ** 3 * dt
    for p in particles:
        p.x += p.vx * dt
        p.y += p.vy * dt
'''

_PLOTTING_MAIN = '''\
import numpy as np
import matplotlib.pyplot as plt

from physics import Particle, step

particles = [Particle(i % 10, i // 10) for i in range(100)]
for frame in range(200):
    step(particles, 0.01)
xy = np.array([(p.x, p.y) for p in particles])
plt.scatter(xy[:, 0], xy[:, 1])
plt.show()
'''


def test_loops_on_plain_python_fail_gate_5_and_say_so(project, capsys):
    (project / "physics.py").write_text(_PLAIN_PHYSICS)
    (project / "main.py").write_text(_PLOTTING_MAIN)
    status, out, _ = verdict(capsys, ".", "--format", "json")
    data = json.loads(out)
    gate5 = next(g for g in data["sections"]["decision_framework"]["gates"] if g["number"] == 5)
    assert gate5["status"] == "✗"
    assert gate5["reason"].startswith("none of the 4 loops in the program's source touches a NumPy array")
    assert data["verdict"] == "READY" and "plain Python" in data["summary"]
    assert data["sections"]["next_steps"]["steps"][0]["title"] == "Write the compute in arrays first"


def test_gate_5_reads_the_projected_array_share_with_the_loop_count(project, capsys):
    (project / "heat.py").write_text(
        "import sys\nimport numpy as np\nu = np.zeros(int(sys.argv[1]))\nfor step in range(100):\n    u[1:-1] += 0.1 * (u[2:] - 2 * u[1:-1] + u[:-2])\n"
        "for name in ['a', 'b']:\n    print(name)\nfor k in range(3):\n    print(k)\n")
    (project / "broken.py").write_text("import numpy as np\nfor x in :\n")  # an input error, not counted
    status, out, _ = verdict(capsys, ".", "--format", "json")
    gate5 = next(g for g in json.loads(out)["sections"]["decision_framework"]["gates"] if g["number"] == 5)
    assert gate5["status"] == "✓"  # the stencil's time loop is nearly all of the projected time
    assert gate5["reason"].startswith("projected: device work holds ")
    assert "1 of the 3 loops in the program's source work on NumPy arrays" in gate5["reason"]


GAUSS_SEIDEL = """import numpy as np


def relax(u: np.ndarray, f: np.ndarray, sweeps: int) -> np.ndarray:
    n = u.shape[0]
    for it in range(sweeps):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - f[i, j])
    return u
"""


def test_an_in_place_sweep_that_is_the_main_work_is_sequential(project, capsys):
    """Gauss-Seidel reads neighbours this sweep wrote: each update waits for
    the ones before it, so the sweep is sequential work (CPN410, Gate 4);
    the same nest writing a new array (Jacobi) is one element loop, LIGHT."""
    (project / "gs.py").write_text(GAUSS_SEIDEL)
    status, out, _ = verdict(capsys, "gs.py", "--format", "json")
    report = json.loads(out)
    assert (report["verdict"], report["decision"]["rule"]) == ("NOT RECOMMENDED", "gate4-pattern")
    assert "sequential recurrence" in report["summary"]
    jacobi = GAUSS_SEIDEL.replace("    n = u.shape[0]\n", "    n = u.shape[0]\n    new = u.copy()\n").replace(
        "                u[i, j] = 0.25", "                new[i, j] = 0.25")
    (project / "gs.py").write_text(jacobi)
    status, out, _ = verdict(capsys, "gs.py", "--format", "json")
    assert json.loads(out)["decision"]["rule"] == "few-blocks"


def test_a_sweep_inside_a_numba_kernel_is_judged_as_the_same_sweep(project, capsys):
    """Compiling the Gauss-Seidel nest with Numba hides it in one CPN112
    finding; the sweep is still the main work, and still sequential."""
    compiled = GAUSS_SEIDEL.replace("import numpy as np\n", "import numpy as np\nfrom numba import njit\n").replace(
        "def relax(", "@njit\ndef relax(") + "\nu = relax(np.zeros((400, 400)), np.ones((400, 400)), 100)\n"
    (project / "gs.py").write_text(compiled)
    status, out, _ = verdict(capsys, "gs.py", "--format", "json")
    report = json.loads(out)
    assert (report["verdict"], report["decision"]["rule"]) == ("NOT RECOMMENDED", "gate4-pattern")
    assert "gs.py:8" in report["summary"]  # the sweep inside the kernel


PLOTTED_MASK = """import numpy as np
import matplotlib.pyplot as plt

u = np.zeros((400, 400))
wall = np.zeros((400, 400), dtype=bool)
for step in range(1000):
    u[1:-1, 1:-1] = 0.25 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2])
    if step % 100 == 0:
        shown = np.ma.array(u, mask=wall)
        plt.imshow(shown)
"""


def test_a_missing_name_whose_value_is_only_plotted_does_not_demote(project, capsys):
    """np.ma stops the ported program (What breaks first says so), but a
    value made only to be drawn is a plot boundary, in a loop or not (SPEC
    §4): the tier stays; used in the computation, it demotes."""
    (project / "sim.py").write_text(PLOTTED_MASK)
    status, out, _ = verdict(capsys, "sim.py", "--format", "json")
    report = json.loads(out)
    assert report["decision"]["demoted"] is False
    assert any(i["code"] == "CPN401" for i in report["sections"]["verdict"]["breaks_first"]["items"])
    (project / "sim.py").write_text(PLOTTED_MASK.replace("plt.imshow(shown)", "u = shown * 1.0"))
    status, out, _ = verdict(capsys, "sim.py", "--format", "json")
    assert json.loads(out)["decision"]["demoted"] is True


PLOTTED_DENSITY = """import numpy as np
import matplotlib.pyplot as plt
from scipy.special import iv

paths = np.zeros((100000, 500))
for t in range(1, 500):
    paths[:, t] = paths[:, t - 1] + 0.01 * np.random.normal(size=100000)

def density(x, q):
    return np.exp(-x) * iv(q, 2 * np.sqrt(x))

x = np.linspace(0.1, 2.0, 100)
plt.plot(x, density(x, 1.5))
"""


def test_a_breaking_call_in_a_function_only_plotted_does_not_demote(project, capsys):
    """iv() on a device array stops the program (What breaks first), but the
    function returning it is only ever drawn: a plot boundary; the same
    function used in the computation demotes."""
    (project / "sde.py").write_text(PLOTTED_DENSITY)
    status, out, _ = verdict(capsys, "sde.py", "--format", "json")
    report = json.loads(out)
    assert report["decision"]["demoted"] is False
    assert any(i["code"] == "CPN404" for i in report["sections"]["verdict"]["breaks_first"]["items"])
    (project / "sde.py").write_text(PLOTTED_DENSITY.replace("plt.plot(x, density(x, 1.5))",
                                                            "paths *= density(paths, 1.5)"))
    status, out, _ = verdict(capsys, "sde.py", "--format", "json")
    assert json.loads(out)["decision"]["demoted"] is True


SPARSE_JACOBIAN = """import numpy as np
from scipy.optimize import least_squares
from scipy.sparse import diags

n = 200000

def residual(u):
    r = np.empty_like(u)
    r[1:-1] = u[2:] - 2 * u[1:-1] + u[:-2] + np.exp(u[1:-1])
    r[0], r[-1] = u[0], u[-1]
    return r

def jacobian(u):
    return diags([np.ones(n - 1), -2 + np.exp(u), np.ones(n - 1)], [-1, 0, 1])

solution = least_squares(residual, np.zeros(n), jac=jacobian)
"""


def _kind_of_line(report: dict, text: str) -> str:
    sites = report["projected_time"]["sites"]
    return next(site["kind"] for site in sites if text in site["quote"])


def test_a_scipy_solve_on_a_sparse_jacobian_is_sparse_work(project, capsys):
    """least_squares handed a callback that builds a scipy.sparse Jacobian
    spends its time on sparse matrices: the solve itself is out-of-scope
    work (Gate 4); the same solve with a dense Jacobian is a host call."""
    (project / "bvp.py").write_text(SPARSE_JACOBIAN)
    status, out, _ = verdict(capsys, "bvp.py", "--format", "json")
    report = json.loads(out)
    assert report["decision"]["rule"] == "gate4-pattern"
    assert _kind_of_line(report, "least_squares(") == "out-of-scope library"
    dense = SPARSE_JACOBIAN.replace("from scipy.sparse import diags\n", "").replace(
        "    return diags([np.ones(n - 1), -2 + np.exp(u), np.ones(n - 1)], [-1, 0, 1])",
        "    return np.diag(-2 + np.exp(u))")
    (project / "bvp.py").write_text(dense)
    status, out, _ = verdict(capsys, "bvp.py", "--format", "json")
    report = json.loads(out)
    assert report["decision"]["rule"] != "gate4-pattern"
    assert _kind_of_line(report, "least_squares(") != "out-of-scope library"
