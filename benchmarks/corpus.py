"""The corpus: which Python files every measure reads.

``scipy`` and ``numpy`` name a package installed in the benchmark interpreter
(its own sources, tests included, as shipped on the package index); anything
else is a directory of ``.py`` files. The list is sorted and fixed before the
first measure, and every measure reads exactly that list.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

NAMED = ("scipy", "numpy")
_SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages"})


@dataclass(frozen=True)
class Corpus:
    name: str
    version: str | None
    root: Path
    files: list[str]  # paths relative to root, sorted
    total_files: int  # before --max-files
    lines: int
    bytes: int
    file_lines: dict[str, int] = field(repr=False, default_factory=dict)

    def spec(self) -> dict[str, Any]:
        return {"root": str(self.root), "files": self.files}

    def write_spec(self, path: Path) -> Path:
        path.write_text(json.dumps(self.spec()), encoding="utf-8")
        return path

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "version": self.version,
            "root": str(self.root),
            "files": len(self.files),
            "total_files": self.total_files,
            "lines": self.lines,
            "bytes": self.bytes,
        }


def list_python_files(root: Path) -> list[str]:
    """Every ``.py`` file under ``root``, relative and sorted; skips hidden
    folders, caches and virtual environments, and never follows symlinks."""
    found: list[str] = []
    for directory, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(
            d for d in dirnames
            if not d.startswith(".") and d not in _SKIPPED_DIRS
            and not os.path.isfile(os.path.join(directory, d, "pyvenv.cfg"))
        )
        for name in filenames:
            full = os.path.join(directory, name)
            if name.endswith(".py") and os.path.isfile(full) and not os.path.islink(full):
                found.append(os.path.relpath(full, root).replace(os.sep, "/"))
    return sorted(found)


def spread_sample(items: list[str], count: int | None) -> list[str]:
    """``count`` items spread evenly over ``items`` (all of them if ``count`` is None
    or not smaller): a quick run still sees every subpackage, not just the first."""
    if count is None or count >= len(items):
        return list(items)
    if count <= 0:
        return []
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def _count_lines(data: bytes) -> int:
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def load(
    selector: str,
    max_files: int | None,
    locate: Callable[[str], dict[str, Any]],
) -> Corpus:
    """Resolve ``selector`` (``scipy``, ``numpy`` or a directory) into a corpus."""
    if selector in NAMED:
        where = locate(selector)
        if not where.get("root"):
            raise FileNotFoundError(f"{selector} is not installed in the benchmark interpreter")
        root, name, version = Path(where["root"]), selector, where.get("version")
    else:
        root = Path(selector).expanduser().resolve()
        if not root.is_dir():
            raise FileNotFoundError(f"corpus {selector!r} is neither scipy, numpy nor a directory")
        name, version = root.name, None
    every = list_python_files(root)
    if not every:
        raise FileNotFoundError(f"no .py files under {root}")
    chosen = spread_sample(every, max_files)
    file_lines: dict[str, int] = {}
    size = 0
    for rel in chosen:
        data = (root / rel).read_bytes()  # also brings the corpus into the page cache
        file_lines[rel] = _count_lines(data)
        size += len(data)
    return Corpus(name, version, root, chosen, len(every), sum(file_lines.values()), size, file_lines)
