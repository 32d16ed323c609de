"""Rule documentation rendered from the registry (docs/rules/CPNxxx.md).

The pages are generated, committed, and compared byte for byte by a test, so
they can never drift from the rules: each page is the rule's docstring plus a
header table and its first VALID/INVALID examples.
"""

from __future__ import annotations

from pathlib import Path

from .registry import DOC_HEADINGS, Category, FixExample, Rule
from .rules import load_rules

CATEGORY_TEXT = {
    Category.SCALES: "SCALES — will speed up after the import swap",
    Category.BLOCKS: "BLOCKS — must be removed before the code can scale",
    Category.REFACTOR: "REFACTOR — mechanical fix with a known recipe",
    Category.INFO: "INFO — cost or compatibility note",
    Category.API: "API — support per the cuPyNumeric manifest",
    Category.SCOPE: "SCOPE — workload outside cuPyNumeric's scope (Gate 4)",
    Category.INTERNAL: "INTERNAL — cpn-lint itself failed",
}


def render_rule(rule: type[Rule]) -> str:
    default = "on (plain flake8 run)" if rule.default.value == "on" else "assessment only (`--cpn-assessment`, cpn-verdict)"
    lines = [
        f"# {rule.code} `{rule.slug}`",
        "",
        f"{rule.summary[0].upper()}{rule.summary[1:]}.",
        "",
        "| | |",
        "|---|---|",
        f"| Category | {CATEGORY_TEXT[rule.category]} |",
        f"| Shown | {default} |",
        f"| Recipe | {rule.recipe or 'none'} |",
        f"| Headline | `{rule.code} {rule.short or rule.message}` |",
        f"| Message (`--cpn-verbose`, report) | `{rule.code} {rule.message}` |",
        "",
    ]
    doc = rule.doc()
    lines.append(doc.replace("\n## ", "\n## ").strip())
    if rule.invalid or rule.valid:
        lines += ["", "## Tested examples", ""]
        for title, examples in (("Reported", rule.invalid[:2]), ("Not reported", rule.valid[:2])):
            for example in examples:
                lines += [f"{title}:", "", "```python", example.source.rstrip("\n"), "```", ""]
    lines += _automatic_fix(rule)
    return "\n".join(lines).rstrip() + "\n"


def _automatic_fix(rule: type[Rule]) -> list[str]:
    """What ``cpn-lint fix`` does with the rule's findings, with its tested examples."""
    if not rule.fix_note and not rule.fix_examples:
        return []
    lines = ["", "## Automatic fix (`cpn-lint fix`)", ""]
    if rule.fix_note:
        lines += [rule.fix_note, ""]
    for example in rule.fix_examples:
        if isinstance(example, FixExample):
            lines += ["Rewritten:", "", "```python", example.before.rstrip("\n"), "```", "",
                      "becomes:", "", "```python", example.after.rstrip("\n"), "```", ""]
        else:
            lines += [f"Left as it is ({example.reason}):", "", "```python", example.source.rstrip("\n"), "```", ""]
    return lines


def render_index() -> str:
    lines = [
        "# cpn-lint rules",
        "",
        "Generated from the registry (`python -m cpn_lint docs`); do not edit by hand.",
        "",
        "Fix: `cpn-lint fix` rewrites some of the code's findings, where the model proves the rewrite safe "
        "(each page's \"Automatic fix\" section says when).",
        "",
        "| Code | Name | Category | Shown | Recipe | Fix | Summary |",
        "|---|---|---|---|---|---|---|",
    ]
    for code, rule in load_rules().items():
        lines.append(
            f"| [{code}]({code}.md) | `{rule.slug}` | {rule.category.value} | {rule.default.value} "
            f"| {rule.recipe or '—'} | {'yes' if rule.fixable() else '—'} | {rule.summary} |"
        )
    return "\n".join(lines) + "\n"


def expected_pages() -> dict[str, str]:
    pages = {f"{code}.md": render_rule(rule) for code, rule in load_rules().items()}
    pages["README.md"] = render_index()
    return pages


def write_pages(directory: Path) -> list[Path]:
    """Write the pages that changed. Every target is checked first, so a
    folder holding a file of the same name that is not a rule page (a
    project's own README.md) gets nothing at all (:mod:`cpn_lint.safe_write`)."""
    from .safe_write import RULE_PAGE, atomic_write, check_target

    if directory.exists() and not directory.is_dir():
        from .safe_write import WriteRefused

        raise WriteRefused(f"{directory} is not a folder; name the folder for the rule pages")
    pages = expected_pages()
    for name in pages:
        if (directory / name).exists():
            check_target(directory / name, RULE_PAGE)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in pages.items():
        path = directory / name
        data = text.encode("utf-8")
        if not path.exists() or path.read_bytes() != data:
            atomic_write(path, data)
            written.append(path)
    return written


def missing_headings(rule: type[Rule]) -> list[str]:
    doc = rule.doc()
    return [h for h in DOC_HEADINGS if f"## {h}\n" not in doc + "\n"]
