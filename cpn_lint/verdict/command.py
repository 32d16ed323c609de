"""The ``cpn-verdict`` command line (also ``python -m cpn_lint verdict``).

Exit status: 0 whatever the verdict, unless ``--fail-on`` names a verdict the
result reaches or passes (then 1); 2 for a usage error or input that could not
be read — in which case the report of everything else is still printed.
"""

from __future__ import annotations

import argparse
import configparser
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from .. import __version__
from ..cache import open_cache
from ..engine import LintOptions
from ..jobs import add_arguments as add_jobs_arguments
from ..rules import load_rules
from . import gates as g
from .collect import Progress, Unit, assess_paths, discover_with_roots
from .context import FROM_CLI, PATTERNS, Context
from .from_flake8 import Flake8Input, Flake8InputError, Reread, join_analysis, read_flake8_output
from .report import build_report
from .report_items import ManifestNote
from .scope import Scope, plan_scope
from .suppress import Flake8ConfigError, Flake8Settings, Suppressions, find_flake8_config, read_flake8_settings, split_findings

FORMATS = ("markdown", "json", "sarif", "html")
FAIL_ON = ("LIGHT", "SIGNIFICANT", "NOT-RECOMMENDED")
PYPROJECT_SECTION = "tool.cpn-lint"
SETUP_CFG_SECTION = "cpn-lint"
# config key -> argparse destination
CONFIG_KEYS = {
    "elements": "elements",
    "gpus": "gpus",
    "nodes": "nodes",
    "gpu": "gpu",
    "compute-capability": "compute_capability",
    "pattern": "pattern",
    "format": "format",
    "fail-on": "fail_on",
    "manifest": "manifest",
    "include-tests": "include_tests",
    "exclude": "exclude",
    "baseline": "baseline",
    "rule-docs-url": "rule_docs_url",
    "sarif-scales": "sarif_scales",
    "sarif-level": "sarif_level",
    "false-alarms": "false_alarms",
    "new-only": "new_only",
}
# A configured false alarm, flake8's own line format plus the reason: "PATH:LINE[:COL]: CODE reason" for
# one line, "PATH::NAME: CODE reason" for a function or method (NAME as `Class.method`, nested ones
# included), "PATH: CODE reason" for a whole file.
FALSE_ALARM = re.compile(r"^\s*(?P<path>.+?)(?::(?P<line>\d+)(?::\d+)?|::(?P<function>[A-Za-z_][\w.]*))?:"
                         r"\s*(?P<code>CPN\d{3})\s+(?P<reason>\S.*?)\s*$")


class UsageError(Exception):
    """A one-line reason; the command exits 2."""


# --------------------------------------------------------------------- parser
def count(text: str) -> int:
    """'50000000', '50_000_000', '50M', '2.5e7', '1.5B' -> int."""
    raw = str(text).strip().replace("_", "").replace(",", "")
    match = re.fullmatch(r"(\d+(?:\.\d+)?(?:[eE]\d+)?)\s*([kKmMgGbB]?)", raw)
    if not match:
        raise argparse.ArgumentTypeError(f"not a count: {text!r} (e.g. 40000000, 40M, 4e7)")
    scale = {"": 1, "k": 1_000, "m": 1_000_000, "g": 1_000_000_000, "b": 1_000_000_000}[match.group(2).lower()]
    value = float(match.group(1)) * scale
    if value < 1 or value != int(value):
        raise argparse.ArgumentTypeError(f"not a positive whole count: {text!r}")
    return int(value)


