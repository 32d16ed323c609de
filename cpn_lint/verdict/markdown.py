"""The report as Markdown: readable in a terminal, rendered on GitHub.

It stays readable whatever the project's size: section 1 is followed by a
summary (counts per code, the files and functions with most blocking work,
what was left out); every list of sites is ranked (see
:func:`cpn_lint.verdict.report.ranked`) and capped, the full lists being in
the JSON report; an appendix lists the sites per file. A message is never
cut: the report is where the whole of it belongs (a long section lists
fewer sites, with "and N more", instead).

It stays readable in a terminal too: no line is longer than
:data:`LINE_LIMIT`. Prose is wrapped near :data:`WRAP` columns, after a
sentence or a clause where it can be, never inside an inline code span;
findings are list items, whose lines can wrap, rather than table rows,
which cannot; the cells of the tables that remain are short.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence, TypeVar

from ..registry import RECIPES, recipe_rank
from .breaks import SHOWN, summary_line
from .api_groups import ApiEntry, ApiGroup, gap_name, group_by_api
from .loop_groups import SITES_SHOWN, Entry, LoopGroup, SameLine, groups_of
from .report_items import SECTION_TITLES, Item, Report, gathered
from .time_projection import assumptions_text, headline, shares_text, time_rows
from .summary import Hotspot

PER_CODE = 10  # sites shown per code in a section
PER_SECTION = 20  # sites shown per section (each code keeps at least MIN_PER_CODE)
MIN_PER_CODE = 3
APPENDIX_FILES = 20
APPENDIX_LINES = 12  # line numbers shown per code and file in the appendix
INPUT_ERRORS_SHOWN = 20
STEP_CITATIONS = 3  # sites a next step names
LINE_LIMIT = 200  # no line of the report is longer
WRAP = 100  # prose is wrapped near this width
PATH_LIMIT = 80  # a path in a table cell
QUOTE_LIMIT = 60  # a quoted line in a table cell
EXAMPLE_LIMIT = 90  # a quoted line under "What works"
CODES_SHOWN = 6  # codes in a hotspot row
LOOPS = "loops"  # what the capped lists call loop groups ("… and 2 more loops")
T = TypeVar("T")


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
    out += _appendix(report)
    return "\n".join(out).rstrip("\n") + "\n"


# ------------------------------------------------------------------ brief
BRIEF_LINES = 40  # --brief fits a terminal screen
BRIEF_FINDINGS = 10
BRIEF_MIN_FINDINGS = 5
BRIEF_LINE = 120  # a top finding's line


def render_brief(report: Report, target: str) -> str:
    """``--brief``: the verdict, the summary's counts and the top findings in
    at most BRIEF_LINES lines; the last names the full report's file."""
    head = [f"# cuPyNumeric migration readiness: {report.verdict.value}", "", *paragraph(report.summary), ""]
    notes = _quotes(report.verdict_notes)
    summary = ["### Summary", "", *_overview(report)[2:4], *paragraph(summary_line(report.breaks), "- "), ""]
    tail = ["", f"Full report: {target}"]
    room = BRIEF_LINES - len(head) - len(summary) - len(tail) - 2  # "Top findings:" and its blank line
    if notes and room - len(notes) - 1 >= BRIEF_MIN_FINDINGS:  # the notes only when enough findings fit after them
        head += notes + [""]
        room -= len(notes) + 1
    entries = report.block_entries or report.what_blocks
    top = [_brief_line(entry) for entry in entries[: max(min(room, BRIEF_FINDINGS), 0)]]
    body = ["Top findings:", "", *top] if top else []
    lines = head + summary + body + tail
    return "\n".join(lines[:BRIEF_LINES - 1] + lines[-1:] if len(lines) > BRIEF_LINES else lines) + "\n"


def _brief_line(item: Entry) -> str:
    """One finding on one line: where, the code and the message's first clause."""
    if isinstance(item, SameLine):
        item = item.first
    if isinstance(item, LoopGroup):
        counts = ", ".join(f"{c} ×{n}" for c, n in item.counts.items())
        return "- " + _shorten(f"{code(item.citation)} one loop's host waits: {counts}", BRIEF_LINE - 2)
    first = item.message.split("; ", 1)[0]
    return "- " + _shorten(f"{code(item.citation)} {item.code or item.name}: {cell(first)}", BRIEF_LINE - 2)


