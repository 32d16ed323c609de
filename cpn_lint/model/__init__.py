"""The semantic model of one file, built once and shared by every rule.

One iterative walk over the AST records, for every node, its parent, scope and
innermost loop; indexes nodes by type; collects imports, bindings, parameter
evidence and loop frames. Questions the rules ask (what does this name stand
for, is this value an array, is this site in a loop, what does this loop
iterate) are answered lazily from those tables and memoised.

The model never imports or executes the code it reads.
"""

from __future__ import annotations

import ast
import bisect
from functools import cached_property
from typing import Any, Callable, Iterator, TypeVar

from .imports import DEVICE_ROOTS, ImportTable
from .kinds import (
    ARRAY_ANNOTATIONS,
    ARRAY_METADATA,
    ARRAY_RANDOM_FUNCTIONS,
    ARRAY_VALUE_ATTRIBUTES,
    CONVERSION_FUNCTIONS,
    GENERATOR_DRAWS,
    GENERATOR_FUNCTIONS,
    INDEX_BUILDERS,
    NON_ARRAY_ATTRIBUTES,
    NON_ARRAY_BUILTINS,
    NON_ARRAY_FUNCTIONS,
    NON_ARRAY_METHODS,
    NOT_ARRAY_FIRST_ARGUMENT,
    NOT_ARRAY_ANNOTATIONS,
    SCALAR_TYPES,
    SEQUENCE_FUNCTIONS,
    SEQUENCE_METHODS,
    SPARSE_MODULE_NON_MATRIX,
    SPARSE_ONLY_ATTRIBUTES,
    SPARSE_PREDICATES,
    Kind,
    join,
)
from .structural import Structural
from .scopes import Binding, BindKind, IterKind, LoopFrame, Scope, ScopeKind

__all__ = [
    "FileModel",
    "Kind",
    "LoopFrame",
    "Scope",
    "IterKind",
    "Binding",
    "BindKind",
]

N = TypeVar("N", bound=ast.AST)
D = TypeVar("D")

_FUNCTION_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSION_TYPES = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_SMALL_CONSTANT_LIMIT = 8  # a loop over at most this many axes/taps is not an element loop

# Child field names per node type, reversed (the walk pushes children on a
# stack). Load/Store contexts and operators are shared singletons, not places
# in the code: the walk leaves them out.
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
_SINGLETON_FIELDS = frozenset({"ctx", "op", "ops"})


