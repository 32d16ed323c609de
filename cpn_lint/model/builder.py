"""The model's single walk over one file's AST.

One iterative pre-order walk records, for every node, its parent, scope and
innermost loop; indexes nodes by type; and collects imports, bindings,
parameter evidence, returns and loop frames into the :class:`FileModel`
tables. Everything else the model knows is derived lazily from these tables.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from .numpy_api import SPARSE_ONLY_ATTRIBUTES, SPARSE_PREDICATES
from .scopes import Binding, BindKind, IterKind, LoopFrame, Scope, ScopeKind
from .syntax import callee_name, chain_root

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

FUNCTION_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
COMPREHENSION_TYPES = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)

# Child field names per node type, reversed (the walk pushes children on a
# stack). Load/Store contexts and operators are shared singletons, not places
# in the code: the walk leaves them out.
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
_SINGLETON_FIELDS = frozenset({"ctx", "op", "ops"})

# Node types without child nodes (their contexts are skipped anyway) and
# without a visitor: the walk records them and moves on.
_LEAF_TYPES = frozenset({ast.Name, ast.Constant})

Child = tuple[ast.AST, Scope, "LoopFrame | None"]

# Array methods: evidence that the receiver is an array, unless it is also
# used as a container or a namespace (d.copy(), xp.reshape(a, s), xp.sum(a)).
_ARRAY_METHODS = frozenset({"dot", "reshape", "ravel", "flatten", "sum", "copy"})
# Methods of lists, dicts and sets that arrays do not have.
_CONTAINER_METHODS = frozenset({
    "append", "extend", "insert", "pop", "remove", "items", "keys", "values", "get", "update",
    "setdefault", "popitem", "add", "discard", "index", "count",
})
# What an array namespace has and an array does not (xp.asarray, xp.float64).
_NAMESPACE_ATTRIBUTES = frozenset({
    "asarray", "array", "zeros", "ones", "empty", "full", "arange", "linspace", "eye", "concatenate",
    "stack", "zeros_like", "ones_like", "empty_like", "full_like", "float64", "float32", "int64",
    "int32", "complex128", "newaxis", "pi", "nan", "inf", "linalg", "fft", "random", "finfo", "iinfo",
    "isnan", "isfinite", "sqrt", "exp", "log", "sin", "cos", "where", "abs", "asnumpy",
})


def _child_fields(node_type: type) -> tuple[str, ...]:
    names = tuple(name for name in reversed(node_type._fields) if name not in _SINGLETON_FIELDS)  # type: ignore[attr-defined]
    _CHILD_FIELDS[node_type] = names
    return names


class ModelBuilder:
    """Fills a :class:`FileModel`'s tables in one walk."""

    def __init__(self, model: "FileModel") -> None:
        self.model = model

    def build(self) -> None:
        """One iterative pre-order walk (children in field order, so every
        per-type index is in source order). The hot loop avoids
        ``ast.iter_child_nodes`` and per-node method calls: only node types
        that bind names, open scopes or loops, or carry evidence are visited."""
        model = self.model
        visitors = self._visitors()
        by_type = model._by_type
        parent_of = model._parent
        context = model._context
        fields_of = _CHILD_FIELDS
        node_class = ast.AST
        leaves = _LEAF_TYPES
        root_context = (model.module_scope, None)
        stack: list[tuple[ast.AST, ast.AST | None, tuple[Scope, LoopFrame | None]]] = [(model.tree, None, root_context)]
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
            if node_type in leaves:
                continue  # names and constants: no child nodes, nothing to record
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
            ast.BinOp: self._visit_binop,
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
        for function_type in FUNCTION_TYPES:
            visitors[function_type] = self._visit_function
        for comprehension_type in COMPREHENSION_TYPES:
            visitors[comprehension_type] = self._visit_comprehension
        return visitors

    # ------------------------------------------------------------- evidence
    def _visit_subscript(self, node: ast.Subscript, scope: Scope, loop: LoopFrame | None) -> None:
        held = _evidence_holder(node.value, scope)
        if held is not None:
            index = node.slice
            if isinstance(index, ast.Tuple) and len(index.elts) >= 2:
                held[0].array_evidence.setdefault(held[1], node)
            elif isinstance(index, ast.Constant) and isinstance(index.value, str):
                held[0].non_array_evidence.setdefault(held[1], node)  # d["key"]

    def _visit_attribute(self, node: ast.Attribute, scope: Scope, loop: LoopFrame | None) -> None:
        if node.attr in SPARSE_ONLY_ATTRIBUTES:
            base = chain_root(node.value)  # S[:, [i]].toarray(), P.conjugate().multiply(Q)
            if isinstance(base, ast.Name):
                scope.function_like().sparse_evidence.setdefault(base.id, node)
            return
        if node.attr in _NAMESPACE_ATTRIBUTES:
            held = _evidence_holder(node.value, scope)
            if held is not None:
                held[0].non_array_evidence.setdefault(held[1], node)
            return
        if node.attr in ("ndim", "dtype", "shape", "T", "flat"):
            held = _evidence_holder(node.value, scope)
            if held is None:
                return
            if node.attr == "shape" and "pandas" in self.model.imports.imported_roots():
                return  # DataFrames have .shape too
            held[0].array_evidence.setdefault(held[1], node)

    def _visit_binop(self, node: ast.BinOp, scope: Scope, loop: LoopFrame | None) -> None:
        if isinstance(node.op, ast.MatMult):  # a @ b: both are arrays
            for operand, table in ((node.left, "array_evidence"), (node.right, "partner_evidence")):
                held = _evidence_holder(operand, scope)
                if held is not None:
                    getattr(held[0], table).setdefault(held[1], node)
        elif isinstance(node.op, _SLICE_ONLY_ARRAY_OPS):
            # x[1:] - x[:-1], w[1:] / 2.0: a list, tuple or string slice
            # raises TypeError there; only an array takes it (a Series too)
            sliced = _sliced_operands(node)
            if sliced and "pandas" not in self.model.imports.imported_roots():
                for operand in sliced:
                    held = _evidence_holder(operand.value, scope)
                    if held is not None:
                        held[0].array_evidence.setdefault(held[1], node)

    def _visit_call(self, node: ast.Call, scope: Scope, loop: LoopFrame | None) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            held = _evidence_holder(func.value, scope)
            if held is not None:
                method = func.attr
                if method in _ARRAY_METHODS:
                    held[0].method_evidence.setdefault(held[1], node)
                    argument = _evidence_holder(node.args[0], scope) if method == "dot" and node.args else None
                    if argument is not None:
                        argument[0].partner_evidence.setdefault(argument[1], node)  # a.dot(x): x too
                elif method in _CONTAINER_METHODS:
                    held[0].non_array_evidence.setdefault(held[1], node)
        for position, argument in enumerate(node.args[:2]):
            held = _evidence_holder(argument, scope)
            if held is None:
                continue
            owner, name = held
            if position == 0 and isinstance(argument, ast.Name) and callee_name(func) in SPARSE_PREDICATES:
                # sparse.issparse(x): x may be a sparse matrix
                owner.sparse_evidence.setdefault(name, node)
            elif isinstance(func, ast.Attribute):
                # Resolved later (imports may follow); keep the candidates.
                if position == 0 and isinstance(argument, ast.Name):
                    owner.first_argument_of.setdefault(name, node)
                owner.array_arguments.setdefault(name, []).append((node, position))

    # ------------------------------------------------------------- bindings
    def _visit_assign(self, node: ast.Assign, scope: Scope, loop: LoopFrame | None) -> None:
        for target in node.targets:
            self._bind_target(target, node.value, scope, loop)

    def _visit_ann_assign(self, node: ast.AnnAssign, scope: Scope, loop: LoopFrame | None) -> None:
        target = node.target
        if node.value is not None:
            self._bind_target(target, node.value, scope, loop)
        elif isinstance(target, ast.Name):
            self._bind(scope, target.id, BindKind.ANNOTATION, node.annotation, target, loop)

    def _visit_aug_assign(self, node: ast.AugAssign, scope: Scope, loop: LoopFrame | None) -> None:
        if isinstance(node.target, ast.Name):
            self._bind(scope, node.target.id, BindKind.AUG, node.value, node.target, loop, op=node.op)

    def _visit_named_expr(self, node: ast.NamedExpr, scope: Scope, loop: LoopFrame | None) -> None:
        self._bind(scope.function_like(), node.target.id, BindKind.VALUE, node.value, node.target, loop)

    def _visit_import(self, node: ast.Import | ast.ImportFrom, scope: Scope, loop: LoopFrame | None) -> None:
        self.model.imports.add(node)
        for alias in node.names:
            if alias.name != "*":
                local = alias.asname or alias.name.split(".", 1)[0]
                self._bind(scope, local, BindKind.NOT_ARRAY, None, node, loop)

    def _visit_return(self, node: ast.Return, scope: Scope, loop: LoopFrame | None) -> None:
        if node.value is not None:
            scope.function_like().returns.append(node.value)

    def _visit_global(self, node: ast.Global, scope: Scope, loop: LoopFrame | None) -> None:
        scope.global_names.update(node.names)

    def _visit_with(self, node: ast.With | ast.AsyncWith, scope: Scope, loop: LoopFrame | None) -> None:
        for item in node.items:
            if item.optional_vars is not None:
                self._bind_opaque(item.optional_vars, scope, loop)

    def _visit_except_handler(self, node: ast.ExceptHandler, scope: Scope, loop: LoopFrame | None) -> None:
        if node.name:
            self._bind(scope, node.name, BindKind.NOT_ARRAY, None, node, loop)

    # ------------------------------------------------------- scopes and loops
    def _visit_while(self, node: ast.While, scope: Scope, loop: LoopFrame | None) -> list[Child]:
        frame = self._new_loop(node, loop, scope, IterKind.WHILE)
        return (
            [(node.test, scope, frame)]
            + [(s, scope, frame) for s in node.body]
            + [(s, scope, loop) for s in node.orelse]
        )

    def _visit_for(self, node: ast.For | ast.AsyncFor, scope: Scope, loop: LoopFrame | None) -> list[Child]:
        frame = self._new_loop(node, loop, scope, IterKind.OTHER)
        frame.iterated = node.iter
        self._bind_iteration(node.target, node.iter, scope, frame)
        return (
            [(node.iter, scope, loop), (node.target, scope, frame)]
            + [(s, scope, frame) for s in node.body]
            + [(s, scope, loop) for s in node.orelse]
        )

    def _visit_class(self, node: ast.ClassDef, scope: Scope, loop: LoopFrame | None) -> list[Child]:
        self._bind(scope, node.name, BindKind.NOT_ARRAY, None, node, loop)
        inner = self._new_scope(ScopeKind.CLASS, node, scope, node.name)
        outer: list[Child] = [(d, scope, loop) for d in node.decorator_list]
        outer += [(b, scope, loop) for b in node.bases + [k.value for k in node.keywords]]
        return outer + [(s, inner, None) for s in node.body]

    def _visit_function(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, scope: Scope, loop: LoopFrame | None
    ) -> list[Child]:
        model = self.model
        name = getattr(node, "name", None) or _lambda_name(model, node)
        if not isinstance(node, ast.Lambda):
            self._bind(scope, name, BindKind.NOT_ARRAY, None, node, loop)
        inner = self._new_scope(ScopeKind.FUNCTION, node, scope, name)
        if scope is model.module_scope and not isinstance(node, ast.Lambda):
            model._functions[name] = inner
        args = node.args
        outer: list[Child] = []
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

    def _visit_comprehension(self, node: ast.AST, scope: Scope, loop: LoopFrame | None) -> list[Child]:
        generators: list[ast.comprehension] = node.generators  # type: ignore[attr-defined]
        inner = self._new_scope(ScopeKind.COMPREHENSION, node, scope, "<comprehension>")
        frame = self._new_loop(node, loop, inner, IterKind.OTHER)
        frame.iterated = generators[0].iter
        children: list[Child] = []
        for i, gen in enumerate(generators):
            self._bind_iteration(gen.target, gen.iter, inner, frame)
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
        self.model.scopes.append(scope)
        return scope

    def _new_loop(self, node: ast.AST, parent: LoopFrame | None, scope: Scope, kind: IterKind) -> LoopFrame:
        frame = LoopFrame(node, parent, scope, kind)
        self.model.loops.append(frame)
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
        binding = Binding(name, kind, value, node, pos, loop, scope, index, op)
        scope.bind(binding)
        if kind is BindKind.VALUE and scope.kind is ScopeKind.CLASS:
            # ``cxs = np.array([...])`` in a class body is what ``self.cxs`` reads
            self.model._class_attrs.setdefault((id(scope), name), []).append(binding)

    def _bind_target(self, target: ast.expr, value: ast.expr, scope: Scope, loop: LoopFrame | None) -> None:
        if isinstance(target, ast.Name):
            self._bind(scope, target.id, BindKind.VALUE, value, target, loop)
        elif isinstance(target, (ast.Tuple, ast.List)):
            pairwise = isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts)
            for i, elt in enumerate(target.elts):
                if pairwise:
                    self._bind_target(elt, value.elts[i], scope, loop)  # type: ignore[attr-defined]
                elif isinstance(elt, ast.Name):
                    self._bind(scope, elt.id, BindKind.ELEMENT, value, elt, loop, index=i)
                elif isinstance(elt, ast.Attribute):
                    self._bind_attribute(elt, value, scope, loop, index=i)  # self.w, self.v = np.linalg.eig(c)
                else:
                    self._bind_opaque(elt, scope, loop)
        elif isinstance(target, ast.Starred):
            self._bind_opaque(target.value, scope, loop)
        elif isinstance(target, ast.Attribute):
            self._bind_attribute(target, value, scope, loop)

    def _bind_attribute(self, target: ast.Attribute, value: ast.expr, scope: Scope, loop: LoopFrame | None,
                        index: int | None = None) -> None:
        """``self.u = np.zeros(n)`` inside a method binds ``self.u`` class-wide
        (``index``: the item of ``value`` a tuple target takes)."""
        if not (isinstance(target.value, ast.Name) and scope.kind is ScopeKind.FUNCTION):
            return
        if not scope.params or target.value.id != scope.params[0]:
            return
        cls = scope.parent
        if cls is None or cls.kind is not ScopeKind.CLASS:
            return
        pos = (target.lineno, target.col_offset)
        kind = BindKind.VALUE if index is None else BindKind.ELEMENT
        binding = Binding(target.attr, kind, value, target, pos, loop, scope, index=index)
        self.model._class_attrs.setdefault((id(cls), target.attr), []).append(binding)

    def _bind_opaque(self, target: ast.expr, scope: Scope, loop: LoopFrame | None) -> None:
        """Bind the names ``target`` assigns, to nothing known. A store into
        an object (``self.ux``, ``a[i]`` in ``self.ux, a[i] = f()``) rebinds
        no name: ``self``, ``a`` and ``i`` stay what they were."""
        if isinstance(target, ast.Name):
            self._bind(scope, target.id, BindKind.OPAQUE, None, target, loop)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self._bind_opaque(elt, scope, loop)
        elif isinstance(target, ast.Starred):
            self._bind_opaque(target.value, scope, loop)

    def _bind_iteration(self, target: ast.expr, iterable: ast.expr | None, scope: Scope, frame: LoopFrame) -> None:
        if isinstance(target, ast.Name):
            self._bind(scope, target.id, BindKind.ELEMENT, iterable, target, frame)
            return
        if not isinstance(target, (ast.Tuple, ast.List)):
            self._bind_opaque(target, scope, frame)
            return
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
                    self._bind(scope, elt.id, BindKind.COUNTER, None, elt, frame)
                elif source is not None:
                    self._bind(scope, elt.id, BindKind.ELEMENT, source, elt, frame)
                    if fname == "enumerate" and isinstance(source, ast.Name):
                        # for i, row in enumerate(x): numbered rows of a matrix
                        # (a plain loop over a list of arrays is more common)
                        scope.function_like().items_of.setdefault(source.id, []).append(elt.id)
                else:
                    self._bind(scope, elt.id, BindKind.ELEMENT, iterable, elt, frame, index=i)
            elif source is not None:
                self._bind_iteration(elt, source, scope, frame)
            else:
                self._bind_opaque(elt, scope, frame)