# ------------------------------------------------------------------ helpers
def cell(text: str, limit: int | None = None) -> str:
    """Text safe inside a Markdown table cell (cut to ``limit`` characters)."""
    text = " ".join(text.split())
    if limit is not None and len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text.replace("|", "\\|")


def code(text: str) -> str:
    """Inline code that survives backticks in the text."""
    text = " ".join(text.split())
    if not text:
        return ""
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}".replace("|", "\\|")


def short_path(path: str, limit: int = PATH_LIMIT) -> str:
    """A path for a table cell: its end, which names the file, when it is long."""
    return path if len(path) <= limit else "…" + path[-(limit - 1):]


def words(text: str) -> list[str]:
    """``text`` split at spaces, an inline code span always one word."""
    out: list[str] = []
    current: list[str] = []
    fence = 0  # the length of the backtick run that opened the code span we are in
    i = 0
    while i < len(text):
        char = text[i]
        if char == "`":
            run = len(text[i:]) - len(text[i:].lstrip("`"))
            fence = run if fence == 0 else (0 if run == fence else fence)
            current.append("`" * run)
            i += run
            continue
        if char.isspace() and fence == 0:
            if current:
                out.append("".join(current))
                current = []
        else:
            current.append(char)
        i += 1
    if current:
        out.append("".join(current))
    return out


# A wrapped line must not start with what Markdown reads as a new block.
_BLOCK_STARTS = ("-", "+", "*", ">", "#", "|", "=")


def _starts_block(word: str) -> bool:
    return word.startswith(_BLOCK_STARTS) or (word[:-1].isdigit() and word[-1:] in ".)")


def _ends_clause(word: str) -> bool:
    return word.endswith((".", ";", ":", ",")) or word == "—"


def wrap(text: str, first: str = "", rest: str | None = None, width: int = WRAP) -> list[str]:
    """``text`` as lines near ``width`` characters, ``first`` before the first
    (a list marker, ``> ``) and ``rest`` before the others. A line ends after
    a sentence or a clause when one ends in its second half, else at a word;
    an inline code span is never broken (a longer one stands alone)."""
    rest = first if rest is None else rest
    tokens = words(text)
    lines: list[str] = []
    while tokens:
        prefix = rest if lines else first
        take = _line_length(tokens, width - len(prefix))
        lines.append(prefix + " ".join(tokens[:take]))
        tokens = tokens[take:]
    return lines or [first.rstrip()]


