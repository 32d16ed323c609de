"""Which line of a ``.ipynb`` file holds a given line of a given cell.

SARIF viewers show a result on a line of the file as stored, but a notebook
finding knows only its cell and its line in that cell. The notebook's JSON
text is walked token by token (strings are skipped by one regular
expression, so large outputs cost little), keeping the path of keys and
indexes to every value. That finds each cell's ``source`` strings (``input``
for the code cells of nbformat 3) wherever the key sits in the cell and
whatever the outputs hold, and the physical line each string starts on.

Cells are numbered from 1 counting every cell, markdown ones too, as
:mod:`cpn_lint.verdict.collect` numbers them. A cell line inside a string
holding several lines maps to the line of that string (a JSON string never
spans lines of the file).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')
_SOURCE_KEYS = frozenset({"source", "input"})
Key = str | int | None


@dataclass
class _Frame:
    kind: str  # "{" or "["
    key: Key = None  # the current key (object) or index (array)
    wants_key: bool = False


@dataclass
class NotebookMap:
    """Per cell (numbered from 1): the first line of the cell's object, and
    (line of the file, text) of each of its source strings."""

    starts: dict[int, int] = field(default_factory=dict)
    sources: dict[int, list[tuple[int, str]]] = field(default_factory=dict)

    def line_of(self, cell: int, cell_line: int) -> int | None:
        """The file's line holding line ``cell_line`` of ``cell``; the cell's
        first line when the source line is not found; None for no such cell."""
        if cell not in self.starts:
            return None
        entries = self.sources.get(cell, [])
        return _entry_line(entries, cell_line) or self.starts[cell]


def _entry_line(entries: list[tuple[int, str]], cell_line: int) -> int | None:
    if not entries or cell_line < 1:
        return None
    joined = "".join(text for _, text in entries)
    start = 0
    for _ in range(cell_line - 1):
        start = joined.find("\n", start) + 1
        if start == 0:
            return None
    ends, total = [], 0
    for _, text in entries:
        total += len(text)
        ends.append(total)
    index = min(bisect_right(ends, start), len(entries) - 1)
    return entries[index][0]


def _tokens(text: str) -> Iterator[tuple[tuple[Key, ...], int, str]]:
    """(path, offset, token) of every value: scalars and opening brackets."""
    stack: list[_Frame] = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        top = stack[-1] if stack else None
        if token in ("}", "]"):
            if stack:
                stack.pop()
        elif token == ":":
            if top is not None:
                top.wants_key = False
        elif token == ",":
            if top is not None and top.kind == "{":
                top.wants_key = True
            elif top is not None and isinstance(top.key, int):
                top.key += 1
        elif top is not None and top.kind == "{" and top.wants_key:
            top.key = json.loads(token) if token.startswith('"') else token
        else:
            yield tuple(f.key for f in stack), match.start(), token
            if token in ("{", "["):
                stack.append(_Frame(token, 0 if token == "[" else None, token == "{"))


def _is_cell(path: tuple[Key, ...]) -> bool:
    """``cells[i]`` (nbformat 4) or ``worksheets[w].cells[i]`` (nbformat 3)."""
    return (len(path) == 2 and path[0] == "cells") or (
        len(path) == 4 and path[0] == "worksheets" and path[2] == "cells")


def map_notebook(text: str) -> NotebookMap:
    """Walk the notebook's text once; a malformed one gives what was read."""
    result = NotebookMap()
    cell, line, last = 0, 1, 0
    for path, offset, token in _tokens(text):
        if token == "{" and _is_cell(path):
            line += text.count("\n", last, offset)
            last = offset
            cell += 1
            result.starts[cell] = line
        elif token.startswith('"') and cell and _in_source(path):
            line += text.count("\n", last, offset)
            last = offset
            result.sources.setdefault(cell, []).append((line, _decoded(token)))
    return result


def _in_source(path: tuple[Key, ...]) -> bool:
    for depth in (2, 4):
        if len(path) in (depth + 1, depth + 2) and _is_cell(path[:depth]) and path[depth] in _SOURCE_KEYS:
            return len(path) == depth + 1 or isinstance(path[depth + 1], int)
    return False


def _decoded(token: str) -> str:
    try:
        value = json.loads(token)
    except ValueError:
        return ""
    return value if isinstance(value, str) else ""


_MAPS: dict[tuple[str, int, int], NotebookMap | None] = {}


def notebook_line(path: str, cell: int, cell_line: int) -> int:
    """The line of the ``.ipynb`` file at ``path`` holding line ``cell_line``
    of cell ``cell``; 1 when the file or the cell cannot be found. The file
    is read (never written) once per path and version."""
    found = _notebook_map(path)
    return (found.line_of(cell, cell_line) if found else None) or 1


def _notebook_map(path: str) -> NotebookMap | None:
    try:
        stat = Path(path).stat()
    except OSError:
        return None
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _MAPS:
        try:
            _MAPS[key] = map_notebook(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            _MAPS[key] = None
    return _MAPS[key]
