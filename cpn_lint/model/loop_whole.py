"""Loop work: whole-array values inside an iteration (:class:`WholeWork`).

An array read whole every pass is a small operand (a filter, a kernel, a
3-vector beside a point), a value that ends in single elements, or the
iteration's real work; a name's work is the size of what made it (before
the loop, grown in it, a few numbers by construction); a call does work of
its own when it builds a new array of many elements. A mixin of
:class:`~cpn_lint.model.loops.WorkAnalysis`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .kinds import Kind
from .loop_helpers import (VIEW_FUNCTIONS, _COMBINERS, _CONTRACTIONS, _SAME_SIZE_VIEWS, _arithmetic_operands, _array_evidence,
                           _attribute_key, _builtin_extremum, _chain_root, _components, _element_target,
                           _handed_to_unread_parameter, _has_window, _is_elementwise, _offset, _only_new_axes,
                           _tested_for_truth, _through_views, _truth_names, mentions)
from .loop_iterations import _literal_items, holds_integer_range
from .loop_work import SMALL_PICK, Work
from .numpy_api import ARRAY_METADATA, BUILDERS, CONVERSIONS
from .scopes import Binding, BindKind, IterKind, LoopFrame
from .spatial import index_loop, walks_data
from .syntax import names_in, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel



# Calls that compare two arrays of one shape: their operands are as large as each other.
_ROW_COMPARISONS = frozenset({"array_equal", "array_equiv", "allclose", "isclose", "equal", "not_equal"})


class WholeWork:
    """The work of whole-array values, names and calls inside an iteration."""

    model: "FileModel"

    def _kernel_operand(self, node: ast.expr, frame: LoopFrame, names: frozenset[str], rows_of: frozenset[str] = frozenset()) -> bool:
        """Is ``node`` (an array read whole every pass) a small operand of a
        piece the index picks: a filter or weights combined with a window
        (``img[i:i + 3, j:j + 3] * k``, ``inp[:, i:i + K, j:j + K, :, None] *
        w[None]``, ``np.dot(b, x[n - M:n])``), or the other vector of a dot
        product that gives one element (``y[i] = np.dot(w, X[i])``)? Its
        size is bounded by the piece's, so it adds no whole-array work.
        With ``rows_of`` (the loop's own indices), a row the loops around
        fix is such an operand too when it is multiplied by a row those
        indices pick (``lo[i, :i] * up[:i, j]`` inside ``for j``: one dot
        product per element, as in a matrix product by loops)."""

        model = self.model
        if self._stored_into_piece(node, frame, names):
            return True
        child, parent = _through_views(model, node)
        partners: list[ast.expr]
        contraction = False
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, (ast.Mult, ast.Add, ast.Sub, ast.Div, ast.MatMult)):
            partners = [parent.right if parent.left is child else parent.left]
            contraction = isinstance(parent.op, ast.MatMult)
        elif isinstance(parent, ast.Call) and child in parent.args and model.call_api(parent) in _COMBINERS | _ROW_COMPARISONS:
            partners = [a for a in parent.args if a is not child]
            contraction = model.call_api(parent) in _CONTRACTIONS
        elif isinstance(parent, ast.Attribute) and parent.attr == "dot" and isinstance(call := model.parent(parent), ast.Call) \
                and call.func is parent and len(call.args) == 1:
            partners, contraction, parent = [call.args[0]], True, call  # w.dot(x[i]): the method form of np.dot(w, x[i])
        elif isinstance(parent, ast.Compare) and _is_mask_of(parent, child) and isinstance(model.parent(parent), ast.Subscript) \
                and model.parent(parent).slice is parent:  # type: ignore[union-attr]
            partners = [model.parent(parent).value]  # type: ignore[union-attr]  # window[kernel == 1]: a mask of the footprint
        else:
            return False
        for partner in partners:
            pick = self._picked_piece(partner, frame, names)
            if pick is None:
                if contraction and self._walked_item(partner, frame) and self._one_number_from(parent, child, frame, names):
                    return True  # np.dot(row, w) in `for r, row in enumerate(m)`: a row the loop hands out
                continue
            if _has_window(pick, names):
                return True
            if rows_of and (isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mult)
                            or isinstance(parent, ast.Call) and model.call_api(parent) in _ROW_COMPARISONS) \
                    and mentions(pick.slice, rows_of) and self._pick_work(pick, names, frame) is Work.ROW:
                return True  # (np.array_equal(row_i, B[j, :]) inside `for j`: one row against one row)
            if contraction and (self._one_number_from(parent, child, frame, names) or self._dot_of_vectors(child, pick, names, frame)
                                or self._stored_into_piece(parent, frame, names)):
                return True
            if isinstance(parent, ast.BinOp) and not contraction and self._beside_a_point(child, parent, pick, frame, names):
                return True
        return False

    def _beside_a_point(self, whole: ast.expr, combined: ast.AST, pick: ast.Subscript, frame: LoopFrame, names: frozenset[str]) -> bool:
        """``np.sum((centers - X[i]) ** 2, axis=1)`` then ``labels[i] =
        np.argmin(d)`` in ``for i in range(X.shape[0])``: a loop over the
        points of the data, each pass combining one point with an array it
        only reads (centres, coefficients) into one element of the result.
        That array is a small operand (SPEC §3), not whole-array work. (The
        same array on both sides, ``X - X[i]``, is all pairs: not so.)"""
        model = self.model
        if model.kind(pick) is Kind.DEVICE_SCALAR or model.shape(pick) == ():
            return False  # one number broadcast over an array bounds nothing
        base = _chain_root(pick)
        if base is None or ast.dump(base) == ast.dump(_chain_root(whole) or whole):
            return False
        picked_by = [v for v in names_in(pick.slice) if v in names]
        loops = [index_loop(model, frame, v) for v in picked_by]
        if not loops or not any(loop is not None and (loop.iter_kind is IterKind.ARRAY or walks_data(model, loop, v))
                                for loop, v in zip(loops, picked_by)):
            return False
        if self._written_in(whole, frame):
            return False  # state the loop updates, not an operand it reads
        return self._reaches_elements(combined, frame, names)

    def _written_in(self, expr: ast.expr, frame: LoopFrame) -> bool:
        """Does ``frame`` store into the array ``expr`` names (rebind it,
        update it in place or write a piece of it)?"""
        root = _chain_root(expr)
        if root is None:
            return True
        key = ast.dump(root).replace("Load", "Store")
        for target in self.model.nodes_in_loop(frame, ast.Name, ast.Attribute):
            if isinstance(target.ctx, ast.Store) and ast.dump(target) == key:
                return True
        for sub in self.model.nodes_in_loop(frame, ast.Subscript):
            if isinstance(sub.ctx, ast.Store) and (inner := _chain_root(sub)) is not None and ast.dump(inner) == ast.dump(root):
                return True
        return False

    def _one_number_from(self, product: ast.AST, whole: ast.expr, frame: LoopFrame, names: frozenset[str]) -> bool:
        """Does the product of a picked row with ``whole`` give one number:
        a 0-d value, or one that ends in single elements the index picks
        (``y[i] = A[i, :] @ x``; ``s = A[i] @ x - A[i, i] * x[i]`` then
        ``x[i] = (b[i] - s) / A[i, i]``)? Then ``whole`` is as long as the row."""
        model = self.model
        return model.kind(product) is Kind.DEVICE_SCALAR or _element_target(model, product, names) \
            or self._reaches_elements(product, frame, names, elementwise=True)

    def _walked_item(self, expr: ast.expr, frame: LoopFrame) -> bool:
        """Is ``expr`` the item (a row) a loop around it hands out from the
        array it walks (``row`` of ``for r, row in enumerate(m)``)?"""
        if not isinstance(expr, ast.Name):
            return False
        for loop in frame.chain():
            if loop.iter_kind is IterKind.ARRAY and expr.id in loop.element_vars:
                bindings = self.model.reaching_bindings(expr)
                return bool(bindings) and all(b.kind is BindKind.ELEMENT and b.loop is loop for b in bindings)
        return False

    def _reaches_elements(self, node: ast.AST, frame: LoopFrame, names: frozenset[str], elementwise: bool = False, depth: int = 0) -> bool:
        """Does the value of ``node`` end only in single elements the index
        picks (``labels[i] = np.argmin(d)``), or in a test's truth, through
        arithmetic, calls (only element-wise ones with ``elementwise``) and
        names the loop binds?"""
        model = self.model
        child: ast.AST = node
        parent = model.parent(child)
        while True:
            if isinstance(parent, ast.BinOp) and not (elementwise and isinstance(parent.op, ast.MatMult)):
                pass
            elif isinstance(parent, (ast.UnaryOp, ast.Compare, ast.BoolOp)) or (isinstance(parent, ast.IfExp) and child is not parent.test):
                pass
            elif isinstance(parent, ast.Call) and child in parent.args and (not elementwise or _is_elementwise(model.call_api(parent))):
                pass
            elif not elementwise and isinstance(parent, ast.Attribute) and parent.value is child and isinstance(model.parent(parent), ast.Call) \
                    and model.parent(parent).func is parent:  # type: ignore[union-attr]
                parent = model.parent(parent)  # d.sum(axis=1)
            else:
                break
            child, parent = parent, model.parent(parent)
        if isinstance(parent, (ast.If, ast.While)) and parent.test is child:
            return True
        if not (isinstance(parent, (ast.Assign, ast.AugAssign)) and parent.value is child):
            return False
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        if all(isinstance(t, ast.Subscript) and mentions(t.slice, names) and model.kind(t.value) is Kind.DEVICE
               and not any(isinstance(c, ast.Slice) for c in _components(t))
               and self._pick_work(t, names, frame) is Work.ELEMENT for t in targets):
            return True
        if not (isinstance(parent, ast.Assign) and len(targets) == 1 and isinstance(targets[0], ast.Name) and depth < 3):
            return False
        bound = targets[0]
        uses = [n for n in model.nodes_in_loop(frame, ast.Name) if n.id == bound.id and isinstance(n.ctx, ast.Load)
                and any(b.node is bound for b in model.reaching_bindings(n))]
        return bool(uses) and all(self._reaches_elements(use, frame, names, elementwise, depth + 1) for use in uses)

    def _dotted_with_a_row(self, sub: ast.Subscript, frame: LoopFrame, names: frozenset[str]) -> bool:
        """``np.dot(A[i, i + 1:], x_old[i + 1:])``: a slice the index moves,
        in a dot product whose other operand is a row (or row segment) the
        index picks and whose result is one number: as long as that row."""
        model = self.model
        parent = model.parent(sub)
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.MatMult):
            partners = [parent.right if parent.left is sub else parent.left]
        elif isinstance(parent, ast.Call) and sub in parent.args and model.call_api(parent) in _CONTRACTIONS:
            partners = [a for a in parent.args if a is not sub]
        else:
            return False
        return model.kind(parent) is Kind.DEVICE_SCALAR and any(
            (pick := self._picked_piece(p, frame, names)) is not None and self._pick_work(pick, names, frame) is Work.ROW
            for p in partners)

    def _dot_of_vectors(self, whole: ast.expr, pick: ast.Subscript, names: frozenset[str], frame: LoopFrame) -> bool:
        """``np.dot(lu[row], z)`` with ``z`` a vector: the product of a row and
        a vector of its length is one number, so ``z`` is row-sized."""
        shape = self.model.shape(whole)
        return shape is not None and len(shape) == 1 and self._pick_work(pick, names, frame) is Work.ROW

    def _stored_into_piece(self, node: ast.expr, frame: LoopFrame, names: frozenset[str], at_most: Work = Work.ROW) -> bool:
        """``w[:, c] = t``, ``y[i] = a + b``: an array whose value reaches a
        store into a piece the index picks through element-wise steps only
        must broadcast into that piece, so it is no larger than it."""
        model = self.model
        child: ast.AST = node
        parent = model.parent(child)
        while True:
            if isinstance(parent, ast.BinOp) and not isinstance(parent.op, ast.MatMult):
                pass
            elif isinstance(parent, ast.UnaryOp) and not isinstance(parent.op, ast.Not):
                pass
            elif isinstance(parent, ast.Call) and child in parent.args and _is_elementwise(model.call_api(parent)):
                pass
            elif isinstance(parent, ast.IfExp) and child is not parent.test:
                pass
            else:
                break
            child, parent = parent, model.parent(parent)
        if not (isinstance(parent, (ast.Assign, ast.AugAssign)) and parent.value is child):
            return False
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        return all(
            isinstance(t, ast.Subscript) and mentions(t.slice, names) and model.kind(t.value) is Kind.DEVICE
            and self._pick_work(t, names, frame) <= at_most
            for t in targets
        )

    def _picked_piece(self, expr: ast.expr, frame: LoopFrame, names: frozenset[str], depth: int = 0) -> ast.Subscript | None:
        """The access the index picks that ``expr`` is (through ``[None]``,
        ``.T`` and a name bound in the loop to it: ``patch = img[i:i + 3]``),
        when it is no larger than a row."""
        model = self.model
        while True:
            if isinstance(expr, ast.Subscript) and _only_new_axes(expr.slice):
                expr = expr.value
            elif isinstance(expr, ast.Attribute) and expr.attr == "T":
                expr = expr.value
            elif isinstance(expr, ast.Call) and expr.args and model.call_api(expr) in VIEW_FUNCTIONS:
                expr = expr.args[0]  # np.ravel(patch)
            elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in ("ravel", "flatten", "reshape"):
                expr = expr.func.value  # patch.ravel()
            else:
                break
        if isinstance(expr, ast.Subscript) and mentions(expr.slice, names) and model.kind(expr.value) is Kind.DEVICE:
            return expr if self._pick_work(expr, names, frame) <= Work.ROW else None
        if isinstance(expr, ast.Name) and depth < 2:
            bindings = model.reaching_bindings(expr)
            if len(bindings) == 1 and bindings[0].kind is BindKind.VALUE and bindings[0].value is not None and bindings[0].loop is not None and frame.contains(bindings[0].loop):
                return self._picked_piece(bindings[0].value, frame, names, depth + 1)
        return None

    def _free_axes(self, components: list[ast.expr]) -> int:
        """How many axes the index leaves whole (``a[:, k]``: one)."""
        return sum(1 for c in components if isinstance(c, ast.Slice) and c.lower is None and c.upper is None)

    def _slice_width(self, part: ast.expr, names: frozenset[str]) -> int | None:
        """The literal width of ``i:i + w`` slices (None when not literal)."""
        if not isinstance(part, ast.Slice) or part.lower is None or part.upper is None:
            return None
        if part.step is not None:
            step = self.model.const_int(part.step)
            if step is None or step != 1:
                return None
        lower, upper = part.lower, part.upper
        if isinstance(upper, ast.BinOp) and isinstance(upper.op, (ast.Add, ast.Sub)) and ast.dump(upper.left) == ast.dump(lower):
            width = self.model.const_int(upper.right)
            return width if width is not None and isinstance(upper.op, ast.Add) else None
        low = _offset(lower)
        high = _offset(upper)
        if low is not None and high is not None and low[0] == high[0]:
            return high[1] - low[1]
        return None

    def _whole_subscript_work(self, sub: ast.Subscript, frame: LoopFrame | None = None) -> Work:
        """An access the iteration does not pick: as much work as its base
        (``u[1:-1]`` of an array made before the loop is a slab), unless it
        is one fixed element (``u[0]``) or a few literal elements."""
        model = self.model
        if model.kind(sub) is Kind.DEVICE_SCALAR:
            return Work.NONE
        shape = model.shape(sub)
        if model.values.small_by_construction(sub):
            return Work.ELEMENT
        base = sub.value
        if isinstance(base, ast.Subscript):
            return Work.NONE  # the inner subscript is classified on its own
        if shape is None and not any(isinstance(c, ast.Slice) for c in _components(sub)):
            return Work.NONE  # u[0] of an array of unknown rank: cannot tell
        if frame is not None and isinstance(base, ast.Name):
            return self._name_work(base, frame)
        return Work.SLAB

    def _is_array_use(self, node: ast.Name | ast.Attribute) -> bool:
        """A use of a device array as a whole value (not the base of a
        subscript, not ``a.shape``, not ``len(a)``)."""
        model = self.model
        parent = model.parent(node)
        if isinstance(parent, ast.Subscript) and parent.value is node:
            return False
        if isinstance(parent, ast.Attribute) and parent.value is node and parent.attr in ARRAY_METADATA:
            return False
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in ("len", "print", "id", "type", "isinstance"):
            return False
        if _handed_to_unread_parameter(model, node):
            return False  # F(U, t + dt) where F never reads t
        if _aliased(model, node):
            return False  # u0 = u, (u, un) = (un, u): a new name for the same array, no work
        kind = model.kind(node)
        if kind is Kind.UNKNOWN and isinstance(node, ast.Attribute):
            return self._attribute_used_as_array(node)
        return kind is Kind.DEVICE

    def _attribute_used_as_array(self, node: ast.Attribute) -> bool:
        """``self.X`` of unknown kind (set in another module) that the class
        uses as an array somewhere (``self.X.shape``, ``self.X[i, j]``,
        ``self.X @ w``, ``self.X.sum()``): an array whose size the file does
        not state, as SPEC §3 says of parameters used as arrays."""
        key = _attribute_key(self.model, node)
        if key is None:
            return False
        if self._attribute_arrays is None:
            # every attribute of the file once, rather than once per attribute asked about
            table: dict[tuple[int, str, str], bool] = {}
            for use in self.model.nodes(ast.Attribute):
                use_key = _attribute_key(self.model, use)
                if use_key is not None and not table.get(use_key):
                    table[use_key] = _array_evidence(self.model, use)
            self._attribute_arrays = table
        return self._attribute_arrays.get(key, False)

    def _name_work(self, node: ast.Name | ast.Attribute, frame: LoopFrame) -> Work:
        """A whole-value use of an array inside ``frame``: as much work as the
        value it holds in this iteration."""
        model = self.model
        if isinstance(node, ast.Attribute) and node.attr in _SAME_SIZE_VIEWS and isinstance(node.value, (ast.Name, ast.Attribute)) \
                and model.kind(node.value) is Kind.DEVICE:
            return self._name_work(node.value, frame)  # Wc.T is as big as Wc
        if isinstance(node, ast.Name) and id(node) in self._one_element_uses():
            return Work.ELEMENT  # `if neighbours == 3:` whatever computed it
        if isinstance(node, ast.Name):
            # numbers and unknowns (acc = 0.0 before acc = acc * g + x[i]) add no work
            bindings = [b for b in self._made_by(node) if model.values.binding_kind(b) not in (Kind.SCALAR, Kind.UNKNOWN)]
            inside = [b for b in bindings if b.loop is not None and frame.contains(b.loop)]
            outside = [b for b in bindings if b not in inside]
            # a value the loop carries from a start of one element (acc = x[0],
            # y = y0.copy() of a 4-vector) keeps that size while the loop only
            # rebinds it from element work
            start = max((self._start_work(b, node.id) for b in outside), default=Work.NONE)
            if inside and start <= Work.ROW:
                work = start
                made = any(b.kind is not BindKind.AUG for b in bindings)
                for b in inside:
                    if b.value is not None and self._grows(b.value, node.id):
                        return self._size_work(node, Work.SLAB)  # out = np.append(out, v): longer every pass
                    if b.kind is BindKind.VALUE and b.value is not None:
                        work = max(work, self._expr_work_of(b.value, frame))
                    elif b.kind is BindKind.AUG and (model.kind(b.value) is Kind.SCALAR or made):
                        # `s = a[j]; s *= -1`, `d = pos[j] - pos[i]; d -= L * np.round(d / L)`:
                        # an update in place is as big as the value it updates,
                        # which the other bindings give
                        continue
                    elif b.kind is BindKind.AUG and b.value is not None:
                        work = max(work, self._expr_work_of(b.value, frame))  # s = 0.0; s += a[i]
                    elif b.kind is BindKind.ELEMENT:
                        work = max(work, self._size_work(node, Work.ROW))
                    else:
                        return self._size_work(node, Work.SLAB)
                return work
        return self._size_work(node, Work.SLAB)

    def _made_by(self, node: ast.Name) -> list[Binding]:
        """The bindings that reach ``node``, and for an update in place
        (``S *= f``) the bindings of the value it updates too."""
        model = self.model
        found: list[Binding] = []
        stack = list(model.reaching_bindings(node))
        while stack:
            binding = stack.pop()
            if binding in found:
                continue
            found.append(binding)
            if binding.kind is BindKind.AUG and isinstance(binding.node, ast.Name):
                stack.extend(model.reaching_bindings(binding.node))
        return sorted(found, key=lambda b: b.pos)

    def _grows(self, value: ast.expr, name: str) -> bool:
        """``np.append(out, v)``, ``np.concatenate([acc, row])``,
        ``np.r_[xs, v]``: a value that joins ``name`` with more."""
        from .numpy_api import INDEX_BUILDERS, JOINERS

        model = self.model
        for node in walk(value):
            joins = isinstance(node, ast.Call) and model.call_api(node) in JOINERS
            joins = joins or (isinstance(node, ast.Subscript) and (model.qualname(node.value) or "").rpartition(".")[2] in INDEX_BUILDERS)
            if joins and any(isinstance(n, ast.Name) and n.id == name for n in walk(node)):
                return True
        return False

    def _start_work(self, binding: Binding, name: str, depth: int = 0) -> Work:
        """How big the value a binding made before the loop is, by the
        loop's own measure: NONE for a number, ELEMENT for an array of a few
        literal elements (``y = y0.copy()`` of a 4-vector), and for a fixed
        pick (``acc = x[0]``, ``y = self.b[0] * x``) as much as an index
        pick of that array is (an element of an array of unknown rank);
        SLAB for anything else."""
        value = binding.value
        if binding.kind is not BindKind.VALUE or value is None:
            return Work.SLAB
        if self.model.values.small_by_construction(value):
            return Work.ELEMENT
        return self._value_size(value, name, depth)

    def _value_size(self, expr: ast.expr, name: str, depth: int) -> Work:
        model = self.model
        kind = model.kind(expr)
        if kind in (Kind.SCALAR, Kind.DEVICE_SCALAR) or isinstance(expr, ast.Constant):
            return Work.NONE
        if isinstance(expr, ast.BinOp):
            return max(self._value_size(expr.left, name, depth), self._value_size(expr.right, name, depth))
        if isinstance(expr, ast.UnaryOp):
            return self._value_size(expr.operand, name, depth)
        if isinstance(expr, ast.Name):
            if expr.id == name:
                return Work.NONE  # the carried value itself (y = y + b[i] * x[i - 1] of a loop before)
            bindings = [b for b in model.reaching_bindings(expr) if model.values.binding_kind(b) not in (Kind.SCALAR, Kind.UNKNOWN)]
            if not bindings or depth >= 2:
                return Work.NONE if not bindings and kind is not Kind.DEVICE else Work.SLAB
            return max(self._start_work(b, name, depth + 1) for b in bindings)
        if isinstance(expr, ast.Subscript) and model.kind(expr.value) is Kind.DEVICE:
            if any(isinstance(c, ast.Slice) for c in _components(expr)) or isinstance(expr.value, ast.Subscript):
                return Work.SLAB
            if any(model.kind(c) not in (Kind.SCALAR, Kind.DEVICE_SCALAR) and not isinstance(c, ast.Constant) for c in _components(expr)):
                return Work.SLAB  # a fancy index
            return self._pick_work(expr, frozenset(names_in(expr.slice)))
        if isinstance(expr, ast.Call) and _is_elementwise(model.call_api(expr)):
            return max((self._value_size(a, name, depth) for a in expr.args), default=Work.NONE)
        return Work.SLAB

    def _size_work(self, node: ast.expr, default: Work) -> Work:
        """Element-sized for an array of a few numbers by construction, and
        for a value whose truth an ``if``/``while`` takes from a comparison
        (``if eig > 0:``): only a one-element array has one."""
        model = self.model
        if model.values.small_by_construction(node) or _tested_for_truth(model, node):
            return Work.ELEMENT
        if isinstance(node, ast.Name) and id(node) in self._one_element_uses():
            return Work.ELEMENT
        return default

    def _one_element_uses(self) -> set[int]:
        """Uses of names whose value is one element because a test takes its
        truth (``if denom:``, ``if cost < 0:``; on several elements that
        raises), and, backwards, the names it is computed from by arithmetic
        (``denom = a * (2.0 - w - 1.0 / w)``, ``w *= wx``): broadcasting never
        makes a result smaller than an operand."""
        if self._one_element is not None:
            return self._one_element
        model = self.model
        found: set[int] = set()
        # seeds: the names in the tests of if/while/assert and conditional expressions
        tests = [node.test for node in model.nodes(ast.If, ast.While, ast.IfExp, ast.Assert)]  # type: ignore[attr-defined]
        work = [n for test in tests for n in _truth_names(test)]
        # and the values the builtin max/min compares (`m = max(m, a[i])`):
        # comparing arrays of several elements raises as a test does
        work += [a for call in model.nodes(ast.Call) if _builtin_extremum(model, call) for a in call.args if isinstance(a, ast.Name)]
        while work:
            use = work.pop()
            if id(use) in found:
                continue
            found.add(id(use))
            for binding in model.reaching_bindings(use):
                if binding.kind not in (BindKind.VALUE, BindKind.AUG) or binding.value is None:
                    continue
                operands = _arithmetic_operands(binding.value)
                if isinstance(binding.value, ast.Call):
                    # n = count(i, j) of a function of the file: what it returns
                    callee = model.calls.callee(binding.value)
                    for returned in callee.returns if callee is not None else ():
                        operands += _arithmetic_operands(returned)
                if binding.kind is BindKind.AUG and isinstance(binding.node, ast.Name):
                    operands.append(binding.node)  # the value it updated
                work.extend(o for o in operands if id(o) not in found)
        self._one_element = found
        return found

    def _expr_work_of(self, expr: ast.expr, frame: LoopFrame) -> Work:
        """The work of computing ``expr`` (a value bound inside the loop), as
        seen from ``frame``: what varies and what is bound inside depend on
        the loop asked about, so the answer is kept per (expression, loop)."""
        key = (id(expr), id(frame))
        if key in self._expr_work:
            return self._expr_work[key]
        self._expr_work[key] = Work.NONE  # a value that refers to itself adds nothing
        model = self.model
        names = self._all_indices(frame)
        work = self._size_work(expr, Work.NONE) if model.kind(expr) is Kind.DEVICE else Work.NONE
        if work is Work.NONE and self._array_of_unknown_size(expr):
            work = Work.SLAB  # V = np.where(c[t] > C, c[t], V * df): as big as operands nothing sizes
        for node in walk(expr):
            if isinstance(node, ast.Subscript) and model.kind(node.value) is Kind.DEVICE:
                if mentions(node.slice, names):
                    work = max(work, self._pick_work(node, names, frame))
                elif not self._kernel_operand(node, frame, names):
                    work = max(work, self._whole_subscript_work(node, frame))
            elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load) and self._is_array_use(node):
                if not self._kernel_operand(node, frame, names):
                    work = max(work, self._name_work(node, frame))
            elif isinstance(node, ast.Call):
                work = max(work, self._call_work(node))
        self._expr_work[key] = work
        return work

    def _array_of_unknown_size(self, expr: ast.expr) -> bool:
        """A NumPy call whose result is an array (not one element) and that
        takes a value nothing in the file sizes (an untyped parameter, the
        result of a method of another object): it may be a whole array."""
        model = self.model
        if not (isinstance(expr, ast.Call) and model.call_api(expr) is not None and model.kind(expr) is Kind.DEVICE):
            return False
        operands = [*expr.args, *(k.value for k in expr.keywords)]
        return any(not isinstance(o, ast.Constant) and model.kind(o) is Kind.UNKNOWN for o in operands)

    def _call_work(self, call: ast.Call) -> Work:
        """Work a call does by itself: a new array of many elements (an
        allocation, a random draw), or a helper of the file that works on
        whole arrays. Math on arrays is as much work as its operands, which
        are classified where they appear."""
        model = self.model
        loop = model.parent(call)
        if isinstance(loop, (ast.For, ast.AsyncFor)) and loop.iter is call and holds_integer_range(model, call):
            return Work.NONE  # for j in np.arange(1, w - 1): the indices an inner loop walks, not work on data
        scope = model.calls.callee(call)
        if scope is not None:
            if not any(model.kind(a).is_array for a in call.args):
                return self.function_work(scope.node)
            return Work.NONE
        if model.calls.steps_file_object(call):
            return Work.SLAB  # sim.step(): the object's own work, out of sight
        if model.calls.calls_project_module(call):
            # another module of the project: its work is out of sight and may
            # be a whole simulation (a parameter sweep storing one number per
            # run), so the loop is not shown to do element work
            return Work.SLAB
        if model.kind(call) is not Kind.DEVICE:
            return Work.NONE
        tail = model.call_api(call)
        func = call.func
        draw = (tail is not None and tail.startswith("random.")) or (
            isinstance(func, ast.Attribute) and model.kind(func.value) is Kind.GENERATOR
        )
        if not draw and tail not in BUILDERS:
            return Work.NONE
        operands = [e for a in call.args for e in (a.elts if isinstance(a, (ast.List, ast.Tuple)) else [a])]
        if tail in CONVERSIONS and any(model.kind(o) in (Kind.DEVICE, Kind.DEVICE_SCALAR, Kind.SEQ) for o in operands):
            return Work.NONE  # np.array([a[i], b[i]]): as much as its parts
        if tail in CONVERSIONS and len(call.args) == 1 and _literal_items(model, call.args[0]) <= SMALL_PICK:
            return Work.ELEMENT  # np.array(CX) of a module's 9 lattice directions
        return self._size_work(call, Work.SLAB)


def _aliased(model: "FileModel", node: ast.Name | ast.Attribute) -> bool:
    """Is ``node`` the whole value of a rebinding to plain names (``u0 = u``),
    or one item of a tuple rebound item by item (``u, un = un, u``)?"""
    parent = model.parent(node)
    if isinstance(parent, ast.Tuple) and isinstance(model.parent(parent), ast.Assign):
        statement = model.parent(parent)
        value = parent
    elif isinstance(parent, ast.Assign):
        statement, value = parent, node
    else:
        return False
    if statement.value is not value:  # type: ignore[union-attr]
        return False
    targets = statement.targets  # type: ignore[union-attr]
    if isinstance(value, ast.Tuple):
        return all(isinstance(t, ast.Tuple) and len(t.elts) == len(value.elts)
                   and all(isinstance(e, (ast.Name, ast.Attribute)) for e in t.elts) for t in targets)
    return all(isinstance(t, (ast.Name, ast.Attribute)) for t in targets)


def _is_mask_of(mask: ast.expr, array: ast.expr) -> bool:
    """``kernel == 1`` / ``kernel > 0`` for ``array`` ``kernel``: a mask of
    its shape, as large as it is."""
    return (isinstance(mask, ast.Compare) and len(mask.ops) == 1 and mask.left is array
            and isinstance(mask.comparators[0], ast.Constant))
