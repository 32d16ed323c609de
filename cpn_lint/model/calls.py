"""The file's own functions: who calls them, with what, and from which loops.

Three questions the rules and the value engine ask across functions of one
file:

* which of the file's functions does a call invoke (``step(u)``, and
  ``self.step(u)`` inside a method of the same class)?
* what does a call site pass for a parameter (:meth:`CallGraph.argument`;
  the value engine makes an untyped helper parameter an array when every
  call site passes one: ``def solve(t, e): ...`` called as
  ``solve(x, np.ones(100))``);
* which loop repeats a function — a helper called every time step is in that
  loop's context, so its allocation or host conversion happens every
  iteration of the caller's loop.

A function whose name is also used as a value (passed as a callback, stored)
may be called from elsewhere: its call sites show what it *can* receive, not
everything it receives.
"""

from __future__ import annotations

import ast
import copy
import sys
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING

from .hostsync import is_throttled
from .loop_iterations import hot_loop
from .scopes import Binding, BindKind, ScopeKind
from .syntax import names_in, parameter_default, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import LoopFrame, Scope

_DEF_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef)
# Modules that are never the project's own (the standard library and the
# array stack), even when a file of that name sits beside the code.
_KNOWN_LIBRARIES = frozenset(sys.stdlib_module_names) | {"numpy", "cupynumeric", "scipy", "matplotlib"}


# SciPy routines of one real variable: they call the function they are
# handed with a Python float (root finders, scalar minimisers, quadrature).
SCALAR_FUNCTION_CALLERS = frozenset({
    "scipy.optimize.brentq", "scipy.optimize.brenth", "scipy.optimize.ridder", "scipy.optimize.bisect",
    "scipy.optimize.toms748", "scipy.optimize.newton", "scipy.optimize.fminbound", "scipy.optimize.brent",
    "scipy.optimize.golden", "scipy.optimize.minimize_scalar", "scipy.optimize.root_scalar",
    "scipy.integrate.quad", "scipy.integrate.romberg",
})

