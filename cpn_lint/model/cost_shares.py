"""Which share of the projected time a cost site is (:class:`CostShares`).

A site counts as element-loop, sequential, library, host-sync, whole-array
or host time by the strongest reason among the loops around it (a
recurrence or a worklist makes it sequential, an element loop element
work) and the call itself. A mixin of :class:`~cpn_lint.model.cost.CostModel`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Iterable

from .cost_terms import Counts, Share
from .dependence import Role
from .integrators import small_state_chain
from .recurrence_forms import scan_form
from .scopes import LoopFrame, Scope, ScopeKind

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel



class CostShares:
    """The share of the time a site's work is, from the loops around it."""

    model: "FileModel"

    # ----------------------------------------------------------- categories
    def _share_of(self, node: ast.AST, frame: LoopFrame | None, counts: Counts) -> Share:
        scope = self.model.scope_of(node).function_like()
        key = (id(frame), id(scope.node))
        if key not in self._loop_shares:
            self._loop_shares[key] = self._loop_share(frame, scope)
        share = self._loop_shares[key]
        if share is not None:
            return share
        if isinstance(node, ast.Call) and small_state_chain(self.model, node) is not None:
            return Share.SEQUENTIAL
        if counts.library:
            return Share.LIBRARY
        if counts.syncs:
            return Share.HOST_SYNC
        if counts.launches:
            return Share.WHOLE_ARRAY
        return Share.HOST

    def _loop_share(self, frame: LoopFrame | None, scope: Scope) -> Share | None:
        """SEQUENTIAL or ELEMENT_LOOP when a loop that repeats the code (its
        own, or one calling its function) is such a loop; else None."""
        if self.recursive_traversal(scope):
            return Share.SEQUENTIAL
        loops = list(self._frames_of(frame, scope))
        for depth, loop in enumerate(loops):
            role = self.model.role(loop)
            if role is Role.RECURRENCE and self._only_scans(loop):
                return Share.ELEMENT_LOOP  # a running sum: one np.cumsum call, not sequential work
            if role is Role.RECURRENCE and any(self.model.role(outer) is Role.ELEMENT_LOOP for outer in loops[depth + 1:]):
                # an escape-time iteration per pixel: vectorised across the
                # pixels, the recurrence steps a whole slab at a time
                return Share.ELEMENT_LOOP
            if role is Role.RECURRENCE or self.is_worklist(loop) or self._starts_traversals(loop):
                return Share.SEQUENTIAL
            if role is Role.ELEMENT_LOOP and any(self._orders_its_passes(outer) for outer in loops[depth + 1:]):
                # the inner products of a Levinson step: vectorised, each one
                # is still a step of the order recurrence around it
                return Share.SEQUENTIAL
            if role is Role.ELEMENT_LOOP:
                return Share.ELEMENT_LOOP
        return None

    def _orders_its_passes(self, frame: LoopFrame) -> bool:
        """A recurrence (not a running sum) along the data that each pass of
        the loops inside it must wait for. (One of a few steps, Burg's loop
        over the model order, leaves its per-sample loops parallel.)"""
        if self.model.role(frame) is not Role.RECURRENCE or self._only_scans(frame):
            return False
        return any(exponent > 0 for exponent, _ in self.trips(frame))

    def _only_scans(self, frame: LoopFrame) -> bool:
        recurrences = self.model.recurrences(frame)
        return bool(recurrences) and all(scan_form(self.model, r, frame) for r in recurrences)

    def _starts_traversals(self, frame: LoopFrame) -> bool:
        """Does the loop call a recursive traversal (a flood fill from each cell)?"""
        key = id(frame)
        known = self._starters.get(key)
        if known is None:
            callees = (self.model.calls.callee(call) for call in self.model.nodes_in_loop(frame, ast.Call))
            known = self._starters[key] = any(c is not None and self.recursive_traversal(c) for c in callees)
        return known

    def _frames_of(self, frame: LoopFrame | None, scope: Scope) -> Iterable[LoopFrame]:
        """The loops that repeat code in ``frame`` of ``scope``: its own, and
        those that call its function."""
        if frame is not None:
            yield from frame.chain()
        seen = {id(scope.node)}
        while scope.kind is ScopeKind.FUNCTION:
            calling = self.model.calls.calling_loop(scope)
            if calling is None:
                return
            loop, call = calling
            yield from loop.chain()
            scope = self.model.scope_of(call).function_like()
            if id(scope.node) in seen:
                return
            seen.add(id(scope.node))

    def _outermost_loop(self, stmt: ast.stmt) -> LoopFrame | None:
        frame = self.model.loop_of(stmt)
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            frame = self.model.loop_for_node(stmt) or frame
        if frame is None:
            return None
        scope = self.model.scope_of(stmt).function_like()
        outer = frame
        for candidate in frame.chain():
            if candidate.scope.function_like() is scope:
                outer = candidate
        return outer


_STRENGTH = {Share.LIBRARY: 5, Share.SEQUENTIAL: 4, Share.ELEMENT_LOOP: 3, Share.HOST_SYNC: 2, Share.WHOLE_ARRAY: 1, Share.HOST: 0}


def _stronger(a: Share, b: Share) -> Share:
    return a if _STRENGTH[a] >= _STRENGTH[b] else b
