"""Numbers a loop proves by branching on them or converting them.

A pass that branches on a comparison (``if a_k + l0 <= 0:``) tests one
number: the truth of an array of several elements raises ValueError; so
does ``int(y * ratio)`` convert one (several elements raise TypeError). So
the operands of the elementwise arithmetic that computed it in the loop are
one number each (broadcasting never shrinks), and so is what the loop
computes from such numbers and literals alone (a sum it accumulates from
them). Values of unknown size (a parameter's items, an unknown library's
result) are thereby known to be element-sized: the recurrence analysis
counts them as small state, and the work analysis does not take them for
whole arrays.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from . import numpy_api as api
from .loop_helpers import _TRUTH_COMPARISONS
from .scopes import ScopeKind

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel
    from .scopes import LoopFrame


# Built-ins that take one element only (several raise TypeError).
_ONE_ELEMENT_CONVERSIONS = frozenset({"int", "float", "complex"})


class BranchNumbers:
    """Per loop of one file, the names it shows to be one number each."""

    def __init__(self, model: "FileModel") -> None:
        self.model = model
        self._found: dict[int, set[str]] = {}
        self._own: dict[int, set[str]] = {}
        self._by_class: dict[int, set[str]] = {}

    def of(self, frame: "LoopFrame") -> set[str]:
        """What ``frame`` shows to be numbers, and the object's attributes
        any loop of the class's methods shows to be (``max(self.rate, r)``
        in one method: ``self.rate`` is one number in all of them)."""
        key = id(frame)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = self._local(frame) | self._class_attributes(frame)
        return found

    def _local(self, frame: "LoopFrame") -> set[str]:
        key = id(frame)
        found = self._own.get(key)
        if found is None:
            found = self._own[key] = self._find(frame)
        return found

    def _class_attributes(self, frame: "LoopFrame") -> set[str]:
        method = frame.scope.function_like()
        cls = method.parent
        if cls is None or cls.kind is not ScopeKind.CLASS or not method.params:
            return set()
        key = id(cls.node)
        found = self._by_class.get(key)
        if found is None:
            found = set()
            for loop in self.model.loops:
                owner = loop.scope.function_like()
                if owner.parent is cls and owner.params:
                    receiver = owner.params[0] + "."
                    found |= {"." + n[len(receiver):] for n in self._local(loop) if n.startswith(receiver)}
            self._by_class[key] = found
        receiver = method.params[0]
        return {receiver + attr for attr in found}

    def _find(self, frame: "LoopFrame") -> set[str]:
        model = self.model
        numbers: set[str] = set()
        for branch in model.nodes_in_loop(frame, ast.If, ast.While, ast.IfExp):
            tests = branch.test.values if isinstance(branch.test, ast.BoolOp) else [branch.test]  # type: ignore[attr-defined]
            for test in tests:
                if isinstance(test, ast.Compare) and all(isinstance(op, _TRUTH_COMPARISONS) for op in test.ops):
                    for operand in (test.left, *test.comparators):
                        found = self._elementwise_names(operand)
                        numbers |= found[0] if found is not None else set()
        for call in model.nodes_in_loop(frame, ast.Call):
            if not (isinstance(call.func, ast.Name) and not call.keywords and model.is_builtin(call.func)):
                continue
            if call.func.id in _ONE_ELEMENT_CONVERSIONS and len(call.args) == 1:
                found = self._elementwise_names(call.args[0])  # int(y * ratio): several elements raise TypeError
                numbers |= found[0] if found is not None else set()
            elif call.func.id in ("max", "min") and len(call.args) >= 2:
                for argument in call.args:  # max(a, b) compares a with b: several elements raise ValueError
                    found = self._elementwise_names(argument)
                    numbers |= found[0] if found is not None else set()
        if not numbers:
            return numbers
        bindings = [stmt for stmt in model.nodes_in_loop(frame, ast.Assign, ast.AugAssign)
                    if _key(getattr(stmt, "target", None) or stmt.targets[0]) is not None  # type: ignore[attr-defined]
                    and (isinstance(stmt, ast.AugAssign) or len(stmt.targets) == 1)]  # type: ignore[attr-defined]
        changed = True
        while changed:
            changed = False
            for stmt in bindings:
                target = _key(stmt.target if isinstance(stmt, ast.AugAssign) else stmt.targets[0])  # type: ignore[attr-defined]
                found = self._elementwise_names(stmt.value)  # type: ignore[attr-defined]
                if found is None:
                    continue
                operands, named_only = found
                if target in numbers and not isinstance(stmt, ast.AugAssign) and not operands <= numbers:
                    numbers |= operands  # a number's operands are numbers
                    changed = True
                elif target not in numbers and named_only and operands - {target} and operands - {target} <= numbers:
                    numbers.add(target)  # elementwise work on numbers (added to itself) is one
                    changed = True
        return numbers

    def elementwise_names(self, expr: ast.expr) -> tuple[set[str], bool] | None:
        """See :meth:`_elementwise_names` (the numbers it would rest on)."""
        return self._elementwise_names(expr)

    def _elementwise_names(self, expr: ast.expr) -> tuple[set[str], bool] | None:
        """The names ``expr`` reads when it is elementwise arithmetic
        (NumPy's elementwise functions included), and whether names and
        literals are all it reads (a subscript is a value of its own size);
        None for anything else."""
        key = _key(expr)
        if key is not None:
            return {key}, True
        if isinstance(expr, ast.Constant):
            return set(), True
        if isinstance(expr, ast.Subscript):
            return set(), False
        if isinstance(expr, ast.UnaryOp):
            return self._elementwise_names(expr.operand)
        if isinstance(expr, ast.BinOp) and not isinstance(expr.op, ast.MatMult):
            parts = [self._elementwise_names(expr.left), self._elementwise_names(expr.right)]
        elif isinstance(expr, ast.Call) and not expr.keywords and self.model.call_api(expr) in api.ELEMENTWISE:
            parts = [self._elementwise_names(a) for a in expr.args]
        elif isinstance(expr, ast.Call) and self.model.unit_draw(expr) is expr:
            return set(), True  # np.random.uniform(): one number, like a literal
        else:
            return None
        if any(p is None for p in parts):
            return None
        return set().union(*(p[0] for p in parts)), all(p[1] for p in parts)  # type: ignore[index]


def _key(expr: ast.AST | None) -> str | None:
    """``x`` for a name, ``self.x`` for an attribute of a name: what a number is known by."""
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        return f"{expr.value.id}.{expr.attr}"
    return None


def number_key(expr: ast.AST) -> str | None:
    """The key :meth:`BranchNumbers.of` would list ``expr`` under."""
    return _key(expr)
