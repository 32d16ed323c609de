"""The analysis behind the SCALES rules (CPN001–CPN007), run once per file.

The seven rules read the same statements, so one pass classifies every simple
statement (assignment, augmented assignment, expression, ``return``) and each
rule takes its own share of the result (:func:`scales_analysis`).

What the pass guarantees, for every site it hands out:

* the values involved are *device* arrays (``model.kind`` is DEVICE): Python
  numbers, lists, host-alias arrays (``onp`` beside cupynumeric) and CuPy
  arrays never count, nor do 0-d results of whole-array reductions
  (``total / n`` after ``total = np.sum(a)``) or single elements (``a[0] + a[1]``);
* a boolean mask (CPN007) has the indexed array's own shape: a row mask or a
  mask inside a tuple index is advanced indexing to cuPyNumeric;
* the statement is not per-element work: statements that index a device array
  with the variable of an enclosing element loop (``out[i] = a[i] * 2`` inside
  ``for i in range(n)``, CPN101) or use the item of a loop over an array
  (``for row in a: s = row * 2``, CPN103), and statements with a stepped slice
  (``a[::2]``, CPN106), are never quoted as what works; nor is anything a
  root cause holds (:func:`._roots.element_level`): the body of an element
  loop or a recurrence reported as CPN101/CPN410, a Numba-compiled function,
  or a function such a loop runs every iteration — scalar arithmetic there is
  part of that root cause, not whole-array work, so flake8
  ``--cpn-assessment`` and the verdict's "What works" agree;
* expressions that only feed a host sink are skipped: ``print``, f-strings,
  ``str``/``len``/``sorted``/builtin ``sum``/``max`` (CPN110), host libraries
  (matplotlib, logging, SciPy, pandas, ...) and the host alias, ``np.testing``,
  APIs the API manifest in use marks as not implemented (CPN401), ufuncs
  called with a ``where=`` mask (cuPyNumeric 26.6.1 raises), mask-to-index
  calls (``np.nonzero``, one-argument ``np.where``), and inside a
  loop the scalar conversions ``float``/``int``/``bool``/``.item()`` (CPN104);
  statements that build ``dtype=object`` arrays (CPN107) are skipped whole;
* compound-statement headers (``if``/``while`` tests, ``for`` iterables) are
  not statements here: a reduction in a loop condition is CPN105's business.

One finding per code per statement, at the first matching node in source
order. CPN001 (whole-array elementwise) is the catch-all: it is reported only
for statements that none of CPN002–CPN007 claims, since a reduction of a
product, a stencil or a masked update is elementwise arithmetic too and the
more specific idiom is the one worth quoting.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterator

from ..manifest import active
from ..model import IterKind, Kind, Role
from ..model.numpy_api import (
    ALLOCATIONS,
    BOOLEAN_UFUNCS,
    CONDITIONAL_APIS,
    HOST_BUILTINS,
    HOST_LIBRARIES,
    MATMUL_APIS,
    SCALAR_PRODUCTS,
    SCALING_REDUCTIONS,
    SCALING_REDUCTION_METHODS,
    SCALING_UFUNCS,
    SCALING_UFUNC_METHODS,
    SELF_PRODUCTS,
)
from ..model.scopes import BindKind
from ..model.syntax import dotted_name, operands, walk
from ._context import loop_place
from ._roots import element_level

if TYPE_CHECKING:  # pragma: no cover
    from ..model import FileModel, LoopFrame

# --------------------------------------------------------------------- tables
# Where a function-form reduction takes its axis positionally (0-based), when
# not as the second argument.
_AXIS_POSITION = {"linalg.norm": 2}

# Calls whose argument may as well be a number or a list.
_WEAK_EVIDENCE = SCALING_UFUNCS | {"asarray", "array", "asanyarray", "ascontiguousarray", "atleast_1d", "atleast_2d", "atleast_3d", "isscalar"}

# NumPy sub-libraries cuPyNumeric does not provide (masked arrays, strings,
# records, polynomials, matrix helpers): their values are not distributed.
_OFF_DEVICE_NAMESPACES = frozenset({"ma", "char", "strings", "rec", "polynomial", "matlib", "emath", "lib"})


# Calls whose out= is a reused buffer worth quoting: ufuncs, reductions,
# products and a few copies (not ufunc methods like np.add.reduceat).
OUT_APIS = SCALING_UFUNCS | SCALING_REDUCTIONS | MATMUL_APIS | {"cumsum", "cumprod", "take", "copyto"}
OUT_METHODS = SCALING_REDUCTION_METHODS | SCALING_UFUNC_METHODS | {"dot", "take", "cumsum", "cumprod", "round"}

# Constructors whose dtype= keyword can make a boolean array.
_CONSTRUCTORS = ALLOCATIONS | {"asanyarray"}

# Scalar conversions and methods that are a host sync inside a loop (CPN104);
# the builtins and libraries that take arrays to the host are in the model's
# numpy_api (HOST_BUILTINS, HOST_LIBRARIES).
_SCALAR_CONVERSIONS = frozenset({"float", "int", "bool", "complex"})
_HOST_METHODS = frozenset({"tolist", "tobytes", "tofile", "dump", "dumps"})
_SYNC_METHODS_IN_LOOP = frozenset({"item", "__float__", "__int__", "__bool__"})
# Calls that turn a mask into index arrays (np.where with one argument too):
# cuPyNumeric Doctor flags them as slow, so nothing feeding them is quoted.
_INDEX_BUILDERS = frozenset({"nonzero", "argwhere", "flatnonzero"})
# Device-numpy calls that are I/O or formatting, not compute (and anything
# under np.testing, which compares on the host, and whatever the manifest
# says cuPyNumeric does not implement: CPN401 reports those).
_DEVICE_IO = frozenset({"save", "savez", "savez_compressed", "savetxt", "array2string", "array_repr", "array_str", "tofile"})

_ELEMENT_LOOPS = (IterKind.RANGE, IterKind.INDEX_PRODUCT, IterKind.ARRAY, IterKind.WHILE, IterKind.OTHER)
_ELEMENT_ROLES = (Role.ELEMENT_LOOP, Role.RECURRENCE)
_SIMPLE_STATEMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return)
_ELEMENTWISE_UNARY = (ast.USub, ast.UAdd, ast.Invert)
_IDENTITY_COMPARISONS = (ast.Is, ast.IsNot, ast.In, ast.NotIn)
# Nodes the statement walk neither keeps nor enters: operators and contexts
# carry no values; lambdas are their own code, f-strings are output.
_GRAMMAR_ONLY = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)
_NEVER_ARRAY_WORK = frozenset({ast.Constant, ast.Lambda, ast.JoinedStr})


def _concrete_subclasses(*bases: type) -> frozenset[type]:
    found: set[type] = set()
    todo = list(bases)
    while todo:
        cls = todo.pop()
        found.add(cls)
        todo.extend(cls.__subclasses__())
    return frozenset(found)


# The statement walk tests node types by set membership (its inner loop).
_SKIPPED_TYPES = _NEVER_ARRAY_WORK | _concrete_subclasses(*_GRAMMAR_ONLY)
_EXPRESSION_TYPES = _concrete_subclasses(ast.expr)

MAX_STENCIL_OFFSET = 4  # ±1/±2 are typical; 4 still covers 8th-order differences
_MAX_DEPTH = 12  # how far name chasing goes before giving up (quietly)

SCALES_CODES = ("CPN001", "CPN002", "CPN003", "CPN004", "CPN005", "CPN006", "CPN007")


# ------------------------------------------------------------------ results
@dataclass
class Site:
    """One SCALES idiom in one statement."""

    code: str
    node: ast.AST  # where the finding is reported
    statement: ast.stmt
    in_loop: bool
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class View:
    """A slice of a device array, normalised for stencil comparison."""

    node: ast.Subscript
    array: str
    shift: tuple[int, ...]  # start offset per dimension
    extent: tuple[object, ...]  # length per dimension, symbolic where needed


def scales_analysis(model: FileModel) -> "ScalesAnalysis":
    """The file's SCALES sites, computed on first request and shared by the rules."""
    return model.derived(ScalesAnalysis, ScalesAnalysis)


