"""Array evidence: does a function use a name the way only arrays allow?

SPEC §3, "parameters are arrays when the function uses them as arrays":
``.shape``, a tuple subscript, ``@``, an array method, the array argument
of a NumPy call, ``.size`` read into a name, or a function of the file that
does so and is handed the name (:class:`ArrayEvidence`, a mixin of
:class:`~cpn_lint.model.values.ValueEngine`). The answer reads the file's
syntax only, never a solved value, so it is memoised.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Iterable

from . import numpy_api as api
from .scopes import ScopeKind
from .syntax import defaults_to_number
from .value_common import _DEF_TYPES, _DEFS_AND_CLASSES

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import Scope



class ArrayEvidence:
    """Whether a scope uses a name as an array (memoised; syntax only)."""

    model: "FileModel"

    def has_array_evidence(self, scope: "Scope", name: str, dense: bool = False, _depth: int = 0) -> bool:
        """Does ``scope`` use ``name`` in a way only arrays support (SPEC §3,
        "Parameters are arrays when the function uses them as arrays")?
        ``.shape``/``.ndim``/``.dtype``/``.T``, a tuple subscript, ``@``, an
        array method, the array argument of a NumPy call (``np.sum(x)``,
        ``np.shape(x)``, either operand of ``np.dot``), or rows a loop takes
        from it used so (``for i, row in enumerate(x): row @ w``). For a
        class scope, ``name`` is an attribute its methods use (``self.x``).
        The answer reads the file's syntax only (no solved value), so it is
        memoised."""
        key = (id(scope), name, dense, _depth)
        found = self._evidence.get(key)
        if found is None:
            found = self._evidence[key] = self._has_array_evidence(scope, name, dense, _depth)
        return found

    def _has_array_evidence(self, scope: "Scope", name: str, dense: bool, _depth: int) -> bool:
        if not dense and name in scope.sparse_evidence:
            return False  # .shape, .T and a[i, j] work on a sparse matrix too
        if name in scope.array_evidence:
            return True
        if name in self._sized_names(scope) and name not in scope.non_array_evidence:
            return True  # n = x.size: lists and tuples have no .size
        if name in scope.method_evidence and name not in scope.non_array_evidence:
            return True  # x.reshape(..), x.sum(), and never d["key"], xs.append(v) or xp.asarray(v)
        if CONTRACTION_PARTNERS_ARE_EVIDENCE and name in scope.partner_evidence:
            return True
        # a class's attribute: a ufunc's argument may as well be a number
        # (np.isfinite(self.energy)); so may a parameter whose default is a
        # number (np.log(S0) with S0=10); any other parameter: the SPEC's rule
        scalars_too = scope.kind is ScopeKind.CLASS or (
            scope.kind is ScopeKind.FUNCTION and defaults_to_number(scope.node, name))
        for call, position in scope.array_arguments.get(name, ()):
            tail = self.model.call_api(call)
            if position == 1 and not CONTRACTION_PARTNERS_ARE_EVIDENCE:
                continue
            if _is_array_argument(tail, position) and not (scalars_too and tail in api.ELEMENTWISE):
                return True
        if _depth < 2:
            for item in scope.items_of.get(name, ()):
                if item != name and self.has_array_evidence(scope, item, dense, _depth + 1):
                    return True
            for callee, parameter in self._handed_to(scope, name):
                if self.has_array_evidence(callee, parameter, dense, _depth + 1):
                    return True  # n, m = get_sizes(x), where get_sizes reads x.size
        return False

    def _function_nodes(self) -> "_FunctionNodes":
        """Per function of the file, the nodes its body walk (:func:`_walk_function`
        and :func:`_own_nodes`, nested functions and classes left out) meets
        that :meth:`_handed_to` and :meth:`_sized_names` read: found from the
        model's per-type index instead of walking every body."""
        if self._nodes_by_function is None:
            self._nodes_by_function = _FunctionNodes(self.model)
        return self._nodes_by_function

    def _handed_to(self, scope: "Scope", name: str) -> list[tuple["Scope", str]]:
        """The (function, parameter) pairs of the file that ``scope`` hands
        the name to as an argument (``get_sizes(x)``)."""
        if scope.kind is not ScopeKind.FUNCTION:
            return []
        table = self._classes.get((id(scope), "handed"))
        if table is None:
            handed: dict[str, list[tuple[object, str]]] = {}
            calls = self.model.calls
            for call in self._function_nodes().calls.get(id(scope.node), ()):
                arguments = [a for a in call.args if isinstance(a, ast.Name)] + \
                    [k.value for k in call.keywords if isinstance(k.value, ast.Name)]
                if not arguments:
                    continue
                callee = calls.static_callee(call)
                if callee is None or callee is scope:
                    continue
                for parameter in callee.params:
                    given = calls.argument(call, callee, parameter)
                    if isinstance(given, ast.Name) and any(given is a for a in arguments):
                        handed.setdefault(given.id, []).append((callee, parameter))
            table = self._classes[(id(scope), "handed")] = handed  # type: ignore[assignment]
        return table.get(name, [])  # type: ignore[union-attr,return-value]

    def _sized_names(self, scope: "Scope") -> frozenset[str]:
        """The names a function (or module) reads ``.size`` of, as data
        (``n = x.size``, not ``x.size()``); none where pandas is imported
        (a DataFrame has a ``.size`` too)."""
        key = (id(scope), "sized")
        found = self._classes.get(key)
        if found is None:
            names: set[str] = set()
            node = scope.node
            if scope.kind is ScopeKind.FUNCTION and isinstance(node, _DEF_TYPES) \
                    and "pandas" not in self.model.imports.imported_roots():
                for sub in self._function_nodes().sizes.get(id(node), ()):
                    if isinstance(sub.value, ast.Name) and isinstance(sub.ctx, ast.Load):
                        parent = self.model.parent(sub)
                        if not (isinstance(parent, ast.Call) and parent.func is sub):
                            names.add(sub.value.id)
            found = self._classes[key] = frozenset(names)
        return found  # type: ignore[return-value]


