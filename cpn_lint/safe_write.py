"""Writing files without ever losing one the user owns.

Every cpn-lint command that writes goes through this module:

* :func:`check_target` decides, before any work is done, whether a path may
  receive a file of a given :class:`OutputKind`. A baseline may only replace
  a baseline, a report a report, a manifest a manifest; nothing replaces a
  Python source, a notebook or a directory, whatever the command or option.
* :func:`atomic_write` writes the new bytes to a temporary file beside the
  target, flushes them to disk and renames that file over the target, so an
  interrupted run (Ctrl-C, a kill, a full disk, a read-only folder) leaves
  the old file or the new one, never a torn or an empty one. It keeps the
  target's permission bits and, given the bytes the command read, refuses a
  file that changed on disk in the meantime.

Both raise :class:`WriteRefused` with a one-line reason; the commands print it
and exit 2.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

# Suffixes of files a user writes by hand: never the target of a generated file.
SOURCE_SUFFIXES = frozenset({".py", ".pyi", ".pyw", ".pyx", ".pxd", ".ipynb"})
TEMP_SUFFIX = ".cpn-tmp"  # temporary files are named ".<target>.<random>.cpn-tmp"


class WriteRefused(Exception):
    """A write that was not done; the message is one line naming the path."""


@dataclass(frozen=True)
class OutputKind:
    """A kind of file cpn-lint writes, and how to recognise one it wrote."""

    name: str  # "baseline", "report", ...: used in messages
    recognises: Callable[[bytes], bool]
    example: str  # a file name to suggest


def _json_field(data: bytes, key: str) -> object:
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return document.get(key) if isinstance(document, dict) else None


def _is_baseline(data: bytes) -> bool:
    return _json_field(data, "schema") == "cpn-lint/baseline"


def _is_manifest(data: bytes) -> bool:
    return _json_field(data, "format") == "cpn-lint/api-manifest"


def _is_surface(data: bytes) -> bool:
    return isinstance(_json_field(data, "names"), dict) and bool(_json_field(data, "numpy_version"))


REPORT_TITLE = "cuPyNumeric migration readiness"


def _is_report(data: bytes) -> bool:
    """A report cpn-verdict wrote, in any of its formats."""
    head = data[:4096].decode("utf-8", errors="replace").lstrip("\ufeff")
    if head.startswith(f"# {REPORT_TITLE}") or f"<title>{REPORT_TITLE}" in head:
        return True  # Markdown, HTML
    if _json_field(data, "schema") == "cpn-lint/verdict-report":
        return True
    runs = _json_field(data, "runs")  # SARIF: cpn-lint's own run
    if isinstance(runs, list) and runs and isinstance(runs[0], dict):
        driver = (runs[0].get("tool") or {}).get("driver") if isinstance(runs[0].get("tool"), dict) else None
        return isinstance(driver, dict) and driver.get("name") == "cpn-lint"
    return False


def _is_rule_page(data: bytes) -> bool:
    """A page ``cpn-lint docs`` generated: a rule's or the index."""
    head = data[:200].decode("utf-8", errors="replace")
    return head.startswith("# cpn-lint rules\n") or (head.startswith("# CPN") and head[5:8].isdigit())


BASELINE = OutputKind("baseline", _is_baseline, "cpn-baseline.json")
REPORT = OutputKind("report", _is_report, "cpn-report.md")
MANIFEST = OutputKind("manifest", _is_manifest, "api-manifest.json")
SURFACE = OutputKind("NumPy name list", _is_surface, "numpy-surface.json")
RULE_PAGE = OutputKind("rule page", _is_rule_page, "docs/rules")


def check_target(value: str | Path, kind: OutputKind) -> Path:
    """The path to write a ``kind`` file to, once it is known to be safe:
    a new file in an existing folder, an empty file, or a file of the same
    kind that cpn-lint wrote. Symbolic links are followed (the link stays)."""
    path = Path(value)
    shown = str(value)
    if not shown or "\0" in shown:
        raise WriteRefused(f"{shown!r} is not a file name; name the {kind.name} file to write")
    if path.is_dir():
        raise WriteRefused(f"{shown} is a directory; name the {kind.name} file to write")
    target = path.resolve() if path.is_symlink() else path
    if target.suffix.lower() in SOURCE_SUFFIXES:
        what = "a notebook" if target.suffix.lower() == ".ipynb" else "a Python source"
        raise WriteRefused(f"{shown} is {what}; a {kind.name} is never written over it "
                           f"(name a file such as {kind.example})")
    if not target.parent.is_dir():
        raise WriteRefused(f"cannot write {shown}: the folder {target.parent} does not exist")
    if not target.exists():
        if path.is_symlink():
            raise WriteRefused(f"{shown} is a broken symbolic link; name the {kind.name} file to write")
        return target
    if not stat.S_ISREG(target.stat().st_mode):
        raise WriteRefused(f"{shown} is not a regular file; name the {kind.name} file to write")
    try:
        data = target.read_bytes()
    except OSError as exc:
        raise WriteRefused(f"cannot read {shown} to check what it is ({exc.strerror or exc})") from None
    if data.strip() and not kind.recognises(data):
        raise WriteRefused(f"{shown} exists and is not a cpn-lint {kind.name}; it was left as it is "
                           f"(remove it or name another file)")
    return target


def atomic_write(path: str | Path, data: bytes, *, expect: bytes | None = None) -> None:
    """Replace ``path`` with ``data`` in one step (see the module's docstring).

    ``expect``: the bytes the command read from ``path``; when the file on
    disk no longer holds them, nothing is written."""
    target = Path(path)
    if target.is_symlink():
        target = target.resolve()
    mode, owner = _mode_and_owner(target)
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=str(target.parent))
    except OSError as exc:
        raise WriteRefused(f"cannot write {path}: {_reason(exc)}") from None
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temp, mode)
        if owner is not None:
            _chown(temp, owner)
        if expect is not None and _current_bytes(target) != expect:
            raise WriteRefused(f"{path} changed on disk while cpn-lint worked on it; it was left as it is (run again)")
        os.replace(temp, target)
    except BaseException as exc:
        remove_quietly(temp)
        if isinstance(exc, OSError):
            raise WriteRefused(f"cannot write {path}: {_reason(exc)}; it was left as it is") from None
        raise
    _sync_folder(target.parent)


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` to ``fd`` (``os.write`` may take fewer)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _mode_and_owner(target: Path) -> tuple[int, tuple[int, int] | None]:
    try:
        info = target.stat()
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask, None
    except OSError as exc:
        raise WriteRefused(f"cannot write {target}: {_reason(exc)}") from None
    return stat.S_IMODE(info.st_mode), (info.st_uid, info.st_gid)


def _chown(temp: str, owner: tuple[int, int]) -> None:
    if hasattr(os, "chown") and os.stat(temp).st_uid != owner[0]:
        try:
            os.chown(temp, *owner)
        except OSError:
            pass  # only root can give a file away; the content is what matters


def _current_bytes(target: Path) -> bytes | None:
    try:
        return target.read_bytes()
    except FileNotFoundError:
        return None


def remove_quietly(temp: str) -> None:
    """Remove a file of our own if it is there; a failure changes nothing the caller needs."""
    try:
        os.unlink(temp)
    except OSError:
        pass


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: not every system can)."""
    try:
        fd = os.open(str(folder), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "permission denied (read-only folder or file?)"
    return exc.strerror or type(exc).__name__


__all__ = ["BASELINE", "MANIFEST", "REPORT", "RULE_PAGE", "SURFACE", "OutputKind", "WriteRefused", "atomic_write", "check_target"]