def _child_fields(node_type: type) -> tuple[str, ...]:
    names = tuple(name for name in reversed(node_type._fields) if name not in _SINGLETON_FIELDS)  # type: ignore[attr-defined]
    _CHILD_FIELDS[node_type] = names
    return names


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
        self._binding_kind: dict[int, Kind] = {}
        self._loop_index: dict[type, dict[int, list[ast.AST]]] = {}
        self._in_progress: set[int] = set()
        self._qualnames: dict[ast.AST, str | None] = {}
        self._name_kinds: dict[ast.Name, Kind] = {}
        self._derived: dict[object, Any] = {}
        self._sorted_bindings: dict[tuple[int, str], tuple[list[Binding], list[tuple[int, int]]]] = {}
        self._walk()
        self._classify_loops()

    # ------------------------------------------------------------------ walk
    def _walk(self) -> None:
        """One iterative pre-order walk (children in field order, so every
        per-type index is in source order). The hot loop avoids
        ``ast.iter_child_nodes`` and per-node method calls: only node types
        that bind names, open scopes or loops, or carry evidence are visited."""
        visitors = self._visitors()
        by_type = self._by_type
        parent_of = self._parent
        context = self._context
        fields_of = _CHILD_FIELDS
        node_class = ast.AST
        root_context = (self.module_scope, None)
        stack: list[tuple[ast.AST, ast.AST | None, tuple[Scope, LoopFrame | None]]] = [(self.tree, None, root_context)]
        pop = stack.pop
        push = stack.append
        while stack:
            node, parent, ctx = pop()
            if parent is not None:
                parent_of[node] = parent
            context[node] = ctx
            node_type = type(node)
            bucket = by_type.get(node_type)
            if bucket is None:
                by_type[node_type] = [node]
            else:
                bucket.append(node)
            visit = visitors.get(node_type)
            children = visit(node, ctx[0], ctx[1]) if visit is not None else None
            if children is not None:
                for child, child_scope, child_loop in reversed(children):
                    push((child, node, (child_scope, child_loop)))
                continue
            names = fields_of.get(node_type) or _child_fields(node_type)
            for name in names:
                value = getattr(node, name, None)
                if value.__class__ is list:
                    for item in reversed(value):
                        if isinstance(item, node_class):
                            push((item, node, ctx))
                elif isinstance(value, node_class):
                    push((value, node, ctx))

    def _visitors(self) -> dict[type, Any]:
        """Node type -> the method recording what it binds or evidences; a
        method returns the node's children with their context when it opens
        a scope or a loop (None: the children share the node's context)."""
        visitors: dict[type, Any] = {
            ast.Subscript: self._visit_subscript,
            ast.Attribute: self._visit_attribute,
            ast.Call: self._visit_call,
            ast.Assign: self._visit_assign,
            ast.AnnAssign: self._visit_ann_assign,
            ast.AugAssign: self._visit_aug_assign,
            ast.NamedExpr: self._visit_named_expr,
            ast.Import: self._visit_import,
            ast.ImportFrom: self._visit_import,
            ast.Return: self._visit_return,
            ast.Global: self._visit_global,
            ast.For: self._visit_for,
            ast.AsyncFor: self._visit_for,
            ast.While: self._visit_while,
            ast.ClassDef: self._visit_class,
            ast.With: self._visit_with,
            ast.AsyncWith: self._visit_with,
            ast.ExceptHandler: self._visit_except_handler,
        }
        for function_type in _FUNCTION_TYPES:
            visitors[function_type] = self._visit_function
        for comprehension_type in _COMPREHENSION_TYPES:
            visitors[comprehension_type] = self._visit_comprehension
        return visitors

    def _visit_subscript(self, node: ast.Subscript, scope: Scope, loop: LoopFrame | None) -> None:
        self._note_subscript_evidence(node, scope)

    def _visit_attribute(self, node: ast.Attribute, scope: Scope, loop: LoopFrame | None) -> None:
        self._note_attribute_evidence(node, scope)

    def _visit_call(self, node: ast.Call, scope: Scope, loop: LoopFrame | None) -> None:
        self._note_call_evidence(node, scope)

    def _visit_assign(self, node: ast.Assign, scope: Scope, loop: LoopFrame | None) -> None:
        for target in node.targets:
            self._bind_target(target, node.value, node, scope, loop)

    def _visit_ann_assign(self, node: ast.AnnAssign, scope: Scope, loop: LoopFrame | None) -> None:
        target = node.target
        if node.value is not None:
            self._bind_target(target, node.value, node, scope, loop)
        elif isinstance(target, ast.Name):
            self._bind(scope, target.id, BindKind.ANNOTATION, node.annotation, target, loop)

    def _visit_aug_assign(self, node: ast.AugAssign, scope: Scope, loop: LoopFrame | None) -> None:
        if isinstance(node.target, ast.Name):
            self._bind(scope, node.target.id, BindKind.AUG, node.value, node.target, loop, op=node.op)

    def _visit_named_expr(self, node: ast.NamedExpr, scope: Scope, loop: LoopFrame | None) -> None:
        self._bind(scope.function_like(), node.target.id, BindKind.VALUE, node.value, node.target, loop)

    def _visit_import(self, node: ast.Import | ast.ImportFrom, scope: Scope, loop: LoopFrame | None) -> None:
        self.imports.add(node)
        for alias in node.names:
            if alias.name != "*":
                local = alias.asname or alias.name.split(".", 1)[0]
                self._bind(scope, local, BindKind.NOT_ARRAY, None, node, loop)

    def _visit_return(self, node: ast.Return, scope: Scope, loop: LoopFrame | None) -> None:
        if node.value is not None:
            scope.function_like().returns.append(node.value)

    def _visit_global(self, node: ast.Global, scope: Scope, loop: LoopFrame | None) -> None:
        scope.global_names.update(node.names)

    def _visit_while(
        self, node: ast.While, scope: Scope, loop: LoopFrame | None
    ) -> list[tuple[ast.AST, Scope, LoopFrame | None]]:
        frame = self._new_loop(node, loop, scope, IterKind.WHILE)
        return (
            [(node.test, scope, frame)]
            + [(s, scope, frame) for s in node.body]
            + [(s, scope, loop) for s in node.orelse]
        )

    def _visit_class(
        self, node: ast.ClassDef, scope: Scope, loop: LoopFrame | None
    ) -> list[tuple[ast.AST, Scope, LoopFrame | None]]:
        self._bind(scope, node.name, BindKind.NOT_ARRAY, None, node, loop)
        inner = self._new_scope(ScopeKind.CLASS, node, scope, node.name)
        outer = [(d, scope, loop) for d in node.decorator_list]
        outer += [(b, scope, loop) for b in node.bases + [k.value for k in node.keywords]]
        return outer + [(s, inner, None) for s in node.body]

    def _visit_with(self, node: ast.With | ast.AsyncWith, scope: Scope, loop: LoopFrame | None) -> None:
        for item in node.items:
            if item.optional_vars is not None:
                self._bind_opaque(item.optional_vars, scope, loop)

    def _visit_except_handler(self, node: ast.ExceptHandler, scope: Scope, loop: LoopFrame | None) -> None:
        if node.name:
            self._bind(scope, node.name, BindKind.NOT_ARRAY, None, node, loop)

    def _visit_for(
        self, node: ast.For | ast.AsyncFor, scope: Scope, loop: LoopFrame | None
    ) -> list[tuple[ast.AST, Scope, LoopFrame | None]]:
        frame = self._new_loop(node, loop, scope, IterKind.OTHER)
        frame.iterated = node.iter
        self._bind_iteration(node.target, node.iter, node, scope, frame)
        return (
            [(node.iter, scope, loop), (node.target, scope, frame)]
            + [(s, scope, frame) for s in node.body]
            + [(s, scope, loop) for s in node.orelse]
        )

    def _visit_function(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, scope: Scope, loop: LoopFrame | None
    ) -> list[tuple[ast.AST, Scope, LoopFrame | None]]:
        name = getattr(node, "name", "<lambda>")
        if not isinstance(node, ast.Lambda):
            self._bind(scope, name, BindKind.NOT_ARRAY, None, node, loop)
        inner = self._new_scope(ScopeKind.FUNCTION, node, scope, name)
        if scope is self.module_scope and not isinstance(node, ast.Lambda):
            self._functions[name] = inner
        args = node.args
        outer: list[tuple[ast.AST, Scope, LoopFrame | None]] = []
        for default in list(args.defaults) + [d for d in args.kw_defaults if d is not None]:
            outer.append((default, scope, loop))
        all_args = list(args.posonlyargs) + list(args.args) + list(args.kwonlyargs)
        all_args += [a for a in (args.vararg, args.kwarg) if a is not None]
        for arg in all_args:
            inner.params.append(arg.arg)
            kind = BindKind.PARAM if arg not in (args.vararg, args.kwarg) else BindKind.NOT_ARRAY
            self._bind(inner, arg.arg, kind, arg.annotation, arg, None)
            if arg.annotation is not None:
                outer.append((arg.annotation, scope, loop))
        if isinstance(node, ast.Lambda):
            inner.returns.append(node.body)
            return outer + [(node.body, inner, None)]
        outer += [(d, scope, loop) for d in node.decorator_list]
        if node.returns is not None:
            outer.append((node.returns, scope, loop))
        return outer + [(s, inner, None) for s in node.body]

    def _visit_comprehension(
        self, node: ast.AST, scope: Scope, loop: LoopFrame | None
    ) -> list[tuple[ast.AST, Scope, LoopFrame | None]]:
        generators: list[ast.comprehension] = node.generators  # type: ignore[attr-defined]
        inner = self._new_scope(ScopeKind.COMPREHENSION, node, scope, "<comprehension>")
        frame = self._new_loop(node, loop, inner, IterKind.OTHER)
        frame.iterated = generators[0].iter
        children: list[tuple[ast.AST, Scope, LoopFrame | None]] = []
        for i, gen in enumerate(generators):
            self._bind_iteration(gen.target, gen.iter, gen, inner, frame)
            # The first iterable is evaluated once, outside the comprehension.
            children.append((gen.iter, scope if i == 0 else inner, loop if i == 0 else frame))
            children.append((gen.target, inner, frame))
            children += [(cond, inner, frame) for cond in gen.ifs]
        if isinstance(node, ast.DictComp):
            children += [(node.key, inner, frame), (node.value, inner, frame)]
        else:
            children.append((node.elt, inner, frame))  # type: ignore[attr-defined]
        return children

    # ----------------------------------------------------------- bookkeeping
    def _new_scope(self, kind: ScopeKind, node: ast.AST, parent: Scope, name: str) -> Scope:
        scope = Scope(kind, node, parent, name)
        self.scopes.append(scope)
        return scope

    def _new_loop(self, node: ast.AST, parent: LoopFrame | None, scope: Scope, kind: IterKind) -> LoopFrame:
        frame = LoopFrame(node, parent, scope, kind)
        self.loops.append(frame)
        return frame

    def _bind(
        self,
        scope: Scope,
        name: str,
        kind: BindKind,
        value: ast.expr | None,
        node: ast.AST,
        loop: LoopFrame | None,
        index: int | None = None,
        op: ast.operator | None = None,
    ) -> None:
        pos = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
        scope.bind(Binding(name, kind, value, node, pos, loop, scope, index, op))

    def _bind_target(
        self, target: ast.expr, value: ast.expr, stmt: ast.AST, scope: Scope, loop: LoopFrame | None
    ) -> None:
        if isinstance(target, ast.Name):
            self._bind(scope, target.id, BindKind.VALUE, value, target, loop)
        elif isinstance(target, (ast.Tuple, ast.List)):
            pairwise = isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts)
            for i, elt in enumerate(target.elts):
                if pairwise:
                    self._bind_target(elt, value.elts[i], stmt, scope, loop)  # type: ignore[attr-defined]
                elif isinstance(elt, ast.Name):
                    self._bind(scope, elt.id, BindKind.ELEMENT, value, elt, loop, index=i)
                else:
                    self._bind_opaque(elt, scope, loop)
        elif isinstance(target, ast.Starred):
            self._bind_opaque(target.value, scope, loop)
        elif isinstance(target, ast.Attribute):
            self._bind_attribute(target, value, scope, loop)

    def _bind_attribute(self, target: ast.Attribute, value: ast.expr, scope: Scope, loop: LoopFrame | None) -> None:
        """``self.u = np.zeros(n)`` inside a method binds ``self.u`` class-wide."""
        if not (isinstance(target.value, ast.Name) and scope.kind is ScopeKind.FUNCTION):
            return
        if not scope.params or target.value.id != scope.params[0]:
            return
        cls = scope.parent
        if cls is None or cls.kind is not ScopeKind.CLASS:
            return
        pos = (target.lineno, target.col_offset)
        binding = Binding(target.attr, BindKind.VALUE, value, target, pos, loop, scope)
        self._class_attrs.setdefault((id(cls), target.attr), []).append(binding)

    def _bind_opaque(self, target: ast.expr, scope: Scope, loop: LoopFrame | None) -> None:
        for sub in ast.walk(target):
            if isinstance(sub, ast.Name):
                self._bind(scope, sub.id, BindKind.OPAQUE, None, sub, loop)

    def _bind_iteration(
        self, target: ast.expr, iterable: ast.expr, node: ast.AST, scope: Scope, frame: LoopFrame
    ) -> None:
        if isinstance(target, ast.Name):
            self._bind(scope, target.id, BindKind.ELEMENT, iterable, target, frame)
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            # enumerate(x) / zip(a, b): bind each name to its own source.
            call = iterable if isinstance(iterable, ast.Call) else None
            fname = call.func.id if call and isinstance(call.func, ast.Name) else None
            for i, elt in enumerate(target.elts):
                source: ast.expr | None = None
                if fname == "enumerate" and call and call.args and i == 1:
                    source = call.args[0]
                elif fname == "zip" and call and i < len(call.args):
                    source = call.args[i]
                if isinstance(elt, ast.Name):
                    if fname == "enumerate" and i == 0:
                        self._bind(scope, elt.id, BindKind.NOT_ARRAY, None, elt, frame)
                    elif source is not None:
                        self._bind(scope, elt.id, BindKind.ELEMENT, source, elt, frame)
                    else:
                        self._bind(scope, elt.id, BindKind.ELEMENT, iterable, elt, frame, index=i)
                else:
                    self._bind_iteration(elt, source, node, scope, frame) if source is not None else self._bind_opaque(elt, scope, frame)
            return
        self._bind_opaque(target, scope, frame)

    # ------------------------------------------------------------- evidence
    def _note_subscript_evidence(self, node: ast.Subscript, scope: Scope) -> None:
        if isinstance(node.value, ast.Name):
            index = node.slice
            if isinstance(index, ast.Tuple) and len(index.elts) >= 2:
                scope.function_like().array_evidence.setdefault(node.value.id, node)

    def _note_attribute_evidence(self, node: ast.Attribute, scope: Scope) -> None:
        if node.attr in SPARSE_ONLY_ATTRIBUTES:
            base = _chain_root(node.value)  # S[:, [i]].toarray(), P.conjugate().multiply(Q)
            if isinstance(base, ast.Name):
                scope.function_like().array_evidence.setdefault(_SPARSE_KEY + base.id, node)
            return
        if isinstance(node.value, ast.Name) and node.attr in ("ndim", "dtype", "shape", "T"):
            if node.attr == "shape" and "pandas" in self.imports.imported_roots():
                return  # DataFrames have .shape too
            scope.function_like().array_evidence.setdefault(node.value.id, node)

    def _note_call_evidence(self, node: ast.Call, scope: Scope) -> None:
        if node.args and isinstance(node.args[0], ast.Name) and _callee_name(node.func) in SPARSE_PREDICATES:
            # sparse.issparse(x): x may be a sparse matrix (see _has_array_evidence)
            scope.function_like().array_evidence.setdefault(_SPARSE_KEY + node.args[0].id, node)
            return
        if node.args and isinstance(node.args[0], ast.Name) and isinstance(node.func, ast.Attribute):
            # Resolved later (imports may follow); keep the candidate.
            scope.function_like().array_evidence.setdefault("\0call:" + node.args[0].id, node)

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
        current: ast.AST | None = node
        while current is not None and not isinstance(current, ast.stmt):
            current = self._parent.get(current)
        return current  # type: ignore[return-value]

    def scope_of(self, node: ast.AST) -> Scope:
        return self._context.get(node, (self.module_scope, None))[0]

    def loop_of(self, node: ast.AST) -> LoopFrame | None:
        """The innermost loop (of the same function) that repeats ``node``."""
        return self._context.get(node, (self.module_scope, None))[1]

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
            if in_body and _isinstance_of_non_array(ancestor.test, name_node.id):  # type: ignore[attr-defined]
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

    def line_text(self, lineno: int) -> str:
        if 1 <= lineno <= len(self.lines):
            return self.lines[lineno - 1].strip()
        return ""

    # -------------------------------------------------------- name resolution
    @property
    def device_root(self) -> str | None:
        return self.imports.device_root

    def uses_numpy(self) -> bool:
        return self.imports.device_root is not None

    def qualname(self, expr: ast.expr) -> str | None:
        """The qualified name ``expr`` stands for, if it is an imported name
        that is not rebound locally (``np`` shadowed by a variable is refused).
        Memoised per node: several rules ask about the same calls."""
        try:
            return self._qualnames[expr]
        except KeyError:
            name = self._qualnames[expr] = self._resolve_qualname(expr)
            return name

    def _resolve_qualname(self, expr: ast.expr) -> str | None:
        name = self.imports.resolve(expr)
        if name is None:
            return None  # not an imported name (the common case): no scope lookup
        base = expr
        while isinstance(base, ast.Attribute):
            base = base.value
        if isinstance(base, ast.Name):
            scope = self.lookup(base)
            if scope is not None and any(b.kind is not BindKind.NOT_ARRAY for b in scope.bindings.get(base.id, ())):
                return None
        return name

    def array_api(self, expr: ast.expr) -> str | None:
        """``"zeros"``/``"linalg.svd"`` when ``expr`` names a device-array API.

        Both ``numpy`` (when it is the module being ported) and ``cupynumeric``
        count; the host alias beside cupynumeric does not.
        """
        name = self.qualname(expr)
        root = self.device_root
        if name is None or root is None:
            return None
        head, _, tail = name.partition(".")
        if head == root and tail:
            return tail
        return None

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
        return self.scope_of(name_node).lookup_scope(name_node.id)

    def reaching_bindings(self, name_node: ast.Name) -> list[Binding]:
        """The bindings of a name that may reach this use of it (none for a
        builtin or an unbound name); see :meth:`_reaching`."""
        scope = self.lookup(name_node)
        return self._reaching(scope, name_node) if scope is not None else []

    # ------------------------------------------------------------ array kinds
    def kind(self, expr: ast.expr | None) -> Kind:
        """What ``expr`` evaluates to (see :class:`Kind`)."""
        if expr is None:
            return Kind.UNKNOWN
        method = getattr(self, "_kind_" + type(expr).__name__, None)
        if method is None:
            return Kind.UNKNOWN
        try:
            return method(expr)
        except RecursionError:
            # A pathologically deep expression: know nothing rather than fail.
            return Kind.UNKNOWN

    def is_array(self, expr: ast.expr | None) -> bool:
        """True when ``expr`` is a device array (cuPyNumeric will distribute it)."""
        return self.kind(expr) is Kind.DEVICE

    def _kind_Constant(self, expr: ast.Constant) -> Kind:
        if isinstance(expr.value, (bool, int, float, complex)):
            return Kind.SCALAR
        if expr.value is None or expr.value is Ellipsis:
            return Kind.UNKNOWN
        return Kind.NOT

    def _kind_not(self, expr: ast.expr) -> Kind:
        return Kind.NOT

    _kind_List = _kind_Tuple = _kind_Dict = _kind_Set = _kind_not
    _kind_ListComp = _kind_SetComp = _kind_DictComp = _kind_GeneratorExp = _kind_not
    _kind_JoinedStr = _kind_Lambda = _kind_not

    def _kind_NamedExpr(self, expr: ast.NamedExpr) -> Kind:
        return self.kind(expr.value)

    def _kind_Starred(self, expr: ast.Starred) -> Kind:
        return Kind.UNKNOWN

    def _kind_BinOp(self, expr: ast.BinOp) -> Kind:
        return _combine_operands([self.kind(expr.left), self.kind(expr.right)])

    def _kind_UnaryOp(self, expr: ast.UnaryOp) -> Kind:
        if isinstance(expr.op, ast.Not):
            return Kind.NOT
        return self.kind(expr.operand)

    def _kind_Compare(self, expr: ast.Compare) -> Kind:
        if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in expr.ops):
            return Kind.NOT
        kinds = [self.kind(expr.left)] + [self.kind(c) for c in expr.comparators]
        combined = _combine_operands(kinds)
        return Kind.NOT if combined is Kind.SCALAR else combined

    def _kind_BoolOp(self, expr: ast.BoolOp) -> Kind:
        return Kind.UNKNOWN

    def _kind_IfExp(self, expr: ast.IfExp) -> Kind:
        a, b = self.kind(expr.body), self.kind(expr.orelse)
        return a if a is b else Kind.UNKNOWN

    def _kind_Attribute(self, expr: ast.Attribute) -> Kind:
        qual = self.qualname(expr)
        if qual is not None:
            tail = qual.partition(".")[2]
            if tail in NON_ARRAY_ATTRIBUTES or tail.rpartition(".")[2] in NON_ARRAY_ATTRIBUTES:
                return Kind.SCALAR if tail in ("pi", "e", "inf", "nan", "euler_gamma") else Kind.NOT
            return Kind.NOT  # a module, function or class
        if expr.attr in ARRAY_METADATA:
            return Kind.NOT
        if isinstance(expr.value, ast.Name):
            attr_kind = self._self_attribute_kind(expr)
            if attr_kind is not None:
                return attr_kind
        base = self.kind(expr.value)
        if base in (Kind.DEVICE, Kind.HOST, Kind.CUPY) and expr.attr in ARRAY_VALUE_ATTRIBUTES:
            return base
        return Kind.UNKNOWN

    def _kind_Subscript(self, expr: ast.Subscript) -> Kind:
        value = expr.value
        qual = self.qualname(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
        if qual is not None:
            tail = qual.partition(".")[2]
            head = qual.partition(".")[0]
            if tail in INDEX_BUILDERS:
                if tail in ("s_", "index_exp"):
                    return Kind.NOT
                if head == self.device_root:
                    return Kind.SEQ if tail == "ogrid" else Kind.DEVICE
                return Kind.HOST if head == "numpy" else Kind.UNKNOWN
            return Kind.UNKNOWN  # typing generics and the like
        base = self.kind(value)
        if base in (Kind.DEVICE, Kind.HOST, Kind.CUPY):
            return base
        if base is Kind.SEQ:
            return Kind.DEVICE if not isinstance(expr.slice, ast.Slice) else Kind.SEQ
        return Kind.UNKNOWN

    def _kind_Call(self, expr: ast.Call) -> Kind:
        func = expr.func
        qual = self.qualname(func)
        if qual is not None:
            return self._library_call_kind(qual, expr)
        if isinstance(func, ast.Name):
            if func.id in NON_ARRAY_BUILTINS and self.lookup(func) is None:
                return Kind.NOT
            if func.id == "abs" and expr.args:
                return self.kind(expr.args[0])
            return self._user_function_kind(func)
        if isinstance(func, ast.Attribute):
            receiver = self.kind(func.value)
            if receiver in (Kind.DEVICE, Kind.HOST, Kind.CUPY):
                if receiver is Kind.CUPY and func.attr == "get":
                    return Kind.HOST  # CuPy's copy to a host NumPy array
                if func.attr in NON_ARRAY_METHODS:
                    return Kind.NOT
                if func.attr in SEQUENCE_METHODS:
                    return Kind.SEQ
                return receiver
            if receiver is Kind.GENERATOR:
                has_args = bool(expr.args or expr.keywords)
                return Kind.DEVICE if func.attr in GENERATOR_DRAWS and has_args else Kind.UNKNOWN
            if receiver is Kind.NOT and func.attr in ("copy", "split", "join", "strip", "format", "keys", "values", "items"):
                return Kind.NOT
        return Kind.UNKNOWN

    def _library_call_kind(self, qual: str, call: ast.Call) -> Kind:
        head, _, tail = qual.partition(".")
        device = self.device_root
        if head in DEVICE_ROOTS:
            if tail in GENERATOR_FUNCTIONS:
                # The host alias's generator draws host arrays; what they are
                # is not worth guessing (its draws are not device arrays).
                return Kind.GENERATOR if head == device else Kind.UNKNOWN
            last = tail.rpartition(".")[2]
            if _is_internal_api(tail):
                return Kind.UNKNOWN  # numpy's private helpers return anything
            if tail in NON_ARRAY_FUNCTIONS or last in SCALAR_TYPES:
                return Kind.NOT
            if tail in SEQUENCE_FUNCTIONS:
                return Kind.SEQ
            if tail.startswith("random.") and not (call.args or call.keywords):
                return Kind.UNKNOWN  # np.random.rand() draws one float
            if tail == "where" and len(call.args) == 1:
                return Kind.SEQ
            if tail == "unique" and any(k.arg and k.arg.startswith("return_") for k in call.keywords):
                return Kind.SEQ
            if head == device:
                return Kind.DEVICE
            if head == "numpy" and device == "cupynumeric":
                return Kind.HOST
            return Kind.UNKNOWN
        if head == "cupy":
            return Kind.HOST if tail == "asnumpy" else Kind.CUPY
        if head == "scipy" and tail.startswith("sparse.") and tail.count(".") == 1:
            # csr_matrix(...), coo_array(...), sparse.eye(n): a sparse matrix, not an array
            last = tail[len("sparse."):]
            if last not in SPARSE_MODULE_NON_MATRIX and not last.startswith("isspmatrix"):
                return Kind.NOT
        return Kind.UNKNOWN

    def _user_function_kind(self, func: ast.Name) -> Kind:
        scope = self._functions.get(func.id)
        if scope is None or self.lookup(func) is not self.module_scope:
            return Kind.UNKNOWN
        key = id(scope)
        if key in self._in_progress:
            return Kind.UNKNOWN
        self._in_progress.add(key)
        try:
            kinds = [self.kind(r) for r in scope.returns]
        finally:
            self._in_progress.discard(key)
        result = join(kinds) if kinds else Kind.NOT
        return result if result in (Kind.DEVICE, Kind.HOST, Kind.CUPY) else Kind.UNKNOWN

    def _self_attribute_kind(self, expr: ast.Attribute) -> Kind | None:
        """Kind of ``self.x`` from every ``self.x = ...`` in the class."""
        scope = self.scope_of(expr).function_like()
        if scope.kind is not ScopeKind.FUNCTION or not scope.params:
            return None
        if not isinstance(expr.value, ast.Name) or expr.value.id != scope.params[0]:
            return None
        cls = scope.parent
        if cls is None or cls.kind is not ScopeKind.CLASS:
            return None
        bindings = self._class_attrs.get((id(cls), expr.attr))
        if not bindings:
            return None
        return join([self._binding_kind_of(b) for b in bindings])

    def _kind_Name(self, expr: ast.Name) -> Kind:
        known = self._name_kinds.get(expr)
        if known is not None:
            return known
        # Only an answer reached with no binding half-computed is final (one
        # inside a cycle sees that binding as UNKNOWN for the moment).
        final = not self._in_progress
        scope = self.lookup(expr)
        if scope is None:
            result = Kind.UNKNOWN
        else:
            bindings = self._reaching(scope, expr)
            result = join([self._binding_kind_of(b) for b in bindings]) if bindings else Kind.UNKNOWN
        if final:
            self._name_kinds[expr] = result
        return result

    def _reaching(self, scope: Scope, use: ast.Name) -> list[Binding]:
        """Bindings of ``use.id`` in ``scope`` that may reach ``use``.

        The last binding before the use, plus bindings later in a loop that
        encloses the use (they reach it on the next iteration). Uses from a
        nested scope see every binding.
        """
        key = (id(scope), use.id)
        cached = self._sorted_bindings.get(key)
        if cached is None:
            ordered = sorted(scope.bindings[use.id], key=lambda b: b.pos)
            cached = (ordered, [b.pos for b in ordered])
            self._sorted_bindings[key] = cached
        ordered, positions = cached
        use_scope = self.scope_of(use)
        if use_scope.function_like() is not scope.function_like() or scope.kind is ScopeKind.CLASS:
            return ordered
        pos = (use.lineno, use.col_offset)
        i = bisect.bisect_left(positions, pos)
        before = ordered[:i]
        # A binding on the same statement as the use (x = x + 1) is not before
        # it: the target is bound after the value is evaluated.
        statement = self.statement_of(use)
        same_statement: list[Binding] = []
        while before and self.statement_of(before[-1].node) is statement:
            same_statement.append(before.pop())
        if not before:
            return ordered
        reaching = self._straight_line_reaching(before, use)
        loop = self.loop_of(use)
        if loop is not None:
            outer = loop.outermost()
            later = same_statement + ordered[i:]
            reaching += [b for b in later if outer.contains(b.loop) or b.loop is outer]
            # bindings before the use but inside the same loop also reach it
            reaching += [b for b in before[:-1] if b.loop is not None and outer.contains(b.loop)]
        return reaching

    def _straight_line_reaching(self, before: list[Binding], use: ast.Name) -> list[Binding]:
        """The last binding before ``use``, and the ones before it while the
        last is conditional: ``idx = range(n)`` in an ``if`` and
        ``idx = np.arange(n)`` in its ``else`` both reach a use after the
        ``if``. Stops at a binding that runs whenever the use does, or once
        both branches of one ``if`` are covered."""
        reaching = [before[-1]]
        use_chain = {id(a) for a in self.ancestors(use)}
        covered: set[tuple[int, str]] = set()
        blocks: set[tuple[int, int]] = set()  # straight-line blocks already represented
        for binding in reversed(before):
            branch = self._conditional_branch(binding, use_chain)
            if branch is None:
                # runs whenever the use runs: it reaches where the branches
                # after it did not run, and every binding before it is dead
                if binding is not reaching[0]:
                    reaching.append(binding)
                break
            block = self._block_key(binding)
            if block in blocks:
                continue  # a later binding of the same block replaces it
            blocks.add(block)
            if binding is not reaching[0]:
                reaching.append(binding)
            if_node, side = branch
            covered.add((if_node, side))
            if (if_node, "body") in covered and (if_node, "orelse") in covered:
                break
            if len(reaching) >= _MAX_BRANCH_BINDINGS:
                break
        return reaching

    def _block_key(self, binding: Binding) -> tuple[int, int]:
        """(parent statement, statement list) of the statement that binds."""
        statement = self.statement_of(binding.node) or binding.node
        parent = self.parent(statement)
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and any(s is statement for s in block):
                return id(parent), id(block)
        return id(parent), id(statement)

    def _conditional_branch(self, binding: Binding, use_chain: set[int]) -> tuple[int, str] | None:
        """(id of the ``if``, "body"/"orelse") when ``binding`` sits in a branch
        that does not contain the use; (id of the statement, "other") for
        other conditional blocks (loops, ``try``); None when it is not
        conditional relative to the use."""
        child: ast.AST = binding.node
        for ancestor in self.ancestors(binding.node):
            if id(ancestor) in use_chain:
                return None
            if isinstance(ancestor, ast.If):
                side = "body" if any(s is child for s in ancestor.body) else "orelse" if any(s is child for s in ancestor.orelse) else None
                if side is not None:
                    return id(ancestor), side
            elif isinstance(ancestor, _CONDITIONAL_BLOCKS):
                if child is not getattr(ancestor, "target", None):
                    return id(ancestor), "other"
            child = ancestor
        return None

    def _binding_kind_of(self, binding: Binding) -> Kind:
        key = id(binding)
        cached = self._binding_kind.get(key)
        if cached is not None:
            return cached
        if key in self._in_progress:
            return Kind.UNKNOWN
        self._in_progress.add(key)
        try:
            result = self._compute_binding_kind(binding)
        finally:
            self._in_progress.discard(key)
        self._binding_kind[key] = result
        return result

    def _compute_binding_kind(self, b: Binding) -> Kind:
        if b.kind is BindKind.NOT_ARRAY:
            return Kind.NOT
        if b.kind is BindKind.OPAQUE:
            return Kind.UNKNOWN
        if b.kind is BindKind.VALUE:
            kind = self.kind(b.value)
            # `A = A.toarray()` is dense whatever else the name held before
            densified = isinstance(b.value, ast.Call) and _callee_name(b.value.func) in _DENSIFY
            if kind is Kind.UNKNOWN and isinstance(b.value, ast.Call) and self._has_array_evidence(b.scope.function_like(), b.name, densified):
                return Kind.DEVICE  # x = load(...) later used as x[i, j] / x.ndim
            return kind
        if b.kind is BindKind.AUG:
            value = self.kind(b.value)
            if value.is_array:
                return value
            # `u *= 0.5` updates the array in place: u stays what it was.
            prior = self._kind_Name(b.node) if isinstance(b.node, ast.Name) else Kind.UNKNOWN
            if prior.is_array:
                return prior
            if value is Kind.SCALAR and self._prior_is_scalar(b):
                return Kind.SCALAR  # `it = 0` ... `it += 1`: a Python counter
            return Kind.UNKNOWN
        if b.kind is BindKind.ELEMENT:
            return self._element_kind(b)
        if b.kind in (BindKind.PARAM, BindKind.ANNOTATION):
            annotated = _annotation_kind(b.value)
            if annotated is not None:
                return Kind.DEVICE if annotated else Kind.NOT
            if b.kind is BindKind.PARAM and self._has_array_evidence(b.scope, b.name) and not self._is_receiver_param(b):
                return Kind.DEVICE
            return Kind.UNKNOWN
        return Kind.UNKNOWN

    def _prior_is_scalar(self, b: Binding) -> bool:
        """Every other binding reaching an augmented assignment holds a Python number."""
        if not isinstance(b.node, ast.Name):
            return False
        scope = self.lookup(b.node)
        others = [o for o in self._reaching(scope, b.node) if o is not b] if scope is not None else []
        return bool(others) and all(self._binding_kind_of(o) is Kind.SCALAR for o in others)

    def _element_kind(self, b: Binding) -> Kind:
        """Kind of one item of iterating or unpacking ``b.value``."""
        source = b.value
        if source is None:
            return Kind.UNKNOWN
        if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and source.func.id in ("range", "len"):
            return Kind.SCALAR
        if isinstance(source, ast.Attribute) and source.attr in ARRAY_METADATA:
            return Kind.SCALAR  # n, m = a.shape
        kind = self.kind(source)
        if kind in (Kind.DEVICE, Kind.HOST, Kind.CUPY):
            return kind  # rows of an array, or items unpacked from it
        if kind is Kind.SEQ:
            return Kind.DEVICE if self.device_root else Kind.UNKNOWN
        return Kind.UNKNOWN

    def _has_array_evidence(self, scope: Scope, name: str, dense: bool = False) -> bool:
        if not dense and _SPARSE_KEY + name in scope.array_evidence:
            return False  # .shape, .T and a[i, j] work on a sparse matrix too
        if name in scope.array_evidence:
            return True
        call = scope.array_evidence.get("\0call:" + name)
        api = self.call_api(call) if call is not None else None
        # np.zeros(shape), np.arange(n), np.save(path, a): the first argument
        # is a shape, a number or a file, not evidence of an array; and
        # np.asarray(x) converts x because it may not be an array yet.
        return (
            api is not None
            and api not in NOT_ARRAY_FIRST_ARGUMENT
            and api not in CONVERSION_FUNCTIONS
            and not (api.startswith("random.") and api not in ARRAY_RANDOM_FUNCTIONS)
        )

    def _is_receiver_param(self, b: Binding) -> bool:
        """``self``/``cls`` of a method: ``self.shape`` is an attribute of the
        object, not evidence that the object is an array."""
        function = b.scope.node
        parent = b.scope.parent
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or parent is None:
            return False
        if parent.kind is not ScopeKind.CLASS or not b.scope.params or b.scope.params[0] != b.name:
            return False
        return not any(_callee_name(d) == "staticmethod" for d in function.decorator_list)

    # --------------------------------------------------------------- loops
    def _classify_loops(self) -> None:
        for frame in self.loops:
            if frame.iter_kind is IterKind.WHILE:
                continue
            if isinstance(frame.node, (ast.For, ast.AsyncFor)):
                targets = [(frame.node.target, frame.node.iter)]
            else:
                targets = [(g.target, g.iter) for g in frame.node.generators]  # type: ignore[attr-defined]
            kinds: list[IterKind] = []
            index_vars: set[str] = set()
            element_vars: set[str] = set()
            for target, iterable in targets:
                kind, idx, elems = self._classify_iteration(target, iterable)
                kinds.append(kind)
                index_vars |= idx
                element_vars |= elems
            frame.index_vars = frozenset(index_vars)
            frame.element_vars = frozenset(element_vars)
            frame.iter_kind = _strongest(kinds)

    def _classify_iteration(self, target: ast.expr, iterable: ast.expr) -> tuple[IterKind, set[str], set[str]]:
        names = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
            if len(iterable.elts) <= _SMALL_CONSTANT_LIMIT:
                return IterKind.SMALL_CONSTANT, set(), set()
            return IterKind.OTHER, set(), set()
        if isinstance(iterable, ast.Call):
            func = iterable.func
            fname = func.id if isinstance(func, ast.Name) and self.lookup(func) is None else None
            qual = self.qualname(func) or ""
            if fname == "range":
                if self._is_small_range(iterable):
                    return IterKind.SMALL_CONSTANT, names, set()
                return IterKind.RANGE, names, set()
            if qual == "itertools.product" and iterable.args and all(self._is_range_call(a) for a in iterable.args):
                return IterKind.INDEX_PRODUCT, names, set()
            if qual.endswith(".ndindex") and qual.partition(".")[0] in DEVICE_ROOTS:
                return IterKind.INDEX_PRODUCT, names, set()
            if fname == "enumerate" and iterable.args:
                inner_kind = self.kind(iterable.args[0])
                first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else None
                idx = {first.id} if isinstance(first, ast.Name) else set()
                if inner_kind is Kind.DEVICE or self._zips_device_array(iterable.args[0]):
                    return IterKind.ARRAY, idx, names - idx
                if isinstance(iterable.args[0], (ast.List, ast.Tuple)) and len(iterable.args[0].elts) <= _SMALL_CONSTANT_LIMIT:  # type: ignore[attr-defined]
                    return IterKind.SMALL_CONSTANT, set(), set()
                return IterKind.OTHER, set(), set()
            if fname == "zip" and self._zips_device_array(iterable):
                return IterKind.ARRAY, set(), names
        if self.kind(iterable) is Kind.DEVICE:
            return IterKind.ARRAY, set(), names
        return IterKind.OTHER, set(), set()

    def _zips_device_array(self, expr: ast.expr) -> bool:
        """``zip(a, b)`` (the builtin) with a device array among its arguments."""
        return (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Name)
            and expr.func.id == "zip"
            and self.lookup(expr.func) is None
            and any(self.kind(a) is Kind.DEVICE for a in expr.args)
        )

    def _is_range_call(self, expr: ast.expr) -> bool:
        return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "range"

    def _is_small_range(self, call: ast.Call) -> bool:
        """range(3), range(1, 4), range(a.ndim), range(len(a.shape))."""
        args = call.args
        if not args or len(args) > 3:
            return False
        stop = args[0] if len(args) == 1 else args[1]
        start = args[0] if len(args) >= 2 else None
        if isinstance(stop, ast.Attribute) and stop.attr == "ndim":
            return True
        if (
            isinstance(stop, ast.Call)
            and isinstance(stop.func, ast.Name)
            and stop.func.id == "len"
            and stop.args
            and isinstance(stop.args[0], ast.Attribute)
            and stop.args[0].attr == "shape"
        ):
            return True
        stop_value = self.const_int(stop)
        start_value = self.const_int(start) if start is not None else 0
        if stop_value is None or start_value is None:
            return False
        return stop_value - start_value <= _SMALL_CONSTANT_LIMIT

    # ---------------------------------------------------------- constants
    def const_int(self, expr: ast.expr | None, _depth: int = 0) -> int | None:
        """The integer value of a literal, or of a module constant bound once."""
        if expr is None or _depth > 8:
            return None
        if isinstance(expr, ast.Constant) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
            return expr.value
        if isinstance(expr, ast.Constant) and isinstance(expr.value, float) and expr.value.is_integer():
            return int(expr.value)
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
            inner = self.const_int(expr.operand, _depth + 1)
            return -inner if inner is not None else None
        if isinstance(expr, ast.BinOp):
            left = self.const_int(expr.left, _depth + 1)
            right = self.const_int(expr.right, _depth + 1)
            if left is None or right is None:
                return None
            op = type(expr.op)
            try:
                if op is ast.Add:
                    return left + right
                if op is ast.Sub:
                    return left - right
                if op is ast.Mult:
                    return left * right
                if op is ast.FloorDiv and right:
                    return left // right
                if op is ast.Pow and 0 <= right <= 64:
                    return left**right
            except (OverflowError, ValueError):
                return None
            return None
        if isinstance(expr, ast.Name):
            scope = self.lookup(expr)
            if scope is None:
                return None
            bindings = scope.bindings.get(expr.id, [])
            if len(bindings) == 1 and bindings[0].kind is BindKind.VALUE:
                return self.const_int(bindings[0].value, _depth + 1)
        return None


