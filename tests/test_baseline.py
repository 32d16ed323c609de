"""Baselines: today's findings accepted once, only new ones reported, by
cpn-verdict and by flake8, robust to lines moving."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpn_lint.baseline import main as baseline_main

from .conftest import run_flake8
from .verdict_helpers import run_verdict

LOOP = "import numpy as np\n\n\ndef smooth(u):\n    out = np.zeros_like(u)\n    for i in range(1, u.shape[0] - 1):\n" \
       "        out[i] = 0.5 * (u[i - 1] + u[i + 1])\n    return out\n"
NEW = "\n\ndef scale(v):\n    w = np.zeros_like(v)\n    for k in range(v.shape[0]):\n        w[k] = v[k] * 2.0\n    return w\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "smooth.py").write_text(LOOP)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_round_trip(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert baseline_main(["write", "base.json", "src"]) == 0
    assert "Wrote 1 finding(s) from 1 file(s) to base.json." in capsys.readouterr().out
    document = json.loads((project / "base.json").read_text())
    assert document["schema"] == "cpn-lint/baseline" and document["findings"][0]["code"] == "CPN101"
    assert document["findings"][0]["function"] == "smooth"
    # nothing new: nothing reported, the verdict rests on what is left
    assert run_flake8("--select", "CPN", "--cpn-baseline", "base.json", "src", cwd=project).stdout == ""
    report = run_verdict("src", "--isolated", "--baseline", "base.json", cwd=project).stdout
    # a baseline hides findings from lint, not from the verdict (issue 25): the loop is still weighed
    assert "**LIGHT REFACTOR**" in report and "**Accepted, still weighed:** 1 finding (the baseline 1)" in report
    # lines move (a header comment) and a new loop appears: only the new loop
    (project / "src" / "smooth.py").write_text("# moved down\n\n" + LOOP + NEW)
    out = run_flake8("--select", "CPN", "--cpn-baseline", "base.json", "src", cwd=project).stdout.splitlines()
    assert len(out) == 1 and ":15:5: CPN101" in out[0]
    report = run_verdict("src", "--isolated", "--baseline", "base.json", cwd=project).stdout
    # the verdict weighs both loops; the summary says which one the baseline accepted
    assert "`src/smooth.py:15` (in `scale`)" in report and "`src/smooth.py:8`" in report
    assert "**Accepted, still weighed:** 1 finding (the baseline 1): CPN101 ×1" in report


def test_a_bad_baseline_is_one_clear_error(project: Path) -> None:
    (project / "base.json").write_text('{"schema": "something-else"}')
    proc = run_verdict("src", "--isolated", "--baseline", "base.json", cwd=project)
    assert proc.returncode == 2 and proc.stdout == "" and "not a cpn-lint baseline" in proc.stderr
    flake8 = run_flake8("--select", "CPN", "--cpn-baseline", "base.json", "src", cwd=project)
    assert flake8.returncode != 0 and "cpn-lint: --cpn-baseline: base.json: not a cpn-lint baseline" in flake8.stderr
    missing = run_verdict("src", "--isolated", "--baseline", "nowhere.json", cwd=project)
    assert missing.returncode == 2 and "cannot be read" in missing.stderr


def test_a_baseline_matches_from_any_folder(project: Path) -> None:
    (project / "ci").mkdir()
    assert baseline_main(["write", "-o", "ci/base.json", "src"]) == 0
    assert json.loads((project / "ci" / "base.json").read_text())["findings"][0]["path"] == "../src/smooth.py"
    inside = run_flake8("--select", "CPN", "--cpn-baseline", "../ci/base.json", ".", cwd=project / "src")
    assert inside.stdout == ""
    report = run_verdict(".", "--isolated", "--baseline", "../ci/base.json", cwd=project / "src").stdout
    assert "the baseline 1" in report


def test_unreadable_files_keep_their_entries_and_nothing_is_written_without_input(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert baseline_main(["write", "-o", "base.json", "src"]) == 0
    written = (project / "base.json").read_bytes()
    (project / "src" / "smooth.py").write_text(LOOP + "\ndef broken(:\n")
    assert baseline_main(["write", "-o", "base.json", "src"]) == 2
    assert "could be read" in capsys.readouterr().err
    assert (project / "base.json").read_bytes() == written  # nothing readable: left as it was
    (project / "src" / "other.py").write_text(NEW.replace("\n\ndef", "import numpy as np\n\ndef", 1))
    assert baseline_main(["write", "-o", "base.json", "src"]) == 2
    document = json.loads((project / "base.json").read_text())
    assert sorted(e["path"] for e in document["findings"]) == ["src/other.py", "src/smooth.py"]
    assert "kept 1 entry of unreadable files" in capsys.readouterr().out


def test_new_only_leaves_the_baseline_out_of_the_report_and_the_verdict(project: Path) -> None:
    assert baseline_main(["write", "-o", "base.json", "src"]) == 0
    everything = run_verdict("src", "--isolated", "--baseline", "base.json", "--format", "json", cwd=project)
    assert json.loads(everything.stdout)["verdict"] == "LIGHT REFACTOR"  # the baseline's loop still weighs
    only_new = run_verdict("src", "--isolated", "--baseline", "base.json", "--new-only", "--format", "json",
                           cwd=project)
    report = json.loads(only_new.stdout)
    assert report["verdict"] == "READY" and report["sections"]["what_blocks"]["items"] == []
    assert report["overview"]["suppressed"]["total"] == 0
    assert any(n.startswith("--new-only: the 1 finding the baseline lists is left out") for n in report["inputs"]["notes"])
    (project / "src" / "smooth.py").write_text(LOOP + NEW)
    report = json.loads(run_verdict("src", "--isolated", "--baseline", "base.json", "--new-only", "--format", "json",
                                    cwd=project).stdout)
    assert [i["location"]["citation"] for i in report["sections"]["what_blocks"]["items"]] == ["src/smooth.py:13"]
    assert report["verdict"] == "LIGHT REFACTOR"
    alone = run_verdict("src", "--isolated", "--new-only", cwd=project)
    assert alone.returncode == 2 and "--new-only needs --baseline" in alone.stderr