# Arithmetic that no Python sequence supports (``+`` concatenates and ``*``
# repeats lists, ``%`` formats strings).
_SLICE_ONLY_ARRAY_OPS = (ast.Sub, ast.Div, ast.FloorDiv, ast.Pow)


def _is_slice_of_name(node: ast.expr) -> bool:
    return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and isinstance(node.value, (ast.Name, ast.Attribute))


def _sliced_operands(node: ast.BinOp) -> list[ast.Subscript]:
    """The slices ``node`` does arithmetic on, when both operands are slices
    or one is a slice and the other a number literal."""
    left, right = node.left, node.right
    sliced = [side for side in (left, right) if _is_slice_of_name(side)]
    other = [side for side in (left, right) if not _is_slice_of_name(side)]
    if not sliced or any(not (isinstance(o, ast.Constant) and type(o.value) in (int, float)) for o in other):
        return []
    return sliced  # type: ignore[return-value]


def _evidence_holder(node: ast.expr, scope: Scope) -> tuple[Scope, str] | None:
    """Where evidence about ``node``'s value is kept: a name's function (or
    module) scope, or, for ``self.x`` in a method, the class under ``x``."""
    if isinstance(node, ast.Name):
        return scope.function_like(), node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        method = scope.function_like()
        cls = method.parent
        if method.kind is ScopeKind.FUNCTION and method.params and node.value.id == method.params[0] \
                and cls is not None and cls.kind is ScopeKind.CLASS:
            return cls, node.attr
    return None


def _lambda_name(model: "FileModel", node: ast.AST) -> str:
    """``circ`` for ``circ = lambda x: ...`` (the call graph finds its calls
    by that name); ``<lambda>`` for any other lambda."""
    parent = model._parent.get(node)
    if isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1 \
            and isinstance(parent.targets[0], ast.Name):
        return parent.targets[0].id
    return "<lambda>"
