"""The report's summary: counts per code and family, where the blocking work
is (the ten files and the ten functions with most of it), and what was left
out of the verdict (tests, docs, examples; excluded files; suppressions).

It reads the report's items and the scope; it decides nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..registry import Category
from ..rules import load_rules
from .collect import Unit
from .gates import STOPPING_API_CODES
from .periphery import PERIPHERAL_WEIGHT
from .scope import Role, Scope
from .suppress import Suppressions

TOP = 10  # files and functions listed
# What counts as blocking work, and how much: an idiom that stops scaling
# weighs most, an API call that stops the program next, a mechanical fix least.
WEIGHTS = {Category.BLOCKS.value: 3, Category.API.value: 2, Category.REFACTOR.value: 1}


@dataclass(frozen=True)
class CodeCount:
    code: str
    name: str
    family: str
    count: int
    in_loops: int


@dataclass(frozen=True)
class Hotspot:
    """A file or a function and the blocking work in it."""

    where: str  # "src/flow.py" or "src/flow.py: advect"
    weight: int
    blocks: int
    fixes: int  # REFACTOR and stopping API findings
    codes: tuple[str, ...]


@dataclass(frozen=True)
class Outside:
    """Files read but not deciding the verdict, per role."""

    role: str
    files: int
    findings: int
    blocking: int


@dataclass
class Overview:
    files_read: int = 0
    files_deciding: int = 0
    unreadable: int = 0
    per_code: list[CodeCount] = field(default_factory=list)
    per_family: dict[str, int] = field(default_factory=dict)
    top_files: list[Hotspot] = field(default_factory=list)
    top_functions: list[Hotspot] = field(default_factory=list)
    outside: list[Outside] = field(default_factory=list)
    excluded: dict[str, int] = field(default_factory=dict)  # glob -> files
    suppressed: int = 0
    suppressed_by_code: dict[str, int] = field(default_factory=dict)
    suppressed_by_kind: dict[str, int] = field(default_factory=dict)
    suppressed_files: list[tuple[str, int]] = field(default_factory=list)
    # findings the user declared wrong, with the reason: (path, line, code, reason, by)
    false_alarms: list[tuple[str, int, str, str, str]] = field(default_factory=list)
    flake8_config: str | None = None
    # files outside the main computation (analysis, plotting, logo scripts,
    # notebooks beside a package), with what they are: they weigh less
    peripheral: list[tuple[str, str]] = field(default_factory=list)
    include_tests: bool = False
    fallback: bool = False


def _is_blocking(code: str | None, category: str) -> bool:
    if category == Category.API.value:
        return code in STOPPING_API_CODES
    return category in WEIGHTS


def build_overview(items: Sequence, units: Sequence[Unit], scope: Scope, suppressions: Suppressions | None,
                   peripheral: dict[str, str] | None = None) -> Overview:
    """``items``: the report's items (static findings of deciding files)."""
    rules = load_rules()
    overview = Overview(
        files_read=sum(1 for u in units if u.result.error is None),
        files_deciding=sum(1 for u in units if u.result.error is None and scope.decides(u.path)),
        unreadable=sum(1 for u in units if u.result.error is not None),
        include_tests=scope.include_tests,
        fallback=scope.fallback,
    )
    counted = [i for i in items if i.code and i.source == "static"]
    by_code = Counter(i.code for i in counted)
    loops = Counter(i.code for i in counted if i.in_loop)
    for code, n in sorted(by_code.items(), key=lambda kv: (-kv[1], kv[0])):
        rule = rules.get(code)
        family = rule.category.value if rule else "UNKNOWN"
        overview.per_code.append(CodeCount(code, rule.slug if rule else code, family, n, loops[code]))
        overview.per_family[family] = overview.per_family.get(family, 0) + n
    outside = peripheral or {}
    overview.peripheral = sorted(outside.items())
    overview.top_files = _hotspots(counted, lambda i: i.location.path, outside, rules)
    overview.top_functions = _hotspots([i for i in counted if i.function],
                                       lambda i: f"{i.location.path}: {i.function}", outside, rules)
    overview.outside = _outside(units, scope, rules)
    for glob in scope.excluded.values():
        overview.excluded[glob] = overview.excluded.get(glob, 0) + 1
    if suppressions is not None:
        overview.suppressed = suppressions.count()
        overview.suppressed_by_code = suppressions.by_code()
        overview.suppressed_by_kind = suppressions.by_kind()
        per_file = Counter(s.path for s in suppressions.accepted)
        overview.suppressed_files = sorted(per_file.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP]
        overview.flake8_config = suppressions.settings.origin if suppressions.settings else None
        overview.false_alarms = sorted((s.path, s.finding.line, s.finding.code, s.reason or "", s.by)
                                       for s in suppressions.declared)
    return overview


def _hotspots(items: Iterable, key, outside: dict[str, str], rules) -> list[Hotspot]:  # type: ignore[no-untyped-def]
    """The places with most blocking work. A root cause's folded findings
    (the element-level ones inside a compiled kernel or an element loop)
    weigh there like findings of their own, in a loop, without adding
    codes; a file outside the main computation weighs PERIPHERAL_WEIGHT."""
    groups: dict[str, list] = {}
    for item in items:
        if _is_blocking(item.code, item.category):
            groups.setdefault(key(item), []).append(item)
    spots = []
    for where, members in groups.items():
        blocks = fixes = 0
        weight = 0.0
        for item in members:
            folded = item.data.get("folded") if isinstance(item.data.get("folded"), dict) else {}
            factor = PERIPHERAL_WEIGHT if item.location.path in outside else 1.0
            weight += factor * WEIGHTS.get(item.category, 0) * (2 if item.in_loop else 1)
            own_blocks = item.category == Category.BLOCKS.value
            blocks += own_blocks
            fixes += not own_blocks
            for code, n in folded.items():
                rule = rules.get(code)
                category = rule.category.value if rule else ""
                if not _is_blocking(code, category):
                    continue
                weight += factor * WEIGHTS.get(category, 0) * 2 * int(n)
                if category == Category.BLOCKS.value:
                    blocks += int(n)
                else:
                    fixes += int(n)
        codes = tuple(sorted({i.code for i in members}))
        spots.append(Hotspot(where, round(weight), blocks, fixes, codes))
    spots.sort(key=lambda s: (-s.weight, -s.blocks, s.where))
    return spots[:TOP]


def _outside(units: Sequence[Unit], scope: Scope, rules) -> list[Outside]:  # type: ignore[no-untyped-def]
    per_role: dict[Role, list[int]] = {}
    for unit in units:
        if unit.result.error is not None or scope.decides(unit.path):
            continue
        findings = unit.result.findings
        blocking = 0
        for f in findings:
            rule = rules.get(f.code)
            if rule is not None and _is_blocking(f.code, rule.category.value):
                blocking += 1
        totals = per_role.setdefault(scope.role(unit.path), [0, 0, 0])
        totals[0] += 1
        totals[1] += len(findings)
        totals[2] += blocking
    order = list(Role)
    return [Outside(role.value, *per_role[role]) for role in sorted(per_role, key=order.index)]
