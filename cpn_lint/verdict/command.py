"""The ``cpn-verdict`` command line (also ``python -m cpn_lint verdict``).

Exit status: 0 whatever the verdict, unless ``--fail-on`` names a verdict the
result reaches or passes (then 1); 2 for a usage error or input that could not
be read — in which case the report of everything else is still printed.
"""

from __future__ import annotations

import argparse
import configparser
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from .. import __version__
from ..engine import LintOptions
from ..registry import Category, load_rules
from . import gates as g
from .collect import Progress, assess_paths, discover
from .context import FROM_CLI, PATTERNS, Context
from .from_flake8 import Flake8InputError, read_flake8_output
from .report import ManifestNote, build_report

FORMATS = ("markdown", "json", "sarif")
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
}


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
            "(keys: elements, gpus, nodes, gpu, compute-capability, pattern, format, fail-on, manifest); the command "
            "line wins. Exit status: 0, or 1 when --fail-on is reached, or 2 for usage or input errors."
        ),
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files, folders or notebooks to assess (default: .)")
    parser.add_argument("--from-flake8", metavar="FILE", help="assess this flake8 output instead of linting "
                        "('-' reads stdin); flake8's default text format or --format=cpn-json")
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
    parser.add_argument("--doctor", metavar="FILE", help="merge a cuPyNumeric Doctor JSON report into the assessment")
    parser.add_argument("--manifest", metavar="PATH", help="the cuPyNumeric API manifest to check calls against "
                        "(default: the one 'cpn-lint manifest refresh' wrote to the user's cache, else the shipped one)")
    cfg = parser.add_argument_group("configuration")
    cfg.add_argument("--config", metavar="FILE", help="read settings from this pyproject.toml or setup.cfg only")
    cfg.add_argument("--isolated", action="store_true", help="ignore configuration files")
    parser.add_argument("--version", action="version", version=f"cpn-verdict (cpn-lint {__version__})")
    return parser


# --------------------------------------------------------------------- config
@dataclass(frozen=True)
class Config:
    values: dict[str, Any]
    origin: str  # "pyproject.toml [tool.cpn-lint]", ...


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
        return Config(values, origin)
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
        return str(value)
    except argparse.ArgumentTypeError as exc:
        raise UsageError(f"{origin}: {dest.replace('_', '-')}: {exc}") from None


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
    for key in ("format", "fail_on", "manifest"):
        if key in merged:
            setattr(ns, key, merged[key][0])
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
    if ns.from_flake8 and ns.paths:
        raise UsageError("give paths to lint or --from-flake8, not both")
    doctor_findings = _load_doctor(ns.doctor) if ns.doctor else None
    select_manifest(ns.manifest)

    input_errors: list[str] = []
    notes: list[str] = []
    if ns.from_flake8:
        units, flake8_errors, notes = _from_flake8(ns.from_flake8)
        input_errors += flake8_errors
    else:
        files, input_errors = discover(ns.paths or ["."])
        progress = Progress(len(files))
        try:
            units = assess_paths(files, LintOptions(assessment=True, manifest_path=ns.manifest), progress)
        finally:
            progress.close()
        if not files and not input_errors:
            notes.append("No Python files or notebooks were found under the paths given.")
    evidence = g.SizeEvidence.merge([u.sizes for u in units])
    report = build_report(units, context, input_errors=input_errors, input_notes=notes, size_evidence=evidence,
                          doctor_findings=doctor_findings, manifest=manifest_note())
    text = render(report, ns.format or "markdown")
    _emit(text, ns.output)
    if report.input_errors:
        return 2
    if ns.fail_on and report.verdict.rank >= g.Verdict.parse(ns.fail_on).rank:
        return 1
    return 0


def render(report, fmt: str) -> str:  # type: ignore[no-untyped-def]
    if fmt == "json":
        from .json_format import render_json

        return render_json(report)
    if fmt == "sarif":
        from .sarif import render_sarif

        return render_sarif(report)
    from .markdown import render_markdown

    return render_markdown(report)


def _emit(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {output}: {exc.strerror or exc}") from None


def _read_input(name: str, what: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"{what} not found: {name}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{what} {name} cannot be read ({getattr(exc, 'strerror', None) or exc})") from None


def _from_flake8(name: str):  # type: ignore[no-untyped-def]
    origin = "stdin" if name == "-" else name
    try:
        parsed = read_flake8_output(_read_input(name, "flake8 output"), origin)
    except Flake8InputError as exc:
        raise UsageError(str(exc)) from None
    notes: list[str] = [f"Findings read from flake8 output ({origin}, {parsed.format} format) instead of linting."]
    if not parsed.complete_file_list:
        notes.append("flake8's text format lists only files with findings; clean files are not counted "
                     "(use `flake8 --format=cpn-json` for a complete picture).")
    if not parsed.loop_context:
        notes.append("Some API findings do not say whether they sit inside a loop (their messages come from "
                     "another cpn-lint version); those were not used for the hot-path demotion.")
    rules = load_rules()
    assessment = {c for c, r in rules.items() if r.category in (Category.SCALES, Category.INFO)}
    if not any(f.code in assessment for u in parsed.units for f in u.result.findings):
        notes.append("No assessment codes in the input (What works, cost notes): run flake8 with "
                     "--cpn-assessment to include them.")
    if parsed.other_codes:
        listed = ", ".join(f"{c} ×{n}" for c, n in sorted(parsed.other_codes.items()))
        notes.append(f"Findings of other flake8 plugins are not part of the assessment: {listed}.")
    if parsed.unknown_codes:
        listed = ", ".join(f"{c} ×{n}" for c, n in sorted(parsed.unknown_codes.items()))
        notes.append(f"Codes this version of cpn-lint does not know were left out: {listed}.")
    return parsed.units, parsed.errors, notes


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
