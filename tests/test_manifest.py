"""The API manifest: the shipped snapshot, lookups, staleness, the readers of
each input kind and ``cpn-lint manifest show | lookup | refresh``."""

from __future__ import annotations

import datetime as dt
import html
import json
import sys
from pathlib import Path

import pytest

from cpn_lint import manifest as mf
from cpn_lint.manifest import ApiSupport, Manifest, ManifestError, Status, canonical_name
from cpn_lint.manifest import command
from cpn_lint.manifest.sources import (
    SourceError,
    build_manifest,
    parse_html,
    parse_introspected_json,
    parse_markdown,
    status_from_glyphs,
)

from .conftest import ROOT

DATA = ROOT / "tests" / "data" / "manifest"
SHARED = ROOT.parent / "shared"
SHARED_JSON = SHARED / "data" / "cupynumeric-26.6.1-introspected.json"
SHARED_MARKDOWN = SHARED / "reference" / "api-support.md"
CANONICAL = ROOT / "manifest" / "api-manifest.json"
INSTALLED_TABLE = ROOT / "manifest" / "sources" / "cupynumeric-26.6.1-installed.json"
SURFACES = [ROOT / "manifest" / "sources" / f"numpy-{v}-surface.json" for v in ("1.26.4", "2.4.6")]
PACKAGED = ROOT / "cpn_lint" / "data" / "api-manifest.json"

needs_shared_json = pytest.mark.skipif(not SHARED_JSON.exists(), reason="the introspected table is not in ../shared")
needs_shared_markdown = pytest.mark.skipif(not SHARED_MARKDOWN.exists(), reason="the markdown manifest is not in ../shared")


@pytest.fixture(scope="module")
def shipped() -> Manifest:
    return mf.bundled()


def _statuses(manifest: Manifest) -> dict[str, str]:
    return {e.api: e.status.value for e in manifest}


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = command.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------- the snapshot
def test_the_two_copies_are_byte_identical() -> None:
    assert CANONICAL.read_bytes() == PACKAGED.read_bytes(), (
        "manifest/api-manifest.json and cpn_lint/data/api-manifest.json differ: refresh with both --output paths")


def test_the_packaged_copy_is_what_bundled_reads() -> None:
    assert mf.bundled_path().resolve() == PACKAGED.resolve()


def test_snapshot_provenance(shipped: Manifest) -> None:
    assert shipped.snapshot_date == dt.date(2026, 5, 22)
    assert shipped.cupynumeric_version == "26.6.1"
    assert shipped.numpy_version == "2.4.6"
    assert [s.name for s in shipped.sources] == [
        "cupynumeric-26.6.1-installed.json", "cupynumeric-26.6.1-introspected.json", "api-support.md"]
    assert shipped.sources[0].rows == 1102
    kinds = {s.kind: s for s in shipped.sources}
    assert set(kinds) == {"introspected-json", "markdown"}
    assert kinds["markdown"].retrieved.startswith("2026-05-22")
    assert kinds["introspected-json"].rows == 973 and kinds["introspected-json"].apis == 616
    assert all(s.sha256 and len(s.sha256) == 64 for s in shipped.sources)


def test_snapshot_counts(shipped: Manifest) -> None:
    assert len(shipped) == 1102
    assert shipped.counts() == {
        "multi-gpu": 359, "single-gpu": 9, "partial": 14, "undocumented": 101, "not-implemented": 619,
    }
    assert shipped.implemented_count() == 483
    assert shipped.numpy_releases == ("1.26.4", "2.4.6")


def test_the_snapshot_covers_both_numpy_surfaces(shipped: Manifest) -> None:
    """Every public name of NumPy 1.26 and 2.4 has a row; none is invented."""
    from cpn_lint.manifest.surface import read_surface

    names = {n for path in SURFACES for n in read_surface(path).names}
    assert names <= set(shipped.entries)
    table_only = set(shipped.entries) - names  # names of the library's own table only
    # in the library's table, not in numpy.random.__all__ (so in no surface)
    assert table_only == {"numpy.random.get_bit_generator", "numpy.random.set_bit_generator"}


def test_every_name_cupynumeric_lacks_is_missing_outright(shipped: Manifest) -> None:
    """In 26.6.1 no unimplemented name exists as an attribute (all raise AttributeError)."""
    lacking = shipped.with_status(Status.NOT_IMPLEMENTED)
    assert lacking and all(e.lacks is True for e in lacking)
    assert all(e.lacks is None for e in shipped if e.status.implemented)


@pytest.mark.parametrize(
    ("name", "releases", "replacement"),
    [
        ("numpy.trapz", ("1.26.4",), None),  # cuPyNumeric has no trapezoid either
        ("numpy.product", ("1.26.4",), "numpy.prod"),
        ("numpy.NaN", ("1.26.4",), "numpy.nan"),
        ("numpy.float_", ("1.26.4",), "numpy.float64"),
        ("numpy.trapezoid", ("2.4.6",), None),
        ("numpy.interp", (), None),
    ],
)
def test_names_numpy_2_removed(shipped: Manifest, name: str, releases: tuple[str, ...], replacement: str | None) -> None:
    entry = shipped.lookup(name)
    assert entry is not None and entry.status is Status.NOT_IMPLEMENTED
    assert (entry.releases, entry.replacement) == (releases, replacement)
    assert entry.removed_in_numpy2 is (releases == ("1.26.4",))


def test_kinds_come_from_the_surfaces(shipped: Manifest) -> None:
    assert shipped.is_ufunc("numpy.add") and shipped.is_ufunc("cupynumeric.sin")
    assert not shipped.is_ufunc("numpy.sum") and not shipped.is_ufunc("numpy.nothing")
    assert shipped.lookup("numpy.ufunc.at").kind == "method"
    assert shipped.lookup("numpy.ma.MaskedArray").kind == "class"