# The x of a @ x, a.dot(x) and np.dot(a, x) is an array (SPEC §3); loop work
# counts a vector contracted with a row the loop takes as row-sized work
# (`for r, row in enumerate(m): out[r] = np.dot(row, w)`, Gauss-Seidel's
# `s = A[i] @ x - ...`), so those loops stay element loops.
CONTRACTION_PARTNERS_ARE_EVIDENCE = True
# NumPy calls whose second argument is an array as well as their first
_TWO_ARRAY_APIS = frozenset({"dot", "matmul", "vdot", "inner", "outer", "kron", "cross", "tensordot", "linalg.solve", "linalg.lstsq"})
# NumPy calls that only read an array's metadata: np.shape(x) takes x for one
_METADATA_APIS = frozenset({"shape", "size", "ndim"})


def _is_array_argument(tail: str | None, position: int) -> bool:
    """Is argument ``position`` (0 or 1) of the NumPy call ``tail`` an array?"""
    if tail is None:
        return False
    if position == 1:
        return tail in _TWO_ARRAY_APIS
    if tail in _METADATA_APIS:
        return True
    # np.zeros(shape), np.arange(n), np.save(path, a): the first argument
    # is a shape, a number or a file, not evidence of an array; and
    # np.asarray(x) converts x because it may not be an array yet.
    return (
        tail not in api.NOT_ARRAY_FIRST_ARGUMENT
        and tail not in api.CONVERSION_FUNCTIONS
        and not (tail.startswith("random.") and tail not in api.ARRAY_RANDOM_FUNCTIONS)
    )


class _FunctionNodes:
    """The calls and ``.size`` attributes of each function's body, as
    :func:`_walk_function` over the body and :func:`_own_nodes` of each
    statement it yields (nested functions and classes skipped) meet them,
    keyed by ``id`` of the function's definition. Found by climbing from
    each node of the model's per-type index to the statements above it,
    which gives the same nodes as the walks without visiting every node."""

    def __init__(self, model: "FileModel") -> None:
        self.calls: dict[int, list[ast.Call]] = {}
        self.sizes: dict[int, list[ast.Attribute]] = {}
        parents = model._parent
        # only a call of a name the file defines a function by can reach one of them
        defined = {scope.name for scope in model.scopes if isinstance(scope.node, _DEF_TYPES)}
        for call in model.nodes(ast.Call):
            func = call.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name not in defined:
                continue
            if any(isinstance(a, ast.Name) for a in call.args) or any(isinstance(k.value, ast.Name) for k in call.keywords):
                for owner in _walking_functions(call, parents):
                    self.calls.setdefault(id(owner), []).append(call)
        for attribute in model.nodes(ast.Attribute):
            if attribute.attr == "size":
                for owner in _walking_functions(attribute, parents):
                    self.sizes.setdefault(id(owner), []).append(attribute)


def _walking_functions(node: ast.AST, parents: "dict[ast.AST, ast.AST]") -> list[ast.AST]:
    """The function definitions whose body walk meets ``node``: some
    statement above it (or itself) that is no definition is yielded by
    :func:`_walk_function` over the function's body (reached through
    ``body``/``orelse``/``finalbody`` blocks of statements that are no
    definitions, not through except handlers or match cases), and
    :func:`_own_nodes` of it reaches ``node`` (not through its own blocks
    or handlers: its first step down is neither a statement nor a handler)."""
    owners: list[ast.AST] = []
    child: ast.AST | None = None
    current: ast.AST | None = node
    while current is not None:
        if isinstance(current, ast.stmt) and not isinstance(current, _DEFS_AND_CLASSES) \
                and not isinstance(child, (ast.stmt, ast.excepthandler)):
            statement = current
            while True:
                above = parents.get(statement)
                if isinstance(above, _DEF_TYPES):
                    owners.append(above)
                    break
                if not isinstance(above, ast.stmt) or isinstance(above, ast.ClassDef):
                    break
                statement = above
        child = current
        current = parents.get(current)
    return owners


def _walk_function(body: list[ast.stmt]) -> Iterable[ast.stmt]:
    """The statements of a function body, nested blocks included, without
    entering nested functions and classes."""
    stack = list(reversed(body))
    while stack:
        statement = stack.pop()
        yield statement
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(statement, field, None)
            if isinstance(block, list):
                stack.extend(reversed([s for s in block if isinstance(s, ast.stmt)]))


def _own_nodes(statement: ast.stmt) -> Iterable[ast.AST]:
    """The nodes of one statement, without the statements nested in it (a
    compound statement's blocks are walked as statements of their own) and
    without lambdas and comprehensions' own scopes mattering here."""
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        yield node
        for field, value in ast.iter_fields(node):
            if field in ("body", "orelse", "finalbody", "handlers") and node is statement:
                continue
            if isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)
