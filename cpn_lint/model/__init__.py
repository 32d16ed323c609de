"""The semantic model of one file, built once and shared by every rule.

:class:`FileModel` is the one public face. Behind it:

* :mod:`.builder` — one walk over the AST records parents, scopes, bindings,
  evidence and loop frames;
* :mod:`.reaching` — which bindings of a name may reach a use;
* :mod:`.values` — what each expression is at run time: its kind (Python
  number, 0-d device scalar, array, ...) and its shape; the engine is
  assembled from :mod:`.value_kinds`, :mod:`.value_bindings`,
  :mod:`.instances`, :mod:`.array_evidence`, :mod:`.value_shapes`,
  :mod:`.call_shapes` and :mod:`.small_arrays`;
* :mod:`.calls` — the file's own functions: their call sites, what those
  pass, and which loops repeat them;
* :mod:`.loop_iterations` — what each loop iterates; :mod:`.loops` — how
  much work each iteration does (element, row, slab), from
  :mod:`.loop_picks` and :mod:`.loop_whole`;
* :mod:`.draws` — which values are random draws without ``size`` (a
  one-element array on cuPyNumeric, not a number).

Questions are answered lazily and memoised. The model never imports or
executes the code it reads.
"""

from __future__ import annotations

import ast
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from .builder import ModelBuilder
from .calls import CallGraph
from .dependence import DependenceAnalysis, Role
from .draws import DrawTracker
from .hotpath import HotArray, hot_path_arrays
from .imports import ImportTable, import_fallback
from .kinds import Kind
from .loop_iterations import classify_iterations
from .loop_work import LoopWork, Work
from .loops import WorkAnalysis
from .numpy_api import HOST_BUILTINS, HOST_LIBRARIES, PLOTTING_LIBRARIES
from .reaching import Reaching
from .recurrence_forms import Recurrence
from .scopes import Binding, BindKind, IterKind, LoopFrame, Scope, ScopeKind
from .shapes import MaybeShape
from .value_kinds import isinstance_of_non_array
from .values import ValueEngine

if TYPE_CHECKING:  # pragma: no cover
    from .structural import Structural

__all__ = [
    "FileModel",
    "Kind",
    "LoopFrame",
    "LoopWork",
    "Scope",
    "IterKind",
    "Binding",
    "BindKind",
    "Work",
    "Role",
    "Recurrence",
    "HotArray",
]

N = TypeVar("N", bound=ast.AST)
_MISSING = object()
_NAMES_BY_ID = "names-by-id"  # keys of the indexes among the derived analyses
_IMPORTED_NAME_USES = "imported-name-uses"
_BINDINGS_BY_LOOP = "bindings-by-loop"
D = TypeVar("D")


