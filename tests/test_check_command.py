"""``cpn-lint check``: lints like ``ruff check``, shows what flake8 shows,
through the installed console script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT
from .test_consistency import PROJECT, flake8, make_project, sarif_results
from .verdict_helpers import run_verdict

pytestmark = pytest.mark.e2e


def check(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    executable = shutil.which("cpn-lint", path=str(Path(sys.executable).parent))
    assert executable, f"cpn-lint is not installed beside {sys.executable}"
    return subprocess.run([executable, "check", *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def finding_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("Found ")]


def test_check_shows_what_flake8_shows_and_the_notebooks_too():
    proc = check("fixtures", "--isolated")
    assert proc.returncode == 1, proc.stderr
    lines = finding_lines(proc.stdout)
    from_flake8 = flake8("--isolated", "--select", "CPN", "fixtures").stdout.splitlines()
    assert sorted(line for line in lines if ".ipynb:" not in line) == sorted(from_flake8)
    assert "fixtures/projects/notebook_demo/explore.ipynb:cell 4:5:19: CPN104 float() on " in proc.stdout
    files = len({line.split(":", 1)[0] for line in lines})
    assert proc.stdout.splitlines()[-1] == f"Found {len(lines)} findings in {files} files (35 files checked)."


def test_select_and_ignore_take_prefixes():
    proc = check("fixtures/rules", "--isolated", "--select", "CPN1", "--ignore", "CPN104,CPN11")
    codes = {line.split(": ", 1)[1].split()[0] for line in finding_lines(proc.stdout)}
    assert codes and all(c.startswith("CPN1") for c in codes)
    assert not codes & {"CPN104", "CPN110", "CPN111", "CPN112"} and "CPN101" in codes
    assessment = check("fixtures/rules/info_linalg_fft.py", "--isolated", "--assessment", "--select", "CPN30")
    assert "CPN302" in assessment.stdout and "CPN401" not in assessment.stdout


def test_noqa_settings_and_baselines_as_flake8_reads_them(tmp_path):
    root = make_project(tmp_path, PROJECT)
    proc = check("pkg", cwd=root)
    assert finding_lines(proc.stdout) == flake8("--select", "CPN", "pkg", cwd=root).stdout.splitlines()
    assert [line.split()[1] for line in finding_lines(proc.stdout)] == ["CPN101", "CPN102"]
    baseline = subprocess.run([sys.executable, "-m", "cpn_lint", "baseline", "write", "-o", "base.json", "pkg"],
                              cwd=root, capture_output=True, text=True, timeout=300)
    assert baseline.returncode == 0, baseline.stderr
    assert check("pkg", "--baseline", "base.json", cwd=root).stdout == "Found 0 findings (3 files checked).\n"
    flow = root / "pkg" / "flow.py"
    flow.write_text(flow.read_text() + "\n\ndef more(a):\n    return np.vectorize(abs)(a)\n")
    new = check("pkg", "--baseline", "base.json", cwd=root)
    assert new.returncode == 1 and finding_lines(new.stdout) == [
        line for line in flake8("--select", "CPN", "--cpn-baseline", "base.json", "pkg", cwd=root).stdout.splitlines()]
    assert len(finding_lines(new.stdout)) == 1 and ":14:" in new.stdout


def test_clean_and_usage_errors_have_their_exit_status(tmp_path):
    (tmp_path / "clean.py").write_text("import numpy as np\n\n\ndef f(a):\n    return a * 2.0\n")
    clean = check("clean.py", cwd=tmp_path)
    assert (clean.returncode, clean.stdout) == (0, "Found 0 findings (1 file checked).\n")
    for args, words in ((["--select", "ZZZ"], "no cpn-lint code starts with 'ZZZ'"),
                        (["missing.py"], "missing.py: no such file or directory"),
                        (["--format", "xml"], "invalid choice")):
        proc = check(*args, cwd=tmp_path)
        assert proc.returncode == 2 and words in proc.stderr and proc.stdout == "", args
    (tmp_path / "broken.py").write_text("def f(:\n")
    broken = check(".", cwd=tmp_path)
    assert broken.returncode == 2 and "broken.py: does not parse" in broken.stderr


def test_json_is_the_cpn_json_document_and_the_verdict_reads_it_back(tmp_path):
    proc = check("fixtures", "--isolated", "--format", "json", "--assessment")
    document = json.loads(proc.stdout)
    assert document["schema"] == "cpn-lint/flake8-findings" and len(document["files_scanned"]) == 35
    assert proc.stderr.startswith("Found ")
    via = run_verdict("--from-flake8", "-", "--isolated", "--format", "json", stdin=proc.stdout)
    direct = run_verdict("fixtures", "--isolated", "--format", "json")
    a, b = json.loads(via.stdout), json.loads(direct.stdout)
    assert (a["verdict"], a["sections"]["decision_framework"]) == (b["verdict"], b["sections"]["decision_framework"])
    assert a["overview"]["per_code"] == b["overview"]["per_code"]  # the notebook's findings too


def test_sarif_is_the_flake8_log_with_the_verdicts_fingerprints():
    proc = check("fixtures", "--isolated", "--format", "sarif", "--assessment")
    from_check = sarif_results(proc.stdout)
    from_flake8 = sarif_results(flake8("--isolated", "--select", "CPN,E9", "--cpn-assessment", "--format",
                                       "cpn-sarif", "fixtures").stdout)
    notebook = {r for r in from_check if r[0].endswith(".ipynb")}
    assert notebook and from_check - notebook == from_flake8
    verdict = sarif_results(run_verdict("fixtures", "--isolated", "--format", "sarif").stdout)
    prints = lambda results: {(r[0], r[3], r[5]) for r in results}  # noqa: E731
    assert prints(notebook) <= prints(verdict)  # a notebook finding is one alert whichever command made it
