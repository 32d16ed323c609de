"""Worklist loops: ``while`` loops that take their next item from a container.

``while queue: node = queue.popleft()`` (BFS), ``while heap: heappop(heap)``
(Dijkstra, a priority flood fill) and ``while True:`` around a pop that ends
the loop when the container is empty all visit the data one item at a time,
in an order the items themselves decide. The cost model weighs such a loop as
sequential work and CPN410 reports the ones that push neighbours; both ask
:func:`worklist_queue`. Which worklist loops are graph traversals (pop a
node, push its neighbours) is decided here too, by :func:`traversal_frames`,
so the root-cause table of the rules and CPN410 read one answer without
importing each other.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .kinds import Kind
from .scopes import BindKind
from .syntax import names_in, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import LoopFrame

# `s = choice(pocket)` ... `pocket.remove(s)` takes an item as well as pop does (a Wolff cluster)
POPS = frozenset({"pop", "popleft", "popitem", "get", "remove", "discard"})
PUSHES = frozenset({"append", "appendleft", "extend", "add", "put"})
_HEAP_POP = "heapq.heappop"
_HEAP_PUSH = "heapq.heappush"
_NEIGHBOUR_WORDS = ("neighbo", "adj", "succ", "pred", "edge", "children")


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
    return any(_is_call_on(model, call, queue, POPS, _HEAP_POP) for call in model.nodes_in_loop(frame, ast.Call)) \
        or bool(_deleted_indices(model, frame, queue))


def _deleted_indices(model: "FileModel", frame: "LoopFrame", queue: str) -> set[str]:
    """The names ``del queue[i]`` removes by (an active list that drops the
    item it drew: ``p = points[i]; del points[i]``)."""
    found: set[str] = set()
    for stmt in model.nodes_in_loop(frame, ast.Delete):
        for target in stmt.targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == queue:
                found |= names_in(target.slice) or {""}
    return found


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


# ---------------------------------------------------------------- traversal
def traversal_frames(model: "FileModel") -> "list[LoopFrame]":
    """Worklist loops (``while q:``, or ``while True:`` around a pop) that
    pop a node from the queue and push its neighbours."""
    found: list[LoopFrame] = []
    for frame in model.loops:
        queue_node = worklist_queue(model, frame)
        if queue_node is None or model.kind(queue_node) is Kind.DEVICE:
            continue
        popped = _popped_names(model, frame, queue_node.id)
        if popped and _pushes_neighbours(model, frame, queue_node.id, popped):
            found.append(frame)
    return found


def _popped_names(model: "FileModel", frame: "LoopFrame", queue: str) -> set[str]:
    """The names a pass takes its item into: ``node = q.pop()``, or ``s =
    choice(pocket)`` / ``s = pocket[k]`` with ``pocket.remove(s)`` after it."""
    names: set[str] = set()
    removed = {a.id for call in model.nodes_in_loop(frame, ast.Call)
               if isinstance(call.func, ast.Attribute) and call.func.attr in ("remove", "discard")
               and isinstance(call.func.value, ast.Name) and call.func.value.id == queue
               for a in call.args if isinstance(a, ast.Name)}
    deleted = _deleted_indices(model, frame, queue)
    for stmt in model.nodes_in_loop(frame, ast.Assign):
        value = stmt.value
        taken = isinstance(value, ast.Call) and is_pop(model, value, queue)
        if not taken and removed and queue in names_in(value):
            taken = bool(names_in(stmt.targets[0]) & removed)  # s = choice(pocket) ... pocket.remove(s)
        if not taken and deleted and isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) \
                and value.value.id == queue:
            taken = bool(names_in(value.slice) & deleted)  # p = points[i] ... del points[i]
        if taken:
            for target in stmt.targets:
                names |= names_in(target)
    return names


def _pushes_neighbours(model: "FileModel", frame: "LoopFrame", queue: str, popped: set[str]) -> bool:
    for call in model.nodes_in_loop(frame, ast.Call):
        if not (is_push(model, call, queue) or _pushes_through_helper(model, call, queue)):
            continue
        inner = model.loop_of(call)
        while inner is not None and inner is not frame:
            node = inner.node
            if isinstance(node, (ast.For, ast.AsyncFor)) and any(
                    _iterates_neighbours(model, source, popped) for source in _sources(model, node.iter)):
                return True
            inner = inner.parent
    return False


def _pushes_through_helper(model: "FileModel", call: ast.Call, queue: str) -> bool:
    """``add_point(q)`` where the file's function appends to the same list
    (a closure's ``points.append(p)``, the name not its own)."""
    callee = model.calls.callee(call)
    if callee is None or queue in callee.bindings:
        return False
    return any(isinstance(node, ast.Call) and is_push(model, node, queue) for node in walk(callee.node))


def _sources(model: "FileModel", iterable: ast.expr) -> list[ast.expr]:
    """What a loop iterates: the expression, or what the name it iterates was
    bound to (``nb = lattice_steps(i, j); for a, b in nb``)."""
    if isinstance(iterable, ast.Name):
        values = [b.value for b in model.reaching_bindings(iterable) if b.kind is BindKind.VALUE and b.value is not None]
        return [iterable, *values]
    return [iterable]


def _iterates_neighbours(model: "FileModel", iterable: ast.expr, popped: set[str]) -> bool:
    """``adj[u]``, ``graph[u].items()``, ``adj.get(u, ())``, ``g.neighbors(u)``,
    or a function of the file called on the popped node (``lattice_steps(i,
    j)``), whatever it is called; not a library walk of folders or modules
    (``os.scandir(folder)``, ``dir(module)``). On a lattice: a literal list
    of the popped site's neighbours (``[(i + 1, j), (i, j + 1)]``) or a
    table of step offsets (``((1, 0), (0, 1), (-1, 0), (0, -1))``)."""
    if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)) and iterable.elts and (
            all(names_in(e) & popped for e in iterable.elts) or _offset_table(iterable)):
        return True
    for node in walk(iterable):
        if isinstance(node, ast.Subscript) and names_in(node.slice) & popped:
            return True
        if isinstance(node, ast.Call) and any(names_in(a) & popped for a in node.args):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name == "get" or any(word in name.lower() for word in _NEIGHBOUR_WORDS):
                return True
            if model.calls.function(func) is not None:
                return True
            if isinstance(func, ast.Name) and any(b.kind is BindKind.PARAM for b in model.reaching_bindings(func)):
                return True  # candidates drawn around the item by a sampler handed in (Bridson's hypersphere_sample)
    return False


def _offset_table(table: ast.List | ast.Tuple | ast.Set) -> bool:
    """Two or more same-length tuples of small integer literals."""
    rows = table.elts
    if len(rows) < 2 or not all(isinstance(r, (ast.Tuple, ast.List)) and r.elts for r in rows):
        return False
    width = len(rows[0].elts)  # type: ignore[attr-defined]
    return all(len(r.elts) == width and all(_small_int(v) for v in r.elts) for r in rows)  # type: ignore[attr-defined]


def _small_int(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int and abs(node.value) <= 3
