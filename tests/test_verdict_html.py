"""``cpn-verdict --format html``: one self-contained page (nothing fetched),
well formed, with the verdict, a bar per code, and a per-file table that
sorts and opens into the file's sites."""

from __future__ import annotations

import html.parser
import re
import shutil
import subprocess
from collections import Counter

import pytest

from cpn_lint.verdict.html_format import SCRIPT, render_html
from cpn_lint.verdict.markdown import PER_CODE

from .conftest import ROOT
from .verdict_helpers import run_verdict

VOID = {"meta", "br", "hr", "img", "input", "link"}


class _Structure(html.parser.HTMLParser):
    """Tags in order; every non-void tag must close in order."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.errors: list[str] = []
        self.tags: Counter[str] = Counter()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        self.tags[tag] += 1
        self.urls += [v for k, v in attrs if k in ("src", "href") and v]
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):  # type: ignore[no-untyped-def]
        if not self.open or self.open[-1] != tag:
            self.errors.append(f"</{tag}> after {self.open[-3:]}")
        else:
            self.open.pop()


def _parse(page: str) -> _Structure:
    parser = _Structure()
    parser.feed(page)
    assert not parser.errors and not parser.open, (parser.errors[:5], parser.open)
    return parser


@pytest.fixture(scope="module")
def fixtures_page() -> str:
    proc = run_verdict("fixtures", "--isolated", "--format", "html", cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_page_is_well_formed_and_self_contained(fixtures_page: str) -> None:
    parsed = _parse(fixtures_page)
    assert parsed.urls == []  # nothing to fetch: no src, no href
    assert not re.search(r"https?://", fixtures_page)
    assert fixtures_page.startswith("<!DOCTYPE html>")
    assert parsed.tags["h2"] == 10  # Context, the eight sections, Files


def test_the_verdict_bars_and_files_match_the_json(fixtures_page: str) -> None:
    import json

    document = json.loads(run_verdict("fixtures", "--isolated", "--format", "json", cwd=ROOT).stdout)
    assert f">{document['verdict']}</span>" in fixtures_page
    per_code = document["overview"]["per_code"]
    bars = re.findall(r'<span class="label">(CPN\d+) [^<]*</span>.*?<span class="count">(\d+)', fixtures_page)
    assert bars == [(c["code"], str(c["count"])) for c in per_code]
    files = {i["location"]["path"] for s in document["sections"].values() for key in ("items", "out_of_scope")
             for i in s.get(key, [])}
    rows = re.findall(r'<tr class="file"><td><code>([^<]+)</code>', fixtures_page)
    assert files <= set(rows) and len(rows) == len(set(rows))
    # each file row is followed by its hidden detail row (the sort keeps pairs)
    assert fixtures_page.count('<tr class="file">') == fixtures_page.count("<tr hidden>")


def test_section_lists_are_capped_like_the_markdown(fixtures_page: str) -> None:
    blocks = fixtures_page.split("<h2>3. What blocks</h2>")[1].split("<h2>4.")[0]
    tables = blocks.split("<table")[1:]
    pattern = r"<tr><td><code>[^<]+</code>(?: <span class=\"muted\">in [^<]+</span>)?</td><td>(CPN\d+)"
    per_table = [Counter(re.findall(pattern, table)) for table in tables]
    assert any(per_table) and all(max(rows.values(), default=0) <= PER_CODE for rows in per_table)
    assert "… and " in blocks


def test_markup_in_findings_is_escaped(fixtures_page: str) -> None:
    from cpn_lint.verdict.context import Context

    from .verdict_helpers import finding, report_for, stand_in_rules

    with stand_in_rules():
        f = finding("CPN901", 1)
        f = type(f)(f.code, f.line, f.col, "x < y & <b>", in_loop=True)
        report = report_for({"<script>.py": [f]}, Context())
        page = render_html(report)
    _parse(page)
    assert "<script>.py" not in page and "&lt;script&gt;.py" in page


@pytest.mark.skipif(shutil.which("node") is None, reason="node checks the script's syntax")
def test_the_sort_script_is_valid_javascript(tmp_path) -> None:
    script = tmp_path / "sort.js"
    script.write_text(SCRIPT)
    proc = subprocess.run(["node", "--check", str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_no_verdict_as_html(tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    proc = run_verdict(str(tmp_path / "empty"), "--isolated", "--format", "html")
    assert proc.returncode == 2
    _parse(proc.stdout)
    assert "<h1>NO VERDICT</h1>" in proc.stdout and "READY" not in proc.stdout
