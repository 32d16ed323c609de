"""Work inside a loop that could move out of it.

The REFACTOR rules report allocations, stacking and reshapes that a loop
repeats although nothing they depend on changes between iterations. This
module answers the questions those rules share:

* is an expression *loop-invariant* — does it compute the same value (or, for
  a buffer, the same shape) on every iteration of a loop?
* which enclosing loop could the work be hoisted before, and is that loop hot
  (not just a handful of axes or taps)?
* does a value made in the iteration *escape* it (kept in a list, a dict or
  an attribute), so that one reused buffer could not replace it?
* which later uses of a name does one assignment reach?

Facts about one loop are computed once per model and loop and memoised.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from . import numpy_api
from .kinds import Kind
from .loop_iterations import is_hot
from .scopes import BindKind, Binding, LoopFrame, ScopeKind
from .syntax import name_key, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import Scope

# Builtins that compute a number or a shape from their arguments and nothing else.
_PURE_BUILTINS = frozenset({"len", "int", "float", "tuple", "min", "max", "abs", "round", "range"})
# Methods that change a container's length or contents in place.
_CONTAINER_MUTATORS = frozenset(
    {
        "append", "extend", "insert", "pop", "remove", "clear", "update", "add",
        "discard", "setdefault", "popitem", "appendleft", "extendleft",
        "popleft", "resize",
    }
)
# Methods and functions that keep their argument beyond the statement.
_STORING_METHODS = frozenset({"append", "extend", "insert", "add", "appendleft", "extendleft", "setdefault", "put", "put_nowait", "update"})
_STORING_FUNCTIONS = frozenset({"heappush", "heappushpop", "heapreplace"})
# Attributes that describe an array's shape, not its values.
_SHAPE_ATTRIBUTES = frozenset({"shape", "size", "ndim", "dtype", "nbytes", "itemsize"})


@dataclass
class _LoopFacts:
    """What one loop rebinds, mutates and stores (including its inner loops)."""

    rebound: dict[int, set[str]]  # scope id -> names bound inside the loop
    mutated: set[str]  # names whose container methods change them in the loop
    stored_attributes: set[tuple[str, ...]]  # self.x = ... inside the loop
    shape_stable: dict[int, set[str]]  # rebound names whose shape never changes
    # attributes stored otherwise than updated in place (``self.x += dx`` on
    # an array keeps its shape; ``self.x = ...`` may not)
    reshaped_attributes: set[tuple[str, ...]] = field(default_factory=set)


class _ModelIndex:
    """Per-model tables built on first use: loop facts, loads by name."""

    def __init__(self, model: "FileModel") -> None:
        self.facts: dict[int, _LoopFacts] = {}
        # Loads by (function-like scope, name): a name reused in every
        # function of a large file is looked up among its own scope's loads.
        self.loads: dict[tuple[int, str], list[ast.Name]] = {}
        for name in model.nodes(ast.Name):
            if isinstance(name.ctx, ast.Load):
                key = (id(model.scope_of(name).function_like()), name.id)
                self.loads.setdefault(key, []).append(name)


def _index(model: "FileModel") -> _ModelIndex:
    return model.derived(_ModelIndex, _ModelIndex)


def _facts(model: "FileModel", frame: LoopFrame) -> _LoopFacts:
    index = _index(model)
    facts = index.facts.get(id(frame))
    if facts is None:
        facts = index.facts[id(frame)] = _compute_facts(model, frame)
    return facts


def _compute_facts(model: "FileModel", frame: LoopFrame) -> _LoopFacts:
    in_loop = model.bindings_in_loop(frame)
    rebound: dict[int, set[str]] = {}
    by_name: dict[tuple[int, str], list[Binding]] = {}
    for b in in_loop:
        rebound.setdefault(id(b.scope), set()).add(b.name)
        by_name.setdefault((id(b.scope), b.name), []).append(b)
    mutated: set[str] = set()
    for call in model.nodes_in_loop(frame, ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _CONTAINER_MUTATORS and isinstance(func.value, ast.Name):
            mutated.add(func.value.id)
    for stmt in model.nodes_in_loop(frame, ast.Delete):
        for target in stmt.targets:
            base = target.value if isinstance(target, ast.Subscript) else None
            if isinstance(base, ast.Name):
                mutated.add(base.id)
    stored: set[tuple[str, ...]] = set()
    reshaped: set[tuple[str, ...]] = set()
    for attr in model.nodes_in_loop(frame, ast.Attribute):
        if isinstance(attr.ctx, ast.Store):
            key = name_key(attr)
            if key is not None:
                stored.add(key)
                statement = model.parent(attr)
                in_place = isinstance(statement, ast.AugAssign) and statement.target is attr and model.kind(attr) is Kind.DEVICE
                if not in_place:
                    reshaped.add(key)
    facts = _LoopFacts(rebound, mutated, stored, {}, reshaped)
    facts.shape_stable = _shape_stable(model, facts, by_name)
    return facts


def _shape_stable(
    model: "FileModel", facts: _LoopFacts, by_name: dict[tuple[int, str], list[Binding]]
) -> dict[int, set[str]]:
    """Names rebound in the loop only to arrays of their own shape.

    ``arr, temp = temp, arr``, ``arr = temp`` where ``temp = np.zeros_like(arr)``,
    ``un = u.copy()`` and ``u += du`` keep every name's shape; any other
    rebinding (``u = u[1:]``, ``u = f(u)``, a loop target) may not. Computed as
    the greatest set closed under those forms.
    """
    stable = {key for key in by_name if key[1] not in facts.mutated}
    changed = True
    while changed:
        changed = False
        for key in [k for k in by_name if k in stable]:  # source order: the questions asked must not vary by run
            if not all(_keeps_shape(model, facts, b, stable) for b in by_name[key]):
                stable.discard(key)
                changed = True
    result: dict[int, set[str]] = {}
    for scope_id, name in stable:
        result.setdefault(scope_id, set()).add(name)
    return result


def _keeps_shape(model: "FileModel", facts: _LoopFacts, b: Binding, stable: set[tuple[int, str]]) -> bool:
    """Does binding ``b`` (inside the loop) give its name an array of the
    same shape as before, given the names in ``stable`` keep theirs?"""
    if b.kind is BindKind.AUG:
        target = b.node
        return isinstance(target, ast.Name) and model.kind(target) is Kind.DEVICE
    if _same_known_shape(model, b):
        return True  # u = step(u) where step returns an array of u's shape
    if b.kind is not BindKind.VALUE or b.value is None:
        return False
    value = b.value
    if _elementwise_update_of(model, value, b.name) and _not_grown(model, b):
        return True  # u = u + c * (p[2:] - 2.0 * u + p[:-2]): an update of u itself
    if isinstance(value, ast.Call):
        func = value.func
        api = model.array_api(func)
        first = value.args[0] if value.args else None
        if api in numpy_api.SHAPE_FIRST and isinstance(first, ast.Attribute) and first.attr == "shape":
            source = first.value  # np.zeros(a.shape): a's shape
        elif (api in numpy_api.LIKE or api in ("copy", "array")) and first is not None:
            source = first
        elif isinstance(func, ast.Attribute) and func.attr == "copy" and not value.args and model.is_array(func.value):
            source = func.value
        else:
            return False
        if not model.is_array(source):
            return False
        value = source
    if not isinstance(value, ast.Name):
        return False
    scope = model.lookup(value)
    if scope is None:
        return False
    if value.id not in facts.rebound.get(id(scope), ()):
        return True
    return (id(scope), value.id) in stable


def _elementwise_update_of(model: "FileModel", expr: ast.expr, name: str, depth: int = 0) -> bool:
    """Is ``expr`` computed from the name itself through elementwise steps
    only (operators other than ``@``, ufuncs)?"""
    if depth > 12:
        return False
    if isinstance(expr, ast.Name):
        return expr.id == name
    if isinstance(expr, ast.BinOp) and not isinstance(expr.op, ast.MatMult):
        return _elementwise_update_of(model, expr.left, name, depth + 1) or _elementwise_update_of(model, expr.right, name, depth + 1)
    if isinstance(expr, ast.UnaryOp):
        return _elementwise_update_of(model, expr.operand, name, depth + 1)
    if isinstance(expr, ast.Call) and model.call_api(expr) in numpy_api.OUT_UFUNCS and not expr.keywords:
        return any(_elementwise_update_of(model, a, name, depth + 1) for a in expr.args)
    return False


def _not_grown(model: "FileModel", b: Binding) -> bool:
    """The update is not shown to broadcast the name to a larger shape:
    where both shapes are known they agree."""
    new = model.values.binding_shape(b)
    if new is None:
        return model.kind(b.value).is_array  # type: ignore[arg-type]
    outside = [model.values.binding_shape(o) for o in b.scope.bindings.get(b.name, ()) if o is not b]
    return all(old is None or len(old) == len(new) for old in outside)


def _same_known_shape(model: "FileModel", b: Binding) -> bool:
    """The value's shape is fully known (every extent a literal or a name)
    and equals the shape of the name's bindings outside the loop."""
    if b.kind not in (BindKind.VALUE, BindKind.ELEMENT) or not model.values.binding_kind(b).is_array:
        return False
    shape = model.values.binding_shape(b)
    if not shape or any(extent is None for extent in shape):
        return False
    outside = [o for o in b.scope.bindings.get(b.name, ()) if o.loop is None or not (b.loop and b.loop.outermost().contains(o.loop))]
    shapes_outside = [model.values.binding_shape(o) for o in outside]
    return bool(shapes_outside) and all(other == shape for other in shapes_outside)


