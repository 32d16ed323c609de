"""``cpn-lint manifest show | lookup | refresh | surface``.

``refresh`` rebuilds a snapshot from one or more inputs and writes it to the
user's cache (``~/.cache/cpn-lint/api-manifest.json``), where every command
finds it, or only to the ``--output`` paths given; it never writes into the
installed package, validates what it read and reports the counts and what
changed against the previous snapshot. ``surface`` lists the public names of
the NumPy an interpreter has. Exit status 0 on success, 2 on usage or input
errors.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
import tempfile
from pathlib import Path
from typing import Any, Sequence, TextIO

from .. import __version__
from . import (Manifest, ManifestError, Status, counts_line, default_path, package_dir, resolve,
               user_manifest_path)
from .sources import MIN_IMPLEMENTED, SourceError, SourceTable, build_manifest, read_source, source_date
from .surface import NumpySurface, all_names, probe_surface, read_surface
from ..safe_write import MANIFEST, SURFACE, OutputKind, WriteRefused, atomic_write, check_target


class UsageError(Exception):
    pass


class _AppendSource(argparse.Action):
    """Keeps every input option in command-line order (it sets precedence)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        kind = self.const if self.const != "from" else str(values)
        sources = list(getattr(namespace, "sources", None) or [])
        sources.append((kind, None if kind == "installed" else str(values)))
        namespace.sources = sources


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cpn-lint manifest", description="Inspect or refresh the cuPyNumeric API manifest.")
    sub = parser.add_subparsers(dest="command", required=True)

    show = sub.add_parser("show", help="print the snapshot's date, age, sources and counts")
    show.add_argument("--manifest", metavar="PATH", help=_MANIFEST_HELP)
    show.add_argument("--today", metavar="YYYY-MM-DD", type=_date, help="reference day for the age (default: today)")
    show.add_argument("--json", action="store_true", help="print the summary as JSON")

    lookup = sub.add_parser("lookup", help="print the status of NumPy APIs (numpy.interp, cupynumeric.linalg.svd)")
    lookup.add_argument("names", nargs="+", metavar="NAME")
    lookup.add_argument("--manifest", metavar="PATH", help=_MANIFEST_HELP)

    refresh = sub.add_parser(
        "refresh", help="rebuild the snapshot from an installed cuPyNumeric or saved tables",
        description="Rebuild the API manifest. Inputs are merged in the order given; they must agree on every "
                    "API they share.",
    )
    refresh.add_argument("--from", dest="sources", action=_AppendSource, const="from", choices=["installed"],
                         help="introspect the cuPyNumeric installed for --python")
    refresh.add_argument("--from-installed", dest="sources", action=_AppendSource, const="installed", nargs=0,
                         help=argparse.SUPPRESS)
    refresh.add_argument("--from-html", dest="sources", action=_AppendSource, const="html", metavar="FILE",
                         help="a saved copy of the upstream comparison page")
    refresh.add_argument("--from-markdown", dest="sources", action=_AppendSource, const="markdown", metavar="FILE",
                         help="a markdown manifest (api-support.md format)")
    refresh.add_argument("--from-json", dest="sources", action=_AppendSource, const="json", metavar="FILE",
                         help="an introspected table (rows of section/numpy/implemented/single/multi)")
    refresh.add_argument("--surface", action="append", default=[], metavar="FILE",
                         help="a NumPy surface (from 'cpn-lint manifest surface'): give every public name of that "
                              "NumPy release a row (repeatable, oldest release first)")
    refresh.add_argument("--output", "-o", "--manifest", dest="output", action="append", metavar="PATH",
                         help=f"where to write the manifest (repeatable; '-' for stdout; default: {_CACHE_TEXT}, "
                              "replaced if present)")
    refresh.add_argument("--force", action="store_true", help="replace existing --output files")
    refresh.add_argument("--into-package", action="store_true", help=argparse.SUPPRESS)  # maintainers: the shipped copy
    refresh.add_argument("--python", default=sys.executable, metavar="PATH",
                         help="interpreter whose cuPyNumeric --from installed reads (default: this one)")
    refresh.add_argument("--timeout", type=float, default=600.0, metavar="SECONDS",
                         help="limit for the introspection subprocess (default: 600)")
    refresh.add_argument("--snapshot-date", type=_date, metavar="YYYY-MM-DD",
                         help="the day the inputs were taken (default: what the inputs say; today for --from installed)")
    refresh.add_argument("--release-date", type=_date, metavar="YYYY-MM-DD",
                         help="the day the cuPyNumeric release the inputs describe came out (default: kept from the "
                              "previous manifest when it describes the same release)")
    refresh.add_argument("--confirmed-newest", type=_date, metavar="YYYY-MM-DD",
                         help="the day you checked that no newer cuPyNumeric release exists (staleness runs from it)")
    refresh.add_argument("--notes-from", metavar="PATH",
                         help="previous manifest whose partial-support notes are kept (default: the shipped one)")
    refresh.add_argument("--no-previous", action="store_true",
                         help="do not compare with or take notes from a previous manifest")
    refresh.add_argument("--min-implemented", type=int, default=MIN_IMPLEMENTED, metavar="N",
                         help=f"refuse a table with fewer implemented APIs (default: {MIN_IMPLEMENTED})")

    surface = sub.add_parser("surface", help="list the public names of the NumPy an interpreter has (for --surface)")
    surface.add_argument("--python", default=sys.executable, metavar="PATH",
                         help="interpreter whose NumPy is read (default: this one)")
    surface.add_argument("--output", "-o", required=True, metavar="PATH", help="where to write the list ('-': stdout)")
    surface.add_argument("--force", action="store_true", help="replace an existing output file")
    return parser


