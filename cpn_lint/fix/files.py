"""Fixing files: Python sources and the code cells of Jupyter notebooks.

A Python file is decoded as Python does (BOM, PEP 263 cookie, else UTF-8)
and written back in the same encoding with the same line endings. A
notebook's code cells are joined as the kernel runs them (IPython syntax
blanked, cells that do not parse left out), with a marker comment before
each cell so that the fixed text splits back into cells; the IPython lines
are restored, and the notebook's JSON is written back with its own
indentation and key order, only the changed cells' sources differing.
"""

from __future__ import annotations

import difflib
import io
import json
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import MAX_SOURCE_BYTES, decode_source, parse
from ..verdict.collect import python_of_cell
from .planner import TextFix, fix_text, original_lines

_MARKER = "# cpn-lint fix: cell {} -- do not edit"
_MARKER_LINE = re.compile(r"^# cpn-lint fix: cell (\d+) -- do not edit$")


@dataclass(frozen=True)
class Line:
    """One output line: a fix made or a finding left, cited like the verdict cites."""

    citation: str
    code: str
    text: str


@dataclass
class FileFix:
    path: str
    applied: list[Line] = field(default_factory=list)
    left: list[Line] = field(default_factory=list)
    diff: str = ""
    new_bytes: bytes | None = None  # None: nothing to write
    old_bytes: bytes | None = None  # what was read: the file must still hold it when the fix is written
    error: str | None = None


def fix_path(path: str, codes: frozenset[str], *, for_diff: bool) -> FileFix:
    """Fix one file in memory; never raises on bad input."""
    outcome = FileFix(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        outcome.error = f"cannot be read ({exc.strerror or type(exc).__name__})"
        return outcome
    outcome.old_bytes = raw
    if len(raw) > MAX_SOURCE_BYTES:
        outcome.error = f"is larger than {MAX_SOURCE_BYTES // (1024 * 1024)} MiB; skipped"
        return outcome
    try:
        if path.endswith(".ipynb"):
            _fix_notebook(outcome, raw, codes, for_diff)
        else:
            _fix_python(outcome, raw, codes, for_diff)
    except _BadInput as exc:
        outcome.error = str(exc)
    return outcome


class _BadInput(Exception):
    pass


def _fix_python(outcome: FileFix, raw: bytes, codes: frozenset[str], for_diff: bool) -> None:
    encoding, text = _decode(raw)
    _check_parses(text, outcome.path)
    result = fix_text(text, outcome.path, codes)
    if result.error:
        raise _BadInput(result.error)
    cite = lambda line: f"{outcome.path}:{line}"  # noqa: E731
    outcome.applied = [Line(cite(a.line), a.code, a.description) for a in result.applied]
    outcome.left = _left_lines(result, cite, for_diff)
    if result.changed:
        outcome.diff = _diff(text, result.fixed, outcome.path, outcome.path)
        outcome.new_bytes = result.fixed.encode(encoding)


def _decode(raw: bytes) -> tuple[str, str]:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError:
        encoding = "utf-8"
    try:
        text = decode_source(raw)
    except UnicodeDecodeError as exc:
        raise _BadInput(f"not valid UTF-8 (byte {exc.start}); left unchanged") from None
    except LookupError:
        raise _BadInput(f"unknown encoding {encoding!r}; left unchanged") from None
    if "\0" in text:
        raise _BadInput("contains a NUL byte; left unchanged")
    return ("utf-8-sig" if raw.startswith(b"\xef\xbb\xbf") else encoding), text


def _check_parses(text: str, path: str) -> None:
    try:
        parse(text, path)
    except SyntaxError as exc:
        raise _BadInput(f"does not parse: {exc.msg} (line {exc.lineno}); left unchanged") from None
    except (RecursionError, MemoryError, ValueError) as exc:
        raise _BadInput(f"cannot be parsed ({type(exc).__name__}); left unchanged") from None


def _left_lines(result: TextFix, cite: Any, for_diff: bool) -> list[Line]:
    """Findings left, at their lines in the file as it will be (or, for a
    diff, as it is)."""
    lines = []
    back = original_lines(result) if for_diff else {}
    for refusal in result.left:
        f = refusal.finding
        line = back.get(f.line, f.line)
        lines.append(Line(f"{cite(line)}:{f.col + 1}", f.code, refusal.reason))
    return lines


def _diff(old: str, new: str, before: str, after: str) -> str:
    return "".join(
        difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True), fromfile=before, tofile=after)
    )