def test_serialisation_is_canonical(shipped: Manifest) -> None:
    """The committed file is exactly what the writer produces: a refresh of
    unchanged inputs diffs to nothing."""
    assert shipped.to_json() == CANONICAL.read_text(encoding="utf-8")
    again = Manifest.from_json(shipped.to_json())
    assert again == shipped
    lines = CANONICAL.read_text(encoding="utf-8").splitlines()
    assert sum(1 for line in lines if line.startswith('    {"api": ')) == 1102  # one API per line


def test_every_partial_entry_has_a_note(shipped: Manifest) -> None:
    partial = shipped.with_status(Status.PARTIAL)
    assert partial and all(e.note for e in partial)
    assert {e.api.rpartition(".")[0] for e in partial} == {"numpy.fft"}


# -------------------------------------------------------------------- lookups
@pytest.mark.parametrize(
    ("name", "status"),
    [
        ("numpy.interp", Status.NOT_IMPLEMENTED),
        ("cupynumeric.interp", Status.NOT_IMPLEMENTED),
        ("numpy.linalg.svd", Status.SINGLE_GPU),
        ("cupynumeric.linalg.svd", Status.SINGLE_GPU),
        ("numpy.linalg.solve", Status.MULTI_GPU),
        ("numpy.ndarray.std", Status.NOT_IMPLEMENTED),
        ("numpy.ndarray.std()", Status.NOT_IMPLEMENTED),
        ("numpy.ndarray.mean", Status.MULTI_GPU),
        ("numpy.fft.rfft", Status.PARTIAL),
        ("numpy.random.choice", Status.NOT_IMPLEMENTED),
        ("numpy.ix\\_", Status.MULTI_GPU),
        ("numpy.float64", Status.UNDOCUMENTED),
        ("numpy.ndarray.cumsum", Status.UNDOCUMENTED),
        ("numpy.load", Status.UNDOCUMENTED),
        ("numpy.mgrid", Status.UNDOCUMENTED),
        ("numpy.newaxis", Status.UNDOCUMENTED),  # None in both libraries: present, not absent
        ("numpy.max", Status.MULTI_GPU),
        ("numpy.random.Generator.normal", Status.UNDOCUMENTED),
        ("numpy.random.Generator.choice", Status.NOT_IMPLEMENTED),
        ("numpy.random.RandomState.normal", Status.NOT_IMPLEMENTED),
        ("numpy.random.standard_normal", Status.NOT_IMPLEMENTED),
        ("numpy.ufunc.reduce", Status.UNDOCUMENTED),
        ("numpy.ufunc.at", Status.NOT_IMPLEMENTED),
        ("numpy.ma.masked_array", Status.NOT_IMPLEMENTED),
        ("numpy.in1d", Status.MULTI_GPU),  # NumPy 2 dropped it; cuPyNumeric kept it
        ("numpy.lib.stride_tricks.sliding_window_view", Status.NOT_IMPLEMENTED),
    ],
)
def test_lookup(shipped: Manifest, name: str, status: Status) -> None:
    entry = shipped.lookup(name)
    assert entry is not None and entry.status is status


@pytest.mark.parametrize("name", ["numpy.not_a_numpy_name", "numpy.random.Generator.frobnicate", "scipy.linalg.svd", "interp", ""])
def test_absent_names_are_not_found(shipped: Manifest, name: str) -> None:
    assert shipped.lookup(name) is None
    assert name not in shipped


def test_partial_entries_carry_the_note(shipped: Manifest) -> None:
    assert "batching" in (shipped.lookup("numpy.fft.fft").note or "")


def test_canonical_name() -> None:
    assert canonical_name("cupynumeric.fft.fft") == "numpy.fft.fft"
    assert canonical_name(" numpy.ndarray.all() ") == "numpy.ndarray.all"
    assert canonical_name("numpy.bytes\\_") == "numpy.bytes_"
    assert canonical_name("numpy.cupynumeric") == "numpy.cupynumeric"


# ------------------------------------------------------------------ staleness
def test_age_and_staleness(shipped: Manifest) -> None:
    # the shipped snapshot's sources were scraped on 2026-05-22, but it describes cuPyNumeric 26.6.1
    # (built 2026-07-17), confirmed the newest release on 2026-11-26: its age runs from that day
    assert shipped.snapshot_date == dt.date(2026, 5, 22) and shipped.release_date == dt.date(2026, 7, 17)
    current = shipped.current_as_of
    assert current == shipped.confirmed_newest == dt.date(2026, 11, 26)
    assert shipped.age_days(current) == 0
    assert not shipped.is_stale(current + dt.timedelta(days=90))
    assert shipped.is_stale(current + dt.timedelta(days=91))
    assert shipped.is_stale(current + dt.timedelta(days=10), max_age_days=5)
    state = shipped.staleness(current + dt.timedelta(days=184))
    assert (state.date, state.age_days, state.stale) == ("2026-11-26", 184, True)
    assert "cuPyNumeric 26.6.1" in state.message and "cpn-lint manifest refresh" in state.message
    assert not shipped.staleness(current).stale  # scraped 188 days before: still the newest release


def test_age_runs_from_the_latest_known_date(shipped: Manifest) -> None:
    from dataclasses import replace

    scraped_only = replace(shipped, release_date=None, confirmed_newest=None)
    assert scraped_only.current_as_of == dt.date(2026, 5, 22)
    released = replace(shipped, confirmed_newest=None)
    assert released.current_as_of == dt.date(2026, 7, 17)
    assert Manifest.from_json(shipped.to_json()).confirmed_newest == shipped.confirmed_newest


def test_stale_message_does_not_change_from_day_to_day(shipped: Manifest) -> None:
    one = shipped.staleness(dt.date(2027, 4, 1)).message
    two = shipped.staleness(dt.date(2027, 9, 1)).message
    assert one == two


