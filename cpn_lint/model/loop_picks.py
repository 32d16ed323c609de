"""Loop work: the accesses an iteration picks (:class:`PickWork`).

An access the index picks is an element, a row or a piece of an array:
``a[i]``, ``a[i, j]``, ``a[:, k]``, a slice ``a[i:i + 3]`` the loop slides
or tiles, a prefix an axis walks, a mask computed from data the index does
not pick, a pick a helper of the file makes with the indices it is handed.
A mixin of :class:`~cpn_lint.model.loops.WorkAnalysis`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .kinds import NEUTRAL, Kind
from .loop_helpers import (_COMPUTING_BUILTINS, _CONTRACTIONS, _components, _mask_of_indices, _pixel, _reach,
                           _through_views, _unclamped, chain_mentions, mentions)
from .loop_work import SMALL_PICK, SMALL_SLICE, Work
from .numpy_api import SHAPE_FIRST
from .scopes import BindKind, LoopFrame, Scope
from .shapes import literal_size
from .spatial import (SliceForm, index_loop, offset_from, picks_axis_by, sized_by_data, slice_form, tiles, unit_step,
                      walks_data, writes_piece_by)
from .syntax import names_in, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel



def _least_rank(model: "FileModel", array: ast.expr) -> int:
    """How many axes an array of unknown shape has at least: one per item of
    the shape tuple of its allocation (``np.zeros((k, m, *grid))``: 3, a
    starred part counting as one), when every binding that reaches here is
    such an allocation (or says nothing, like ``= None``); else 0."""
    if not isinstance(array, ast.Name):
        return 0
    bindings = model.reaching_bindings(array)
    if bindings and all(b.kind is BindKind.PARAM for b in bindings):
        return _shape_rank_evidence(model, array)
    least = None
    for binding in bindings:
        made = binding.value
        if model.values.binding_kind(binding) in NEUTRAL:
            continue  # `grhos = None` until allocated: neutral, as when kinds are joined
        if binding.kind is not BindKind.VALUE or not isinstance(made, ast.Call) or model.call_api(made) not in SHAPE_FIRST:
            return 0
        shape = made.args[0] if made.args else next((k.value for k in made.keywords if k.arg == "shape"), None)
        if not isinstance(shape, (ast.Tuple, ast.List)):
            return 0
        # each starred part counts as one axis: it is there to add axes
        # (`(k, m, *grid)` of a 2-D grid has four)
        explicit = len(shape.elts)
        least = explicit if least is None else min(least, explicit)
    return least or 0


def _shaped_like(model: "FileModel", array: ast.expr) -> tuple[int, ast.expr] | None:
    """``(1, rho)`` when every binding of ``array`` that reaches here
    allocates it with a shape of written-out leading sizes followed by an
    array's shape (``np.empty((9,) + rho.shape)``, ``np.zeros((k, *u.shape))``):
    one index per leading size picks a piece shaped like that array."""
    if not isinstance(array, ast.Name):
        return None
    found: tuple[int, ast.expr] | None = None
    for binding in model.reaching_bindings(array):
        made = binding.value
        if binding.kind is not BindKind.VALUE or not isinstance(made, ast.Call) or model.call_api(made) not in SHAPE_FIRST or not made.args:
            return None
        shape = made.args[0]
        lead: list[ast.expr]
        if isinstance(shape, ast.BinOp) and isinstance(shape.op, ast.Add) and isinstance(shape.left, ast.Tuple):
            lead, tail = list(shape.left.elts), shape.right
        elif isinstance(shape, ast.Tuple) and shape.elts and isinstance(shape.elts[-1], ast.Starred):
            lead, tail = list(shape.elts[:-1]), shape.elts[-1].value
        else:
            return None
        if not (isinstance(tail, ast.Attribute) and tail.attr == "shape") or any(isinstance(e, ast.Starred) for e in lead):
            return None
        this = (len(lead), tail.value)
        if found is not None and (found[0] != this[0] or ast.dump(found[1]) != ast.dump(this[1])):
            return None
        found = this
    return found


def _shape_rank_evidence(model: "FileModel", param: ast.Name) -> int:
    """The axes a parameter's function reads of its shape: ``b.shape[2]``
    needs three, ``n, d = X.shape`` two (0 when it reads none)."""
    return model.derived("shape-rank-evidence", _shape_reads).get((id(model.lookup(param)), param.id), 0)


def _shape_reads(model: "FileModel") -> dict[tuple[int, str], int]:
    """For every (scope, name) whose ``.shape`` the file reads, the axes it
    reads; one pass over the file's ``x.shape`` (asking per parameter went
    over every use of the name in the file: quadratic in a file of many
    functions with the same parameter names)."""
    least: dict[tuple[int, str], int] = {}
    for attribute in model.nodes(ast.Attribute):
        if attribute.attr != "shape" or not isinstance(attribute.value, ast.Name):
            continue
        use = attribute.value
        outer = model.parent(attribute)
        axes = 0
        if isinstance(outer, ast.Subscript) and outer.value is attribute:
            k = model.const_int(outer.slice)
            if k is not None and k >= 0:
                axes = k + 1
        elif isinstance(outer, ast.Assign) and outer.value is attribute and len(outer.targets) == 1:
            target = outer.targets[0]
            if isinstance(target, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in target.elts):
                axes = len(target.elts)
        if axes:
            key = (id(model.lookup(use)), use.id)
            least[key] = max(least.get(key, 0), axes)
    return least


class PickWork:
    """The work of the accesses an iteration picks: elements, rows, pieces, slices, masks."""

    model: "FileModel"

    def _picks_in_helper(self, call: ast.Call, own: frozenset[str]) -> tuple[Work, list[ast.Subscript]] | None:
        """``helper(i, j)`` or ``flip(s, i, j)``: a function of the file handed
        the loop's own indices that picks the arrays it reads (its closure's,
        the module's, the ones it is handed) by what it receives
        (``img[x + a][y + b]``, ``s[i, j]``): the work of one call and the
        picks it makes for the loop. None when it picks nothing so, or also
        works on whole arrays."""
        model = self.model
        callee = model.calls.callee(call)
        if callee is None or any(model.kind(a).is_array and not isinstance(a, ast.Name) for a in call.args):
            return None
        arguments = {p: model.calls.argument(call, callee, p) for p in callee.params}
        receiving = frozenset(p for p, a in arguments.items() if a is not None and mentions(a, own))
        if not receiving:
            return None
        received = _reach(self._edges(callee), receiving)
        work = Work.NONE
        picks: list[ast.Subscript] = []
        for node in walk(callee.node):
            if node is callee.node:
                continue
            if isinstance(node, ast.Subscript) and model.kind(node.value) is Kind.DEVICE:
                if mentions(node.slice, received):
                    work = max(work, self._pick_work(node, received))
                    picks.append(node)
                else:
                    work = max(work, self._whole_subscript_work(node))
            elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load) and self._is_array_use(node):
                work = max(work, self._size_work(node, Work.SLAB))
            elif isinstance(node, ast.Call) and model.calls.callee(node) is not callee:
                work = max(work, self._call_work(node))
            if work is Work.SLAB:
                return None
        return (work, picks) if picks else None

    def _result_piece(self, sub: ast.Subscript, frame: LoopFrame, names: frozenset[str], own: frozenset[str]) -> bool:
        """Is ``sub`` the piece of the result the iteration stores into, picked
        by the loop's own index (``out[t] = ...`` of a stack of matrices)?
        What is stored is as much work as what computes it, which the loop's
        other accesses show; the piece's own rank adds nothing. (A block of
        unknown size, ``out[i:i + chunk]``, is not such a piece.)"""
        model = self.model
        if not isinstance(sub.ctx, ast.Store) or not chain_mentions(model, sub, own):
            return False
        stmt = model.parent(sub)
        if not isinstance(stmt, (ast.Assign, ast.AugAssign)):
            return False
        if not any(not isinstance(c, ast.Slice) and mentions(c, own) for c in _components(sub)):
            return False  # LU[k + 1:, k + 1:] -= ...: a trailing block, not a picked piece
        if self._pieces(sub, _components(sub), names, frame) is None:
            return False
        # what is stored must be computed from pieces the index picks (not
        # from values of unknown kind, which say nothing of its size)
        return self._from_picks(stmt.value, frame, names)

    def _from_picks(self, expr: ast.expr, frame: LoopFrame, names: frozenset[str], depth: int = 0) -> bool:
        """Is ``expr`` computed from an access the index picks, directly or
        through names the loop binds (``Wc = W - W.mean(0)`` after ``W =
        X[t:t + window]``)?"""
        model = self.model
        for node in walk(expr):
            if isinstance(node, ast.Subscript) and mentions(node.slice, names) and model.kind(node.value) is Kind.DEVICE:
                return True
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and depth < 3:
                for b in model.reaching_bindings(node):
                    if b.kind is BindKind.VALUE and b.value is not None and b.loop is not None and frame.contains(b.loop) \
                            and self._from_picks(b.value, frame, names, depth + 1):
                        return True
        return False

    def _panel_times_row(self, sub: ast.Subscript, frame: LoopFrame, names: frozenset[str]) -> bool:
        """``L[j + 1:, :j] @ L[j, :j]`` stored into ``L[j + 1:, j]``, ``L[i, :i] @
        X[:i, :]`` into ``X[i, :]``: a panel bounded by the index (a prefix
        or suffix along an axis the loop walks) contracted with a row the
        index picks into a row the index picks — column j of a Cholesky
        factor, row i of a triangular solve with many right-hand sides: one
        row of the result per pass, a 1/n share of the work (SPEC §3)."""
        model = self.model
        pieces = self._pieces(sub, _components(sub), names, frame)
        if pieces is None or not pieces[2]:
            return False  # no prefix or suffix the index bounds
        child, parent = _through_views(model, sub)
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.MatMult):
            partners = [parent.right if parent.left is child else parent.left]
        elif isinstance(parent, ast.Call) and child in parent.args and model.call_api(parent) in _CONTRACTIONS:
            partners = [a for a in parent.args if a is not child]
        else:
            return False
        if not all(self._picked_piece(p, frame, names) is not None for p in partners):
            return False
        return self._stored_into_piece(parent, frame, names) or model.kind(parent) is Kind.DEVICE_SCALAR

    def _picked_in_helper(self, node: ast.Name, frame: LoopFrame) -> Work | None:
        """``u[i, t + 1] = eom(u, dt, i, t)`` inside ``for i``: the function of
        the file only picks elements of ``u`` by the index it is handed (itself
        or through the helpers it hands both to), so the loop works on an
        element of ``u`` per pass, not on all of it. None when not shown."""
        model = self.model
        call = model.parent(node)
        if not isinstance(call, ast.Call) or node not in call.args:
            return None
        callee = model.calls.callee(call)
        if callee is None:
            return None
        picks = self._helper_picks(call, callee, node, self.varying(frame), 0)
        if picks is None:
            return None
        shape = model.shape(node)
        return Work.ROW if shape is not None and picks < len(shape) else Work.ELEMENT

    def _helper_picks(self, call: ast.Call, callee: "Scope", array: ast.expr, indices: frozenset[str], depth: int) -> int | None:
        """The fewest index components with which ``callee`` picks from the
        parameter ``call`` hands ``array`` to, when every use of it is a pick
        by the parameters that receive ``indices`` (no slices), or a hand-over
        of it with them to another function of the file. None otherwise."""
        model = self.model
        arguments = {p: model.calls.argument(call, callee, p) for p in callee.params}
        given = [p for p, a in arguments.items() if a is array]
        receiving = frozenset(p for p, a in arguments.items() if a is not None and a is not array and mentions(a, indices))
        if len(given) != 1 or not receiving or depth > 2:
            return None
        receiving = _reach(self._edges(callee), receiving)  # x_ = np.floor(x).astype(int) of a received x
        param = given[0]
        if any(b.kind is not BindKind.PARAM for b in callee.bindings.get(param, ())):
            return None  # rebound inside: the name stops meaning the array
        fewest: int | None = None
        for use in walk(callee.node):
            if not (isinstance(use, ast.Name) and use.id == param and isinstance(use.ctx, ast.Load)):
                continue
            if model.lookup(use) is not callee:
                return None
            parent = model.parent(use)
            if isinstance(parent, ast.Subscript) and parent.value is use:
                components = _components(parent)
                if any(isinstance(c, ast.Slice) for c in components) or not mentions(parent.slice, receiving):
                    return None
                count: int | None = len(components)
            elif isinstance(parent, ast.Call) and use in parent.args and (inner := model.calls.callee(parent)) is not None:
                count = self._helper_picks(parent, inner, use, receiving, depth + 1)
            else:
                return None
            if count is None:
                return None
            fewest = count if fewest is None else min(fewest, count)
        return fewest

    def _host_arguments(self, frame: LoopFrame) -> set[int]:
        """Nodes that only feed output or host libraries (``plt.plot(x[:, 0])``,
        ``print(u)``): taken to the host, not device work of the iteration."""
        model = self.model
        found: set[int] = set()
        for call in model.nodes_in_loop(frame, ast.Call):
            if isinstance(call.func, ast.Name) and call.func.id in _COMPUTING_BUILTINS:
                continue  # max(delta, abs(V[i, i] - 1.0)): Python computes on the elements
            if id(call) not in found and model.is_host_call(call):
                for argument in [*call.args, *(k.value for k in call.keywords)]:
                    found.update(id(n) for n in walk(argument))
        return found

    def _all_indices(self, frame: LoopFrame) -> frozenset[str]:
        """Everything that varies per iteration of ``frame`` or of a loop
        around it, and the indices of the loops inside it (``jj = j * s`` of
        an inner ``for j``, whatever kind ``s`` has)."""
        key = id(frame)
        found = self._all.get(key)
        if found is None:
            names: set[str] = set()
            current: LoopFrame | None = frame
            while current is not None:
                names |= self.varying(current)
                current = current.parent
            for inner in self.model.loops_within(frame):
                names |= self.own_indices(inner)
            found = self._all[key] = frozenset(names)
        return found

    def _pick_work(self, sub: ast.Subscript, names: frozenset[str], frame: LoopFrame | None = None) -> Work:
        """The work of an access the iteration picks: an element, a row, or a
        slab. Besides indices, the pieces an index picks are windows,
        prefixes and row segments (see :mod:`.spatial`); what the index
        leaves whole decides the size, except that a pixel picked along two
        axes across a batch (``out[:, i, j, :]``) is one batched element."""
        model = self.model
        outer, parent = sub, model.parent(sub)
        while isinstance(parent, ast.Subscript) and parent.value is outer and mentions(parent.slice, names):
            outer, parent = parent, model.parent(parent)
        if outer is not sub:
            return self._pick_work(outer, names, frame)  # T[i][j]: the chain picks what its last pick picks
        kind = model.kind(sub)
        if kind is Kind.DEVICE_SCALAR:
            return Work.ELEMENT
        components = _components(sub)
        pieces = self._pieces(sub, components, names, frame)
        if pieces is None:
            return Work.SLAB  # x[i:i + chunk], x[:, k:k + n]: a block per iteration
        picked, windows, partial, literal_only = pieces
        batched = _pixel(components, names)  # a pixel (or cell) across the batch axes the index leaves
        shape = model.shape(sub)
        if shape is not None:
            size = literal_size(shape)
            if size is not None and size <= SMALL_PICK:
                return Work.ELEMENT
            if windows and literal_only and len(shape) <= 1:
                return Work.ELEMENT  # a[i:i + 2]
            added = sum(1 for c in components if isinstance(c, ast.Constant) and c.value is None)
            # a window of a few literal elements beside whole axes (points[i:i + 1, :])
            # is judged by its rank, as before windows were pieces
            rest = len(shape) - added - (0 if literal_only else windows)
            if rest <= 0:
                return Work.ELEMENT
            return Work.ROW if rest <= 1 or batched else Work.SLAB
        like = _shaped_like(model, sub.value)
        if like is not None and like[0] == len(components) and not windows and not partial and not self._free_axes(components):
            # feq[q] of np.empty((9,) + rho.shape): as big as rho
            return self._size_work(like[1], Work.SLAB) if model.kind(like[1]) is Kind.DEVICE else Work.ELEMENT
        if windows and literal_only and not partial:
            return Work.ELEMENT
        free = self._free_axes(components) + partial
        parent = model.parent(sub)
        if not free and not windows and not (isinstance(parent, ast.Subscript) and parent.value is sub):
            # np.zeros((k, m, *grid))[i]: at least the axes the index leaves
            # (not in a chain, E[i][j][0], which goes on picking)
            free = max(0, _least_rank(model, sub.value) - len(components))
        # a[:, :, k] of an array of unknown rank is still a matrix per iteration
        if free >= 2 and not batched:
            return Work.SLAB
        return Work.ROW if free else Work.ELEMENT

    def _pieces(self, sub: ast.Subscript, components: list[ast.expr], names: frozenset[str],
                frame: LoopFrame | None) -> tuple[set[str], int, int, bool] | None:
        """(names that pick an axis, window axes, partial axes, all windows of
        literal width) of a picked access; None when a slice the index moves
        is a block of unknown size (a chunk, a shift by a tap)."""
        model = self.model
        picked: set[str] = set()
        windows = partial = 0
        literal_only = True
        blocks: list[str] = []
        array = sub.value.id if isinstance(sub.value, ast.Name) else None
        for axis, part in enumerate(components):
            if not mentions(part, names):
                continue
            if not isinstance(part, ast.Slice):
                if frame is not None and self._whole_mask(part, frame, names):
                    return None  # X[labels == k]: a mask over every point, as big as the data
                picked |= names_in(part) & names
                continue
            width = self._slice_width(part, names)
            if width is not None and width <= SMALL_SLICE:
                windows += 1
                picked |= names_in(part) & names
                continue
            literal_only = False
            form = slice_form(part, names)
            if form is None and frame is not None:
                form = slice_form(self._bounds_bound_in(part, frame), names)
            if form is None and self._bounded_by_pick(part, names):
                partial += 1  # hist[:image[i, j]]: a prefix as long as a value the index picks
                continue
            if form is None or frame is None:
                return None
            loop = index_loop(model, frame, form.var)
            if loop is None:
                return None  # moved by a number the body computes (a random start): size unknown
            if form.form is SliceForm.SEGMENT:
                partial += 1
            elif form.form is SliceForm.PREFIX:
                # (of a row computed from a pick by the same index, (a[k] * s)[k:],
                # the row is classified on its own)
                computed = not isinstance(sub.value, ast.Name) and any(
                    isinstance(n, ast.Subscript) and form.var in names_in(n.slice) for n in walk(sub.value))
                # (L[i, :i] of a unit triangle: the row the same access picks by i is walked)
                triangle = any(not isinstance(c, ast.Slice) and offset_from(c, form.var) is not None for c in components) \
                    and unit_step(model, loop, form.var)
                if not computed and not triangle and not self._walks_axis(loop, form.var, array, axis):
                    return None
                partial += 1
            elif form.form is SliceForm.WINDOW:
                if self._tiles(loop, part, form.var):
                    windows += 1  # a[i:i + k] with i += k: one block of a tiling per pass
                    picked.add(form.var)
                    continue
                if not self._slides(loop, form.var) or self._shift_of_data(part, form.var, loop):
                    return None
                windows += 1
                picked.add(form.var)
            else:
                blocks.append(form.var)
        if blocks:
            # blocks along two axes at once (pooling); along one, a minibatch
            if len(picked | set(blocks)) < 2 or not all(self._slides(index_loop(model, frame, v), v, blocks=True) for v in blocks):  # type: ignore[arg-type]
                return None
            windows += len(blocks)
            picked |= set(blocks)
        return picked, windows, partial, literal_only

    def _whole_mask(self, part: ast.expr, frame: LoopFrame, names: frozenset[str], depth: int = 0) -> bool:
        """A boolean mask the loop computes from an array its index does not
        pick (``labels == k``, or a name bound in the loop to it): selecting
        with it reads the whole array every pass."""
        model = self.model
        if isinstance(part, ast.Name) and depth < 2:
            bindings = model.reaching_bindings(part)
            return bool(bindings) and all(
                b.kind in (BindKind.VALUE, BindKind.ELEMENT) and b.value is not None and b.loop is not None
                and frame.contains(b.loop)
                and (b.kind is BindKind.VALUE or _mask_of_indices(model, b.value) is not None)
                and self._whole_mask(b.value, frame, names, depth + 1)
                for b in bindings
            )
        mask = _mask_of_indices(model, part)
        if mask is not None:
            # idx = np.flatnonzero(labels == k); idx, top = np.where(routes == e):
            # the indices of a whole mask select as much as the mask does
            return self._whole_mask(mask, frame, names, depth)
        if isinstance(part, ast.BinOp) and isinstance(part.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return self._whole_mask(part.left, frame, names, depth) or self._whole_mask(part.right, frame, names, depth)
        if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Invert):
            return self._whole_mask(part.operand, frame, names, depth)
        if not isinstance(part, ast.Compare):
            return False
        for operand in (part.left, *part.comparators):
            if mentions(operand, names) or isinstance(operand, ast.Constant):
                continue
            if model.kind(operand) in (Kind.DEVICE, Kind.HOST, Kind.UNKNOWN) and not model.values.small_by_construction(operand):
                return True
        return False

    def _bounded_by_pick(self, part: ast.Slice, names: frozenset[str]) -> bool:
        """``hist[:image[i, j]]``: one bound open or fixed, the other an element
        of a device array the index picks (a level, a count): the piece is
        at most the array's length, a row, however the value falls."""
        if part.step is not None:
            return False
        bounds = [b for b in (part.lower, part.upper) if b is not None and mentions(b, names)]
        fixed = [b for b in (part.lower, part.upper) if b is not None and not mentions(b, names)]
        if len(bounds) != 1 or any(not isinstance(b, ast.Constant) for b in fixed):
            return False
        bound = bounds[0]
        return isinstance(bound, ast.Subscript) and mentions(bound.slice, names) and self.model.kind(bound.value) is Kind.DEVICE \
            and not any(isinstance(c, ast.Slice) for c in _components(bound))

    def _shift_of_data(self, part: ast.Slice, var: str, loop: LoopFrame) -> bool:
        """``img[:, di:di + oh]`` with ``oh = H - kh + 1`` in ``for di in
        range(kh)``: the width is an extent of the data and the trip count
        is not — the loop shifts a whole image once per tap (im2col by
        taps), the opposite of a window sliding over the data."""
        model = self.model
        width = [n for n in walk(part.upper) if isinstance(n, (ast.Name, ast.Attribute, ast.Call))] if part.upper is not None else []
        data_width = any(
            sized_by_data(model, n) for n in width if not (isinstance(n, ast.Name) and n.id == var)
        )
        return data_width and not walks_data(model, loop, var)

    def _bounds_bound_in(self, part: ast.Slice, frame: LoopFrame) -> ast.Slice:
        """``start:end`` with ``start = ptr[i]`` and ``end = ptr[i + 1]``
        bound once in the loop: the slice with those values written in."""
        bounds = [self._with_bounds_written_in(bound, frame) for bound in (part.lower, part.upper)]
        if all(new is old for new, old in zip(bounds, (part.lower, part.upper))):
            return part
        return ast.Slice(lower=bounds[0], upper=bounds[1], step=part.step)

    def _with_bounds_written_in(self, bound: ast.expr | None, frame: LoopFrame, depth: int = 0) -> ast.expr | None:
        """``bound`` with each name the loops around it bind once written in
        (``y_min`` -> ``y - r`` for ``y_min = max(0, y - r)``, clamps dropped),
        as new nodes; ``bound`` itself when nothing changes."""
        if bound is None or depth > 3:
            return bound
        if isinstance(bound, ast.Name):
            bindings = self.model.reaching_bindings(bound)
            if len(bindings) == 1 and bindings[0].kind is BindKind.VALUE and bindings[0].value is not None \
                    and bindings[0].loop is not None and any(f.contains(bindings[0].loop) for f in frame.chain()):
                return self._with_bounds_written_in(bindings[0].value, frame, depth + 1)
            return bound
        unclamped = _unclamped(bound, self._all_indices(frame))
        if unclamped is not bound:
            return self._with_bounds_written_in(unclamped, frame, depth + 1)
        if isinstance(bound, ast.BinOp):
            left, right = self._with_bounds_written_in(bound.left, frame, depth + 1), self._with_bounds_written_in(bound.right, frame, depth + 1)
            if left is not bound.left or right is not bound.right:
                return ast.BinOp(left=left, op=bound.op, right=right)
        return bound

    def _slides(self, loop: LoopFrame | None, var: str, blocks: bool = False) -> bool:
        """Does ``loop`` move a window by ``var`` one step at a time and store
        what it computes into pieces the iteration picks (``y[i] = ...``,
        ``out[:, i, j, :] = ...``, ``out[o] = ...`` by a counter)? A tap loop
        shifting a whole array into an accumulator (``acc += w[k] * u[k:k + n]``)
        does not."""
        if loop is None:
            return False
        key = (id(loop), var, "blocks" if blocks else "slides")
        found = self._spatial_index.get(key)
        if found is None:
            model = self.model
            # a comprehension builds its result one item per pass: each item is the piece
            stores = loop.is_comprehension or writes_piece_by(model, loop, self.varying(loop)) \
                or self._appends_one_per_pass(loop)
            found = (blocks or unit_step(model, loop, var)) and stores
            self._spatial_index[key] = found
        return found

    def _tiles(self, loop: LoopFrame, part: ast.Slice, var: str) -> bool:
        """A block ``a[i:i + k]`` that the loop moves by its width ``k`` over
        an axis whose length bounds the loop (``while i + k <= a.shape[0]``,
        ``range(0, n - k + 1, k)`` with ``n = np.shape(X)[0]``), storing one
        element per block (``out[o] = np.mean(...)`` by a counter,
        ``energies.append(np.sum(...))``) and carrying no whole array from
        pass to pass: a spatial loop over the blocks (frame energies, block
        means). A minibatch loop that updates weights, or sums into one
        total, does neither."""
        key = (id(loop), var, f"tiles {ast.dump(part)}")
        found = self._spatial_index.get(key)
        if found is None:
            model = self.model
            found = tiles(model, loop, part, var) and walks_data(model, loop, var) \
                and self._stores_elements(loop) and not self._carries_whole(loop)
            self._spatial_index[key] = found
        return found

    def _appends_one_per_pass(self, loop: LoopFrame) -> bool:
        """``slopes.append(np.polyfit(x[i - w:i + w], ...)[0])``: each pass
        adds one value (not a known array) to a list, the loop's result."""
        model = self.model
        for call in model.nodes_in_loop(loop, ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr == "append" and len(call.args) == 1 \
                    and isinstance(func.value, ast.Name) and model.loop_of(call) is loop and self._one_value(call.args[0]):
                return True
        return False

    def _one_value(self, value: ast.expr) -> bool:
        """A number, or an array not known to hold more than a few elements
        (``np.polyfit(...)[0]``: one coefficient, of a result of unknown rank)."""
        model = self.model
        kind = model.kind(value)
        if kind in (Kind.HOST, Kind.CUPY):
            return False
        if kind is not Kind.DEVICE:
            return True
        shape = model.shape(value)
        size = literal_size(shape) if shape is not None else None
        return shape is None or (size is not None and size <= SMALL_PICK)

    def _stores_elements(self, loop: LoopFrame) -> bool:
        """Does every pass store single elements of its result, and only those:
        ``out[o] = ...`` (a pick by what varies with the loop, of one
        element) or ``results.append(v)`` of a number into a list?"""
        model = self.model
        varying = self.varying(loop)
        stored = False
        for stmt in model.nodes_in_loop(loop, ast.Assign, ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
            for target in targets:
                if isinstance(target, ast.Subscript) and mentions(target.slice, varying) and model.kind(target.value) is Kind.DEVICE:
                    if any(isinstance(c, ast.Slice) for c in _components(target)) or model.kind(target) not in (Kind.DEVICE_SCALAR, Kind.DEVICE) \
                            or model.shape(target) not in ((), None) or _least_rank(model, target.value) > len(_components(target)):
                        return False
                    stored = True
        for call in model.nodes_in_loop(loop, ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr == "append" and len(call.args) == 1 and isinstance(func.value, ast.Name):
                if model.kind(call.args[0]) not in (Kind.SCALAR, Kind.DEVICE_SCALAR):
                    return False
                stored = True
        return stored

    def _carries_whole(self, loop: LoopFrame) -> bool:
        """Does the loop update an array (or a value of unknown kind) it got
        from before (``W -= lr * grad``, ``w = w - lr * g``), or call what
        works by side effect (``optimizer.step(g)``): state carried from
        pass to pass, as a training loop's weights are?"""
        model = self.model
        counters = self._slice_bound_names(loop)  # i += k of a[i:i + k]: the number that moves the block along
        for stmt in model.nodes_in_loop(loop, ast.Assign, ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
            for target in targets:
                if not isinstance(target, (ast.Name, ast.Attribute)) or (isinstance(target, ast.Name) and target.id in counters):
                    continue
                updated = isinstance(stmt, ast.AugAssign) or any(
                    isinstance(n, type(target)) and ast.dump(n).replace("Load", "Store") == ast.dump(target)
                    for n in walk(stmt.value))  # type: ignore[attr-defined]
                if updated and model.kind(target) not in (Kind.SCALAR, Kind.DEVICE_SCALAR):
                    return True
        for stmt in model.nodes_in_loop(loop, ast.Expr):
            call = stmt.value
            if not isinstance(call, ast.Call) or model.is_host_call(call) or model.call_api(call) is not None:
                continue
            if isinstance(call.func, ast.Attribute) and call.func.attr == "append":
                continue
            return True  # self.backward(grad, lr), optimizer.step(...): state updated out of sight
        return False

    def _walks_axis(self, loop: LoopFrame, var: str, array: str | None, axis: int) -> bool:
        """A prefix ``x[:i]`` is a piece of an axis ``i`` walks: the loop
        picks that axis of the same array by ``i`` (``x[i]``, ``L[i, i]``).
        (A lag loop over ``x[k:]`` and ``x[:-k]``, or over the taps of a
        filter ``b[m + 1:]``, does not: a whole-array product per lag.)"""
        key = (id(loop), var, f"axis {array} {axis}")
        found = self._spatial_index.get(key)
        if found is None:
            model = self.model
            found = unit_step(model, loop, var) and array is not None and picks_axis_by(model, loop, array, axis, var)
            self._spatial_index[key] = found
        return found