class Invariance:
    """Loop-invariance questions about one loop."""

    def __init__(self, model: "FileModel", frame: LoopFrame) -> None:
        self.model = model
        self.frame = frame
        self.facts = _facts(model, frame)

    def invariant(self, expr: ast.AST | None, shape_only: bool = False) -> bool:
        """Does ``expr`` evaluate to the same thing on every iteration?

        With ``shape_only``, an array name counts when its *shape* cannot
        change (it is rebound only to arrays like itself): enough for a
        buffer that could be allocated once.
        """
        if expr is None:
            return True
        method = getattr(self, "_" + type(expr).__name__, None)
        if method is None:
            return False
        return method(expr, shape_only)

    def _Constant(self, expr: ast.Constant, shape_only: bool) -> bool:
        return True

    def _Name(self, expr: ast.Name, shape_only: bool) -> bool:
        if expr.id in self.facts.mutated:
            return False
        scope = self.model.lookup(expr)
        if scope is None:
            return True  # a builtin
        if expr.id not in self.facts.rebound.get(id(scope), ()):
            return True
        return shape_only and expr.id in self.facts.shape_stable.get(id(scope), ())

    def _Attribute(self, expr: ast.Attribute, shape_only: bool) -> bool:
        key = name_key(expr)
        if key is not None and key in (self.facts.reshaped_attributes if shape_only else self.facts.stored_attributes):
            return False
        if expr.attr in _SHAPE_ATTRIBUTES:
            return self.invariant(expr.value, True)
        return self.invariant(expr.value, shape_only)

    def _Subscript(self, expr: ast.Subscript, shape_only: bool) -> bool:
        return self.invariant(expr.value, shape_only) and self.invariant(expr.slice, False)

    def _Slice(self, expr: ast.Slice, shape_only: bool) -> bool:
        return all(self.invariant(part, False) for part in (expr.lower, expr.upper, expr.step))

    def _Tuple(self, expr: ast.Tuple | ast.List, shape_only: bool) -> bool:
        return all(self.invariant(elt, shape_only) for elt in expr.elts)

    _List = _Tuple

    def _BinOp(self, expr: ast.BinOp, shape_only: bool) -> bool:
        return self.invariant(expr.left, shape_only) and self.invariant(expr.right, shape_only)

    def _UnaryOp(self, expr: ast.UnaryOp, shape_only: bool) -> bool:
        return self.invariant(expr.operand, shape_only)

    def _IfExp(self, expr: ast.IfExp, shape_only: bool) -> bool:
        return all(self.invariant(part, shape_only) for part in (expr.test, expr.body, expr.orelse))

    def _keyword(self, expr: ast.keyword, shape_only: bool) -> bool:
        return self.invariant(expr.value, shape_only)

    def _Call(self, expr: ast.Call, shape_only: bool) -> bool:
        func = expr.func
        if shape_only and self._masked_rows_reduced(expr):
            return True
        pure = (isinstance(func, ast.Name) and func.id in _PURE_BUILTINS and self.model.lookup(func) is None) or (
            self.model.array_api(func) in ("prod", "sqrt", "ceil", "floor")  # a number from a shape
        ) or (self.model.qualname(func) or "").startswith("math.")
        if not pure:
            return False
        return all(self.invariant(a, False) for a in expr.args) and all(self.invariant(k, False) for k in expr.keywords)


    def _masked_rows_reduced(self, call: ast.Call) -> bool:
        """``X[labels == c].mean(axis=0)``: rows picked by a boolean mask,
        reduced over the rows. However many rows the mask keeps, the result
        has the shape of one row of ``X``: invariant when ``X``'s is."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in numpy_api.REDUCTION_METHODS and not call.args):
            return False
        axis = next((k.value for k in call.keywords if k.arg == "axis"), None)
        if self.model.const_int(axis) != 0 or any(k.arg not in ("axis", "dtype") for k in call.keywords):
            return False
        picked = func.value
        if not isinstance(picked, ast.Subscript) or not _boolean_rows(self.model, picked.slice):
            return False
        return self.model.kind(picked.value) is Kind.DEVICE and self.invariant(picked.value, True)


def _boolean_rows(model: "FileModel", index: ast.expr) -> bool:
    """A one-axis boolean mask: a comparison (``labels == c``) or a name bound
    only to comparisons."""
    if isinstance(index, ast.Compare) and not any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in index.ops):
        return model.kind(index) is Kind.DEVICE
    if isinstance(index, ast.Name):
        bindings = model.reaching_bindings(index)
        return bool(bindings) and all(b.kind is BindKind.VALUE and isinstance(b.value, ast.Compare) and _boolean_rows(model, b.value)
                                      for b in bindings)
    return False


def hoist_frame(model: "FileModel", node: ast.AST, exprs: Iterable[ast.AST | None], shape_only: bool = False) -> LoopFrame | None:
    """The outermost loop around ``node`` in which every expression of
    ``exprs`` is invariant — the loop the work could move before — provided
    it or a loop inside it is hot; None when the work cannot move or is only
    repeated by loops over a few axes or taps."""
    exprs = list(exprs)
    frame = model.loop_of(node)
    innermost = frame
    best: LoopFrame | None = None
    while frame is not None and all(Invariance(model, frame).invariant(e, shape_only) for e in exprs):
        best = frame
        frame = frame.parent
    if best is None or innermost is None:
        return None
    chain = [f for f in innermost.chain() if best.contains(f)]
    return best if is_hot(chain) else None


def invariant_through_calls(model: "FileModel", node: ast.AST, exprs: Iterable[ast.AST | None], shape_only: bool = False) -> bool:
    """For a site outside every loop of its own function: does every
    expression of ``exprs`` take the same value (or shape) on each call the
    hot loops of the file make? A parameter is followed to what every call
    site passes (and, for a call in another function, to what that
    function's callers pass), a local name to the value it is bound to once;
    a call site in a loop must pass something invariant in that loop."""
    scope = model.scope_of(node).function_like()
    return all(_invariant_in_callers(model, e, scope, shape_only, 0) for e in exprs if e is not None)


def _invariant_in_callers(model: "FileModel", expr: ast.AST, scope: "Scope", shape_only: bool, depth: int) -> bool:
    if depth > 4:
        return False
    for name in (n for n in walk(expr) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)):
        owner = model.lookup(name)
        if owner is None or owner is not scope:
            continue  # a builtin, or a module-level name: the call-site checks cover rebinding
        bindings = model.reaching_bindings(name)
        if len(bindings) != 1:
            return False
        binding = bindings[0]
        if binding.kind is BindKind.VALUE and binding.value is not None:
            if not _invariant_in_callers(model, binding.value, scope, shape_only, depth + 1):
                return False
            continue
        if binding.kind is not BindKind.PARAM:
            return False
        sites = model.calls.sites(scope)
        if not sites or model.calls.escapes(scope):
            return False
        receiver = model.calls.is_receiver(binding)
        attribute = _attribute_read(model, name) if receiver else None
        for call in sites:
            argument = _receiver_of(call, attribute) if receiver else model.calls.argument(call, scope, name.id)
            if argument is None:
                return False
            if model.loop_of(call) is not None:
                if not _invariant_at(model, call, argument, shape_only):
                    return False
            else:
                caller = model.scope_of(call).function_like()
                if caller.kind is ScopeKind.MODULE:
                    continue  # one call outside every loop: not one the loops repeat
                if caller.kind is not ScopeKind.FUNCTION or not _invariant_in_callers(model, argument, caller, shape_only, depth + 1):
                    return False
    return True


def _attribute_read(model: "FileModel", receiver: ast.Name) -> str | None:
    """``pos`` for ``self.pos``: the attribute read through the receiver."""
    parent = model.parent(receiver)
    return parent.attr if isinstance(parent, ast.Attribute) and parent.value is receiver else None


def _receiver_of(call: ast.Call, attribute: str | None) -> ast.expr | None:
    """What ``self`` is at a call ``system.forces()``: the object the method is
    called on (a plain name), with the attribute the method reads from it."""
    func = call.func
    if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
        return None
    return func.value if attribute is None else ast.Attribute(value=func.value, attr=attribute, ctx=ast.Load())


def _invariant_at(model: "FileModel", call: ast.Call, argument: ast.expr, shape_only: bool) -> bool:
    """Is what the call site passes invariant in the loop around it? An
    attribute of the object a method is called on (``system.pos`` for
    ``self.pos``) is judged by the object's name and the attribute's stores."""
    if isinstance(argument, ast.Attribute) and model.parent(argument) is None and isinstance(argument.value, ast.Name):
        frame = hoist_frame(model, call, [argument.value], shape_only)
        if frame is None:
            return False
        key = name_key(argument)
        facts = _facts(model, frame)
        return key is None or key not in (facts.reshaped_attributes if shape_only else facts.stored_attributes)
    return hoist_frame(model, call, [argument], shape_only) is not None


def runs_every_call(model: "FileModel", stmt: ast.stmt, name: str | None = None) -> bool:
    """Within its function, ``stmt`` is not in a branch that runs rarely
    (lazy initialisation ``if buf is None``, an ``except`` handler)."""
    child: ast.AST = stmt
    for ancestor in model.ancestors(stmt):
        if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return True
        if isinstance(ancestor, ast.ExceptHandler):
            return False
        if isinstance(ancestor, ast.If):
            block = ancestor.body if any(child is s for s in ancestor.body) else ancestor.orelse
            if _rare_branch(ancestor.test, block, name, set()) or _dispatch_arm(model, ancestor, block):
                return False
        child = ancestor
    return True


_DISPATCH_ARMS = 3  # an if/elif chain over this many values of one variable is a dispatch


def _dispatch_arm(model: "FileModel", node: ast.If, block: list[ast.stmt]) -> bool:
    """Is ``block`` one arm of a dispatch on a state or mode value (``if ido
    == 1: ... elif ido == 2: ... elif ido == 4:``)? Each pass runs the arm
    its value asks for, not every arm every pass."""
    if block is not node.body:
        return False  # the final else: whatever the value, it may be the common case
    subject = _equality_subject(node.test)
    if subject is None:
        return False
    head = node
    parent = model.parent(head)
    while isinstance(parent, ast.If) and parent.orelse == [head]:
        head, parent = parent, model.parent(parent)
    arms = 0
    current: ast.stmt | None = head
    while isinstance(current, ast.If):
        if _equality_subject(current.test) != subject:
            return False
        arms += 1
        current = current.orelse[0] if len(current.orelse) == 1 else None
    return arms >= _DISPATCH_ARMS


def _equality_subject(test: ast.expr) -> str | None:
    """``x == 3`` / ``self.mode == "fast"``: the text of what is compared with a constant."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) \
            and isinstance(test.comparators[0], ast.Constant):
        return ast.dump(test.left)
    return None


def binding_of_target(model: "FileModel", target: ast.Name) -> Binding | None:
    """The binding an assignment target (a Store name) creates."""
    scope = model.scope_of(target)
    for owner in (scope, scope.function_like(), scope.module()):
        for b in owner.bindings.get(target.id, ()):
            if b.node is target:
                return b
    return None


def uses_reached_by(model: "FileModel", target: ast.Name) -> list[ast.Name]:
    """Loads of ``target.id`` (in its own scope) that the binding made at
    ``target`` may reach, in source order."""
    binding = binding_of_target(model, target)
    if binding is None:
        return []
    uses: list[ast.Name] = []
    for name in _index(model).loads.get((id(binding.scope.function_like()), target.id), ()):
        if any(b is binding for b in model.reaching_bindings(name)):
            uses.append(name)
    uses.sort(key=lambda n: (n.lineno, n.col_offset))
    return uses


def aug_targets_reached_by(model: "FileModel", target: ast.Name) -> list[ast.Name]:
    """``x += ...`` targets that update the value bound at ``target``."""
    binding = binding_of_target(model, target)
    if binding is None:
        return []
    found: list[ast.Name] = []
    for aug in model.nodes(ast.AugAssign):
        t = aug.target
        if isinstance(t, ast.Name) and t.id == target.id and model.scope_of(t).function_like() is binding.scope.function_like():
            if any(b is binding for b in model.reaching_bindings(t)):
                found.append(t)
    return found


def escapes_iteration(model: "FileModel", expr: ast.expr, frame: LoopFrame) -> bool:
    """Is the value of ``expr`` kept beyond its iteration?

    It is when it goes into a list, set, dict or tuple that is not a plain
    multiple assignment (``a, b = b, a``), into a storing call
    (``parts.append``, ``heapq.heappush``), into an attribute or into an item
    of something that is not a device array, or out through ``yield``; the
    same for the name it is assigned to, for the uses in ``frame``. A buffer
    that is kept cannot be replaced by one reused buffer.
    """
    if _kept(model, expr):
        return True
    parent = model.parent(expr)
    if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is expr:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        for target in targets:
            # x, Y = solve(...); results.append(Y): a result unpacked and kept
            names = [target] if isinstance(target, ast.Name) else \
                [e for e in target.elts if isinstance(e, ast.Name)] if isinstance(target, (ast.Tuple, ast.List)) else []
            for name in names:  # (an attribute or an item: _kept has judged it)
                for use in uses_reached_by(model, name):
                    if frame.contains(model.loop_of(use)) and _kept(model, use):
                        return True
    return False


def kept_beyond_call(model: "FileModel", expr: ast.expr) -> bool:
    """Is a value made in a function kept after the call returns, other than
    as its result (stored in a list, a dict, an attribute, a global)?
    Returned, it is the caller's to reuse: a buffer passed in could replace it."""
    if _kept(model, expr):
        return True
    parent = model.parent(expr)
    if isinstance(parent, ast.Assign) and parent.value is expr:
        for target in parent.targets:
            if isinstance(target, ast.Name):
                if target.id in model.scope_of(target).function_like().global_names:
                    return True
                if any(_kept(model, use) for use in uses_reached_by(model, target)):
                    return True
    return False


def own_state_target(model: "FileModel", value: ast.expr) -> ast.Attribute | None:
    """``self.u_prev`` in ``self.u_prev = <value>`` inside a method: the
    value replaces a piece of the object's own state."""
    parent = model.parent(value)
    if not (isinstance(parent, ast.Assign) and parent.value is value and len(parent.targets) == 1):
        return None
    target = parent.targets[0]
    if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
        return None
    return target if model.calls.is_receiver_name(target.value) else None


def state_kept_elsewhere(model: "FileModel", target: ast.Attribute) -> bool:
    """Does the class hand the value of ``self.<attr>`` on to anything that
    may keep it (a container, another attribute, a ``return``), or bind it
    anywhere else than by replacing it? Then a buffer refreshed in place
    would change what the holder sees."""
    cls = model.scope_of(target).function_like().parent
    for node in model.nodes(ast.Attribute):
        if node.attr != target.attr or node is target or not isinstance(node.value, ast.Name) \
                or not model.calls.is_receiver_name(node.value):
            continue
        if model.scope_of(node).function_like().parent is not cls:
            continue
        if not isinstance(node.ctx, ast.Load):
            continue
        parent = model.parent(node)
        if isinstance(parent, ast.Return) or _kept(model, node):
            return True
        if isinstance(parent, ast.Assign) and parent.value is node:
            return True  # prev = self.u_prev: an alias that may outlive the next refresh
    return False


def _kept(model: "FileModel", expr: ast.expr) -> bool:
    node: ast.AST = expr
    parent = model.parent(node)
    while isinstance(parent, (ast.IfExp, ast.Starred, ast.BoolOp)):
        node, parent = parent, model.parent(parent)
    holder = model.parent(parent) if isinstance(parent, ast.keyword) else parent
    if isinstance(holder, ast.Call) and node is not holder.func and _constructor(model, holder) and _kept(model, holder):
        return True  # self.W.append(Tensor(data=np.random.uniform(...))): the object keeps it
    if isinstance(parent, (ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return True
    if isinstance(parent, (ast.List, ast.Tuple)):
        holder = model.parent(parent)
        if isinstance(holder, ast.Assign) and holder.value is parent and all(isinstance(t, (ast.Tuple, ast.List)) for t in holder.targets):
            return False  # a, b = b, a
        if isinstance(holder, ast.Call) and any(a is parent for a in holder.args) and model.call_api(holder) is not None:
            return False  # np.stack([a, b]) copies its parts
        if isinstance(holder, ast.Subscript) and holder.slice is parent:
            return False  # an index tuple
        return not isinstance(holder, ast.Return)
    if isinstance(parent, (ast.Yield, ast.YieldFrom)):
        return True
    if isinstance(parent, ast.Call) and node is not parent.func:
        func = parent.func
        if isinstance(func, ast.Attribute) and func.attr in _STORING_METHODS and not model.is_array(func.value):
            return True
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        return last in _STORING_FUNCTIONS
    if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is node:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        for target in targets:
            if isinstance(target, ast.Attribute):
                return True
            if isinstance(target, ast.Subscript) and model.kind(target.value) is not Kind.DEVICE:
                return True
    return False


def _constructor(model: "FileModel", call: ast.Call) -> bool:
    """A call that makes an object holding what it is given: a class of the
    file, or a capitalised callable from elsewhere (``Tensor(...)``,
    ``Parameter(...)``); not a NumPy function, which copies or computes."""
    if model.call_api(call) is not None:
        return False
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name[:1].isupper()


def runs_every_iteration(model: "FileModel", stmt: ast.stmt, frame: LoopFrame, name: str | None = None) -> bool:
    """False when ``stmt`` sits in a branch of ``frame`` that runs rarely:
    an ``if`` testing ``name`` itself (lazy initialisation: ``if buf is None``),
    an ``if`` on a remainder (every N steps) or comparing a loop variable with
    a constant (the first iteration: ``if it == 0``, ``if k > 0``), a branch
    that leaves the loop (ends in ``break``, ``return`` or ``raise``), or an
    ``except`` handler."""
    counters = _loop_variables(model, stmt, frame)
    child: ast.AST = stmt
    for ancestor in model.ancestors(stmt):
        if ancestor is frame.node:
            return True
        if isinstance(ancestor, ast.ExceptHandler):
            return False
        if isinstance(ancestor, ast.If):
            block = ancestor.body if any(child is s for s in ancestor.body) else ancestor.orelse
            if _rare_branch(ancestor.test, block, name, counters) or _dispatch_arm(model, ancestor, block):
                return False
        child = ancestor
    return True


def _loop_variables(model: "FileModel", stmt: ast.stmt, frame: LoopFrame) -> set[str]:
    names: set[str] = set()
    inner = model.loop_of(stmt)
    for current in inner.chain() if inner is not None else []:
        node = current.node
        if isinstance(node, (ast.For, ast.AsyncFor)):
            names |= {n.id for n in walk(node.target) if isinstance(n, ast.Name)}
        if current is frame:
            break
    return names


def _rare_branch(test: ast.expr, block: list[ast.stmt], name: str | None, counters: set[str]) -> bool:
    if name is not None and any(isinstance(n, ast.Name) and n.id == name for n in walk(test)):
        return True
    for node in walk(test):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            return True
        if isinstance(node, ast.Compare) and _compares_counter(node, counters):
            return True
    return bool(block) and isinstance(block[-1], (ast.Break, ast.Return, ast.Raise))


def _compares_counter(compare: ast.Compare, counters: set[str]) -> bool:
    """``it == 0``, ``k > 0``, ``0 < step``: a loop variable against a constant."""
    operands = [compare.left, *compare.comparators]
    has_counter = any(isinstance(o, ast.Name) and o.id in counters for o in operands)
    has_constant = any(isinstance(o, ast.Constant) and isinstance(o.value, (int, float)) for o in operands)
    return has_counter and has_constant
