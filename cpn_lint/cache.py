"""A persistent cache of per-file results, so unchanged files are not analysed again.

Editors, pre-commit and CI re-lint mostly unchanged files. Each file's result
(the flake8 plugin's findings, what ``cpn-verdict`` keeps of a file, the
outcome of ``cpn-lint fix`` and ``noqa``'s findings) is stored under a key
made of:

* a hash of the file's bytes (as the engine reads them) and its name as the
  engine sees it (findings and citations can name it);
* cpn-lint's version, a fingerprint of the installed package's code (every
  ``.py`` and ``.json`` file under it: during development the version does
  not change while the code does), the Python version and ast-grep's version;
* the options that change results (codes, assessment, the identity of the
  API manifest in use: a hash of its bytes, whatever its path), and
  :data:`SCHEMA`.

Where: the user's cache folder (``$XDG_CACHE_HOME/cpn-lint/results``, by
default ``~/.cache/cpn-lint/results``; ``~/Library/Caches/cpn-lint/results``
on macOS and ``%LOCALAPPDATA%\\cpn-lint\\results`` on Windows when
``XDG_CACHE_HOME`` is not set), never the user's tree. ``CPN_LINT_CACHE_DIR``
moves it; ``CPN_LINT_NO_CACHE=1``, flake8's ``--cpn-no-cache`` and the
commands' ``--no-cache`` bypass it; ``CPN_LINT_CACHE_MAX_SIZE`` caps it
(default 256 MB, least recently used entries go first); ``cpn-lint cache
info`` and ``cpn-lint cache clean`` inspect and empty it.

A cache entry is untrusted input: it is JSON (never pickle), its key is
checked, and every value is checked against the type it must have; a torn,
foreign or garbage entry is a miss. Entries are written to a temporary file
in the same folder and renamed over the target, so concurrent writers
(``flake8 -j N``, ``--jobs N``) never see half an entry. A folder that
cannot be written (read-only, full disk) means no cache, silently: the run
itself never fails because of the cache. A result that may depend on the
run rather than on the file (an internal error, a parse that ran out of
stack or memory) is not stored.
"""

from __future__ import annotations

import argparse
import base64
import collections.abc
import dataclasses
import hashlib
import json
import os
import stat
import re
import sys
import tempfile
import time
import types
import typing
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from .safe_write import remove_quietly

SCHEMA = 2
ENV_DIR = "CPN_LINT_CACHE_DIR"
ENV_OFF = "CPN_LINT_NO_CACHE"
ENV_MAX_SIZE = "CPN_LINT_CACHE_MAX_SIZE"
DEFAULT_MAX_BYTES = 256 * 1000 * 1000
# After trimming, the cache holds at most this share of its cap, so the next
# trim is some writes away.
TRIM_TO = 0.8
# A process looks at the cache's total size on its first write when no trim
# happened for this long, and again after writing an eighth of the cap.
TRIM_EVERY_S = 600.0
# An entry read more than this long after it was last written or read is
# marked as used (its modification time is the "recently used" of LRU).
TOUCH_AFTER_S = 3600.0
STALE_TEMP_S = 3600.0

_ENTRY = re.compile(r"^[0-9a-f]{64}\.json$")
_SHARD = re.compile(r"^[0-9a-f]{2}$")
_TEMP_SUFFIX = ".tmp"
_MARKER = ".last-trim"
_TAG = "CACHEDIR.TAG"
_TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
             "# This folder is cpn-lint's result cache; 'cpn-lint cache clean' empties it.\n")


# ------------------------------------------------------------------ where
def default_folder() -> Path:
    """Where entries go: ``CPN_LINT_CACHE_DIR``, else the platform's user cache folder."""
    named = os.environ.get(ENV_DIR)
    if named:
        return Path(named).expanduser()
    return user_cache_root() / "cpn-lint" / "results"


def user_cache_root() -> Path:
    """The platform's folder for a user's caches. ``XDG_CACHE_HOME`` (when
    absolute) wins everywhere, so a test run or a CI job can point every
    cache at one folder."""
    xdg = os.environ.get("XDG_CACHE_HOME") or ""
    if xdg and Path(xdg).is_absolute():
        return Path(xdg)
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches"
    if os.name == "nt":
        local = os.environ.get("LOCALAPPDATA")
        if local:
            return Path(local)
        return Path.home() / "AppData" / "Local"
    return Path.home() / ".cache"