def test_verdict_reads_the_staleness() -> None:
    from cpn_lint.verdict.command import manifest_note

    note = manifest_note()
    today = mf.bundled().staleness()
    assert note is not None
    assert (note.date, note.age_days, note.stale) == (today.date, today.age_days, today.stale)


# --------------------------------------------------------- reading manifests
def _minimal(**changes) -> dict:
    doc = {
        "format": mf.FORMAT, "format_version": 1, "snapshot_date": "2026-01-02",
        "apis": [{"api": "numpy.add", "status": "multi-gpu", "section": "Module-Level"}],
    }
    doc.update(changes)
    return doc


def test_minimal_manifest_loads(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(_minimal()), encoding="utf-8")
    loaded = mf.load(path)
    assert loaded.lookup("numpy.add") == ApiSupport("numpy.add", Status.MULTI_GPU, "Module-Level")
    assert loaded.sources == () and loaded.cupynumeric_version is None


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (_minimal(format="something-else"), "not a cpn-lint API manifest"),
        (_minimal(format_version=7), "format_version 7"),
        (_minimal(snapshot_date="22/05/2026"), "snapshot_date"),
        (_minimal(apis={"numpy.add": "multi-gpu"}), "'apis' must be a list"),
        (_minimal(apis=[{"api": "numpy.add", "status": "fast"}]), "unknown status 'fast'"),
        (_minimal(apis=[{"api": "np.add", "status": "multi-gpu"}]), "not a numpy.* name"),
        (_minimal(apis=[{"api": "numpy.add", "status": "multi-gpu"}] * 2), "listed twice"),
        (_minimal(counts={"apis": 2}), "counts do not match"),
    ],
)
def test_bad_manifests_are_refused(doc: dict, message: str) -> None:
    with pytest.raises(ManifestError, match=message):
        Manifest.from_json(json.dumps(doc))


def test_non_json_manifest_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ManifestError, match="not JSON"):
        mf.load(path)
    with pytest.raises(ManifestError, match="cannot read"):
        mf.load(tmp_path / "missing.json")


# -------------------------------------------------------------------- sources
@pytest.mark.parametrize(
    ("implemented", "single", "multi", "status"),
    [
        (False, "", "", Status.NOT_IMPLEMENTED),
        (True, "✓", "✓", Status.MULTI_GPU),
        (True, "✓", "❌", Status.SINGLE_GPU),
        (True, "🟡", "🟡", Status.PARTIAL),
        (True, "✓", "🟡", Status.PARTIAL),
        (True, "❌", "❌", Status.UNDOCUMENTED),
    ],
)
def test_status_from_the_generators_glyphs(implemented: bool, single: str, multi: str, status: Status) -> None:
    assert status_from_glyphs(implemented, single, multi) is status


def test_markdown_sample() -> None:
    table = parse_markdown((DATA / "api-support-sample.md").read_bytes(), "sample.md")
    assert table.retrieved == "2026-04-30T08:00:00+00:00"
    assert table.url.startswith("https://")
    assert {k: v.status.value for k, v in table.rows.items()} == {
        "numpy.add": "multi-gpu", "numpy.sum": "multi-gpu", "numpy.ix_": "multi-gpu", "numpy.flip": "single-gpu",
        "numpy.interp": "not-implemented", "numpy.vectorize": "not-implemented",
        "numpy.ndarray.mean": "multi-gpu", "numpy.ndarray.std": "not-implemented", "numpy.fft.rfft": "partial",
    }
    assert table.rows["numpy.fft.rfft"].note == "only batches of independent transforms are split across GPUs"
    assert table.declared["Module-Level"] == (5, 7)