# Statements whose blocks may not run whenever the code after them does.
_CONDITIONAL_BLOCKS: tuple[type, ...] = (ast.For, ast.AsyncFor, ast.While, ast.Try, ast.ExceptHandler, ast.Match) + (
    (ast.TryStar,) if hasattr(ast, "TryStar") else ()
)
_MAX_BRANCH_BINDINGS = 4  # bindings of conditional branches followed back from a use
_DENSIFY = frozenset({"toarray", "todense"})  # sparse methods that return a dense array
_SPARSE_KEY = "\0sparse:"  # array_evidence key: the name may be a sparse matrix


def _chain_root(expr: ast.expr) -> ast.expr:
    """``S`` in ``S[:, [i]]`` or ``S.conjugate()``: the value a chain of
    subscripts and method calls starts from."""
    for _ in range(8):
        if isinstance(expr, ast.Subscript):
            expr = expr.value
        elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
            expr = expr.func.value
        else:
            break
    return expr


def _callee_name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _combine_operands(kinds: list[Kind]) -> Kind:
    for array_kind in (Kind.DEVICE, Kind.CUPY, Kind.HOST):
        if array_kind in kinds:
            return array_kind
    if all(k is Kind.SCALAR for k in kinds):
        return Kind.SCALAR
    if Kind.NOT in kinds and Kind.UNKNOWN not in kinds:
        return Kind.NOT
    return Kind.UNKNOWN


