"""The report as one self-contained HTML page: what a person would rather look
at than read.

No network and no external file: the styles and the few lines of script are
inline. The page has the verdict and the rule that decided it, the Context,
a bar chart of findings per code (coloured by family), a table of files
that sorts on any column and opens into each file's sites, and the eight
sections in the order of the Markdown report, with their lists capped the
same way (every site stays reachable in the per-file table).
"""

from __future__ import annotations

from collections import Counter
from html import escape
from typing import Iterable, Sequence

from .breaks import summary_line
from .markdown import STEP_CITATIONS, capped
from .report_items import SECTION_TITLES, Item, Report
from .time_projection import assumptions_text, headline, time_rows

FAMILY_COLOURS = {
    "BLOCKS": "#c0392b",
    "API": "#d35400",
    "REFACTOR": "#b7950b",
    "SCOPE": "#7d3c98",
    "INFO": "#2874a6",
    "SCALES": "#1e8449",
    "INTERNAL": "#566573",
}
VERDICT_COLOURS = {
    "READY": "#1e8449",
    "LIGHT REFACTOR": "#b7950b",
    "SIGNIFICANT REFACTOR": "#d35400",
    "NOT RECOMMENDED": "#c0392b",
}
FILE_SITES_SHOWN = 200  # sites listed when a file's row is opened

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:1100px;padding:1.5em;color:#222}
h1{font-size:1.6em;margin:.2em 0}h2{border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:1.6em}
.verdict{display:inline-block;color:#fff;padding:.25em .7em;border-radius:4px;font-weight:600}
table{border-collapse:collapse;width:100%;margin:.6em 0}th,td{border:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#f4f6f7}th.sort{cursor:pointer;user-select:none}th.sort:after{content:' \\2195';color:#999}
td.n{text-align:right;font-variant-numeric:tabular-nums}code{font-size:.92em;background:#f4f6f7;padding:0 .2em}
.bars{margin:.6em 0}.bar{display:flex;align-items:center;margin:2px 0}.bar .label{width:22em;font-size:.92em}
.bar .fill{height:1.1em;border-radius:2px}.bar .count{margin-left:.4em;font-variant-numeric:tabular-nums}
details>summary{cursor:pointer}.muted{color:#666}.legend span{display:inline-block;margin-right:1em}
.legend i{display:inline-block;width:.8em;height:.8em;margin-right:.3em;border-radius:2px}
"""

# Sort the table whose header was clicked: numbers as numbers, the rest as text;
# each file's detail row travels with its file row.
SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function(t){
  t.querySelectorAll('th.sort').forEach(function(th,col){
    th.addEventListener('click',function(){
      var body=t.tBodies[0],rows=[],r=body.rows,i;
      for(i=0;i<r.length;i+=2){rows.push([r[i],r[i+1]]);}
      var up=th.dataset.dir!=='up';th.dataset.dir=up?'up':'down';
      rows.sort(function(a,b){
        var x=a[0].cells[col].dataset.v||a[0].cells[col].textContent,y=b[0].cells[col].dataset.v||b[0].cells[col].textContent;
        var nx=parseFloat(x),ny=parseFloat(y),c=(isNaN(nx)||isNaN(ny))?x.localeCompare(y):nx-ny;
        return up?c:-c;});
      rows.forEach(function(p){body.appendChild(p[0]);body.appendChild(p[1]);});
    });
  });
  t.querySelectorAll('tr.file').forEach(function(tr){
    tr.addEventListener('click',function(){var d=tr.nextElementSibling;d.hidden=!d.hidden;});
  });
});
"""


def render_html(report: Report) -> str:
    verdict = report.verdict.value
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>cuPyNumeric migration readiness: {escape(verdict)}</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>cuPyNumeric migration readiness</h1>",
        f'<p><span class="verdict" style="background:{VERDICT_COLOURS.get(verdict, "#555")}">{escape(verdict)}</span></p>',
    ]
    if report.manifest is not None and report.manifest.stale:
        parts.append(f"<p><strong>Warning:</strong> {escape(report.manifest.text)}</p>")
    parts += _context(report)
    empty = report.empty_note()
    notes = [_text(note) for note in report.verdict_notes]
    parts += _section(1, [_text(report.summary), *notes] + _breaks(report) + _summary(report) + _time_chart(report),
                      empty)
    parts += _section(2, _what_works(report), empty)
    parts += _section(3, _items_table(report.what_blocks) + _scope_and_runtime(report), empty)
    parts += _section(4, _fixable(report), empty)
    parts += _section(5, _items_table(report.notes, recipe=False), empty)
    api_note = [_text(report.api_note)] if report.api_gaps and report.api_note else []
    parts += _section(6, _items_table(report.api_gaps, recipe=False) + api_note, empty)
    parts += _section(7, _gates(report), empty)
    parts += _section(8, _next_steps(report), empty)
    parts += _files(report)
    parts.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(parts) + "\n"


# ------------------------------------------------------------------ helpers
def _text(markdown_text: str) -> str:
    """A paragraph from the report's sentences (their ``**bold**`` and
    ``code`` marks become tags)."""
    return f"<p>{_inline(markdown_text)}</p>"


def _inline(text: str) -> str:
    out, bold, in_code = [], False, False
    for index, piece in enumerate(escape(text).split("`")):
        if index:
            in_code = not in_code
            out.append("<code>" if in_code else "</code>")
        if in_code:
            out.append(piece)
            continue
        chunks = piece.split("**")
        for k, chunk in enumerate(chunks):
            if k:
                bold = not bold
                out.append("<strong>" if bold else "</strong>")
            out.append(chunk)
    if in_code:
        out.append("</code>")
    if bold:
        out.append("</strong>")
    return "".join(out)


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], css: str = "") -> list[str]:
    """A table; cells are HTML already escaped by the caller."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = ["<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows]
    return [f'<table{f" class={css!r}" if css else ""}><thead><tr>{head}</tr></thead><tbody>', *body, "</tbody></table>"]


def _section(number: int, body: list[str], empty: str) -> list[str]:
    return [f"<h2>{number}. {escape(SECTION_TITLES[number - 1])}</h2>", *(body or [f'<p class="muted">{escape(empty)}</p>'])]


def _where(item: Item) -> str:
    where = f"<code>{escape(item.citation)}</code>"
    return where + (f' <span class="muted">in {escape(item.function)}</span>' if item.function else "")


def _more(left: dict[str, int]) -> list[str]:
    if not left:
        return []
    parts = ", ".join(f"{n} more {escape(code)}" for code, n in sorted(left.items()))
    return [f'<p class="muted">… and {parts} (every site is under its file in “Files”).</p>']


# ------------------------------------------------------------------ sections
def _context(report: Report) -> list[str]:
    parts = ["<h2>Context</h2>"]
    parts += _table(("Item", "Value", "Source"),
                    ((escape(r.label), escape(r.value), escape(r.source)) for r in report.context))
    if report.input_errors:
        parts.append(f"<details><summary><strong>Inputs not assessed ({len(report.input_errors)})</strong>: the verdict "
                     "rests on the files that could be read.</summary><ul>")
        parts += [f"<li>{escape(e)}</li>" for e in report.input_errors]
        parts.append("</ul></details>")
    parts += [f"<p>{escape(note)}</p>" for note in report.input_notes]
    return parts


def _breaks(report: Report) -> list[str]:
    """What breaks first: the summary line and every break, met-first first."""
    rows = "".join(f"<li><code>{escape(b.item.citation)}</code> ({escape(b.when)}): <code>{escape(b.subject)}</code> "
                   f"{escape(b.effect)} ({escape(b.item.code or '')})</li>" for b in report.breaks)
    return ["<h3>What breaks first</h3>", f"<p>{escape(summary_line(report.breaks))}</p>"] + ([f"<ul>{rows}</ul>"] if rows else [])


def _summary(report: Report) -> list[str]:
    o = report.overview
    parts = ["<h3>Summary</h3>",
             f"<p>{o.files_read} file(s) read, {o.files_deciding} deciding the verdict"
             + (f", {o.unreadable} unreadable" if o.unreadable else "")
             + (f"; {o.suppressed} finding(s) accepted by suppressions, still weighed" if o.suppressed else "")
             + (f"; {len(o.false_alarms)} declared false alarm(s), not weighed" if o.false_alarms else "") + ".</p>"]
    if o.outside:
        parts.append("<p>Read but not in the verdict: " + ", ".join(
            f"{escape(x.role)} {x.files} file(s), {x.findings} finding(s)" for x in o.outside) + ".</p>")
    parts += _bar_chart(o.per_code)
    if o.top_functions:
        parts.append("<p>Functions with the most blocking work:</p>")
        parts += _table(("Function", "Weight", "BLOCKS", "Other", "Codes"),
                        ((f"<code>{escape(s.where)}</code>", str(s.weight), str(s.blocks), str(s.fixes),
                          escape(", ".join(s.codes))) for s in o.top_functions))
    return parts


def _bar_chart(per_code: Sequence) -> list[str]:  # type: ignore[type-arg]
    if not per_code:
        return []
    widest = max(c.count for c in per_code) or 1
    families = sorted({c.family for c in per_code})
    parts = ['<p class="legend">' + "".join(
        f'<span><i style="background:{FAMILY_COLOURS.get(f, "#888")}"></i>{escape(f)}</span>' for f in families) + "</p>",
        '<div class="bars" role="img" aria-label="findings per code">']
    for c in per_code:
        width = max(1.0, 60.0 * c.count / widest)
        parts.append(f'<div class="bar"><span class="label">{escape(c.code)} {escape(c.name)}</span>'
                     f'<span class="fill" style="width:{width:.1f}%;background:{FAMILY_COLOURS.get(c.family, "#888")}"></span>'
                     f'<span class="count">{c.count}{f" ({c.in_loops} in loops)" if c.in_loops else ""}</span></div>')
    parts.append("</div>")
    return parts


SHARE_COLOURS = {"out-of-scope library": "#762a83", "sequential": "#b2182b", "element loop": "#ef8a62", "host round trips": "#fddbc7",
                 "whole-array work": "#4393c3", "plain Python": "#bbbbbb"}


def _time_chart(report: Report) -> list[str]:
    """Where the time would go, as bars of projected time per site."""
    projection = report.time
    if projection is None or projection.total <= 0:
        return []
    rows = time_rows(projection)
    parts = ["<h3>Where the time would go (projected)</h3>", f"<p>{escape(headline(projection))}</p>",
             '<p class="legend">' + "".join(f'<span><i style="background:{colour}"></i>{escape(name)}</span>'
                                            for name, colour in SHARE_COLOURS.items()) + "</p>",
             '<div class="bars" role="img" aria-label="projected time per site">']
    for row, site in zip(rows, projection.sites):
        width = max(1.0, 60.0 * projection.fraction(site.seconds))
        parts.append(f'<div class="bar"><span class="label"><code>{escape(row.citation)}</code> {escape(row.quote[:50])}</span>'
                     f'<span class="fill" style="width:{width:.1f}%;background:{SHARE_COLOURS.get(row.what, "#888")}"></span>'
                     f'<span class="count">{escape(row.duration)} ({escape(row.percent)}, {escape(row.steps)} tasks)</span></div>')
    parts.append("</div>")
    parts.append(f'<p class="muted">{escape(assumptions_text(projection))}</p>')
    return parts


def _what_works(report: Report) -> list[str]:
    rows = []
    for group in report.what_works:
        examples = "<br>".join(f"{_where(i)}: <code>{escape(i.quote[:120])}</code>" for i in group.examples)
        rows.append((f"{escape(group.code)} {escape(group.name)}", str(len(group.items)), examples))
    return _table(("Code", "Sites", "Examples"), rows) if rows else []


def _items_table(items: Sequence[Item], recipe: bool = True) -> list[str]:
    if not items:
        return []
    shown, left = capped(items)
    header = ["Location", "Code", "Finding"] + (["Recipe"] if recipe else [])
    rows = []
    for item in shown:
        row = [_where(item), f"{escape(item.code or '')} {escape(item.name)}", escape(item.message)]
        if recipe:
            row.append(escape(item.recipe or "—"))
        rows.append(row)
    return _table(header, rows) + _more(left)


def _scope_and_runtime(report: Report) -> list[str]:
    parts: list[str] = []
    if report.out_of_scope:
        parts.append("<p><strong>Out-of-scope workload (Gate 4 evidence)</strong>: not fixable by a recipe.</p>")
        parts += _items_table(report.out_of_scope, recipe=False)
    if report.runtime_blocks:
        parts.append("<p><strong>Seen only at run time by cuPyNumeric Doctor</strong></p>")
        parts += _items_table(report.runtime_blocks)
    return parts


def _fixable(report: Report) -> list[str]:
    parts: list[str] = []
    for group in report.whats_fixable:
        parts.append(f"<p><strong>{escape(group.recipe or 'No recipe')}</strong> — {escape(group.description)} "
                     f"({len(group.items)} site(s))</p>")
        parts += _items_table(group.items, recipe=False)
    return parts


def _gates(report: Report) -> list[str]:
    return _table(("Gate", "Status", "Reason"),
                  ((f"{g.number}. {escape(g.name)}", escape(g.status.value), escape(g.reason)) for g in report.gates))


def _next_steps(report: Report) -> list[str]:
    if not report.next_steps:
        return []
    items = []
    for step in report.next_steps:
        cites = ""
        if step.citations:
            shown = ", ".join(f"<code>{escape(c)}</code>" for c in step.citations[:STEP_CITATIONS])
            extra = len(step.citations) - STEP_CITATIONS
            cites = f": {shown}" + (f" and {extra} more" if extra > 0 else "")
        items.append(f"<li><strong>{_inline(step.title)}</strong> — {_inline(step.detail)}{cites}</li>")
    parts = ["<ol>", *items, "</ol>"]
    if report.doctor_command:
        parts.append(f"<pre><code>{escape(report.doctor_command)}</code></pre>")
    return parts


def _files(report: Report) -> list[str]:
    """Every file with findings: a row per file that sorts by any column and
    opens into the file's sites."""
    per_file: dict[str, list[Item]] = {}
    for item in report.all_items():
        if item.code:
            per_file.setdefault(item.location.path, []).append(item)
    if not per_file:
        return []
    families = ("BLOCKS", "API", "REFACTOR", "SCOPE", "INFO", "SCALES")
    head = "".join(f'<th class="sort">{escape(h)}</th>' for h in ("File", "Findings", *families))
    parts = ["<h2>Files</h2>", '<p class="muted">Click a column to sort, a file to see its sites.</p>',
             f'<table class="sortable"><thead><tr>{head}</tr></thead><tbody>']
    ordered = sorted(per_file.items(), key=lambda kv: (-_blocking(kv[1]), -len(kv[1]), kv[0]))
    for path, items in ordered:
        counts = Counter(i.category for i in items)
        cells = [f"<td><code>{escape(path)}</code></td>", f'<td class="n">{len(items)}</td>']
        cells += [f'<td class="n">{counts.get(f, 0)}</td>' for f in families]
        parts.append(f'<tr class="file">{"".join(cells)}</tr>')
        ranked = sorted(items, key=lambda i: (i.category == "SCALES", not i.in_loop, i.location.line))
        sites = "\n".join(f"<li>{_where(i)} <strong>{escape(i.code or '')}</strong> {escape(i.message)}</li>"
                        for i in ranked[:FILE_SITES_SHOWN])
        if len(ranked) > FILE_SITES_SHOWN:
            sites += f"\n<li>… and {len(ranked) - FILE_SITES_SHOWN} more (see <code>--format json</code>)</li>"
        parts.append(f'<tr hidden><td colspan="{2 + len(families)}"><ul>\n{sites}\n</ul></td></tr>')
    parts.append("</tbody></table>")
    return parts


def _blocking(items: Sequence[Item]) -> int:
    return sum(1 for i in items if i.category in ("BLOCKS", "API", "REFACTOR"))
