"""CPN204: nonzero()/np.where(mask)/np.argwhere whose result indexes an array."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from ..findings import Finding
from ..model import BindKind, FileModel, Kind
from ..model.hoisting import uses_reached_by
from ..model.loop_helpers import FLAT, MATRIX, TUPLE, mask_indices
from ..registry import Category, FixExample, Invalid, NoFix, Rule, Valid

_INDEX_MAKERS = frozenset({"nonzero", "argwhere", "flatnonzero"})
# Functions and methods that index their array argument with an index argument.
_INDEXING_FUNCTIONS: dict[str, int] = {"take": 1, "put": 1}  # api -> position of the indices
_INDEXING_METHODS: dict[str, int] = {"take": 0, "put": 0}
# Calls whose result is a boolean array.
_BOOLEAN_CALLS = frozenset(
    {
        "isnan", "isinf", "isfinite", "isneginf", "isposinf", "logical_and", "logical_or",
        "logical_not", "logical_xor", "isclose", "isin", "signbit", "equal", "not_equal",
        "less", "less_equal", "greater", "greater_equal",
    }
)
_MAX_LISTED = 2


@dataclass(frozen=True)
class _Use:
    indexed: ast.expr  # the array indexed
    line: int
    others: tuple[ast.expr | None, ...] = (None,)  # the index parts; None where the indices go


class NonzeroThenIndex(Rule):
    """
    ## What it does
    Reports `np.nonzero(mask)`, `mask.nonzero()`, one-argument
    `np.where(mask)`, `np.argwhere(mask)` and `np.flatnonzero(mask)` when
    the indices they return go on to index an array: directly
    (`arr[np.where(m)] = 0`), through a name (`idx = np.nonzero(m)` then
    `arr[idx]`, `rows, cols = np.nonzero(m)` then `a[rows, cols]`,
    `idx = np.where(m)[0]` then `a[idx]`), or through `np.take`/`np.put`.
    The finding is at the `nonzero`/`where` call and names the arrays
    indexed and the lines.

    ## Why it does not scale on cuPyNumeric
    Turning a mask into indices materialises an integer array whose length
    depends on the data, so every GPU must learn how many hits the others
    found before the result even exists. Indexing with it is then a gather
    or scatter whose destinations can sit on any GPU, which cuPyNumeric
    carries out with all-to-all communication. A boolean mask applies to
    each GPU's own block of the array with neither step.

    ## Example
    ```python
    import numpy as np

    def clamp_negative(arr):
        idx = np.nonzero(arr < 0.0)
        arr[idx] = 0.0
        return arr
    ```

    ## Use instead
    Index with the mask itself (recipe RR-mask):
    ```python
    def clamp_negative(arr):
        arr[arr < 0.0] = 0.0          # or np.putmask(arr, arr < 0.0, 0.0)
        return arr
    ```
    `np.where(mask, new, arr)` computes a masked replacement without any
    indexing. When the mask is not boolean (`np.nonzero(counts)`), index
    with `counts != 0`.

    ## Known false alarms
    * Not reported: indices that are only printed or counted
      (`len(idx[0])`, `idx[0].size`); indices that are needed for more than
      indexing — returned, iterated, stored, passed on or used in arithmetic
      (`a[idx + 1]`, a shifted index the mask cannot express); the first hit
      (`order[np.nonzero(m)[0][0]]`); one axis of a multi-axis result used
      alone (`rows, cols = np.nonzero(m)` then `a[cols]`: the mask has the
      wrong shape); three-argument `np.where(c, x, y)`; indices used on
      lists, numbers or host-alias arrays. A value of unknown kind
      (a parameter, a loaded file, an attribute) that the indices index is
      taken for an array: nothing else accepts an integer array as index.
    * The suggested mask is the argument of the call; when it is not
      boolean (`np.nonzero(counts)`) the message suggests `counts != 0`.
    """

    code = "CPN204"
    slug = "nonzero-then-index"
    category = Category.REFACTOR
    recipe = "RR-mask"
    summary = "nonzero()/np.where(mask) result used to index an array"
    message = (
        "{call} turns the mask into index arrays that then index {uses}; index with the "
        "boolean mask itself ({example}) or use np.putmask (RR-mask)"
    )
    short = "{call} turns a mask into indices: index with the mask (RR-mask)"

    valid = (
        Valid("""
            import numpy as np
            arr = np.arange(10.0)
            arr[arr < 3.0] = 0.0
            np.putmask(arr, arr > 8.0, 8.0)
            """),
        # only counted or printed
        Valid(
            """
            import numpy as np
            m = np.random.rand(10) > 0.5
            idx = np.nonzero(m)
            print(len(idx[0]), idx[0].size)
            hits = np.where(m)[0]
            print(hits)
            """
        ),
        # three-argument where, returned indices
        Valid(
            """
            import numpy as np
            def pick(a):
                b = np.where(a > 0, a, 0.0)
                return np.flatnonzero(a > 0)
            """
        ),
        # iterated, or used in arithmetic
        Valid(
            """
            import numpy as np
            a = np.ones(10)
            for i in np.nonzero(a)[0]:
                print(i)
            idx = np.nonzero(a)[0]
            b = a[idx + 1]
            """
        ),
        # indexing a list
        Valid("""
            import numpy as np
            names = ['a', 'b', 'c']
            m = np.array([True, False, True])
            sel = [names[i] for i in np.flatnonzero(m)]
            """),
    )
    invalid = (
        Invalid(
            """
            import numpy as np
            arr = np.linspace(-1, 1, 10)
            idx = np.nonzero(arr < 0)
            arr[idx] = 0.0
            """,
            line=3,
            contains="arr[arr < 0]",
        ),
        Invalid("""
            import numpy as np
            arr = np.ones(10)
            m = arr > 0.5
            arr[np.where(m)] = 0.0
            """, line=4, contains="'arr' (line 4)"),
        Invalid(
            """
            import numpy as np
            m = np.eye(4) > 0
            a = np.ones((4, 4))
            rows, cols = np.nonzero(m)
            a[rows, cols] = 2.0
            """,
            line=4,
        ),
        Invalid(
            """
            import numpy as np
            def positives(x: np.ndarray):
                idx = np.where(x > 0)[0]
                return x[idx]
            """,
            line=3,
            contains="x[x > 0]",
        ),
        # the indexed value's kind is unknown: only an array takes index arrays
        Invalid(
            """
            import numpy as np
            def excerpt(x, y, lo, hi):
                indi = np.where(np.logical_and(x >= lo, x < hi))[0]
                return y[indi] - np.mean(y[indi])
            """,
            line=3,
            contains="'y' (line 4)",
        ),
        Invalid(
            """
            import numpy as np
            counts = np.arange(6)
            vals = np.ones(6)
            sel = np.take(vals, np.flatnonzero(counts))
            """,
            line=4,
            contains="counts != 0",
        ),
        Invalid("""
            import numpy as np
            grid = np.ones((3, 3))
            pts = np.argwhere(grid > 0)
            grid[pts[:, 0], pts[:, 1]] = 0
            """, line=3),
    )

    fix_note = (
        "`cpn-lint fix` rewrites `a[np.nonzero(m)]`, `a[np.where(m)]` and `a[m.nonzero()]` (reading or "
        "assigning) as `a[m]` when `m` is a boolean array (a comparison or a logical ufunc, or a name bound only "
        "to those) of `a`'s shape, proven from how `m` is made from `a` or from shapes the code states; for "
        "arrays known to be 1-D, `a[np.nonzero(m)[0]]`, `a[np.where(m)[0]]` and `a[np.flatnonzero(m)]` too. "
        "Indices bound to a name, passed to `np.take`/`np.put` or combined with other index parts are left: "
        "the mask may change before they are used."
    )
    fix_examples = (
        FixExample(
            """
            import numpy as np
            arr = np.linspace(-1.0, 1.0, 10)
            arr[np.nonzero(arr < 0)] = 0.0
            """,
            """
            import numpy as np
            arr = np.linspace(-1.0, 1.0, 10)
            arr[arr < 0] = 0.0
            """,
        ),
        FixExample(
            """
            import numpy as np
            grid = np.ones((4, 4))
            hot = grid > 0.5
            sel = grid[np.where(hot)]
            """,
            """
            import numpy as np
            grid = np.ones((4, 4))
            hot = grid > 0.5
            sel = grid[hot]
            """,
        ),
        FixExample(
            """
            import numpy as np
            x = np.linspace(-1.0, 1.0, 9)
            positive = x[np.where(x > 0)[0]]
            """,
            """
            import numpy as np
            x = np.linspace(-1.0, 1.0, 9)
            positive = x[x > 0]
            """,
        ),
        NoFix(
            """
            import numpy as np
            arr = np.linspace(-1.0, 1.0, 10)
            idx = np.nonzero(arr < 0)
            arr[idx] = 0.0
            """,
            "replace them with the mask by hand",
        ),
        NoFix(
            """
            import numpy as np
            counts = np.arange(6)
            vals = np.ones(6)
            sel = vals[np.nonzero(counts)]
            """,
            "not known to be boolean",
        ),
        NoFix(
            """
            import numpy as np
            grid = np.ones((4, 4))
            rows = np.ones(4) > 0
            sel = grid[np.nonzero(rows)]
            """,
            "not known to have the indexed array's shape",
        ),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy() or not any(word in model.source for word in ("nonzero", "where", "argwhere")):
            return
        for call in model.nodes(ast.Call):
            found = mask_indices(model, call)
            if found is None:
                continue
            mask, form = found
            uses = _indexing_uses(model, call, form)
            if not uses:
                continue
            listed = ", ".join(f"'{model.segment(u.indexed, 24)}' (line {u.line})" for u in uses[:_MAX_LISTED])
            if len(uses) > _MAX_LISTED:
                listed += f" and {len(uses) - _MAX_LISTED} more"
            yield self.finding(
                call,
                in_loop=model.in_loop(call),
                call=model.segment(call, 40),
                uses=listed,
                example=_example(model, uses[0], mask),
                data={"lines": [u.line for u in uses]},
            )


WHOLE = -1  # the whole result of a TUPLE call, not one component
ROWS = -2  # the whole result of a MATRIX call: hits as rows, not per-axis indices


@dataclass(frozen=True)
class _Ref:
    """An expression that stands for the indices: the whole result or one component."""

    node: ast.expr
    component: int  # WHOLE, ROWS, or the axis the index array belongs to


def _indexing_uses(model: FileModel, call: ast.Call, form: str) -> list[_Use]:
    """Where the indices made by ``call`` index a device array as the mask
    would; empty when they are also needed for anything but counting."""
    refs: list[_Ref] = []
    arity: int | None = None
    first = WHOLE if form == TUPLE else ROWS if form == MATRIX else 0
    for ref in _refs_of(model, call, form, first):
        refs.append(ref)
        parent = model.parent(ref.node)
        if isinstance(parent, ast.Assign) and parent.value is ref.node and len(parent.targets) == 1:
            target = parent.targets[0]
            if isinstance(target, ast.Name):
                for load in uses_reached_by(model, target):
                    refs.extend(_refs_of(model, load, form if ref.component == WHOLE or form == MATRIX else FLAT, ref.component))
            elif isinstance(target, (ast.Tuple, ast.List)) and ref.component == WHOLE and all(isinstance(e, ast.Name) for e in target.elts):
                arity = len(target.elts)
                for axis, name in enumerate(target.elts):
                    for load in uses_reached_by(model, name):  # type: ignore[arg-type]
                        refs.append(_Ref(load, axis))
            else:
                return []
    by_subscript: dict[int, tuple[ast.AST, ast.expr | None, list[_Ref]]] = {}
    for ref in refs:
        position = _index_position(model, ref.node)
        if position is not None:
            holder, indexed = position
            by_subscript.setdefault(id(holder), (holder, indexed, []))[2].append(ref)
        elif not _is_assignment_source(model, ref) and not _only_counts(model, ref.node):
            return []  # the indices themselves are needed
    uses: list[_Use] = []
    for holder, indexed, group in by_subscript.values():
        parts = _index_parts(holder, group)
        if indexed is not None and _mask_equivalent(group, arity, parts):
            uses.append(_Use(indexed, group[0].node.lineno, parts))
    unique: dict[tuple[int, str], _Use] = {}
    for use in sorted(uses, key=lambda u: u.line):
        unique.setdefault((use.line, model.segment(use.indexed, 24)), use)
    return list(unique.values())


def _refs_of(model: FileModel, node: ast.expr, form: str, component: int) -> list[_Ref]:
    """``node`` itself, or one component selected from it: ``idx[0]`` of a
    TUPLE result, ``pts[:, 1]`` of a MATRIX result."""
    parent = model.parent(node)
    if isinstance(parent, ast.Subscript) and parent.value is node and isinstance(parent.ctx, ast.Load):
        index = parent.slice
        if form == TUPLE and component == WHOLE and isinstance(index, ast.Constant) and isinstance(index.value, int):
            return [_Ref(parent, index.value)]
        if form == MATRIX and isinstance(index, ast.Tuple) and len(index.elts) == 2:
            rows, col = index.elts
            if isinstance(rows, ast.Slice) and rows.lower is rows.upper is rows.step is None and isinstance(col, ast.Constant) and isinstance(col.value, int):
                return [_Ref(parent, col.value)]
    if form == MATRIX:
        return [_Ref(node, ROWS)]  # rows of hits: not an index the mask can replace
    return [_Ref(node, component)]


def _index_parts(holder: ast.AST, group: list[_Ref]) -> tuple[ast.expr | None, ...]:
    """``A[:, idx[0]]`` -> (``:``, None): the other index parts kept, the
    indices replaced (once) by the mask."""
    if not isinstance(holder, ast.Subscript) or not isinstance(holder.slice, ast.Tuple):
        return (None,)
    mine = {id(r.node) for r in group}
    parts: list[ast.expr | None] = []
    for elt in holder.slice.elts:
        if id(elt) in mine:
            if None not in parts:
                parts.append(None)
        else:
            parts.append(elt)
    return tuple(parts)


def _mask_equivalent(group: list[_Ref], arity: int | None, others: tuple[ast.expr | None, ...]) -> bool:
    """The subscript uses the whole tuple, or components 0..k-1 together
    (all of them when the tuple was unpacked into names). With the number
    of axes unknown, the other index parts must be slices or constants: an
    index array beside them may be another axis of the same hits."""
    components = [r.component for r in group]
    if components == [WHOLE]:
        return True
    if WHOLE in components or ROWS in components:
        return False
    if arity is None and not all(p is None or isinstance(p, (ast.Slice, ast.Constant)) for p in others):
        return False
    expected = list(range(arity if arity is not None else len(components)))
    return components == expected


def _index_position(model: FileModel, node: ast.expr) -> tuple[ast.AST, ast.expr | None] | None:
    """(the subscript or call, the device array indexed) when ``node`` is an
    index or one part of an index tuple; the array is None when it is not a
    device array."""
    parent = model.parent(node)
    if isinstance(parent, ast.Tuple):
        holder = model.parent(parent)
        if not (isinstance(holder, ast.Subscript) and holder.slice is parent):
            return None
        parent = holder
    if isinstance(parent, ast.Subscript) and parent.value is not node:
        return parent, parent.value if _indexable(model, parent.value) else None
    if isinstance(parent, ast.Call):
        api = model.call_api(parent)
        if api in _INDEXING_FUNCTIONS:
            position = _INDEXING_FUNCTIONS[api]
            if position < len(parent.args) and parent.args[position] is node:
                array = parent.args[0]
                return parent, array if model.kind(array) is Kind.DEVICE else None
        func = parent.func
        if isinstance(func, ast.Attribute) and func.attr in _INDEXING_METHODS:
            position = _INDEXING_METHODS[func.attr]
            if position < len(parent.args) and parent.args[position] is node:
                return parent, func.value if model.kind(func.value) is Kind.DEVICE else None
    return None


def _indexable(model: FileModel, value: ast.expr) -> bool:
    """Is ``value`` an array the index arrays gather from? A device array,
    or a name of unknown kind: a list, tuple, dict or number cannot be
    indexed by an integer array (TypeError), so only an array can be."""
    kind = model.kind(value)
    return kind is Kind.DEVICE or (kind is Kind.UNKNOWN and isinstance(value, (ast.Name, ast.Attribute)))


def _is_assignment_source(model: FileModel, ref: _Ref) -> bool:
    parent = model.parent(ref.node)
    return isinstance(parent, ast.Assign) and parent.value is ref.node


_COUNTING_CALLS = frozenset({"len", "print", "str", "repr", "format", "bool"})
_COUNTING_ATTRIBUTES = frozenset({"size", "shape", "ndim", "dtype", "any"})


def _only_counts(model: FileModel, node: ast.expr) -> bool:
    """``len(idx[0])``, ``idx.size``, ``print(idx)``, an f-string: looks at
    the indices without needing their values as indices."""
    parent = model.parent(node)
    while isinstance(parent, ast.Subscript) and parent.value is node:
        node, parent = parent, model.parent(parent)
    if isinstance(parent, ast.Attribute) and parent.attr in _COUNTING_ATTRIBUTES:
        return True
    if isinstance(parent, (ast.FormattedValue, ast.JoinedStr)):
        return True
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in _COUNTING_CALLS:
        return model.lookup(parent.func) is None
    return False


def _example(model: FileModel, use: _Use, mask: ast.expr) -> str:
    mask_text = _mask_text(model, mask)
    parts = [mask_text if p is None else _index_text(model, p) for p in use.others]
    return f"{model.segment(use.indexed, 24)}[{', '.join(parts)}]"


def _index_text(model: FileModel, part: ast.expr) -> str:
    if isinstance(part, ast.Slice):
        return ":".join(model.segment(x, 12) if x is not None else "" for x in (part.lower, part.upper)) + (
            f":{model.segment(part.step, 12)}" if part.step is not None else ""
        )
    return model.segment(part, 20)


def _mask_text(model: FileModel, mask: ast.expr) -> str:
    text = model.segment(mask, 30)
    if _is_boolean(model, mask):
        return text
    if not isinstance(mask, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
        text = f"({text})"
    return f"{text} != 0"


def _is_boolean(model: FileModel, mask: ast.expr, depth: int = 0) -> bool:
    """Is ``mask`` evidently a boolean array (a comparison, a logical ufunc,
    a name bound only to those)?"""
    if depth > 4:
        return False
    if isinstance(mask, ast.Compare):
        return True
    if isinstance(mask, ast.UnaryOp) and isinstance(mask.op, ast.Invert):
        return _is_boolean(model, mask.operand, depth + 1)
    if isinstance(mask, ast.BinOp) and isinstance(mask.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
        return _is_boolean(model, mask.left, depth + 1) and _is_boolean(model, mask.right, depth + 1)
    if isinstance(mask, ast.Call):
        if model.call_api(mask) in _BOOLEAN_CALLS:
            return True
        return any(k.arg == "dtype" and isinstance(k.value, ast.Name) and k.value.id == "bool" for k in mask.keywords)
    if isinstance(mask, ast.Name):
        bindings = model.reaching_bindings(mask)
        return bool(bindings) and all(
            b.kind is BindKind.VALUE and b.value is not None and _is_boolean(model, b.value, depth + 1) for b in bindings
        )
    return False
