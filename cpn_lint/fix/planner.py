"""Which findings of one source text can be fixed, and the fixed text.

Fixes are planned on one model and applied together when they cannot
interfere: their edits do not touch, and a fix that moves or inserts
statements (CPN201, CPN203) is the only fix of its function in that pass.
The text is then linted again and the next pass plans on the new model,
until nothing is left to fix. A pass that makes another rule's finding
disappear is undone and the fix responsible refused; a pass whose text does
not parse leaves the whole file as it was, with an error to report.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field

from ..engine import LintOptions, lint_tree, parse
from ..findings import Finding
from ..model import FileModel
from ..registry import RECIPES, Default
from ..rules import load_rules
from .base import Fix, FixContext, Fixer, Refusal, Refused
from .builtins import fix_builtin
from .collect import fix_stack
from .edits import overlaps
from .hoist import fix_allocation
from .inplace import fix_rebind
from .mask import fix_nonzero

FIXERS: dict[str, Fixer] = {
    "CPN110": fix_builtin,
    "CPN201": fix_allocation,
    "CPN202": fix_rebind,
    "CPN203": fix_stack,
    "CPN204": fix_nonzero,
}
MAX_PASSES = 20


@dataclass(frozen=True)
class Applied:
    """A fix made, at its line in the text it was made on (mapped back to
    the original text where that line survives)."""

    code: str
    line: int
    description: str


@dataclass
class TextFix:
    """The outcome for one source text."""

    original: str
    fixed: str
    applied: list[Applied] = field(default_factory=list)
    left: list[Refusal] = field(default_factory=list)  # in the fixed text's lines
    error: str | None = None  # a fix produced text that does not parse

    @property
    def changed(self) -> bool:
        return self.fixed != self.original


def plan(model: FileModel, findings: list[Finding]) -> tuple[list[Fix], list[Refusal]]:
    """A fix or a refusal for every finding."""
    ctx = FixContext(model)
    fixes: list[Fix] = []
    refusals: list[Refusal] = []
    for finding in findings:
        fixer = FIXERS.get(finding.code)
        if fixer is None:
            refusals.append(Refusal(finding, no_fix_reason(finding.code)))
            continue
        try:
            fixes.append(fixer(ctx, finding))
        except Refused as refused:
            refusals.append(Refusal(finding, refused.reason))
        except RecursionError:
            refusals.append(Refusal(finding, "the code is nested too deeply to prove the rewrite safe"))
        except Exception as exc:  # containment: one fixer's failure never sinks the run
            detail = str(exc).splitlines()[0][:120] if str(exc) else ""
            refusals.append(Refusal(finding, f"internal error in the {finding.code} fixer: {type(exc).__name__}"
                                             f"{': ' + detail if detail else ''} (please report)"))
    return fixes, refusals


def no_fix_reason(code: str) -> str:
    rule = load_rules().get(code)
    if rule is None:
        return "no automatic fix"
    recipe = f" ({rule.recipe}: {RECIPES[rule.recipe]})" if rule.recipe in RECIPES else ""
    if rule.fix_note and not rule.fixable():
        return rule.fix_note[0].lower() + rule.fix_note[1:].rstrip(".")
    return f"no automatic fix{recipe}"


def choose(fixes: list[Fix]) -> list[Fix]:
    """Fixes that can be applied together in one pass."""
    chosen: list[Fix] = []
    moving: set[int] = set()  # scopes with a fix that moves statements
    touched: set[int] = set()
    for fix in sorted(fixes, key=lambda f: (f.moves_statements, f.finding.line, f.finding.col)):
        scope = id(fix.scope)
        if scope in moving or (fix.moves_statements and scope in touched):
            continue
        if any(overlaps(fix.edits, other.edits) for other in chosen):
            continue
        chosen.append(fix)
        touched.add(scope)
        if fix.moves_statements:
            moving.add(scope)
    return chosen


def fix_text(text: str, filename: str, codes: frozenset[str]) -> TextFix:
    """Apply every proven fix for ``codes`` to one source text (which must parse).

    After each pass the text is linted again with every code a plain run
    shows (and ``codes``): a pass that makes any finding other than the fixed
    ones disappear is undone, and the fix that did it is refused, so a
    rewrite never hides what another rule still sees (an in-place update
    that CPN410 reads as a sequential recurrence, say).
    """
    watched = LintOptions(codes=codes | default_codes())
    result = TextFix(text, text)
    current = text
    back: list[dict[int, int]] = []  # per pass: line in the new text -> line in the text before
    blocked: dict[tuple[str, int, int], str] = {}  # findings of this text whose fix hides another
    one_at_a_time = False
    model, findings = _lint(current, filename, watched)
    for _ in range(MAX_PASSES):
        selected = [f for f in findings if f.code in codes]
        fixes, refusals = plan(model, selected) if model is not None else ([], [Refusal(f, no_fix_reason(f.code)) for f in selected])
        refusals += [Refusal(f.finding, blocked[_key(f.finding)]) for f in fixes if _key(f.finding) in blocked]
        fixes = [f for f in fixes if _key(f.finding) not in blocked]
        chosen = choose(fixes)[:1] if one_at_a_time else choose(fixes)
        result.left = refusals + [Refusal(f.finding, "waits for another fix in the same place; run the fix again")
                                  for f in fixes if f not in chosen]
        if not chosen or model is None:
            break
        new = FixContext(model).rewriter.apply([e for fix in chosen for e in fix.edits])
        try:
            parse(new, filename)
        except (SyntaxError, ValueError, RecursionError) as exc:
            return TextFix(text, text, error=f"a fix produced code that does not parse ({exc}); "
                                             "the file was left as it was (please report)")
        new_model, new_findings = _lint(new, filename, watched)
        lost = _lost(findings, new_findings, chosen)
        if lost:
            if len(chosen) == 1:
                blocked[_key(chosen[0].finding)] = f"the rewrite would hide {lost}, which still applies"
            one_at_a_time = True
            continue
        result.applied += [Applied(f.finding.code, _original_line(f.finding.line, back), f.description) for f in chosen]
        back.append(_line_map(current, new))
        current, model, findings, blocked = new, new_model, new_findings, {}
    result.fixed = current
    result.left.sort(key=lambda r: (r.finding.line, r.finding.col, r.finding.code))
    return result


def default_codes() -> frozenset[str]:
    return frozenset(c for c, r in load_rules().items() if r.default is Default.ON and c != "CPN000")


def _key(finding: Finding) -> tuple[str, int, int]:
    return finding.code, finding.line, finding.col


def _lost(before: list[Finding], after: list[Finding], fixed: list[Fix]) -> str | None:
    """The findings other than the fixed ones that a pass made disappear, as text."""
    gone = Counter(f.code for f in before) - Counter(f.finding.code for f in fixed) - Counter(f.code for f in after)
    if not gone:
        return None
    return " and ".join(f"{code}" + (f" ×{n}" if n > 1 else "") for code, n in sorted(gone.items()))


def _lint(text: str, filename: str, options: LintOptions) -> tuple[FileModel | None, list[Finding]]:
    tree = parse(text, filename)
    findings = lint_tree(tree, text, filename, options)
    findings = [f for f in findings if f.code != "CPN000"] + [f for f in findings if f.code == "CPN000"]
    if not findings:
        return None, []
    return FileModel(tree, text, filename), findings


def _line_map(old: str, new: str) -> dict[int, int]:
    """Line numbers of ``new`` that are unchanged lines of ``old``."""
    matcher = difflib.SequenceMatcher(a=old.splitlines(), b=new.splitlines(), autojunk=False)
    mapping: dict[int, int] = {}
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            mapping[block.b + k + 1] = block.a + k + 1
    return mapping


def _original_line(line: int, back: list[dict[int, int]]) -> int:
    for mapping in reversed(back):
        line = mapping.get(line, line)
    return line


def original_lines(result: TextFix) -> dict[int, int]:
    """Lines of the fixed text that are lines of the original text: fixed
    line -> original line."""
    if not result.changed:
        return {}
    return _line_map(result.original, result.fixed)


def fixable_findings(model: FileModel, findings: list[Finding]) -> list[Finding]:
    """The findings ``cpn-lint fix`` rewrites in the file the model
    describes (as the command does by default: every pass, and no rewrite
    that hides another finding). Advice for reports: it never raises."""
    wanted = [f for f in findings if f.code in FIXERS]
    if not wanted:
        return []
    try:
        fixes, _ = plan(model, wanted)
        if not fixes:
            return []
        applied = fix_text(model.source, model.filename, frozenset(FIXERS)).applied
    except Exception:  # the count is advice: a failure here never sinks a report
        return []
    made = {(a.code, a.line) for a in applied}
    return [f for f in wanted if (f.code, f.line) in made]