# ----------------------------------------------------------------- analysis
class ScalesAnalysis:
    """Classifies every simple statement of a file once."""

    def __init__(self, model: FileModel) -> None:
        self.model = model
        self._sites: dict[str, list[Site]] = {code: [] for code in SCALES_CODES}
        self._partial_memo: dict[int, bool] = {}
        self._bool_memo: dict[int, bool] = {}
        self._api_memo: dict[int, str | None] = {}
        self._sinks: set[int] = set()  # host-sink calls met by the statement walk
        self._elementwise_memo: dict[int, bool] = {}
        if not model.uses_numpy():
            return
        for stmt in model.nodes(*_SIMPLE_STATEMENTS):
            try:
                sites = self._classify(stmt)
            except RecursionError:
                continue  # pathologically deep: know nothing, say nothing
            for site in sites:
                self._sites[site.code].append(site)

    def sites(self, code: str) -> list[Site]:
        return list(self._sites.get(code, ()))

    # ------------------------------------------------------------ per statement
    def _classify(self, stmt: ast.stmt) -> list[Site]:
        if isinstance(stmt, ast.AnnAssign) and stmt.value is None:
            return []
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            return []  # docstrings
        nodes = self._candidates(stmt)
        if not any(type(node) in _MATCHABLE_TYPES for node in nodes) and not _may_swap_or_update(stmt):
            return []  # names, constants and attributes only: no idiom to match
        evidence = self._array_results(nodes)
        found: dict[str, Site] = {}
        in_loop: list[bool] = []  # asked once, by the first claim (most statements claim nothing)

        def claim(code: str, node: ast.AST, **facts: Any) -> None:
            if code not in found:
                if not in_loop:
                    # on a loop's every pass: inside it, or in a function a loop of the file calls every iteration
                    in_loop.append(self.model.in_loop(stmt) or self.model.calling_loop(stmt) is not None)
                found[code] = Site(code, node, stmt, in_loop[0], facts)

        for node in nodes:
            if isinstance(node, ast.Call):
                self._match_call(node, evidence, claim)
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
                operands = [x for x in (node.left, node.right) if self._is_array(x, evidence)]
                if operands and not any(id(x) in self._sinks for x in (node.left, node.right)):
                    claim("CPN003", node, operands=operands)
            elif isinstance(node, ast.Subscript):
                mask = self._boolean_index(node)
                if mask is not None:
                    claim("CPN007", node, mask=mask)
        self._match_statement(stmt, nodes, evidence, claim)
        # The exclusions are asked last: most statements match nothing.
        if not found or self._is_per_element(stmt, nodes) or self._has_stepped_slice(nodes) or self._makes_objects(nodes):
            return []
        if element_level(self.model, stmt):
            return []  # scalar arithmetic of a root cause (an element loop, a recurrence, a compiled kernel)
        if len(found) > 1:
            found.pop("CPN001", None)  # the specific idiom wins
        return sorted(found.values(), key=lambda s: s.code)

    def _match_statement(self, stmt: ast.stmt, nodes: list[ast.AST], evidence: dict[int, bool], claim: Any) -> None:
        model = self.model
        if isinstance(stmt, ast.AugAssign):
            target, value = stmt.target, stmt.value
            if isinstance(stmt.op, ast.MatMult):
                if self._is_array(target, evidence) or self._is_array(value, evidence):
                    claim("CPN003", stmt, operands=[target, value])
            elif self._is_array(target, evidence) or self._is_array(value, evidence):
                leaves = [target] if self._is_array(target, evidence) else []
                claim("CPN001", stmt, operands=leaves + self._array_leaves(value, evidence))
        if isinstance(stmt, ast.Assign):
            swapped = self._swapped_buffers(stmt)
            # A swap repeats in a loop, or in a method that a loop calls
            # (self.u, self.v = self.v, self.u); elsewhere it is a one-off
            # reordering (`if a.size < b.size: a, b = b, a`).
            if swapped and (model.in_loop(stmt) or all(isinstance(e, ast.Attribute) for e in swapped)):
                claim("CPN006", stmt, swap=swapped)
        stencil = self._stencil(stmt, nodes)
        if stencil is not None:
            claim("CPN005", stmt, views=stencil)
        operands = [n for n in nodes if evidence.get(id(n)) and self._is_elementwise(n)]
        if operands:
            leaves = self._array_leaves(operands[0], evidence)
            claim("CPN001", stmt, operands=leaves)

    # ----------------------------------------------------------------- calls
    def _match_call(self, call: ast.Call, evidence: dict[int, bool], claim: Any) -> None:
        model = self.model
        func = call.func
        api = self._api(call)
        method = func.attr if isinstance(func, ast.Attribute) and api is None else None
        receiver_is_array = method is not None and self._is_array(func.value, evidence)  # type: ignore[union-attr]
        if api is None and not receiver_is_array:
            return
        if not _implemented(f"numpy.{api}" if api is not None else f"numpy.ndarray.{method}"):
            return  # CPN401's business, never what works
        if api in SCALING_REDUCTIONS:
            target = _argument(call, 0, "a", "x")
            if target is not None and self._is_array(target, evidence):
                claim("CPN002", call, array=target, axis=_axis_text(model, call, api))
        elif receiver_is_array and method in SCALING_REDUCTION_METHODS:
            claim("CPN002", call, array=func.value, axis=_axis_text(model, call, None))  # type: ignore[union-attr]
        if api in MATMUL_APIS:
            operands = [a for a in call.args if self._is_array(a, evidence)]
            if operands:
                claim("CPN003", call, operands=operands)
        elif receiver_is_array and method == "dot":
            claim("CPN003", call, operands=[func.value, *call.args[:1]])  # type: ignore[union-attr]
        conditional = self._conditional_operands(call, api, evidence)
        if conditional:
            leaves = [leaf for expr in conditional for leaf in self._array_leaves(expr, evidence)]
            claim("CPN004", call, operands=leaves or conditional)
        out = _keyword(call, "out")
        if out is not None and (api in OUT_APIS or method in OUT_METHODS) and self._reuses_buffer(out):
            claim("CPN006", call, out=out)

    def _conditional_operands(self, call: ast.Call, api: str | None, evidence: dict[int, bool]) -> list[ast.expr]:
        if api not in CONDITIONAL_APIS:
            return []
        args = call.args
        if api == "where":
            return [a for a in args if self._is_array(a, evidence)] if len(args) == 3 else []
        if api in ("select", "choose"):
            candidates: list[ast.expr] = []
            for arg in args[:2]:
                candidates += arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]
            return [a for a in candidates if self._is_array(a, evidence)]
        if api in ("putmask", "place"):
            return args[:1] if args and self._is_array(args[0], evidence) else []
        if api == "copyto":
            where = _keyword(call, "where")
            if where is not None and not isinstance(where, ast.Constant):  # where=True selects nothing
                return [a for a in args[:2] if self._is_array(a, evidence)]
        return []

    def _reuses_buffer(self, out: ast.expr) -> bool:
        """``out=`` names an existing array (not None, not a fresh allocation)."""
        model = self.model
        buffers = out.elts if isinstance(out, ast.Tuple) else [out]
        if not buffers:
            return False
        for buffer in buffers:
            if isinstance(buffer, ast.Call):
                return False  # a fresh allocation (or a call's result) per call
            if model.kind(buffer) is Kind.DEVICE:
                continue
            if not (isinstance(buffer, ast.Name) and self._required_parameter(buffer)):
                return False
        return True

    def _required_parameter(self, name: ast.Name) -> bool:
        """``def step(u, out): np.add(u, 1.0, out=out)``: a parameter with no
        default is a buffer every caller passes; ``out=None`` defaults mark the
        NumPy-style pass-through that usually allocates."""
        bindings = self.model.reaching_bindings(name)
        if len(bindings) != 1 or bindings[0].kind is not BindKind.PARAM:
            return False
        function = bindings[0].scope.node
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        args = function.args
        positional = list(args.posonlyargs) + list(args.args)
        defaults: dict[str, ast.expr | None] = {}
        for arg, default in zip(positional[len(positional) - len(args.defaults):], args.defaults):
            defaults[arg.arg] = default
        for arg, default in zip(args.kwonlyargs, args.kw_defaults):
            if default is not None:
                defaults[arg.arg] = default
        return name.id not in defaults and name.id in {a.arg for a in positional + list(args.kwonlyargs)}

    # -------------------------------------------------------- double buffer
    def _swapped_buffers(self, stmt: ast.Assign) -> list[ast.expr]:
        """``u, w = w, u`` (or a rotation) of device arrays."""
        if len(stmt.targets) != 1:
            return []
        target, value = stmt.targets[0], stmt.value
        if not (isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))):
            return []
        if len(target.elts) < 2 or len(target.elts) != len(value.elts):
            return []
        model = self.model
        names = [dotted_name(e) for e in target.elts]
        values = [dotted_name(e) for e in value.elts]
        if None in names or None in values or sorted(names) != sorted(values) or names == values:  # type: ignore[type-var]
            return []
        if len(set(names)) != len(names):
            return []
        if not all(self._is_array(v, {}) for v in value.elts):
            return []
        return [e for e in target.elts if model.is_array(e)] or list(value.elts)

    # -------------------------------------------------------------- stencils
    def _stencil(self, stmt: ast.stmt, nodes: list[ast.AST]) -> list[View] | None:
        """Shifted views of equal extent read by the statement, or None.

        ``u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]`` is four
        views of one extent at four shifts; at least two distinct shifts are
        needed. Views are grouped by extent, the largest group with distinct
        shifts wins.
        """
        reads = [n for n in nodes if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load)]
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Subscript):
            reads.append(stmt.target)
        if len(reads) < 2:
            return None
        groups: dict[tuple[object, ...], list[View]] = {}
        for sub in reads:
            view = self._view(sub)
            if view is not None:
                groups.setdefault(view.extent, []).append(view)
        best: list[View] | None = None
        for views in groups.values():
            shifts = {v.shift for v in views}
            if len(shifts) < 2:
                continue
            spread = max(max(s[d] for s in shifts) - min(s[d] for s in shifts) for d in range(len(views[0].shift)))
            if spread > MAX_STENCIL_OFFSET:
                continue
            if best is None or len(views) > len(best):
                best = views
        return best

    def _view(self, sub: ast.Subscript) -> View | None:
        array = dotted_name(sub.value)
        if array is None or not self.model.is_array(sub.value):
            return None
        components = list(sub.slice.elts) if isinstance(sub.slice, ast.Tuple) else [sub.slice]
        shift: list[int] = []
        extent: list[object] = []
        has_slice = False
        for part in components:
            if isinstance(part, ast.Slice):
                bounds = self._slice_bounds(part)
                if bounds is None:
                    return None
                start, length = bounds
                shift.append(start)
                extent.append(length)
                has_slice = True
            elif isinstance(part, ast.Constant) and part.value is Ellipsis:
                shift.append(0)
                extent.append("...")
            else:
                index = self.model.const_int(part)
                if index is None or index < 0:
                    return None
                shift.append(0)  # a fixed plane: views compare only at the same one
                extent.append(("at", index))
        if not has_slice:
            return None
        return View(sub, array, tuple(shift), tuple(extent))

    def _slice_bounds(self, part: ast.Slice) -> tuple[int, object] | None:
        """(start, symbolic length) of a unit-step slice with small constant bounds."""
        model = self.model
        if part.step is not None and not (isinstance(part.step, ast.Constant) and part.step.value is None):
            if model.const_int(part.step) != 1:
                return None
        start = 0 if part.lower is None else model.const_int(part.lower)
        if start is None or not 0 <= start <= MAX_STENCIL_OFFSET:
            return None
        upper = part.upper
        if upper is None or (isinstance(upper, ast.Constant) and upper.value is None):
            return start, ("end", -start)
        stop = _literal_int(upper)
        if stop is not None:
            if -MAX_STENCIL_OFFSET <= stop < 0:
                return start, ("end", stop - start)
            if stop > 0:
                return start, ("abs", stop - start)
            return None
        anchor, offset = _anchor_and_offset(upper)
        if anchor is None or abs(offset) > MAX_STENCIL_OFFSET:
            return None
        return start, (anchor, offset - start)

    # ------------------------------------------------------------ boolean masks
    def _boolean_index(self, sub: ast.Subscript) -> ast.expr | None:
        """The mask when ``sub`` indexes a device array with a boolean array
        of the array's own shape.

        Only a whole-shape mask stays local to each GPU. A row mask
        (``g[g[:, 0] > 0]``) or a mask inside a tuple index (``g[m, :]``) is
        advanced indexing (Doctor's AdvancedIndexingCheck), and cuPyNumeric
        26.6.1 cannot even write through a row mask.
        """
        model = self.model
        if model.kind(sub.value) is not Kind.DEVICE:
            return None
        if isinstance(sub.value, ast.Attribute) and sub.value.attr == "flat":
            return None  # .flat is a copy in cuPyNumeric: writes through it are lost (CPN205)
        mask = sub.slice
        if isinstance(mask, (ast.Tuple, ast.Slice)):
            return None
        if not self._is_boolean_array(mask, 0):
            return mask if self._parameter_mask_write(sub, mask) else None
        return mask if self._shaped_like(mask, sub.value, 0) else None

    def _parameter_mask_write(self, sub: ast.Subscript, mask: ast.expr) -> bool:
        """``arr[mask] = value`` in a function whose parameters ``arr`` and
        ``mask`` are arrays the code has no other evidence about, ``value`` a
        number: the index is the whole selection of a one-number write, the
        form of a masked assignment. An integer index array would be a
        scatter (also whole-array work); the call sites, when the file has
        any, must pass a boolean array for it to count."""
        model = self.model
        if not (isinstance(mask, ast.Name) and isinstance(sub.value, ast.Name) and isinstance(sub.ctx, ast.Store)):
            return False
        statement = model.statement_of(sub)
        if not isinstance(statement, ast.Assign) or model.kind(statement.value) not in (Kind.SCALAR, Kind.DEVICE_SCALAR):
            return False
        params = [b for b in model.reaching_bindings(mask) if b.kind is BindKind.PARAM]
        if len(params) != 1 or len(model.reaching_bindings(mask)) != 1 or model.kind(mask) is not Kind.DEVICE:
            return False
        if not any(b.kind is BindKind.PARAM for b in model.reaching_bindings(sub.value)):
            return False
        scope = params[0].scope
        for call in model.calls.sites(scope):
            given = model.calls.argument(call, scope, mask.id)
            if given is None or not self._is_boolean_array(given, 1):
                return False
        return True

    def _shaped_like(self, mask: ast.expr, array: ast.expr, depth: int) -> bool:
        """Does the code show ``mask`` has ``array``'s shape? It does when the
        mask is computed elementwise from the whole array (``a > 0``,
        ``np.isnan(a)``, through names bound to such) or when both shapes are
        literal and equal."""
        target = dotted_name(array)
        if target is not None and self._computed_from(mask, target, depth):
            return True
        mask_shape = self.model.literal_shape(mask)
        return mask_shape is not None and mask_shape == self.model.literal_shape(array)

    def _computed_from(self, mask: ast.expr, target: str, depth: int) -> bool:
        if depth > _MAX_DEPTH:
            return False
        if dotted_name(mask) == target:
            return True
        if isinstance(mask, ast.Name):
            values = [b.value for b in self.model.reaching_bindings(mask) if b.kind is BindKind.VALUE]
            return bool(values) and all(v is not None and self._computed_from(v, target, depth + 1) for v in values)
        if isinstance(mask, ast.Call) and isinstance(mask.func, ast.Attribute) and mask.func.attr == "astype":
            return self._computed_from(mask.func.value, target, depth + 1)
        for leaf in _leaves(self, mask):
            if leaf is mask:
                return dotted_name(leaf) == target
            if dotted_name(leaf) == target or (isinstance(leaf, ast.Name) and self._computed_from(leaf, target, depth + 1)):
                return True
        return False

    def _is_boolean_array(self, expr: ast.expr, depth: int) -> bool:
        if depth > _MAX_DEPTH:
            return False
        key = id(expr)
        cached = self._bool_memo.get(key)
        if cached is not None:
            return cached
        self._bool_memo[key] = False  # cycles (m = m & other) resolve to "no"
        result = self._boolean_array(expr, depth)
        self._bool_memo[key] = result
        return result

    def _boolean_array(self, expr: ast.expr, depth: int) -> bool:
        model = self.model
        if isinstance(expr, ast.Compare):
            return not any(isinstance(op, _IDENTITY_COMPARISONS) for op in expr.ops) and self._has_array_operand(expr)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return self._is_boolean_array(expr.left, depth + 1) and self._is_boolean_array(expr.right, depth + 1)
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Invert):
            return self._is_boolean_array(expr.operand, depth + 1)
        if isinstance(expr, ast.Call):
            api = self._api(expr)
            if api in BOOLEAN_UFUNCS:
                return any(model.is_array(a) for a in expr.args)
            if api in _CONSTRUCTORS:
                return _is_bool_dtype(model, _keyword(expr, "dtype"))
            func = expr.func
            if isinstance(func, ast.Attribute) and func.attr == "astype" and model.is_array(func.value):
                return _is_bool_dtype(model, expr.args[0] if expr.args else _keyword(expr, "dtype"))
            return False
        if isinstance(expr, ast.Subscript):
            return self._is_boolean_array(expr.value, depth + 1) and not _is_element_index(model, expr)
        if isinstance(expr, ast.Name):
            bindings = model.reaching_bindings(expr)
            if not bindings:
                return False
            for b in bindings:
                if b.kind is BindKind.VALUE and b.value is not None and self._is_boolean_array(b.value, depth + 1):
                    continue
                if b.kind is BindKind.AUG and isinstance(b.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
                    continue
                return False
            return True
        return False

    # ---------------------------------------------------------- array evidence
    def _array_results(self, nodes: list[ast.AST]) -> dict[int, bool]:
        """For each elementwise node: does it compute on a device array?

        Computed children first (reverse pre-order), so a chain thousands of
        operators long costs one pass.
        """
        evidence: dict[int, bool] = {}
        sinks = self._sinks
        for node in reversed(nodes):
            if self._is_elementwise(node):
                operands = self._operands(node)
                # an operand from a host library (a SciPy sparse matrix, a
                # plot handle) makes the operation that library's business
                evidence[id(node)] = not any(id(x) in sinks for x in operands) and any(
                    self._is_array(x, evidence) for x in operands
                )
        return evidence

    def _api(self, call: ast.Call) -> str | None:
        """``model.call_api``, asked once per call."""
        key = id(call)
        if key not in self._api_memo:
            self._api_memo[key] = self.model.call_api(call)
        return self._api_memo[key]

    def _is_elementwise(self, node: ast.AST) -> bool:
        if type(node) not in _OPERATION_TYPES:
            return False  # names, constants, attributes, subscripts: nothing computed
        key = id(node)
        known = self._elementwise_memo.get(key)
        if known is None:
            known = self._elementwise_memo[key] = self._elementwise(node)
        return known

    def _elementwise(self, node: ast.AST) -> bool:
        if isinstance(node, ast.BinOp):
            return not isinstance(node.op, ast.MatMult)
        if isinstance(node, ast.UnaryOp):
            return isinstance(node.op, _ELEMENTWISE_UNARY)
        if isinstance(node, ast.Compare):
            return not any(isinstance(op, _IDENTITY_COMPARISONS) for op in node.ops)
        if isinstance(node, ast.Call):
            api = self._api(node)
            if api in SCALING_UFUNCS:
                return True
            func = node.func
            return api is None and isinstance(func, ast.Attribute) and func.attr in SCALING_UFUNC_METHODS and self.model.is_array(func.value)
        return False

    def _operands(self, node: ast.AST) -> list[ast.AST]:
        """What an elementwise node computes on."""
        if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Compare)):
            return list(operands(node))
        if isinstance(node, ast.Call):
            args: list[ast.AST] = [a for a in node.args if not isinstance(a, ast.Starred)]
            if self._api(node) is None and isinstance(node.func, ast.Attribute):
                args.insert(0, node.func.value)  # a.clip(lo, hi): the receiver first
            return args
        return []

    def _is_array(self, expr: ast.AST, evidence: dict[int, bool]) -> bool:
        """A device array of more than one element, as far as the code shows."""
        known = evidence.get(id(expr))
        if known is not None:
            return known
        if not isinstance(expr, ast.expr) or self.model.kind(expr) is not Kind.DEVICE:
            return False
        return not self._is_not_whole_array(expr, 0)

    def _has_array_operand(self, expr: ast.expr) -> bool:
        return any(self._is_array(leaf, {}) for leaf in _leaves(self, expr))

    def _array_leaves(self, node: ast.AST, evidence: dict[int, bool]) -> list[ast.expr]:
        return [leaf for leaf in _leaves(self, node) if self._is_array(leaf, evidence)]

    def _is_not_whole_array(self, expr: ast.expr, depth: int) -> bool:
        """A device value that is not a distributed array of many elements: a
        0-d reduction result (``total / n`` after ``total = np.sum(a)``), a
        self-product (``np.dot(f, f)``), a single element (``a[0]``), or a
        value of a NumPy sub-library cuPyNumeric does not provide (``np.ma``).
        Arithmetic on these is not what the report quotes as scaling."""
        if depth > _MAX_DEPTH:
            return False
        key = id(expr)
        cached = self._partial_memo.get(key)
        if cached is not None:
            return cached
        # A binding that reaches itself (p = (p + q) / 2 in a loop) is
        # decided by the bindings that do not: neutral while in progress.
        self._partial_memo[key] = True
        result = self._not_whole_array(expr, depth)
        self._partial_memo[key] = result
        return result

    def _not_whole_array(self, expr: ast.expr, depth: int) -> bool:
        model = self.model
        if isinstance(expr, ast.Call):
            api = self._api(expr)
            func = expr.func
            if api is not None and "." in api and api.partition(".")[0] in _OFF_DEVICE_NAMESPACES:
                return True
            if api in SCALING_REDUCTIONS:
                return _axis_text(model, expr, api) == ""
            if api in SCALAR_PRODUCTS:
                return True
            if api in SELF_PRODUCTS:
                return len(expr.args) == 2 and _same_array(expr.args[0], expr.args[1])
            if api in SCALING_UFUNCS:
                return self._all_device_leaves_partial(expr, depth)
            if api is None and isinstance(func, ast.Attribute):
                if func.attr in SCALING_REDUCTION_METHODS:
                    return model.is_array(func.value) and _axis_text(model, expr, None) == ""
                if func.attr == "dot" and len(expr.args) == 1:
                    return _same_array(func.value, expr.args[0])
                return model.is_array(func.value) and self._is_not_whole_array(func.value, depth + 1)
            return False
        if isinstance(expr, ast.Subscript):
            return _is_element_index(model, expr) or self._is_not_whole_array(expr.value, depth + 1)
        if isinstance(expr, ast.Name):
            bindings = model.reaching_bindings(expr)
            return bool(bindings) and all(self._binding_not_whole_array(b, depth) for b in bindings)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.MatMult):
            return _same_array(expr.left, expr.right)
        if isinstance(expr, (ast.BinOp, ast.UnaryOp, ast.Compare)):
            return self._all_device_leaves_partial(expr, depth)
        if isinstance(expr, ast.Attribute) and expr.attr in ("T", "real", "imag"):
            return self._is_not_whole_array(expr.value, depth + 1)
        return False

    def _binding_not_whole_array(self, binding: Any, depth: int) -> bool:
        value = binding.value
        if binding.kind is BindKind.PARAM:
            return self._weak_parameter(binding)
        if binding.kind not in (BindKind.VALUE, BindKind.AUG) or value is None:
            return False
        if self.model.kind(value) in (Kind.SCALAR, Kind.NOT):
            return True
        return self._is_not_whole_array(value, depth + 1)

    def _weak_parameter(self, binding: Any) -> bool:
        """A parameter the model takes for an array only because it is passed
        to a ufunc or a converter (``np.log(l1)``, ``np.asarray(x)``), which
        accept Python numbers and lists just as well: not enough to quote
        arithmetic on it as whole-array work."""
        if binding.value is not None:
            return False  # annotated
        scope = binding.scope
        if binding.name in scope.array_evidence:
            return False  # indexed with a tuple, or its .shape/.ndim/.T read
        call = scope.first_argument_of.get(binding.name)
        return isinstance(call, ast.Call) and self._api(call) in _WEAK_EVIDENCE

    def _all_device_leaves_partial(self, expr: ast.AST, depth: int) -> bool:
        device = [leaf for leaf in _leaves(self, expr) if leaf is not expr and self.model.kind(leaf) is Kind.DEVICE]
        return bool(device) and all(self._is_not_whole_array(leaf, depth + 1) for leaf in device)

    # -------------------------------------------------------------- candidates
    def _candidates(self, stmt: ast.stmt) -> list[ast.AST]:
        """The statement's nodes in pre-order, minus lambdas and host sinks."""
        found: list[ast.AST] = []
        stack: list[ast.AST] = _children(stmt)
        stack.reverse()
        pop, push, keep = stack.pop, stack.extend, found.append
        skipped = _SKIPPED_TYPES
        while stack:
            node = pop()
            kind = type(node)
            if kind is ast.Name:
                keep(node)
                continue
            if kind in skipped:
                continue
            if kind in _EXPRESSION_TYPES:
                if kind is ast.Call and self._is_host_sink(node):  # type: ignore[arg-type]
                    self._sinks.add(id(node))
                    continue
                keep(node)
            children = _children(node)
            children.reverse()
            push(children)
        return found

    def _is_host_sink(self, call: ast.Call) -> bool:
        model = self.model
        func = call.func
        if isinstance(func, ast.Name) and model.lookup(func) is None:
            if func.id in HOST_BUILTINS:
                return True
            if func.id in _SCALAR_CONVERSIONS:
                return model.in_loop(call)
        if isinstance(func, ast.Attribute):
            if func.attr in _HOST_METHODS:
                return True
            if func.attr in _SYNC_METHODS_IN_LOOP and model.in_loop(call):
                return True
            if func.attr == "nonzero" and not call.args and model.kind(func.value) is Kind.DEVICE:
                return True
            if not _implemented(f"numpy.ndarray.{func.attr}") and model.kind(func.value) is Kind.DEVICE:
                return True  # a method cuPyNumeric lacks (CPN401)
        qual = model.qualname(func)
        head, _, tail = (qual or "").partition(".")
        device = model.device_root
        self._api_memo[id(call)] = tail if head == device and tail else None  # what call_api would say
        if head in HOST_LIBRARIES:
            return True
        if head == "numpy" and device == "cupynumeric":
            return True  # the host alias
        if head != device or not tail:
            return False
        if tail in SCALING_UFUNCS and _masked_ufunc(call):
            return True  # cuPyNumeric 26.6.1 raises on a ufunc's where= mask
        if tail in _INDEX_BUILDERS or (tail == "where" and len(call.args) == 1):
            return True  # index arrays from a mask: Doctor's "nonzero can be slow"
        return tail in _DEVICE_IO or tail.startswith("testing.") or not _implemented(f"numpy.{tail}")

    # ------------------------------------------------------------ exclusions
    def _is_per_element(self, stmt: ast.stmt, nodes: list[ast.AST]) -> bool:
        """Does the statement work element by element inside an element loop
        (or a recurrence)? A time-step loop's statements are whole-array
        work even when they store per-step history (``e[k] = np.sum(u * u)``)."""
        model = self.model
        frames: list[LoopFrame] = []
        outer = model.loop_of(stmt)
        if outer is not None:
            frames += outer.chain()
        for node in nodes:
            if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                frame = model.loop_for_node(node)
                if frame is not None:
                    frames.append(frame)
        frames = [f for f in frames if f.iter_kind in _ELEMENT_LOOPS]
        if not frames:
            return False
        subscripts = [n for n in nodes if isinstance(n, ast.Subscript)]
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            subscripts += [t for t in _targets(stmt) if isinstance(t, ast.Subscript)]
        used = {n.id for n in nodes if isinstance(n, ast.Name)}
        for frame in frames:
            varying = model.loop_varying(frame)
            picks = any(varying & _names_in(sub.slice) and model.kind(sub.value) is Kind.DEVICE for sub in subscripts)
            if not picks and not frame.element_vars & used:
                continue
            # cheap tests first: only a loop that picks elements here needs its role
            if frame.iter_kind is IterKind.ARRAY or model.role(frame) in _ELEMENT_ROLES:
                return True
        return False

    def _makes_objects(self, nodes: list[ast.AST]) -> bool:
        """A ``dtype=object`` array in the statement (CPN107)."""
        for node in nodes:
            if isinstance(node, ast.Call):
                dtype = _keyword(node, "dtype")
                if dtype is not None and _is_object_dtype(self.model, dtype):
                    return True
        return False

    def _has_stepped_slice(self, nodes: list[ast.AST]) -> bool:
        model = self.model
        for node in nodes:
            if not isinstance(node, ast.Subscript) or model.kind(node.value) is not Kind.DEVICE:
                continue
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            for part in parts:
                if isinstance(part, ast.Slice) and part.step is not None:
                    if not (isinstance(part.step, ast.Constant) and part.step.value is None) and model.const_int(part.step) != 1:
                        return True
        return False


