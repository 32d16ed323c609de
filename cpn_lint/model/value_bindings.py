"""The value engine's kinds of names (:class:`BindingKinds`).

What a binding holds: an assignment's value, an augmented assignment, an
item unpacked from a tuple a function returns, a loop's element (of an
array, a ``zip``/``enumerate``, a generator), an item taken from a container
the file fills, or a parameter (from the file's call sites, its annotation
and its defaults). A mixin of :class:`~cpn_lint.model.values.ValueEngine`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from . import numpy_api as api
from . import shapes
from .imports import DEVICE_ROOTS
from .kinds import Kind, join
from .scopes import Binding, BindKind
from .shapes import MaybeShape
from .syntax import callee_name, defaults_to_number, function_default, positional_or_keyword, walk
from .value_common import _ARRAYS, _COMPREHENSIONS, _NUMBERS

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

_DEFINITE = (Kind.DEVICE, Kind.DEVICE_SCALAR, Kind.HOST, Kind.CUPY, Kind.SCALAR, Kind.NOT, Kind.GENERATOR)
_MAX_PACKING_DEPTH = 4  # names and call sites followed back to the tuple written out


# builtins whose result follows their arguments (no loader hides behind them)
_PURE_BUILTINS = frozenset({"max", "min", "abs", "sum", "round", "pow", "divmod"})
# libraries whose constructors and readers make host tables, never device arrays
_HOST_TABLE_LIBRARIES = frozenset({"pandas", "polars", "xarray"})


class BindingKinds:
    """The kinds of bindings, loop items, containers' items and parameters."""

    model: "FileModel"

    # ------------------------------------------------------------ bindings
    def binding_kind(self, binding: Binding) -> Kind:
        """The kind of value ``binding`` gives its name."""
        kind = self._read(binding)[0]
        return Kind.UNKNOWN if kind is Kind.BOTTOM else kind

    def _compute_binding_kind(self, b: Binding) -> Kind:
        if b.kind is BindKind.NOT_ARRAY:
            return Kind.NOT
        if b.kind is BindKind.COUNTER:
            return Kind.SCALAR
        if b.kind is BindKind.OPAQUE:
            return Kind.UNKNOWN
        if b.kind is BindKind.VALUE:
            kind = self._kind(b.value)
            if kind is Kind.BOTTOM:
                return kind  # not yet: the evidence below only stands in for "unknown"
            # `A = A.toarray()` is dense whatever else the name held before
            densified = isinstance(b.value, ast.Call) and callee_name(b.value.func) in api.DENSIFY_METHODS
            if kind is Kind.UNKNOWN and isinstance(b.value, ast.Call) and not self._returns_no_array(b.value) \
                    and not self._not_a_loader(b.value) \
                    and self.has_array_evidence(b.scope.function_like(), b.name, densified):
                return Kind.DEVICE  # x = load(...) later used as x[i, j] / x.ndim
            return kind
        if b.kind is BindKind.AUG:
            return self._aug_kind(b)
        if b.kind is BindKind.ELEMENT:
            return self._element_kind(b)
        if b.kind in (BindKind.PARAM, BindKind.ANNOTATION):
            return self._parameter_kind(b)
        return Kind.UNKNOWN

    def _not_a_loader(self, call: ast.Call) -> bool:
        """A call whose unknown result no other use of the name decides: a
        builtin unknown only because its arguments are (``max(vt, 0.0)``; a
        notebook's later cell reusing ``vt`` for an array says nothing of it),
        or a pandas constructor (``pd.Series(...)``, a host table)."""
        func = call.func
        if (self.model.qualname(func) or "").partition(".")[0] in _HOST_TABLE_LIBRARIES:
            return True
        return isinstance(func, ast.Name) and self.model.is_builtin(func) and func.id in _PURE_BUILTINS

    def _returns_no_array(self, call: ast.Call) -> bool:
        """A call of the file's function whose returns are certainly not
        arrays (a list it builds): how the result is used does not change that."""
        scope = self.model.calls.target(call)
        return scope is not None and self._read(scope)[0] is Kind.NOT

    def _aug_kind(self, b: Binding) -> Kind:
        """``x op= value``: an array stays itself (``u *= 0.5`` updates in
        place); a number becomes a device scalar when a device scalar is
        added to it (``t += dt`` with ``dt = np.sqrt(2) * dx``)."""
        value = self._kind(b.value)
        prior = self._kind_Name(b.node) if isinstance(b.node, ast.Name) else Kind.UNKNOWN
        if prior.is_array:
            return prior
        if value.is_array:
            return value
        if value is Kind.BOTTOM or prior is Kind.BOTTOM:
            return Kind.BOTTOM  # a number, or an array once the rest is known: not yet
        if value in _NUMBERS and prior in _NUMBERS and Kind.DEVICE_SCALAR in (value, prior):
            return Kind.DEVICE_SCALAR
        if value is Kind.DEVICE_SCALAR and self._prior_is_scalar(b, allow_device=True):
            return Kind.DEVICE_SCALAR
        if value is Kind.SCALAR and self._prior_is_scalar(b):
            return Kind.SCALAR  # `it = 0` ... `it += 1`: a Python counter
        return Kind.UNKNOWN

    def _returned_items(self, source: ast.expr, index: int | None) -> list[ast.expr] | None:
        """``a, b = f(...)`` where every ``return`` of the file's ``f`` is a
        tuple of the same length: the expressions item ``index`` comes from."""
        if index is None or not isinstance(source, ast.Call):
            return None
        scope = self.model.calls.target(source)
        if scope is None or not scope.returns:
            return None
        items: list[ast.expr] = []
        for returned in scope.returns:
            if not isinstance(returned, ast.Tuple) or index >= len(returned.elts) or any(isinstance(e, ast.Starred) for e in returned.elts):
                return None
            items.append(returned.elts[index])
        return items

    def _unpacked_items(self, b: Binding) -> list[ast.expr] | None:
        """The expressions item ``b.index`` of what ``b`` unpacks comes from:
        a function's returned tuples (``a, b = f(...)``), or a tuple written
        out and handed over by name or by argument (``state = (x, v)`` ...
        ``step(state)`` ... ``x, v = state``). None when any source is not
        such a tuple."""
        source = b.value
        if source is None or b.index is None:
            return None
        returned = self._returned_items(source, b.index)
        if returned is not None or self._iterated_by(b, source):
            return returned
        return self._packed_items(source, b.index, 0)

    def _packed_items(self, expr: ast.expr, index: int, depth: int) -> list[ast.expr] | None:
        if depth > _MAX_PACKING_DEPTH:
            return None
        if isinstance(expr, (ast.Tuple, ast.List)):
            if index >= len(expr.elts) or any(isinstance(e, ast.Starred) for e in expr.elts):
                return None
            return [expr.elts[index]]
        if isinstance(expr, ast.Call):
            scope = self.model.calls.target(expr)
            if scope is None or not scope.returns:
                return None
            return self._all_packed(scope.returns, index, depth)
        if not isinstance(expr, ast.Name):
            return None
        model = self.model
        sources: list[ast.expr] = []
        for binding in model.reaching_bindings(expr):
            if binding.kind is BindKind.VALUE and binding.value is not None:
                sources.append(binding.value)
            elif binding.kind is BindKind.PARAM and binding.value is None:
                given = model.calls.passed(binding)
                if given is None:
                    return None
                sources += given
            else:
                return None
        return self._all_packed(sources, index, depth) if sources else None

    def _all_packed(self, sources: list[ast.expr], index: int, depth: int) -> list[ast.expr] | None:
        found: list[ast.expr] = []
        for source in sources:
            items = self._packed_items(source, index, depth + 1)
            if items is None:
                return None
            found += items
        return found

    def _prior_is_scalar(self, b: Binding, allow_device: bool = False) -> bool:
        """Every other binding reaching an augmented assignment holds a number."""
        if not isinstance(b.node, ast.Name):
            return False
        model = self.model
        scope = model.lookup(b.node)
        others = [o for o in model._reaching.bindings(scope, b.node) if o is not b] if scope is not None else []
        allowed = _NUMBERS if allow_device else (Kind.SCALAR,)
        kinds = [k for k in (self._read(o)[0] for o in others) if k is not Kind.BOTTOM]
        return bool(kinds) and all(k in allowed for k in kinds)

    def _element_kind(self, b: Binding) -> Kind:
        """Kind of one item of iterating or unpacking ``b.value``."""
        source = b.value
        if source is None:
            return Kind.UNKNOWN
        unpacked = self._unpacked_items(b)
        if unpacked is not None:
            kinds = [self._kind(item) for item in unpacked]
            return join(kinds) if kinds else Kind.UNKNOWN
        wrapped = self.model.progress_wrapped(source)  # for m in tqdm(range(n)), trange(n)
        if wrapped is source:
            return Kind.SCALAR
        if wrapped is not None and self._iterated_by(b, source):
            source = wrapped
        if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and source.func.id in ("range", "len"):
            return Kind.SCALAR
        walked = self._iterator_item_kind(b, source)
        if walked is not None:
            return walked
        if isinstance(source, ast.Attribute) and source.attr in api.ARRAY_METADATA:
            return Kind.SCALAR  # n, m = a.shape
        if isinstance(source, (ast.List, ast.Tuple, ast.Set)) and self._iterated_by(b, source):
            return self._display_item_kind(source, b.index)
        kind = self._kind(source)
        if kind is Kind.BOTTOM:
            return kind
        if kind in _ARRAYS:
            source_shape = self._shape(source)
            if kind is Kind.DEVICE and source_shape is not None and len(source_shape) == 1:
                return Kind.DEVICE_SCALAR  # the items of a vector
            return kind  # rows of an array, or items unpacked from it
        if kind is Kind.SEQ:
            return Kind.DEVICE if self.model.device_root else Kind.UNKNOWN
        if kind is Kind.NOT and b.index is None and self._iterated_by(b, source):
            return self._items_kind(source, iterated=True)  # for frame in frames: the arrays appended to it
        return Kind.UNKNOWN

    def _iterator_item_kind(self, b: Binding, source: ast.expr) -> Kind | None:
        """An item of ``np.nditer(a)`` (also through ``with np.nditer(a) as
        it: for x in it``) or the value of ``np.ndenumerate(a)``: a 0-d
        array of ``a``, a device scalar; None for anything else."""
        if not self._iterated_by(b, source):
            return None
        call = self.iterator_call(source)
        if call is None:
            return None
        tail = (self.model.qualname(call.func) or "").rpartition(".")[2]
        flags = positional_or_keyword(call, 1, "flags") if tail == "nditer" else None
        if flags is not None and any(isinstance(n, ast.Constant) and n.value == "external_loop" for n in walk(flags)):
            return None  # whole 1-D chunks, not items
        operand = call.args[0]
        if tail == "ndenumerate":
            if b.index != 1:
                return None  # the index tuple
        elif isinstance(operand, (ast.List, ast.Tuple)):
            if b.index is None or b.index >= len(operand.elts):
                return None
            operand = operand.elts[b.index]  # nditer([a, b]) hands out a pair of items
        elif b.index is not None:
            return None
        kind = self._kind(operand)
        if kind is Kind.BOTTOM:
            return kind
        return Kind.DEVICE_SCALAR if kind is Kind.DEVICE else Kind.SCALAR if kind is Kind.HOST else None

    def iterator_call(self, source: ast.expr) -> ast.Call | None:
        """``np.nditer(...)``/``np.ndenumerate(...)`` of the device library,
        written in the loop or bound by ``with ... as it``."""
        model = self.model
        if isinstance(source, ast.Name):
            bindings = model.reaching_bindings(source)
            if len(bindings) != 1:
                return None
            holder = model.parent(bindings[0].node)
            if not isinstance(holder, ast.withitem):
                return None
            source = holder.context_expr
        if not isinstance(source, ast.Call) or not source.args:
            return None
        qual = model.qualname(source.func) or ""
        head, _, tail = qual.partition(".")
        return source if head in DEVICE_ROOTS and tail in ("nditer", "ndenumerate") else None

    # ------------------------------------------------------------ generators
    def generator_class(self, expr: ast.expr) -> str | None:
        """``numpy.random.Generator`` (or ``RandomState``) for a random
        generator whose every maker is seen and agrees: the constructor
        call itself, a name bound to one, a parameter every call site
        passes one (``kmeans_pp_init(X, k, rng)``), ``self.rng`` set in the
        class. None when the kind is not a generator or a maker is not seen."""
        if self.kind(expr) is not Kind.GENERATOR:
            return None
        found = self._generator_makers(expr, 0, set())
        if not found or None in found or len(set(found)) != 1:
            return None
        return found[0]

    def _generator_makers(self, expr: ast.expr, depth: int, seen: set[int]) -> list[str | None]:
        model = self.model
        if depth > _MAX_PACKING_DEPTH * 2:
            return [None]
        if isinstance(expr, ast.Call):
            qual = model.qualname(expr.func) or ""
            head, _, tail = qual.partition(".")
            return [api.GENERATOR_CLASSES.get(tail) if head in DEVICE_ROOTS else None]
        if isinstance(expr, ast.Attribute):
            cls = self._attribute_class(expr)
            bindings = model._class_attrs.get((id(cls), expr.attr), []) if cls is not None else []
        elif isinstance(expr, ast.Name):
            bindings = model.reaching_bindings(expr)
        else:
            return [None]
        if not bindings:
            return [None]
        found: list[str | None] = []
        for binding in bindings:
            if id(binding) in seen:
                continue  # a cycle adds no maker
            seen.add(id(binding))
            if binding.kind is BindKind.VALUE and binding.value is not None:
                found += self._generator_makers(binding.value, depth + 1, seen)
            elif binding.kind is BindKind.PARAM and binding.value is None:
                found += self._passed(binding, lambda given: self._generator_makers(given, depth + 1, seen))  # type: ignore[arg-type,return-value]
            else:
                found.append(None)
        return found

    # ------------------------------------------------------------ containers
    def _items_kind(self, container: ast.expr, iterated: bool = False) -> Kind:
        """The kind of every item of a Python list, tuple or dict, when all
        that is put in it is known: the displays bound to the name, what
        ``.append``/``.insert``/``.setdefault`` add and what ``c[k] = v``
        stores (``frames.append(u.copy())``, ``self.entries[k] =
        np.asarray(a)``). An array kind only; anything else is UNKNOWN.
        ``iterated``: what a loop over the container gets (a dict's keys,
        so a dict has no known items then)."""
        items = self._stored_items(container, sequence_only=iterated)
        if not items:
            return Kind.UNKNOWN
        kinds = [self._kind(item) for item in items]
        known = [k for k in kinds if k is not Kind.BOTTOM]
        if not known:
            return Kind.BOTTOM
        first = known[0]
        if (first not in _ARRAYS and first is not Kind.DEVICE_SCALAR) or any(k is not first for k in known):
            return Kind.UNKNOWN
        return Kind.BOTTOM if len(known) < len(kinds) else first

    def _stored_items(self, container: ast.expr, sequence_only: bool = False) -> list[ast.expr] | None:
        """The expressions a container holds (see :meth:`_items_kind`); None
        when any source is not known (a parameter, ``.extend``, a call), and
        with ``sequence_only`` for a dict."""
        model = self.model
        if isinstance(container, (ast.List, ast.Tuple, ast.Set, ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return _displayed_items(container)  # sum([f(a) for a in parts])
        if isinstance(container, ast.Name):
            scope = model.lookup(container)
            if scope is None:
                return None
            bindings = scope.bindings.get(container.id, ())
            key: tuple[object, ...] = ("name", id(scope), container.id)
        elif isinstance(container, ast.Attribute):
            cls = self._attribute_class(container)
            bindings = model._class_attrs.get((id(cls), container.attr), ()) if cls is not None else ()
            if cls is None or not bindings:
                return None
            key = ("attr", id(cls), container.attr)
        else:
            return None
        found: list[ast.expr] = []
        for binding in bindings:
            if binding.kind is not BindKind.VALUE or binding.value is None:
                return None
            if sequence_only and _is_mapping(binding.value):
                return None
            displayed = _displayed_items(binding.value)
            if displayed is None:
                return None
            found += displayed
        added = self._container_stores().get(key)
        if added is None:
            return found
        if any(a is None for a in added):
            return None
        return found + added  # type: ignore[operator]

    def _container_stores(self) -> dict[tuple[object, ...], list[ast.expr | None]]:
        """What the file puts into containers after making them, by
        container (a name in its scope, or a class's ``self.x``): appended
        items, ``c[k] = v`` values, None for an addition not followed
        (``.extend``, an augmented item assignment). Built once per file."""
        if self._stores is not None:
            return self._stores
        stores: dict[tuple[object, ...], list[ast.expr | None]] = {}
        model = self.model
        for call in model.nodes(ast.Call):
            func = call.func
            if not isinstance(func, ast.Attribute) or func.attr not in _ADDING_METHODS:
                continue
            key = self._container_key(func.value)
            if key is None:
                continue
            item = call.args[-1] if call.args and func.attr != "extend" and not isinstance(call.args[-1], ast.Starred) else None
            stores.setdefault(key, []).append(item)
        for node in model.nodes(ast.Subscript):
            if not isinstance(node.ctx, ast.Store):
                continue
            key = self._container_key(node.value)
            if key is None:
                continue
            parent = model.parent(node)
            value = parent.value if isinstance(parent, ast.Assign) and node in parent.targets else None
            stores.setdefault(key, []).append(value)
        self._stores = stores
        return stores

    def _container_key(self, expr: ast.expr) -> tuple[object, ...] | None:
        if isinstance(expr, ast.Name):
            scope = self.model.lookup(expr)
            return ("name", id(scope), expr.id) if scope is not None else None
        if isinstance(expr, ast.Attribute):
            cls = self._self_class(expr)
            return ("attr", id(cls), expr.attr) if cls is not None else None
        return None

    def _iterated_by(self, b: Binding, source: ast.expr) -> bool:
        """Is ``b`` the target of a loop (or comprehension) over ``source``?"""
        node: ast.AST | None = b.node
        for _ in range(4):  # the name, a tuple target, a nested tuple target
            node = self.model.parent(node) if node is not None else None
            if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                return node.iter is source
            if isinstance(node, _COMPREHENSIONS):  # the model's parent of a generator's target
                return any(g.iter is source for g in node.generators)  # type: ignore[attr-defined]
        return False

    def _display_item_kind(self, source: ast.List | ast.Tuple | ast.Set, index: int | None) -> Kind:
        """One item of a literal list/tuple a loop walks: ``for (dx, dy) in
        ((-1, 0), (1, 0))`` gives ``dx`` the kind of -1 and 1."""
        items = list(source.elts)
        if index is not None:
            if not all(isinstance(i, (ast.Tuple, ast.List)) and len(i.elts) > index for i in items):
                return Kind.UNKNOWN
            items = [i.elts[index] for i in items]  # type: ignore[attr-defined]
        if not items or any(isinstance(i, ast.Starred) for i in items):
            return Kind.UNKNOWN
        return join([self._kind(i) for i in items])

    def _parameter_kind(self, b: Binding) -> Kind:
        annotated = _annotation_kind(b.value)
        if annotated is not None:
            if not annotated and _annotated_number(b.value):
                return Kind.SCALAR  # level: float
            return Kind.DEVICE if annotated else Kind.NOT
        if b.kind is BindKind.ANNOTATION:
            return Kind.UNKNOWN
        passed = self._argument_kind(b)
        if passed is Kind.BOTTOM:
            return passed  # not yet: the evidence below only stands in for "unknown"
        if passed is not Kind.UNKNOWN:
            return passed
        if self.has_array_evidence(b.scope, b.name) and not self.model.calls.is_receiver(b):
            return Kind.DEVICE
        if defaults_to_number(b.scope.node, b.name):
            return Kind.SCALAR  # n=14, tol=1e-6: a number unless the code uses it as an array
        return self._default_kind(b)

    def _default_kind(self, param: Binding) -> Kind:
        """``rng=rng`` after ``rng = np.random.default_rng()``, ``n=default_n``
        after ``default_n = 10``: a parameter defaulting to a module-level
        generator or number is one (the code never uses it as an array)."""
        default = function_default(param.scope.node, param.name)
        if not isinstance(default, ast.Name):
            return Kind.UNKNOWN
        kind = self._kind(default)
        return kind if kind in (Kind.GENERATOR, Kind.SCALAR) else Kind.UNKNOWN

    def _argument_kind(self, param: Binding) -> Kind:
        """What the call sites pass for a parameter: their joined kind when
        every site tells; UNKNOWN when there are none or one cannot tell. For
        a function that escapes, only an array or a device value is worth
        knowing (it can receive one); anything else may come from the unseen
        callers, except that ``np.vectorize(f)`` passes numbers."""
        calls = self.model.calls
        scope = param.scope
        if param.kind is not BindKind.PARAM or calls.is_receiver(param):
            return Kind.UNKNOWN
        sites = calls.argument_sites(scope)
        # brentq(f, a, b) calls f with a float for its first parameter
        numbers = scope.params[:1] == [param.name] and calls.called_with_numbers(scope)
        if not sites:
            return Kind.SCALAR if numbers else Kind.UNKNOWN
        kinds: list[Kind] = [Kind.SCALAR] if numbers else []
        for call in sites:
            given = calls.argument(call, scope, param.name)
            if given is None:
                return Kind.UNKNOWN
            kinds.append(self._kind(given))
        if calls.arguments_escape(scope) and calls.escapes_to_number_callers(scope):
            kinds.append(Kind.SCALAR)  # np.vectorize(f) calls f with numbers: one more site
            return self._joined_arguments(kinds, escaping=False)
        if numbers:
            return self._joined_arguments(kinds, escaping=False)
        return self._joined_arguments(kinds, calls.arguments_escape(scope))

    @staticmethod
    def _joined_arguments(kinds: list[Kind], escaping: bool) -> Kind:
        result = join(kinds)
        if result is Kind.BOTTOM:
            return result
        if escaping and not result.is_device and not result.is_array:
            # Seen calls show what the function can receive, not all it
            # does: an array or a device scalar is worth knowing (the seen
            # call syncs on it), a number may not be all it ever gets.
            return Kind.UNKNOWN
        return result if result in _DEFINITE else Kind.UNKNOWN

    def _argument_shape(self, param: Binding) -> MaybeShape:
        """The shape every call site passes for a parameter, where they agree."""
        calls = self.model.calls
        scope = param.scope
        sites = calls.argument_sites(scope)
        if not sites or calls.arguments_escape(scope):
            return None
        found: list[MaybeShape] = []
        for call in sites:
            given = calls.argument(call, scope, param.name)
            if given is None:
                return None
            waiting = self._bottom_reads
            shape = self._shape(given)
            if shape is None and self._bottom_reads > waiting and not self._closing:
                continue  # a site whose shape is not known yet adds nothing (x = step(x) in a loop)
            found.append(shape)
        return shapes.merge_all(found)


# Container methods that add one item (the last argument), and .extend.
_ADDING_METHODS = frozenset({"append", "insert", "setdefault", "extend", "appendleft"})


def _is_mapping(value: ast.expr) -> bool:
    return isinstance(value, (ast.Dict, ast.DictComp)) or (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict")


def _displayed_items(value: ast.expr) -> list[ast.expr] | None:
    """The items a container display (or an empty ``list()``/``dict()``)
    holds; None for any other value."""
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        return None if any(isinstance(e, ast.Starred) for e in value.elts) else list(value.elts)
    if isinstance(value, ast.Dict):
        return None if any(k is None for k in value.keys) else list(value.values)
    if isinstance(value, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        return [value.elt]
    if isinstance(value, ast.DictComp):
        return [value.value]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("list", "dict", "deque") \
            and not value.args and not value.keywords:
        return []
    return None


def _annotation_kind(annotation: ast.expr | None) -> bool | None:
    """True for an array annotation, False for a clearly non-array one."""
    if annotation is None:
        return None
    node = annotation
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
        if any(word in text for word in api.ARRAY_ANNOTATIONS):
            return True
        return None
    if isinstance(node, ast.Subscript):
        node = node.value
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    if name in api.ARRAY_ANNOTATIONS:
        return True
    if name in api.NOT_ARRAY_ANNOTATIONS:
        return False
    return None


def _annotated_number(annotation: ast.expr | None) -> bool:
    """``int``, ``float`` or ``complex``: a Python number."""
    return isinstance(annotation, ast.Name) and annotation.id in ("int", "float", "complex")