def positive(text: str) -> int:
    try:
        value = int(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cpn-verdict",
        description=(
            "Assess NumPy code for a port to cuPyNumeric: lint the paths (files, folders, .ipynb notebooks) "
            "with every cpn-lint code, apply the decision framework and print the 8-section report."
        ),
        epilog=(
            "Settings may also come from [tool.cpn-lint] in pyproject.toml or [cpn-lint] in setup.cfg "
            "(keys: elements, gpus, nodes, gpu, compute-capability, pattern, format, fail-on, manifest, include-tests, "
            "exclude); the command line wins. '# noqa' comments and flake8's ignore, extend-ignore and "
            "per-file-ignores apply as in flake8. Exit status: 0, or 1 when --fail-on is reached, or 2 for usage "
            "or input errors and when no file could be read (NO VERDICT)."
        ),
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files, folders or notebooks to assess (default: .)")
    parser.add_argument("--from-flake8", metavar="FILE", help="assess this flake8 output ('-' reads stdin; flake8's default "
                        "text format or --format=cpn-json); the files it names are read again when they are here, "
                        "so the report is the one a direct run gives")
    ctx = parser.add_argument_group("context (Step 1; defaults are stated in the report)")
    ctx.add_argument("--elements", type=count, metavar="N", help="hot-path array elements at runtime (default: 30-50 million)")
    ctx.add_argument("--gpus", type=positive, metavar="N", help="GPUs in the target run (default: 1-4)")
    ctx.add_argument("--nodes", type=positive, metavar="N", help="nodes in the target run (default: 1)")
    hw = ctx.add_mutually_exclusive_group()
    hw.add_argument("--gpu", metavar="MODEL", help="target GPU model, e.g. A100, H100, V100, P100 (Gate 1)")
    hw.add_argument("--compute-capability", metavar="X.Y", help="target GPU compute capability (Gate 1)")
    ctx.add_argument("--pattern", choices=PATTERNS, help="dominant compute pattern (default: inferred from the code)")
    out = parser.add_argument_group("output")
    out.add_argument("--format", choices=FORMATS, help="report format (default: markdown)")
    out.add_argument("--output", "-o", metavar="PATH", help="write the report to PATH instead of stdout")
    out.add_argument("--fail-on", type=str.upper, choices=FAIL_ON, metavar="{LIGHT,SIGNIFICANT,NOT-RECOMMENDED}",
                     help="exit 1 when the verdict is this one or worse")
    out.add_argument("--brief", action="store_true", default=None,
                     help="print only the verdict, the summary and the top findings; the full report (in --format, "
                     "Markdown by default) goes to --output (default: a file in the system's temporary folder, "
                     "named on the last line)")
    out.add_argument("--baseline", metavar="FILE",
                     help="accept the findings this baseline lists ('cpn-lint baseline write -o FILE PATH...'): the "
                     "verdict still weighs them and the summary counts them apart, unless --new-only")
    out.add_argument("--new-only", action="store_true", default=None,
                     help="with --baseline: leave the findings the baseline lists out of the report and of the "
                     "verdict, which then rests on the new findings alone")
    sarif = parser.add_argument_group("SARIF (--format sarif)")
    sarif.add_argument("--sarif-scales", action="store_true", default=None,
                       help="include what scales (kind 'pass'); by default only problems are listed")
    sarif.add_argument("--sarif-level", action="append", metavar="CATEGORY=LEVEL",
                       help="the level of a category's results, e.g. BLOCKS=error or REFACTOR=none (repeatable; "
                       "defaults: BLOCKS and SCOPE warning, REFACTOR, API and INFO note)")
    sarif.add_argument("--rule-docs-url", metavar="URL",
                       help="where the rule pages are published; each rule's helpUri becomes URL/CODE.md (none by default)")
    scope = parser.add_argument_group("scope")
    scope.add_argument("--include-tests", action="store_true", default=None,
                       help="let tests, docs, examples, benchmarks and setup scripts decide the verdict too "
                       "(by default they are read and counted, but only the program's own source decides)")
    scope.add_argument("--exclude", action="append", metavar="GLOB",
                       help="do not read files matching GLOB (repeatable; flake8's exclude and extend-exclude apply too)")
    parser.add_argument("--doctor", metavar="FILE", help="merge a cuPyNumeric Doctor JSON report into the assessment")
    parser.add_argument("--manifest", metavar="PATH", help="the cuPyNumeric API manifest to check calls against "
                        "(default: the one 'cpn-lint manifest refresh' wrote to the user's cache, else the shipped one)")
    cfg = parser.add_argument_group("configuration")
    cfg.add_argument("--config", metavar="FILE", help="read settings from this pyproject.toml or setup.cfg only")
    cfg.add_argument("--isolated", action="store_true", help="ignore configuration files")
    add_jobs_arguments(parser.add_argument_group("speed"))
    parser.add_argument("--version", action="version", version=f"cpn-verdict (cpn-lint {__version__})")
    return parser


# --------------------------------------------------------------------- config
@dataclass(frozen=True)
class Config:
    values: dict[str, Any]
    origin: str  # "pyproject.toml [tool.cpn-lint]", ...
    folder: Path | None = None  # the config file's folder: paths in it are relative to it


def read_config(explicit: str | None, directory: Path, warn) -> Config | None:  # type: ignore[no-untyped-def]
    """Settings from ``explicit``, else ``pyproject.toml`` then ``setup.cfg`` in ``directory``."""
    candidates = [Path(explicit)] if explicit else [directory / "pyproject.toml", directory / "setup.cfg"]
    for path in candidates:
        if not path.is_file():
            if explicit:
                raise UsageError(f"config file not found: {explicit}")
            continue
        raw = _read_section(path)
        if raw is None:
            if explicit:
                raise UsageError(f"{path}: no [{PYPROJECT_SECTION if path.suffix == '.toml' else SETUP_CFG_SECTION}] section")
            continue
        origin = f"{path.name} [{PYPROJECT_SECTION if path.suffix == '.toml' else SETUP_CFG_SECTION}]"
        values: dict[str, Any] = {}
        for key, value in raw.items():
            norm = key.strip().lower().replace("_", "-")
            if norm not in CONFIG_KEYS:
                warn(f"{origin}: ignoring unknown key {key!r}")
                continue
            values[CONFIG_KEYS[norm]] = value
        return Config(values, origin, path.resolve().parent)
    return None


def _read_section(path: Path) -> dict[str, Any] | None:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot be read ({exc})") from None
    if path.suffix == ".toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise UsageError(f"{path}: not valid TOML ({exc})") from None
        section = data.get("tool", {}).get("cpn-lint")
        if section is None:
            return None
        if not isinstance(section, dict):
            raise UsageError(f"{path}: [{PYPROJECT_SECTION}] is not a table")
        return section
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text, source=str(path))
    except configparser.Error as exc:
        raise UsageError(f"{path}: not a valid setup.cfg ({str(exc).splitlines()[0]})") from None
    if not parser.has_section(SETUP_CFG_SECTION):
        return None
    return dict(parser.items(SETUP_CFG_SECTION))


