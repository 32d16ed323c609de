"""A fixpoint solver for the model's per-file tables (kinds and shapes of
bindings, return summaries, small arrays, random draws).

Every table the value engine keeps is a system of equations: a binding's
kind is a function of the kinds of the bindings its value reads, a
parameter's of what the call sites pass, a function's return summary of its
``return`` statements. Names feed each other (``u = step(u)`` in a loop, a
helper's parameter fed by the helper's own result), so the system has
cycles. This module solves such a system with a top-down solver (the
family of Le Charlier and Van Hentenryck's, as Seidl et al. describe it):

* a variable is solved on first demand: its transfer function runs, and
  every variable it reads is solved first, so acyclic dependencies are
  decided in dependency order, each once;
* a variable read while it is being solved (a cycle) gives its current
  value, BOTTOM ("no information yet") at first, and the reader is noted;
  whenever a value changes, its readers are solved again, so a cycle is
  iterated until nothing changes (its strongly connected component reaches
  a fixpoint);
* a variable that keeps changing (a transfer function that is not monotone
  where the cycle runs) is settled to TOP after ``max_changes`` changes;
  the caller may settle what a cycle leaves at BOTTOM the same way
  (:meth:`Solver.settle`), its readers then solved again;
* nesting is bounded: past ``max_depth`` nested solves a variable is queued
  and solved afterwards, its readers again once it changes (the same
  iteration, in a fixed order), so long chains do not exhaust the stack.

For a monotone system the result is its least fixpoint, whatever order
the variables are asked in. For the kind/shape system, whose transfer
functions are monotone in BOTTOM but not everywhere else, the value engine
solves every variable of the file at once, in source order, before it
answers any question: the solve then depends on the file alone.
"""

from __future__ import annotations

import sys
from collections import deque
from contextlib import contextmanager
from typing import Callable, Generic, Hashable, Iterable, Iterator, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
T = TypeVar("T")

MAX_CHANGES = 12  # changes of one variable before it settles to TOP
MAX_DEPTH = 24  # nested solves before a variable is queued instead
_HEADROOM = 3000  # Python frames the solve may use above where it starts


