"""Which bindings of a name may reach one use of it.

A flow-insensitive table of bindings per scope, read with enough order to be
useful: the last binding before the use, the bindings of conditional branches
before it that may have run instead, and bindings later in a loop that
encloses the use (they reach it on the next iteration). Uses from a nested
scope see every binding.
"""

from __future__ import annotations

import ast
import bisect
from typing import TYPE_CHECKING

from .scopes import Binding, BindKind, ScopeKind

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

    from .scopes import LoopFrame, Scope

# Statements whose blocks may not run whenever the code after them does.
_CONDITIONAL_BLOCKS: tuple[type, ...] = (ast.For, ast.AsyncFor, ast.While, ast.Try, ast.ExceptHandler, ast.Match) + (
    (ast.TryStar,) if hasattr(ast, "TryStar") else ()
)
_MAX_BRANCH_BINDINGS = 4  # bindings of conditional branches followed back from a use


class Reaching:
    """Reaching-binding queries over one model (the sorted tables are cached)."""

    def __init__(self, model: "FileModel") -> None:
        self.model = model
        self._sorted: dict[tuple[int, str], tuple[list[Binding], list[tuple[int, int]]]] = {}
        self._answers: dict[int, list[Binding]] = {}  # per use: asked again and again by the value engine

    def bindings(self, scope: "Scope", use: ast.Name) -> list[Binding]:
        """Bindings of ``use.id`` in ``scope`` that may reach ``use``."""
        key = id(use)
        found = self._answers.get(key)
        if found is None:
            found = self._answers[key] = self._compute(scope, use)
        return found

    def _compute(self, scope: "Scope", use: ast.Name) -> list[Binding]:
        every = scope.bindings[use.id]
        if len(every) == 1:
            return list(every)  # what the walk finds for a lone binding, wherever the use is
        return self._walk(scope, use)

    def _walk(self, scope: "Scope", use: ast.Name) -> list[Binding]:
        model = self.model
        key = (id(scope), use.id)
        cached = self._sorted.get(key)
        if cached is None:
            ordered = sorted(scope.bindings[use.id], key=lambda b: b.pos)
            cached = (ordered, [b.pos for b in ordered])
            self._sorted[key] = cached
        ordered, positions = cached
        use_scope = model.scope_of(use)
        if use_scope.function_like() is not scope.function_like() or scope.kind is ScopeKind.CLASS:
            return ordered
        pos = (use.lineno, use.col_offset)
        i = bisect.bisect_left(positions, pos)
        before = ordered[:i]
        # A binding on the same statement as the use (x = x + 1) is not before
        # it: the target is bound after the value is evaluated.
        statement = model.statement_of(use)
        same_statement: list[Binding] = []
        while before and model.statement_of(before[-1].node) is statement:
            same_statement.append(before.pop())
        if not before:
            return ordered
        reaching = self._straight_line(before, use)
        loop = model.loop_of(use)
        if loop is not None and self._killed_every_pass(reaching, use, loop):
            return reaching  # pn = p[...] at the top of the body: no earlier pass's value is left
        if loop is not None:
            outer = loop.outermost()
            later = same_statement + ordered[i:]
            reaching += [b for b in later if outer.contains(b.loop) or b.loop is outer]
            # bindings before the use but inside the same loop also reach it
            reaching += [b for b in before[:-1] if b.loop is not None and outer.contains(b.loop)]
        return reaching

    def _killed_every_pass(self, reaching: list[Binding], use: ast.Name, loop: "LoopFrame") -> bool:
        """Does a binding that runs whenever ``use`` does sit in ``use``'s own
        loop body, ahead of it? Then every pass rebinds the name before the
        use, and what a later statement of the previous pass bound cannot
        reach it (``grad_ch = grad[:, :, i]`` ... ``grad_ch = v.reshape(...)``)."""
        last = reaching[-1]
        if len(reaching) != 1 or last.loop is not loop or last.kind is BindKind.AUG:
            return False
        # a statement of the loop's own body, not of a branch in it
        statement = self.model.statement_of(last.node)
        return statement is not None and any(s is statement for s in getattr(loop.node, "body", ()))

    def _straight_line(self, before: list[Binding], use: ast.Name) -> list[Binding]:
        """The last binding before ``use``, and the ones before it while the
        last is conditional: ``idx = range(n)`` in an ``if`` and
        ``idx = np.arange(n)`` in its ``else`` both reach a use after the
        ``if``. Stops at a binding that runs whenever the use does, or once
        both branches of one ``if`` are covered."""
        reaching = [before[-1]]
        use_chain = {id(a) for a in self.model.ancestors(use)}
        covered: set[tuple[int, str]] = set()
        blocks: set[tuple[int, int]] = set()  # straight-line blocks already represented
        for binding in reversed(before):
            branch = self._conditional_branch(binding, use_chain)
            if branch is None:
                # runs whenever the use runs: it reaches where the branches
                # after it did not run, and every binding before it is dead
                if binding is not reaching[0]:
                    reaching.append(binding)
                break
            block = self._block_key(binding)
            if block in blocks:
                continue  # a later binding of the same block replaces it
            blocks.add(block)
            if binding is not reaching[0]:
                reaching.append(binding)
            if_node, side = branch
            covered.add((if_node, side))
            if (if_node, "body") in covered and (if_node, "orelse") in covered:
                break
            if len(reaching) >= _MAX_BRANCH_BINDINGS:
                break
        return reaching

    def _block_key(self, binding: Binding) -> tuple[int, int]:
        """(parent statement, statement list) of the statement that binds."""
        model = self.model
        statement = model.statement_of(binding.node) or binding.node
        parent = model.parent(statement)
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and any(s is statement for s in block):
                return id(parent), id(block)
        return id(parent), id(statement)

    def _conditional_branch(self, binding: Binding, use_chain: set[int]) -> tuple[int, str] | None:
        """(id of the ``if``, "body"/"orelse") when ``binding`` sits in a branch
        that does not contain the use; (id of the statement, "other") for
        other conditional blocks (loops, ``try``); None when it is not
        conditional relative to the use."""
        child: ast.AST = binding.node
        for ancestor in self.model.ancestors(binding.node):
            if id(ancestor) in use_chain:
                return None
            if isinstance(ancestor, ast.If):
                side = "body" if any(s is child for s in ancestor.body) else "orelse" if any(s is child for s in ancestor.orelse) else None
                if side is not None:
                    return id(ancestor), side
            elif isinstance(ancestor, _CONDITIONAL_BLOCKS):
                if child is not getattr(ancestor, "target", None):
                    return id(ancestor), "other"
            child = ancestor
        return None
