"""One truth across outputs (issue 32, item 4): the commands and formats
that show the same findings agree on them.

* SARIF from flake8 (``--format=cpn-sarif``) and from ``cpn-verdict
  --format sarif`` list the same results with the same fingerprints.
* ``cpn-verdict --from-flake8`` on flake8's output gives the report a
  direct run gives on the same files.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT
from .verdict_helpers import run_verdict

pytestmark = pytest.mark.e2e


def flake8(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Real flake8 reading the configuration of ``cwd``, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "flake8", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def sarif_results(text: str) -> set[tuple[str, int, int, str, str, str]]:
    """(file, line, column, code, level, fingerprint) of every result."""
    results = json.loads(text)["runs"][0]["results"]
    out = set()
    for r in results:
        physical = r["locations"][0]["physicalLocation"]
        region = physical["region"]
        out.add((physical["artifactLocation"]["uri"], region["startLine"], region.get("startColumn", 0),
                 r["ruleId"], r["level"], r["partialFingerprints"]["cpnLint/v1"]))
    return out


# ------------------------------------------------------------------- SARIF
def test_sarif_from_flake8_and_from_cpn_verdict_list_the_same_results_on_the_fixtures():
    # flake8 reads no notebook: the verdict's run leaves them out too
    from_flake8 = flake8("--isolated", "--select", "CPN,E9", "--cpn-assessment", "--format", "cpn-sarif",
                         "--exclude", "*.ipynb", "fixtures")
    direct = run_verdict("fixtures", "--isolated", "--exclude", "*.ipynb", "--format", "sarif")
    assert direct.returncode == 0, direct.stderr
    flake8_results, verdict_results = sarif_results(from_flake8.stdout), sarif_results(direct.stdout)
    assert len(verdict_results) > 150
    assert flake8_results == verdict_results


PROJECT = {
    "setup.cfg": "[flake8]\nper-file-ignores =\n    pkg/io.py: CPN109\n",
    "pkg/__init__.py": "",
    "pkg/flow.py": (
        "import numpy as np\n\n\n"
        "def step(n):\n"
        "    u = np.zeros(n)\n"
        "    for i in range(n):\n"
        "        u[i] = u[i] * 2.0\n"
        "    f = np.vectorize(abs)  # noqa: CPN102\n"
        "    g = np.vectorize(abs)\n"
        "    return u, f, g\n"
    ),
    "pkg/io.py": "import numpy as np\n\n\ndef load(a):\n    return np.asarray(a, order='F')\n",
}


def make_project(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_sarif_agrees_on_what_noqa_and_flake8_settings_hide(tmp_path):
    root = make_project(tmp_path, PROJECT)
    from_flake8 = sarif_results(flake8("--select", "CPN,E9", "--cpn-assessment", "--format", "cpn-sarif",
                                       "pkg", cwd=root).stdout)
    proc = run_verdict("pkg", "--format", "sarif", cwd=root)
    direct = sarif_results(proc.stdout)
    assert from_flake8 == direct
    codes = sorted(code for _, _, _, code, _, _ in direct)
    assert "CPN101" in codes and codes.count("CPN102") == 1 and "CPN109" not in codes
    # still weighed by the verdict, and counted in the log
    properties = json.loads(proc.stdout)["runs"][0]["properties"]
    assert properties["acceptedLeftOut"] == 2


# ------------------------------------------------------------- --from-flake8
def verdict_json(*args: str, cwd: Path = ROOT, stdin: str | None = None) -> dict:
    proc = run_verdict(*args, "--format", "json", cwd=cwd, stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def without_input_notes(report: dict) -> dict:
    """The report less what only says where the findings came from."""
    report = json.loads(json.dumps(report))
    report["inputs"]["notes"] = []
    report["overview"]["excluded"] = {}
    return report


def sites(report: dict) -> set[tuple[str, str]]:
    """(code, citation) of every site the report lists, what works included."""
    out: set[tuple[str, str]] = set()
    for key, section in report["sections"].items():
        for name in ("items", "out_of_scope", "runtime_only"):
            out |= {(i["code"], i["location"]["citation"]) for i in section.get(name, [])}
        for group in section.get("groups", []):
            out |= {(i["code"], i["location"]["citation"]) for i in group.get("items", [])}
            out |= {(group["code"], citation) for citation in group.get("sites", [])}
    return out


@pytest.fixture(scope="module")
def direct_fixtures() -> dict:
    return verdict_json("fixtures", "--isolated", "--exclude", "*.ipynb")


def test_from_flake8_cpn_json_gives_the_direct_report_on_the_fixtures(direct_fixtures):
    log = flake8("--isolated", "--select", "CPN,E9", "--cpn-assessment", "--format", "cpn-json", "fixtures").stdout
    via = verdict_json("--from-flake8", "-", "--isolated", stdin=log)
    assert "read again" in " ".join(via["inputs"]["notes"])
    assert without_input_notes(via) == without_input_notes(direct_fixtures)


def test_from_flake8_text_gives_the_direct_report_on_the_fixtures(direct_fixtures):
    log = flake8("--isolated", "--select", "CPN,E9", "--cpn-assessment", "fixtures").stdout
    via = verdict_json("--from-flake8", "-", "--isolated", stdin=log)
    assert without_input_notes(via) == without_input_notes(direct_fixtures)


def test_from_flake8_default_text_gives_the_direct_verdict_on_the_fixtures(direct_fixtures):
    """Without --cpn-assessment the text log names only the files with a
    default code; the verdict, the gates and those files' sites are the
    direct run's (the assessment codes are read from the files)."""
    log = flake8("--isolated", "--select", "CPN,E9", "fixtures").stdout
    via = verdict_json("--from-flake8", "-", "--isolated", stdin=log)
    assert (via["verdict"], via["decision"]) == (direct_fixtures["verdict"], direct_fixtures["decision"])
    statuses = lambda r: [g["status"] for g in r["sections"]["decision_framework"]["gates"]]  # noqa: E731
    assert statuses(via) == statuses(direct_fixtures)
    named = {line.split(":", 1)[0] for line in log.splitlines()}
    assert sites(via) == {(code, cite) for code, cite in sites(direct_fixtures) if cite.split(":", 1)[0] in named}
    assert any(code.startswith("CPN00") for code, _ in sites(via))  # what works, from the files


def test_from_flake8_weighs_what_flake8_hid_as_a_direct_run_does(tmp_path):
    root = make_project(tmp_path, PROJECT)
    log = flake8("--select", "CPN,E9", "--format", "cpn-json", "pkg", cwd=root).stdout
    assert '"CPN109"' not in log and log.count('"CPN102"') == 1
    via = verdict_json("--from-flake8", "-", cwd=root, stdin=log)
    direct = verdict_json("pkg", cwd=root)
    assert without_input_notes(via) == without_input_notes(direct)
    assert direct["overview"]["suppressed"]["by_code"] == {"CPN102": 1, "CPN109": 1}
    # flake8 run with other options than the configuration's: still the same verdict
    narrower = flake8("--select", "CPN,E9", "--extend-ignore", "CPN101", "--format", "cpn-json", "pkg", cwd=root).stdout
    other = verdict_json("--from-flake8", "-", cwd=root, stdin=narrower)
    assert (other["verdict"], sites(other)) == (direct["verdict"], sites(direct))
    assert other["overview"]["suppressed"]["by_kind"]["flake8 output"] == 1
