"""What a fixer gets and gives back."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Callable, TypeVar

from ..findings import Finding
from ..model import BindKind
from .edits import Rewriter

if TYPE_CHECKING:  # pragma: no cover
    from ast_grep_py import Edit

    from ..model import FileModel

N = TypeVar("N", bound=ast.AST)


@dataclass
class Fix:
    """Edits that resolve one finding, proven safe by the model."""

    finding: Finding
    description: str  # what was rewritten, for the command's output
    edits: list["Edit"]
    scope: ast.AST  # the function (or module) the fix rewrites
    moves_statements: bool = False  # inserts or moves whole statements


@dataclass(frozen=True)
class Refusal:
    """A finding the fix leaves alone, and why."""

    finding: Finding
    reason: str


class Refused(Exception):
    """Raised inside a fixer: the rewrite is not proven safe."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


Fixer = Callable[["FixContext", Finding], Fix]


@dataclass
class FixContext:
    """One model, its ast-grep rewriter and the names the file already uses."""

    model: "FileModel"
    rewriter: Rewriter = field(init=False)

    def __post_init__(self) -> None:
        self.rewriter = Rewriter(self.model)

    @cached_property
    def names_in_use(self) -> set[str]:
        return {n.id for n in self.model.nodes(ast.Name)} | set(self.model.imports.aliases)

    def node_at(self, finding: Finding, node_type: type[N]) -> N:
        """The node of ``node_type`` the finding is reported at."""
        for node in self.model.nodes(node_type):
            if node.lineno == finding.line and node.col_offset == finding.col:  # type: ignore[attr-defined]
                return node
        raise Refused("the reported code could not be located")

    def text(self, node: ast.AST) -> str:
        """The source of ``node`` as ast-grep holds it."""
        found = self.rewriter.text(node)
        if found is None:
            raise Refused("the source text could not be matched to the syntax tree")
        return found

    def numpy_alias(self, site: ast.AST) -> str:
        """The name the file imports NumPy (or cuPyNumeric) as, unshadowed at ``site``."""
        root = self.model.device_root
        scope = self.model.scope_of(site)
        for local, qualname in sorted(self.model.imports.aliases.items()):
            if qualname != root:
                continue
            owner = scope.lookup_scope(local)
            if owner is None:
                continue
            bindings = owner.bindings.get(local, ())
            if bindings and all(b.kind is BindKind.NOT_ARRAY and isinstance(b.node, ast.Import) for b in bindings):
                return local
        raise Refused(f"the file has no plain 'import {root or 'numpy'} as ...' to name the replacement with")

    def fresh_name(self, base: str) -> str:
        """A name nothing in the file uses yet."""
        name, counter = base, 2
        while name in self.names_in_use:
            name, counter = f"{base}{counter}", counter + 1
        self.names_in_use.add(name)
        return name

    def edit(self, edit: "Edit | None") -> "Edit":
        if edit is None:
            raise Refused("the source text could not be matched to the syntax tree")
        return edit

    def scope_node(self, node: ast.AST) -> ast.AST:
        return self.model.scope_of(node).function_like().node
