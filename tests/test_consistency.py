"""One truth across outputs (issue 32, item 4): the commands and formats
that show the same findings agree on them.

* SARIF from flake8 (``--format=cpn-sarif``) and from ``cpn-verdict
  --format sarif`` list the same results with the same fingerprints.
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