def test_markdown_unlisted_apis_are_reported_after_the_merge() -> None:
    table = parse_markdown((DATA / "api-support-sample.md").read_bytes(), "sample.md")
    result = build_manifest([table], dt.date(2026, 4, 30), min_implemented=1)
    assert len(result.warnings) == 1 and "'Module-Level' counts 7 APIs" in result.warnings[0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# nothing here\n\nJust prose.\n", "no support lines"),
        ("## Module-Level (1 of 2 implemented)\n\n✓✓ numpy.add, rm -rf /\n", "not a numpy.\\* API name"),
        ("## Module-Level (1 of 1 implemented)\n\n✓✓ numpy.add, numpy.sum\n", "more than its heading"),
        ("## A\n\n✓✓ numpy.add\n\n## B\n\n✗ numpy.add\n", "multi-gpu in section 'A' but not-implemented"),
    ],
)
def test_malformed_markdown_is_refused(text: str, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        parse_markdown(text, "bad.md")


def test_html_sample() -> None:
    table = parse_html((DATA / "comparison-sample.html").read_bytes(), "comparison.html")
    assert table.retrieved == "2026-05-22"  # the page's "Last updated on" line
    assert {k: v.status.value for k, v in table.rows.items()} == {
        "numpy.absolute": "multi-gpu", "numpy.flip": "single-gpu", "numpy.float64": "undocumented",
        "numpy.interp": "not-implemented", "numpy.ix_": "multi-gpu", "numpy.vectorize": "not-implemented",
        "numpy.ndarray.mean": "multi-gpu", "numpy.ndarray.std": "not-implemented",
        "numpy.fft.fft": "partial", "numpy.fft.fftfreq": "not-implemented",
    }
    assert table.rows["numpy.ndarray.std"].section == "Multi-Dimensional Array"
    assert table.warnings == []  # the per-section summaries agree with the rows


def test_html_void_elements_and_scripts_do_not_hide_the_table() -> None:
    text = (
        '<h2>Linear Algebra<a class="headerlink" href="#la"><img src="link.svg">#<br></a></h2>'
        "<script>var t = '<table>';</script><p>Intro<br/>text</p>"
        "<table><thead><tr><th>NumPy</th><th>cupynumeric</th><th>single-GPU/CPU</th><th>multi-GPU/CPU</th></tr></thead>"
        "<tbody><tr><td><code>numpy.linalg.svd</code></td><td>cupynumeric.linalg.svd</td><td>✓</td><td>❌</td></tr>"
        "<tr><td>numpy.linalg.det</td><td>-</td><td></td><td></td></tr></tbody></table>"
    )
    table = parse_html(text, "page.html")
    assert {k: (v.section, v.status.value) for k, v in table.rows.items()} == {
        "numpy.linalg.svd": ("Linear Algebra", "single-gpu"), "numpy.linalg.det": ("Linear Algebra", "not-implemented")}


def test_html_summary_mismatch_is_a_warning() -> None:
    text = (DATA / "comparison-sample.html").read_text(encoding="utf-8").replace(
        "Number of NumPy functions: 6", "Number of NumPy functions: 9")
    table = parse_html(text, "comparison.html")
    assert any("counts 9 APIs, the table has 6" in w for w in table.warnings)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("<html><body><h2>Module-Level</h2><p>No table.</p></body></html>", "no comparison table"),
        ("<table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>b</td></tr></table>", "no comparison table"),
        (
            "<h2>S</h2><table><tr><th>NumPy</th><th>cupynumeric</th><th>single-GPU/CPU</th><th>multi-GPU/CPU</th></tr>"
            "<tr><td>numpy.add</td><td>cupynumeric.add</td><td>yes</td><td>yes</td></tr></table>",
            "unknown support glyph",
        ),
        (
            "<h2>S</h2><table><tr><th>NumPy</th><th>cupynumeric</th><th>single-GPU/CPU</th><th>multi-GPU/CPU</th></tr>"
            "<tr><td>numpy.add</td><td>cupynumeric.add</td></tr></table>",
            "has 2 cells",
        ),
    ],
)
def test_malformed_html_is_refused(text: str, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        parse_html(text, "bad.html")


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([1, 2], "'rows' list"),
        ({"rows": [{"section": "S", "implemented": True}]}, "needs 'numpy'"),
        ({"rows": [{"numpy": "numpy.add", "implemented": "yes"}]}, "must be true or false"),
        ({"rows": [{"numpy": "numpy.add", "implemented": True, "single": "?", "multi": "✓"}]}, "unknown support glyph"),
        ({"rows": [{"numpy": "numpy.add", "implemented": False, "single": "✓", "multi": "✓"}]}, "marked not implemented"),
    ],
)
def test_malformed_introspected_json_is_refused(doc: object, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        parse_introspected_json(json.dumps(doc), "bad.json")


def test_merge_refuses_disagreeing_sources() -> None:
    one = parse_markdown("## S\n\n✓✓ numpy.add\n", "one.md")
    two = parse_markdown("## S\n\n✗ numpy.add\n", "two.md")
    with pytest.raises(SourceError, match="disagree on 1 API"):
        build_manifest([one, two], dt.date(2026, 1, 1), min_implemented=0)


def test_merge_refuses_implausibly_few_implemented_apis() -> None:
    table = parse_markdown((DATA / "api-support-sample.md").read_bytes(), "sample.md")
    with pytest.raises(SourceError, match="implausibly few"):
        build_manifest([table], dt.date(2026, 4, 30))


def test_merge_keeps_partial_notes_from_the_previous_snapshot(shipped: Manifest) -> None:
    table = parse_html((DATA / "comparison-sample.html").read_bytes(), "comparison.html")
    result = build_manifest([table], dt.date(2026, 5, 22), notes_from=shipped, min_implemented=1)
    assert result.carried_notes == 1
    assert result.manifest.lookup("numpy.fft.fft").note == shipped.lookup("numpy.fft.fft").note


# ----------------------------------------------------------------- refreshing
@needs_shared_json
def test_refresh_from_the_introspected_json_rebuilds_the_snapshot(tmp_path: Path, capsys, shipped: Manifest) -> None:
    """Done-when of issue 4: the same status for every row that source covers."""
    out = tmp_path / "m.json"
    code, stdout, _ = _run(["refresh", "--from-json", str(SHARED_JSON), "--snapshot-date", "2026-05-22",
                            "--output", str(out)], capsys)
    assert code == 0
    rebuilt = mf.load(out)
    source = json.loads(SHARED_JSON.read_text(encoding="utf-8"))
    covered = {canonical_name(row["numpy"]) for row in source["rows"]}
    assert len(covered) == 616
    assert {a: s for a, s in _statuses(rebuilt).items() if a in covered} == \
        {a: s for a, s in _statuses(shipped).items() if a in covered}
    assert rebuilt.cupynumeric_version == "26.6.1" and rebuilt.numpy_version == "2.4.6"
    # the JSON has no notes: the previous snapshot's are kept
    assert rebuilt.lookup("numpy.fft.fft").note == shipped.lookup("numpy.fft.fft").note
    assert "616 APIs (412 implemented)" in stdout
    assert "0 status change(s), 0 API(s) added, 486 removed" in stdout  # the surface rows it does not have


@needs_shared_json
@needs_shared_markdown
def test_refresh_from_the_committed_sources_reproduces_the_committed_file(tmp_path: Path, capsys, shipped: Manifest) -> None:
    """manifest/README.md's recipe: the installed wheel's table with the surface
    rows, the shared table and the markdown (notes, date), two NumPy surfaces."""
    out = tmp_path / "m.json"
    surfaces = [arg for path in SURFACES for arg in ("--surface", str(path))]
    code, _, stderr = _run(["refresh", "--from-json", str(INSTALLED_TABLE), "--from-json", str(SHARED_JSON),
                            "--from-markdown", str(SHARED_MARKDOWN), *surfaces, "--output", str(out)], capsys)
    assert code == 0, stderr
    assert code == 0
    rebuilt = mf.load(out)
    assert rebuilt.snapshot_date == shipped.snapshot_date  # taken from the markdown's Fetched: line
    assert rebuilt.entries == shipped.entries
    assert rebuilt.sources == shipped.sources


@needs_shared_markdown
def test_refresh_from_the_markdown_alone_lacks_the_undocumented_rows(tmp_path: Path, capsys, shipped: Manifest) -> None:
    out = tmp_path / "m.json"
    code, stdout, _ = _run(["refresh", "--from-markdown", str(SHARED_MARKDOWN), "--output", str(out)], capsys)
    assert code == 0
    rebuilt = mf.load(out)
    assert len(rebuilt) == 576 and rebuilt.counts()["undocumented"] == 0
    assert {a: s for a, s in _statuses(shipped).items() if a in rebuilt.entries} == _statuses(rebuilt)
    assert stdout.count("warning:") == 4  # four sections count APIs the page lists without a glyph


def render_comparison_page(manifest: Manifest) -> str:
    """The manifest as the upstream page would show it (Sphinx csv-table markup)."""
    glyphs = {
        Status.MULTI_GPU: ("✓", "✓"), Status.SINGLE_GPU: ("✓", "❌"), Status.PARTIAL: ("🟡", "🟡"),
        Status.UNDOCUMENTED: ("❌", "❌"), Status.NOT_IMPLEMENTED: ("", ""),
    }
    sections: dict[str, list[ApiSupport]] = {}
    for entry in manifest:
        sections.setdefault(entry.section, []).append(entry)
    parts = ["<html><body><article>"]
    for title, entries in sections.items():
        parts.append(f'<section><h2>{html.escape(title)}<a class="headerlink" href="#x">#</a></h2><table class="table">')
        parts.append("<thead><tr><th><p>NumPy</p></th><th><p>cupynumeric</p></th><th><p>single-GPU/CPU</p></th>"
                     "<th><p>multi-GPU/CPU</p></th></tr></thead><tbody>")
        for e in entries:
            single, multi = glyphs[e.status]
            suffix = "()" if ".ndarray." in e.api else ""
            lg = "-" if e.status is Status.NOT_IMPLEMENTED else "cupynumeric" + e.api[len("numpy"):] + suffix
            parts.append(f'<tr><td><p><a class="reference external"><code><span class="pre">{e.api}{suffix}</span></code>'
                         f"</a></p></td><td><p>{lg}</p></td><td>{f'<p>{single}</p>' if single else ''}</td>"
                         f"<td>{f'<p>{multi}</p>' if multi else ''}</td></tr>")
        implemented = sum(1 for e in entries if e.status.implemented)
        parts.append(f'</tbody></table><p class="rubric">Summary</p><p>Number of NumPy functions: {len(entries)}</p>'
                     f"<p>Number of functions covered by cupynumeric: {implemented}</p></section>")
    parts.append("</article></body></html>")
    return "\n".join(parts)


def test_refresh_from_a_full_html_page(tmp_path: Path, capsys, shipped: Manifest) -> None:
    page = tmp_path / "comparison.html"
    page.write_text(render_comparison_page(shipped), encoding="utf-8")
    out = tmp_path / "m.json"
    code, stdout, stderr = _run(["refresh", "--from-html", str(page), "--snapshot-date", "2026-05-22",
                                 "--output", str(out)], capsys)
    assert code == 0, stderr
    rebuilt = mf.load(out)
    assert _statuses(rebuilt) == _statuses(shipped)
    assert "kept 14 partial-support note(s)" in stdout
    assert "warning" not in stdout


def test_refresh_from_the_html_sample_needs_a_lower_threshold(tmp_path: Path, capsys) -> None:
    out = tmp_path / "m.json"
    code, _, stderr = _run(["refresh", "--from-html", str(DATA / "comparison-sample.html"), "--output", str(out)], capsys)
    assert code == 2 and "implausibly few" in stderr and not out.exists()
    code, stdout, _ = _run(["refresh", "--from-html", str(DATA / "comparison-sample.html"), "--output", str(out),
                            "--min-implemented", "3", "--no-previous"], capsys)
    assert code == 0
    small = mf.load(out)
    assert small.snapshot_date == dt.date(2026, 5, 22)
    assert small.counts() == {"multi-gpu": 3, "single-gpu": 1, "partial": 1, "undocumented": 1, "not-implemented": 4}
    assert small.lookup("numpy.fft.fft").note is None  # --no-previous: nothing to keep notes from
    assert "10 APIs (6 implemented)" in stdout


def test_refresh_from_markdown_sample(tmp_path: Path, capsys) -> None:
    out = tmp_path / "m.json"
    code, stdout, _ = _run(["refresh", "--from-markdown", str(DATA / "api-support-sample.md"), "--output", str(out),
                            "--min-implemented", "1"], capsys)
    assert code == 0
    small = mf.load(out)
    assert small.snapshot_date == dt.date(2026, 4, 30)
    assert small.lookup("numpy.fft.rfft").note == "only batches of independent transforms are split across GPUs"
    # compared with the shipped snapshot: same statuses, the rest missing
    assert "0 status change(s), 0 API(s) added, 1093 removed" in stdout


def test_refresh_from_an_introspected_json_without_date_needs_one(tmp_path: Path, capsys) -> None:
    source = tmp_path / "table.json"
    source.write_text(json.dumps({"rows": [{"numpy": "numpy.add", "implemented": True, "single": "✓", "multi": "✓"}]}),
                      encoding="utf-8")
    out = tmp_path / "m.json"
    code, _, stderr = _run(["refresh", "--from-json", str(source), "--output", str(out), "--min-implemented", "1"], capsys)
    assert code == 2 and "--snapshot-date" in stderr
    code, _, _ = _run(["refresh", "--from-json", str(source), "--output", str(out), "--min-implemented", "1",
                       "--snapshot-date", "2026-03-01"], capsys)
    assert code == 0 and mf.load(out).snapshot_date == dt.date(2026, 3, 1)


def test_refresh_from_a_malformed_input_writes_nothing(tmp_path: Path, capsys) -> None:
    source = tmp_path / "broken.md"
    source.write_text("## Module-Level (1 of 1 implemented)\n\n✓✓ numpy.add, numpy.sum\n", encoding="utf-8")
    out = tmp_path / "m.json"
    code, _, stderr = _run(["refresh", "--from-markdown", str(source), "--output", str(out)], capsys)
    assert code == 2 and "more than its heading" in stderr
    assert not out.exists()


def test_refresh_writes_only_where_told_and_refuses_to_overwrite(tmp_path: Path, capsys, shipped: Manifest) -> None:
    page = tmp_path / "comparison.html"
    page.write_text(render_comparison_page(shipped), encoding="utf-8")
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    argv = ["refresh", "--from-html", str(page), "--snapshot-date", "2026-05-22", "--output", str(first),
            "--output", str(second)]
    assert _run(argv, capsys)[0] == 0
    assert first.read_bytes() == second.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json", "comparison.html"]
    code, _, stderr = _run(argv, capsys)  # an existing manifest: replaced only with --force
    assert code == 2 and "add --force" in stderr
    first.write_text("keep me", encoding="utf-8")
    for extra in ([], ["--force"]):  # a file of another kind: never replaced
        code, _, stderr = _run(argv + extra, capsys)
        assert code == 2 and "is not a cpn-lint manifest" in stderr
        assert first.read_text(encoding="utf-8") == "keep me"
    first.unlink()
    assert _run(argv + ["--force"], capsys)[0] == 0
    assert first.read_bytes() == second.read_bytes()


def test_refresh_to_stdout(tmp_path: Path, capsys, shipped: Manifest) -> None:
    page = tmp_path / "comparison.html"
    page.write_text(render_comparison_page(shipped), encoding="utf-8")
    code, stdout, stderr = _run(["refresh", "--from-html", str(page), "--snapshot-date", "2026-05-22", "-o", "-"], capsys)
    assert code == 0
    assert Manifest.from_json(stdout).entries.keys() == shipped.entries.keys()
    assert "1102 APIs" in stderr  # the report goes to stderr when stdout carries the manifest


@pytest.mark.parametrize(
    "argv",
    [
        ["refresh", "--output", "x.json"],
        ["refresh", "--from-json", "missing-file.json", "--output", "-"],
    ],
)
def test_refresh_usage_errors(argv: list[str], capsys) -> None:
    code, _, stderr = _run(argv, capsys)
    assert code == 2 and stderr.startswith("cpn-lint manifest: error:")


def test_refresh_writes_to_the_user_cache_by_default(tmp_path: Path, capsys, monkeypatch, shipped: Manifest) -> None:
    """Issue 12: the refreshed manifest lands in the user's cache, and every
    command reads it from there unless told otherwise."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    page = tmp_path / "comparison.html"
    page.write_text(render_comparison_page(shipped), encoding="utf-8")
    code, stdout, stderr = _run(["refresh", "--from-html", str(page), "--snapshot-date", "2026-11-01"], capsys)
    assert code == 0, stderr
    cached = tmp_path / "cache" / "cpn-lint" / "api-manifest.json"
    assert cached.is_file() and f"wrote {cached}" in stdout
    assert mf.default_path() == cached and mf.resolve().snapshot_date == dt.date(2026, 11, 1)
    code, stdout, _ = _run(["show", "--today", "2026-11-02"], capsys)
    assert f"manifest: {cached}" in stdout and "(1 days ago" in stdout
    # a second refresh replaces the cached copy without --force
    assert _run(["refresh", "--from-html", str(page), "--snapshot-date", "2026-11-02"], capsys)[0] == 0
    assert mf.resolve().snapshot_date == dt.date(2026, 11, 2)


def test_refresh_never_writes_into_the_installed_package(capsys) -> None:
    target = mf.package_dir() / "data" / "api-manifest.json"
    before = target.read_bytes()
    code, _, stderr = _run(["refresh", "--from-markdown", str(DATA / "api-support-sample.md"), "--min-implemented", "1",
                            "--manifest", str(target), "--force"], capsys)
    assert code == 2 and "inside the installed cpn-lint package" in stderr
    assert target.read_bytes() == before


def test_a_broken_cached_manifest_falls_back_to_the_shipped_one(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "cpn-lint").mkdir()
    (tmp_path / "cpn-lint" / "api-manifest.json").write_text("{broken", encoding="utf-8")
    assert mf.resolve() is mf.bundled()
    with pytest.raises(ManifestError):
        mf.resolve(tmp_path / "cpn-lint" / "api-manifest.json")  # named explicitly: an error


# ------------------------------------------------------- installed cuPyNumeric
FAKE_INIT = '''
"""A stand-in for cuPyNumeric with a handful of documented functions."""
from numpy import float64  # re-exported unchanged, like the real package

from . import fft, linalg, random

__version__ = "0.0.test"


def add(a, b):
    """Add.

    Availability
    --------
    Multiple GPUs, Multiple CPUs
    """


def flip(a, axis=None):
    """Flip.

    Availability
    --------
    Single GPU, Single CPU
    """


def load(file):
    """Load.

    Availability
    --------
    Single CPU
    """


class ndarray:
    def mean(self):
        """Mean.

        Availability
        --------
        Multiple GPUs, Multiple CPUs
        """

    def cumsum(self):
        pass
'''
FAKE_MODULES = {
    "linalg.py": 'def svd(a):\n    """Availability\n    --------\n    Single GPU\n    """\n',
    "fft.py": 'def fft(a):\n    """Availability\n    --------\n    Multiple GPUs (partial)\n    """\n',
    "random.py": 'def rand(*shape):\n    """Availability\n    --------\n    Multiple GPUs, Multiple CPUs\n    """\n',
}


def _fake_cupynumeric(root: Path, init: str = FAKE_INIT) -> Path:
    package = root / "cupynumeric"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(init, encoding="utf-8")
    for name, text in FAKE_MODULES.items():
        (package / name).write_text(text, encoding="utf-8")
    return root


@pytest.mark.slow
def test_refresh_from_an_installed_package(tmp_path: Path, capsys, monkeypatch) -> None:
    pytest.importorskip("numpy")
    monkeypatch.setenv("PYTHONPATH", str(_fake_cupynumeric(tmp_path / "site")))
    out = tmp_path / "m.json"
    code, stdout, stderr = _run(["refresh", "--from", "installed", "--python", sys.executable, "--output", str(out),
                                 "--min-implemented", "1", "--no-previous"], capsys)
    assert code == 0, stderr
    table = mf.load(out)
    assert table.cupynumeric_version == "0.0.test"
    assert table.snapshot_date == dt.date.today()
    expected = {
        "numpy.add": "multi-gpu", "numpy.flip": "single-gpu", "numpy.load": "undocumented",
        "numpy.float64": "undocumented", "numpy.interp": "not-implemented", "numpy.ndarray.mean": "multi-gpu",
        "numpy.ndarray.cumsum": "undocumented", "numpy.ndarray.std": "not-implemented",
        "numpy.linalg.svd": "single-gpu", "numpy.fft.fft": "partial", "numpy.random.rand": "multi-gpu",
    }
    assert {a: table.lookup(a).status.value for a in expected} == expected
    assert table.lookup("numpy.load").note == "documented availability: Single CPU"
    (source,) = table.sources
    assert source.kind == "installed" and "restatement" in (source.detail or "")
    assert "read installed" in stdout


@pytest.mark.slow
def test_installed_introspection_never_imports_from_the_working_directory(tmp_path: Path, capsys, monkeypatch) -> None:
    _fake_cupynumeric(tmp_path / "project")
    monkeypatch.chdir(tmp_path / "project")
    monkeypatch.delenv("PYTHONPATH", raising=False)
    code, _, stderr = _run(["refresh", "--from", "installed", "--python", sys.executable, "--output", "-"], capsys)
    assert code == 2
    assert "cannot import cupynumeric" in stderr


@pytest.mark.slow
def test_installed_introspection_reports_a_package_that_fails_to_import(tmp_path: Path, capsys, monkeypatch) -> None:
    site = _fake_cupynumeric(tmp_path / "site", init="raise ImportError('libcuda.so.1: cannot open shared object')\n")
    monkeypatch.setenv("PYTHONPATH", str(site))
    code, _, stderr = _run(["refresh", "--from", "installed", "--python", sys.executable, "--output", "-"], capsys)
    assert code == 2 and "libcuda.so.1" in stderr


def test_installed_introspection_with_a_missing_interpreter(tmp_path: Path, capsys) -> None:
    code, _, stderr = _run(["refresh", "--from", "installed", "--python", str(tmp_path / "nope" / "python"),
                            "--output", "-"], capsys)
    assert code == 2 and "no Python interpreter" in stderr


@pytest.mark.oracle
def test_refresh_from_the_real_cupynumeric_matches_the_snapshot(tmp_path: Path, capsys, monkeypatch, shipped: Manifest) -> None:
    """The library's own generator, run in the oracle environment, agrees with
    every status of the committed snapshot."""
    from cpn_lint import oracle

    venv = oracle.default_venv() if oracle.default_venv().is_absolute() else ROOT / oracle.default_venv()
    if oracle.installed_version(venv) is None:
        pytest.skip("the cuPyNumeric oracle environment is not set up")
    for key, value in oracle.oracle_environment(venv, tmp_path / "doctor.json").items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    out = tmp_path / "m.json"
    surfaces = [arg for path in SURFACES for arg in ("--surface", str(path))]
    code, stdout, stderr = _run(["refresh", "--from", "installed", "--python", str(oracle.venv_python(venv)),
                                 *surfaces, "--output", str(out)], capsys)
    assert code == 0, stderr
    live = mf.load(out)
    assert live.cupynumeric_version == oracle.installed_version(venv)
    assert "library's comparison-table generator" in (live.sources[0].detail or "")
    if live.cupynumeric_version == shipped.cupynumeric_version:
        assert _statuses(live) == _statuses(shipped)
        assert {e.api: e.lacks for e in live} == {e.api: e.lacks for e in shipped}


# ------------------------------------------------------------- show / lookup
def test_show(capsys, shipped: Manifest) -> None:
    code, stdout, _ = _run(["show", "--today", "2026-12-06"], capsys)
    assert code == 0
    assert "snapshot: current as of 2026-11-26 (10 days ago; current" in stdout
    assert "sources taken 2026-05-22, release of 2026-07-17" in stdout
    assert "cuPyNumeric 26.6.1, NumPy 2.4.6" in stdout
    assert ("1102 APIs (483 implemented): 359 multi-gpu, 9 single-gpu, 14 partial, 101 undocumented, "
            "619 not-implemented") in stdout
    assert "source: markdown api-support.md" in stdout and "those of NumPy 1.26.4, 2.4.6" in stdout
    assert "warning:" not in stdout
    code, stdout, _ = _run(["show", "--today", "2027-05-29"], capsys)
    assert "184 days ago; STALE" in stdout
    assert stdout.startswith("warning: the API manifest describes cuPyNumeric 26.6.1")  # before what it qualifies


def test_show_json(capsys) -> None:
    code, stdout, _ = _run(["show", "--json", "--today", "2027-02-24"], capsys)
    summary = json.loads(stdout)
    assert code == 0
    assert (summary["snapshot_date"], summary["current_as_of"], summary["age_days"], summary["stale"]) == (
        "2026-05-22", "2026-11-26", 90, False)
    assert summary["counts"]["not-implemented"] == 619


def test_show_another_manifest(tmp_path: Path, capsys) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(_minimal()), encoding="utf-8")
    code, stdout, _ = _run(["show", "--manifest", str(path), "--today", "2026-01-03"], capsys)
    assert code == 0 and "1 APIs (1 implemented)" in stdout and "(1 days ago" in stdout
    path.write_text("[]", encoding="utf-8")
    code, _, stderr = _run(["show", "--manifest", str(path)], capsys)
    assert code == 2 and "not a cpn-lint API manifest" in stderr


def test_lookup_command(capsys) -> None:
    code, stdout, _ = _run(["lookup", "numpy.interp", "cupynumeric.fft.fft", "numpy.frobnicate", "numpy.product"], capsys)
    assert code == 0
    lines = stdout.splitlines()
    assert lines[0] == "numpy.interp: not-implemented (Module-Level) — cuPyNumeric has no such name (AttributeError)"
    assert lines[1].startswith("numpy.fft.fft: partial (Discrete Fourier Transform) — multi-GPU partial")
    assert lines[2].startswith("numpy.frobnicate: not a NumPy name the manifest covers")
    assert lines[3].endswith("only in NumPy 1.26.4 — use numpy.prod")


@pytest.mark.e2e
def test_cli_entry_points_delegate(capsys) -> None:
    from cpn_lint.cli import main as cli_main

    assert cli_main(["manifest", "lookup", "numpy.flip"]) == 0
    assert "numpy.flip: single-gpu" in capsys.readouterr().out


# ------------------------------------------------------------------ surfaces
def test_surface_of_this_numpy(tmp_path: Path, capsys) -> None:
    """`cpn-lint manifest surface` lists the running NumPy's names with kinds."""
    import numpy

    out = tmp_path / "surface.json"
    code, stdout, _ = _run(["surface", "--python", sys.executable, "-o", str(out)], capsys)
    assert code == 0 and f"NumPy {numpy.__version__}" in stdout
    from cpn_lint.manifest.surface import read_surface

    surface = read_surface(out)
    names = surface.names
    assert names["numpy.add"] == "ufunc" and names["numpy.ndarray.std"] == "method"
    assert names["numpy.ufunc.at"] == "method" and names["numpy.random.Generator.choice"] == "method"
    assert names["numpy.ma.masked_array"] in ("class", "function") and names["numpy.newaxis"] == "object"
    assert not any(n.split(".")[-1].startswith("_") for n in names)
    assert _run(["surface", "--python", sys.executable, "-o", str(out)], capsys)[0] == 2  # exists: --force


def test_surfaces_annotate_the_rows() -> None:
    from cpn_lint.manifest.surface import NumpySurface, annotate

    old = NumpySurface("1.26.4", {"numpy.product": "function", "numpy.prod": "function", "numpy.add": "ufunc"})
    new = NumpySurface("2.4.6", {"numpy.prod": "function", "numpy.add": "ufunc", "numpy.vecdot": "function"})
    entries = {
        "numpy.product": ApiSupport("numpy.product", Status.NOT_IMPLEMENTED, lacks=True),
        "numpy.prod": ApiSupport("numpy.prod", Status.MULTI_GPU),
        "numpy.add": ApiSupport("numpy.add", Status.MULTI_GPU),
    }
    warnings = annotate(entries, [old, new])
    assert entries["numpy.product"].releases == ("1.26.4",) and entries["numpy.product"].replacement == "numpy.prod"
    assert entries["numpy.prod"].releases == () and entries["numpy.add"].kind == "ufunc"
    assert len(warnings) == 1 and "numpy.vecdot" in warnings[0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[]", "not a NumPy surface"),
        ('{"numpy_version": "2.0", "names": {"scipy.x": "function"}}', "not numpy.* names"),
        ('{"numpy_version": "2.0", "names": {"numpy.x": "gadget"}}', "known kind"),
        ("{", "not JSON"),
    ],
)
def test_malformed_surfaces_are_refused(text: str, message: str) -> None:
    from cpn_lint.manifest.surface import parse_surface

    with pytest.raises(SourceError, match=message):
        parse_surface(text)