def disabled_by_environment() -> bool:
    value = os.environ.get(ENV_OFF, "").strip().lower()
    return value not in ("", "0", "false", "no", "off")


def max_bytes_from_environment() -> int:
    """The size cap: ``CPN_LINT_CACHE_MAX_SIZE`` (``512M``, ``2G``, ``100000``), else 256 MB."""
    text = os.environ.get(ENV_MAX_SIZE, "").strip()
    if not text:
        return DEFAULT_MAX_BYTES
    try:
        return parse_size(text)
    except ValueError:
        return DEFAULT_MAX_BYTES


def parse_size(text: str) -> int:
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([kmgt]?)b?", text.strip().lower())
    if not match:
        raise ValueError(f"not a size: {text!r} (e.g. 256M, 1G, 500000)")
    scale = {"": 1, "k": 1000, "m": 1000**2, "g": 1000**3, "t": 1000**4}[match.group(2)]
    return int(float(match.group(1)) * scale)


def open_cache(no_cache: bool = False) -> "ResultCache | None":
    """The cache for this run, or None when it is turned off."""
    if no_cache or disabled_by_environment():
        return None
    return ResultCache(default_folder(), max_bytes_from_environment())


# ------------------------------------------------------------------ identity
def _package_dir() -> Path:
    return Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of every ``.py`` and ``.json`` file of the installed package
    (names and bytes), computed once per process (a few milliseconds)."""
    root = _package_dir()
    digest = hashlib.sha256()
    for current, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(names):
            if not name.endswith((".py", ".json")):
                continue
            path = os.path.join(current, name)
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError:
                data = b"<unreadable>"
            digest.update(os.path.relpath(path, root).replace(os.sep, "/").encode("utf-8") + b"\0")
            digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


@lru_cache(maxsize=1)
def environment_identity() -> str:
    """What besides the package decides a result: its version and code, the
    Python that parses (its ``ast`` changes between versions) and ast-grep."""
    from . import __version__

    try:
        from importlib.metadata import version

        grep = version("ast-grep-py")
    except Exception:  # not installed, or broken metadata: part of the identity all the same
        grep = "none"
    python = f"{sys.implementation.name}-{sys.version_info[0]}.{sys.version_info[1]}"
    return f"cpn-lint {__version__}|{code_fingerprint()}|{python}|ast-grep {grep}"


_MANIFESTS: dict[tuple[str, int, int], str] = {}


def _manifest_stat(path: str | None) -> tuple[str, os.stat_result]:
    """The manifest file the engine reads for ``path`` and its status, in
    one ``stat`` when a refreshed manifest is there (every file asks)."""
    if path:
        return path, os.stat(path)
    refreshed = str(_user_manifest(os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME")))
    try:
        info = os.stat(refreshed)
        if stat.S_ISREG(info.st_mode):
            return refreshed, info
    except OSError:
        pass
    bundled = str(_bundled_manifest())
    return bundled, os.stat(bundled)


@lru_cache(maxsize=4)
def _user_manifest(xdg_cache_home: str | None, home: str | None) -> Path:
    """Where a refreshed manifest lives, found once per process for the
    variables that decide it (whether it is there is asked every time)."""
    from . import manifest

    return manifest.user_manifest_path()


@lru_cache(maxsize=1)
def _bundled_manifest() -> Path:
    from . import manifest

    return manifest.bundled_path()


def manifest_identity(path: str | None) -> str | None:
    """A hash of the API manifest the engine reads for ``path`` (None: the
    default one); None when it cannot be read (then nothing is cached).
    Hashed once per process and file version (its size and mtime)."""
    try:
        target, info = _manifest_stat(path)
        signature = (target, info.st_mtime_ns, info.st_size)
        known = _MANIFESTS.get(signature)
        if known is None:
            known = hashlib.sha256(Path(target).read_bytes()).hexdigest()
            _MANIFESTS[signature] = known
        return known
    except (OSError, ValueError):
        return None


def options_identity(options: Any) -> Any | None:
    """The options as part of a key: every field of ``options`` (a
    :class:`~cpn_lint.engine.LintOptions`), the manifest path replaced by
    the manifest's content hash. None when the manifest cannot be read."""
    identity = manifest_identity(getattr(options, "manifest_path", None))
    if identity is None:
        return None
    try:
        fields = _OPTION_FIELDS.get(options)
    except TypeError:  # unhashable options: described afresh
        fields = None
    if fields is None:
        fields = _option_fields(options)
        try:
            if len(_OPTION_FIELDS) < 64:
                _OPTION_FIELDS[options] = fields
        except TypeError:
            pass
    return {**fields, "manifest": identity}


