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
        self._starts: dict[tuple[type, ...], dict[tuple[int, int], list[ast.AST]]] = {}

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
        """The :mod:`ast` nodes of the given types starting where ``node``
        starts, outermost first."""
        return iter(self._starts_index(types or (ast.AST,)).get(self.position(node), ()))

    def _starts_index(self, types: tuple[type, ...]) -> dict[tuple[int, int], list[ast.AST]]:
        """Start position -> nodes of ``types``, built once per type tuple from
        the model's per-type index (no second walk over the tree)."""
        index = self._starts.get(types)
        if index is None:
            index = {}
            for node_type, nodes in self._model.nodes_by_type().items():
                if not issubclass(node_type, types):
                    continue
                for sub in nodes:
                    line = getattr(sub, "lineno", None)
                    if line is not None:
                        index.setdefault((line, sub.col_offset), []).append(sub)  # type: ignore[attr-defined]
            for candidates in index.values():
                if len(candidates) > 1:
                    candidates.sort(key=_outermost_first)
            self._starts[types] = index
        return index


def _outermost_first(node: ast.AST) -> tuple[int, int]:
    """Of nodes starting at one place, the one that ends last encloses the others."""
    return (-getattr(node, "end_lineno", 0), -getattr(node, "end_col_offset", 0))


def by_position(nodes: "list[ast.AST]") -> dict[tuple[int, int], list[ast.AST]]:
    """Candidate nodes a rule already holds, by start position (outermost
    first), to pair with ast-grep matches without indexing the whole file."""
    index: dict[tuple[int, int], list[ast.AST]] = {}
    for node in nodes:
        index.setdefault((node.lineno, node.col_offset), []).append(node)  # type: ignore[attr-defined]
    for candidates in index.values():
        if len(candidates) > 1:
            candidates.sort(key=_outermost_first)
    return index
