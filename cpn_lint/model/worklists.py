"""Worklist loops: ``while`` loops that take their next item from a container.

``while queue: node = queue.popleft()`` (BFS), ``while heap: heappop(heap)``
(Dijkstra, a priority flood fill) and ``while True:`` around a pop that ends
the loop when the container is empty all visit the data one item at a time,
in an order the items themselves decide. The cost model weighs such a loop as
sequential work and CPN410 reports the ones that push neighbours; both ask
:func:`worklist_queue`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .scopes import BindKind

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import LoopFrame

POPS = frozenset({"pop", "popleft", "popitem", "get"})
PUSHES = frozenset({"append", "appendleft", "extend", "add", "put"})
_HEAP_POP = "heapq.heappop"
_HEAP_PUSH = "heapq.heappush"


def worklist_queue(model: "FileModel", frame: "LoopFrame") -> ast.Name | None:
    """The container ``frame`` pops its work from: the one its test reads
    (``while q``, ``while len(q) > 0``, ``while q != []``) or, for
    ``while True:``, the one container its body pops from. None when the
    loop is not a worklist."""
    node = frame.node
    if not isinstance(node, ast.While):
        return None
    named = queue_in_test(node.test)
    if named is not None:
        return named if pops_from(model, frame, named.id) else None
    if not (isinstance(node.test, ast.Constant) and node.test.value):
        return None
    popped = {id(c): c for c in model.nodes_in_loop(frame, ast.Call) if _popped_container(model, c) is not None}
    names = {_popped_container(model, c).id for c in popped.values()}  # type: ignore[union-attr]
    if len(names) != 1:
        return None
    return next(_popped_container(model, c) for c in popped.values())  # type: ignore[return-value]


def queue_in_test(test: ast.expr) -> ast.Name | None:
    """``while q``, ``while len(q)``, ``while len(q) > 0``, ``while q != []``."""
    if isinstance(test, ast.Compare) and len(test.comparators) == 1:
        test = test.left
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "len" and len(test.args) == 1:
        test = test.args[0]
    return test if isinstance(test, ast.Name) else None


def pops_from(model: "FileModel", frame: "LoopFrame", queue: str) -> bool:
    return any(_is_call_on(model, call, queue, POPS, _HEAP_POP) for call in model.nodes_in_loop(frame, ast.Call))


def is_pop(model: "FileModel", call: ast.Call, queue: str) -> bool:
    return _is_call_on(model, call, queue, POPS, _HEAP_POP)


def is_push(model: "FileModel", call: ast.Call, queue: str) -> bool:
    return _is_call_on(model, call, queue, PUSHES, _HEAP_PUSH)


def _popped_container(model: "FileModel", call: ast.Call) -> ast.Name | None:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in ("pop", "popleft") and isinstance(func.value, ast.Name):
        return func.value
    if _function_name(model, func) == _HEAP_POP and call.args and isinstance(call.args[0], ast.Name):
        return call.args[0]
    return None


def _is_call_on(model: "FileModel", call: ast.Call, queue: str, methods: frozenset[str], heap: str) -> bool:
    """``queue.pop()`` (a method in ``methods``), or ``heappop(queue)``
    however the heap function is reached (``get = heapq.heappop``)."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in methods and isinstance(func.value, ast.Name) and func.value.id == queue:
        return True
    return _function_name(model, func) == heap and bool(call.args) and isinstance(call.args[0], ast.Name) and call.args[0].id == queue


def _function_name(model: "FileModel", func: ast.expr) -> str | None:
    """The qualified name of the function ``func`` calls, through a local
    alias every binding of which names it (``get = heapq.heappop``)."""
    name = model.qualname(func)
    if name is not None or not isinstance(func, ast.Name):
        return name
    bindings = model.reaching_bindings(func)
    names = {model.qualname(b.value) if b.kind is BindKind.VALUE and isinstance(b.value, (ast.Name, ast.Attribute)) else None
             for b in bindings}
    return names.pop() if len(names) == 1 else None
