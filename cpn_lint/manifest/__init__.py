"""The API manifest: which NumPy APIs cuPyNumeric implements, and how well.

A manifest is a dated snapshot of cuPyNumeric's NumPy comparison table, one
entry per ``numpy.*`` API with a support status (see :class:`Status`). The
package ships one (``cpn_lint/data/api-manifest.json``, a byte-identical copy
of ``manifest/api-manifest.json`` in the repository); ``cpn-lint manifest
refresh`` rebuilds it from an installed cuPyNumeric, a saved copy of the
upstream comparison page, the markdown manifest or an introspected JSON table
(:mod:`cpn_lint.manifest.sources`). ``manifest/README.md`` documents the format.

>>> m = bundled()
>>> m.lookup("cupynumeric.linalg.svd").status.value
'single-gpu'
>>> m.lookup("numpy.mgrid") is None
True
"""

from __future__ import annotations

import datetime as _dt
import enum
import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterator, Mapping

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "STALE_AFTER_DAYS",
    "ApiSupport",
    "Manifest",
    "ManifestError",
    "SourceError",
    "SourceInfo",
    "Staleness",
    "Status",
    "bundled",
    "bundled_path",
    "active",
    "canonical_name",
    "counts_line",
    "default_path",
    "is_api_name",
    "load",
    "package_dir",
    "resolve",
    "select",
    "staleness",
    "user_cache_dir",
    "user_manifest_path",
]

FORMAT = "cpn-lint/api-manifest"
FORMAT_VERSION = 2
# Version 1 lacks the per-row fields lacks/kind/releases/replacement; it is still read.
READABLE_VERSIONS = (1, 2)
# A snapshot older than this is reported as stale (manifest/README.md).
STALE_AFTER_DAYS = 90
BUNDLED_NAME = "api-manifest.json"

_NAME = re.compile(r"^numpy(\.[A-Za-z_][A-Za-z0-9_]*)+$")


class ManifestError(ValueError):
    """A manifest file that cannot be read or is inconsistent."""


class SourceError(ValueError):
    """An input that cannot be read as a support table (:mod:`.sources`,
    :mod:`.surface`)."""


class Status(str, enum.Enum):
    """Support of one API in cuPyNumeric, from the best to the worst."""

    MULTI_GPU = "multi-gpu"  # implemented, distributed over several GPUs/CPUs (✓✓)
    SINGLE_GPU = "single-gpu"  # implemented, runs on one GPU/CPU only (✓)
    PARTIAL = "partial"  # implemented, multi-GPU support partial (🟡, with a note)
    UNDOCUMENTED = "undocumented"  # implemented, but the library states no GPU availability
    NOT_IMPLEMENTED = "not-implemented"  # absent from cuPyNumeric (✗)

    @property
    def implemented(self) -> bool:
        return self is not Status.NOT_IMPLEMENTED


@dataclass(frozen=True)
class ApiSupport:
    """One row of the manifest."""

    api: str  # canonical NumPy name: "numpy.linalg.svd", "numpy.ndarray.std"
    status: Status
    section: str = ""  # the comparison table's section ("Linear Algebra")
    note: str | None = None  # the manifest's note (partial support, availability text)
    # For a name cuPyNumeric does not implement: True when it has no attribute of
    # that name at all (the access raises AttributeError), False when it has one
    # that is not supported, None when no source said.
    lacks: bool | None = None
    kind: str | None = None  # from a NumPy surface: function, ufunc, class, object, method, attribute
    releases: tuple[str, ...] = ()  # the NumPy releases examined that have the name, when not all of them
    replacement: str | None = None  # what to call instead of a name NumPy 2 removed (when cuPyNumeric has it)

    @property
    def removed_in_numpy2(self) -> bool:
        """Listed only by NumPy 1.x releases among those examined."""
        return bool(self.releases) and all(r.startswith("1.") for r in self.releases)

    def to_json(self) -> dict[str, Any]:
        row: dict[str, Any] = {"api": self.api, "status": self.status.value, "section": self.section}
        optional = {"note": self.note, "lacks": self.lacks, "kind": self.kind,
                    "releases": list(self.releases) or None, "replacement": self.replacement}
        row.update({key: value for key, value in optional.items() if value is not None})
        return row

    @classmethod
    def from_json(cls, row: Mapping[str, Any], status: Status) -> "ApiSupport":
        lacks = row.get("lacks")
        releases = row.get("releases") or ()
        return cls(str(row["api"]), status, str(row.get("section") or ""), row.get("note") or None,
                   lacks if isinstance(lacks, bool) else None, row.get("kind") or None,
                   tuple(str(r) for r in releases), row.get("replacement") or None)