_OPTION_FIELDS: dict[Any, dict[str, Any]] = {}  # frozen options -> their fields, once per process


def _option_fields(options: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        if f.name == "manifest_path":
            continue
        elif isinstance(value, (frozenset, set)):
            out[f.name] = sorted(map(str, value))
        elif value is None or isinstance(value, (bool, int, float, str)):
            out[f.name] = value
        else:
            out[f.name] = repr(value)
    return out


def make_key(kind: str, filename: str, content: bytes, options: Any = None, extra: Any = None) -> str | None:
    """The key of one result (a hex digest), or None when it cannot be made."""
    identity = options_identity(options) if options is not None else None
    if options is not None and identity is None:
        return None
    header = json.dumps([SCHEMA, kind, environment_identity(), filename, identity, extra],
                        sort_keys=True, ensure_ascii=True, default=repr)
    digest = hashlib.sha256(header.encode("ascii"))
    digest.update(b"\0")
    digest.update(content)
    return digest.hexdigest()


def transient(findings: Iterable[Any] = (), errors: Iterable[str | None] = ()) -> bool:
    """True for a result that may depend on the run rather than the file:
    an internal error, or a parse that ran out of stack or memory."""
    if any(getattr(f, "code", None) == "CPN000" for f in findings):
        return True
    return any(e is not None and ("cannot be parsed" in e or "internal error" in e or "please report" in e)
               for e in errors)


# ------------------------------------------------------------------ values
class Unencodable(TypeError):
    """A value the cache cannot store exactly; the result is not cached."""


class Malformed(ValueError):
    """An entry's value is not what it must be; the entry is a miss."""


_CLASSES: dict[str, type] = {}
_HINTS: dict[type, dict[str, Any] | None] = {}


def register(*classes: type) -> None:
    """Let the cache store instances of these dataclasses (checked on reading
    against their field annotations)."""
    for cls in classes:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls!r} is not a dataclass")
        _CLASSES[cls.__name__] = cls


def _hints(cls: type) -> dict[str, Any] | None:
    if cls not in _HINTS:
        try:
            hints = typing.get_type_hints(cls)
            fields = dataclasses.fields(cls)  # type: ignore[arg-type]
            _HINTS[cls] = {f.name: hints[f.name] for f in fields} if all(f.init for f in fields) else None
        except Exception:  # an annotation that does not resolve: such values are not cached
            _HINTS[cls] = None
    return _HINTS[cls]