def _convert(origin: str, dest: str, value: Any) -> Any:
    """A config value checked like its command-line twin."""
    try:
        if dest == "elements":
            return count(str(value))
        if dest in ("gpus", "nodes"):
            return positive(str(value))
        if dest == "pattern":
            if str(value) not in PATTERNS:
                raise argparse.ArgumentTypeError(f"pattern must be one of {', '.join(PATTERNS)}")
            return str(value)
        if dest == "format":
            if str(value) not in FORMATS:
                raise argparse.ArgumentTypeError(f"format must be one of {', '.join(FORMATS)}")
            return str(value)
        if dest == "fail_on":
            upper = str(value).upper().replace(" ", "-")
            if upper not in FAIL_ON:
                raise argparse.ArgumentTypeError(f"fail-on must be one of {', '.join(FAIL_ON)}")
            return upper
        if dest in ("include_tests", "new_only"):
            return _boolean(dest, value)
        if dest in ("exclude", "sarif_level"):
            items = value if isinstance(value, list) else re.split(r"[,\n]+", str(value))
            return [str(item).strip() for item in items if str(item).strip()]
        if dest == "sarif_scales":
            return _boolean(dest, value)
        if dest == "false_alarms":
            return _false_alarms(value)
        return str(value)
    except argparse.ArgumentTypeError as exc:
        raise UsageError(f"{origin}: {dest.replace('_', '-')}: {exc}") from None


@dataclass(frozen=True)
class FalseAlarm:
    """Findings the configuration states are wrong, and why: one line's, a
    function's (``function``) or a whole file's (neither)."""

    path: str
    line: int | None
    code: str
    reason: str
    function: str | None = None

    @property
    def where(self) -> str:
        """The entry's place as written: ``path:12``, ``path::name`` or ``path``."""
        if self.line is not None:
            return f"{self.path}:{self.line}"
        return f"{self.path}::{self.function}" if self.function else self.path

    def names(self, line: int, function: str | None) -> bool:
        """Whether a finding of the entry's file and code at ``line``, in
        ``function``, is one this entry declares wrong."""
        if self.line is not None:
            return line == self.line
        if self.function is not None:
            return function is not None and (function == self.function or function.startswith(self.function + "."))
        return True


def _false_alarms(value: Any) -> list[FalseAlarm]:
    items = value if isinstance(value, list) else str(value).splitlines()
    alarms: list[FalseAlarm] = []
    for item in items:
        text = str(item).strip()
        if not text:
            continue
        match = FALSE_ALARM.match(text)
        if match is None:
            raise argparse.ArgumentTypeError(f"{text!r} is not 'PATH:LINE: CODE reason', 'PATH::FUNCTION: CODE "
                                             "reason' or 'PATH: CODE reason' (the reason is required)")
        line = int(match["line"]) if match["line"] else None
        alarms.append(FalseAlarm(match["path"], line, match["code"], match["reason"], match["function"]))
    return alarms


