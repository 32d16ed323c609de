"""SciPy ODE integrators stepping a state of a few numbers, and solvers of one number.

``odeint(deriv, [20, 20], t)`` advances two numbers through hundreds of
steps, each one needing the one before: a sequential chain in time, with no
array to spread over GPUs. ``brentq(lambda s: f(s) - c, a, b)`` on a function
of numbers is the same kind of chain. The rule that reports them (CPN410)
and the cost model that weighs them both ask :func:`small_state_chain`.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .scopes import Binding, BindKind, Scope
from .calls import SCALAR_FUNCTION_CALLERS
from .syntax import callback_args, walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

# Each integrator and the position of its initial state ``y0`` among the
# arguments (the keyword ``y0`` is accepted everywhere).
ODE_INTEGRATORS = {
    "scipy.integrate.odeint": 1, "scipy.integrate.solve_ivp": 2,
    "scipy.integrate.RK23": 2, "scipy.integrate.RK45": 2, "scipy.integrate.DOP853": 2,
    "scipy.integrate.Radau": 2, "scipy.integrate.BDF": 2, "scipy.integrate.LSODA": 2,
}
# SciPy's stateful integrators: made once, stepped by .integrate(t) in a loop
_STEPPED_INTEGRATORS = frozenset({"scipy.integrate.ode", "scipy.integrate.complex_ode"})
SMALL_ODE_STATE = 64  # a few-body or few-compartment model, far below one GPU's tile
_CALLBACK_KEYWORDS = ("func", "fun", "f")
_MAX_DEPTH = 3  # names followed to their bindings before the size is unknown


# SciPy's solvers of one real variable (a bracket or a start): each step
# needs the last; quadrature is not among them (its points are independent).
SCALAR_SOLVERS = SCALAR_FUNCTION_CALLERS - {"scipy.integrate.quad", "scipy.integrate.romberg", "scipy.optimize.newton"}


@dataclass(frozen=True)
class OdeIntegration:
    call: ast.Call
    state_size: int  # elements of the initial state
    callbacks: tuple[Scope, ...]  # the file's own right-hand sides the integrator calls every step
    solve: bool = False  # a root finder or minimiser of one number, not an integrator


def small_state_chain(model: "FileModel", call: ast.Call) -> OdeIntegration | None:
    """An integration of a few numbers (:func:`ode_integration`) or a solve
    for one number (:func:`scalar_solve`) that ``call`` runs; None otherwise."""
    return ode_integration(model, call) or scalar_solve(model, call)


def scalar_solve(model: "FileModel", call: ast.Call) -> OdeIntegration | None:
    """``brentq(lambda s: f(s, r) - c, a, b)``, ``fminbound(g, 0, 1)``: a
    root or minimum of one real variable, one step after another, when the
    function it is handed works on numbers only (a function that sums over
    the data does array work each step, which ports)."""
    if (model.qualname(call.func) or "") not in SCALAR_SOLVERS or not call.args:
        return None
    handed = call.args[0]
    if isinstance(handed, ast.Lambda):
        scope: Scope | None = model.scope_of(handed.body)
        if scope is not None and scope.node is not handed:
            scope = None
    else:
        scope = model.calls.function(handed)
    if scope is None or _works_on_arrays(model, scope, 0):
        return None
    return OdeIntegration(call, 1, (scope,), solve=True)


def _works_on_arrays(model: "FileModel", scope: Scope, depth: int) -> bool:
    """Does the function (or a function of the file it calls, two deep)
    hold or compute an array of one axis or more?"""
    body = scope.node.body if isinstance(scope.node, ast.Lambda) else scope.node
    for node in walk(body):  # type: ignore[arg-type]
        if isinstance(node, (ast.Name, ast.Call, ast.BinOp, ast.Subscript)) and model.kind(node).is_array:
            return True
        if isinstance(node, ast.Call) and depth < 2:
            callee = model.calls.function(node.func) if isinstance(node.func, (ast.Name, ast.Attribute)) else None
            if callee is not None and callee is not scope and _works_on_arrays(model, callee, depth + 1):
                return True
    return False


def ode_integration(model: "FileModel", call: ast.Call) -> OdeIntegration | None:
    """The integration ``call`` runs when it steps a state whose size the
    code writes out and is at most SMALL_ODE_STATE; None for anything else
    (a discretised field of unknown size is not judged)."""
    position = ODE_INTEGRATORS.get(model.qualname(call.func) or "")
    if position is None:
        return _stepped_integration(model, call)
    size = _state_size(model, _initial_state(call, position))
    if size is None or size > SMALL_ODE_STATE:
        return None
    callbacks = (model.calls.function(arg) for arg in callback_args(call, _CALLBACK_KEYWORDS))
    return OdeIntegration(call, size, tuple(scope for scope in callbacks if scope is not None))


def _stepped_integration(model: "FileModel", call: ast.Call) -> OdeIntegration | None:
    """``solver.integrate(solver.t + dt)`` on ``solver = ode(f).set_integrator(...)``
    (SciPy's stateful ``ode`` interface), the state set by
    ``solver.set_initial_value(y0, t)``: one step of a few numbers per call."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "integrate" and isinstance(func.value, ast.Name)):
        return None
    made = [b.value for b in model.scope_of(func.value).function_like().bindings.get(func.value.id, ())
            if b.kind is BindKind.VALUE and b.value is not None]
    roots = {model.qualname(_chain_call(value).func) for value in made if isinstance(value, ast.Call)}
    if not roots & _STEPPED_INTEGRATORS:
        return None
    starts = [c.args[0] for value in made for c in walk(value)
              if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "set_initial_value" and c.args]
    sizes = [_state_size(model, start) for start in starts]
    if not sizes or any(size is None or size > SMALL_ODE_STATE for size in sizes):
        return None
    callbacks = [model.calls.function(c.args[0]) for value in made for c in walk(value)
                 if isinstance(c, ast.Call) and (model.qualname(c.func) or "") in _STEPPED_INTEGRATORS and c.args]
    return OdeIntegration(call, max(sizes), tuple(scope for scope in callbacks if scope is not None))  # type: ignore[type-var]


def _chain_call(value: ast.Call) -> ast.Call:
    """``ode(f)`` in ``ode(f).set_integrator("dopri5").set_f_params(a)``."""
    while isinstance(value.func, ast.Attribute) and isinstance(value.func.value, ast.Call):
        value = value.func.value
    return value


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
            passed = model.calls.passed(binding) if binding.kind is BindKind.PARAM and binding.value is None else None
            if binding.kind is BindKind.VALUE and binding.value is not None:
                values.append(binding.value)
            elif binding.kind is BindKind.ELEMENT and (items := _listed_items(model, binding)) is not None:
                values += items  # for ic in initial_conds: one of the states the list writes out
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


def _leaf_count(element: ast.expr) -> int:
    if isinstance(element, (ast.List, ast.Tuple)):
        return sum(_leaf_count(e) for e in element.elts)
    return 1


def _listed_items(model: "FileModel", binding: "Binding") -> list[ast.expr] | None:
    """The items a loop variable takes from a list the code writes out
    (``for i, ic in enumerate(initial_conds)`` over ``[np.array([1.0, 0.2]), ...]``)."""
    loop = binding.loop
    iterable = getattr(loop.node, "iter", None) if loop is not None else None
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "enumerate" and iterable.args:
        iterable = iterable.args[0]
    if isinstance(iterable, ast.Name):
        bindings = model.reaching_bindings(iterable)
        if len(bindings) != 1 or bindings[0].kind is not BindKind.VALUE:
            return None
        iterable = bindings[0].value
    return list(iterable.elts) if isinstance(iterable, (ast.List, ast.Tuple)) else None
