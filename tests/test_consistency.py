"""One truth across outputs (issue 32, item 4): the commands and formats
that show the same findings agree on them.

* SARIF from flake8 (``--format=cpn-sarif``) and from ``cpn-verdict
  --format sarif`` list the same results with the same fingerprints.
* ``cpn-verdict --from-flake8`` on flake8's output gives the report a
  direct run gives on the same files.
* The counts of one report add up: the summary's per-code sites, the
  counts the verdict and the next steps name, the capped lists' "and N
  more" and the appendix all count the JSON report's findings.
* The Markdown report fits a terminal: no line longer than 200 characters,
  ``--brief`` on one screen.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections import Counter
import sys
from pathlib import Path

import pytest

from cpn_lint.verdict import command
from cpn_lint.verdict.markdown import BRIEF_LINES, LINE_LIMIT

from .conftest import ROOT
from .verdict_helpers import run_verdict, unwrapped

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


# ------------------------------------------------------------ line lengths
REPORTED = ["fixtures",
            *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "fixtures" / "projects").iterdir() if p.is_dir()),
            *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "fixtures" / "rules").glob("*.py"))]


def long_lines(text: str) -> list[tuple[int, int]]:
    return [(number, len(line)) for number, line in enumerate(text.splitlines(), start=1) if len(line) > LINE_LIMIT]


@pytest.mark.parametrize("target", REPORTED)
def test_every_report_line_fits_and_the_brief_fits_a_screen(target, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    full = tmp_path / "full.md"
    assert command.main([target, "--isolated", "--brief", "-o", str(full)]) == 0
    brief = capsys.readouterr().out
    assert long_lines(full.read_text(encoding="utf-8")) == []
    assert long_lines(brief) == []
    assert len(brief.splitlines()) <= BRIEF_LINES and brief.splitlines()[-1] == f"Full report: {full}"


def test_the_golden_reports_fit_too():
    goldens = sorted((ROOT / "tests" / "data" / "verdict").rglob("*.md"))
    assert len(goldens) >= 8
    assert {g.name: long_lines(g.read_text(encoding="utf-8")) for g in goldens} == {g.name: [] for g in goldens}


def test_a_long_paragraph_wraps_at_clauses_and_keeps_code_spans_whole():
    from cpn_lint.verdict.markdown import WRAP, wrap

    text = ("The loop at `for i in range(n): total = total + a[i]` runs once per element; "
            + "then - 3. the sum is taken, " * 12 + "and the report ends.")
    lines = wrap(text, "- ", "  ")
    assert all(len(line) <= WRAP for line in lines[1:]) and lines[0].startswith("- The loop at `for i")
    assert "`for i in range(n): total = total + a[i]`" in lines[0]  # never broken inside a code span
    assert not any(line.lstrip().startswith(("- ", "3.")) for line in lines[1:])  # no accidental list item
    assert " ".join(line.strip() for line in lines).removeprefix("- ") == text


# ------------------------------------------------------------------- counts
def json_items(report: dict) -> list[dict]:
    """Every finding of the JSON report, what scales included."""
    sections = report["sections"]
    items = [*sections["what_blocks"]["items"], *sections["what_blocks"]["out_of_scope"],
             *[i for i in sections["what_blocks"]["runtime_only"] if i["code"]],
             *sections["compatibility_notes"]["items"], *sections["api_support_gaps"]["items"]]
    items += [i for group in sections["whats_fixable"]["groups"] for i in group["items"]]
    return items


def section_text(markdown: str, number: int) -> str:
    return markdown.split(f"\n## {number}. ")[1].split("\n## ")[0]


LISTED = re.compile(r"^- `[^`]+`(?: \(in `[^`]*`\))?(?: \(confirmed at runtime by Doctor\))? (CPN\d{3}) ", re.M)
MORE = re.compile(r"(\d+) more (CPN\d{3})")


LOOP_ROW = re.compile(r"^- `[^`]+`(?: \(in `[^`]*`\))? loop `.*?` waits on the device at \d+ sites every iteration: "
                      r"(.*?); one root cause", re.M)
SAME_LINE = re.compile(r"(?:; on the same line: |; )(CPN\d{3}) [a-z0-9-]+: ")
API_ROW = re.compile(r"^- `[^`]+` (CPN\d{3}) [a-z0-9-]+ at (\d+) sites", re.M)


def listed_codes(text: str) -> Counter[str]:
    """Sites a capped list shows (a loop's host waits and an API name's
    sites listed as one entry), plus those its "… and N more" line counts."""
    counts = Counter(LISTED.findall(text))
    for waits in LOOP_ROW.findall(text):
        counts.update({code: int(n) for n, code in re.findall(r"(\d+) [a-z -]+ \((CPN\d{3})\)", waits)})
    counts.update(SAME_LINE.findall(text))
    for code, n in API_ROW.findall(text):  # LISTED counted the row once
        counts[code] += int(n) - 1
    for line in text.splitlines():
        if line.startswith("… and "):
            counts.update({code: int(n) for n, code in MORE.findall(line)})
    return counts


def assert_counts_add_up(report: dict, markdown: str) -> None:
    markdown = unwrapped(markdown)
    items = json_items(report)
    per_code = {c["code"]: c["count"] for c in report["overview"]["per_code"]}
    works = {g["code"]: g["count"] for g in report["sections"]["what_works"]["groups"]}
    by_code = Counter(i["code"] for i in items) + Counter(works)
    assert per_code == dict(by_code)
    families = Counter()
    for c in report["overview"]["per_code"]:
        families[c["family"]] += c["count"]
    assert report["overview"]["per_family"] == dict(families)
    # the summary table
    table = dict(re.findall(r"^\| (CPN\d{3}) [a-z0-9-]+ \| [A-Z]+ \| (\d+) \|", markdown, re.M))
    assert {c: int(n) for c, n in table.items()} == per_code
    # the verdict's counts: every site of a code it weighs (a finding the
    # assessment reads as a note, such as an order= cuPyNumeric ignores, is not weighed)
    weighed = Counter(i["code"] for i in items if i["category"] != "INFO") + Counter(works)
    for code, n in re.findall(r"(CPN\d{3}) ×(\d+)", report["summary"]):
        assert int(n) == weighed[code], (code, report["summary"])
    loops = re.search(r"(\d+) element loops? \(CPN101: .*?on every pass of an outer loop(?:, plus (\d+))?",
                      report["summary"])
    if loops:
        assert int(loops[1]) + int(loops[2] or 0) == per_code["CPN101"]
    # the next steps: N sites (CODE ×n, ...), each the findings of that recipe
    for step in report["sections"]["next_steps"]["steps"]:
        match = re.search(r"(\d+) sites?(?: on (\d+) lines?)? \(([^)]*)\)", step["detail"])
        if not step["title"].startswith("Apply ") or match is None:
            continue
        recipe = step["title"].removeprefix("Apply ")
        mine = [i for i in items if i["recipe"] == recipe and i["category"] in ("BLOCKS", "REFACTOR", "API")]
        counts = Counter(i["code"] for i in mine)
        named = {part.split(" ×")[0]: int(part.split(" ×")[1]) if " ×" in part else int(match[1])
                 for part in match[3].split(", ")}
        assert named == {c: counts[c] for c in named} and sum(named.values()) == int(match[1]), step
        if match[2]:
            assert int(match[2]) == len(set(step["citations"])) < int(match[1])
    # the capped lists: shown + "and N more" = every site of the section
    sections = report["sections"]
    blocks_text = section_text(markdown, 3).split("**Out-of-scope workload")[0].split("**Seen only at runtime")[0]
    assert listed_codes(blocks_text) == Counter(i["code"] for i in sections["what_blocks"]["items"])
    assert listed_codes(section_text(markdown, 4)) == Counter(
        i["code"] for g in sections["whats_fixable"]["groups"] for i in g["items"])
    assert listed_codes(section_text(markdown, 5)) == Counter(i["code"] for i in sections["compatibility_notes"]["items"])
    assert listed_codes(section_text(markdown, 6)) == Counter(i["code"] for i in sections["api_support_gaps"]["items"])
    # the appendix: one line number per finding
    appendix = markdown.split("## Appendix: sites by file")[1] if "## Appendix" in markdown else ""
    static = Counter((i["location"]["path"], i["code"]) for i in items if i["source"] == "static")
    for path, rest in re.findall(r"^- `([^`]+)`: (.*)$", appendix, re.M):
        for code, numbers in re.findall(r"(CPN\d{3}) \(([^)]*)", rest):
            total = re.search(r"\((\d+) in all$", numbers)
            shown = int(total[1]) if total else len(numbers.split(", "))
            assert shown == static[(path, code)], (path, code, numbers)


COUNTED = [target for target in REPORTED if not target.startswith("fixtures/rules/")]


@pytest.mark.parametrize("target", COUNTED)
def test_the_counts_of_a_report_add_up(target, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert command.main([target, "--isolated", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert command.main([target, "--isolated"]) == 0
    assert_counts_add_up(report, capsys.readouterr().out)


def test_two_findings_on_one_line_count_twice_and_the_report_says_so(tmp_path, capsys, monkeypatch):
    (tmp_path / "m.py").write_text(
        "import numpy as np\n\n\ndef f(a):\n"
        "    return np.ravel(a, order='F'), np.ravel(a, order='F')\n"
        "\n\ndef g(a):\n    return np.ravel(a, order='F')\n")
    monkeypatch.chdir(tmp_path)
    assert command.main(["m.py", "--isolated", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert command.main(["m.py", "--isolated"]) == 0
    markdown = capsys.readouterr().out
    assert_counts_add_up(report, markdown)
    flat = unwrapped(markdown)
    assert "| CPN109 order-keyword | BLOCKS | 3 |" in flat and "a line with two findings counts twice" in flat
    assert "- `m.py`: CPN109 (5, 5, 9)" in flat
    assert "3 sites on 2 lines (CPN109)" in flat


def test_an_order_cupynumeric_ignores_is_a_note_not_a_blocking_idiom(tmp_path, capsys, monkeypatch):
    """``a.copy(order="K")`` is accepted and ignored by cuPyNumeric: flake8
    still shows CPN109 (drop the keyword), the assessment reads it as a
    compatibility note; a reshape in Fortran order (a host copy) blocks."""
    (tmp_path / "m.py").write_text("import numpy as np\n\n\ndef f(a):\n    return np.asarray(a).copy(order='K') * 2\n")
    monkeypatch.chdir(tmp_path)
    assert command.main(["m.py", "--isolated", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "READY"
    assert [(i["code"], i["category"]) for i in json_items(report)] == [("CPN109", "INFO")]
    (tmp_path / "m.py").write_text("import numpy as np\n\n\ndef f(a):\n    return np.asarray(a).reshape(-1, order='F') * 2\n")
    assert command.main(["m.py", "--isolated", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "LIGHT REFACTOR"
    assert [(i["code"], i["category"]) for i in json_items(report)] == [("CPN109", "BLOCKS")]
