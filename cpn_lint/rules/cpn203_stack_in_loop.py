"""CPN203: concatenate / stack / append inside a loop."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, Kind, LoopFrame
from ..model.hoisting import escapes_iteration, hoist_frame
from ..model.syntax import name_key
from ..model.loop_iterations import hot_chain
from ..model.iteration import fresh_in_iteration
from ._context import describe_loop
from ..registry import Category, FixExample, Invalid, NoFix, Rule, Valid

# Joining functions: the keyword that may hold the sequence of parts.
_JOINERS: dict[str, str] = {
    "concatenate": "arrays",
    "concat": "arrays",
    "stack": "arrays",
    "hstack": "tup",
    "vstack": "tup",
    "row_stack": "tup",
    "column_stack": "tup",
    "dstack": "tup",
}
_INDEX_JOINERS = frozenset({"r_", "c_"})
_CALLEES = frozenset(_JOINERS) | {"append"}
_LIST_GROWERS = frozenset({"append", "extend", "insert"})
# A file without any of these words has no join to report.
_WORDS = ("concat", "stack", "append", "r_", "c_")

GROWING = "growing"
REBUILT = "rebuilt"


@dataclass(frozen=True)
class _Join:
    node: ast.expr  # the call, or the np.r_[...] subscript
    api: str
    parts: tuple[ast.expr, ...] | None  # None: the parts are a name (a list built elsewhere)
    collection: ast.Name | None = None
    counted_by: ast.expr | None = None  # a comprehension's iterable: how many parts it makes


class StackInLoop(Rule):
    """
    ## What it does
    Reports `np.concatenate`, `np.stack`, `np.hstack`, `np.vstack`,
    `np.column_stack`, `np.dstack`, `np.append` and `np.r_[...]`/`np.c_[...]`
    inside a loop, in two forms:

    * *growing*: the result replaces one of its own parts —
      `arr = np.vstack([arr, row])`, `out = np.append(out, x)` — or the
      call re-joins a list the same loop keeps appending to. Every iteration
      copies everything gathered so far.
    * *rebuilt*: the parts do not change shape between iterations
      (`padded = np.concatenate([u[-1:], u, u[:1]])` in a time loop), so one
      buffer made before the loop could receive them.

    The finding is at the call.

    ## Why it does not scale on cuPyNumeric
    Joining arrays allocates a new array and copies every part into it. In
    the growing form iteration *k* copies *k* rows, so the loop moves a
    quadratic amount of data, each copy a distributed operation across the
    GPUs holding the pieces; the rebuilt form pays an allocation and a full
    copy on every iteration. cuPyNumeric's own profiler (Doctor) warns about
    stacking in loops for the same reason.

    ## Example
    ```python
    import numpy as np

    def collect(rows, cols):
        table = np.zeros((0, cols))
        for i in range(rows):
            table = np.vstack([table, np.full(cols, float(i))])
        return table
    ```

    ## Use instead
    Preallocate the final array and write each row into it, or collect the
    parts in a list and join them once after the loop (recipe RR-stack):
    ```python
    def collect(rows, cols):
        table = np.empty((rows, cols))
        for i in range(rows):
            table[i, :] = float(i)
        return table
    ```
    For the rebuilt form, allocate the joined array once before the loop
    and assign the parts into its slices on each iteration.

    ## Known false alarms
    * Not reported: a single join after the loop that filled the list
      (`parts.append(...)` in the loop, `np.stack(parts)` after it, even when
      both sit inside an outer loop); joins in a loop over a small constant
      number of items or axes (a fixed handful of copies); joins whose parts
      change shape with the iteration and do not include the result itself
      (`np.concatenate([a[i], b[i]])`: an element loop, CPN101's concern);
      joined arrays that are kept beyond the iteration (appended to a list);
      a name the same iteration has just bound afresh (a loop target, or
      `v = table[k]` before `v = np.r_[v[0], v]`): that pads one value once;
      `np.r_` with slices (`np.r_[0:10:2]` builds a range).
    * A growing join in a loop that runs only a few times is cheap; suppress
      with `# noqa: CPN203`.
    """

    code = "CPN203"
    slug = "stack-in-loop"
    category = Category.REFACTOR
    recipe = "RR-stack"
    summary = "Arrays concatenated or stacked inside a loop"
    message = "{call} {what} on every iteration of {loop}; {fix} (RR-stack)"
    short = "{call} regrows an array every iteration: join once after it (RR-stack)"

    valid = (
        # list-then-stack-once
        # a comprehension whose number of parts changes from one iteration to the next
        Valid("""
            import numpy as np
            def prefixes(X, n):
                for m in range(1, n):
                    block = np.vstack([X[i] for i in range(m)])
                    print(block.sum())
            """),
        Valid(
            """
            import numpy as np
            parts = []
            for i in range(100):
                parts.append(np.full(4, float(i)))
            table = np.stack(parts)
            """
        ),
        # the same, once per outer iteration
        Valid(
            """
            import numpy as np
            def epochs(batches, n):
                for epoch in range(n):
                    outs = []
                    for b in batches:
                        outs.append(np.asarray(b) * 2.0)
                    merged = np.concatenate(outs)
            """
        ),
        # preallocated, written by row
        Valid("""
            import numpy as np
            table = np.empty((100, 4))
            for i in range(100):
                table[i, :] = float(i)
            """),
        # a small constant number of items
        Valid(
            """
            import numpy as np
            acc = np.zeros(0)
            for part in (np.ones(3), np.zeros(3), np.arange(3.0)):
                acc = np.concatenate([acc, part])
            """
        ),
        # parts that change with the iteration, not including the result
        Valid(
            """
            import numpy as np
            a = np.ones((10, 3))
            b = np.zeros((10, 3))
            for i in range(10):
                pair = np.concatenate([a[i], b[i]])
                print(pair.sum())
            """
        ),
        # joins outside loops, np.r_ with slices, kept results
        Valid(
            """
            import numpy as np
            u = np.ones(8)
            w = np.hstack([u, u])
            hist = []
            for t in range(50):
                idx = np.r_[0:8:2]
                hist.append(np.concatenate([u, u]))
            """
        ),
        # a name each iteration binds afresh is padded once, not grown
        Valid(
            """
            import numpy as np
            def pad_all(curves):
                out = {}
                for key, (t, v) in curves.items():
                    v = np.r_[v[0], v, v[-1]]
                    edges = np.asarray(t)
                    with np.errstate(all='ignore'):
                        marks = np.hstack([edges[:1], edges])
                    marks = np.append(marks, 0.0)
                    out[key] = (marks, v)
                return out
            """
        ),
    )
    invalid = (
        # rebuilt from parts whose shape never changes: the state is updated from itself
        # K parts of one row's shape each, the same K every iteration
        Invalid("""
            import numpy as np
            def lloyd(X, centers, k, n_iter):
                for it in range(n_iter):
                    labels = np.argmin(((X[:, None, :] - centers[None]) ** 2).sum(axis=2), axis=1)
                    centers = np.vstack([X[labels == c].mean(axis=0) for c in range(k)])
                return centers
            """, line=5, contains="copies its parts"),
        Invalid("""
            import numpy as np
            def ring(u0, c, n_steps):
                u = u0.copy()
                for _ in range(n_steps):
                    padded = np.concatenate([u[-1:], u, u[:1]])
                    u = u + c * (padded[2:] - 2.0 * u + padded[:-2])
                return u
            """, line=5, contains="copies its parts"),
        Invalid(
            """
            import numpy as np
            arr = np.zeros((1, 4))
            for _ in range(100):
                row = np.ones((1, 4))
                arr = np.vstack([arr, row])
            """,
            line=5,
            contains="copies everything",
        ),
        Invalid(
            """
            import numpy as np
            out = np.array([])
            for i in range(1000):
                out = np.append(out, i * 0.5)
            """,
            line=4,
        ),
        Invalid(
            """
            import numpy as np
            u = np.ones(64)
            for step in range(100):
                padded = np.concatenate([u[-1:], u, u[:1]])
                u[:] = 0.5 * (padded[:-2] + padded[2:])
            """,
            line=4,
            contains="preallocate",
        ),
        Invalid(
            """
            import numpy as np
            def stream(chunks):
                seen = []
                for c in chunks:
                    seen.append(np.asarray(c))
                    total = np.concatenate(seen)
                    print(total.mean())
            """,
            line=6,
            contains="'seen'",
        ),
        Invalid(
            """
            import numpy as np
            xs = np.zeros(0)
            k = 0
            while k < 50:
                xs = np.r_[xs, np.ones(3)]
                k += 1
            """,
            line=5,
        ),
    )

    fix_note = (
        "`cpn-lint fix` turns the growing form `acc = np.append(acc, part)` (and `np.concatenate((acc, part))`, "
        "`np.vstack`, `np.hstack`) into `acc_parts = [acc]` before the loop, `acc_parts.append(part)` in it "
        "and one join after it, when `acc` is read nowhere in the loop but in the join, is bound there only, "
        "starts as a new array of a rank the join keeps (1-D for `np.append`, at least 2-D for `np.vstack`) "
        "that nothing else keeps, and the loop has no `else` clause. A part that is not a new array is copied "
        "as it is appended, so a buffer the loop reuses cannot change the result. The rebuilt form and joins of "
        "lists built elsewhere are left."
    )
    fix_examples = (
        FixExample(
            """
            import numpy as np
            out = np.array([])
            for i in range(1000):
                out = np.append(out, i * 0.5)
            """,
            """
            import numpy as np
            out = np.array([])
            out_parts = [out]
            for i in range(1000):
                out_parts.append(np.ravel(i * 0.5))
            out = np.concatenate(out_parts)
            """,
        ),
        FixExample(
            """
            import numpy as np
            def collect(rows, cols):
                table = np.zeros((0, cols))
                for i in range(rows):
                    table = np.vstack([table, np.full((1, cols), float(i))])
                return table
            """,
            """
            import numpy as np
            def collect(rows, cols):
                table = np.zeros((0, cols))
                table_parts = [table]
                for i in range(rows):
                    table_parts.append(np.full((1, cols), float(i)))
                table = np.vstack(table_parts)
                return table
            """,
        ),
        NoFix(
            """
            import numpy as np
            acc = np.zeros(0)
            for i in range(10):
                acc = np.append(acc, i)
                print(acc.sum())
            """,
            "is read in the loop",
        ),
        NoFix(
            """
            import numpy as np
            acc = []
            for i in range(10):
                acc = np.append(acc, i)
            """,
            "does not start as a new array",
        ),
        NoFix(
            """
            import numpy as np
            u = np.ones(64)
            for step in range(100):
                padded = np.concatenate([u[-1:], u, u[:1]])
                u[:] = 0.5 * (padded[:-2] + padded[2:])
            """,
            "preallocate the joined array by hand",
        ),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy() or not any(word in model.source for word in _WORDS):
            return
        reported: set[int] = set()  # statements already reported
        for join in sorted(_joins(model), key=lambda j: (j.node.lineno, j.node.col_offset)):
            inner = model.loop_of(join.node)
            statement = model.statement_of(join.node)
            if inner is None or inner.is_comprehension or not hot_chain(inner) or id(statement) in reported:
                continue
            finding = self._growing(model, join, inner) or self._rebuilt(model, join)
            if finding is not None:
                reported.add(id(statement))
                yield finding

    def _growing(self, model: FileModel, join: _Join, inner: LoopFrame) -> Finding | None:
        if join.collection is not None:
            if not _grown_in(model, join.collection, inner):
                return None
            grown = join.collection.id
            fix = f"join '{grown}' once after the loop, or write each part into a preallocated array"
            what = f"re-joins the list '{grown}', which the loop keeps growing, and copies everything gathered so far"
        else:
            grown_part = _own_part(model, join)
            if grown_part is None or _padded_afresh(model, join, grown_part, inner):
                return None
            grown = model.segment(grown_part, 24)
            fix = "preallocate the final array and write each part into it, or collect the parts in a list and join once after the loop"
            what = f"grows '{grown}' and copies everything gathered so far"
        return self.finding(
            join.node,
            in_loop=True,
            call=model.segment(join.node, 40),
            what=what,
            loop=describe_loop(model, inner),
            fix=fix,
            data={"form": GROWING, "api": join.api, "loop_line": inner.line},
        )

    def _rebuilt(self, model: FileModel, join: _Join) -> Finding | None:
        if join.parts is None or not join.parts:
            return None
        if not any(model.kind(p) is Kind.DEVICE for p in join.parts):
            return None
        frame = hoist_frame(model, join.node, join.parts, shape_only=True)
        if frame is not None and join.counted_by is not None:
            count_frame = hoist_frame(model, join.node, [join.counted_by])
            frame = count_frame if count_frame is not None and frame.contains(count_frame) else None if count_frame is None else frame
        if frame is None or escapes_iteration(model, join.node, frame):
            return None
        return self.finding(
            join.node,
            in_loop=True,
            call=model.segment(join.node, 40),
            what="allocates a new array and copies its parts into it",
            loop=describe_loop(model, frame),
            fix="preallocate the joined array once before the loop and assign the parts into its slices",
            data={"form": REBUILT, "api": join.api, "loop_line": frame.line},
        )


def _joins(model: FileModel) -> Iterator[_Join]:
    for call in model.nodes(ast.Call):
        if model.loop_of(call) is None or _last_name(call.func) not in _CALLEES:
            continue  # cheap tests before resolving the name through the imports
        api = model.call_api(call)
        if api in _JOINERS:
            sequence = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == _JOINERS[api]), None)
            if isinstance(sequence, (ast.List, ast.Tuple)):
                if not any(isinstance(e, ast.Starred) for e in sequence.elts):
                    yield _Join(call, api, tuple(sequence.elts))
            elif isinstance(sequence, (ast.ListComp, ast.GeneratorExp)) and len(sequence.generators) == 1 \
                    and not sequence.generators[0].ifs:
                # [X[labels == c].mean(axis=0) for c in range(k)]: k parts
                # (the iterable must not change) each of one shape
                generator = sequence.generators[0]
                yield _Join(call, api, (sequence.elt,), counted_by=generator.iter)
            elif isinstance(sequence, ast.Name) and model.kind(sequence) is Kind.NOT:
                yield _Join(call, api, None, sequence)
        elif api == "append" and len(call.args) >= 2:
            yield _Join(call, api, (call.args[0], call.args[1]))
    for sub in model.nodes(ast.Subscript):
        if model.loop_of(sub) is None or _last_name(sub.value) not in _INDEX_JOINERS:
            continue
        if model.array_api(sub.value) not in _INDEX_JOINERS:
            continue
        elts = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
        if any(isinstance(e, (ast.Slice, ast.Starred)) or (isinstance(e, ast.Constant) and isinstance(e.value, str)) for e in elts):
            continue
        yield _Join(sub, model.array_api(sub.value) or "r_", tuple(elts))


def _last_name(expr: ast.expr) -> str:
    return expr.attr if isinstance(expr, ast.Attribute) else expr.id if isinstance(expr, ast.Name) else ""


def _own_part(model: FileModel, join: _Join) -> ast.expr | None:
    """The part that is also the assignment's target (``arr = np.vstack([arr, row])``)."""
    statement = model.statement_of(join.node)
    if not isinstance(statement, ast.Assign) or join.parts is None:
        return None
    targets = {name_key(t) for t in statement.targets} - {None}
    for part in join.parts:
        if name_key(part) in targets:
            return part
    return None


def _padded_afresh(model: FileModel, join: _Join, part: ast.expr, inner: LoopFrame) -> bool:
    """Is the grown name bound afresh earlier in each iteration of the loop
    (``rows = table[k]`` then ``rows = np.r_[rows[0], rows]``)? Then the join
    pads one iteration's value and nothing accumulates across iterations."""
    statement = model.statement_of(join.node)
    return isinstance(part, ast.Name) and statement is not None and fresh_in_iteration(model, statement, inner, part.id)


def _grown_in(model: FileModel, collection: ast.Name, frame: LoopFrame) -> bool:
    """Is the list appended to in ``frame`` (at any depth) without being
    rebuilt in it, so that it grows from one iteration to the next?"""
    grown = False
    for call in model.nodes_in_loop(frame, ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _LIST_GROWERS and isinstance(func.value, ast.Name) and func.value.id == collection.id:
            grown = True
            break
    if not grown:
        return False
    for stmt in model.nodes_in_loop(frame, ast.Assign):
        if any(isinstance(t, ast.Name) and t.id == collection.id for t in stmt.targets):
            return False
    return True
