"""ast-grep access for rules whose shape is clearest as a structural pattern.

One :class:`ast_grep_py.SgRoot` per file, built on first use (rules guard it
with a cheap text test, so files without a candidate never pay the parse).
ast-grep reports 0-based lines and character columns; flake8 and :mod:`ast`
use 1-based lines and UTF-8 byte columns, so every match is converted here
and mapped back to the :mod:`ast` node that starts at the same place, where
the semantic model's facts live.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:  # pragma: no cover
    from ast_grep_py import SgNode

    from . import FileModel


class Structural:
    def __init__(self, model: "FileModel") -> None:
        self._model = model
        self._root: Any = None
        self._starts: dict[tuple[int, int], list[ast.AST]] | None = None

    @property
    def root(self) -> "SgNode":
        if self._root is None:
            from ast_grep_py import SgRoot  # imported only when a rule needs it

            self._root = SgRoot(self._model.source, "python").root()
        return self._root

    def find_all(self, rule: dict[str, Any]) -> list["SgNode"]:
        """Matches of an ast-grep rule config (``{"rule": ..., "constraints": ...}``)."""
        return self.root.find_all(rule)

    def position(self, node: "SgNode") -> tuple[int, int]:
        """(1-based line, 0-based UTF-8 byte column) of a match's start."""
        start = node.range().start
        line = self._model.lines[start.line] if start.line < len(self._model.lines) else ""
        return start.line + 1, len(line[: start.column].encode("utf-8"))

    def ast_nodes_at(self, node: "SgNode", *types: type) -> Iterator[ast.AST]:
        """The :mod:`ast` nodes of the given types starting where ``node`` starts."""
        if self._starts is None:
            starts: dict[tuple[int, int], list[ast.AST]] = {}
            for sub in ast.walk(self._model.tree):
                pos = (getattr(sub, "lineno", None), getattr(sub, "col_offset", None))
                if pos[0] is not None:
                    starts.setdefault(pos, []).append(sub)  # type: ignore[arg-type]
            self._starts = starts
        for candidate in self._starts.get(self.position(node), ()):
            if not types or isinstance(candidate, types):
                yield candidate

    def ast_node_at(self, node: "SgNode", *types: type) -> ast.AST | None:
        return next(self.ast_nodes_at(node, *types), None)
