"""Where a site repeats: its own loop, or the loop that calls its function.

The loop-context rules (host conversions, array branches, allocations,
stacking, reshapes) report a site that runs on every iteration of a hot
loop. That loop is the innermost hot loop around the site — or, for a site
outside every loop of its own function, the hot loop of the file that calls
that function on every iteration (``def step(u): buf = np.zeros(...)`` called
from the time loop). Messages name it the same way everywhere.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ..model import FileModel, LoopFrame
from ..model.loop_iterations import hot_loop
from ..model.syntax import name_key


@dataclass(frozen=True)
class LoopContext:
    """The hot loop that repeats a site, and how."""

    loop: LoopFrame  # the hot loop
    frame: LoopFrame | None  # the site's own innermost loop (None when reached through a call)
    call: ast.Call | None = None  # the call in ``loop`` when the site is in a helper
    function: str | None = None  # that helper's name

    @property
    def through_call(self) -> bool:
        return self.call is not None

    @property
    def line(self) -> int:
        return self.loop.line


def loop_context(model: FileModel, node: ast.AST, *, through_calls: bool = True) -> LoopContext | None:
    """The hot loop that runs ``node`` on every iteration, or None."""
    frame = model.loop_of(node)
    if frame is not None:
        hot = hot_loop(frame)
        return LoopContext(hot, frame) if hot is not None else None
    if not through_calls:
        return None
    found = model.calling_loop(node)
    if found is None:
        return None
    loop, call = found
    return LoopContext(loop, None, call, model.scope_of(node).function_like().name)


def runs_once(model: FileModel, frame: LoopFrame) -> bool:
    """Does no loop repeat ``frame``: none around it, none calling its function?"""
    return frame.parent is None and model.calling_loop(frame.node) is None


def where_text(context: LoopContext) -> str:
    """``inside the loop at line 12`` / ``in 'step', called every iteration of the loop at line 30``."""
    noun = "comprehension" if context.loop.is_comprehension else "loop"
    if context.through_call:
        return f"in '{context.function}', called every iteration of the {noun} at line {context.line}"
    return f"inside the {noun} at line {context.line}"


def loop_place(frame: LoopFrame) -> str:
    """``the loop at line 12`` or ``the comprehension at line 12``."""
    return f"the {'comprehension' if frame.is_comprehension else 'loop'} at line {frame.line}"


def describe_loop(model: FileModel, frame: LoopFrame) -> str:
    """``loop 'for step in range(n)' (line 3)`` and the like, for messages."""
    node = frame.node
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return f"loop 'for {model.segment(node.target, 20)} in {model.segment(node.iter, 30)}' (line {node.lineno})"
    if isinstance(node, ast.While):
        return f"'while' loop (line {node.lineno})"
    return f"comprehension (line {frame.line})"


# Container methods that keep the object handed to them.
_KEEPING_METHODS = frozenset({"append", "appendleft", "insert", "add", "put", "put_nowait", "setdefault"})


def key_text(expr: ast.AST) -> str | None:
    """``x`` or ``self.x`` as written, for a name or an attribute chain on one."""
    key = name_key(expr)
    return ".".join(key) if key is not None else None


def kept_each_iteration(model: FileModel, frame: LoopFrame, name: str) -> ast.AST | None:
    """Where the loop keeps the array ``name`` (``x`` or ``self.x``) holds
    in a container on its iterations (``rows.append(s)``, ``history[t] =
    s`` into a list or dict): each iteration's array is then needed
    afterwards, so a new one per iteration is the point, not waste. None
    when it does not."""
    candidates = model.nodes_in_loop(frame, ast.Attribute) if "." in name else model.nodes_in_loop(frame, ast.Name)
    for node in candidates:
        if key_text(node) != name or not isinstance(node.ctx, ast.Load):
            continue
        parent = model.parent(node)
        if isinstance(parent, ast.Call) and node in parent.args:
            func = parent.func
            if isinstance(func, ast.Attribute) and func.attr in _KEEPING_METHODS and model.qualname(func) is None \
                    and not model.kind(func.value).is_array:
                return parent  # hist.append(x), not np.add(x, 1.0, out=x)
        elif isinstance(parent, ast.Assign) and parent.value is node:
            for target in parent.targets:
                if isinstance(target, ast.Subscript) and not model.kind(target.value).is_array:
                    return parent  # history[t] = s into a list or a dict
        elif isinstance(parent, (ast.Yield, ast.YieldFrom)):
            return parent
    return None