def test_version_1_manifests_are_still_read(shipped: Manifest) -> None:
    data = json.loads(CANONICAL.read_text(encoding="utf-8"))
    data["format_version"] = 1
    for row in data["apis"]:
        for key in ("lacks", "kind", "releases", "replacement"):
            row.pop(key, None)
    old = Manifest.from_json(json.dumps(data))
    assert old.lookup("numpy.trapz").lacks is None and _statuses(old) == _statuses(shipped)


def test_bare_refresh_reads_the_installed_cupynumeric_else_the_page_else_says_what_to_pass(
        tmp_path: Path, capsys, monkeypatch, shipped: Manifest) -> None:
    """Issue 25: `cpn-lint manifest refresh` with no input works when it can,
    and otherwise names exactly what to pass."""
    from cpn_lint.manifest import command

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(command, "_has_cupynumeric", lambda python: False)

    def offline(url: str, target: Path, timeout: float = 20.0) -> None:
        raise OSError("network unreachable")

    monkeypatch.setattr(command, "_download", offline)
    code, _, stderr = _run(["refresh"], capsys)
    assert code == 2 and "--from installed --python PATH" in stderr and "--from-html FILE" in stderr
    assert command.UPSTREAM_PAGE in stderr and not (tmp_path / "cache").exists()

    page_text = render_comparison_page(shipped)

    def fetched(url: str, target: Path, timeout: float = 20.0) -> None:
        assert url == command.UPSTREAM_PAGE
        target.write_text(page_text, encoding="utf-8")

    monkeypatch.setattr(command, "_download", fetched)
    code, stdout, stderr = _run(["refresh"], capsys)
    assert code == 0, stderr
    assert f"read {command.UPSTREAM_PAGE}" in stdout
    refreshed = mf.resolve()
    assert refreshed.snapshot_date == dt.date.today() and len(refreshed) == len(shipped)
