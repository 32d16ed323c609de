"""Is a name bound afresh in every iteration of a loop, before a given statement?

A name that each iteration binds anew (the loop's own target, or an
assignment that does not read the name, earlier in the iteration) carries
nothing from one iteration to the next: ``rows = np.r_[rows[0], rows]``
after ``rows = table[k]`` pads one iteration's value, it does not grow an
array across iterations, and ``acc = 1.0`` before ``acc *= x[i]`` in an
inner loop restarts the product for every outer iteration.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .syntax import walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import LoopFrame

_COMPOUND_BLOCKS = ("body", "orelse", "finalbody")


def fresh_in_iteration(model: "FileModel", stmt: ast.stmt, frame: "LoopFrame", name: str) -> bool:
    """Is ``name`` bound afresh earlier in the same iteration of ``frame`` —
    by the loop's own target, or by an assignment that does not read it,
    earlier in the block of ``stmt`` or of a statement enclosing it inside
    the loop (``with`` bodies and ``if``/``else`` pairs that both bind it
    count as such an assignment)?"""
    node = frame.node
    if isinstance(node, (ast.For, ast.AsyncFor)) and any(
        isinstance(n, ast.Name) and n.id == name for n in walk(node.target)
    ):
        return True
    child: ast.AST = stmt
    for ancestor in model.ancestors(stmt):
        if ancestor is not node and isinstance(ancestor, (ast.For, ast.AsyncFor)) and any(
            isinstance(n, ast.Name) and n.id == name for n in walk(ancestor.target)
        ):
            return True  # the target of a loop inside the frame: bound anew before each pass
        for block in _blocks(ancestor):
            if any(s is child for s in block):
                for earlier in block:
                    if earlier is child:
                        break
                    if binds_fresh(earlier, name):
                        return True
        if ancestor is node:
            return False
        child = ancestor
    return False


def binds_fresh(stmt: ast.stmt, name: str) -> bool:
    """Does ``stmt`` always bind ``name`` to a value that does not read it?"""
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        if stmt.value is None:
            return False
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        binds = any(isinstance(n, ast.Name) and n.id == name for t in targets for n in walk(t))
        return binds and not any(isinstance(n, ast.Name) and n.id == name for n in walk(stmt.value))
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return _block_binds_fresh(stmt.body, name)
    if isinstance(stmt, ast.If):
        # Only when both branches bind it (an `if` without `else` may not run).
        return bool(stmt.orelse) and _block_binds_fresh(stmt.body, name) and _block_binds_fresh(stmt.orelse, name)
    return False


def _block_binds_fresh(block: list[ast.stmt], name: str) -> bool:
    for stmt in block:
        if binds_fresh(stmt, name):
            return True
        if _mentions(stmt, name):
            return False  # read (or rebound from itself) before any fresh binding
    return False


def _mentions(stmt: ast.stmt, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in walk(stmt))


def _blocks(node: ast.AST) -> list[list[ast.stmt]]:
    return [getattr(node, field) for field in _COMPOUND_BLOCKS if isinstance(getattr(node, field, None), list)]