def encode(value: Any) -> Any:
    """A JSON-able form of ``value`` that :func:`decode` turns back into an
    equal value of the same types; raises :class:`Unencodable`."""
    exact = type(value)
    if exact in _SCALARS:
        return value
    if exact is list or exact is tuple:
        # the common case (source lines, the cost sites' terms): all scalars,
        # copied at C speed into what the general case below would build
        if _SCALARS.issuperset(map(type, value)):
            return list(value) if exact is list else {"t": list(value)}
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, tuple):
        return {"t": [encode(v) for v in value]}
    if isinstance(value, frozenset):
        return {"f": [encode(v) for v in value]}
    if isinstance(value, set):
        return {"s": [encode(v) for v in value]}
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {"m": {k: encode(v) for k, v in value.items()}}
        return {"p": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, bytes):
        return {"b": base64.b64encode(value).decode("ascii")}
    cls = type(value)
    if dataclasses.is_dataclass(value) and _CLASSES.get(cls.__name__) is cls and _hints(cls) is not None:
        return {"c": cls.__name__, "v": {name: encode(getattr(value, name)) for name in _field_names(cls)}}
    raise Unencodable(f"cannot cache a {cls.__name__}")


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """``dataclasses.fields``' names, looked up once per class."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    return names


def decode(data: Any, checked: bool = True) -> Any:
    """The value :func:`encode` was given; raises :class:`Malformed`.
    ``checked=False`` skips the type checks, for what this process's own
    workers sent (never for what was read from the cache)."""
    if data is None or isinstance(data, (bool, str, int, float)):
        return data
    if isinstance(data, list):
        if _SCALARS.issuperset(map(type, data)):  # the common case (source lines), at C speed
            return list(data)
        return [decode(v, checked) for v in data]
    if not isinstance(data, dict) or len(data) not in (1, 2):
        raise Malformed("not an encoded value")
    if len(data) == 2:
        name, fields = data.get("c"), data.get("v")
        cls = _CLASSES.get(name) if isinstance(name, str) else None
        if cls is None or not isinstance(fields, dict):
            raise Malformed(f"unknown class {name!r}")
        hints = _hints(cls)
        if hints is None or set(fields) != set(hints):
            raise Malformed(f"{name}: fields differ")
        values = {k: decode(v, checked) for k, v in fields.items()}
        for k, v in values.items():
            if checked and not conforms(v, hints[k]):
                raise Malformed(f"{name}.{k}: not a {hints[k]}")
        return cls(**values)
    ((tag, inner),) = data.items()
    if tag == "b" and isinstance(inner, str):
        try:
            return base64.b64decode(inner.encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError):
            raise Malformed("bad bytes") from None
    if tag == "m" and isinstance(inner, dict):
        return {k: decode(v, checked) for k, v in inner.items()}
    if not isinstance(inner, list):
        raise Malformed(f"bad {tag!r}")
    if tag == "t":
        if _SCALARS.issuperset(map(type, inner)):
            return tuple(inner)  # scalars decode to themselves
        return tuple(decode(v, checked) for v in inner)
    if tag in ("f", "s"):
        items = [decode(v, checked) for v in inner]
        try:
            return frozenset(items) if tag == "f" else set(items)
        except TypeError:
            raise Malformed("unhashable set item") from None
    if tag == "p":
        out = {}
        for pair in inner:
            if not isinstance(pair, list) or len(pair) != 2:
                raise Malformed("bad pair")
            try:
                out[decode(pair[0], checked)] = decode(pair[1], checked)
            except TypeError:
                raise Malformed("unhashable key") from None
        return out
    raise Malformed(f"unknown tag {tag!r}")


_SCALARS = frozenset({str, int, float, bool, type(None)})
# the types whose values have exactly these classes (bool is not an int here)
_EXACT: dict[Any, frozenset[type]] = {str: frozenset({str}), int: frozenset({int}), bool: frozenset({bool}),
                                      float: frozenset({int, float}), type(None): frozenset({type(None)})}


def conforms(value: Any, hint: Any) -> bool:
    """Whether ``value`` has the type ``hint`` describes (the forms dataclass
    annotations use here; anything else is not accepted)."""
    return _checker(hint)(value)


_Check = Callable[[Any], bool]


@lru_cache(maxsize=None)
def _checker(hint: Any) -> _Check:
    """A function testing values against ``hint``, built once per hint."""
    if hint is Any:
        return lambda value: True
    if hint is None:
        hint = type(None)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        checks = tuple(_checker(a) for a in args)
        return lambda value: any(check(value) for check in checks)
    if origin is None:
        if hint in _EXACT:
            exact = _EXACT[hint]
            return lambda value: type(value) in exact
        if not isinstance(hint, type):
            return lambda value: False
        return lambda value: isinstance(value, hint)
    if origin in (list, frozenset, set):
        kind = origin
        if not args:
            return lambda value: isinstance(value, kind)
        item = _checker(args[0])
        exact = _EXACT.get(args[0])
        if exact is not None:  # at C speed: the classes of all items
            return lambda value: isinstance(value, kind) and exact.issuperset(map(type, value))
        return lambda value: isinstance(value, kind) and all(map(item, value))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _checker(args[0])
            return lambda value: isinstance(value, tuple) and all(map(item, value))
        if not args:
            return lambda value: isinstance(value, tuple)
        items = tuple(_checker(a) for a in args)
        return lambda value: (isinstance(value, tuple) and len(value) == len(items)
                              and all(check(v) for check, v in zip(items, value)))
    if origin in (dict, collections.abc.Mapping):
        if not args:
            return lambda value: isinstance(value, dict)
        key, item = _checker(args[0]), _checker(args[1])
        return lambda value: isinstance(value, dict) and all(key(k) and item(v) for k, v in value.items())
    return lambda value: False


# ------------------------------------------------------------------ the store
@dataclasses.dataclass
class CacheInfo:
    folder: Path
    entries: int
    size: int
    max_bytes: int


class ResultCache:
    """Entries in a folder, one JSON file each, sharded by the key's first
    two hex digits. Picklable, so ``--jobs`` workers share it."""

    def __init__(self, folder: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.folder = Path(folder)
        self.max_bytes = max(0, int(max_bytes))
        self._unwritable = False  # a write failed: stop trying in this process
        self._written = 0  # bytes written since the last trim
        self._trim_checked = False

    # -- keys and entries
    def key(self, kind: str, filename: str, content: bytes, options: Any = None, extra: Any = None) -> str | None:
        try:
            return make_key(kind, filename, content, options, extra)
        except Exception:  # an identity that cannot be computed: no caching, never a failed run
            return None

    def path_of(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str | None, hint: Any = Any) -> Any | None:
        """The value stored under ``key`` if it is there, whole and of type ``hint``; else None."""
        if key is None:
            return None
        path = self.path_of(key)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
                info = os.fstat(handle.fileno())
        except (OSError, ValueError):
            return None
        try:
            value = decode(_parse_entry(data, key))
        except Exception:  # torn, foreign or garbage: a miss, whatever it holds
            return None
        if not conforms(value, hint):
            return None
        if time.time() - info.st_mtime > TOUCH_AFTER_S:
            try:
                os.utime(path)  # recently used: the last to be evicted
            except OSError:
                pass
        return value

    def put(self, key: str | None, value: Any) -> bool:
        """Store ``value``; False (and nothing stored) when it cannot be."""
        if key is None or self._unwritable:
            return False
        try:
            data = _entry_bytes(key, encode(value))
        except (Unencodable, ValueError, RecursionError):
            return False
        target = self.path_of(key)
        try:
            self._ensure_folder(target.parent)
            fd, temp = tempfile.mkstemp(prefix=".", suffix=_TEMP_SUFFIX, dir=str(target.parent))
        except OSError:
            self._unwritable = True
            return False
        try:
            try:
                _write_all(fd, data)
            finally:
                os.close(fd)
            os.replace(temp, target)  # readers see the old entry or the new one, never part of one
        except OSError:
            self._unwritable = True  # a full disk or a read-only folder: no cache, silently
            remove_quietly(temp)
            return False
        except BaseException:  # Ctrl-C: no temporary file left behind
            remove_quietly(temp)
            raise
        self._written += len(data)
        self._maybe_trim()
        return True

    def _ensure_folder(self, shard: Path) -> None:
        if shard.is_dir():
            return
        if not self.folder.is_dir():
            self.folder.mkdir(parents=True, exist_ok=True)
            try:
                (self.folder / _TAG).write_text(_TAG_TEXT, encoding="ascii")
            except OSError:
                pass
        shard.mkdir(exist_ok=True)

    # -- size
    def _maybe_trim(self) -> None:
        due = self._written >= max(self.max_bytes // 8, 1)
        if not due and not self._trim_checked:
            self._trim_checked = True
            try:
                due = time.time() - (self.folder / _MARKER).stat().st_mtime > TRIM_EVERY_S
            except OSError:
                due = True
        if due:
            self.trim()

    def trim(self) -> int:
        """Evict least recently used entries until the cache holds at most
        :data:`TRIM_TO` of its cap; returns how many were removed."""
        self._written = 0
        self._trim_checked = True
        try:
            (self.folder / _MARKER).touch()  # claim this round: others need not scan too
        except OSError:
            pass
        entries = list(self._entries(remove_stale_temps=True))
        total = sum(size for _, size, _ in entries)
        if total <= self.max_bytes:
            return 0
        removed = 0
        goal = int(self.max_bytes * TRIM_TO)
        for _, size, path in sorted(entries):
            if total <= goal:
                break
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
            except OSError:
                continue
            total -= size
            removed += 1
        return removed

    def _shards(self) -> Iterator[tuple[str, list[os.DirEntry[str]]]]:
        """(path, items) of every shard folder the cache names; an unreadable
        cache or shard is skipped."""
        try:
            shards = [e for e in os.scandir(self.folder) if e.is_dir(follow_symlinks=False) and _SHARD.match(e.name)]
        except OSError:
            return
        for shard in shards:
            try:
                items = list(os.scandir(shard.path))
            except OSError:
                continue
            yield shard.path, items

    def _entries(self, remove_stale_temps: bool = False) -> Iterator[tuple[float, int, str]]:
        """(modification time, size, path) of every entry."""
        now = time.time()
        for _, items in self._shards():
            for item in items:
                try:
                    info = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                if _ENTRY.match(item.name):
                    yield info.st_mtime, info.st_size, item.path
                elif remove_stale_temps and item.name.endswith(_TEMP_SUFFIX) and now - info.st_mtime > STALE_TEMP_S:
                    remove_quietly(item.path)  # left by a killed writer

    def info(self) -> CacheInfo:
        entries = list(self._entries())
        return CacheInfo(self.folder, len(entries), sum(size for _, size, _ in entries), self.max_bytes)

    def clean(self) -> tuple[int, int]:
        """Remove every entry (and leftover temporary file); only files the
        cache itself names are touched. Returns (entries, bytes) removed."""
        count = size = 0
        for shard, items in self._shards():
            for item in items:
                if _ENTRY.match(item.name) or (item.name.startswith(".") and item.name.endswith(_TEMP_SUFFIX)):
                    try:
                        length = item.stat(follow_symlinks=False).st_size
                        os.unlink(item.path)
                    except OSError:
                        continue
                    if _ENTRY.match(item.name):
                        count += 1
                        size += length
            try:
                os.rmdir(shard)
            except OSError:
                pass  # something else lives there: leave it
        remove_quietly(str(self.folder / _MARKER))
        return count, size


def _entry_bytes(key: str, encoded: Any) -> bytes:
    """An entry: a header line (schema, key, hash of the value), then the value's JSON."""
    body = json.dumps(encoded, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    header = json.dumps({"schema": SCHEMA, "key": key, "sha256": hashlib.sha256(body).hexdigest()},
                        separators=(",", ":")).encode("ascii")
    return header + b"\n" + body


def _parse_entry(data: bytes, key: str) -> Any:
    """The encoded value of an entry written for ``key``; raises
    :class:`Malformed` for anything else (torn, foreign, altered)."""
    head, newline, body = data.partition(b"\n")
    if not newline:
        raise Malformed("no header")
    header = json.loads(head)
    if not isinstance(header, dict) or header.get("schema") != SCHEMA or header.get("key") != key:
        raise Malformed("another key or schema")
    if header.get("sha256") != hashlib.sha256(body).hexdigest():
        raise Malformed("torn or altered")
    return json.loads(body)


def _write_all(fd: int, data: bytes) -> None:
    # The cache's own copy of safe_write.write_all: it writes through this
    # module's ``os``, the seam the cache's fault tests strike.
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


# ------------------------------------------------------------------ the command
def _size(n: int) -> str:
    for unit, scale in (("GB", 1000**3), ("MB", 1000**2), ("kB", 1000)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def main(argv: Sequence[str] | None = None) -> int:
    """``cpn-lint cache info | clean``."""
    parser = argparse.ArgumentParser(
        prog="cpn-lint cache",
        description="Inspect or empty cpn-lint's result cache (where unchanged files' results are kept between runs).",
        epilog=f"{ENV_DIR} moves the cache, {ENV_OFF}=1 turns it off, {ENV_MAX_SIZE} caps it (default "
               f"{_size(DEFAULT_MAX_BYTES)}; least recently used entries are removed first).")
    sub = parser.add_subparsers(dest="action", required=True)
    sub.add_parser("info", help="where the cache is, how many entries it holds and their size")
    sub.add_parser("clean", help="remove every entry")
    try:
        ns = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    cache = ResultCache(default_folder(), max_bytes_from_environment())
    if ns.action == "clean":
        count, size = cache.clean()
        print(f"Removed {count} entr{'y' if count == 1 else 'ies'} ({_size(size)}) from {cache.folder}.")
        return 0
    info = cache.info()
    state = f"off ({ENV_OFF} is set)" if disabled_by_environment() else "on"
    print(f"location: {info.folder}")
    print(f"entries: {info.entries}")
    print(f"size: {_size(info.size)} (cap {_size(info.max_bytes)})")
    print(f"cache: {state}")
    return 0