# ------------------------------------------------------------------ helpers
_OPERATION_TYPES = frozenset({ast.BinOp, ast.UnaryOp, ast.Compare, ast.Call})
# What a site can start from: an operation (CPN001-CPN004, CPN006's out=), a
# subscript (CPN005 stencils, CPN007 masks), or the statement itself (an
# augmented assignment, CPN001/CPN003; a swap, CPN006).
_MATCHABLE_TYPES = _OPERATION_TYPES | {ast.Subscript}


def _may_swap_or_update(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.AugAssign) or (
        isinstance(stmt, ast.Assign) and any(isinstance(t, (ast.Tuple, ast.List)) for t in stmt.targets))


def _children(node: ast.AST) -> list[ast.AST]:
    """``ast.iter_child_nodes`` as a list, with the common expressions spelled
    out (the statement walk is the SCALES pass's inner loop)."""
    kind = type(node)
    if kind is ast.BinOp:
        return [node.left, node.right]  # type: ignore[attr-defined]
    if kind is ast.Attribute:
        return [node.value]  # type: ignore[attr-defined]
    if kind is ast.Call:
        return [node.func, *node.args, *(k.value for k in node.keywords)]  # type: ignore[attr-defined]
    if kind is ast.Subscript:
        return [node.value, node.slice]  # type: ignore[attr-defined]
    if kind in (ast.Tuple, ast.List):
        return list(node.elts)  # type: ignore[attr-defined]
    if kind is ast.Compare:
        return [node.left, *node.comparators]  # type: ignore[attr-defined]
    if kind is ast.UnaryOp:
        return [node.operand]  # type: ignore[attr-defined]
    if kind is ast.Assign:
        return [*node.targets, node.value]  # type: ignore[attr-defined]
    return list(ast.iter_child_nodes(node))


