"""CPN205: writing to np.diag / np.flip / .ravel() results as if they were views.

Which results are copies was checked on cuPyNumeric 26.6.1 (CPU, 4-million
element arrays): np.diag and .diagonal() of a matrix, np.flip and .ravel()
are copies; ``a.flat[i] = v`` writes through to ``a``. Issue 12 checked every
view-making function and method by writing through the result and reading
the base (tests/test_oracle_views.py): np.fliplr, np.flipud, np.rot90 and
reshape (np.reshape, a.reshape) are copies as well; transposes, swapaxes,
moveaxis, squeeze, expand_dims, atleast_*d, splits, basic slices and
a.view() stay views. The .real/.imag of a complex array are copies too (of
a real array, views), which a static check cannot tell apart: not listed.
Issue 23 added offsets and axes (np.diagonal(m, 1), np.flip(a, axis=0):
copies too) and moved the table into the model (numpy_api.VIEW_BECOMES_COPY).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from ..findings import Finding
from ..model import BindKind, FileModel, numpy_api
from ..model.hoisting import aug_targets_reached_by, uses_reached_by
from ..model.syntax import name_key
from ..registry import Category, Invalid, Rule, Valid

# Methods on an array that mutate it in place.
_MUTATING_METHODS = frozenset({"fill", "sort", "put", "itemset", "partition", "setfield"})
# Device functions whose first argument is written in place.
_WRITING_FUNCTIONS = frozenset({"copyto", "put", "putmask", "place", "fill_diagonal", "put_along_axis"})
# Attribute steps that still address the same memory in NumPy.
_VIEW_ATTRIBUTES = frozenset({"T", "real", "imag", "flat"})
# Creation calls whose result has as many dimensions as their shape argument.

DIAG = "diag"
FLIP = "flip"
RAVEL = "ravel"
FLATTEN = "flatten"
# View in NumPy, copy in cuPyNumeric 26.6.1: the model's table
# (numpy_api.VIEW_BECOMES_COPY, held to the runtime by tests/test_oracle_views.py).
_FAMILIES = {"diagonal": DIAG, "flip": FLIP, "ravel": RAVEL}
_METHOD_COPIES = {name: _FAMILIES[family] for name, family in numpy_api.VIEW_BECOMES_COPY_METHODS.items()}
_METHOD_COPIES["flatten"] = FLATTEN  # a copy in both libraries: a direct write to it is lost everywhere
_FUNCTION_COPIES = {name: _FAMILIES[family] for name, family in numpy_api.VIEW_BECOMES_COPY.items()}
# A file without any of these names makes none of the copies above.
_WORDS = frozenset(_METHOD_COPIES) | frozenset(_FUNCTION_COPIES)


@dataclass(frozen=True)
class _Copy:
    node: ast.Call  # the call that makes the copy
    what: str  # DIAG, FLIP, RAVEL or FLATTEN
    source: ast.expr  # the array it was made from
    # np.diag of an array whose rank is unknown: of a vector it builds a new
    # matrix in both libraries, so only a write that must have been meant
    # for the original counts (see _writes_to)
    uncertain: bool = False


@dataclass(frozen=True)
class _Write:
    node: ast.AST
    line: int


class WriteToCopy(Rule):
    """
    ## What it does
    Reports a write to the result of `np.diag(m)` (of a 2-D array),
    `np.diagonal(m)`/`m.diagonal()`, `np.flip`, `np.fliplr`, `np.flipud`,
    `np.rot90`, `a.ravel()`/`np.ravel(a)` or `a.reshape(...)`/`np.reshape`
    of a named array, made through a name
    (`d = np.diag(m); d[0] = 5`) or directly (`a.ravel()[3] = 1`,
    `np.flip(a)[0] = 2`): an item or slice assignment, an augmented
    assignment, `out=`, an in-place method (`.fill`, `.sort`) or an in-place
    function (`np.copyto`, `np.put`, `np.putmask`). A direct write to
    `a.flatten()` is reported too. The finding is where the copy is made;
    the message names the write and its line.

    ## Why it does not scale on cuPyNumeric
    This is about correctness. In NumPy these functions return views:
    writing to the result changes the original array (the diagonal of a
    matrix is a read-only view, so writing to it raises). cuPyNumeric
    returns copies, so the same write succeeds and changes only the copy:
    the original array silently keeps its old values and the program
    computes something else. `a.flatten()` is a copy in both libraries, so a
    direct write to it is lost everywhere.

    ## Example
    ```python
    import numpy as np

    def clear_edges(a):
        np.flipud(a)[0, :] = 0.0      # meant to clear the last row of a
        flat = a.ravel()
        flat[flat < 0] = 0.0          # meant to clamp a
        return a
    ```

    ## Use instead
    Write through to the original array (recipe RR-write-through):
    ```python
    def clear_edges(a):
        a[-1, :] = 0.0
        a[a < 0] = 0.0
        return a
    ```
    For a diagonal use `np.fill_diagonal(m, v)` or
    `m[np.diag_indices_from(m)] = v`. When a separate array is what you
    want, say so with `.copy()` (`d = np.diag(m).copy()`), which is not
    reported.

    ## Known false alarms
    * Not reported: read-only use; writes to an explicit `.copy()`; writes
      to `a.flatten()` through a name (a copy in NumPy too); results made
      from a temporary (`np.flip(np.arange(5))`: nothing else can see the
      difference); `np.diag` of a vector (it builds a new matrix in both
      libraries). When the rank of `np.diag`'s argument is unknown, a write
      through a name is reported only when nothing reads that name again
      while the original is read (`d = np.diag(m); d[:] = d + r; return m`):
      such a write only makes sense if it reaches `m`.
    * `a.flat[i] = v` is not reported: cuPyNumeric 26.6.1 writes it through
      to `a` (by gathering the array to the host, which costs, but keeps
      NumPy's meaning).
    * A flip or ravel used as scratch space is not reported: when the copy
      is read after the write and the original (a local name) is not, the
      write never meant to reach the original (`part = a.ravel();
      part.sort(); return part[k]`). Writes to a diagonal are always
      reported, since NumPy refuses them.
    * Writes made before the copy in the source (reached only through a
      loop) are not counted.
    """

    code = "CPN205"
    slug = "write-to-copy"
    category = Category.REFACTOR
    recipe = "RR-write-through"
    summary = "Write to the result of np.diag/np.flip/ravel, a copy in cuPyNumeric"
    message = "{call} {nature}, so {writes} {effect}; {fix} (RR-write-through)"
    short = "{call} is a copy on cuPyNumeric: writes to it are lost (RR-write-through)"

    valid = (
        # read-only use
        Valid(
            """
            import numpy as np
            m = np.ones((4, 4))
            d = np.diag(m)
            total = d.sum()
            r = np.flip(m)
            print(r[0], m.ravel()[3], m.diagonal().max())
            """
        ),
        # a vector's diagonal matrix is a new array in both libraries
        Valid("""
            import numpy as np
            w = np.arange(4.0)
            D = np.diag(w)
            D[0, 0] = 10.0
            D *= 2.0
            """),
        # an explicit copy
        Valid("""
            import numpy as np
            a = np.arange(6.0).reshape(2, 3)
            r = np.flip(a).copy()
            r[0] = 1.0
            """),
        # flatten() through a name is a copy in NumPy as well; .flat writes through
        Valid("""
            import numpy as np
            a = np.ones((2, 3))
            f = a.flatten()
            f[0] = 5.0
            a.flat[2] = 1.0
            """),
        # writing through to the original
        Valid("""
            import numpy as np
            m = np.zeros((3, 3))
            np.fill_diagonal(m, 5.0)
            m[-1, :] = 1.0
            """),
        # rank unknown, and the new array is what the function uses: a vector's diagonal matrix
        Valid("""
            import numpy as np
            def scaled(w, s):
                D = np.diag(w)
                D[:] = D * s
                return D
            """),
        # rebound before the write, and a temporary source
        Valid("""
            import numpy as np
            a = np.ones(6)
            r = a.ravel()
            r = np.zeros(6)
            r[0] = 1.0
            q = np.flip(np.arange(5.0))
            q[0] = 9.0
            """),
    )
    invalid = (
        Invalid(
            """
            import numpy as np
            m = np.zeros((3, 3))
            d = np.diag(m)
            d[0] = 5
            """,
            line=3,
            contains="line 4",
        ),
        # rank unknown, but the write only makes sense if it reaches the matrix
        Invalid("""
            import numpy as np
            def regularize(matrix: np.ndarray, ridge: float) -> np.ndarray:
                d = np.diag(matrix)
                d[:] = d + ridge
                return matrix
            """, line=3, contains="raises in NumPy"),
        Invalid("""
            import numpy as np
            a = np.zeros((2, 3))
            a.ravel()[3] = 1
            """, line=3, contains="'a'"),
        Invalid("""
            import numpy as np
            a = np.ones((4, 4))
            np.flip(a, axis=0)[0] = 0.0
            """, line=3),
        Invalid("""
            import numpy as np
            a = np.ones((4, 4))
            np.diagonal(a, 1)[:] = 2.0
            """, line=3),
        Invalid("""
            import numpy as np
            a = np.arange(5.0)
            np.flip(a)[0] = 2.0
            """, line=3),
        Invalid(
            """
            import numpy as np
            def clamp(a: np.ndarray):
                flat = a.ravel()
                flat[flat < 0] = 0.0
                return a
            """,
            line=3,
        ),
        Invalid("""
            import numpy as np
            a = np.ones((3, 3))
            r = np.fliplr(a)
            r += 1.0
            """, line=3, contains="'r += 1.0'"),
        # a file whose only such call is a reshape (or np.rot90)
        Invalid("""
            import numpy as np
            base = np.zeros(64)
            image = base.reshape(8, 8)
            image[0, :] = 1.0
            print(base.sum())
            """, line=3, contains="image[0, :] = 1.0"),
        Invalid("""
            import numpy as np
            a = np.ones(4)
            b = np.ones(4)
            r = np.flipud(a)
            np.add(b, 1.0, out=r)
            """, line=4),
        Invalid("""
            import numpy as np
            def boost(m):
                m[0, 0] = 0.0
                m.diagonal()[:] += 1.0
            """, line=4, contains="raises in NumPy"),
        Invalid("""
            import numpy as np
            a = np.ones((2, 2))
            a.flatten()[0] = 0.0
            """, line=3, contains="lost"),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy() or not any(word in model.source for word in _WORDS):
            return
        for copy in _copies(model):
            writes = _writes_to(model, copy)
            if not writes:
                continue
            first = writes[0]
            described = f"the write at line {first.line} ('{model.segment(first.node, 40)}')"
            if len(writes) > 1:
                described += f" and {len(writes) - 1} more"
            yield self.finding(
                copy.node,
                in_loop=model.in_loop(copy.node),
                call=model.segment(copy.node, 40),
                nature=_NATURE[copy.what],
                writes=described,
                effect=_effect(model, copy),
                fix=_fix(model, copy),
                data={"kind": copy.what, "lines": [w.line for w in writes]},
            )


_NATURE = {
    DIAG: "is a read-only view in NumPy and a copy in cuPyNumeric",
    FLIP: "is a view in NumPy but a copy in cuPyNumeric",
    RAVEL: "is a view in NumPy but a copy in cuPyNumeric",
    FLATTEN: "is a copy in NumPy and in cuPyNumeric",
}


def _effect(model: FileModel, copy: _Copy) -> str:
    source = model.segment(copy.source, 24)
    if copy.what == DIAG:
        return f"raises in NumPy and silently leaves '{source}' unchanged in cuPyNumeric"
    if copy.what == FLATTEN:
        return f"is lost and never reaches '{source}'"
    return f"does not reach '{source}' under cuPyNumeric"


def _fix(model: FileModel, copy: _Copy) -> str:
    source = model.segment(copy.source, 24)
    if copy.what == DIAG:
        return f"write the diagonal through '{source}' (np.fill_diagonal({source}, v) or {source}[np.diag_indices_from({source})] = v)"
    if copy.what == FLIP:
        return f"write into '{source}' at the mirrored positions (flip the values written, not the target)"
    if copy.what == FLATTEN:
        return f"write to '{source}' itself"
    return f"write through to '{source}' itself (a mask or an index on '{source}')"


def _copies(model: FileModel) -> Iterator[_Copy]:
    for call in model.nodes(ast.Call):
        copy = _copy_made_by(model, call)
        # A copy of a temporary: nothing else holds the original to notice.
        if copy is not None and _named(copy.source):
            yield copy


def _copy_made_by(model: FileModel, call: ast.Call) -> _Copy | None:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _METHOD_COPIES:
        if model.is_array(func.value):
            return _Copy(call, _METHOD_COPIES[func.attr], func.value)
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name not in _FUNCTION_COPIES or not call.args:
        return None  # cheap test before resolving the name through the imports
    api = model.call_api(call)
    first = call.args[0]
    if api not in _FUNCTION_COPIES or not model.is_array(first):
        return None
    if api == "diag":
        ndim = _ndim(model, first)
        if ndim is not None and ndim < 2:
            return None  # np.diag(v) of a vector builds a new matrix
        return _Copy(call, DIAG, first, uncertain=ndim is None)
    return _Copy(call, _FUNCTION_COPIES[api], first)


def _named(expr: ast.expr) -> bool:
    """``a``, ``self.grid``, ``a[0]``, ``a.T``: an array something else can still read."""
    while isinstance(expr, (ast.Subscript, ast.Attribute)):
        expr = expr.value
    return isinstance(expr, ast.Name)


def _writes_to(model: FileModel, copy: _Copy) -> list[_Write]:
    """Writes to the copy that only make sense if it were a view: a direct
    write to the expression, or writes through the name it is assigned to,
    unless that looks like scratch work (the copy is used afterwards while the
    original is not read again)."""
    direct = _write_at(model, copy.node)
    if direct is not None:
        return [direct]
    parent = model.parent(copy.node)
    if copy.what == FLATTEN or not (isinstance(parent, ast.Assign) and parent.value is copy.node and len(parent.targets) == 1):
        return []  # a flatten() through a name is an ordinary new array
    target = parent.targets[0]
    if not isinstance(target, ast.Name) or name_key(target) == name_key(copy.source):
        return []  # x = x.ravel(): the original is no longer in reach
    after = (parent.end_lineno or parent.lineno, parent.end_col_offset or 0)
    writes: list[_Write] = []
    for use in uses_reached_by(model, target):
        write = _write_at(model, use) if (use.lineno, use.col_offset) >= after else None
        if write is not None:
            writes.append(write)
    for aug in aug_targets_reached_by(model, target):
        if (aug.lineno, aug.col_offset) >= after:
            writes.append(_Write(model.statement_of(aug) or aug, aug.lineno))
    if not writes:
        return []
    writes.sort(key=lambda w: (w.line, getattr(w.node, "col_offset", 0)))
    first_write_end = _end(writes[0].node)
    if copy.uncertain:
        # Of a matrix, the write was meant for the diagonal; of a vector it
        # fills a new matrix, which a program then reads. A write nothing
        # reads again, while the original is read, was meant for the original.
        last_write_end = _end(writes[-1].node)
        if _read_after(model, target, writes[-1].node, last_write_end) or not _source_read_after(
            model, copy.source, writes[0].node, first_write_end
        ):
            return []
        return writes
    # NumPy refuses writes to a diagonal, so those are never scratch work.
    if copy.what != DIAG and _read_after(model, target, writes[0].node, first_write_end) and not (
        _source_read_after(model, copy.source, writes[0].node, first_write_end)
    ):
        return []
    return writes


def _end(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "end_lineno", None) or getattr(node, "lineno", 0), getattr(node, "end_col_offset", None) or 0)


_METADATA = frozenset({"shape", "dtype", "ndim", "size", "itemsize", "nbytes", "strides"})


def _source_read_after(model: FileModel, source: ast.expr, write: ast.AST, position: tuple[int, int]) -> bool:
    """Is the original array's data read after the write (at ``position``,
    and not on the other branch of an ``if`` holding it)? A name is followed
    in its scope (module-level code like a function body, a global read by
    any function of the file counting as read); an attribute, or a global a
    function writes through, is assumed to be read elsewhere."""
    base = source
    while isinstance(base, ast.Subscript):
        base = base.value
    if not isinstance(base, ast.Name):
        return True
    scope = model.lookup(base)
    if scope is None:
        return True
    if scope is model.module_scope:
        if model.scope_of(write) is not scope:
            return True  # a function writing through a global: other code may read it
        # module-level code reads it as a function body would, and any function of the file may too
        if any(isinstance(use.ctx, ast.Load) and model.scope_of(use) is not scope and model.lookup(use) is scope
               for use in model.names_by_id().get(base.id, ())):
            return True
    origin = {id(b) for b in model.reaching_bindings(base)}
    for name in _loads_after(model, base, write, position):
        if not origin & {id(b) for b in model.reaching_bindings(name)}:
            continue
        parent = model.parent(name)
        if isinstance(parent, ast.Attribute) and parent.attr in _METADATA:
            continue
        return True
    return False


def _read_after(model: FileModel, name: ast.Name, write: ast.AST, position: tuple[int, int]) -> bool:
    """Is ``name`` loaded again after the write (whatever binding it then
    holds, so that a doubt keeps the rule quiet)? Writes do not count."""
    for load in _loads_after(model, name, write, position):
        if _write_at(model, load) is None:
            return True
    return False


def _loads_after(model: FileModel, name: ast.Name, write: ast.AST, position: tuple[int, int]) -> Iterator[ast.Name]:
    """Loads of ``name`` in its scope after ``position`` on a path from ``write``."""
    scope = model.lookup(name)
    for load in model.nodes(ast.Name):
        if load.id != name.id or not isinstance(load.ctx, ast.Load) or (load.lineno, load.col_offset) <= position:
            continue
        if model.lookup(load) is scope and not _on_other_branch(model, write, load):
            yield load


def _on_other_branch(model: FileModel, first: ast.AST, second: ast.AST) -> bool:
    """Are the two nodes in different branches of one ``if``, so that no run
    reaches both?"""
    second_path = {id(a) for a in model.ancestors(second)}
    child = first
    for ancestor in model.ancestors(first):
        if isinstance(ancestor, ast.If) and id(ancestor) in second_path:
            in_body = any(s is child for s in ancestor.body)
            other = ancestor.orelse if in_body else ancestor.body
            return any(s is second or id(s) in second_path for s in other)
        child = ancestor
    return False


def _write_at(model: FileModel, node: ast.expr) -> _Write | None:
    """Is the array ``node`` evaluates to written to here?"""
    current: ast.AST = node
    parent = model.parent(current)
    # d[0][1] = ..., d.T[0] = ..., d.flat[3] = ...: still the same memory.
    while (isinstance(parent, ast.Subscript) and parent.value is current and isinstance(parent.ctx, ast.Load)) or (
        isinstance(parent, ast.Attribute) and parent.attr in _VIEW_ATTRIBUTES and isinstance(parent.ctx, ast.Load)
    ):
        current, parent = parent, model.parent(parent)
    if isinstance(parent, ast.Subscript) and parent.value is current and isinstance(parent.ctx, ast.Store):
        statement = model.statement_of(parent)
        return _Write(statement or parent, parent.lineno)
    if isinstance(parent, ast.keyword) and parent.arg == "out":
        call = model.parent(parent)
        return _Write(call or parent, parent.value.lineno)
    if isinstance(parent, ast.Attribute) and parent.attr in _MUTATING_METHODS:
        call = model.parent(parent)
        if isinstance(call, ast.Call) and call.func is parent:
            return _Write(call, call.lineno)
    if isinstance(parent, ast.Call) and parent.args and parent.args[0] is current and model.call_api(parent) in _WRITING_FUNCTIONS:
        return _Write(parent, parent.lineno)
    return None


def _ndim(model: FileModel, expr: ast.expr) -> int | None:
    """The number of dimensions of ``expr``: from its shape, or for a name,
    from how its function indexes it (``m[i, j]`` shows two dimensions)."""
    shape = model.shape(expr)
    if shape is not None:
        return len(shape)
    if not isinstance(expr, ast.Name):
        return None
    scope = model.lookup(expr)
    if scope is None:
        return None
    most = None
    for sub in model.nodes(ast.Subscript):
        if isinstance(sub.value, ast.Name) and sub.value.id == expr.id and model.lookup(sub.value) is scope:
            index = sub.slice
            if isinstance(index, ast.Tuple) and not any(isinstance(e, ast.Constant) and e.value in (None, Ellipsis) for e in index.elts):
                most = max(most or 0, len(index.elts))
    return most


def _name_ndim(model: FileModel, name: ast.Name, depth: int) -> int | None:
    """From the values bound to the name, or from how the function indexes it
    (``m[i, j]`` shows two dimensions)."""
    bindings = model.reaching_bindings(name)
    dims = {_ndim(model, b.value, depth + 1) if b.kind is BindKind.VALUE and b.value is not None else None for b in bindings}
    if len(dims) == 1 and None not in dims:
        return dims.pop()
    scope = model.lookup(name)
    if scope is None:
        return None
    most = None
    for sub in model.nodes(ast.Subscript):
        if isinstance(sub.value, ast.Name) and sub.value.id == name.id and model.lookup(sub.value) is scope:
            index = sub.slice
            if isinstance(index, ast.Tuple) and not any(
                isinstance(e, ast.Constant) and e.value in (None, Ellipsis) for e in index.elts
            ):
                most = max(most or 0, len(index.elts))
    return most
