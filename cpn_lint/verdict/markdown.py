"""The report as Markdown: readable in a terminal, rendered on GitHub."""

from __future__ import annotations

from typing import Iterable, Sequence

from .report import SECTION_TITLES, Item, Report


def render_markdown(report: Report) -> str:
    out: list[str] = []
    out.append(f"# cuPyNumeric migration readiness: {report.verdict.value}")
    out.append("")
    if report.manifest is not None and report.manifest.stale:
        # first, before any row it qualifies (the API gaps of section 6)
        out += [f"> **Warning:** {report.manifest.text}", ""]
    _context(out, report)
    sections = (_verdict, _what_works, _what_blocks, _fixable, _notes, _api_gaps, _gates, _next_steps)
    for number, (title, render) in enumerate(zip(SECTION_TITLES, sections), start=1):
        out.append(f"## {number}. {title}")
        out.append("")
        body = render(report)
        out.extend(body if body else [report.empty_note()])
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


# ------------------------------------------------------------------ helpers
def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def code(text: str) -> str:
    """Inline code that survives backticks in the text."""
    text = " ".join(text.split())
    if not text:
        return ""
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}".replace("|", "\\|")


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _location(item: Item) -> str:
    text = code(item.citation)
    if item.runtime:
        text += " (confirmed at runtime by Doctor)"
    return text


def _sites(citations: Sequence[str]) -> str:
    return ", ".join(code(c) for c in citations)


# ------------------------------------------------------------------ sections
def _context(out: list[str], report: Report) -> None:
    out.append("## Context")
    out.append("")
    out.append("Step 1 values the verdict rests on; correct any default that does not match your runs.")
    out.append("")
    out += _table(("Item", "Value", "Source"), ((r.label, cell(r.value), r.source) for r in report.context))
    out.append("")
    if report.input_errors:
        out.append(f"**Inputs not assessed ({len(report.input_errors)}):**")
        out.append("")
        out += [f"- {cell(e)}" for e in report.input_errors]
        out.append("")
    if report.internal_errors:
        out.append("**cpn-lint could not finish every check** (please report; other findings are unaffected):")
        out.append("")
        out += [f"- {code(i.citation)}: {cell(i.message)}" for i in report.internal_errors]
        out.append("")
    for note in report.input_notes:
        out.append(f"> {note}")
        out.append("")


def _verdict(report: Report) -> list[str]:
    return [report.summary]


def _what_works(report: Report) -> list[str]:
    if not report.what_works:
        return []
    lines = ["These run as whole-array operations and should speed up after the import swap."]
    for group in report.what_works:
        n = len(group.items)
        lines.append("")
        lines.append(f"**{group.code} {group.name}** — {group.summary} ({n} site{'s' if n > 1 else ''})")
        lines.append("")
        for example in group.examples:
            lines.append(f"- {code(example.citation)}: {code(example.quote)}")
        rest = [i.citation for i in group.items if i not in group.examples]
        if rest:
            lines.append(f"- also at {_sites(rest)}")
    return lines


def _finding_rows(items: Sequence[Item], with_recipe: bool = True) -> list[str]:
    header = ["Location", "Code", "What was found"] + (["Recipe"] if with_recipe else [])
    rows = []
    for item in items:
        row = [_location(item), f"{item.code} {item.name}" if item.code else item.name, cell(item.message)]
        if with_recipe:
            row.append(item.recipe or "—")
        rows.append(row)
    return _table(header, rows)


def _what_blocks(report: Report) -> list[str]:
    lines: list[str] = []
    if report.what_blocks:
        lines.append("Idioms that stop the code from scaling; each must go before the port pays off.")
        lines.append("")
        lines += _finding_rows(report.what_blocks)
    if report.out_of_scope:
        if lines:
            lines.append("")
        lines.append("**Out-of-scope workload (Gate 4 evidence)** — not recipe-fixable: this work belongs to another tool.")
        lines.append("")
        lines += _finding_rows(report.out_of_scope, with_recipe=False)
    if report.runtime_blocks:
        if lines:
            lines.append("")
        lines.append("**Seen only at runtime by cuPyNumeric Doctor** — no static finding matches these lines.")
        lines.append("")
        lines += _finding_rows(report.runtime_blocks)
    return lines


def _fixable(report: Report) -> list[str]:
    lines: list[str] = []
    for group in report.whats_fixable:
        if lines:
            lines.append("")
        n = len(group.items)
        lines.append(f"**{group.recipe or 'No recipe'}** — {group.description} ({n} site{'s' if n > 1 else ''})")
        lines.append("")
        lines += _finding_rows(group.items, with_recipe=False)
    return lines


def _notes(report: Report) -> list[str]:
    if not report.notes:
        return []
    return ["Costs and compatibility points to plan for; none of them blocks the port.", ""] + _finding_rows(
        report.notes, with_recipe=False
    )


def _api_gaps(report: Report) -> list[str]:
    lines: list[str] = []
    if report.api_gaps:
        rows = []
        for item in report.api_gaps:
            where = "inside a loop" if item.in_loop else "outside loops"
            rows.append([_location(item), f"{item.code} {item.name}", where, cell(item.message)])
        lines += _table(("Location", "Code", "Where", "What the manifest says"), rows)
        if report.api_note:
            lines += ["", report.api_note]
    return lines


def _gates(report: Report) -> list[str]:
    rows = [(f"{gate.number}. {gate.name}", gate.status.value, cell(gate.reason)
             + (f" ({_sites(gate.evidence[:5])}{' …' if len(gate.evidence) > 5 else ''})" if gate.evidence else ""))
            for gate in report.gates]
    return _table(("Gate", "Status", "Reason"), rows)


def _next_steps(report: Report) -> list[str]:
    lines: list[str] = []
    for number, step in enumerate(report.next_steps, start=1):
        text = f"{number}. **{step.title}** — {step.detail}"
        if step.citations:
            text += f": {_sites(step.citations)}"
        lines.append(text + ("" if text.endswith(".") else "."))
    if report.doctor_command:
        lines += ["", "```bash", report.doctor_command, "```", "", "What to look for in its output:", ""]
        lines += [f"- {item}" for item in report.doctor_look_for]
    return lines
