"""The report as JSON: the Markdown report's content with a stable schema.

Schema ``cpn-lint/verdict-report``, version 1, is published with the package
as ``cpn_lint/verdict/report.schema.json`` (JSON Schema draft 2020-12). The
top-level ``verdict`` holds the verdict words; ``sections`` holds the eight
sections under fixed keys, in report order. Within one schema version fields
are only ever added; a removal or change of meaning bumps the version.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from .. import __version__
from .breaks import summary_line
from .api_groups import ApiGroup, group_by_api
from .loop_groups import LoopGroup, groups_of
from .report_items import REPORT_SCHEMA, REPORT_SCHEMA_VERSION, SECTION_TITLES, Item, Report
from .summary import Hotspot, Overview
from .time_projection import SHARE_ORDER, assumptions_text

SCHEMA_RESOURCE = "report.schema.json"
SECTION_KEYS = (
    "verdict",
    "what_works",
    "what_blocks",
    "whats_fixable",
    "compatibility_notes",
    "api_support_gaps",
    "decision_framework",
    "next_steps",
)


def load_schema() -> dict[str, Any]:
    """The JSON Schema of the document :func:`to_dict` returns."""
    text = resources.files(__package__).joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")
    return json.loads(text)


def render_json(report: Report) -> str:
    return json.dumps(to_dict(report), indent=2, ensure_ascii=False) + "\n"


def loop_dict(group: LoopGroup) -> dict[str, Any]:
    """A loop whose host waits What blocks lists as one root cause."""
    return {
        "location": {"path": group.path, "line": group.line, "citation": group.citation},
        "quote": group.quote,
        "function": group.function,
        "message": group.message(),
        "recipe": group.recipe,
        "codes": group.counts,
        "sites": [i.citation for i in group.items],
    }


def item_dict(item: Item) -> dict[str, Any]:
    loc = item.location
    return {
        "code": item.code,
        "name": item.name,
        "category": item.category,
        "summary": item.summary,
        "recipe": item.recipe,
        "message": item.message,
        "location": {
            "path": loc.path,
            "line": loc.line,
            "column": loc.column,
            "citation": loc.citation,
            "cell": loc.cell,
            "cell_line": loc.cell_line,
        },
        "quote": item.quote,
        "in_loop": item.in_loop,
        "data": _jsonable(item.data),
        "source": item.source,
        "runtime": [{"check": r.check, "description": r.description, "citation": r.citation} for r in item.runtime],
        "function": item.function,
        "span": item.span,
    }


def overview_dict(overview: Overview) -> dict[str, Any]:
    def hotspots(spots: list[Hotspot]) -> list[dict[str, Any]]:
        return [{"where": h.where, "weight": h.weight, "blocks": h.blocks, "fixes": h.fixes, "codes": list(h.codes)}
                for h in spots]

    return {
        "files_read": overview.files_read,
        "files_deciding": overview.files_deciding,
        "unreadable": overview.unreadable,
        "per_code": [{"code": c.code, "name": c.name, "family": c.family, "count": c.count, "in_loops": c.in_loops}
                     for c in overview.per_code],
        "per_family": dict(overview.per_family),
        "top_files": hotspots(overview.top_files),
        "top_functions": hotspots(overview.top_functions),
        "outside": [{"role": o.role, "files": o.files, "findings": o.findings, "blocking": o.blocking}
                    for o in overview.outside],
        "excluded": dict(overview.excluded),
        "suppressed": {
            "total": overview.suppressed,
            "by_code": dict(overview.suppressed_by_code),
            "by_kind": dict(overview.suppressed_by_kind),
            "files": [{"path": path, "count": count} for path, count in overview.suppressed_files],
            "still_weighed": True,
        },
        "false_alarms": [{"path": path, "line": line, "code": code, "reason": reason, "by": by}
                         for path, line, code, reason, by in overview.false_alarms],
        "flake8_config": overview.flake8_config,
        "include_tests": overview.include_tests,
        "fallback": overview.fallback,
    }


def no_verdict_dict(reason: str, files: list[str], input_errors: list[str]) -> dict[str, Any]:
    """The document written instead of a report when there is nothing to judge."""
    return {
        "schema": REPORT_SCHEMA,
        "schema_version": REPORT_SCHEMA_VERSION,
        "tool": {"name": "cpn-lint", "version": __version__},
        "verdict": None,
        "no_verdict": reason,
        "files": files,
        "input_errors": input_errors,
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return [_jsonable(v) for v in items]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def to_dict(report: Report) -> dict[str, Any]:
    empty = report.empty_note()

    def section(index: int, has_content: bool, **content: Any) -> dict[str, Any]:
        return {"title": SECTION_TITLES[index], "empty": None if has_content else empty, **content}

    plain_summary = report.summary.replace("**", "")
    sections = {
        "verdict": section(0, True, text=plain_summary, notes=list(report.verdict_notes),
                           breaks_first={"summary": summary_line(report.breaks),
                                         "items": [b.as_dict() for b in report.breaks]}),
        "what_works": section(
            1,
            bool(report.what_works),
            groups=[
                {
                    "code": grp.code,
                    "name": grp.name,
                    "summary": grp.summary,
                    "count": len(grp.items),
                    "examples": [item_dict(i) for i in grp.examples],
                    "sites": [i.citation for i in grp.items],
                }
                for grp in report.what_works
            ],
        ),
        "what_blocks": section(
            2,
            bool(report.what_blocks or report.out_of_scope or report.runtime_blocks),
            items=[item_dict(i) for i in report.what_blocks],
            loops=[loop_dict(g) for g in groups_of(report.block_entries)],
            out_of_scope=[item_dict(i) for i in report.out_of_scope],
            runtime_only=[item_dict(i) for i in report.runtime_blocks],
        ),
        "whats_fixable": section(
            3,
            bool(report.whats_fixable),
            groups=[
                {"recipe": grp.recipe, "description": grp.description, "items": [item_dict(i) for i in grp.items]}
                for grp in report.whats_fixable
            ],
        ),
        "compatibility_notes": section(4, bool(report.notes), items=[item_dict(i) for i in report.notes]),
        "api_support_gaps": section(
            5,
            bool(report.api_gaps),
            items=[item_dict(i) for i in report.api_gaps],
            # one entry per API name and code, as the markdown lists them
            apis=[{"code": g.code, "api": g.api, "sites": [i.citation for i in g.items], "in_loops": g.in_loops}
                  for g in group_by_api(report.api_gaps) if isinstance(g, ApiGroup)],
            note=report.api_note or None,
            manifest=None if report.manifest is None else {
                "date": report.manifest.date,
                "age_days": report.manifest.age_days,
                "stale": report.manifest.stale,
                "warning": report.manifest.text if report.manifest.stale else None,
            },
        ),
        "decision_framework": section(
            6,
            True,
            gates=[
                {"number": gate.number, "name": gate.name, "status": gate.status.value, "reason": gate.reason,
                 "evidence": list(gate.evidence)}
                for gate in report.gates
            ],
        ),
        "next_steps": section(
            7,
            bool(report.next_steps),
            steps=[{"title": s.title, "detail": s.detail, "citations": list(s.citations)} for s in report.next_steps],
            doctor_command=report.doctor_command,
            look_for=list(report.doctor_look_for),
        ),
    }
    return {
        "schema": report.schema,
        "schema_version": report.schema_version,
        "tool": {"name": "cpn-lint", "version": report.tool_version},
        "verdict": report.verdict.value,
        "no_verdict": None,
        "summary": plain_summary,
        "decision": {
            "rule": report.decision.rule,
            "base_verdict": report.decision.base.value,
            "demoted": report.decision.demoted,
        },
        "context": [{"key": r.key, "label": r.label, "value": r.value, "source": r.source} for r in report.context],
        "inputs": {
            "files": list(report.files),
            "errors": list(report.input_errors),
            "notes": list(report.input_notes),
            "internal_errors": [item_dict(i) for i in report.internal_errors],
        },
        "doctor": {"supplied": report.doctor_supplied},
        "overview": overview_dict(report.overview),
        "projected_time": projection_dict(report),
        "sections": sections,
    }


def projection_dict(report: Report) -> dict[str, Any] | None:
    projection = report.time
    if projection is None:
        return None
    profile, scale = projection.profile, projection.scale
    return {
        "total_seconds": projection.total,
        "elements": scale.elements,
        "gpus": scale.gpus,
        "unstated_trip_count": scale.steps,
        "profile": profile.name,
        "constants": {"launch_seconds": profile.launch, "bandwidth_bytes_per_second": profile.bandwidth,
                      "fp64_per_second": profile.flops, "round_trip_seconds": profile.sync,
                      "python_statement_seconds": profile.host_statement, "source": profile.source},
        "by_kind": {name: projection.by_share[name] for name in SHARE_ORDER if name in projection.by_share},
        "sites": [{"citation": s.citation, "quote": s.quote, "seconds": s.seconds,
                   "share": projection.fraction(s.seconds), "tasks_and_round_trips": s.steps, "kind": s.share}
                  for s in projection.sites[:SITES_IN_JSON]],
        "assumptions": assumptions_text(projection),
    }


SITES_IN_JSON = 50
