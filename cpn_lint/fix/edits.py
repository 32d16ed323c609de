"""Text edits through ast-grep: the rewrite engine of ``cpn-lint fix``.

The semantic model (built on :mod:`ast`) decides *whether* a rewrite is safe;
ast-grep decides *where the text is*. Every edit is an ast-grep ``Edit``
made by ``SgNode.replace`` on the node the model's proof is about, and a
file's edits are applied together with ``commit_edits`` on the shared root
(``model.structural``). ast-grep's nodes keep what :mod:`ast` drops: the
parentheses around an operand and the comment after a statement.

Positions: :mod:`ast` gives 1-based lines and UTF-8 byte columns; ast-grep's
Python binding gives 0-based rows, character columns and character offsets
(``Pos.index``, ``Edit.start_pos``). Rows count ``\\n`` only, so a file with
a lone carriage return (where :mod:`ast` would count one more line) is never
rewritten.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from ast_grep_py import Edit, SgNode

    from ..model import FileModel

_LONE_CR = re.compile(r"\r(?!\n)")
_TRAILING = re.compile(r"\s*(#.*)?\r?$")


class Rewriter:
    """ast-grep nodes and edits for the :mod:`ast` nodes of one model."""

    def __init__(self, model: "FileModel") -> None:
        self.model = model
        self.source = model.source
        self.usable = _LONE_CR.search(self.source) is None
        self.newline = "\r\n" if "\r\n" in self.source else "\n"
        self._rows = self.source.split("\n")
        self._starts: list[int] = []
        offset = 0
        for row in self._rows:
            self._starts.append(offset)
            offset += len(row) + 1

    @property
    def root(self) -> "SgNode":
        return self.model.structural.root

    # ------------------------------------------------------------ positions
    def point(self, line: int, byte_col: int) -> tuple[int, int]:
        """(0-based row, character column) of an :mod:`ast` position."""
        row = self._rows[line - 1] if 0 < line <= len(self._rows) else ""
        return line - 1, len(row.encode("utf-8")[:byte_col].decode("utf-8", "replace"))

    def index(self, line: int, byte_col: int) -> int:
        """The character offset of an :mod:`ast` position."""
        row, column = self.point(line, byte_col)
        return self._starts[row] + column if row < len(self._starts) else len(self.source)

    def line_text(self, line: int) -> str:
        return self._rows[line - 1].rstrip("\r") if 0 < line <= len(self._rows) else ""

    def indent_of(self, line: int) -> str:
        text = self.line_text(line)
        return text[: len(text) - len(text.lstrip())]

    # ---------------------------------------------------------------- nodes
    def node(self, node: ast.AST, kind: str | None = None) -> "SgNode | None":
        """The ast-grep node spanning exactly what ``node`` spans (the
        outermost one, or the one of ``kind``), or None."""
        if not self.usable or getattr(node, "end_lineno", None) is None:
            return None
        start = self.point(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        end = self.point(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        rule: dict[str, object] = {
            "range": {"start": {"line": start[0], "column": start[1]}, "end": {"line": end[0], "column": end[1]}}
        }
        if kind is not None:
            rule["kind"] = kind
        return self.root.find(**rule)  # type: ignore[arg-type]

    def text(self, node: ast.AST) -> str | None:
        found = self.node(node)
        return found.text() if found is not None else None

    def statement_alone(self, stmt: ast.stmt) -> bool:
        """``stmt`` has its lines to itself: only indentation before it and at
        most a comment after it (no ``a = 1; b = 2``)."""
        first = self.line_text(stmt.lineno)
        start_char = self.point(stmt.lineno, stmt.col_offset)[1]
        if first[:start_char].strip():
            return False
        last = self.line_text(stmt.end_lineno or stmt.lineno)
        end_char = self.point(stmt.end_lineno or stmt.lineno, stmt.end_col_offset or 0)[1]
        return _TRAILING.fullmatch(last[end_char:]) is not None

    def trailing_comment(self, stmt: ast.stmt) -> str:
        last = self.line_text(stmt.end_lineno or stmt.lineno)
        end_char = self.point(stmt.end_lineno or stmt.lineno, stmt.end_col_offset or 0)[1]
        return last[end_char:].strip()

    # ---------------------------------------------------------------- edits
    def replace(self, node: ast.AST, text: str) -> "Edit | None":
        found = self.node(node)
        return found.replace(text) if found is not None else None

    def insert(self, offset: int, text: str) -> "Edit":
        """A zero-width edit inserting ``text`` at a character offset (the
        binding has no constructor for edits: one is made by replace and
        narrowed to the insertion point)."""
        edit = self.root.replace("")
        edit.start_pos = edit.end_pos = offset
        edit.inserted_text = text
        return edit

    def delete_lines(self, stmt: ast.stmt) -> "Edit | None":
        """Remove the lines a statement has to itself (see :meth:`statement_alone`)."""
        found = self.node(stmt)
        if found is None or not self.statement_alone(stmt):
            return None
        edit = found.replace("")
        edit.start_pos = self._starts[stmt.lineno - 1]
        last = (stmt.end_lineno or stmt.lineno) - 1
        edit.end_pos = self._starts[last + 1] if last + 1 < len(self._starts) else len(self.source)
        return edit

    def insert_line_before(self, stmt: ast.stmt, text: str) -> "Edit":
        """Insert whole lines before the line ``stmt`` starts on, indented like it."""
        indent = self.indent_of(stmt.lineno)
        lines = "".join(f"{indent}{line}{self.newline}" for line in text.split("\n"))
        return self.insert(self._starts[stmt.lineno - 1], lines)

    def insert_line_after(self, stmt: ast.stmt, text: str, indent_like: ast.stmt | None = None) -> "Edit":
        """Insert whole lines after the last line of ``stmt`` (a compound
        statement: after its whole body), indented like ``indent_like``."""
        indent = self.indent_of((indent_like or stmt).lineno)
        last = (stmt.end_lineno or stmt.lineno) - 1
        lines = "".join(f"{indent}{line}{self.newline}" for line in text.split("\n"))
        if last + 1 < len(self._starts):
            return self.insert(self._starts[last + 1], lines)
        tail = "" if self.source.endswith("\n") else self.newline
        return self.insert(len(self.source), tail + lines.rstrip("\r\n"))

    def apply(self, edits: Sequence["Edit"]) -> str:
        """The source with every edit applied (they must not overlap)."""
        return self.root.commit_edits(sorted(edits, key=lambda e: (e.start_pos, e.end_pos)))


def span(edit: "Edit") -> tuple[int, int]:
    return edit.start_pos, edit.end_pos


def overlaps(a: Iterable["Edit"], b: Iterable["Edit"]) -> bool:
    """Do two groups of edits touch the same text (an insertion at the edge
    of a replacement counts: their order would be ambiguous)?"""
    return any(_touch(span(x), span(y)) for x in a for y in b)


def _touch(x: tuple[int, int], y: tuple[int, int]) -> bool:
    if x[0] == x[1] or y[0] == y[1]:
        return x[0] <= y[1] and y[0] <= x[1]
    return x[0] < y[1] and y[0] < x[1]
