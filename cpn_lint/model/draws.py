"""Random draws: which value is a one-element array once cuPyNumeric runs it.

On cuPyNumeric 26.6.1 a draw without ``size`` (``np.random.random()``,
``np.random.normal(0, s)``, ``rng.uniform()``) is not a number but an array
of shape ``(1,)``; only ``rand()``, ``randn()``, ``randint(n)`` and
``rng.integers(n)`` give a 0-d value. The one-element array behaves as a
number in arithmetic and comparisons, but ``float()`` of it, a ``%.3f``
format, ``x[0] += draw`` and a store through a 0-d index raise
(tests/data/oracle/api_forms.py shows each one under the runtime).

:class:`DrawTracker` answers "is this value such a draw?" for a call, for
arithmetic on one with numbers, and for a name every reaching binding of
which is one. Names feed each other (``x = x * 0.5`` in a loop), so each
plain assignment's answer is a variable of a monotone system ("a draw"
only when everything that makes it is one), solved on demand from "no
draw" (:class:`~cpn_lint.model.fixpoint.Solver`): its least fixpoint,
whichever question comes first.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from . import numpy_api as api
from .fixpoint import Solver
from .kinds import Kind
from .scopes import Binding, BindKind
from .syntax import positional_or_keyword

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

# What may stand beside a draw and keep it one element. An operand (or a
# distribution parameter) of unknown kind counts: were it an array, the
# result would be an array, and the uses this module serves (float() of
# it, an update of one element with it) fail for an array as well.
_OPERAND_KINDS = (Kind.SCALAR, Kind.DEVICE_SCALAR, Kind.UNKNOWN)


class DrawTracker:
    """Finds the size-less draws of one file's values."""

    def __init__(self, model: "FileModel") -> None:
        self.model = model
        # plain assignments -> the draw behind their value (None: no draw)
        self._solver: Solver[Binding, ast.Call | None] = Solver(self._evaluate, None, None)
        self._memo: dict[ast.expr, ast.Call | None] = {}
        self._epoch = 0

    def draw_name(self, call: ast.Call) -> str | None:
        """``normal`` for ``np.random.normal(...)`` or ``rng.normal(...)`` (a
        device generator); None for any other call, the host alias's too."""
        model = self.model
        qual = model.qualname(call.func)
        if qual is not None:
            head, _, tail = qual.partition(".")
            device = model.device_root
            if device and head == device and tail.startswith("random.") and tail.count(".") == 1:
                return tail[len("random."):]
            return None
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in api.GENERATOR_METHODS and model.kind(func.value) is Kind.GENERATOR:
            return func.attr
        return None

    def unit_draw(self, expr: ast.expr | None) -> ast.Call | None:
        """The draw behind ``expr`` when ``expr`` is a one-element device
        array made by a random draw without ``size``; None otherwise."""
        return self._solver.settled(lambda: self._draw(expr))

    def _evaluate(self, binding: Binding) -> ast.Call | None:
        return self._draw(binding.value)

    def _draw(self, expr: ast.expr | None) -> ast.Call | None:
        if expr is None:
            return None
        solver = self._solver
        if self._epoch != solver.epoch:
            self._memo = {}
            self._epoch = solver.epoch
        if expr in self._memo:
            return self._memo[expr]
        epoch = solver.epoch
        try:
            found = self._unit_draw(expr)
        except RecursionError:
            return None  # a pathologically deep expression: no draw found
        if solver.epoch == epoch:
            self._memo[expr] = found
        return found

    def _unit_draw(self, expr: ast.expr) -> ast.Call | None:
        if isinstance(expr, ast.Call):
            return expr if self._is_sizeless_draw(expr) else None
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
            return self._draw(expr.operand)
        if isinstance(expr, ast.BinOp) and not isinstance(expr.op, ast.MatMult):
            return self._arithmetic(expr)
        if isinstance(expr, ast.Name):
            return self._name(expr)
        return None

    def _arithmetic(self, expr: ast.BinOp) -> ast.Call | None:
        """A draw combined with numbers stays one element: ``2 * draw + 1``."""
        left = self._draw(expr.left)
        right = self._draw(expr.right)
        if left is None and right is None:
            return None
        other = expr.right if left is not None else expr.left
        if (left is not None and right is not None) or self.model.kind(other) in _OPERAND_KINDS:
            return left or right
        return None

    def _name(self, name: ast.Name) -> ast.Call | None:
        """A name whose every reaching binding is a plain assignment of a draw."""
        bindings = self.model.reaching_bindings(name)
        if not bindings or any(b.kind is not BindKind.VALUE or b.value is None for b in bindings):
            return None
        draws = [self._solver.value(b) for b in bindings]
        return draws[0] if all(d is not None for d in draws) else None

    def _is_sizeless_draw(self, call: ast.Call) -> bool:
        name = self.draw_name(call)
        if name is None or name in api.ZERO_D_DRAWS or name not in api.DISTRIBUTION_PARAMETERS and name not in _PLAIN_DRAWS:
            return False
        parameters = sizeless_parameters(call, name)
        return parameters is not None and all(self.model.kind(p) in _OPERAND_KINDS for p in parameters)


def draw_size(call: ast.Call, name: str) -> ast.expr | None:
    """The ``size`` a draw called ``name`` is given, by position or keyword
    (None when it has none, or the draw takes no ``size``)."""
    position = api.RANDOM_SIZE_POSITION.get(name)
    return positional_or_keyword(call, position, "size") if position is not None else None


def sizeless_parameters(call: ast.Call, name: str) -> list[ast.expr] | None:
    """The distribution parameters of a draw called ``name`` made without
    ``size`` (``normal(mu, s)``: ``[mu, s]``); None when it has a size, or
    a list or a starred argument among its parameters (shaped by them)."""
    position = api.RANDOM_SIZE_POSITION.get(name)
    if position is None:
        return None
    size = draw_size(call, name)
    if size is not None and not (isinstance(size, ast.Constant) and size.value is None):
        return None
    parameters = list(call.args[:position]) + [k.value for k in call.keywords if k.arg not in ("size", "dtype")]
    return None if any(isinstance(p, (ast.List, ast.Tuple, ast.Starred)) for p in parameters) else parameters


# Parameterless draws of [0, 1) and the standard distributions.
_PLAIN_DRAWS = frozenset({
    "random", "random_sample", "ranf", "sample", "standard_exponential", "standard_cauchy",
})
