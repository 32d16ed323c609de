"""Scopes, bindings and loop frames collected by the model's single walk."""

from __future__ import annotations

import ast
import enum
from dataclasses import dataclass, field


class ScopeKind(enum.Enum):
    MODULE = "module"
    FUNCTION = "function"
    CLASS = "class"
    COMPREHENSION = "comprehension"


class BindKind(enum.Enum):
    VALUE = "value"  # name = value
    AUG = "aug"  # name op= value
    ELEMENT = "element"  # one item of iterating / unpacking `value`
    PARAM = "param"  # function parameter (value: its annotation or None)
    ANNOTATION = "annotation"  # `name: T` without a value (value: T)
    OPAQUE = "opaque"  # with/except/global/...: nothing known
    NOT_ARRAY = "not-array"  # def, class, import: certainly not an array
    COUNTER = "counter"  # the index enumerate() counts: a Python int


@dataclass(eq=False)
class Binding:
    name: str
    kind: BindKind
    value: ast.expr | None
    node: ast.AST  # the statement or target that binds
    pos: tuple[int, int]
    loop: "LoopFrame | None"
    scope: "Scope"
    index: int | None = None  # position in a tuple target, for ELEMENT
    op: ast.operator | None = None  # for AUG


@dataclass(eq=False)
class Scope:
    kind: ScopeKind
    node: ast.AST
    parent: "Scope | None"
    name: str = ""
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    # names the scope uses in ways only arrays support (a[i, j], a.shape, a.T,
    # a @ b); for a class, the attributes its methods use so (self.u[i, j]),
    # which its instances' attributes share
    array_evidence: dict[str, ast.AST] = field(default_factory=dict)
    # names with an array method (a.reshape(...), a.dot(b), a.sum(), a.copy()):
    # evidence unless the name is also used otherwise (below)
    method_evidence: dict[str, ast.AST] = field(default_factory=dict)
    # names a product contracts with an array (the x of a @ x, a.dot(x),
    # np.dot(a, x)): arrays, held back for now (see values.has_array_evidence)
    partner_evidence: dict[str, ast.AST] = field(default_factory=dict)
    # names used as Python containers (d["key"], xs.append(v), d.items()) or
    # as an array namespace (xp.asarray(x), xp.float64): what has those
    # methods too (xp.reshape(a, s), d.copy()) is not an array
    non_array_evidence: dict[str, ast.AST] = field(default_factory=dict)
    # names the scope uses as SciPy sparse matrices (x.toarray(), issparse(x))
    sparse_evidence: dict[str, ast.AST] = field(default_factory=dict)
    # names passed first to a method-style call (np.sum(x), lib.f(x)); whether
    # that is array evidence is decided once the imports are all known
    first_argument_of: dict[str, ast.Call] = field(default_factory=dict)
    # every (call, position) a name is passed at as one of the first two
    # arguments of a method-style call (np.shape(x), np.dot(a, x))
    array_arguments: dict[str, list[tuple[ast.Call, int]]] = field(default_factory=dict)
    # names whose numbered items a loop binds to other names: for i, row in
    # enumerate(x) (x -> ["row"]); rows used as arrays make x an array
    items_of: dict[str, list[str]] = field(default_factory=dict)
    params: list[str] = field(default_factory=list)
    global_names: set[str] = field(default_factory=set)
    returns: list[ast.expr] = field(default_factory=list)

    def bind(self, binding: Binding) -> None:
        if binding.name in self.global_names and self.parent is not None:
            module = self.module()
            binding.scope = module
            module.bindings.setdefault(binding.name, []).append(binding)
            return
        self.bindings.setdefault(binding.name, []).append(binding)

    def module(self) -> "Scope":
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def lookup_scope(self, name: str) -> "Scope | None":
        """The scope a load of ``name`` here resolves to (LEGB, minus builtins)."""
        scope: Scope | None = self
        first = True
        while scope is not None:
            skip_class = scope.kind is ScopeKind.CLASS and not first
            if not skip_class and name in scope.bindings:
                return scope
            first = False
            scope = scope.parent
        return None

    def function_like(self) -> "Scope":
        """The nearest scope that is not a comprehension."""
        scope = self
        while scope.kind is ScopeKind.COMPREHENSION and scope.parent is not None:
            scope = scope.parent
        return scope


class IterKind(enum.Enum):
    """What a ``for`` (or comprehension) iterates over."""

    RANGE = "range"  # range(...), index loop
    INDEX_PRODUCT = "index-product"  # itertools.product(range..), np.ndindex
    ARRAY = "array"  # an array, or enumerate/zip over arrays
    SMALL_CONSTANT = "small-constant"  # a handful of axes, taps or offsets
    OTHER = "other"  # files, epochs from a list, dict items, ...
    WHILE = "while"


@dataclass(eq=False)
class LoopFrame:
    node: ast.AST  # For, AsyncFor, While or a comprehension expression
    parent: "LoopFrame | None"
    scope: Scope
    iter_kind: IterKind = IterKind.OTHER
    index_vars: frozenset[str] = frozenset()  # names that step through indices
    element_vars: frozenset[str] = frozenset()  # names bound to array items
    iterated: ast.expr | None = None  # the array iterated, for ARRAY loops

    @property
    def is_comprehension(self) -> bool:
        return not isinstance(self.node, (ast.For, ast.AsyncFor, ast.While))

    def chain(self) -> list["LoopFrame"]:
        """This frame and its enclosing frames, innermost first."""
        frames: list[LoopFrame] = []
        frame: LoopFrame | None = self
        while frame is not None:
            frames.append(frame)
            frame = frame.parent
        return frames

    def outermost(self) -> "LoopFrame":
        return self.chain()[-1]

    def contains(self, other: "LoopFrame | None") -> bool:
        while other is not None:
            if other is self:
                return True
            other = other.parent
        return False

    @property
    def line(self) -> int:
        return getattr(self.node, "lineno", 0)

    @property
    def span(self) -> tuple[tuple[int, int], tuple[int, int]]:
        node = self.node
        return (
            (node.lineno, node.col_offset),  # type: ignore[attr-defined]
            (node.end_lineno or node.lineno, node.end_col_offset or 0),  # type: ignore[attr-defined]
        )