def _boolean(dest: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
        raise argparse.ArgumentTypeError(f"{dest.replace('_', '-')} must be true or false, not {value!r}")
    return text in ("true", "yes", "1", "on")


# --------------------------------------------------------------------- context
def make_context(ns: argparse.Namespace, config: Config | None) -> Context:
    context = Context()
    layers: list[tuple[str, dict[str, Any]]] = []
    if config is not None:
        layers.append((config.origin, {k: _convert(config.origin, k, v) for k, v in config.values.items()}))
    layers.append((FROM_CLI, {k: getattr(ns, k) for k in CONFIG_KEYS.values() if getattr(ns, k, None) is not None}))
    merged: dict[str, tuple[Any, str]] = {}
    for origin, values in layers:
        if origin == FROM_CLI and ("gpu" in values or "compute_capability" in values):
            merged.pop("gpu", None)  # a hardware choice on the command line replaces the config's
            merged.pop("compute_capability", None)
        for key, value in values.items():
            merged[key] = (value, origin)
    for key in ("format", "fail_on", "manifest", "include_tests", "baseline", "rule_docs_url", "sarif_scales",
                "new_only"):
        if key in merged:
            setattr(ns, key, merged[key][0])
    # excludes add up: the config's, then the command line's
    from_config = layers[0][1].get("exclude", []) if config is not None else []
    ns.exclude = list(from_config) + list(getattr(ns, "exclude", None) or [])
    levels_from_config = layers[0][1].get("sarif_level", []) if config is not None else []
    ns.sarif_level = list(levels_from_config) + list(getattr(ns, "sarif_level", None) or [])
    for key in ("elements", "gpus", "nodes", "pattern"):
        if key in merged:
            context = context.with_values(merged[key][1], **{key: merged[key][0]})
    if "gpu" in merged and "compute_capability" in merged:
        raise UsageError(f"{merged['gpu'][1]}: give gpu or compute-capability, not both")
    if "gpu" in merged:
        model, origin = merged["gpu"]
        cc = g.compute_capability_of(model)
        if cc is None:
            raise UsageError(f"unknown GPU model {model!r}; give --compute-capability X.Y instead")
        context = context.with_values(origin, gpu_model=model, compute_capability=cc)
    elif "compute_capability" in merged:
        value, origin = merged["compute_capability"]
        try:
            cc = g.parse_compute_capability(str(value))
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        context = context.with_values(origin, compute_capability=cc)
    return context


# --------------------------------------------------------------------- manifest
def select_manifest(path: str | None) -> None:
    """Make the manifest at ``path`` (None: the default one) the one the
    rules and the report read; a named manifest that cannot be read is a
    usage error."""
    from .. import manifest

    try:
        manifest.select(path)
    except manifest.ManifestError as exc:
        raise UsageError(f"--manifest: {exc}") from None


def manifest_note() -> ManifestNote | None:
    """The age of the manifest in use (see :func:`select_manifest`)."""
    from .. import manifest

    try:
        info = manifest.staleness()
    except Exception:
        return None
    return _as_note(info)


def _as_note(info: Any) -> ManifestNote | None:
    def get(name: str) -> Any:
        return info.get(name) if isinstance(info, dict) else getattr(info, name, None)

    date = get("date") or get("snapshot_date")
    age = get("age_days")
    stale = bool(get("stale"))
    text = get("message") or get("text") or ""
    if stale and not text:
        text = (f"the API manifest snapshot is {age} days old (taken {date}); support may have changed since — "
                "refresh it with `cpn-lint manifest refresh` before relying on the API gaps it lists")
    return ManifestNote(str(date) if date else None, int(age) if isinstance(age, int) else None, stale, text)


# --------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        ns = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:  # argparse has printed its message
        return int(exc.code or 0)
    try:
        return run(ns)
    except UsageError as exc:
        print(f"cpn-verdict: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cpn-verdict: interrupted", file=sys.stderr)
        return 130


def run(ns: argparse.Namespace) -> int:
    def warn(message: str) -> None:
        print(f"cpn-verdict: {message}", file=sys.stderr)

    config = None if ns.isolated else read_config(ns.config, Path.cwd(), warn)
    context = make_context(ns, config)
    if ns.output:
        _check_output(ns.output)  # before any work: a wrong target costs nothing
    if ns.from_flake8 and ns.paths:
        raise UsageError("give paths to lint or --from-flake8, not both")
    doctor_findings = _load_doctor(ns.doctor) if ns.doctor else None
    select_manifest(ns.manifest)
    settings = Flake8Settings() if ns.isolated else _flake8_settings()

    input_errors: list[str] = []
    notes: list[str] = []
    suppressions = Suppressions(settings=settings if settings.origin else None)
    excludes = [*settings.exclude, *(ns.exclude or [])]
    options = LintOptions(assessment=True, manifest_path=ns.manifest)
    joined = None
    if ns.from_flake8:
        parsed = _read_flake8(ns.from_flake8)
        input_errors += parsed.errors
        # flake8 was given paths this log does not name: folder roles are judged below the working folder
        found: list[tuple[str, str | None]] = [(u.path, os.curdir) for u in parsed.units]
        files, scope = plan_scope(found, excludes, bool(ns.include_tests))
        kept = set(files)
        here = [path for path in files if path not in ("-", "stdin") and Path(path).is_file()]
        fresh = {u.path: u for u in _assess(here, options, ns)}
        joined = join_analysis([u for u in parsed.units if u.path in kept], fresh, _assessment_codes())
        units = joined.units
        notes = _flake8_notes(ns.from_flake8, parsed, joined)
    else:
        found, input_errors = discover_with_roots(ns.paths or ["."])
        missing = [e for e in input_errors if e.endswith(": no such file or directory")]
        if missing:
            raise UsageError(missing[0])
        files, scope = plan_scope(found, excludes, bool(ns.include_tests))
        units = _assess(files, options, ns)
    _suppress(units, settings, suppressions)
    if config is not None and config.values.get("false_alarms"):
        alarms = _convert(config.origin, "false_alarms", config.values["false_alarms"])
        notes += _declare_false_alarms(units, alarms, config, suppressions)
    real_paths = {id(unit): unit.path for unit in units}
    units, scope = _displayed(units, scope, found)
    if ns.new_only and not ns.baseline:
        raise UsageError("--new-only needs --baseline FILE (or baseline = FILE in the configuration)")
    if ns.baseline:
        _apply_baseline(units, ns.baseline, suppressions, real_paths)
        if ns.new_only:
            notes.append(_leave_out_baselined(units, suppressions))
    if joined is not None:
        _accept_unreported(units, joined.unreported, suppressions)
    no_verdict = _no_verdict_reason(units)
    if no_verdict is not None:
        return _emit_no_verdict(no_verdict, units, input_errors, ns)
    evidence = g.SizeEvidence.merge([u.sizes for u in units if scope.decides(u.path)])
    report = build_report(units, context, input_errors=input_errors, input_notes=notes, size_evidence=evidence,
                          doctor_findings=doctor_findings, manifest=manifest_note(), scope=scope,
                          suppressions=suppressions)
    report.accepted = accepted_sites(units, suppressions)
    if ns.brief or ns.output:
        for error in report.input_errors:  # the report is not on the terminal: name what was not read
            warn(error)
    if ns.brief:
        return _emit_brief(report, ns)
    text = render(report, ns.format or "markdown", sarif_options(ns))
    _emit(text, ns.output)
    if report.input_errors:
        return 2
    if ns.fail_on and report.verdict.rank >= g.Verdict.parse(ns.fail_on).rank:
        return 1
    return 0


def _assess(files: Sequence[str], options: LintOptions, ns: argparse.Namespace) -> list[Unit]:
    progress = Progress(len(files))
    try:
        return assess_paths(files, options, progress, jobs=ns.jobs, cache=open_cache(ns.no_cache))
    finally:
        progress.close()


def _accept_unreported(units: Sequence[Unit], unreported: set[int], suppressions: Suppressions) -> None:
    """The findings flake8's output did not show, and that no ``# noqa``,
    ignore setting or baseline here explains (flake8 ran with other options):
    accepted like those, and still weighed, so that the verdict is the one
    a direct run gives."""
    from .suppress import Suppressed

    explained = {id(s.finding) for s in suppressions.accepted}
    for unit in units:
        for finding in unit.result.findings:
            if id(finding) in unreported and id(finding) not in explained:
                suppressions.accepted.append(Suppressed(unit.path, finding, "flake8 output"))


def _flake8_settings() -> Flake8Settings:
    """flake8's configuration for the working folder (none found: empty)."""
    path = find_flake8_config(Path.cwd())
    if path is None:
        return Flake8Settings()
    try:
        settings = read_flake8_settings(path)
    except Flake8ConfigError as exc:
        raise UsageError(str(exc)) from None
    from dataclasses import replace

    return replace(settings, origin=display_path(str(path), None, Path.cwd().resolve()))


def _suppress(units: list[Unit], settings: Flake8Settings, suppressions: Suppressions) -> None:
    """Read ``# noqa`` and flake8's ignores as flake8 does. What they name is
    accepted and still weighed; a ``# noqa: CODE reason`` declares the
    finding wrong, which takes it out of the verdict."""
    for unit in units:
        lines = unit.source_lines
        kept, hidden = split_findings(unit.path, unit.result.findings, lines, settings.ignored_for(unit.path))
        declared = [h for h in hidden if h.reason]
        accepted = [h for h in hidden if not h.reason]
        unit.result.findings = sorted(kept + [h.finding for h in accepted], key=lambda f: f.sort_key())
        suppressions.accepted.extend(accepted)
        suppressions.declared.extend(declared)


def accepted_sites(units: Sequence[Unit], suppressions: Suppressions) -> frozenset[tuple[str, int, int, str]]:
    """The sites of the findings flake8's output would hide (accepted by a
    ``# noqa``, its ignore settings or a baseline), keyed as the report's
    items are (:func:`.report_items.site_key`)."""
    from .report import codepoint_column

    hidden = {id(s.finding) for s in suppressions.accepted}
    return frozenset((unit.path, f.line, codepoint_column(unit.raw_line(f.line), f.col), f.code)
                     for unit in units for f in unit.result.findings if id(f) in hidden)


def _declare_false_alarms(units: list[Unit], alarms: list[FalseAlarm], config: Config,
                          suppressions: Suppressions) -> list[str]:
    """Take the configured false alarms out of the verdict; a note for each
    entry that names no finding (the code moved, or the entry is wrong)."""
    from .suppress import Suppressed

    folder = config.folder or Path.cwd()
    by_file: dict[tuple[Path, str], list[FalseAlarm]] = {}
    for alarm in alarms:
        by_file.setdefault(((folder / alarm.path).resolve(), alarm.code), []).append(alarm)
    used: set[int] = set()
    for unit in units:
        real = Path(unit.path).resolve()
        kept = []
        for finding in unit.result.findings:
            candidates = by_file.get((real, finding.code), [])
            alarm = next((a for a in candidates if a.names(finding.line, unit.function_at(finding.line))), None)
            if alarm is None:
                kept.append(finding)
                continue
            used.add(id(alarm))
            suppressions.accepted = [s for s in suppressions.accepted if s.finding is not finding]
            suppressions.declared.append(Suppressed(unit.path, finding, "false-alarm list", alarm.reason))
        unit.result.findings = kept
    return [f"{config.origin}: false-alarms entry '{a.where}: {a.code}' names no finding (did the code move?)"
            for a in alarms if id(a) not in used]


def _apply_baseline(units: list[Unit], path: str, suppressions: Suppressions, real_paths: dict[int, str]) -> None:
    """Count the findings the baseline accepted (still weighed). Files are
    named relative to the baseline's folder, as ``baseline write`` named them."""
    from ..baseline import BaselineError, folder_of, key_path, keyed, load
    from .suppress import Suppressed

    try:
        accepted = load(path)
    except BaselineError as exc:
        raise UsageError(str(exc)) from None
    folder = folder_of(path)
    for unit in units:
        named = key_path(real_paths.get(id(unit), unit.path), folder)
        for finding, key in keyed(named, unit.result.findings, unit.function_at, unit.raw_line):
            if key in accepted and finding.code != "CPN000":
                suppressions.accepted.append(Suppressed(unit.path, finding, "baseline"))
        # a baseline accepts findings for lint; the verdict still weighs them


def _leave_out_baselined(units: Sequence[Unit], suppressions: Suppressions) -> str:
    """``--new-only``: the baseline's findings leave the report and the
    verdict; the note says how many."""
    listed = {id(s.finding) for s in suppressions.accepted if s.by == "baseline"}
    for unit in units:
        unit.result.findings = [f for f in unit.result.findings if id(f) not in listed]
    suppressions.accepted = [s for s in suppressions.accepted if id(s.finding) not in listed]
    return (f"--new-only: the {len(listed)} finding{'s' if len(listed) != 1 else ''} the baseline lists "
            f"{'are' if len(listed) != 1 else 'is'} left out of this report and of its verdict, which rests on "
            "the new findings alone.")


def _displayed(units: list[Unit], scope: Scope, found: Sequence[tuple[str, str | None]]) -> tuple[list[Unit], Scope]:
    """Paths as the report shows them: relative to the working folder when
    under it, else below the name of the folder given."""
    roots = dict(found)
    cwd = Path.cwd().resolve()
    single_root = len({root for root in roots.values()}) == 1 and None not in roots.values()
    shown: dict[str, str] = {}
    for unit in units:
        shown[unit.path] = display_path(unit.path, roots.get(unit.path), cwd, keep_root_name=not single_root)
    for unit in units:
        unit.path = shown[unit.path]
    scope.roles = {shown.get(path, path): role for path, role in scope.roles.items()}
    scope.excluded = {display_path(path, roots.get(path), cwd): glob for path, glob in scope.excluded.items()}
    return units, scope


def display_path(path: str, root: str | None, cwd: Path, keep_root_name: bool = True) -> str:
    """``path`` relative to ``cwd`` when under it; else below the folder it was
    found in (prefixed with that folder's name when several were given)."""
    absolute = Path(path).resolve()
    try:
        return absolute.relative_to(cwd).as_posix()
    except ValueError:
        pass
    if root is not None:
        base = Path(root).resolve()
        try:
            below = absolute.relative_to(base)
            return (Path(base.name) / below if keep_root_name else below).as_posix()
        except ValueError:
            pass
    return Path(path).as_posix()


def _no_verdict_reason(units: Sequence[Unit]) -> str | None:
    """Why no verdict can be given, or None when there is evidence."""
    readable = [u for u in units if u.result.error is None]
    if not readable:
        if not units:
            return "no Python file or notebook was found under the paths given"
        return "no Python file could be read"
    if not any(u.uses_numpy or u.result.findings for u in readable):
        return "none of the files read uses NumPy, so there is nothing to assess"
    return None


def _emit_no_verdict(reason: str, units: Sequence[Unit], input_errors: Sequence[str], ns: argparse.Namespace) -> int:
    """No verdict word at all: a short document on stdout (or --output), one
    line on stderr; exit 2 when nothing could be read, else 0."""
    errors = list(input_errors) + [e for u in units for e in u.errors]
    readable = any(u.result.error is None for u in units)
    fmt = ns.format or "markdown"
    if fmt == "json":
        import json

        from .json_format import no_verdict_dict

        text = json.dumps(no_verdict_dict(reason, [u.path for u in units], errors), indent=2) + "\n"
    elif fmt == "sarif":
        import json

        from .sarif import no_verdict_sarif

        text = json.dumps(no_verdict_sarif(reason, errors, __version__, readable and not errors), indent=2) + "\n"
    elif fmt == "html":
        from html import escape

        items = "".join(f"<li>{escape(e)}</li>" for e in errors)
        text = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>cuPyNumeric migration "
                f"readiness: NO VERDICT</title></head><body><h1>NO VERDICT</h1><p>No verdict: {escape(reason)}.</p>"
                + (f"<ul>{items}</ul>" if items else "") + "</body></html>\n")
    else:
        lines = ["# cuPyNumeric migration readiness: NO VERDICT", "", f"No verdict: {reason}."]
        if errors:
            lines += ["", f"**Inputs not assessed ({len(errors)}):**", ""] + [f"- {e}" for e in errors]
        text = "\n".join(lines) + "\n"
    if ns.output and not readable:
        # nothing was read: an earlier report at --output stays as it was
        for error in errors:
            print(f"cpn-verdict: {error}", file=sys.stderr)
        print(f"cpn-verdict: NO VERDICT: {reason}; {ns.output} was not written", file=sys.stderr)
        return 2
    _emit(text, ns.output)
    print(f"cpn-verdict: NO VERDICT: {reason}", file=sys.stderr)
    return 0 if readable and not errors else 2