@dataclass(frozen=True)
class SourceInfo:
    """Where a snapshot's rows came from (provenance, never read by the rules)."""

    kind: str  # "markdown", "html", "introspected-json", "installed"
    name: str  # a file name or an interpreter path
    rows: int  # rows read (before removing duplicates)
    apis: int  # distinct APIs read
    retrieved: str | None = None  # when the source itself says it was taken
    url: str | None = None
    sha256: str | None = None
    detail: str | None = None  # e.g. how the installed package was read

    def to_json(self) -> dict[str, Any]:
        data = {
            "kind": self.kind, "name": self.name, "rows": self.rows, "apis": self.apis,
            "retrieved": self.retrieved, "url": self.url, "sha256": self.sha256, "detail": self.detail,
        }
        return {k: v for k, v in data.items() if v is not None}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "SourceInfo":
        try:
            return cls(
                kind=str(data["kind"]), name=str(data["name"]), rows=int(data["rows"]), apis=int(data["apis"]),
                retrieved=data.get("retrieved"), url=data.get("url"), sha256=data.get("sha256"),
                detail=data.get("detail"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ManifestError(f"bad source record {dict(data)!r}: {exc}") from None


def canonical_name(name: str) -> str:
    """The manifest key for an API name as it appears in code or in a table.

    ``cupynumeric.linalg.svd`` -> ``numpy.linalg.svd`` (cuPyNumeric mirrors
    NumPy's names), ``numpy.ndarray.std()`` -> ``numpy.ndarray.std``, and the
    markdown escape ``numpy.ix\\_`` -> ``numpy.ix_``.
    """
    text = name.strip().replace("\\_", "_")
    if text.endswith("()"):
        text = text[:-2]
    if text.startswith("cupynumeric."):
        text = "numpy." + text[len("cupynumeric."):]
    return text


def is_api_name(name: str) -> bool:
    """True for a canonical ``numpy.<ident>[.<ident>...]`` name."""
    return bool(_NAME.match(name))


@dataclass(frozen=True)
class Staleness:
    """How old a snapshot is on a given day (read by the verdict command).

    The age runs from the last day the snapshot was known to describe the
    newest cuPyNumeric release: the day it was confirmed so, else the day that
    release came out, else the day the snapshot was taken. A snapshot of the
    newest release is current however long ago its sources were scraped."""

    date: str  # the day the age runs from, ISO
    age_days: int
    stale: bool
    max_age_days: int = STALE_AFTER_DAYS
    version: str | None = None  # the cuPyNumeric release it describes

    @property
    def message(self) -> str:
        release = f"cuPyNumeric {self.version}" if self.version else "its cuPyNumeric release"
        if not self.stale:
            return (f"the API manifest describes {release}, the newest release as of {self.date} "
                    f"(under {self.max_age_days} days ago)")
        # No day count: the text must not change from one day to the next.
        return (f"the API manifest describes {release}, last known to be the newest release on {self.date}, more "
                f"than {self.max_age_days} days ago; a newer release may support more — refresh it with "
                "`cpn-lint manifest refresh` before relying on the API gaps it lists")


@dataclass(frozen=True)
class Manifest:
    """A dated snapshot of cuPyNumeric's NumPy API support."""

    snapshot_date: _dt.date
    cupynumeric_version: str | None
    numpy_version: str | None
    entries: Mapping[str, ApiSupport]
    sources: tuple[SourceInfo, ...] = ()
    generated: str | None = None  # the day the file was written (ISO)
    generator: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    numpy_releases: tuple[str, ...] = ()  # the NumPy releases whose public names the rows cover
    # the day the cuPyNumeric release it describes came out (its wheel's build date)
    release_date: _dt.date | None = None
    # the last day someone checked that no newer cuPyNumeric release exists
    confirmed_newest: _dt.date | None = None

    # -- queries ----------------------------------------------------------------
    def lookup(self, name: str) -> ApiSupport | None:
        """The entry for ``name`` (NumPy or cuPyNumeric spelling), or None when
        the manifest does not list it (such APIs are passed over silently)."""
        return self.entries.get(canonical_name(name))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.lookup(name) is not None

    def __iter__(self) -> Iterator[ApiSupport]:
        return iter(self.entries[k] for k in sorted(self.entries))

    def __len__(self) -> int:
        return len(self.entries)

    def is_ufunc(self, name: str) -> bool:
        entry = self.lookup(name)
        return entry is not None and entry.kind == "ufunc"

    def with_status(self, status: Status) -> list[ApiSupport]:
        return [e for e in self if e.status is status]

    def counts(self) -> dict[str, int]:
        """Number of APIs per status value (every status present, in order)."""
        counts = {s.value: 0 for s in Status}
        for entry in self.entries.values():
            counts[entry.status.value] += 1
        return counts

    def implemented_count(self) -> int:
        return sum(1 for e in self.entries.values() if e.status.implemented)

    @property
    def current_as_of(self) -> _dt.date:
        """The last day the snapshot was known to describe the newest release."""
        return max(d for d in (self.snapshot_date, self.release_date, self.confirmed_newest) if d is not None)

    def age_days(self, today: _dt.date | None = None) -> int:
        return ((today or _dt.date.today()) - self.current_as_of).days

    def is_stale(self, today: _dt.date | None = None, max_age_days: int = STALE_AFTER_DAYS) -> bool:
        return self.age_days(today) > max_age_days

    def staleness(self, today: _dt.date | None = None, max_age_days: int = STALE_AFTER_DAYS) -> Staleness:
        age = self.age_days(today)
        return Staleness(self.current_as_of.isoformat(), age, age > max_age_days, max_age_days,
                         self.cupynumeric_version)

    # -- serialisation ----------------------------------------------------------
    def to_json(self) -> str:
        """The documented file format (manifest/README.md), deterministic, one
        API per line so that a refresh diffs line by line."""
        head: dict[str, Any] = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "snapshot_date": self.snapshot_date.isoformat(),
            "cupynumeric_version": self.cupynumeric_version,
            "release_date": self.release_date.isoformat() if self.release_date else None,
            "confirmed_newest": self.confirmed_newest.isoformat() if self.confirmed_newest else None,
            "numpy_version": self.numpy_version,
            "numpy_releases": list(self.numpy_releases),
            "generated": self.generated,
            "generator": self.generator,
            "stale_after_days": STALE_AFTER_DAYS,
            "sources": [s.to_json() for s in self.sources],
            "counts": {"apis": len(self.entries), "implemented": self.implemented_count(), **self.counts()},
        }
        text = json.dumps(head, indent=2, ensure_ascii=False)
        rows = ",\n".join("    " + json.dumps(e.to_json(), ensure_ascii=False) for e in self)
        body = '  "apis": [\n' + rows + "\n  ]" if rows else '  "apis": []'
        return text[:-2] + ",\n" + body + "\n}\n"

    @classmethod
    def from_json(cls, text: str, origin: str = "<manifest>") -> "Manifest":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ManifestError(f"{origin}: not JSON ({exc.msg} at line {exc.lineno})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ManifestError(f"{origin}: not a cpn-lint API manifest (format must be {FORMAT!r})")
        version = data.get("format_version")
        if version not in READABLE_VERSIONS:
            raise ManifestError(f"{origin}: format_version {version!r} is not supported "
                                f"(expected one of {', '.join(map(str, READABLE_VERSIONS))})")
        try:
            snapshot = _dt.date.fromisoformat(str(data["snapshot_date"]))
        except (KeyError, ValueError):
            raise ManifestError(f"{origin}: snapshot_date must be an ISO date (YYYY-MM-DD)") from None
        entries = _entries(data.get("apis"), origin)
        release_date = _optional_date(data, "release_date", origin)
        confirmed = _optional_date(data, "confirmed_newest", origin)
        manifest = cls(
            snapshot_date=snapshot,
            cupynumeric_version=data.get("cupynumeric_version"),
            numpy_version=data.get("numpy_version"),
            entries=entries,
            sources=tuple(SourceInfo.from_json(s) for s in data.get("sources") or ()),
            generated=data.get("generated"),
            generator=data.get("generator"),
            numpy_releases=tuple(str(r) for r in data.get("numpy_releases") or ()),
            release_date=release_date,
            confirmed_newest=confirmed,
        )
        _check_counts(manifest, data.get("counts"), origin)
        return manifest


def _optional_date(data: dict[str, Any], key: str, origin: str) -> _dt.date | None:
    value = data.get(key)
    if value is None:
        return None
    try:
        return _dt.date.fromisoformat(str(value))
    except ValueError:
        raise ManifestError(f"{origin}: {key} must be an ISO date (YYYY-MM-DD) or null") from None


def _entries(rows: Any, origin: str) -> dict[str, ApiSupport]:
    if not isinstance(rows, list):
        raise ManifestError(f"{origin}: 'apis' must be a list of rows")
    entries: dict[str, ApiSupport] = {}
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or "api" not in row or "status" not in row:
            raise ManifestError(f"{origin}: row {i} must be an object with 'api' and 'status'")
        name = str(row["api"])
        if not is_api_name(name):
            raise ManifestError(f"{origin}: row {i}: {name!r} is not a numpy.* name")
        try:
            status = Status(row["status"])
        except ValueError:
            allowed = ", ".join(s.value for s in Status)
            raise ManifestError(f"{origin}: row {i} ({name}): unknown status {row['status']!r} (one of {allowed})") from None
        if name in entries:
            raise ManifestError(f"{origin}: {name} is listed twice")
        entries[name] = ApiSupport.from_json(row, status)
    return entries


def _check_counts(manifest: Manifest, counts: Any, origin: str) -> None:
    """The header's counts are for readers; a mismatch means a hand edit."""
    if counts is None:
        return
    actual = {"apis": len(manifest), "implemented": manifest.implemented_count(), **manifest.counts()}
    wrong = {k: (v, actual.get(k)) for k, v in dict(counts).items() if actual.get(k) != v}
    if wrong:
        detail = ", ".join(f"{k}: header {a}, rows {b}" for k, (a, b) in sorted(wrong.items()))
        raise ManifestError(f"{origin}: counts do not match the rows ({detail})")


# ------------------------------------------------------------------ loading
def load(path: str | Path) -> Manifest:
    """Read a manifest file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ManifestError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ManifestError(f"{path}: not UTF-8 text") from None
    except ValueError:  # a NUL byte in the name
        raise ManifestError(f"cannot read {str(path)!r}: no such file") from None
    return Manifest.from_json(text, str(path))


def bundled_path() -> Path:
    """The manifest shipped inside the package."""
    return Path(str(resources.files("cpn_lint") / "data" / BUNDLED_NAME))


@lru_cache(maxsize=1)
def bundled() -> Manifest:
    """The shipped manifest, read once per process."""
    text = (resources.files("cpn_lint") / "data" / BUNDLED_NAME).read_text(encoding="utf-8")
    return Manifest.from_json(text, f"cpn_lint/data/{BUNDLED_NAME}")


# ------------------------------------------------------------ where it lives
def user_cache_dir() -> Path:
    """cpn-lint's folder in the user's cache (``$XDG_CACHE_HOME/cpn-lint``,
    by default ``~/.cache/cpn-lint``): where ``manifest refresh`` writes."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "cpn-lint"


def user_manifest_path() -> Path:
    return user_cache_dir() / BUNDLED_NAME


def package_dir() -> Path:
    """The installed package's folder, which cpn-lint never writes into."""
    return Path(str(resources.files("cpn_lint")))


def default_path() -> Path:
    """The manifest used when none is named: a refreshed one in the user's
    cache if there is one, else the snapshot shipped with the package."""
    refreshed = user_manifest_path()
    return refreshed if refreshed.is_file() else bundled_path()


def resolve(path: str | Path | None = None) -> Manifest:
    """The manifest at ``path``, or the default one (:func:`default_path`).

    A refreshed manifest in the cache that cannot be read is passed over for
    the shipped one (a lint run must not fail on it); a named one is not."""
    if path:
        return _load_cached(str(Path(path).absolute()), _mtime(Path(path)))
    refreshed = user_manifest_path()
    if refreshed.is_file():
        try:
            return _load_cached(str(refreshed), _mtime(refreshed))
        except ManifestError:
            pass
    return bundled()


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except (OSError, ValueError):
        return 0


@lru_cache(maxsize=8)
def _load_cached(path: str, mtime: int) -> Manifest:  # mtime: a rewritten file is read again
    return load(path)


_selected: list[Manifest] = []


def select(path: str | Path | None = None) -> Manifest:
    """Make the manifest at ``path`` (None: the default) the one the rules read."""
    manifest = resolve(path)
    _selected[:] = [manifest]
    return manifest


def active() -> Manifest:
    """The manifest the rules read: the last one selected, else the default."""
    return _selected[0] if _selected else resolve(None)


def staleness(today: _dt.date | None = None) -> Staleness:
    """The age of the manifest in use: what ``cpn-verdict`` reports."""
    return active().staleness(today)


def counts_line(manifest: Manifest) -> str:
    counts = manifest.counts()
    parts = [f"{counts[s.value]} {s.value}" for s in Status]
    return f"{len(manifest)} APIs ({manifest.implemented_count()} implemented): " + ", ".join(parts)
