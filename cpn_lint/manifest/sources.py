"""Readers of the support tables a manifest is built from, and the merge.

Four inputs, one result (:class:`SourceTable`):

* the markdown manifest (``api-support.md``: glyph lines ``✓✓ numpy.a, numpy.b``
  under ``## Section (X of Y implemented)`` headings, 🟡 lines with a note);
* a saved copy of the upstream comparison page (HTML rendered by Sphinx from
  the library's own ``comparison-table`` directive: one table per section,
  columns NumPy / cupynumeric / single-GPU/CPU / multi-GPU/CPU);
* the introspected JSON table (``{"cupynumeric_version", "numpy_version",
  "rows": [{"section", "numpy", "implemented", "single", "multi"}]}``), which
  is also what the installed-package introspection produces;
* an installed cuPyNumeric, read in a subprocess of its own interpreter
  (:mod:`cpn_lint.manifest.introspect`).

The glyphs of the library's generator: ``✓`` yes, ``❌`` no, ``🟡`` partial,
empty when the API is not implemented. A row that is implemented but ``❌``
in both GPU columns is an object whose docstring has no Availability section
naming a GPU (NumPy's dtypes re-exported as they are, ``ndarray.cumsum``,
``numpy.load`` documented as "Single CPU"): status ``undocumented``.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from . import ApiSupport, Manifest, ManifestError, SourceError, SourceInfo, Status, canonical_name, is_api_name
from .surface import NumpySurface, annotate

YES, NO, PARTIAL = "\u2713", "\u274c", "\U0001f7e1"
_GLYPHS = {"": None, YES: YES, NO: NO, PARTIAL: PARTIAL}

# The five sections of the library's "numpy" comparison table, in its order;
# other (grouped) sections repeat the same APIs.
NUMPY_SECTIONS = ("Module-Level", "Multi-Dimensional Array", "Linear Algebra", "Discrete Fourier Transform", "Random Sampling")

MIN_IMPLEMENTED = 100  # fewer implemented APIs than this: a truncated or wrong table


@dataclass
class SourceTable:
    """The rows one input provides, keyed by canonical NumPy name."""

    kind: str
    name: str
    rows: dict[str, ApiSupport] = field(default_factory=dict)
    raw_rows: int = 0
    cupynumeric_version: str | None = None
    numpy_version: str | None = None
    retrieved: str | None = None
    url: str | None = None
    sha256: str | None = None
    detail: str | None = None
    warnings: list[str] = field(default_factory=list)
    # section -> (implemented, total) as the source's own headings count them
    declared: dict[str, tuple[int, int]] = field(default_factory=dict)

    def add(self, row: ApiSupport, where: str) -> None:
        """Record a row; a repeat must agree with the first sighting."""
        self.raw_rows += 1
        if not is_api_name(row.api):
            raise SourceError(f"{self.name}: {where}: {row.api!r} is not a numpy.* API name")
        seen = self.rows.get(row.api)
        if seen is None:
            self.rows[row.api] = row
            return
        if seen.status is not row.status:
            raise SourceError(
                f"{self.name}: {row.api} is {seen.status.value} in section {seen.section!r} "
                f"but {row.status.value} in {row.section!r} ({where})"
            )
        self.rows[row.api] = _combined(seen, row)

    def info(self) -> SourceInfo:
        return SourceInfo(self.kind, self.name, self.raw_rows, len(self.rows), self.retrieved, self.url,
                          self.sha256, self.detail)


def status_from_glyphs(implemented: bool, single: str, multi: str) -> Status:
    """The library generator's columns -> one status.

    Multi-GPU support decides (it implies single-GPU support); partial
    multi-GPU support is ``partial``; single-GPU only is ``single-gpu``; an
    implemented API with neither column set has no documented availability.
    """
    if not implemented:
        return Status.NOT_IMPLEMENTED
    if multi == YES:
        return Status.MULTI_GPU
    if multi == PARTIAL or single == PARTIAL:
        return Status.PARTIAL
    if single == YES:
        return Status.SINGLE_GPU
    return Status.UNDOCUMENTED


def _glyph(value: Any, where: str, source: str) -> str:
    text = str(value if value is not None else "").strip().replace("\ufe0f", "")
    if text not in _GLYPHS:
        raise SourceError(f"{source}: {where}: unknown support glyph {text!r} (expected ✓, ❌, 🟡 or empty)")
    return _GLYPHS[text] or ""


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ----------------------------------------------------------------- JSON table
def parse_introspected_json(data: bytes | str, name: str = "<json>", kind: str = "introspected-json") -> SourceTable:
    """The introspected table (the format ``cpn-lint manifest refresh --from
    installed`` produces in its subprocess)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SourceError(f"{name}: not a JSON document ({exc})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
        raise SourceError(f"{name}: expected an object with a 'rows' list (the introspected table format)")
    table = SourceTable(kind, name, sha256=_digest(raw))
    table.cupynumeric_version = _optional_str(doc.get("cupynumeric_version"))
    table.numpy_version = _optional_str(doc.get("numpy_version"))
    table.retrieved = _optional_str(doc.get("retrieved"))
    table.detail = _optional_str(doc.get("method"))
    for i, row in enumerate(doc["rows"]):
        where = f"row {i}"
        if not isinstance(row, dict) or not isinstance(row.get("numpy"), str) or "implemented" not in row:
            raise SourceError(f"{name}: {where} needs 'numpy' (a name) and 'implemented'")
        if not isinstance(row["implemented"], bool):
            raise SourceError(f"{name}: {where} ({row['numpy']}): 'implemented' must be true or false")
        single = _glyph(row.get("single"), where, name)
        multi = _glyph(row.get("multi"), where, name)
        if not row["implemented"] and (single or multi):
            raise SourceError(f"{name}: {where} ({row['numpy']}): support glyphs on an API marked not implemented")
        status = status_from_glyphs(row["implemented"], single, multi)
        note = _optional_str(row.get("note"))
        if note is None and status is Status.UNDOCUMENTED and row.get("availability"):
            note = f"documented availability: {row['availability']}"
        lacks = _lacks(row, status, where, name)
        table.add(ApiSupport(canonical_name(row["numpy"]), status, str(row.get("section") or ""), note, lacks), where)
    return table


def _lacks(row: Mapping[str, Any], status: Status, where: str, name: str) -> bool | None:
    """Whether cuPyNumeric has no attribute at all for a name it does not
    implement (``present``, written by the installed-package probe)."""
    present = row.get("present")
    if present is None:
        return None
    if not isinstance(present, bool):
        raise SourceError(f"{name}: {where} ({row['numpy']}): 'present' must be true or false")
    if status.implemented and not present:
        raise SourceError(f"{name}: {where} ({row['numpy']}): implemented, yet cuPyNumeric has no such attribute")
    return None if status.implemented else not present


def _combined(seen: ApiSupport, row: ApiSupport) -> ApiSupport:
    """One API's row seen twice (in agreement): keep what either sighting adds."""
    return replace(seen, note=seen.note or row.note, lacks=seen.lacks if seen.lacks is not None else row.lacks)


def _optional_str(value: Any) -> str | None:
    return str(value) if value not in (None, "") else None


# ------------------------------------------------------------------ markdown
_MD_GLYPHS = {"✓✓": Status.MULTI_GPU, "✓": Status.SINGLE_GPU, "🟡": Status.PARTIAL, "✗": Status.NOT_IMPLEMENTED}
_MD_LINE = re.compile(r"^(✓✓|✓|🟡|✗)\s+(.+)$")
_MD_SECTION = re.compile(r"^##\s+(.+?)(?:\s+\((\d+)\s+of\s+(\d+)\s+implemented\))?\s*$")
_MD_NOTE_SEPARATOR = re.compile(r"\s+[—–]\s+|\s+--\s+")


def parse_markdown(data: bytes | str, name: str = "<markdown>") -> SourceTable:
    """The markdown manifest: ``Source:``/``Fetched:`` header lines, sections
    ``## Title (X of Y implemented)``, glyph lines listing names, and one 🟡
    line per partially supported API with its note after a dash."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(f"{name}: not UTF-8 text ({exc})") from None
    table = SourceTable("markdown", name, sha256=_digest(raw))
    section: str | None = None
    declared: dict[str, tuple[int, int]] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if line.lower().startswith("source:") and table.url is None:
            table.url = line.split(":", 1)[1].strip() or None
        elif line.lower().startswith(("fetched:", "scraped:", "retrieved:")) and table.retrieved is None:
            table.retrieved = line.split(":", 1)[1].strip() or None
        elif (heading := _MD_SECTION.match(line)) and line.startswith("## "):
            section = heading.group(1).strip()
            if heading.group(2):
                declared[section] = (int(heading.group(2)), int(heading.group(3)))
        elif (entry := _MD_LINE.match(line)) and section is not None:
            _markdown_entries(table, section, entry.group(1), entry.group(2), f"line {lineno}")
    if not table.rows:
        raise SourceError(f"{name}: no support lines found (expected '## Section' headings followed by "
                          "lines such as '✓✓ numpy.add, numpy.sum')")
    _check_markdown_counts(table, declared)
    return table


def _markdown_entries(table: SourceTable, section: str, glyph: str, rest: str, where: str) -> None:
    status = _MD_GLYPHS[glyph]
    if status is Status.PARTIAL:
        parts = _MD_NOTE_SEPARATOR.split(rest, maxsplit=1)
        names, note = [parts[0]], (parts[1].strip() if len(parts) > 1 else None)
    else:
        names, note = rest.split(","), None
    for raw_name in names:
        api = canonical_name(raw_name)
        if not api:
            continue
        table.add(ApiSupport(api, status, section, note or None), where)


def _check_markdown_counts(table: SourceTable, declared: Mapping[str, tuple[int, int]]) -> None:
    """A section may not list more APIs than its heading counts; it may list
    fewer (the upstream page gives no GPU glyph to an implemented API without
    an availability note), which :func:`build_manifest` reports unless
    another source supplies them."""
    for section, (implemented, total) in declared.items():
        rows = [r for r in table.rows.values() if r.section == section]
        listed_implemented = sum(1 for r in rows if r.status.implemented)
        if listed_implemented > implemented or len(rows) > total:
            raise SourceError(f"{table.name}: section {section!r} lists {len(rows)} APIs ({listed_implemented} "
                              f"implemented), more than its heading's {implemented} of {total}")
        table.declared[section] = (implemented, total)


# ---------------------------------------------------------------------- HTML
_VOID_ELEMENTS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})


class _ComparisonPage(HTMLParser):
    """Collects headings and table rows from a Sphinx-rendered page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[tuple[str, Any]] = []  # ("heading", text) / ("table", rows) / ("text", text)
        self._heading: list[str] | None = None
        self._heading_depth = 0
        self._skip_depth = 0  # inside <a class="headerlink">, <script>, <style>
        self._tables: list[list[list[tuple[str, bool]]]] = []  # rows of cells (text, is_header)
        self._cell: list[str] | None = None
        self._cell_is_header = False
        self._paragraph: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID_ELEMENTS:
            return  # no end tag follows: must not open a skipped region
        classes = (dict(attrs).get("class") or "").split()
        if self._skip_depth or tag in ("script", "style") or (tag == "a" and "headerlink" in classes):
            self._skip_depth += 1
            return
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._heading = []
        elif tag == "table":
            self._tables.append([])
        elif tag == "tr" and self._tables:
            self._tables[-1].append([])
        elif tag in ("td", "th") and self._tables and self._tables[-1]:
            self._cell, self._cell_is_header = [], tag == "th"
        elif tag == "p" and self._cell is None and not self._tables:
            self._paragraph = []

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID_ELEMENTS:
            return
        if self._skip_depth:
            self._skip_depth -= 1
            return
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self._heading is not None:
            self.events.append(("heading", _squash("".join(self._heading))))
            self._heading = None
        elif tag in ("td", "th") and self._cell is not None and self._tables and self._tables[-1]:
            self._tables[-1][-1].append((_squash("".join(self._cell)), self._cell_is_header))
            self._cell = None
        elif tag == "table" and self._tables:
            self.events.append(("table", self._tables.pop()))
        elif tag == "p" and self._paragraph is not None:
            self.events.append(("text", _squash("".join(self._paragraph))))
            self._paragraph = None

    def handle_data(self, data: str) -> None:
        if self._skip_depth:
            return
        for sink in (self._heading, self._cell, self._paragraph):
            if sink is not None:
                sink.append(data)


def _squash(text: str) -> str:
    return " ".join(text.split())


_HEADER_ALIASES = {
    "numpy": "numpy",
    "cupynumeric": "cupynumeric",
    "single-gpu/cpu": "single",
    "single-gpu": "single",
    "multi-gpu/cpu": "multi",
    "multi-gpu": "multi",
}
_UPDATED = re.compile(r"(?:last updated on|last updated:?|updated on)\s+(.+?)\.?$", re.IGNORECASE)
_COUNT_NP = re.compile(r"Number of NumPy functions:\s*(\d+)")
_COUNT_LG = re.compile(r"Number of functions covered by cupynumeric:\s*(\d+)", re.IGNORECASE)


def parse_html(data: bytes | str, name: str = "<html>") -> SourceTable:
    """A saved copy of the upstream comparison page."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(f"{name}: not UTF-8 text ({exc})") from None
    page = _ComparisonPage()
    page.feed(text)
    page.close()
    table = SourceTable("html", name, sha256=_digest(raw))
    section = ""
    tables = 0
    summary: dict[str, list[int]] = {}
    for kind, value in page.events:
        if kind == "heading":
            section = value
        elif kind == "text":
            _note_page_text(table, section, value, summary)
        elif kind == "table" and _read_comparison_table(table, section, value):
            tables += 1
    if not tables:
        raise SourceError(f"{name}: no comparison table found (expected tables with the columns NumPy, "
                          "cupynumeric, single-GPU/CPU, multi-GPU/CPU)")
    _check_html_summaries(table, summary)
    return table


def _note_page_text(table: SourceTable, section: str, text: str, summary: dict[str, list[int]]) -> None:
    if (match := _UPDATED.search(text)) and table.retrieved is None:
        table.retrieved = _parse_date(match.group(1))
    if match := _COUNT_NP.search(text):
        summary.setdefault(section, [0, 0])[0] = int(match.group(1))
    if match := _COUNT_LG.search(text):
        summary.setdefault(section, [0, 0])[1] = int(match.group(1))


def _read_comparison_table(table: SourceTable, section: str, rows: list[list[tuple[str, bool]]]) -> bool:
    if not rows:
        return False
    header = [_HEADER_ALIASES.get(text.strip().lower()) for text, _ in rows[0]]
    if not {"numpy", "cupynumeric", "single", "multi"} <= set(header):
        return False
    column = {key: header.index(key) for key in ("numpy", "cupynumeric", "single", "multi")}
    for i, cells in enumerate(rows[1:], start=1):
        where = f"section {section!r}, row {i}"
        if len(cells) < len(header):
            raise SourceError(f"{table.name}: {where} has {len(cells)} cells, expected {len(header)}")
        api = canonical_name(cells[column["numpy"]][0])
        implemented = cells[column["cupynumeric"]][0].strip() not in ("", "-", "—")
        single = _glyph(cells[column["single"]][0], where, table.name)
        multi = _glyph(cells[column["multi"]][0], where, table.name)
        table.add(ApiSupport(api, status_from_glyphs(implemented, single, multi), section), where)
    return True


def _check_html_summaries(table: SourceTable, summary: Mapping[str, list[int]]) -> None:
    for section, (total, implemented) in summary.items():
        rows = [r for r in table.rows.values() if r.section == section]
        if rows and total and len(rows) != total:
            table.warnings.append(f"section {section!r}: its summary counts {total} APIs, the table has {len(rows)}")
        if rows and implemented and sum(1 for r in rows if r.status.implemented) != implemented:
            table.warnings.append(f"section {section!r}: its summary counts {implemented} implemented APIs, "
                                  f"the table marks {sum(1 for r in rows if r.status.implemented)}")


def _parse_date(text: str) -> str | None:
    text = text.strip().rstrip(".")
    for fmt in ("%Y-%m-%d", "%b %d, %Y", "%B %d, %Y", "%d %b %Y", "%d %B %Y", "%Y-%m-%dT%H:%M:%S"):
        try:
            return _dt.datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            continue
    return None


# --------------------------------------------------------------------- merge
@dataclass
class BuildResult:
    manifest: Manifest
    warnings: list[str]
    carried_notes: int


def source_date(tables: Iterable[SourceTable]) -> _dt.date | None:
    """The earliest day a source says it was taken."""
    days = []
    for table in tables:
        if table.retrieved:
            try:
                days.append(_dt.date.fromisoformat(table.retrieved[:10]))
            except ValueError:
                continue
    return min(days) if days else None


def build_manifest(
    tables: list[SourceTable],
    snapshot_date: _dt.date,
    *,
    notes_from: Manifest | None = None,
    generated: _dt.date | None = None,
    generator: str | None = None,
    min_implemented: int = MIN_IMPLEMENTED,
    surfaces: Sequence[NumpySurface] = (),
    release_date: _dt.date | None = None,
    confirmed_newest: _dt.date | None = None,
) -> BuildResult:
    """Merge the tables into one manifest, refusing what looks wrong.

    A name listed by several sources must have the same status in each; its
    section comes from the first source that lists it, a note from any. A
    partially supported API that no source annotates keeps the note of
    ``notes_from`` (the previous snapshot) if that one had it partial too.
    NumPy ``surfaces`` add each row's kind and releases
    (:func:`cpn_lint.manifest.surface.annotate`).
    """
    if not tables:
        raise SourceError("no source given")
    entries: dict[str, ApiSupport] = {}
    origin: dict[str, str] = {}
    conflicts: list[str] = []
    for table in tables:
        for api, row in table.rows.items():
            seen = entries.get(api)
            if seen is None:
                entries[api], origin[api] = row, table.name
            elif seen.status is not row.status:
                conflicts.append(f"{api}: {seen.status.value} in {origin[api]}, {row.status.value} in {table.name}")
            else:
                entries[api] = _combined(seen, row)
    if conflicts:
        shown = "; ".join(conflicts[:8]) + (f"; and {len(conflicts) - 8} more" if len(conflicts) > 8 else "")
        raise SourceError(f"the sources disagree on {len(conflicts)} API(s): {shown}")
    carried = 0
    if notes_from is not None:
        for api, row in list(entries.items()):
            previous = notes_from.lookup(api)
            if row.status is Status.PARTIAL and not row.note and previous is not None \
                    and previous.status is Status.PARTIAL and previous.note:
                entries[api] = replace(row, note=previous.note)
                carried += 1
    implemented = sum(1 for e in entries.values() if e.status.implemented)
    if implemented < min_implemented:
        raise SourceError(
            f"only {implemented} implemented API(s) in {len(entries)} rows read — implausibly few for cuPyNumeric "
            f"(at least {min_implemented} expected); is the input truncated or the wrong page?"
        )
    cupynumeric = _agreed(tables, "cupynumeric_version")
    numpy = _agreed(tables, "numpy_version")
    warnings = [f"{t.name}: {w}" for t in tables for w in t.warnings] + _unlisted(tables, entries)
    warnings += annotate(entries, list(surfaces))
    manifest = Manifest(
        snapshot_date=snapshot_date,
        cupynumeric_version=cupynumeric,
        numpy_version=numpy,
        entries=dict(sorted(entries.items())),
        sources=tuple(t.info() for t in tables),
        generated=(generated or _dt.date.today()).isoformat(),
        generator=generator,
        numpy_releases=tuple(s.numpy_version for s in surfaces),
        release_date=release_date,
        confirmed_newest=confirmed_newest,
    )
    return BuildResult(manifest, warnings, carried)


def _unlisted(tables: Iterable[SourceTable], entries: Mapping[str, ApiSupport]) -> list[str]:
    """Sections with fewer APIs than a source's headings count, after the merge."""
    warnings = []
    for table in tables:
        for section, (implemented, total) in table.declared.items():
            have = sum(1 for e in entries.values() if e.section == section)
            if have < total:
                warnings.append(
                    f"{table.name}: section {section!r} counts {total} APIs ({implemented} implemented) but only "
                    f"{have} are known: {total - have} implemented API(s) are counted without a GPU glyph — add an "
                    "introspected source (--from-json or --from installed) to include them"
                )
    return warnings


def _agreed(tables: Iterable[SourceTable], attribute: str) -> str | None:
    values = {getattr(t, attribute) for t in tables if getattr(t, attribute)}
    if len(values) > 1:
        raise SourceError(f"the sources are for different versions ({attribute.replace('_', ' ')}: "
                          f"{', '.join(sorted(values))}); refresh from one version at a time")
    return values.pop() if values else None


def read_source(kind: str, path: Path) -> SourceTable:
    """Parse one input file of the given kind ("markdown", "html", "json")."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from None
    readers = {"markdown": parse_markdown, "html": parse_html, "json": parse_introspected_json}
    return readers[kind](data, path.name)


__all__ = [
    "MIN_IMPLEMENTED",
    "NUMPY_SECTIONS",
    "BuildResult",
    "ManifestError",
    "SourceError",
    "SourceTable",
    "build_manifest",
    "parse_html",
    "parse_introspected_json",
    "parse_markdown",
    "read_source",
    "source_date",
    "status_from_glyphs",
]