class FileModel:
    """Everything the rules know about one source file."""

    def __init__(self, tree: ast.Module, source: str, filename: str = "<string>") -> None:
        self.tree = tree
        self.source = source
        self.filename = filename
        self.lines = source.splitlines()
        self.imports = ImportTable()
        self.module_scope = Scope(ScopeKind.MODULE, tree, None, "<module>")
        self.scopes: list[Scope] = [self.module_scope]
        self.loops: list[LoopFrame] = []
        self._parent: dict[ast.AST, ast.AST] = {}
        self._context: dict[ast.AST, tuple[Scope, LoopFrame | None]] = {}
        self._by_type: dict[type, list[ast.AST]] = {}
        self._functions: dict[str, Scope] = {}
        self._class_attrs: dict[tuple[int, str], list[Binding]] = {}
        self._loop_index: dict[type, dict[int, list[ast.AST]]] = {}
        self._qualnames: dict[ast.AST, str | None] = {}
        self._array_apis: dict[ast.expr, str | None] = {}
        self._derived: dict[object, Any] = {}
        self._statements: dict[ast.AST, ast.stmt | None] = {}
        self._lookups: dict[ast.Name, Scope | None] = {}
        ModelBuilder(self).build()
        # The module whose arrays are distributed (imports are complete now).
        self.device_root: str | None = self.imports.device_root
        self._reaching = Reaching(self)
        self.values = ValueEngine(self)
        self.calls = CallGraph(self)
        classify_iterations(self)

    def release(self) -> None:
        """Empty the model's tables once no one will ask it anything again.

        The model's objects point at each other (scopes and their bindings,
        the engines and the model), so only the cyclic garbage collector
        could free them, after tracing every table entry; in a flake8 run
        that tracing costs about a fifth of the plugin's time. Emptied
        tables are freed at once by reference counting instead."""
        owners: list[object] = [*self.scopes, *self.loops, *self._derived.values()]
        owners += [vars(self).get(name) for name in ("values", "_reaching", "calls", "_draws")]
        owners.append(self)
        lines = self.lines
        for owner in owners:
            fields = getattr(owner, "__dict__", None)
            if fields is None:
                if isinstance(owner, (dict, list, set)):
                    owner.clear()
                continue
            for value in fields.values():
                if isinstance(value, (dict, list, set)) and value is not lines:  # the caller may keep the lines
                    value.clear()
            fields.clear()  # the references between the objects go with them

    # -------------------------------------------------------------- queries
    def nodes(self, *types: type[N]) -> list[N]:
        """Every node of the given types, in source order."""
        if len(types) == 1:
            return list(self._by_type.get(types[0], ()))  # type: ignore[arg-type]
        found: list[Any] = []
        for t in types:
            found.extend(self._by_type.get(t, ()))
        found.sort(key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
        return found

    def nodes_in_loop(self, frame: LoopFrame, *types: type[N]) -> list[N]:
        """Nodes of the given types that ``frame`` (or a loop inside it) repeats.

        Built once per node type for all loops, so rules asking per loop stay
        linear in the file size.
        """
        found: list[Any] = []
        for node_type in types:
            index = self._loop_index.get(node_type)
            if index is None:
                index = {}
                for node in self._by_type.get(node_type, ()):
                    inner = self._context[node][1]
                    while inner is not None:
                        index.setdefault(id(inner), []).append(node)
                        inner = inner.parent
                self._loop_index[node_type] = index
            found.extend(index.get(id(frame), ()))
        if len(types) > 1:
            found.sort(key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
        return found

    def derived(self, key: object, build: "Callable[[FileModel], D]") -> D:
        """A per-file analysis several rules share (the SCALES statement pass,
        the API call table, loop tables), built on first use. It lives on the
        model, so it goes with the model: a module-level cache keyed by the
        model would be kept alive by analyses that point back at it."""
        try:
            return self._derived[key]  # type: ignore[no-any-return]
        except KeyError:
            value = self._derived[key] = build(self)
            return value

    def nodes_by_type(self) -> dict[type, list[ast.AST]]:
        """The per-type node index (read-only: shared by every rule)."""
        return self._by_type

    def bindings_in_loop(self, frame: LoopFrame) -> list[Binding]:
        """The bindings made inside ``frame``, at any depth (built once for
        every loop of the file; read-only)."""
        table = self._derived.get(_BINDINGS_BY_LOOP)
        if table is None:
            table = {}
            for scope in self.scopes:
                for bindings in scope.bindings.values():
                    for binding in bindings:
                        loop = binding.loop
                        while loop is not None:
                            table.setdefault(id(loop), []).append(binding)
                            loop = loop.parent
            self._derived[_BINDINGS_BY_LOOP] = table
        return table.get(id(frame), [])  # type: ignore[no-any-return]

    def names_by_id(self) -> dict[str, list[ast.Name]]:
        """Every ``Name`` node of the file by identifier, in source order
        (built on first use; read-only)."""
        index = self._derived.get(_NAMES_BY_ID)
        if index is None:
            index = {}
            for node in self._by_type.get(ast.Name, ()):
                index.setdefault(node.id, []).append(node)  # type: ignore[attr-defined]
            self._derived[_NAMES_BY_ID] = index
        return index  # type: ignore[no-any-return]

    def imported_name_uses(self) -> list[ast.Name | ast.Attribute]:
        """Where the file uses an imported name: for each occurrence, the
        outermost attribute chain it starts (``np.linalg.norm`` for the
        ``np`` in it), or the name itself. Only these can resolve to an
        imported qualified name; with a star import any name may, so every
        name and attribute is listed. Built on first use; read-only."""
        found = self._derived.get(_IMPORTED_NAME_USES)
        if found is None:
            if self.imports.star_imports:
                found = [*self.nodes(ast.Attribute), *self.nodes(ast.Name)]
            else:
                found = []
                names = self.names_by_id()
                for alias in self.imports.aliases:
                    for name in names.get(alias, ()):
                        top: ast.Name | ast.Attribute = name
                        parent = self._parent.get(top)
                        while isinstance(parent, ast.Attribute) and parent.value is top:
                            top, parent = parent, self._parent.get(parent)
                        found.append(top)
            self._derived[_IMPORTED_NAME_USES] = found
        return found  # type: ignore[no-any-return]

    def has(self, node_type: type) -> bool:
        return bool(self._by_type.get(node_type))

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self._parent.get(node)

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        parent = self._parent.get(node)
        while parent is not None:
            yield parent
            parent = self._parent.get(parent)

    def statement_of(self, node: ast.AST) -> ast.stmt | None:
        """The innermost statement containing ``node`` (itself if a statement)."""
        cache = self._statements
        found = cache.get(node, _MISSING)
        if found is not _MISSING:
            return found  # type: ignore[return-value]
        current: ast.AST | None = node
        while current is not None and not isinstance(current, ast.stmt):
            current = self._parent.get(current)
        cache[node] = current
        return current  # type: ignore[return-value]

    def scope_of(self, node: ast.AST) -> Scope:
        found = self._context.get(node)
        return found[0] if found is not None else self.module_scope

    def loop_of(self, node: ast.AST) -> LoopFrame | None:
        """The innermost loop (of the same function) that repeats ``node``."""
        found = self._context.get(node)
        return found[1] if found is not None else None

    def in_loop(self, node: ast.AST) -> bool:
        return self.loop_of(node) is not None

    def narrowed_to_non_array(self, name_node: ast.Name) -> bool:
        """True for ``x`` in the body of ``if isinstance(x, (list, tuple)):``
        (or of the matching ``... if isinstance(x, list) else ...``): there
        the name holds a Python container or number, whatever else it may
        hold elsewhere."""
        child: ast.AST = name_node
        for ancestor in self.ancestors(name_node):
            if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                return False
            in_body = (isinstance(ancestor, ast.If) and any(child is s for s in ancestor.body)) or (
                isinstance(ancestor, ast.IfExp) and child is ancestor.body
            )
            if in_body and isinstance_of_non_array(ancestor.test, name_node.id):  # type: ignore[attr-defined]
                return True
            child = ancestor
        return False

    def loop_for_node(self, node: ast.AST) -> LoopFrame | None:
        """The frame a For/While/comprehension node opened."""
        return self._frames_by_node.get(node)

    @cached_property
    def structural(self) -> "Structural":
        """The file's shared ast-grep root (parsed on first use)."""
        from .structural import Structural

        return Structural(self)

    @cached_property
    def _frames_by_node(self) -> dict[ast.AST, LoopFrame]:
        return {frame.node: frame for frame in self.loops}

    def loops_within(self, frame: LoopFrame) -> list[LoopFrame]:
        """The loops nested in ``frame`` (not itself), outer ones first."""
        return self._nested_loops.get(id(frame), [])

    @cached_property
    def _nested_loops(self) -> dict[int, list[LoopFrame]]:
        # one pass over each loop's enclosing chain: asking every loop of the
        # file "are you inside?" for every loop was quadratic in large files
        nested: dict[int, list[LoopFrame]] = {}
        for frame in self.loops:
            outer = frame.parent
            while outer is not None:
                nested.setdefault(id(outer), []).append(frame)
                outer = outer.parent
        return nested

    def segment(self, node: ast.AST, limit: int = 80) -> str:
        """The source text of ``node`` on its first line, shortened to ``limit``."""
        try:
            line = self.lines[node.lineno - 1]  # type: ignore[attr-defined]
        except (AttributeError, IndexError):
            return ""
        encoded = line.encode("utf-8")
        start = node.col_offset  # type: ignore[attr-defined]
        end = node.end_col_offset if node.end_lineno == node.lineno else len(encoded)  # type: ignore[attr-defined]
        text = encoded[start:end].decode("utf-8", "replace").strip()
        if node.end_lineno != node.lineno:  # type: ignore[attr-defined]
            text += " ..."
        return text if len(text) <= limit else text[: limit - 3] + "..."

    # -------------------------------------------------------- name resolution
    def uses_numpy(self) -> bool:
        return self.device_root is not None

    def progress_wrapped(self, iterable: ast.expr) -> ast.expr | None:
        """What a progress bar iterates: ``x`` for ``tqdm(x)``, and the
        ``range(...)`` call itself for ``trange(...)`` (which counts like
        range). None when ``iterable`` is no progress bar."""
        if not isinstance(iterable, ast.Call) or "tqdm" not in self.imports.imported_roots():
            return None
        qual = self.qualname(iterable.func)
        if qual is None or qual.partition(".")[0] != "tqdm":
            return None
        tail = qual.rpartition(".")[2]
        if tail == "tqdm" and iterable.args:
            return iterable.args[0]
        return iterable if tail == "trange" else None

    def qualname(self, expr: ast.expr) -> str | None:
        """The qualified name ``expr`` stands for, if it is an imported name
        that is not rebound locally (``np`` shadowed by a variable is refused).
        Memoised per node: several rules ask about the same calls."""
        name = self._qualnames.get(expr, _MISSING)  # not try/except: most first asks miss
        if name is _MISSING:
            name = self._qualnames[expr] = self._resolve_qualname(expr)
        return name  # type: ignore[return-value]

    def _resolve_qualname(self, expr: ast.expr) -> str | None:
        name = self.imports.resolve(expr)
        if name is None:
            if self.imports.star_imports:
                return self._star_qualname(expr)
            return self._module_alias(expr)  # not an imported name: ``_SIGN = np.sign`` at most
        base = expr
        while isinstance(base, ast.Attribute):
            base = base.value
        if isinstance(base, ast.Name):
            scope = self.lookup(base)
            if scope is not None and any(b.kind is not BindKind.NOT_ARRAY and not import_fallback(self.parent, b.node, base.id)
                                         for b in scope.bindings.get(base.id, ())):
                return None  # rebound (an optional import's ``cp = None`` fallback aside)
        return name

    def _module_alias(self, expr: ast.expr) -> str | None:
        """``_SIGN`` after ``_SIGN = np.sign`` (``interp = np.interp``): a
        name its scope binds once, to a NumPy function."""
        if not isinstance(expr, ast.Name) or not self.uses_numpy():
            return None
        scope = self.lookup(expr)
        if scope is None:
            return None
        bindings = scope.bindings.get(expr.id, ())
        if len(bindings) != 1 or bindings[0].kind is not BindKind.VALUE or not isinstance(bindings[0].value, ast.Attribute):
            return None
        target = self.imports.resolve(bindings[0].value)
        if target is None or target.partition(".")[0] not in ("numpy", "cupynumeric"):
            return None
        return self.qualname(bindings[0].value)

    def _star_qualname(self, expr: ast.expr) -> str | None:
        """``sum`` after ``from numpy import *``: a name no scope binds that
        the starred NumPy module exports (it shadows Python's builtin, as the
        star import does at run time)."""
        parts: list[str] = []
        base = expr
        while isinstance(base, ast.Attribute):
            parts.append(base.attr)
            base = base.value
        if not isinstance(base, ast.Name) or self.lookup(base) is not None or base.id in self.imports.star_builtins:
            return None
        for module in reversed(self.imports.star_imports):
            root, _, tail = module.partition(".")
            if root not in ("numpy", "cupynumeric"):
                continue
            numpy_module = "numpy" + (f".{tail}" if tail else "")
            if _exports(numpy_module, base.id):
                return ".".join([module, base.id, *reversed(parts)])
        return None

    def array_api(self, expr: ast.expr) -> str | None:
        """``"zeros"``/``"linalg.svd"`` when ``expr`` names a device-array API.

        Both ``numpy`` (when it is the module being ported) and ``cupynumeric``
        count; the host alias beside cupynumeric does not.
        """
        known = self._array_apis.get(expr, _MISSING)
        if known is not _MISSING:
            return known  # type: ignore[return-value]
        name = self.qualname(expr)
        root = self.device_root
        api = None
        if name is not None and root is not None:
            head, _, tail = name.partition(".")
            if head == root and tail:
                api = tail
        self._array_apis[expr] = api  # memoised per node: every rule asks about the same calls
        return api

    def host_api(self, expr: ast.expr) -> str | None:
        """The tail when ``expr`` names a host-numpy API beside cupynumeric."""
        name = self.qualname(expr)
        if name is None or self.device_root != "cupynumeric":
            return None
        head, _, tail = name.partition(".")
        return tail if head == "numpy" and tail else None

    def numpy_name(self, expr: ast.expr) -> str | None:
        """``"numpy.linalg.svd"`` for a device API, whatever its alias."""
        tail = self.array_api(expr)
        return f"numpy.{tail}" if tail else None

    def call_api(self, call: ast.AST) -> str | None:
        """The device-array API a call invokes (``"sum"``), or None."""
        if isinstance(call, ast.Call):
            return self.array_api(call.func)
        return None

    def lookup(self, name_node: ast.Name) -> Scope | None:
        """The scope a use of a name resolves to (None: a builtin or an
        unbound name). Memoised per node: the scopes' bindings are complete
        once the model is built, and the value engine asks again and again."""
        found = self._lookups.get(name_node, _MISSING)
        if found is _MISSING:
            found = self._lookups[name_node] = self.scope_of(name_node).lookup_scope(name_node.id)
        return found  # type: ignore[return-value]

    def reaching_bindings(self, name_node: ast.Name) -> list[Binding]:
        """The bindings of a name that may reach this use of it (none for a
        builtin or an unbound name); see :mod:`.reaching`."""
        scope = self.lookup(name_node)
        return self._reaching.bindings(scope, name_node) if scope is not None else []

    # ------------------------------------------------------------ values
    def kind(self, expr: ast.expr | None) -> Kind:
        """What ``expr`` evaluates to (see :class:`Kind`)."""
        return self.values.kind(expr)

    def shape(self, expr: ast.expr | None) -> MaybeShape:
        """``expr``'s shape: ``()`` for numbers and device scalars, a tuple of
        extents for arrays, None when not known (see :mod:`.shapes`)."""
        return self.values.shape(expr)

    def literal_shape(self, expr: ast.expr | None) -> tuple[int, ...] | None:
        """``expr``'s shape when every extent is a literal (``(1000, 1000)``)."""
        shape = self.values.shape(expr)
        if shape is None or any(not isinstance(extent, int) for extent in shape):
            return None
        return shape  # type: ignore[return-value]

    def hot_arrays(self) -> list[HotArray]:
        """The device arrays the file's hot loops work on, with their sizes
        where the code states them (see :mod:`.hotpath`)."""
        return self.derived(hot_path_arrays, hot_path_arrays)

    def unit_draw(self, expr: ast.expr | None) -> ast.Call | None:
        """The draw behind ``expr`` when it is a random draw without ``size``:
        a one-element array of shape (1,) on cuPyNumeric, not a number (see
        :mod:`.draws`); None otherwise."""
        return self._draws.unit_draw(expr)

    def draw_name(self, call: ast.Call) -> str | None:
        """``normal`` for ``np.random.normal(...)`` or a device generator's
        ``rng.normal(...)``; None for any other call."""
        return self._draws.draw_name(call)

    @cached_property
    def _draws(self) -> DrawTracker:
        return DrawTracker(self)

    def is_array(self, expr: ast.expr | None) -> bool:
        """True when ``expr`` is a device array (cuPyNumeric will distribute it)."""
        return self.kind(expr) is Kind.DEVICE

    def is_device(self, expr: ast.expr | None) -> bool:
        """True when ``expr`` is held by cuPyNumeric (an array or a 0-d scalar):
        turning it into a Python value waits for the runtime."""
        return self.kind(expr).is_device

    def is_builtin(self, func: ast.Name) -> bool:
        """``func`` names Python's own built-in: not a name the file binds,
        nor NumPy's function of that name from ``from numpy import *``."""
        return self.lookup(func) is None and not self.imports.star_shadows_builtin(func.id)

    def class_attribute_bindings(self, expr: ast.Attribute) -> list[Binding] | None:
        """Every ``self.x = ...`` of the class for ``self.x`` read in one of its methods."""
        scope = self.scope_of(expr).function_like()
        if scope.kind is not ScopeKind.FUNCTION or not scope.params:
            return None
        if not isinstance(expr.value, ast.Name) or expr.value.id != scope.params[0]:
            return None
        cls = scope.parent
        if cls is None or cls.kind is not ScopeKind.CLASS:
            return None
        return self._class_attrs.get((id(cls), expr.attr)) or None

    def is_host_call(self, call: ast.Call) -> bool:
        """A call that takes its arguments to the host: output and container
        builtins (``print``, ``list``), host libraries (matplotlib, SciPy,
        logging, ...), methods of objects they made (``ax.plot``), and the
        host alias beside cupynumeric."""
        func = call.func
        if isinstance(func, ast.Name) and func.id in HOST_BUILTINS and self.lookup(func) is None:
            return True
        qual = self.qualname(func)
        head = (qual or "").partition(".")[0]
        if head in HOST_LIBRARIES or (head == "numpy" and self.device_root == "cupynumeric"):
            return True
        if qual is None and isinstance(func, ast.Attribute):
            root = func.value
            while isinstance(root, (ast.Attribute, ast.Call, ast.Subscript)):
                root = root.func if isinstance(root, ast.Call) else root.value
            if isinstance(root, ast.Name):
                return self._made_by_plotting(root)
        return False

    def _made_by_plotting(self, name: ast.Name) -> bool:
        """``ax`` in ``ax.plot(...)`` after ``fig, ax = plt.subplots()``."""
        for binding in self.reaching_bindings(name):
            value = binding.value
            while isinstance(value, (ast.Call, ast.Attribute, ast.Subscript)):
                value = value.func if isinstance(value, ast.Call) else value.value
            qual = self.qualname(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
            if qual is not None and qual.partition(".")[0] in PLOTTING_LIBRARIES:
                return True
        return False

    # ------------------------------------------------------------- loops
    def work(self, frame: LoopFrame) -> LoopWork:
        """How much array work one iteration of ``frame`` does (see :mod:`.loops`)."""
        return self.derived(WorkAnalysis, WorkAnalysis).of(frame)

    def loop_indices(self, frame: LoopFrame) -> frozenset[str]:
        """The numbers ``frame``'s header steps through, and the names its
        body derives from them (see :meth:`.loops.WorkAnalysis.own_indices`)."""
        return self.derived(WorkAnalysis, WorkAnalysis).own_indices(frame)

    def loop_varying(self, frame: LoopFrame) -> frozenset[str]:
        """Every number that changes from one iteration of ``frame`` to the next."""
        return self.derived(WorkAnalysis, WorkAnalysis).varying(frame)

    def role(self, frame: LoopFrame) -> Role:
        """What the loop is for cuPyNumeric: an element loop, a recurrence,
        time stepping, or none of these (see :mod:`.dependence`)."""
        return self.derived(DependenceAnalysis, DependenceAnalysis).role(frame)

    def draws_one_at_a_time(self, frame: LoopFrame) -> list[ast.Call]:
        """The draws without ``size`` that make ``frame`` an element loop (see
        :meth:`.dependence.DependenceAnalysis.draws_one_at_a_time`)."""
        return self.derived(DependenceAnalysis, DependenceAnalysis).draws_one_at_a_time(frame)

    def recurrences(self, frame: LoopFrame) -> list[Recurrence]:
        """Element-sized state ``frame`` carries from one iteration to the next."""
        return self.derived(DependenceAnalysis, DependenceAnalysis).recurrences(frame)

    def calling_loop(self, node: ast.AST) -> "tuple[LoopFrame, ast.Call] | None":
        """For a site outside every loop of its own function: the hot loop
        (and the call in it) that runs that function every iteration."""
        scope = self.scope_of(node).function_like()
        if scope.kind is not ScopeKind.FUNCTION:
            return None
        return self.calls.calling_loop(scope)

    # ---------------------------------------------------------- constants
    def const_int(self, expr: ast.expr | None, _depth: int = 0) -> int | None:
        """The integer value of a literal, or of arithmetic on literals and
        module constants bound once (``N = 2**n + 1``,
        ``Nt = int(np.ceil(t_end / dt))``); None when it is not one."""
        value = self.const_number(expr, _depth)
        if isinstance(value, float):
            return int(value) if value.is_integer() and abs(value) < 2**62 else None
        return value

    def const_number(self, expr: ast.expr | None, _depth: int = 0) -> int | float | None:
        """The number a constant expression evaluates to (see :meth:`const_int`)."""
        if expr is None or _depth > 8:
            return None
        if isinstance(expr, ast.Constant):
            value = expr.value
            return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
            inner = self.const_number(expr.operand, _depth + 1)
            return None if inner is None else (-inner if isinstance(expr.op, ast.USub) else inner)
        if isinstance(expr, ast.BinOp):
            return _fold(expr.op, self.const_number(expr.left, _depth + 1), self.const_number(expr.right, _depth + 1))
        if isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords:
            return _rounding(self._rounding_name(expr.func), self.const_number(expr.args[0], _depth + 1))
        if isinstance(expr, ast.Name):
            scope = self.lookup(expr)
            if scope is None:
                return None
            bindings = scope.bindings.get(expr.id, [])
            if len(bindings) == 1 and bindings[0].kind is BindKind.VALUE:
                return self.const_number(bindings[0].value, _depth + 1)
        return None

    def _rounding_name(self, func: ast.expr) -> str | None:
        """``int``, ``round``, ``ceil`` or ``floor`` for a builtin, math or NumPy rounding call."""
        if isinstance(func, ast.Name) and func.id in ("int", "round", "float", "abs") and self.lookup(func) is None:
            return func.id
        qual = self.qualname(func) or ""
        head, _, tail = qual.partition(".")
        if head in ("math", "numpy", "cupynumeric") and tail in ("ceil", "floor", "trunc", "round", "rint"):
            return tail
        return None


def _fold(op: ast.operator, left: int | float | None, right: int | float | None) -> int | float | None:
    """``left op right`` for two known numbers (None when unknown or invalid)."""
    if left is None or right is None:
        return None
    try:
        if isinstance(op, ast.Add):
            return left + right
        if isinstance(op, ast.Sub):
            return left - right
        if isinstance(op, ast.Mult):
            return left * right
        if isinstance(op, ast.Div) and right:
            return left / right
        if isinstance(op, ast.FloorDiv) and right:
            return left // right
        if isinstance(op, ast.Mod) and right:
            return left % right
        if isinstance(op, ast.Pow) and abs(right) <= 64 and abs(left) < 2**20:
            return left**right
    except (OverflowError, ValueError, ZeroDivisionError, TypeError):
        return None
    return None


def _rounding(name: str | None, value: int | float | None) -> int | float | None:
    import math

    if name is None or value is None:
        return None
    try:
        if name in ("int", "trunc"):
            return int(value)
        if name == "float":
            return float(value)
        if name == "abs":
            return abs(value)
        if name in ("round", "rint"):
            return round(value)
        if name == "ceil":
            return math.ceil(value)
        if name == "floor":
            return math.floor(value)
    except (OverflowError, ValueError):
        return None
    return None


_SUBMODULES = frozenset({"linalg", "fft", "random", "ma", "polynomial", "testing", "lib", "char", "emath", "rec"})
# Names ``from numpy import *`` binds that are not functions of the manifest's
_STAR_EXTRAS = frozenset({"pi", "e", "inf", "nan", "newaxis", "euler_gamma"})


def _exports(module: str, name: str) -> bool:
    """Does ``from <module> import *`` bind ``name``? (Public NumPy names the
    API manifest lists, its submodules and constants.)"""
    if name.startswith("_"):
        return False
    if module == "numpy" and (name in _SUBMODULES or name in _STAR_EXTRAS):
        return True
    from ..manifest import active

    try:
        return active().lookup(f"{module}.{name}") is not None
    except Exception:  # a manifest that cannot be read: no star resolution
        return False