def _leaves(analysis: ScalesAnalysis, root: ast.AST) -> Iterator[ast.expr]:
    """Operands of an elementwise expression tree that are not themselves
    elementwise operators (names, calls, subscripts, matrix products, ...)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if analysis._is_elementwise(node):
            stack.extend(reversed(analysis._operands(node)))
        elif isinstance(node, ast.expr):
            yield node


def _targets(stmt: ast.stmt) -> list[ast.expr]:
    if isinstance(stmt, ast.Assign):
        found: list[ast.expr] = []
        for target in stmt.targets:
            found += list(target.elts) if isinstance(target, (ast.Tuple, ast.List)) else [target]
        return found
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        return [stmt.target]
    return []


def _names_in(expr: ast.AST) -> set[str]:
    return {n.id for n in walk(expr) if isinstance(n, ast.Name)}


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def _argument(call: ast.Call, position: int, *names: str) -> ast.expr | None:
    if len(call.args) > position and not isinstance(call.args[position], ast.Starred):
        return call.args[position]
    for name in names:
        value = _keyword(call, name)
        if value is not None:
            return value
    return None


def _axis_text(model: FileModel, call: ast.Call, api: str | None) -> str:
    """``" along axis 0"`` for a partial reduction, ``""`` for a full one."""
    axis = _keyword(call, "axis")
    if axis is None:
        position = _AXIS_POSITION.get(api or "", 1) if api is not None else 0
        if len(call.args) > position:
            axis = call.args[position]
    if axis is None or (isinstance(axis, ast.Constant) and axis.value is None):
        return ""
    return f" along axis {model.segment(axis, 20)}"




def _same_array(a: ast.expr, b: ast.expr) -> bool:
    """``x`` and ``x`` (or ``self.x`` twice): the same array on both sides."""
    first = dotted_name(a)
    return first is not None and first == dotted_name(b)


def _literal_int(expr: ast.expr) -> int | None:
    if isinstance(expr, ast.Constant) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
        return expr.value
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = _literal_int(expr.operand)
        return -inner if inner is not None else None
    return None


def _anchor_and_offset(expr: ast.expr) -> tuple[str | None, int]:
    """``n - 1`` -> ("n", -1), ``u.shape[0]`` -> ("u.shape[0]", 0)."""
    offset = 0
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)):
        k = _literal_int(expr.right)
        if k is not None:
            offset = k if isinstance(expr.op, ast.Add) else -k
            expr = expr.left
    if isinstance(expr, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
        try:
            return ast.unparse(expr), offset
        except (ValueError, RecursionError):  # pragma: no cover - unparse of odd nodes
            return None, 0
    return None, 0


def _is_element_index(model: FileModel, sub: ast.Subscript) -> bool:
    """``a[0]``, ``a[i, j]``: every index component is a scalar, so the result
    may be a single element (or a row; either way not evidence of an array)."""
    parts = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
    for part in parts:
        if isinstance(part, ast.Slice):
            return False
        if isinstance(part, ast.Constant) and (part.value is None or part.value is Ellipsis):
            return False
        if isinstance(part, (ast.Compare, ast.List)):
            return False
        if model.kind(part) is Kind.DEVICE:
            return False  # a mask or an index array
    return True


def _masked_ufunc(call: ast.Call) -> bool:
    """A ufunc call with a ``where=`` mask other than the literal ``True``."""
    where = _keyword(call, "where")
    return where is not None and not (isinstance(where, ast.Constant) and where.value is True)


def _is_object_dtype(model: FileModel, dtype: ast.expr) -> bool:
    if isinstance(dtype, ast.Name) and dtype.id == "object" and model.lookup(dtype) is None:
        return True
    if isinstance(dtype, ast.Constant) and dtype.value in ("O", "object", "|O"):
        return True
    return isinstance(dtype, ast.Attribute) and model.array_api(dtype) == "object_"


@lru_cache(maxsize=4096)
def _implemented(name: str) -> bool:
    """False when the API manifest in use lists ``name`` as not implemented
    in cuPyNumeric; APIs it does not list count as implemented."""
    entry = active().lookup(name)
    return entry is None or entry.status.implemented


def _is_bool_dtype(model: FileModel, dtype: ast.expr | None) -> bool:
    if dtype is None:
        return False
    if isinstance(dtype, ast.Name) and dtype.id == "bool" and model.lookup(dtype) is None:
        return True
    if isinstance(dtype, ast.Constant) and dtype.value in ("bool", "?", "b1"):
        return True
    return model.array_api(dtype) in ("bool", "bool_") if isinstance(dtype, ast.Attribute) else False


# ----------------------------------------------------------- message helpers
def quote(model: FileModel, node: ast.AST, limit: int = 60) -> str:
    """``'text'`` of a node as written, shortened."""
    return repr(model.segment(node, limit))


def array_list(model: FileModel, exprs: list[ast.expr]) -> list[str]:
    """The distinct arrays among ``exprs``, in order; a slice or an indexed
    view is named by the array it views."""
    return list(dict.fromkeys(s for s in (model.segment(_viewed(e), 24) for e in exprs) if s))


def names(model: FileModel, exprs: list[ast.expr], limit: int = 4) -> str:
    """``'a', 'b' and 'c'`` for the distinct arrays among ``exprs``."""
    seen = array_list(model, exprs)
    shown = [repr(s) for s in seen[:limit]]
    if len(seen) > limit:
        shown.append(f"{len(seen) - limit} more")
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def _viewed(expr: ast.expr) -> ast.expr:
    while isinstance(expr, ast.Subscript) and isinstance(expr.value, (ast.Name, ast.Attribute, ast.Subscript)):
        expr = expr.value
    return expr


def loop_phrase(model: FileModel, node: ast.AST) -> str:
    """``" inside the loop at line 12"`` or ``""``."""
    frame = model.loop_of(node)
    if frame is None:
        return ""
    return f" inside {loop_place(frame)}"


def operand_findings(rule: Any, model: FileModel, quoted: str) -> Iterator[Any]:
    """The findings of a SCALES rule whose sites name their operand arrays
    (CPN003, CPN004): the site quoted under the message field ``quoted``."""
    for site in scales_analysis(model).sites(rule.code):
        operands = site.facts["operands"]
        yield rule.finding(site.node, in_loop=site.in_loop, data={"arrays": array_list(model, operands)},
                           arrays=names(model, operands) or "arrays", **{quoted: repr(model.segment(site.node, 50))})