_CACHE_TEXT = "the user's cache, ~/.cache/cpn-lint/api-manifest.json"
_MANIFEST_HELP = f"a manifest file (default: the refreshed one in {_CACHE_TEXT.split(', ')[1]} if any, else the one " \
                 "shipped with cpn-lint)"


def _date(text: str) -> _dt.date:
    try:
        return _dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        if args.command == "show":
            return show(args, sys.stdout)
        if args.command == "lookup":
            return lookup(args, sys.stdout)
        if args.command == "surface":
            return surface(args)
        return refresh(args)
    except (UsageError, SourceError, ManifestError) as exc:
        print(f"cpn-lint manifest: error: {exc}", file=sys.stderr)
        return 2


def _manifest(path: str | None) -> tuple[Manifest, str]:
    return resolve(path), path or str(default_path())


# ---------------------------------------------------------------------- show
def show(args: argparse.Namespace, out: TextIO) -> int:
    manifest, where = _manifest(args.manifest)
    state = manifest.staleness(args.today)
    if args.json:
        summary = {
            "path": where,
            "snapshot_date": manifest.snapshot_date.isoformat(),
            "release_date": manifest.release_date.isoformat() if manifest.release_date else None,
            "confirmed_newest": manifest.confirmed_newest.isoformat() if manifest.confirmed_newest else None,
            "current_as_of": state.date,
            "age_days": state.age_days,
            "stale": state.stale,
            "stale_after_days": state.max_age_days,
            "cupynumeric_version": manifest.cupynumeric_version,
            "numpy_version": manifest.numpy_version,
            "generated": manifest.generated,
            "counts": {"apis": len(manifest), "implemented": manifest.implemented_count(), **manifest.counts()},
            "sources": [s.to_json() for s in manifest.sources],
        }
        out.write(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
        return 0
    verdict = "STALE" if state.stale else "current"
    if state.stale:  # first: it qualifies every line below
        out.write(f"warning: {state.message}\n")
    out.write(f"manifest: {where}\n")
    dated = [f"sources taken {manifest.snapshot_date.isoformat()}"]
    if manifest.release_date:
        dated.append(f"release of {manifest.release_date.isoformat()}")
    if manifest.confirmed_newest:
        dated.append(f"confirmed the newest release on {manifest.confirmed_newest.isoformat()}")
    out.write(f"snapshot: current as of {state.date} ({state.age_days} days ago; {verdict}, stale after "
              f"{state.max_age_days} days; {', '.join(dated)})\n")
    out.write(f"cuPyNumeric {manifest.cupynumeric_version or '?'}, NumPy {manifest.numpy_version or '?'}"
              f"{'; generated ' + manifest.generated if manifest.generated else ''}\n")
    for source in manifest.sources:
        when = f", taken {source.retrieved}" if source.retrieved else ""
        out.write(f"source: {source.kind} {source.name} ({source.rows} rows, {source.apis} APIs{when})\n")
    if manifest.numpy_releases:
        out.write(f"NumPy names covered: those of NumPy {', '.join(manifest.numpy_releases)}\n")
    out.write(counts_line(manifest) + "\n")
    return 0


def lookup(args: argparse.Namespace, out: TextIO) -> int:
    manifest, _ = _manifest(args.manifest)
    for name in args.names:
        entry = manifest.lookup(name)
        if entry is None:
            out.write(f"{name}: not a NumPy name the manifest covers (never reported)\n")
            continue
        out.write(f"{entry.api}: {entry.status.value} ({entry.section}){_details(entry)}\n")
    return 0


def _details(entry) -> str:  # type: ignore[no-untyped-def]
    parts = []
    if entry.lacks is True:
        parts.append("cuPyNumeric has no such name (AttributeError)")
    elif entry.lacks is False:
        parts.append("cuPyNumeric has the name but does not support it")
    if entry.releases:
        parts.append(f"only in NumPy {', '.join(entry.releases)}")
    if entry.replacement:
        parts.append(f"use {entry.replacement}")
    if entry.note:
        parts.append(entry.note)
    return "".join(f" — {part}" for part in parts)


# ------------------------------------------------------------------- refresh
UPSTREAM_PAGE = "https://docs.nvidia.com/cupynumeric/latest/api/comparison.html"


def refresh(args: argparse.Namespace) -> int:
    sources: list[tuple[str, str | None]] = list(args.sources or [])
    to_cache = not args.output
    outputs = _check_outputs(args.output or [str(user_manifest_path())], args.force or to_cache, args.into_package)
    report = sys.stderr if "-" in (args.output or ()) else sys.stdout
    previous = _previous(args)
    surfaces = [read_surface(Path(path)) for path in args.surface]
    fetched_today = False
    with tempfile.TemporaryDirectory(prefix="cpn-manifest-page-") as workdir:
        if not sources:
            sources = [_default_source(args, Path(workdir), report)]
            fetched_today = True
        tables = [_read(kind, value, args, surfaces) for kind, value in sources]
    for table in tables:
        report.write(f"read {table.kind} {table.name}: {table.raw_rows} rows, {len(table.rows)} APIs\n")
    snapshot = args.snapshot_date or source_date(tables) or (_dt.date.today() if fetched_today else None)
    if snapshot is None:
        raise UsageError("none of the inputs says when it was taken; give --snapshot-date YYYY-MM-DD")
    release_date = args.release_date
    if release_date is None and previous is not None and previous.cupynumeric_version == _agreed_version(tables):
        release_date = previous.release_date  # the same release: the day it came out has not changed
    result = build_manifest(tables, snapshot, notes_from=previous, generator=f"cpn-lint {__version__} manifest refresh",
                            min_implemented=args.min_implemented, surfaces=surfaces, release_date=release_date,
                            confirmed_newest=args.confirmed_newest)
    manifest = result.manifest
    for warning in result.warnings:
        report.write(f"warning: {warning}\n")
    if result.carried_notes:
        report.write(f"kept {result.carried_notes} partial-support note(s) from the previous snapshot\n")
    report.write(f"snapshot {manifest.snapshot_date.isoformat()}, cuPyNumeric {manifest.cupynumeric_version or '?'}, "
                 f"NumPy {manifest.numpy_version or '?'}: {counts_line(manifest)}\n")
    if previous is not None:
        for line in describe_changes(previous, manifest):
            report.write(line + "\n")
    text = manifest.to_json()
    for path in outputs:
        if path is None:
            sys.stdout.write(text)
        else:
            if path == user_manifest_path():
                path.parent.mkdir(parents=True, exist_ok=True)
            _write_atomically(path, text)
            report.write(f"wrote {path}\n")
    if to_cache:
        report.write("every cpn-lint command now reads this manifest unless given another with --manifest\n")
    return 0


def _agreed_version(tables: list[SourceTable]) -> str | None:
    versions = {t.cupynumeric_version for t in tables if t.cupynumeric_version}
    return versions.pop() if len(versions) == 1 else None


def _default_source(args: argparse.Namespace, workdir: Path, report: TextIO) -> tuple[str, str | None]:
    """What a bare ``manifest refresh`` reads: the cuPyNumeric installed for
    ``--python``, else the upstream comparison page, else a usage error that
    says exactly what to pass."""
    if _has_cupynumeric(args.python):
        report.write(f"no input named: reading the cuPyNumeric installed for {args.python}\n")
        return ("installed", None)
    page = workdir / "comparison.html"
    try:
        _download(UPSTREAM_PAGE, page)
    except OSError as exc:
        reason = getattr(exc, "reason", None) or exc.strerror or type(exc).__name__
        raise UsageError(
            f"no input named, no cuPyNumeric installed for {args.python}, and {UPSTREAM_PAGE} could not be fetched "
            f"({reason}); pass one: --from installed --python PATH (a Python with nvidia-cupynumeric), or save that "
            "page and pass --from-html FILE") from None
    report.write(f"no input named and no cuPyNumeric installed: read {UPSTREAM_PAGE}\n")
    return ("html", str(page))


def _has_cupynumeric(python: str) -> bool:
    import subprocess

    probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec('cupynumeric') is None)"
    try:
        return subprocess.run([python, "-c", probe], stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _download(url: str, target: Path, timeout: float = 20.0) -> None:
    import urllib.request

    with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - a fixed https address
        target.write_bytes(response.read(20 * 1024 * 1024))


def _check_outputs(outputs: list[str], force: bool, into_package: bool = False,
                   kind: OutputKind = MANIFEST) -> list[Path | None]:
    checked: list[Path | None] = []
    for value in outputs:
        if value == "-":
            checked.append(None)
            continue
        path = Path(value)
        if not into_package and _inside(path, package_dir()):
            raise UsageError(f"{value} is inside the installed cpn-lint package; refresh writes to the user's cache "
                             "(the default) or to a path you name with --manifest")
        if path == user_manifest_path() and not path.parent.exists():
            checked.append(path)  # the cache folder is made when the manifest is written
            continue
        try:
            target = check_target(path, kind)  # never a source, a folder or a file of another kind
        except WriteRefused as exc:
            raise UsageError(str(exc)) from None
        if target.exists() and not force:
            raise UsageError(f"{value} exists; add --force to replace it")
        checked.append(path)
    return checked


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def _previous(args: argparse.Namespace) -> Manifest | None:
    if args.no_previous:
        return None
    if args.notes_from:
        return resolve(args.notes_from)
    try:
        return resolve(None)
    except (OSError, ManifestError):
        return None  # a broken install must not stop its own repair


def _read(kind: str, value: str | None, args: argparse.Namespace, surfaces: list[NumpySurface]) -> SourceTable:
    if kind == "installed":
        from .introspect import introspect_installed

        return introspect_installed(args.python, args.timeout, all_names(surfaces))
    assert value is not None
    return read_source(kind, Path(value))


# ------------------------------------------------------------------- surface
def surface(args: argparse.Namespace) -> int:
    found = probe_surface(args.python)
    text = found.to_json()
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    (path,) = _check_outputs([args.output], args.force, kind=SURFACE)
    assert path is not None
    _write_atomically(path, text)
    print(f"NumPy {found.numpy_version}: {len(found.names)} public names written to {path}")
    return 0


def describe_changes(before: Manifest, after: Manifest, limit: int = 12) -> list[str]:
    """What a refresh changes, for the reviewer of the new snapshot."""
    old, new = set(before.entries), set(after.entries)
    changed = sorted(a for a in old & new if before.entries[a].status is not after.entries[a].status)
    added, removed = sorted(new - old), sorted(old - new)
    lines = [f"against the previous snapshot ({before.snapshot_date.isoformat()}): {len(changed)} status change(s), "
             f"{len(added)} API(s) added, {len(removed)} removed"]
    for api in changed[:limit]:
        lines.append(f"  {api}: {before.entries[api].status.value} -> {after.entries[api].status.value}")
    for api in added[: max(0, limit - len(changed))]:
        lines.append(f"  + {api}: {after.entries[api].status.value}")
    for api in removed[: max(0, limit - len(changed) - len(added))]:
        lines.append(f"  - {api}")
    shown = min(limit, len(changed) + len(added) + len(removed))
    if len(changed) + len(added) + len(removed) > shown:
        lines.append(f"  ... and {len(changed) + len(added) + len(removed) - shown} more")
    return lines


def _write_atomically(path: Path, text: str) -> None:
    try:
        atomic_write(path, text.encode("utf-8"))
    except WriteRefused as exc:
        raise UsageError(str(exc)) from None


__all__ = ["Status", "build_parser", "describe_changes", "main"]