def sarif_options(ns: argparse.Namespace):  # type: ignore[no-untyped-def]
    from .sarif import SarifOptions, parse_level

    levels = []
    for text in getattr(ns, "sarif_level", None) or []:
        try:
            levels.append(parse_level(text))
        except ValueError as exc:
            raise UsageError(f"--sarif-level {text}: {exc}") from None
    return SarifOptions(scales=bool(getattr(ns, "sarif_scales", False)), levels=tuple(levels),
                        docs_url=getattr(ns, "rule_docs_url", None) or None)


BRIEF_SUFFIXES = {"markdown": ".md", "json": ".json", "sarif": ".sarif", "html": ".html"}


def brief_report_path(fmt: str = "markdown") -> str:
    """Where ``--brief`` writes the full report when no ``--output`` is given:
    the system's temporary folder, never the user's tree, one file per
    project folder and format."""
    import hashlib
    import tempfile

    cwd = Path.cwd().resolve()
    digest = hashlib.sha256(str(cwd).encode()).hexdigest()[:10]
    folder = Path(tempfile.gettempdir()) / "cpn-verdict"
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / f"{cwd.name or 'root'}-{digest}{BRIEF_SUFFIXES.get(fmt, '.txt')}")


def _emit_brief(report, ns: argparse.Namespace) -> int:  # type: ignore[no-untyped-def]
    """The verdict, the summary and the top findings on stdout; the whole
    report, in the format asked for (Markdown by default), in a file whose
    path the last line names."""
    from .markdown import render_brief

    fmt = ns.format or "markdown"
    target = ns.output or brief_report_path(fmt)
    _emit(render(report, fmt, sarif_options(ns)), target)
    print(render_brief(report, target), end="")
    if report.input_errors:
        return 2
    if ns.fail_on and report.verdict.rank >= g.Verdict.parse(ns.fail_on).rank:
        return 1
    return 0