class CallGraph:
    """Call sites of the file's functions, built on first use."""

    def __init__(self, model: "FileModel") -> None:
        self.model = model
        self._function_scopes: dict[int, "Scope"] | None = None
        self._sites: dict[int, list[ast.Call]] = {}
        self._escapes: dict[int, bool] = {}
        self._escape_uses: dict[int, list[ast.AST]] = {}
        self._resolved_names: set[str] = set()
        self._static_names: set[str] = set()
        self._static_sites: dict[int, list[ast.Call]] = {}
        self._siblings: dict[str, bool] = {}
        self._uses: dict[str, list[ast.AST]] | None = None
        self._callees: dict[int, "Scope | None"] = {}
        self._targets: dict[int, "Scope | None"] = {}
        self._calling_loops: dict[int, "tuple[LoopFrame, ast.Call] | None"] = {}
        self._classes: dict[int, "Scope"] | None = None
        self._constructors: dict[int, tuple[list[ast.Call], bool]] = {}

    # ------------------------------------------------------------- callees
    def callee(self, call: ast.Call) -> "Scope | None":
        """The scope of the file's function that ``call`` invokes, if any:
        ``step(u)`` and ``self.step(u)``. Calls through a class
        (``Model.build(n)``) and on an instance (``system.step(dt)``) are
        :meth:`target`'s: the loop analysis judges those as out of its
        sight (:meth:`steps_file_object`)."""
        key = id(call)
        if key not in self._callees:
            self._callees[key] = self._resolve(call.func)
        return self._callees[key]

    def static_callee(self, call: ast.Call) -> "Scope | None":
        """:meth:`callee`, and a class or static method called through its
        class (``Model.build(n)``): what the value engine follows while it
        works out which class an instance is of (no instance decides it, so
        that answer never waits on itself)."""
        return self.callee(call) or self._resolve_through_class(call.func)

    def target(self, call: ast.Call) -> "Scope | None":
        """As :meth:`static_callee`, and ``system.step(dt)`` on an instance of
        one of the file's classes: what a call site passes and returns, and
        which loops call a function (:meth:`sites`, :meth:`calling_loop`)."""
        key = id(call)
        if key not in self._targets:
            self._targets[key] = self.static_callee(call) or self._resolve_on_instance(call.func)
        return self._targets[key]

    def steps_file_object(self, call: ast.Call) -> bool:
        """Is ``call`` a statement calling a method of an instance of a class
        defined in this file (``pop = Population()`` ... ``pop.step()``)?
        It runs for its effect on the object: a whole simulation step, out of
        the loop's sight."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return False
        if not isinstance(self.model.parent(call), ast.Expr):
            return False
        bindings = self.model.reaching_bindings(func.value)
        if not bindings:
            return False
        for binding in bindings:
            made = binding.value
            if binding.kind is not BindKind.VALUE or not (isinstance(made, ast.Call) and isinstance(made.func, ast.Name)):
                return False
            classes = self.model.reaching_bindings(made.func)
            if not classes or not all(isinstance(c.node, ast.ClassDef) for c in classes):
                return False
        return True

    def calls_project_module(self, call: ast.Call) -> bool:
        """Does ``call`` run a function of another module of the same project
        (``from utilities import simulate``, ``import solver as s`` with
        ``utilities.py``/``solver/`` beside this file, or a relative import)?
        Its work is out of this file's sight: it may be a whole simulation."""
        func = call.func
        base = func.value if isinstance(func, ast.Attribute) else func
        if not isinstance(base, ast.Name):
            return False
        owner = self.model.lookup(base)
        bindings = owner.bindings.get(base.id, ()) if owner is not None else ()
        if len(bindings) != 1:
            return False
        statement = bindings[0].node
        if isinstance(statement, ast.ImportFrom):
            if isinstance(func, ast.Attribute) and statement.level == 0:
                return False  # from pkg import mod; mod.f(): judged by pkg below only for plain names
            return statement.level > 0 or self._is_sibling_module(statement.module or "")
        if isinstance(statement, ast.Import) and isinstance(func, ast.Attribute):
            alias = next((a for a in statement.names if (a.asname or a.name.split(".")[0]) == base.id), None)
            return alias is not None and self._is_sibling_module(alias.name)
        return False

    def _is_sibling_module(self, module: str) -> bool:
        """A module the file's own folder holds (``module.py`` or a package)."""
        root = module.split(".", 1)[0]
        if not root or root in _KNOWN_LIBRARIES:
            return False
        filename = self.model.filename
        if filename.startswith("<") or filename in ("-", "stdin"):
            return False  # source without a place on disk has no siblings
        cached = self._siblings.get(root)
        if cached is None:
            folder = Path(filename).resolve().parent
            cached = (folder / f"{root}.py").is_file() or (folder / root / "__init__.py").is_file()
            self._siblings[root] = cached
        return cached

    def function(self, reference: ast.expr) -> "Scope | None":
        """The file's function a name (or ``self.method``) surely refers to:
        a callback handed to a library (``minimize(cost, x0, jac=grad)``)."""
        return self._resolve(reference)

    def _resolve(self, func: ast.expr) -> "Scope | None":
        model = self.model
        scopes = self._scopes_by_def()
        if isinstance(func, ast.Name):
            owner = model.lookup(func)
            if owner is None:
                return None
            bindings = owner.bindings.get(func.id, ())
            if len(bindings) != 1:
                # rebound: a notebook's cell that defines the function again; what
                # runs is the one definition that reaches the call, if only one does
                bindings = model.reaching_bindings(func)
            if len(bindings) == 1 and isinstance(bindings[0].value, ast.Lambda):
                return scopes.get(id(bindings[0].value))  # circ = lambda x: np.sqrt(1 - x**2)
            if len(bindings) != 1 or not isinstance(bindings[0].node, _DEF_TYPES):
                return None  # rebound, or not a def: what runs is not certain
            return scopes.get(id(bindings[0].node))
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            method_scope = model.scope_of(func).function_like()
            cls = self._class_of_method(method_scope)
            if cls is None or func.value.id != method_scope.params[0]:
                return None
            return self._method(cls, func.attr)
        return None

    def _resolve_through_class(self, func: ast.expr) -> "Scope | None":
        """``Model.build(n)``: a class or static method called through its class."""
        if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
            return None
        named = self.class_of(func.value)
        method = self._method(named, func.attr) if named is not None else None
        return method if method is not None and _decorated(method, "classmethod", "staticmethod") else None

    def _resolve_on_instance(self, func: ast.expr) -> "Scope | None":
        """``system.step(dt)`` where ``system`` is surely an instance of one of
        the file's classes (built by it, or by a factory of it)."""
        if not isinstance(func, ast.Attribute) or not self.classes():
            return None
        cls = self.model.values.instance_class(func.value)
        return self._method(cls, func.attr) if cls is not None else None

    def _method(self, cls: "Scope", name: str) -> "Scope | None":
        """The method ``name`` the class defines once (inherited ones are not followed)."""
        bindings = cls.bindings.get(name, ())
        if len(bindings) != 1 or not isinstance(bindings[0].node, _DEF_TYPES):
            return None
        return self._scopes_by_def().get(id(bindings[0].node))

    def _class_of_method(self, scope: "Scope") -> "Scope | None":
        """The class whose method ``scope`` is (called through its first parameter)."""
        if scope.kind is not ScopeKind.FUNCTION or not scope.params or not isinstance(scope.node, _DEF_TYPES):
            return None
        parent = scope.parent
        if parent is None or parent.kind is not ScopeKind.CLASS:
            return None
        if any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in scope.node.decorator_list):
            return None
        return parent

    def _scopes_by_def(self) -> dict[int, "Scope"]:
        if self._function_scopes is None:
            self._function_scopes = {
                id(scope.node): scope for scope in self.model.scopes if scope.kind is ScopeKind.FUNCTION
                and (isinstance(scope.node, _DEF_TYPES) or (isinstance(scope.node, ast.Lambda) and scope.name != "<lambda>"))
            }
        return self._function_scopes

    # --------------------------------------------------------------- sites
    def sites(self, scope: "Scope") -> list[ast.Call]:
        """Every call of the function ``scope`` in the file, in source order."""
        self._resolve_uses_of(scope.name)
        return self._sites.get(id(scope), [])

    def static_sites(self, scope: "Scope") -> list[ast.Call]:
        """The calls of ``scope`` that :meth:`static_callee` resolves (not
        those made on instances), in source order."""
        self._resolve_static_uses_of(scope.name)
        return self._static_sites.get(id(scope), [])

    def escapes(self, scope: "Scope") -> bool:
        """Is the function also used as a value (a callback, a stored reference)?"""
        self._resolve_static_uses_of(scope.name)
        return self._escapes.get(id(scope), False)

    def escapes_to_number_callers(self, scope: "Scope") -> bool:
        """Is every use of the function as a value ``np.vectorize(f)`` or
        ``np.frompyfunc(f, ...)``? Those call it with one element of their
        arrays per argument: Python numbers, whatever the file's own calls pass."""
        self._resolve_uses_of(scope.name)
        uses = self._escape_uses.get(id(scope), [])
        if not uses:
            return False
        model = self.model
        for use in uses:
            call = model.parent(use)
            if not (isinstance(call, ast.Call) and call.args and call.args[0] is use
                    and model.call_api(call) in ("vectorize", "frompyfunc")):
                return False
        return True

    def called_with_numbers(self, scope: "Scope") -> bool:
        """Is every use of the function (a ``def`` or a lambda) as a value a
        SciPy routine of one real variable (``brentq(f, a, b)``, ``quad(f, 0,
        1)``)? Those call it with a Python float for its first parameter (the
        others come from ``args=``, which may hold anything)."""
        model = self.model
        if isinstance(scope.node, ast.Lambda):
            uses: list[ast.AST] = [scope.node]
        else:
            self._resolve_uses_of(scope.name)
            uses = list(self._escape_uses.get(id(scope), []))
            if not uses:
                return False
        for use in uses:
            call = model.parent(use)
            if not (isinstance(call, ast.Call) and call.args and call.args[0] is use
                    and (model.qualname(call.func) or "") in SCALAR_FUNCTION_CALLERS):
                return False
        return True

    def _resolve_uses_of(self, name: str) -> None:
        """Resolve every use of ``name`` once, for all the functions so named:
        a file with many methods of one name (``step``, ``__init__``) would
        otherwise resolve all the uses again for each of them."""
        self._resolve_static_uses_of(name)
        if name in self._resolved_names:
            return
        self._resolved_names.add(name)
        for use in self._uses_by_name().get(name, ()):
            if isinstance(use, ast.Call):
                scope = self.target(use)
                if scope is not None:
                    self._sites.setdefault(id(scope), []).append(use)

    def _resolve_static_uses_of(self, name: str) -> None:
        """The calls :meth:`static_callee` resolves and the uses as a value,
        of every function named ``name``: what no instance's class decides."""
        if name in self._static_names:
            return
        self._static_names.add(name)
        for use in self._uses_by_name().get(name, ()):
            if isinstance(use, ast.Call):
                scope = self.static_callee(use)
                if scope is not None:
                    self._static_sites.setdefault(id(scope), []).append(use)
            else:
                scope = self._resolve(use)  # type: ignore[arg-type]
                if scope is not None:
                    self._escapes[id(scope)] = True
                    self._escape_uses.setdefault(id(scope), []).append(use)

    def _uses_by_name(self) -> dict[str, list[ast.AST]]:
        """Name -> the calls of that name and the other loads of it (a
        function passed as a value), built once: a function's call sites
        are resolved only when they are asked for."""
        if self._uses is None:
            defined = {scope.name for scope in self._scopes_by_def().values()}
            uses: dict[str, list[ast.AST]] = {}
            if defined:
                model = self.model
                by_type = model.nodes_by_type()
                for call in by_type.get(ast.Call, ()):
                    func = call.func  # type: ignore[attr-defined]
                    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
                    if name in defined:
                        uses.setdefault(name, []).append(call)
                names = model.names_by_id()  # the few defined names, not every name of the file
                loads: list[ast.AST] = [n for name in defined for n in names.get(name, ())]
                loads += [a for a in by_type.get(ast.Attribute, ()) if a.attr in defined]  # type: ignore[attr-defined]
                for node in loads:
                    name = node.id if isinstance(node, ast.Name) else node.attr  # type: ignore[attr-defined]
                    if isinstance(node.ctx, ast.Load):  # type: ignore[attr-defined]
                        parent = model.parent(node)
                        if not (isinstance(parent, ast.Call) and parent.func is node):
                            uses.setdefault(name, []).append(node)
            self._uses = uses
        return self._uses

    def picks_through(self, call: ast.Call) -> list[ast.Subscript]:
        """The elements a function of the file reads from the arrays ``call``
        hands it, written in the caller's names: ``eom(u, dt, i, t)`` whose
        body (or a helper it hands ``u`` on to) reads ``u[i + 1, t]`` reads
        ``u[i + 1, t]`` here. Only picks whose every index is made of what
        the call hands over; the nodes are new, outside the model's tables."""
        callee = self.callee(call)
        if callee is None:
            return []
        given = {p: self.argument(call, callee, p) for p in callee.params}
        arrays = {p: a.id for p, a in given.items() if isinstance(a, ast.Name) and self.model.is_array(a)}
        if not arrays:
            return []
        handed = {p: a for p, a in given.items() if a is not None and _plain_index(a)}
        return self._picks_in(callee, handed, arrays, 0)

    def _picks_in(self, scope: "Scope", handed: dict[str, ast.expr], arrays: dict[str, str], depth: int) -> list[ast.Subscript]:
        model = self.model
        unchanged = {p for p in scope.params if all(b.kind is BindKind.PARAM for b in scope.bindings.get(p, ()))}
        handed = {p: a for p, a in handed.items() if p in unchanged}
        arrays = {p: a for p, a in arrays.items() if p in unchanged}
        found: list[ast.Subscript] = []
        for node in walk(scope.node):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in arrays:
                if isinstance(node.ctx, ast.Load) and model.lookup(node.value) is scope and names_in(node.slice) <= handed.keys():
                    index = _substituted(node.slice, handed)
                    found.append(ast.Subscript(value=ast.Name(id=arrays[node.value.id], ctx=ast.Load()), slice=index, ctx=ast.Load()))
            elif isinstance(node, ast.Call) and depth < 2 and (inner := self.callee(node)) is not None:
                given = {q: self.argument(node, inner, q) for q in inner.params}
                inner_arrays = {q: arrays[a.id] for q, a in given.items() if isinstance(a, ast.Name) and a.id in arrays}
                if inner_arrays:
                    inner_handed = {q: _substituted(a, handed) for q, a in given.items()
                                    if a is not None and _plain_index(a) and names_in(a) <= handed.keys()}
                    found += self._picks_in(inner, inner_handed, inner_arrays, depth + 1)
        return found

    def caller_offset(self, call: ast.Call, scope: "Scope") -> int:
        """1 when ``self.method(...)`` (or ``Model.build(...)`` of a class
        method) supplies the first parameter itself, and for ``Particle(...)``
        calling ``Particle.__init__``; 0 for a static method."""
        if _decorated(scope, "staticmethod"):
            return 0
        return 1 if isinstance(call.func, ast.Attribute) or scope.name == "__init__" else 0

    # -------------------------------------------------------- constructors
    def static_argument_sites(self, scope: "Scope") -> list[ast.Call]:
        """As :meth:`argument_sites`, with the static call sites only."""
        cls = self._constructed_class(scope)
        if cls is None:
            return self.static_sites(scope)
        return sorted(self.static_sites(scope) + self._constructor_calls(cls), key=lambda c: (c.lineno, c.col_offset))

    def argument_sites(self, scope: "Scope") -> list[ast.Call]:
        """The calls that hand the function ``scope`` its arguments: its call
        sites, and for a class's ``__init__`` the calls of the class
        (``Particle(np.zeros(2), v)``). Not a loop's context: building an
        object in a loop is not the constructor's work repeated."""
        cls = self._constructed_class(scope)
        if cls is None:
            return self.sites(scope)
        return sorted(self.sites(scope) + self._constructor_calls(cls), key=lambda c: (c.lineno, c.col_offset))

    def arguments_escape(self, scope: "Scope") -> bool:
        """Can the function receive arguments from calls out of sight (it is
        used as a value, or, for ``__init__``, its class is)?"""
        cls = self._constructed_class(scope)
        return self.escapes(scope) or (cls is not None and self._class_escapes(cls))

    def classes(self) -> dict[int, "Scope"]:
        """The file's class scopes by the id of their ``ClassDef``."""
        if self._classes is None:
            self._classes = {id(s.node): s for s in self.model.scopes if s.kind is ScopeKind.CLASS}
        return self._classes

    def class_of(self, reference: ast.expr) -> "Scope | None":
        """The file's class a name surely refers to (bound once, by its ``class``)."""
        if not isinstance(reference, ast.Name):
            return None
        owner = self.model.lookup(reference)
        bindings = owner.bindings.get(reference.id, ()) if owner is not None else ()
        if len(bindings) != 1 or not isinstance(bindings[0].node, ast.ClassDef):
            return None
        return self.classes().get(id(bindings[0].node))

    def _constructed_class(self, scope: "Scope") -> "Scope | None":
        if scope.name != "__init__" or self._class_of_method(scope) is None:
            return None
        return scope.parent

    def _constructor_uses(self, cls: "Scope") -> tuple[list[ast.Call], bool]:
        """The calls of class ``cls`` in the file, and whether it is also
        used otherwise than called, tested with isinstance or read from
        (passed on, stored, subclassed: calls out of sight may build it)."""
        key = id(cls)
        found = self._constructors.get(key)
        if found is None:
            model = self.model
            calls: list[ast.Call] = []
            escapes = False
            for use in model.names_by_id().get(cls.name, ()):
                if not isinstance(use.ctx, ast.Load) or self.class_of(use) is not cls:
                    continue
                parent = model.parent(use)
                if isinstance(parent, ast.Call) and parent.func is use:
                    calls.append(parent)
                elif isinstance(parent, ast.Attribute) or _tested_type(model, use):
                    continue
                else:
                    escapes = True
            found = self._constructors[key] = (calls, escapes)
        return found

    def _constructor_calls(self, cls: "Scope") -> list[ast.Call]:
        return self._constructor_uses(cls)[0]

    def _class_escapes(self, cls: "Scope") -> bool:
        return self._constructor_uses(cls)[1]

    def argument(self, call: ast.Call, scope: "Scope", name: str) -> ast.expr | None:
        """The expression a call site gives parameter ``name`` (its default
        when the site gives none); None when it cannot be told (``*args``)."""
        node = scope.node
        if not isinstance(node, _DEF_TYPES):
            return None
        args = node.args
        positional = [a.arg for a in list(args.posonlyargs) + list(args.args)]
        for keyword in call.keywords:
            if keyword.arg == name:
                return keyword.value
            if keyword.arg is None:
                return None  # **kwargs may hold it
        offset = self.caller_offset(call, scope)
        if name in positional:
            position = positional.index(name) - offset
            if position < 0:
                return None
            for i, arg in enumerate(call.args):
                if isinstance(arg, ast.Starred):
                    return None
                if i == position:
                    return arg
        return parameter_default(args, name)

    def passed(self, param: Binding) -> list[ast.expr] | None:
        """What every call of the parameter's function gives it (its default
        where a call gives none); None when there is no call, one cannot be
        read, or unseen callers may give something else."""
        sites = self.argument_sites(param.scope)
        if not sites or self.arguments_escape(param.scope):
            return None
        given = [self.argument(call, param.scope, param.name) for call in sites]
        return None if any(g is None for g in given) else given  # type: ignore[return-value]

    def unread_argument(self, call: ast.Call, arg: ast.expr) -> bool:
        """Is ``arg`` handed to a parameter the file's function never reads
        (``F(U, t)`` where ``F`` ignores ``t``)? Such an argument does no work."""
        scope = self.callee(call)
        node = scope.node if scope is not None else None
        if not isinstance(node, _DEF_TYPES) or not any(a is arg for a in call.args):
            return False
        names = [a.arg for a in list(node.args.posonlyargs) + list(node.args.args)]
        position = [i for i, a in enumerate(call.args) if a is arg][0] + self.caller_offset(call, scope)
        if any(isinstance(a, ast.Starred) for a in call.args) or node.args.vararg is not None or position >= len(names):
            return False
        name = names[position]
        return not any(isinstance(n, ast.Name) and n.id == name for stmt in node.body for n in walk(stmt))

    def is_receiver(self, param: Binding) -> bool:
        """``self``/``cls`` of a method: ``self.shape`` is an attribute of the
        object, not evidence that the object is an array."""
        scope = param.scope
        function = scope.node
        parent = scope.parent
        if not isinstance(function, _DEF_TYPES) or parent is None:
            return False
        if parent.kind is not ScopeKind.CLASS or not scope.params or scope.params[0] != param.name:
            return False
        return not any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in function.decorator_list)

    def is_receiver_name(self, name: ast.Name) -> bool:
        """Is ``name`` (``self`` in ``self.w``) the receiver of the method it
        is used in, never rebound there?"""
        bindings = self.model.reaching_bindings(name)
        return bool(bindings) and all(b.kind is BindKind.PARAM and self.is_receiver(b) for b in bindings)

    # ---------------------------------------------------------- loop context
    def calling_loop(self, scope: "Scope") -> "tuple[LoopFrame, ast.Call] | None":
        """The nearest hot loop that runs the function ``scope`` on every
        iteration — directly (``for ...: step(u)``) or through the functions
        that call it — with the call inside that loop; None when no loop of
        the file repeats it."""
        key = id(scope)
        if key in self._calling_loops:
            return self._calling_loops[key]
        self._calling_loops[key] = None  # a cycle of calls finds nothing new
        found = self._search_calling_loop(scope)
        self._calling_loops[key] = found
        return found

    def _search_calling_loop(self, scope: "Scope") -> "tuple[LoopFrame, ast.Call] | None":
        """Breadth first through the callers; a loop that runs the call on
        every iteration wins over a nearer one that runs it every N steps
        only (``if s % log_every == 0: log(self.energy())``)."""
        model = self.model
        seen = {id(scope)}
        queue = deque([scope])
        throttled: "tuple[LoopFrame, ast.Call] | None" = None
        while queue:
            current = queue.popleft()
            for call in self.sites(current):
                loop = model.loop_of(call)
                hot = hot_loop(loop) if loop is not None else None
                if hot is not None:
                    if not is_throttled(model, call, hot):
                        return hot, call
                    throttled = throttled or (hot, call)
                    continue
                caller = model.scope_of(call).function_like()
                if caller.kind is ScopeKind.FUNCTION and id(caller) not in seen:
                    seen.add(id(caller))
                    queue.append(caller)
        return throttled