# ------------------------------------------------------------------ notebooks
def _fix_notebook(outcome: FileFix, raw: bytes, codes: frozenset[str], for_diff: bool) -> None:
    document, cells = _read_notebook(raw)
    combined, python = _join_cells(cells)
    if not python:
        return
    result = fix_text(combined, outcome.path, codes)
    if result.error:
        raise _BadInput(result.error)
    cells_of_fixed = _cell_lines(result.fixed)
    cells_of_original = _cell_lines(combined)
    outcome.applied = [
        Line(_cite_cell(outcome.path, cells_of_original, a.line), a.code, a.description) for a in result.applied
    ]
    back = original_lines(result) if for_diff else {}
    outcome.left = [
        Line(_cite_cell(outcome.path, cells_of_original if for_diff else cells_of_fixed,
                        back.get(r.finding.line, r.finding.line)) + f":col {r.finding.col + 1}", r.finding.code, r.reason)
        for r in result.left
    ]
    if not result.changed:
        return
    new_python = _split_cells(result.fixed)
    diffs: list[str] = []
    for number, before in python.items():
        after = new_python.get(number, before)
        if after == before:
            continue
        source = cells[number - 1]["__source__"]
        restored = _restore_ipython(source, before, after)
        if restored is None:
            raise _BadInput(f"cell {number}: a fix touched an IPython line; left unchanged")
        diffs.append(_diff(source, restored, f"{outcome.path}:cell {number}", f"{outcome.path}:cell {number}"))
        _set_source(cells[number - 1], restored)
    outcome.diff = "".join(d if d.endswith("\n") else d + "\n" for d in diffs)
    outcome.new_bytes = _dump(document, cells, raw)


def _read_notebook(raw: bytes) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise _BadInput(f"not valid UTF-8 (byte {exc.start}); left unchanged") from None
    except (json.JSONDecodeError, RecursionError) as exc:
        raise _BadInput(f"not valid JSON ({getattr(exc, 'msg', exc)}); left unchanged") from None
    if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
        raise _BadInput("not an nbformat 4 notebook (no 'cells' list); left unchanged")
    cells: list[dict[str, Any]] = []
    for number, cell in enumerate(document["cells"], start=1):
        if not isinstance(cell, dict):
            raise _BadInput(f"cell {number} is not an object; left unchanged")
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise _BadInput(f"cell {number} has a malformed source; left unchanged")
        cell["__source__"] = source
        cells.append(cell)
    return document, cells


def _join_cells(cells: list[dict[str, Any]]) -> tuple[str, dict[int, str]]:
    """The code cells that parse, each after its marker line; and each
    cell's Python (IPython lines blanked) by cell number."""
    python: dict[int, str] = {}
    pieces: list[str] = []
    for number, cell in enumerate(cells, start=1):
        if cell.get("cell_type") != "code":
            continue
        code = python_of_cell(cell["__source__"])
        if code is None or not code.strip() or not _parses(code):
            continue
        python[number] = code
        pieces += [_MARKER.format(number), code]
    return ("\n".join(pieces) + "\n" if pieces else ""), python


def _parses(code: str) -> bool:
    try:
        parse(code, "<cell>")
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return False
    return True


def _split_cells(text: str) -> dict[int, str]:
    cells: dict[int, list[str]] = {}
    current: list[str] | None = None
    for line in text.split("\n"):
        match = _MARKER_LINE.match(line)
        if match:
            current = cells.setdefault(int(match.group(1)), [])
        elif current is not None:
            current.append(line)
    out: dict[int, str] = {}
    numbers = list(cells)
    for number in numbers:
        lines = cells[number]
        if number == numbers[-1] and lines and lines[-1] == "":
            lines = lines[:-1]  # the newline that ends the joined text
        out[number] = "\n".join(lines)
    return out


def _cell_lines(text: str) -> list[tuple[int, int]]:
    """For every line of the joined text: (cell number, line in the cell)."""
    mapping: list[tuple[int, int]] = []
    cell, line = 0, 0
    for raw in text.split("\n"):
        match = _MARKER_LINE.match(raw)
        if match:
            cell, line = int(match.group(1)), 0
            mapping.append((cell, 0))
        else:
            line += 1
            mapping.append((cell, line))
    return mapping


def _cite_cell(path: str, mapping: list[tuple[int, int]], line: int) -> str:
    if 1 <= line <= len(mapping):
        cell, cell_line = mapping[line - 1]
        return f"{path}:cell {cell}:line {cell_line}"
    return f"{path}:line {line}"


def _restore_ipython(source: str, before: str, after: str) -> str | None:
    """``after`` with the cell's IPython lines put back where ``before`` had
    them blanked; None when a changed line was one of them."""
    original = source.splitlines()
    old = before.split("\n")
    new = after.split("\n")
    if len(original) != len(old):
        original = original + [""] * (len(old) - len(original))
    out: list[str] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out += original[i1:i2]
            continue
        if any(original[i] != old[i] for i in range(i1, i2)):
            return None
        out += new[j1:j2]
    text = "\n".join(out)
    return text + "\n" if source.endswith("\n") else text


def _set_source(cell: dict[str, Any], source: str) -> None:
    if isinstance(cell.get("source"), list):
        cell["source"] = source.splitlines(keepends=True)
    else:
        cell["source"] = source


def _dump(document: dict[str, Any], cells: list[dict[str, Any]], raw: bytes) -> bytes:
    for cell in cells:
        cell.pop("__source__", None)
    text = raw.decode("utf-8-sig")
    match = re.search(r"\n( +)\"", text)
    indent = len(match.group(1)) if match else None
    ascii_only = "\\u" in text and not any(ord(ch) > 127 for ch in text)
    dumped = json.dumps(document, indent=indent, ensure_ascii=ascii_only)
    if text.endswith("\n"):
        dumped += "\n"
    prefix = b"\xef\xbb\xbf" if raw.startswith(b"\xef\xbb\xbf") else b""
    return prefix + dumped.encode("utf-8")