class Solver(Generic[K, V]):
    """Solves variables on demand; see the module docstring.

    ``evaluate(key)`` computes a variable's value from the values it reads
    through :meth:`value`. Keys are hashed by identity (AST nodes, bindings,
    scopes); nothing iterates a set of them, so the order of the solve is
    the order of the questions and of the readers noted, both fixed by the
    file."""

    def __init__(self, evaluate: Callable[[K], V], bottom: V, top: V,
                 max_changes: int = MAX_CHANGES, max_depth: int = MAX_DEPTH) -> None:
        self._evaluate = evaluate
        self.bottom = bottom
        self.top = top
        self._max_changes = max_changes
        self._max_depth = max_depth
        self._values: dict[K, V] = {}
        self._stable: set[K] = set()
        self._called: set[K] = set()
        self._readers: dict[K, dict[K, None]] = {}  # insertion-ordered sets
        self._changes: dict[K, int] = {}
        self._settled: set[K] = set()
        self._stack: list[K] = []
        self._queued: deque[K] = deque()
        self.epoch = 0  # how many values have changed: memos of derived answers are valid within one epoch
        self.evaluations = 0

    # ----------------------------------------------------------- reading
    def value(self, key: K) -> V:
        """``key``'s value for the evaluation under way (solved first when
        it is not yet); the evaluating variable is noted as its reader."""
        if key not in self._stable and key not in self._called:
            self.solve(key)
        stack = self._stack
        if stack:
            readers = self._readers.get(key)
            if readers is None:
                self._readers[key] = {stack[-1]: None}
            else:
                readers[stack[-1]] = None
        return self._values.get(key, self.bottom)

    def known(self, key: K) -> V:
        """``key``'s current value, without solving or noting a reader."""
        return self._values.get(key, self.bottom)

    @property
    def busy(self) -> bool:
        """Is a variable being evaluated (answers are provisional)?"""
        return bool(self._stack)

    # ----------------------------------------------------------- solving
    def solve(self, key: K) -> None:
        if key in self._stable or key in self._called:
            return
        if len(self._stack) >= self._max_depth:
            self._queued.append(key)  # solved by drain(); its readers follow
            return
        self._called.add(key)
        self._stack.append(key)
        try:
            while True:
                self._stable.add(key)
                if key in self._settled:
                    break
                self.evaluations += 1
                try:
                    new = self._evaluate(key)
                except RecursionError:
                    new = self.top  # a pathologically deep expression: know nothing
                if new != self._values.get(key, self.bottom):
                    self._change(key, new)
                if key in self._stable:
                    break
        finally:
            self._stack.pop()
            self._called.discard(key)

    def _change(self, key: K, new: V) -> None:
        count = self._changes.get(key, 0) + 1
        self._changes[key] = count
        if count > self._max_changes:
            new = self.top  # not converging: settle, the same way every time
            self._settled.add(key)
        self._values[key] = new
        self.epoch += 1
        readers = self._readers.pop(key, None)
        if not readers:
            return
        for reader in readers:
            self._stable.discard(reader)
        for reader in readers:
            if reader not in self._called:
                self.solve(reader)  # readers being evaluated loop once they finish

    def settle(self, key: K, value: V) -> None:
        """Fix ``key`` to ``value`` for good (a cycle the solve left at
        BOTTOM is unknown), and solve its readers again."""
        self._settled.add(key)
        self._stable.add(key)
        if value != self._values.get(key, self.bottom):
            self._values[key] = value
            self.epoch += 1
            readers = self._readers.pop(key, None)
            for reader in readers or ():
                self._stable.discard(reader)
            for reader in readers or ():
                self.solve(reader)
        self.drain()

    def sources(self, waiting: list[K]) -> list[K]:
        """Of ``waiting`` (in the caller's order), one variable of each
        strongly connected component that no other waiting variable feeds:
        where a cycle without information starts, before what it feeds."""
        index = {key: i for i, key in enumerate(waiting)}
        edges: list[list[int]] = [[index[r] for r in self._readers.get(key, ()) if r in index] for key in waiting]
        component = _components(edges)
        fed = set()
        for i, targets in enumerate(edges):
            for j in targets:
                if component[j] != component[i]:
                    fed.add(component[j])
        chosen: dict[int, K] = {}
        for i, key in enumerate(waiting):
            if component[i] not in fed and component[i] not in chosen:
                chosen[component[i]] = key
        return list(chosen.values())

    def settled(self, ask: Callable[[], T]) -> T:
        """``ask()`` asked again until no value it solved changed meanwhile
        (variables queued past the nesting bound drained each time): an
        answer that does not rest on a value the question itself revised."""
        while True:
            epoch = self.epoch
            found = ask()
            self.drain()
            if self.epoch == epoch:
                return found

    def drain(self) -> None:
        """Solve the variables queued past the nesting bound."""
        queued = self._queued
        while queued:
            self.solve(queued.popleft())

    def solve_all(self, keys: Iterable[K]) -> None:
        """Solve ``keys`` in the given order (and everything they read)."""
        with headroom():
            for key in keys:
                self.solve(key)
                self.drain()


@contextmanager
def headroom() -> Iterator[None]:
    """Give the solve the same number of Python frames wherever it starts:
    whether a deep expression exhausts the stack (and is then unknown)
    must not depend on how deep in a rule the first question was asked."""
    depth = 0
    frame = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back  # type: ignore[assignment]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + _HEADROOM)
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def _components(edges: list[list[int]]) -> list[int]:
    """Strongly connected components of a graph given as adjacency lists
    (Tarjan's algorithm, iterative): a component number per vertex."""
    count = len(edges)
    order = [-1] * count
    low = [0] * count
    component = [-1] * count
    stack: list[int] = []
    on_stack = [False] * count
    counter = 0
    found = 0
    for root in range(count):
        if order[root] != -1:
            continue
        work = [(root, 0)]
        while work:
            vertex, position = work.pop()
            if position == 0:
                order[vertex] = low[vertex] = counter
                counter += 1
                stack.append(vertex)
                on_stack[vertex] = True
            targets = edges[vertex]
            while position < len(targets):
                target = targets[position]
                position += 1
                if order[target] == -1:
                    work.append((vertex, position))
                    work.append((target, 0))
                    break
                if on_stack[target]:
                    low[vertex] = min(low[vertex], order[target])
            else:
                if low[vertex] == order[vertex]:
                    while True:
                        member = stack.pop()
                        on_stack[member] = False
                        component[member] = found
                        if member == vertex:
                            break
                    found += 1
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[vertex])
    return component
