"""Values that stay one-element arrays because a size-less draw feeds them.

:mod:`.draws` finds the size-less draws of a file (``np.random.random()``
is an array of shape ``(1,)`` on cuPyNumeric 26.6.1) and arithmetic of one
with numbers. What a program does next with such a draw keeps that shape
too, and fails in the same places (``int()``, ``float()``, ``round()``):

* a comparison with a number, the Bernoulli trial ``np.random.random() < p``
  (``int()`` of it raises where NumPy gives 0 or 1);
* ``&``, ``|`` and ``^`` of such comparisons, and unary ``-``/``~``;
* an elementwise NumPy function of it (``np.floor(np.random.random() * 3)``);
* a name every reaching binding of which is one of these.

tests/data/oracle/api_forms.py runs each form under cuPyNumeric
(``int_of_comparison_with_random_without_size``, ...). ``bool()`` of a
one-element array and ``not`` work there, so they end the chain.

The questions :mod:`.draws` answers are the base case; once it answers these
forms itself (they are its kind of fact), this module reduces to it.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from . import numpy_api as api
from .loop_helpers import _TRUTH_COMPARISONS
from .kinds import Kind
from .scopes import BindKind

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

# What may stand beside a one-element draw and keep it one element (an
# operand of unknown kind counts, as in .draws: were it an array, the uses
# this module serves would fail as well).
_OPERAND_KINDS = (Kind.SCALAR, Kind.DEVICE_SCALAR, Kind.UNKNOWN)
_MAX_DEPTH = 12


def one_element_draw(model: "FileModel", expr: ast.expr | None) -> ast.Call | None:
    """The size-less draw ``expr`` is computed from when ``expr`` is still a
    one-element device array; None otherwise."""
    # A memo per question, not per file: the placeholder that breaks a cycle
    # through names must not leak into the answer to a later question.
    return _draw(model, expr, {}, 0)


def _draw(model: "FileModel", expr: ast.expr | None, memo: dict, depth: int) -> ast.Call | None:
    if expr is None or depth > _MAX_DEPTH:
        return None
    if expr in memo:
        return memo[expr]
    memo[expr] = None  # a cycle through names is no draw
    found = model.unit_draw(expr) or _derived(model, expr, memo, depth)
    memo[expr] = found
    return found


def _derived(model: "FileModel", expr: ast.expr, memo: dict, depth: int) -> ast.Call | None:
    if isinstance(expr, ast.Compare):
        if len(expr.ops) != 1 or not isinstance(expr.ops[0], _TRUTH_COMPARISONS):
            return None
        return _pair(model, expr.left, expr.comparators[0], memo, depth)
    if isinstance(expr, ast.BinOp) and not isinstance(expr.op, ast.MatMult):
        return _pair(model, expr.left, expr.right, memo, depth)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd, ast.Invert)):
        return _draw(model, expr.operand, memo, depth + 1)
    if isinstance(expr, ast.Call) and expr.args and not expr.keywords and model.call_api(expr) in api.ELEMENTWISE:
        draws = [_draw(model, a, memo, depth + 1) for a in expr.args]
        found = next((d for d in draws if d is not None), None)
        others = [a for a, d in zip(expr.args, draws) if d is None]
        if found is not None and all(model.kind(a) in _OPERAND_KINDS for a in others):
            return found
        return None
    if isinstance(expr, ast.Name):
        bindings = model.reaching_bindings(expr)
        if not bindings or any(b.kind is not BindKind.VALUE or b.value is None for b in bindings):
            return None
        draws = [_draw(model, b.value, memo, depth + 1) for b in bindings]
        return draws[0] if all(d is not None for d in draws) else None
    return None


def _pair(model: "FileModel", left: ast.expr, right: ast.expr, memo: dict, depth: int) -> ast.Call | None:
    """A draw on one side and a number (or another such draw) on the other."""
    first = _draw(model, left, memo, depth + 1)
    second = _draw(model, right, memo, depth + 1)
    if first is None and second is None:
        return None
    other = right if first is not None else left
    if (first is not None and second is not None) or model.kind(other) in _OPERAND_KINDS:
        return first or second
    return None