def _decorated(scope: "Scope", *names: str) -> bool:
    """Is the function decorated with one of ``names`` (``@staticmethod``)?"""
    node = scope.node
    return isinstance(node, _DEF_TYPES) and any(isinstance(d, ast.Name) and d.id in names for d in node.decorator_list)


def _tested_type(model: "FileModel", use: ast.Name) -> bool:
    """``use`` names a type an ``isinstance``/``issubclass`` test checks against."""
    node: ast.AST = use
    parent = model.parent(node)
    if isinstance(parent, ast.Tuple):
        node, parent = parent, model.parent(parent)
    return (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name)
            and parent.func.id in ("isinstance", "issubclass") and len(parent.args) == 2 and parent.args[1] is node)


def _plain_index(expr: ast.expr) -> bool:
    """Names, numbers and sums or differences of them: what an index is made of."""
    if isinstance(expr, (ast.Name, ast.Constant)):
        return True
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)):
        return _plain_index(expr.left) and _plain_index(expr.right)
    if isinstance(expr, ast.Tuple):
        return all(_plain_index(e) for e in expr.elts)
    return False


class _Substitute(ast.NodeTransformer):
    """Replaces parameter names by what a call hands them (in a copy)."""

    def __init__(self, handed: dict[str, ast.expr]) -> None:
        self.handed = handed

    def visit_Name(self, node: ast.Name) -> ast.AST:
        replacement = self.handed.get(node.id)
        return copy.deepcopy(replacement) if replacement is not None else node


def _substituted(expr: ast.expr, handed: dict[str, ast.expr]) -> ast.expr:
    """A copy of ``expr`` in the caller's names: the model's nodes stay as they are."""
    return _Substitute(handed).visit(copy.deepcopy(expr))  # type: ignore[no-any-return]
