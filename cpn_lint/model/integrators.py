"""SciPy ODE integrators stepping a state of a few numbers.

``odeint(deriv, [20, 20], t)`` advances two numbers through hundreds of
steps, each one needing the one before: a sequential chain in time, with no
array to spread over GPUs. The rule that reports it (CPN410) and the cost
model that weighs it both ask :func:`ode_integration`.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .scopes import Binding, BindKind, Scope
from .syntax import callback_args

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

# Each integrator and the position of its initial state ``y0`` among the
# arguments (the keyword ``y0`` is accepted everywhere).
ODE_INTEGRATORS = {
    "scipy.integrate.odeint": 1, "scipy.integrate.solve_ivp": 2,
    "scipy.integrate.RK23": 2, "scipy.integrate.RK45": 2, "scipy.integrate.DOP853": 2,
    "scipy.integrate.Radau": 2, "scipy.integrate.BDF": 2, "scipy.integrate.LSODA": 2,
}
SMALL_ODE_STATE = 64  # a few-body or few-compartment model, far below one GPU's tile
_CALLBACK_KEYWORDS = ("func", "fun", "f")
_MAX_DEPTH = 3  # names followed to their bindings before the size is unknown


@dataclass(frozen=True)
class OdeIntegration:
    call: ast.Call
    state_size: int  # elements of the initial state
    callbacks: tuple[Scope, ...]  # the file's own right-hand sides the integrator calls every step


def ode_integration(model: "FileModel", call: ast.Call) -> OdeIntegration | None:
    """The integration ``call`` runs when it steps a state whose size the
    code writes out and is at most SMALL_ODE_STATE; None for anything else
    (a discretised field of unknown size is not judged)."""
    position = ODE_INTEGRATORS.get(model.qualname(call.func) or "")
    if position is None:
        return None
    size = _state_size(model, _initial_state(call, position))
    if size is None or size > SMALL_ODE_STATE:
        return None
    callbacks = (model.calls.function(arg) for arg in callback_args(call, _CALLBACK_KEYWORDS))
    return OdeIntegration(call, size, tuple(scope for scope in callbacks if scope is not None))


def _initial_state(call: ast.Call, position: int) -> ast.expr | None:
    keyword = next((kw.value for kw in call.keywords if kw.arg == "y0"), None)
    if keyword is not None:
        return keyword
    return call.args[position] if len(call.args) > position else None


def _state_size(model: "FileModel", state: ast.expr | None, depth: int = 0) -> int | None:
    """The elements of an initial state the code writes out (``[S0, I0, R0]``,
    ``np.array([1.0, 0.0])``, ``np.zeros(4)``), following a name to every
    binding that reaches the call; None when any of them is unknown."""
    if state is None or depth > _MAX_DEPTH:
        return None
    if isinstance(state, (ast.List, ast.Tuple)):
        if any(isinstance(e, ast.Starred) for e in state.elts):
            return None
        return sum(_leaf_count(e) for e in state.elts)
    if isinstance(state, ast.Name):
        values: list[ast.expr] = []
        for binding in model.reaching_bindings(state):
            passed = _passed(model, binding) if binding.kind is BindKind.PARAM else None
            if binding.kind is BindKind.VALUE and binding.value is not None:
                values.append(binding.value)
            elif passed is not None:
                values += passed  # solve_path(R0, t, x_init=x_0): what the callers hand it
            else:
                return None
        if not values:
            return None
        sizes = [_state_size(model, value, depth + 1) for value in values]
        known = [s for s in sizes if s is not None]
        return max(known) if len(known) == len(sizes) else None
    if not model.kind(state).is_array:
        return None
    shape = model.literal_shape(state)
    return math.prod(shape) if shape is not None else None


def _passed(model: "FileModel", param: Binding) -> list[ast.expr] | None:
    """What every call of the parameter's function gives it (its default
    where a call gives none); None when a call cannot be read or unseen
    callers may give something else."""
    calls = model.calls
    sites = calls.argument_sites(param.scope)
    if param.value is not None or not sites or calls.arguments_escape(param.scope):
        return None
    given = [calls.argument(call, param.scope, param.name) for call in sites]
    return None if any(g is None for g in given) else given  # type: ignore[return-value]


def _leaf_count(element: ast.expr) -> int:
    if isinstance(element, (ast.List, ast.Tuple)):
        return sum(_leaf_count(e) for e in element.elts)
    return 1
