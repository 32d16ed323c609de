"""State kept on the object: ``self.x`` carried from one pass of a loop to
the next (a mixin of :class:`~cpn_lint.model.state_recurrences.StateRecurrences`).

A method's loop that updates ``self.level`` from itself, a walker whose
position is an attribute another method moves, the dotted names a value
reads (inside the methods it calls on the same object too): what the
recurrence analyses need to treat an attribute of the receiver like a
plain name.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .branch_numbers import BranchNumbers
from .kinds import Kind
from .recurrence_forms import Recurrence, offset_of
from .spatial import direction
from .shapes import literal_size
from .syntax import walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import LoopFrame, Scope


class ObjectState:
    """The object's attributes as carried state."""

    model: "FileModel"

    def _attribute_stores_before(self, frame: "LoopFrame", read: ast.Attribute) -> list[ast.Assign]:
        """The stores ``self.x = ...`` to the object's attribute ``read`` reads
        that the same pass of ``frame`` made before it."""
        key = self._own_attribute(read)
        if key is None:
            return []
        return [stmt for stmt in self.model.nodes_in_loop(frame, ast.Assign)
                if len(stmt.targets) == 1 and self._own_attribute(stmt.targets[0]) == key
                and (stmt.lineno, stmt.col_offset) < (read.lineno, read.col_offset)]

    def _accumulated_own_state(self, stmt: ast.stmt) -> list[tuple[str, ast.expr]]:
        """(``self.w``, term) for ``self.w += term`` in a method, and for each
        other term of ``self.S = self.S - self.E + self.P``: the object's own
        state added to, keyed by its dotted name."""
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            key = self._own_attribute(stmt.targets[0])
            terms = _other_terms(stmt.value, key) if key is not None else None
            return [(key, term) for term in terms or ()]  # type: ignore[misc]
        if not (isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, (ast.Add, ast.Sub))):
            return []
        key = self._own_attribute(stmt.target)
        if key is None:
            return []
        return [] if key in self._attribute_reads(stmt.value) else [(key, stmt.value)]

    def _own_attribute(self, target: ast.expr) -> str | None:
        """``self.w`` as a dotted name, when ``target`` is an attribute of the method's receiver."""
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
            return None
        return f"{target.value.id}.{target.attr}" if self.model.calls.is_receiver_name(target.value) else None

    def _attribute_reads(self, node: ast.AST) -> set[str]:
        """Dotted names (``self.w``) ``node`` reads, also inside the methods of
        the file it calls on the same object (``self.predict(x)`` reads
        ``self.w``)."""
        found: set[str] = set()
        for sub in walk(node):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and isinstance(sub.ctx, ast.Load):
                found.add(f"{sub.value.id}.{sub.attr}")
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and isinstance(sub.func.value, ast.Name):
                callee = self.model.calls.callee(sub)
                if callee is None or not callee.params:
                    continue
                own = callee.params[0]
                for inner in walk(callee.node):
                    if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and inner.value.id == own \
                            and isinstance(inner.ctx, ast.Load):
                        found.add(f"{sub.func.value.id}.{inner.attr}")
        return found

    def _attribute_array_recurrences(self, frame: "LoopFrame") -> list[Recurrence]:
        """``self.s[t + 1] = self.s[t] + self.ds[t] / z``: an array kept on the
        object whose element each pass writes from the one an earlier pass
        wrote (one index, the loop's own, offset by a constant), the object's
        ``y[n]`` from ``y[n - 1]``."""
        model = self.model
        node = frame.node
        if not isinstance(node, (ast.For, ast.AsyncFor)) or not isinstance(node.target, ast.Name):
            return []
        var = node.target.id
        step = direction(model, frame, var)
        for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign):
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else getattr(stmt, "target", None)
            if not isinstance(target, ast.Subscript) or self._own_attribute(target.value) is None:
                continue
            written = offset_of(target.slice, var)
            if written is None or not model.is_array(target.value):
                continue
            key = _dotted(target.value)
            reads = [target] if isinstance(stmt, ast.AugAssign) else []
            reads += [n for n in walk(stmt.value) if isinstance(n, ast.Subscript)]  # type: ignore[attr-defined]
            for read in reads:
                if read is target or _dotted(read.value) != key:
                    continue
                offset = offset_of(read.slice, var)
                if offset is not None and (written - offset) * step >= 1:
                    return [Recurrence(frame, stmt, key, key, "element")]  # type: ignore[arg-type]
        return []

    def _few_numbers_on_object(self, stmt: ast.stmt, key: str, frame: "LoopFrame") -> bool:
        """Is the dotted ``key`` (``self.aux``) that ``stmt`` updates a number,
        or a few: by how the class's loops use it (``max(self.base, self.aux)``,
        see :mod:`.branch_numbers`), or by every value the class gives it
        (``self.t = 0.0``)?"""
        target = stmt.target if isinstance(stmt, ast.AugAssign) else stmt.targets[0] if isinstance(stmt, ast.Assign) else None
        if "." not in key or not isinstance(target, ast.Attribute) or _dotted(target) != key:
            return False
        if key in self.model.derived(BranchNumbers, BranchNumbers).of(frame):
            return True
        bindings = self.model.class_attribute_bindings(target)
        if not bindings:
            return False
        for binding in bindings:
            value = binding.value
            if value is None:
                return False
            if self.model.kind(value) in (Kind.SCALAR, Kind.DEVICE_SCALAR):
                continue
            size = literal_size(self.model.shape(value))
            if size is None or size > _FEW_COORDINATES:
                return False
        return True

    def _attribute_walkers(self, frame: "LoopFrame") -> list[Recurrence]:
        """A walker kept on the object (``self.pos``): the loop calls methods
        of the same class, one of which moves the position from where it was
        (``new_pos = self.pos + move`` ... ``self.pos = new_pos``), and the
        loop or those methods pick elements of an array with it
        (``self.lattice[self.pos[0], self.pos[1]]``). Each step starts where
        the last ended, whichever method moved it."""
        methods = self._methods_called(frame)
        if not methods:
            return []
        bodies = [frame.node, *(m.node for m in methods)]
        for method in methods:
            assignments = [n for n in ast.walk(method.node) if isinstance(n, (ast.Assign, ast.AugAssign))]
            local = {n.targets[0].id: n.value for n in assignments
                     if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)}
            for stmt in assignments:
                attr = _self_attribute_moved(stmt, local)
                if attr is None or not self._small_attribute(stmt, attr):
                    continue
                picked = _attribute_picks(bodies, attr)
                if picked is not None:
                    return [Recurrence(frame, stmt, picked, attr, "walker")]
        return []

    def _methods_called(self, frame: "LoopFrame") -> "list[Scope]":
        """The methods of the enclosing class the loop calls on ``self``."""
        model = self.model
        found: "list[Scope]" = []
        for call in model.nodes_in_loop(frame, ast.Call):
            func = call.func
            if not _is_self_attribute(func):
                continue
            callee = model.calls.callee(call)
            if callee is not None and callee not in found:
                found.append(callee)
        return found

    def _small_attribute(self, stmt: ast.stmt, attr: str) -> bool:
        """Is ``self.<attr>`` a few numbers, by every value the class gives it?"""
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target  # type: ignore[attr-defined]
        bindings = self.model.class_attribute_bindings(target) if isinstance(target, ast.Attribute) else None
        if not bindings:
            return False
        sizes = [literal_size(self.model.shape(b.value)) if b.value is not None else None for b in bindings]
        known = [size for size in sizes if size is not None]
        return bool(known) and max(known) <= _FEW_COORDINATES