def render(report, fmt: str, sarif=None) -> str:  # type: ignore[no-untyped-def]
    if fmt == "json":
        from .json_format import render_json

        return render_json(report)
    if fmt == "sarif":
        from .sarif import SarifOptions, render_sarif

        return render_sarif(report, sarif or SarifOptions())
    if fmt == "html":
        from .html_format import render_html

        return render_html(report)
    from .markdown import render_markdown

    return render_markdown(report)


def _check_output(output: str) -> None:
    from ..safe_write import REPORT, WriteRefused, check_target

    try:
        check_target(output, REPORT)
    except WriteRefused as exc:
        raise UsageError(str(exc)) from None


def _emit(text: str, output: str | None) -> None:
    """The report on stdout, or in place of ``output`` in one step (a report
    never replaces anything but an earlier report: :mod:`cpn_lint.safe_write`)."""
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    from ..safe_write import WriteRefused, atomic_write

    _check_output(output)
    try:
        atomic_write(output, text.encode("utf-8"))
    except WriteRefused as exc:
        raise UsageError(str(exc)) from None


def _read_input(name: str, what: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"{what} not found: {name}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{what} {name} cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    except ValueError:  # a NUL byte in the name: no file has it
        raise UsageError(f"{what} not found: {name!r}") from None


def _read_flake8(name: str) -> Flake8Input:
    origin = "stdin" if name == "-" else name
    try:
        return read_flake8_output(_read_input(name, "flake8 output"), origin)
    except Flake8InputError as exc:
        raise UsageError(str(exc)) from None


def _assessment_codes() -> frozenset[str]:
    """The codes flake8 shows only with --cpn-assessment."""
    from ..registry import Default

    return frozenset(c for c, r in load_rules().items() if r.default is Default.ASSESSMENT)


def _flake8_notes(name: str, parsed: Flake8Input, joined: Reread) -> list[str]:
    """What the report should say about resting on flake8's output."""
    origin = "stdin" if name == "-" else name
    notes = [f"Findings read from flake8 output ({origin}, {parsed.format} format) instead of linting."]
    if joined.reread:
        notes.append(f"The {joined.reread} file{'s' if joined.reread != 1 else ''} it names that are here were read "
                     "again for what the verdict needs beyond the findings (functions, sizes, loops, the projected "
                     "time); findings flake8 did not show are still weighed, as in a direct run.")
    if joined.as_given:
        notes.append(f"{joined.as_given} file{'s' if joined.as_given != 1 else ''} could not be read again here: "
                     "their findings are taken as flake8 reported them.")
    if joined.stale:
        notes.append(f"{joined.stale} finding{'s' if joined.stale != 1 else ''} of the flake8 output "
                     f"{'are' if joined.stale != 1 else 'is'} not in the files as they are now (did they change "
                     "after flake8 ran?); kept as flake8 reported them.")
    if not parsed.complete_file_list:
        notes.append("flake8's text format lists only files with findings; clean files are not counted "
                     "(use `flake8 --format=cpn-json` for a complete picture).")
    if not parsed.loop_context and joined.as_given:
        notes.append("Some API findings do not say whether they sit inside a loop (flake8 showed their one-line "
                     "headlines; run it with --cpn-verbose or --format=cpn-json), so they were not used for the "
                     "hot-path demotion.")
    if joined.filled:
        notes.append("The flake8 output has no assessment codes (flake8 ran without --cpn-assessment): what works "
                     "and the cost notes come from reading the files.")
    elif not any(f.code in _assessment_codes() for u in joined.units for f in u.result.findings):
        notes.append("No assessment codes in the input (What works, cost notes): run flake8 with "
                     "--cpn-assessment to include them.")
    if parsed.other_codes:
        listed = ", ".join(f"{c} ×{n}" for c, n in sorted(parsed.other_codes.items()))
        notes.append(f"Findings of other flake8 plugins are not part of the assessment: {listed}.")
    if parsed.unknown_codes:
        listed = ", ".join(f"{c} ×{n}" for c, n in sorted(parsed.unknown_codes.items()))
        notes.append(f"Codes this version of cpn-lint does not know were left out: {listed}.")
    return notes


def _load_doctor(name: str):  # type: ignore[no-untyped-def]
    try:
        from .. import doctor
    except ImportError:
        raise UsageError("--doctor needs cpn_lint.doctor, which this build does not include") from None
    text = _read_input(name, "Doctor report")
    try:
        return doctor.load_doctor_report(text, origin=name)
    except doctor.DoctorReportError as exc:
        raise UsageError(str(exc)) from None
