"""Small questions about syntax alone, shared by the model and the rules."""

from __future__ import annotations

import ast
from typing import Iterator


def callee_name(func: ast.expr) -> str:
    """``svd`` for ``np.linalg.svd``, ``f`` for ``f``; "" for anything else."""
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def chain_root(expr: ast.expr) -> ast.expr:
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


def name_key(expr: ast.AST) -> tuple[str, ...] | None:
    """A context-free key for ``x``, ``self.x``, ``a.b.c`` (None otherwise),
    so that a target and a load of the same thing compare equal."""
    parts: list[str] = []
    node = expr
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return tuple(reversed(parts))


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """``ast.walk``, node for node in the same (breadth-first) order, context
    and operator nodes included, at a fraction of its cost: one loop over a
    growing list instead of a deque fed by two nested generators per node.
    The analyses walk subtrees a hundred thousand times per file set."""
    todo = [node]
    append = todo.append
    node_class = ast.AST
    position = 0
    while position < len(todo):
        node = todo[position]
        position += 1
        for field in node._fields:
            value = getattr(node, field, None)  # a missing field yields nothing, as in ast.iter_fields
            if isinstance(value, node_class):
                append(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, node_class):
                        append(item)
        yield node


def names_in(expr: ast.AST) -> set[str]:
    """Every plain name mentioned in ``expr`` (an explicit stack rather than
    ``ast.walk``: the loop analyses ask this for thousands of statements)."""
    found: set[str] = set()
    stack = [expr]
    node_class = ast.AST
    while stack:
        node = stack.pop()
        if node.__class__ is ast.Name:
            found.add(node.id)  # type: ignore[attr-defined]
            continue
        for field in node._fields:
            value = getattr(node, field, None)
            if value.__class__ is list:
                stack.extend(item for item in value if isinstance(item, node_class))
            elif isinstance(value, node_class):
                stack.append(value)
    return found


def index_components(sub: ast.Subscript) -> list[ast.expr]:
    """``[i, j]`` for ``a[i, j]``, ``[i]`` for ``a[i]``."""
    index = sub.slice
    return list(index.elts) if isinstance(index, ast.Tuple) else [index]


def is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``: a branch that never runs."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def is_range_call(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "range"


def positional_or_keyword(call: ast.Call, position: int | None, *names: str) -> ast.expr | None:
    """The argument at ``position`` (when given positionally) or under one of ``names``."""
    if position is not None and len(call.args) > position and not any(isinstance(a, ast.Starred) for a in call.args[: position + 1]):
        return call.args[position]
    for kw in call.keywords:
        if kw.arg in names:
            return kw.value
    return None


def parameter_default(arguments: ast.arguments, name: str) -> ast.expr | None:
    """The default a function's signature gives parameter ``name`` (None
    when it has none, or no such parameter)."""
    positional = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
    if name in positional:
        index = positional.index(name) - (len(positional) - len(arguments.defaults))
        return arguments.defaults[index] if index >= 0 else None
    kwonly = [a.arg for a in arguments.kwonlyargs]
    return arguments.kw_defaults[kwonly.index(name)] if name in kwonly else None


def function_default(function: ast.AST, name: str) -> ast.expr | None:
    """:func:`parameter_default` of a def or lambda; None for anything else."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return None
    return parameter_default(function.args, name)


def defaults_to_number(function: ast.AST, name: str) -> bool:
    """Does parameter ``name`` of ``function`` default to a number literal
    (``n=14``, ``tol=-1e-6``)?"""
    default = function_default(function, name)
    value = default.operand if isinstance(default, ast.UnaryOp) and isinstance(default.op, ast.USub) else default
    return isinstance(value, ast.Constant) and type(value.value) in (int, float)


def callback_args(call: ast.Call, keywords: tuple[str, ...]) -> list[ast.expr]:
    """The functions a routine is handed by name (``minimize(cost, x0)``,
    ``odeint(func=deriv, ...)``): its first argument and those ``keywords``."""
    args = list(call.args[:1]) + [kw.value for kw in call.keywords if kw.arg in keywords]
    return [a for a in args if isinstance(a, (ast.Name, ast.Attribute))]


def dotted_name(expr: ast.expr) -> str | None:
    """``u``, ``self.u``, ``state.grid.u``: the name a chain of attributes
    spells; None for anything else (``f().x``, ``a[0].x``)."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    parts.append(expr.id)
    return ".".join(reversed(parts))


def call_argument(node: ast.AST, parent: ast.AST | None, keyword: str,
                  positional: type | tuple[type, ...] = ast.expr) -> "tuple[ast.AST, ast.Call, ast.expr] | None":
    """(reported node, its call, the value) when ``node`` is the ``keyword=``
    argument of the call ``parent``, or one of its positional arguments of the
    ``positional`` types; None otherwise."""
    if not isinstance(parent, ast.Call):
        return None
    if isinstance(node, ast.keyword) and node.arg == keyword:
        return node, parent, node.value
    if isinstance(node, positional) and node in parent.args:
        return node, parent, node  # type: ignore[return-value]
    return None


def literal_length(value: ast.expr | None) -> int | None:
    """How many items a list or tuple written out has (None with a ``*x`` item)."""
    if isinstance(value, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in value.elts):
        return len(value.elts)
    return None


def operands(node: ast.AST) -> list[ast.expr]:
    """What an operator node computes on: both sides of ``a + b``, the
    operand of ``-a``, every side of ``a < b < c``, each value of ``a and b``."""
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, ast.Compare):
        return [node.left, *node.comparators]
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    return []
