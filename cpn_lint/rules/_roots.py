"""Root causes: one finding per loop nest, whatever else is inside it.

A Python loop that walks data element by element (CPN101) or carries
element-sized state from one pass to the next (a CPN410 recurrence) is the
thing to fix; the host conversions, scalar branches, builtin reductions and
item-by-item iterations inside it (CPN104, CPN105, CPN110, CPN103) go with
it when the loop becomes whole-array code. Those element-level findings are
*folded* into the loop's finding: counted in its message and data, not
listed again. A branch on a whole-array value (``if np.any(u < 0)``) is
not element-level and stays a finding of its own.

Which loops are root causes is decided here, once per file, from the model
(:func:`root_loops`), and both the root rules and the folded ones read it,
so the findings of every code are the same whatever codes are selected.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

from ..model import FileModel, IterKind, LoopFrame, Role
from ..model.compiled import compiled_function_at
from ..model.cost import walks_data_unevenly
from ..model.scopes import BindKind, ScopeKind
from ..model.worklists import traversal_frames
from . import load_rules
from ..model.syntax import names_in, walk

if TYPE_CHECKING:  # pragma: no cover
    from ..findings import Finding
    from ..model.scopes import Scope

ELEMENT_LOOP = "CPN101"
RECURRENCE = "CPN410"
ITEMS = "CPN103"  # a loop over a device array's items: tests on the item go with it
# code -> (one, several): how a root loop's message counts what it folded
FOLDED_CODES: dict[str, tuple[str, str]] = {
    "CPN105": ("scalar branch", "scalar branches"),
    "CPN104": ("host conversion", "host conversions"),
    "CPN110": ("builtin reduction", "builtin reductions"),
    "CPN103": ("item-by-item iteration", "item-by-item iterations"),
}
# a test on one of these reads a whole array: not element-level
_WHOLE_ARRAY_TESTS = frozenset({"sum", "max", "min", "mean", "any", "all", "amax", "amin", "prod", "std", "var",
                                "linalg.norm", "allclose", "array_equal", "count_nonzero", "nanmax", "nanmin"})


@dataclass(frozen=True)
class RootLoop:
    """The outermost loop of a nest reported as a root cause."""

    code: str
    frame: LoopFrame

    @property
    def first_line(self) -> int:
        return self.frame.node.lineno  # type: ignore[attr-defined,no-any-return]

    @property
    def last_line(self) -> int:
        node = self.frame.node
        return getattr(node, "end_lineno", None) or node.lineno  # type: ignore[attr-defined,no-any-return]

    def holds(self, line: int) -> bool:
        """Is ``line`` in the loop's body? (its own header, a ``while`` test
        included, is not part of what vectorising the body removes)"""
        return self.first_line < line <= self.last_line


def element_loop_nests(model: FileModel) -> list[LoopFrame]:
    """The outermost element loop of each nest (CPN101's findings); none
    inside another one, nor inside a recurrence (an IIR filter's taps), nor
    in a helper an element loop runs every iteration (the taps of a
    per-pixel helper belong to the pixel loop's nest)."""
    return model.derived("root-element-loops", _element_loop_nests)


def _element_loop_nests(model: FileModel) -> list[LoopFrame]:
    if not model.uses_numpy():
        return []
    reported: list[LoopFrame] = []
    taken: set[int] = set()
    for frame in model.loops:  # outer loops come before the loops they contain
        if model.role(frame) is not Role.ELEMENT_LOOP:
            continue
        outers = frame.chain()[1:]
        if any(id(outer) in taken for outer in outers):
            continue
        if any(model.role(outer) is Role.RECURRENCE for outer in outers):
            continue
        if _run_by_element_loop(model, frame):
            continue  # helper(i, j) of a per-pixel loop: its tap loop is part of that nest
        taken.add(id(frame))
        reported.append(frame)
    return reported


def recurrence_loops(model: FileModel) -> list[LoopFrame]:
    """The outermost recurrence loop of each nest (CPN410's recurrence
    findings); none inside an element loop, nor in a helper an element loop
    runs every iteration (a bisection per row): vectorising that loop runs
    the recurrences side by side, so it is CPN101's — unless the recurrence
    steps through the data's samples as its own state decides (a timing
    loop that skips or repeats a sample): copies of it cannot run in step."""
    return model.derived("root-recurrence-loops", _recurrence_loops)


def _recurrence_loops(model: FileModel) -> list[LoopFrame]:
    if not model.uses_numpy():
        return []
    reported: list[LoopFrame] = []
    for frame in model.loops:
        if model.role(frame) is not Role.RECURRENCE:
            continue
        if any(done.contains(frame) for done in reported):
            continue
        along_the_data = walks_data_unevenly(model, frame)
        if any(model.role(outer) is Role.ELEMENT_LOOP for outer in frame.chain()[1:]) and not along_the_data:
            continue
        if _run_by_element_loop(model, frame) and not _chases_what_its_callers_write(model, frame) and not along_the_data:
            continue
        reported.append(frame)
    return reported


def _run_by_element_loop(model: FileModel, frame: LoopFrame) -> bool:
    """Is ``frame``'s function run every iteration of an element loop of the
    file (directly or through the helpers that call it)?"""
    outermost = frame.chain()[-1]
    found = model.calling_loop(outermost.node)
    return found is not None and any(model.role(loop) is Role.ELEMENT_LOOP for loop in found[0].chain())


def _chases_what_its_callers_write(model: FileModel, frame: LoopFrame) -> bool:
    """Does ``frame`` chase positions through a parameter array
    (``j = linked[j]``) that a caller of its function writes into
    (``linked[k] = j`` in union-find's ``union``)? Then the element loop that
    runs it changes the structure each iteration reads: its iterations are
    not independent, so vectorising it cannot run the chases side by side."""
    scope = model.scope_of(frame.node).function_like()
    if scope.kind is not ScopeKind.FUNCTION:
        return False
    carried = {rec.via for rec in model.recurrences(frame)}
    chased = {sub.value.id for sub in model.nodes_in_loop(frame, ast.Subscript)
              if isinstance(sub.value, ast.Name) and sub.value.id in scope.params
              and names_in(sub.slice) & carried}
    for call in model.calls.sites(scope):
        caller = model.scope_of(call).function_like()
        for param in chased:
            handed = model.calls.argument(call, scope, param)
            if isinstance(handed, ast.Name) and _stores_into(caller.node, handed.id):
                return True
    return False


def _stores_into(function: ast.AST, name: str) -> bool:
    """``name[...] = ...`` (or ``+=``) anywhere in ``function``."""
    for node in walk(function):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AugAssign) else []
        if any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name for t in targets):
            return True
    return False


def traversal_loops(model: FileModel) -> list[LoopFrame]:
    """The worklist loops CPN410 reports as graph traversals (pop a node,
    push its neighbours): element-level work like a recurrence's."""
    return model.derived("root-traversal-loops", traversal_frames)


def root_loops(model: FileModel) -> list[RootLoop]:
    """Every root-cause loop of the file, in source order."""
    return model.derived("root-loops", lambda m: sorted(
        [RootLoop(ELEMENT_LOOP, f) for f in element_loop_nests(m)]
        + [RootLoop(RECURRENCE, f) for f in recurrence_loops(m) + traversal_loops(m)],
        key=lambda r: (r.first_line, r.code)))


def _roots_by_body_line(model: FileModel) -> dict[int, RootLoop]:
    """Each line of a root loop's body, and the root holding it (the first
    in source order where two nest): one table a file, so asking per
    finding stays linear in a file of thousands of loops."""
    def build(m: FileModel) -> dict[int, RootLoop]:
        table: dict[int, RootLoop] = {}
        for root in root_loops(m):
            for line in range(root.first_line + 1, root.last_line + 1):
                table.setdefault(line, root)
        return table

    return model.derived("roots-by-body-line", build)


def _roots_by_helper_line(model: FileModel) -> dict[int, RootLoop]:
    """Each line of a function a root loop runs every iteration (``dE =
    flip(s, i, j)`` in a Metropolis loop), and that root: the helper's
    scalar branches are the loop's per-element work, and go with it."""
    def build(m: FileModel) -> dict[int, RootLoop]:
        body = _roots_by_body_line(m)
        table: dict[int, RootLoop] = {}
        functions = [s for s in m.scopes if isinstance(s.node, (ast.FunctionDef, ast.AsyncFunctionDef))]
        functions.sort(key=lambda s: (s.node.end_lineno or s.node.lineno) - s.node.lineno)  # innermost first
        for scope in functions:
            found = m.calls.calling_loop(scope)
            root = body.get(found[1].lineno) if found is not None else None
            if root is None or not (root.code == ELEMENT_LOOP or _steps_one_site(m, root)):
                continue  # (a recurrence over whole arrays runs its helpers on whole arrays)
            for line in range(scope.node.lineno, (scope.node.end_lineno or scope.node.lineno) + 1):
                table.setdefault(line, root)
        return table

    return model.derived("roots-by-helper-line", build)


def _steps_one_site(model: FileModel, root: RootLoop) -> bool:
    """A Markov chain over the sites of an array: its helpers work on the
    site each step draws, one element at a time."""
    return any(r.form == "site" for loop in root.frame.chain()[:1] + model.loops_within(root.frame) for r in model.recurrences(loop))


def folding_root(model: FileModel, finding: "Finding") -> RootLoop | None:
    """The root loop ``finding`` is part of (in its body, or in a helper it
    runs every iteration), or None when it stands alone."""
    if finding.code not in FOLDED_CODES or finding.data.get("whole_array"):
        return None
    return _roots_by_body_line(model).get(finding.line) or _roots_by_helper_line(model).get(finding.line) \
        or item_root(model, finding.data.get("item_of"))


def item_loop_line(model: FileModel, node: ast.AST, value: ast.expr) -> int | None:
    """The line of the loop around ``node`` that walks a NumPy range
    (``for n in np.arange(nt)``) when ``value`` is arithmetic on its item
    alone (``n % 10 == 0``): a Python range in its place leaves a plain
    number, so the sync goes with the loop's own fix. None otherwise (a
    reduction of a row stays a sync whatever the loop walks)."""
    if any(isinstance(n, ast.Call) for n in walk(value)):
        return None
    names = {n.id for n in walk(value) if isinstance(n, ast.Name) and model.is_device(n)}
    if not names:
        return None
    frame = model.loop_of(node)
    while frame is not None:
        node_ = frame.node
        if frame.iter_kind is IterKind.ARRAY and names <= frame.element_vars and isinstance(node_, (ast.For, ast.AsyncFor)) \
                and walks_numpy_range(model, node_.iter):
            return node_.lineno
        frame = frame.parent
    return None


_RANGE_BUILDERS = frozenset({"arange", "linspace", "logspace", "geomspace"})


def walks_numpy_range(model: FileModel, expr: ast.expr) -> bool:
    """``np.arange(n)`` (also inside ``enumerate``), or a name bound only to such ranges."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "enumerate" and expr.args:
        expr = expr.args[0]
    if isinstance(expr, ast.Call):
        return model.call_api(expr) in _RANGE_BUILDERS
    if isinstance(expr, ast.Name):
        bindings = model.reaching_bindings(expr)
        return bool(bindings) and all(
            b.kind is BindKind.VALUE and isinstance(b.value, ast.Call) and walks_numpy_range(model, b.value)
            for b in bindings
        )
    return False


def item_root(model: FileModel, line: object) -> RootLoop | None:
    """The loop at ``line`` that iterates a device array's items (CPN103),
    as the root of the tests and conversions on its item (``if n % 10 == 0``
    for ``n`` of ``np.arange(nt)``): iterating a Python range instead
    removes them all."""
    if not isinstance(line, int):
        return None

    def build(m: FileModel) -> dict[int, RootLoop]:
        return {f.node.lineno: RootLoop(ITEMS, f) for f in m.loops  # type: ignore[attr-defined]
                if isinstance(f.node, (ast.For, ast.AsyncFor))}

    return model.derived("item-roots", build).get(line)


def raw_findings(model: FileModel, code: str) -> list["Finding"]:
    """What a folded code's rule detects before folding (built once a file:
    its own ``check`` and the root loops' counts read it)."""
    return model.derived(("raw-findings", code), lambda m: list(load_rules()[code]().detect(m)))  # type: ignore[attr-defined]


def unfolded(model: FileModel, code: str) -> Iterator["Finding"]:
    """A folded code's findings that stand alone."""
    for finding in raw_findings(model, code):
        if folding_root(model, finding) is None:
            yield finding


def folded_counts(model: FileModel, root: RootLoop) -> dict[str, int]:
    """How many findings of each folded code ``root`` holds."""
    return dict(model.derived("folded-counts", _all_folded_counts).get(id(root), {}))


def _all_folded_counts(model: FileModel) -> dict[int, dict[str, int]]:
    counts: dict[int, dict[str, int]] = {}
    for code in FOLDED_CODES:  # in this order, so each message lists them alike
        for finding in raw_findings(model, code):
            root = folding_root(model, finding)
            if root is not None:
                per_root = counts.setdefault(id(root), {})
                per_root[code] = per_root.get(code, 0) + 1
    return counts


def folded_text(counts: dict[str, int]) -> str:
    """"; it also holds 3 scalar branches and 1 host conversion", or ""."""
    if not counts:
        return ""
    parts = [f"{n} {FOLDED_CODES[code][0 if n == 1 else 1]}" for code, n in counts.items()]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"; it also holds {listed}, which {'goes' if sum(counts.values()) == 1 else 'go'} with it"


def root_at(model: FileModel, frame: LoopFrame, code: str) -> RootLoop:
    table = model.derived("root-by-frame", lambda m: {(id(r.frame), r.code): r for r in root_loops(m)})
    return table[(id(frame), code)]


def element_level(model: FileModel, node: ast.AST) -> bool:
    """Is ``node`` part of a root cause's per-element work rather than
    whole-array work of its own: in the body of a root loop, inside a
    Numba-compiled function, or in a function that a root loop (or a
    compiled function) runs on every iteration? Arithmetic there works on
    elements, rows or small pieces, whatever its operands look like: the
    SCALES rules do not quote it as what works, and the verdict does not
    count it towards the dominant pattern."""
    line = getattr(node, "lineno", None)
    if line is None:
        return False
    if compiled_function_at(model, line) is not None or _held_by_root(model, line):
        return True
    scope = model.scope_of(node).function_like()
    return model.derived(("element-level-function", id(scope)), lambda m: _run_by_root(m, scope))


def _held_by_root(model: FileModel, line: int) -> bool:
    return line in _roots_by_body_line(model)


def _run_by_root(model: FileModel, scope: "Scope") -> bool:
    """Does a root loop or a compiled function run the function ``scope``
    every iteration (through the nearest loop that calls it)?"""
    if scope.kind is not ScopeKind.FUNCTION:
        return False
    found = model.calls.calling_loop(scope)
    if found is None:
        return False
    _, call = found
    return _held_by_root(model, call.lineno) or compiled_function_at(model, call.lineno) is not None


def whole_array_test(model: FileModel, value: ast.expr) -> bool:
    """Does a tested value reduce a whole array (``np.any(u < 0)``,
    ``np.linalg.norm(r)``, ``err.max()``) rather than pick elements?"""
    for node in walk(value):
        if not isinstance(node, ast.Call):
            continue
        api = model.array_api(node.func)
        if api in _WHOLE_ARRAY_TESTS and not any(isinstance(a, ast.Subscript) for a in node.args):
            return True
        if isinstance(node.func, ast.Attribute) and node.func.attr in _WHOLE_ARRAY_TESTS \
                and isinstance(node.func.value, ast.Name) and model.is_array(node.func.value):
            return True
    return False


__all__ = ["FOLDED_CODES", "RootLoop", "element_level", "element_loop_nests", "folded_counts", "folded_text", "folding_root",
           "raw_findings", "recurrence_loops", "root_at", "root_loops", "unfolded", "whole_array_test"]
