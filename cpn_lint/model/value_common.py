"""What the value engine's rooms share: groups of kinds, the pending shape.

The kinds that count as arrays or as numbers, the placeholder shape of a
binding whose kind the solve has not reached yet (:data:`_PENDING`), the AST
node types that open a function, and two small tests of a call's syntax.
Kept apart so that :mod:`.values` and every room it is assembled from can
import them without importing each other.
"""

from __future__ import annotations

import ast

from .kinds import Kind
from .syntax import positional_or_keyword

_ARRAYS = (Kind.DEVICE, Kind.HOST, Kind.CUPY)
_NUMBERS = (Kind.SCALAR, Kind.DEVICE_SCALAR)
_DEF_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFS_AND_CLASSES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class _Pending:
    """The shape of a binding whose kind is not known yet (BOTTOM)."""

    def __repr__(self) -> str:
        return "PENDING"


_PENDING = _Pending()


def _single_axis(call: ast.Call) -> bool:
    axis = positional_or_keyword(call, None, "axis")
    return isinstance(axis, ast.Constant) and type(axis.value) is int


def _is_none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None
