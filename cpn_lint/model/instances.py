"""Class attributes: which of the file's classes a value is an instance of.

``p = Particle(...)``, ``self.parts.append(Particle(...))`` then ``for p in
self.parts``: followed back through names, containers and call sites to
the class whose constructor made it, so that ``p.x`` reads the attribute
``Particle`` binds (:class:`InstanceClasses`, a mixin of
:class:`~cpn_lint.model.values.ValueEngine`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Callable

from .scopes import Binding, BindKind, ScopeKind
from .value_common import _DEF_TYPES

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import Scope

_MAX_INSTANCE_DEPTH = 60  # a guard against deep recursion while following names back to Particle(...)


class InstanceClasses:
    """Which class of the file an expression is an instance of, and the class of ``self.x``."""

    model: "FileModel"

    def _attribute_class(self, expr: ast.Attribute) -> "Scope | None":
        """The file's class whose attribute ``expr`` reads: ``self.x`` in a
        method, or ``p.x`` for an instance (``p = Particle(...)``, ``for p
        in particles`` over a list of them, a parameter every call passes
        one); None for anything else."""
        if not self.model._class_attrs and not self.model.calls.classes():
            return None
        return self._self_class(expr) or self._instance_class(expr.value, 0)

    def instance_class(self, expr: ast.expr) -> "Scope | None":
        """The file's class ``expr`` is surely an instance of (see
        :meth:`_instance_class`); the call graph resolves ``obj.method()``
        with it."""
        return self._instance_class(expr, 0)

    def _instance_class(self, expr: ast.expr, depth: int) -> "Scope | None":
        """The file's class ``expr`` is surely an instance of. Bindings are
        memoised; one met again while it is followed (a cycle) is no
        instance, so every binding of the cycle is none, whichever is asked
        first ("all sources agree" holds at its least fixpoint). Only the
        static call graph is followed (never a call on an instance), so the
        answer does not depend on itself through the calls it resolves."""
        if depth > _MAX_INSTANCE_DEPTH:
            return None  # a safety net against deep recursion only
        calls = self.model.calls
        if isinstance(expr, ast.Call):
            return calls.class_of(expr.func) or self._made_by(expr, depth)
        if isinstance(expr, ast.Subscript) and not isinstance(expr.slice, ast.Slice):
            return _one_class(self._item_classes(expr.value, depth + 1))  # particles[i]
        if isinstance(expr, ast.Attribute):
            # g = self.grid, where every `self.grid = ...` of the class holds one
            # (a constructor's parameter every call passes a Grid)
            bindings = self.model.class_attribute_bindings(expr)
            return _one_class([self._binding_class(b, depth + 1) for b in bindings]) if bindings else None
        if not isinstance(expr, ast.Name):
            return None
        return _one_class([self._binding_class(b, depth + 1) for b in self.model.reaching_bindings(expr)])

    def _made_by(self, call: ast.Call, depth: int) -> "Scope | None":
        """The class a factory makes: ``cls(...)`` in a class method of it,
        or a function (``ParticleSystem.lattice(n)``, ``make_system()``)
        whose every ``return`` is an instance of one class."""
        func = call.func
        if isinstance(func, ast.Name):
            owner = self.model.lookup(func)
            bindings = owner.bindings.get(func.id, ()) if owner is not None else ()
            if len(bindings) == 1 and bindings[0].kind is BindKind.PARAM and self.model.calls.is_receiver(bindings[0]):
                method = bindings[0].scope
                if isinstance(method.node, _DEF_TYPES) and any(
                        isinstance(d, ast.Name) and d.id == "classmethod" for d in method.node.decorator_list):
                    return method.parent  # cls(...) in a class method
        scope = self.model.calls.static_callee(call)
        if scope is None or not scope.returns:
            return None
        key = (id(scope), "returns")
        memo = self._classes
        if key in memo:
            return memo[key]  # type: ignore[return-value]
        memo[key] = None  # a factory reached again while followed: no instance
        found = _one_class([self._instance_class(r, depth + 1) for r in scope.returns])
        memo[key] = found
        return found

    def _binding_class(self, binding: Binding, depth: int) -> object:
        key = (id(binding), "instance")
        memo = self._classes
        if key in memo:
            return memo[key]
        memo[key] = None  # a cycle: no instance
        value = binding.value
        found: list[object]
        if binding.kind is BindKind.VALUE and value is not None:
            found = [self._instance_class(value, depth + 1)]
        elif binding.kind is BindKind.ELEMENT and binding.index is None and value is not None and self._iterated_by(binding, value):
            found = self._item_classes(value, depth + 1)  # for p in particles
        elif binding.kind is BindKind.PARAM and value is None:
            found = self._passed(binding, lambda given: [self._instance_class(given, depth + 1)])
        else:
            found = [None]
        result = memo[key] = _one_class(found)
        return result

    def _item_classes(self, container: ast.expr, depth: int) -> list[object]:
        """The classes of what a list holds ([Particle(...) for _ in
        range(n)], a display, a name bound to one and grown with append),
        _NO_ITEMS for an empty display, None for anything not known."""
        if depth > _MAX_INSTANCE_DEPTH:
            return [None]
        if isinstance(container, (ast.List, ast.Tuple, ast.Set)):
            if any(isinstance(e, ast.Starred) for e in container.elts):
                return [None]
            return [self._instance_class(e, depth + 1) for e in container.elts] or [_NO_ITEMS]
        if isinstance(container, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return [self._instance_class(container.elt, depth + 1)]
        if not isinstance(container, ast.Name):
            return [None]
        model = self.model
        found: list[object] = []
        for binding in model.reaching_bindings(container):
            found += self._binding_items(binding, depth + 1)
        owner = model.lookup(container)
        key = (id(owner), container.id)
        appended = self._classes.get(key)
        if appended is None:
            self._classes[key] = [None]  # a cycle through appends: nothing known
            appended = []
            for use in model.names_by_id().get(container.id, ()):
                parent = model.parent(use)
                call = model.parent(parent) if isinstance(parent, ast.Attribute) else None
                if isinstance(call, ast.Call) and call.func is parent and parent.attr in ("append", "insert") and call.args \
                        and model.lookup(use) is owner:
                    appended.append(self._instance_class(call.args[-1], depth + 1))
            self._classes[key] = appended
        return found + appended  # type: ignore[operator]

    def _binding_items(self, binding: Binding, depth: int) -> list[object]:
        key = (id(binding), "items")
        memo = self._classes
        if key in memo:
            return memo[key]  # type: ignore[return-value]
        memo[key] = [None]  # a cycle: nothing known
        if binding.kind is BindKind.VALUE and binding.value is not None:
            found = self._item_classes(binding.value, depth + 1)
        elif binding.kind is BindKind.PARAM and binding.value is None:
            found = self._passed(binding, lambda given: self._item_classes(given, depth + 1))
        else:
            found = [None]
        memo[key] = found
        return found

    def _passed(self, param: Binding, each: Callable[[ast.expr], list[object]]) -> list[object]:
        """``each`` applied to what every call site passes for ``param`` (the
        sites of the static call graph: see :meth:`_instance_class`)."""
        calls = self.model.calls
        sites = calls.static_argument_sites(param.scope)
        if not sites or calls.arguments_escape(param.scope):
            return [None]
        found: list[object] = []
        for call in sites:
            given = calls.argument(call, param.scope, param.name)
            found += each(given) if given is not None else [None]
        return found

    def _attribute_evidence(self, expr: ast.Attribute) -> bool:
        """``self.x`` whose class's methods use ``self.x`` as an array."""
        cls = self._self_class(expr)
        return cls is not None and self.has_array_evidence(cls, expr.attr)

    def _self_class(self, expr: ast.Attribute) -> "Scope | None":
        """The class of the method ``expr`` (``self.x``) is read in."""
        if not isinstance(expr.value, ast.Name):
            return None
        method = self.model.scope_of(expr).function_like()
        cls = method.parent
        if method.kind is not ScopeKind.FUNCTION or not method.params or expr.value.id != method.params[0]:
            return None
        if cls is None or cls.kind is not ScopeKind.CLASS:
            return None
        decorators = getattr(method.node, "decorator_list", ())
        return None if any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in decorators) else cls


_NO_ITEMS = object()  # an empty list: holds no instance of any class yet


def _one_class(found: list[object]) -> "Scope | None":
    """The one class every source agrees on (empty lists add nothing)."""
    classes = [c for c in found if c is not _NO_ITEMS]
    if not classes or any(c is None or c is not classes[0] for c in classes):
        return None
    return classes[0]  # type: ignore[return-value]