def _line_length(tokens: list[str], room: int) -> int:
    """How many of ``tokens`` the next line takes."""
    used, fit = -1, 0
    for token in tokens:
        if fit and used + 1 + len(token) > room:
            break
        used += 1 + len(token)
        fit += 1
    if fit == len(tokens):
        return fit
    lengths = [len(t) for t in tokens[:fit]]
    clause = [n + 1 for n in range(fit) if _ends_clause(tokens[n]) and sum(lengths[: n + 1]) + n >= room // 2]
    for take in [*reversed(clause), *range(fit, 0, -1)]:
        if not _starts_block(tokens[take]):
            return take
    return fit


def _quotes(notes: Sequence[str]) -> list[str]:
    """Notes as one block quote, a paragraph each."""
    lines: list[str] = []
    for note in notes:
        lines += ([">"] if lines else []) + paragraph(note, "> ")
    return lines


def paragraph(text: str, first: str = "", rest: str | None = None) -> list[str]:
    return wrap(text, first, rest)


def item_lines(text: str, marker: str = "- ") -> list[str]:
    """A list item: its continuation lines are indented under the text."""
    return wrap(text, marker, " " * len(marker))


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return lines + ["| " + " | ".join(_fit(row)) + " |" for row in rows]


def _fit(row: Sequence[str]) -> list[str]:
    """A table row cannot wrap: past LINE_LIMIT, its longest cells are cut
    (every cell is bounded where it is made; this is the last guard)."""
    cells = list(row)
    while sum(len(c) + 3 for c in cells) + 1 > LINE_LIMIT:
        longest = max(range(len(cells)), key=lambda n: len(cells[n]))
        excess = sum(len(c) + 3 for c in cells) + 1 - LINE_LIMIT
        cut = _shorten(cells[longest], max(len(cells[longest]) - excess, 8))
        if cut == cells[longest]:
            break
        cells[longest] = cut
    return cells


def _shorten(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, ending in "…", cut between
    words so that no code span is left open."""
    if len(text) <= limit:
        return text
    if text.startswith("`") and text.endswith("`") and len(words(text)) == 1:
        inner = text.strip("`").strip()
        return code(_shorten(inner, limit - 4))
    kept: list[str] = []
    for word in words(text):
        if len(" ".join([*kept, word])) + 2 > limit:
            break
        kept.append(word)
    return " ".join(kept) + " …" if kept else text[: max(limit - 1, 1)] + "…"


def _location(item: Item) -> str:
    text = code(item.citation) + (f" (in {code(item.function)})" if item.function else "")
    if item.runtime:
        text += " (confirmed at runtime by Doctor)"
    return text


def _sites(citations: Sequence[str], limit: int = PER_CODE) -> str:  # wrapped by the caller
    shown = ", ".join(code(c) for c in citations[:limit])
    more = len(citations) - limit
    return shown + (f" and {more} more" if more > 0 else "")


def _code_of(item: Item) -> str:
    return item.code or item.name


def capped(items: Sequence[T], key: Callable[[T], str] = _code_of) -> tuple[list[T], dict[str, int]]:  # type: ignore[assignment]
    """The sites a section shows — up to PER_CODE per code, PER_SECTION in
    all, each code keeping MIN_PER_CODE — and how many each code leaves out.
    ``items`` arrive ranked; the order is kept."""
    by_code: dict[str, list[T]] = {}
    for item in items:
        by_code.setdefault(key(item), []).append(item)
    quota = {c: min(len(v), PER_CODE) for c, v in by_code.items()}
    while sum(quota.values()) > PER_SECTION and any(q > MIN_PER_CODE for q in quota.values()):
        largest = max(quota, key=lambda c: (quota[c], c))
        quota[largest] -= 1
    shown_ids = {id(i) for c, v in by_code.items() for i in v[: quota[c]]}
    shown = [i for i in items if id(i) in shown_ids]
    left = {c: len(v) - quota[c] for c, v in by_code.items() if len(v) > quota[c]}
    return shown, left


def _more_rows(left: dict[str, int]) -> list[str]:
    if not left:
        return []
    parts = ", ".join(f"{n} more {c}" for c, n in sorted(left.items()))
    return ["", *paragraph(f"… and {parts} (every site: the appendix below and `--format json`).")]


# ------------------------------------------------------------------ sections
def _context(out: list[str], report: Report) -> None:
    out.append("## Context")
    out.append("")
    out.append("Step 1 values the verdict rests on; correct any default that does not match your runs.")
    out.append("")
    rows, details = [], []
    for r in report.context:
        value = cell(r.value)
        if len(value) > CONTEXT_VALUE_LIMIT:  # the table names it; the whole value follows it
            details += item_lines(f"**{r.label}:** {value}")
            value = cell(r.value.split(" (", 1)[0].split(":", 1)[0], CONTEXT_VALUE_LIMIT - 12) + " (see below)"
        rows.append((r.label, value, r.source))
    out += _table(("Item", "Value", "Source"), rows)
    out.append("")
    if details:
        out += details + [""]
    if report.input_errors:
        out += paragraph(f"**Inputs not assessed ({len(report.input_errors)}):** the verdict rests on the files "
                         "that could be read.")
        out.append("")
        for error in report.input_errors[:INPUT_ERRORS_SHOWN]:
            out += item_lines(cell(error))
        if len(report.input_errors) > INPUT_ERRORS_SHOWN:
            out.append(f"- … and {len(report.input_errors) - INPUT_ERRORS_SHOWN} more (see `--format json`)")
        out.append("")
    if report.internal_errors:
        out.append("**cpn-lint could not finish every check** (please report; other findings are unaffected):")
        out.append("")
        for item in report.internal_errors:
            out += item_lines(f"{code(item.citation)}: {cell(item.message)}")
        out.append("")
    for note in report.input_notes:
        out += paragraph(note, "> ")
        out.append("")


CONTEXT_VALUE_LIMIT = 100


def _verdict(report: Report) -> list[str]:
    notes = _quotes(report.verdict_notes)
    return [*paragraph(report.summary), ""] + (notes + [""] if notes else []) + _breaks_first(report) + \
        _overview(report) + _where_time_goes(report)


def _breaks_first(report: Report) -> list[str]:
    """What stops the ported program, before any scaling question: the
    first SHOWN, those met first first."""
    lines = ["### What breaks first", "", *paragraph(summary_line(report.breaks)), ""]
    if not report.breaks:
        return lines
    # one entry per missing name or rejected form, where it is met first
    shown = gathered(report.breaks, lambda b: (b.item.code, name, b.effect) if (name := gap_name(b.item)) else None)[:SHOWN]
    for sites in shown:
        found, item = sites[0], sites[0].item
        also = f"; also at {_sites([short_path(b.item.citation) for b in sites[1:]], SITES_SHOWN)}" if len(sites) > 1 else ""
        lines += item_lines(f"{code(short_path(item.citation))} ({found.when}): {code(found.subject)} {found.effect} "
                            f"({item.code}); {_fix_of(item)}{also}")
    hidden = len(report.breaks) - sum(len(sites) for sites in shown)
    if hidden > 0:
        lines.append(f"- and {hidden} more (the JSON report lists every one)")
    return lines + [""]


def _fix_of(item: Item) -> str:
    """The recipe part of a finding's message (after its last ';'), or its recipe id."""
    head, _, fix = item.message.rpartition("; ")
    return fix if head and fix else (f"recipe {item.recipe}" if item.recipe else "see the rule page")


def _where_time_goes(report: Report) -> list[str]:
    projection = report.time
    if projection is None or projection.total <= 0:
        return []
    lines = ["", "### Where the time would go (projected)", "", *paragraph(headline(projection)), "",
             *paragraph(f"By kind of work: {shares_text(projection)}."), ""]
    lines += _table(("Site", "Code", "Projected time", "Share", "Tasks + round trips", "Kind"),
                    ((code(short_path(r.citation)), code(_cut(r.quote, QUOTE_LIMIT)), r.duration, r.percent, r.steps,
                      r.what) for r in time_rows(projection)))
    lines += ["", *paragraph(assumptions_text(projection))]
    return lines


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _overview(report: Report) -> list[str]:
    o = report.overview
    lines = ["### Summary", ""]
    read = f"{o.files_read} file{'s' if o.files_read != 1 else ''} read"
    if o.files_deciding != o.files_read:
        read += f", {o.files_deciding} of them the program's own source, which decides the verdict"
    if o.unreadable:
        read += f"; {o.unreadable} could not be read (listed at the top of this report)"
    lines += item_lines(f"**Files:** {read}.")
    if o.per_family:
        families = ", ".join(f"{family} {n}" for family, n in sorted(o.per_family.items(), key=lambda kv: -kv[1]))
        lines += item_lines(f"**Findings per family:** {families}.")
    outside = [f"{x.role} {x.files} file{'s' if x.files != 1 else ''} ({x.findings} finding{'s' if x.findings != 1 else ''}"
               f"{f', {x.blocking} blocking' if x.blocking else ''})" for x in o.outside]
    if outside:
        lines += item_lines(f"**Read but not in the verdict:** {', '.join(outside)}; `--include-tests` counts them.")
    if o.excluded:
        excluded = ", ".join(f"{code(glob)} ({n})" for glob, n in sorted(o.excluded.items()))
        lines += item_lines(f"**Excluded, not read:** {sum(o.excluded.values())} files by {excluded}.")
    if o.suppressed:
        kinds = ", ".join(f"{KIND_WORDS.get(k, k)} {n}" for k, n in sorted(o.suppressed_by_kind.items()))
        codes = ", ".join(f"{c} ×{n}" for c, n in o.suppressed_by_code.items())
        where = ", ".join(f"{code(p)} ({n})" for p, n in o.suppressed_files[:5])
        origin = f"; settings from {code(o.flake8_config)}" if o.flake8_config else ""
        lines += item_lines(f"**Accepted, still weighed:** {o.suppressed} finding{'s' if o.suppressed != 1 else ''} "
                            f"({kinds}): {codes}; most in {where}{origin} (`# noqa: CODE reason` takes a wrong one "
                            "out).")
    if o.false_alarms:
        shown = "; ".join(f"{code(f'{path}:{line}')} {c}: {cell(reason)}"
                          for path, line, c, reason, _ in o.false_alarms[:FALSE_ALARMS_SHOWN])
        more = len(o.false_alarms) - FALSE_ALARMS_SHOWN
        lines += item_lines(f"**Declared false alarms, not weighed:** {len(o.false_alarms)}: {shown}"
                            + (f"; and {more} more (see `--format json`)" if more > 0 else "") + ".")
    if o.per_code:
        lines += ["", *_table(("Code", "Family", "Sites", "In loops"),
                              ((f"{c.code} {c.name}", c.family, str(c.count), str(c.in_loops)) for c in o.per_code)),
                  "", "A site is one finding: a line with two findings counts twice, here and below."]
    if o.top_files:
        periphery = ""
        if o.peripheral:
            kinds = sorted({kind for _, kind in o.peripheral})
            periphery = (f"; the {len(o.peripheral)} file{'s' if len(o.peripheral) > 1 else ''} outside the main "
                         f"computation ({', '.join(KIND_NAMES.get(k, k) for k in kinds)}) weigh a quarter")
        lines += ["", *paragraph("Where the blocking work is (BLOCKS weigh 3, API calls that stop the program 2, "
                                 "fixes 1; doubled inside loops; the findings folded into a compiled kernel or an "
                                 f"element loop count as findings in a loop{periphery}):"), ""]
        lines += _hotspot_table("File", o.top_files)
    if o.top_functions:
        lines += [""] + _hotspot_table("Function", o.top_functions)
    return lines


FALSE_ALARMS_SHOWN = 10
KIND_NAMES = {"analysis": "analysis scripts", "plotting": "plotting scripts", "logo": "logo scripts",
              "notebook": "notebooks beside the package"}
KIND_WORDS = {"noqa": "`# noqa`", "file noqa": "`# flake8: noqa`", "config": "flake8 ignore settings",
              "baseline": "the baseline", "flake8 output": "not in the flake8 output"}


def _hotspot_table(what: str, spots: Sequence[Hotspot]) -> list[str]:
    return _table((what, "Weight", "BLOCKS", "Other", "Codes"),
                  ((code(short_path(s.where)), str(s.weight), str(s.blocks), str(s.fixes), _codes_cell(s.codes))
                   for s in spots))


def _codes_cell(codes: Sequence[str]) -> str:
    more = len(codes) - CODES_SHOWN
    return ", ".join(codes[:CODES_SHOWN]) + (f" and {more} more" if more > 0 else "")


def _what_works(report: Report) -> list[str]:
    if not report.what_works:
        return []
    lines = ["These run as whole-array operations and should speed up after the import swap."]
    for group in report.what_works:
        n = len(group.items)
        lines.append("")
        lines += paragraph(f"**{group.code} {group.name}** — {group.summary} ({n} site{'s' if n > 1 else ''})")
        lines.append("")
        for example in group.examples:
            lines += item_lines(f"{_location(example)}: {code(cell(example.quote, EXAMPLE_LIMIT))}")
        rest = [i.citation for i in group.items if i not in group.examples]
        if rest:
            lines += item_lines(f"also at {_sites(rest)}")
    return lines


def _finding_rows(items: Sequence[Item], with_recipe: bool = True, cap: bool = True,
                  where: bool = False) -> list[str]:
    """A capped list of ``items`` (ranked), one item each, with a line for
    what it leaves out. ``where``: say whether the site is inside a loop."""
    shown, left = capped(items) if cap else (list(items), {})
    lines: list[str] = []
    for item in shown:
        lines += item_lines(_finding_text(item, with_recipe, where))
    return lines + _more_rows(left)


def _finding_text(item: Item, with_recipe: bool = True, where: bool = False) -> str:
    name = f"{item.code} {item.name}" if item.code else item.name
    place = (" inside a loop" if item.in_loop else " outside loops") if where else ""
    recipe = f" ({item.recipe})" if with_recipe and item.recipe and f"({item.recipe})" not in item.message else ""
    return f"{_location(item)} {name}{place}: {cell(item.message)}{recipe}"


def _recipe_legend(items: Sequence[Item]) -> list[str]:
    """What each recipe id of a list means, and where its worked example is."""
    used: dict[str, list[str]] = {}
    for item in items:
        if item.recipe and item.code:
            codes = used.setdefault(item.recipe, [])
            if item.code not in codes:
                codes.append(item.code)
    lines = [*paragraph("Recipes (each rule's page shows its recipe on an example, under \"Use instead\": "
                        "`cpn-lint rule CODE`, or docs/rules/CODE.md):"), ""]
    for recipe, codes in sorted(used.items(), key=lambda kv: recipe_rank(kv[0])):
        lines += item_lines(f"**{recipe}** — {RECIPES.get(recipe, '')} ({', '.join(sorted(codes))})")
    return lines


def _entry_key(entry: Entry) -> str:
    if isinstance(entry, SameLine):
        return _code_of(entry.first)
    return LOOPS if isinstance(entry, LoopGroup) else _code_of(entry)


def _entry_rows(entries: Sequence[Entry]) -> list[str]:
    """What blocks, capped like any finding list, a loop's host waits as one entry."""
    shown, _ = capped(entries, _entry_key)
    lines: list[str] = []
    for entry in shown:
        if isinstance(entry, LoopGroup):
            where = code(entry.citation) + (f" (in {code(entry.function)})" if entry.function else "")
            lines += item_lines(f"{where} loop {code(cell(entry.quote, QUOTE_LIMIT))} {entry.message()}; sites: "
                                f"{_sites([i.citation for i in entry.items], SITES_SHOWN)}")
        elif isinstance(entry, SameLine):
            also = "; ".join(f"{i.code} {i.name}: {cell(i.message)}" for i in entry.items[1:])
            lines += item_lines(f"{_finding_text(entry.first)}; on the same line: {also}")
        else:
            lines += _finding_rows([entry], cap=False)
    return lines + _more_rows(_sites_left(entries, shown))


def _sites_left(entries: Sequence[Entry | ApiEntry], shown: Sequence[Entry | ApiEntry]) -> dict[str, int]:
    """The sites per code of the entries a capped list leaves out (a group counts all of its sites)."""
    left: dict[str, int] = {}
    for entry in entries:
        if any(entry is e for e in shown):
            continue
        if isinstance(entry, LoopGroup):
            for c, n in entry.counts.items():
                left[c] = left.get(c, 0) + n
        elif isinstance(entry, ApiGroup):
            left[entry.code] = left.get(entry.code, 0) + len(entry.items)
        elif isinstance(entry, SameLine):
            for item in entry.items:
                left[_code_of(item)] = left.get(_code_of(item), 0) + 1
        else:
            left[_code_of(entry)] = left.get(_code_of(entry), 0) + 1
    return left


def _what_blocks(report: Report) -> list[str]:
    lines: list[str] = []
    if report.what_blocks:
        entries = report.block_entries or report.what_blocks
        grouped = " The host waits one loop repeats are listed once, as that loop." if groups_of(entries) else ""
        lines += paragraph("Idioms that stop the code from scaling; each must go before the port pays off." + grouped)
        lines.append("")
        lines += _entry_rows(entries)
        lines += ["", *_recipe_legend(report.what_blocks)]
    if report.out_of_scope:
        if lines:
            lines.append("")
        lines += paragraph("**Out-of-scope workload (Gate 4 evidence)** — not recipe-fixable: this work belongs to "
                           "another tool.")
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
    """One table per recipe; the section as a whole is capped like the others."""
    everything = [i for group in report.whats_fixable for i in group.items]
    shown, left = capped(everything)
    kept = {id(i) for i in shown}
    lines: list[str] = []
    for group in report.whats_fixable:
        if lines:
            lines.append("")
        n = len(group.items)
        lines += paragraph(f"**{group.recipe or 'No recipe'}** — {group.description} ({n} site{'s' if n > 1 else ''})")
        lines.append("")
        rows = [i for i in group.items if id(i) in kept]
        lines += _finding_rows(rows, with_recipe=False, cap=False) if rows else ["(sites listed in the appendix)"]
    return lines + _more_rows(left)


def _notes(report: Report) -> list[str]:
    if not report.notes:
        return []
    return ["Costs and compatibility points to plan for; none of them blocks the port.", ""] + _finding_rows(
        report.notes, with_recipe=False
    )


def _api_key(entry: ApiEntry) -> str:
    return entry.code if isinstance(entry, ApiGroup) else _code_of(entry)


def _api_rows(items: Sequence[Item]) -> list[str]:
    """One entry per API name and code, its first site's message and the other sites."""
    entries = group_by_api(items)
    shown, _ = capped(entries, _api_key)
    lines: list[str] = []
    for entry in shown:
        if not isinstance(entry, ApiGroup):
            lines += _finding_rows([entry], with_recipe=False, cap=False, where=True)
            continue
        first = entry.first
        loops = f", {entry.in_loops} inside loops" if entry.in_loops else ""
        lines += item_lines(f"{code(entry.api)} {first.code} {first.name} at {len(entry.items)} sites{loops}: "
                            f"{_location(first)}: {cell(first.message)}; also at "
                            f"{_sites([i.citation for i in entry.items[1:]], SITES_SHOWN)}")
    return lines + _more_rows(_sites_left(entries, shown))


def _api_gaps(report: Report) -> list[str]:
    lines: list[str] = []
    if report.api_gaps:
        lines += _api_rows(report.api_gaps)
        if report.api_note:
            lines += ["", *paragraph(report.api_note)]
    return lines


def _gates(report: Report) -> list[str]:
    lines: list[str] = []
    for gate in report.gates:
        evidence = f" ({_sites(gate.evidence, 5)})" if gate.evidence else ""
        lines += item_lines(f"**{gate.number}. {gate.name}** — {gate.status.value}: {cell(gate.reason)}{evidence}")
    return lines


def _next_steps(report: Report) -> list[str]:
    lines: list[str] = []
    for number, step in enumerate(report.next_steps, start=1):
        text = f"**{step.title}** — {step.detail}"
        if step.citations:
            text += f": {_sites(step.citations, STEP_CITATIONS)}"
        lines += item_lines(text + ("" if text.endswith(".") else "."), f"{number}. ")
    if report.doctor_command:
        lines += ["", "```bash", report.doctor_command, "```", "", "What to look for in its output:", ""]
        for item in report.doctor_look_for:
            lines += item_lines(item)
    return lines


def _appendix(report: Report) -> list[str]:
    """Every static site, one line per file, codes with their lines."""
    per_file: dict[str, dict[str, list[tuple[int, str]]]] = {}
    for item in report.all_items():
        if item.code and item.source == "static" and item.category != "SCALES":
            loc = item.location
            # a notebook's sites as Jupyter shows them (cell N:line M), never the joined cells' lines
            shown = f"cell {loc.cell}:line {loc.cell_line}" if loc.cell is not None else str(loc.line)
            per_file.setdefault(loc.path, {}).setdefault(item.code, []).append((loc.line, shown))
    if not per_file:
        return []
    lines = ["## Appendix: sites by file", "",
             *paragraph("Every site the sections above count, except what scales (the JSON report has each with its "
                        "message); a line is listed once per finding on it."), ""]
    ordered = sorted(per_file.items(), key=lambda kv: (-sum(len(v) for v in kv[1].values()), kv[0]))
    for path, codes in ordered[:APPENDIX_FILES]:
        parts = []
        for code_, numbers in sorted(codes.items()):
            numbers = sorted(numbers)
            shown = ", ".join(text for _, text in numbers[:APPENDIX_LINES])
            if len(numbers) > APPENDIX_LINES:
                shown += f", … ({len(numbers)} in all)"
            parts.append(f"{code_} ({shown})")
        lines += item_lines(f"{code(path)}: " + "; ".join(parts))
    if len(ordered) > APPENDIX_FILES:
        lines.append(f"- … and {len(ordered) - APPENDIX_FILES} more files (`--format json` lists every site).")
    lines.append("")
    return lines