# A position of at most this many coordinates (a walker on a 2-D or 3-D lattice).
_FEW_COORDINATES = 4


def _other_terms(value: ast.expr, key: str) -> list[ast.expr] | None:
    """The terms of an additive chain (or factors of a product) beside its
    one leaf ``key`` (a dotted name, added or multiplied, not subtracted or
    divided by), when no other term reads it: ``self.S - self.E + self.P``
    gives ``[self.E, self.P]``, ``self.x * np.exp(-k * dt)`` gives the
    exponential; anything else None."""
    if not isinstance(value, ast.BinOp):
        return None
    family: tuple[type, type] = (ast.Add, ast.Sub) if isinstance(value.op, (ast.Add, ast.Sub)) else (ast.Mult, ast.Div)
    if not isinstance(value.op, family):
        return None
    leaves: list[tuple[ast.expr, bool]] = []  # (term, inverted: subtracted or divided by)

    def flatten(node: ast.expr, inverted: bool) -> None:
        if isinstance(node, ast.BinOp) and isinstance(node.op, family):
            flatten(node.left, inverted)
            flatten(node.right, inverted != isinstance(node.op, (ast.Sub, ast.Div)))
        else:
            leaves.append((node, inverted))

    flatten(value, False)
    own = [(leaf, inverted) for leaf, inverted in leaves if _dotted(leaf) == key]
    others = [leaf for leaf, _ in leaves if _dotted(leaf) != key]
    if len(own) != 1 or own[0][1] or any(_dotted(n) == key for leaf in others for n in walk(leaf)):
        return None
    return others


def _dotted(node: ast.AST) -> str | None:
    return f"{node.value.id}.{node.attr}" if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) else None


def _is_self_attribute(node: ast.AST, attr: str | None = None) -> bool:
    """``self.<attr>`` (any attribute of ``self`` when ``attr`` is None)."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" \
        and (attr is None or node.attr == attr)


def _self_attribute_moved(stmt: ast.stmt, local: dict[str, ast.expr]) -> str | None:
    """``self.pos = new_pos`` after ``new_pos = self.pos + move`` (or
    ``self.pos = self.pos + move``, ``self.pos += move``): the attribute a
    method moves from its own last value (``local``: the method's plain
    assignments, by name)."""
    target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else getattr(stmt, "target", None)
    if not _is_self_attribute(target):
        return None
    attr = target.attr  # type: ignore[union-attr]
    if isinstance(stmt, ast.AugAssign):
        return attr
    sources = [stmt.value]  # type: ignore[attr-defined]
    seen: set[str] = set()
    while sources:
        value = sources.pop()
        for node in walk(value):
            if _is_self_attribute(node, attr) and isinstance(node.ctx, ast.Load):  # type: ignore[attr-defined]
                return attr
            if isinstance(node, ast.Name) and node.id in local and node.id not in seen:
                seen.add(node.id)
                sources.append(local[node.id])
    return None


def _attribute_picks(bodies: list[ast.AST], attr: str) -> str | None:
    """The array whose elements ``self.<attr>`` picks in any of ``bodies``
    (``self.lattice[self.pos[0], self.pos[1]]``), by attribute name."""
    for body in bodies:
        for sub in ast.walk(body):
            if not isinstance(sub, ast.Subscript):
                continue
            base = sub.value
            if isinstance(base, ast.Attribute) and base.attr == attr:
                continue
            if any(_is_self_attribute(n, attr) for n in ast.walk(sub.slice)):
                return base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else attr
    return None