_NON_ARRAY_TYPE_NAMES = frozenset({"list", "tuple", "set", "frozenset", "dict", "str", "bytes", "int", "float", "complex", "bool", "range"})


def _isinstance_of_non_array(test: ast.expr, name: str) -> bool:
    """``isinstance(name, list)`` / ``isinstance(name, (list, tuple))``."""
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"):
        return False
    if len(test.args) != 2 or not (isinstance(test.args[0], ast.Name) and test.args[0].id == name):
        return False
    types = test.args[1]
    names = types.elts if isinstance(types, ast.Tuple) else [types]
    return all(isinstance(t, ast.Name) and t.id in _NON_ARRAY_TYPE_NAMES for t in names)


# numpy namespaces that are tooling, not array APIs.
_TOOLING_NAMESPACES = frozenset({"distutils", "testing", "typing", "f2py", "ctypeslib", "compat", "version", "exceptions", "dtypes", "core", "lib"})


def _is_internal_api(tail: str) -> bool:
    """``core.numeric.normalize_axis_tuple``, ``_utils.x``, ``testing.y``: not public array API.

    ``lib.stride_tricks`` and friends are public, but what they return is not
    worth guessing; unknown keeps the rules quiet.
    """
    parts = tail.split(".")
    return any(part.startswith("_") for part in parts) or (len(parts) > 1 and parts[0] in _TOOLING_NAMESPACES)


def _annotation_kind(annotation: ast.expr | None) -> bool | None:
    """True for an array annotation, False for a clearly non-array one."""
    if annotation is None:
        return None
    node = annotation
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
        if any(word in text for word in ARRAY_ANNOTATIONS):
            return True
        return None
    if isinstance(node, ast.Subscript):
        node = node.value
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    if name in ("ndarray", "NDArray"):
        return True
    if name in NOT_ARRAY_ANNOTATIONS:
        return False
    return None


_ITER_STRENGTH = {
    IterKind.ARRAY: 5,
    IterKind.RANGE: 4,
    IterKind.INDEX_PRODUCT: 4,
    IterKind.OTHER: 2,
    IterKind.SMALL_CONSTANT: 1,
    IterKind.WHILE: 0,
}


def _strongest(kinds: list[IterKind]) -> IterKind:
    return max(kinds, key=lambda k: _ITER_STRENGTH[k]) if kinds else IterKind.OTHER
