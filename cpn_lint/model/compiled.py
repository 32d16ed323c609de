"""Functions compiled by Numba, and the arrays that would have to enter them.

A Numba-compiled function (``@njit``, ``@jit``, ``@vectorize``,
``@guvectorize``, ``@stencil``, ``@cfunc``, ``@cuda.jit``, or ``f = njit(g)``)
runs machine code typed for NumPy's own arrays. Under cuPyNumeric 26.6.1 the
arrays are cuPyNumeric's, and every such call fails (``TypingError`` from
``njit``/``jit``, ``NotImplementedError`` from the ufunc builders,
``ValueError`` from ``stencil``: tests/data/oracle/compiled_kernels.py);
so does a compiled body that calls the ported module (``np.zeros`` inside an
``@njit`` names cuPyNumeric once the import is swapped), and a 0-d device
scalar handed in as a number. Only object mode (``forceobj=True``,
``nopython=False``) accepts them, and object mode is plain Python.

This module finds those functions and what makes each one a problem: the
parameters that are arrays (by use in the body or by what the file's callers
pass), array results, and uses of the ported module inside. Rules and the
verdict read :func:`compiled_functions`; everything reported inside such a
function is part of it (:func:`compiled_function_at`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .scopes import Scope, ScopeKind
from .syntax import walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

# numba.<name> decorators and builders that compile in nopython mode by default
COMPILERS = frozenset({"njit", "jit", "vectorize", "guvectorize", "stencil", "cfunc", "generated_jit"})
_DERIVED_KEY = "compiled-functions"


@dataclass
class CompiledFunction:
    """One compiled function of the file and the evidence against it."""

    scope: Scope
    node: ast.FunctionDef | ast.AsyncFunctionDef
    compiler: str  # how it is compiled, as written: "njit", "cuda.jit", ...
    array_params: list[str] = field(default_factory=list)
    returns_array: bool = False  # said only beside other evidence
    device_calls: list[str] = field(default_factory=list)  # "np.zeros", ... called inside
    # (caller's name or "<module>", line) of each call that hands it an array
    callers: list[tuple[str, int]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def takes_device_data(self) -> bool:
        """True when running it on cuPyNumeric data fails."""
        return bool(self.array_params or self.device_calls or self.callers)

    def contains_line(self, line: int) -> bool:
        first = min([self.node.lineno, *(d.lineno for d in self.node.decorator_list)])
        return first <= line <= (self.node.end_lineno or self.node.lineno)


def compiled_functions(model: "FileModel") -> list[CompiledFunction]:
    """The file's Numba-compiled functions (nopython mode), in source order,
    each with its evidence; built once per file."""
    return model.derived(_DERIVED_KEY, _find)


def compiled_function_at(model: "FileModel", line: int) -> CompiledFunction | None:
    """The compiled function whose source holds ``line`` (the innermost).

    What runs there runs in Numba on Numba's own values (an element is a
    float, a branch is no host sync): the findings of the other rules do not
    describe cuPyNumeric work. They belong to the function's CPN112 when it
    takes the program's arrays, and to nothing when it only ever sees numbers."""
    return model.derived("compiled-by-line", _compiled_by_line).get(line)


def _compiled_by_line(model: "FileModel") -> dict[int, CompiledFunction]:
    """Each line of a compiled function's source, and the innermost one
    holding it (one table a file: asked for every finding)."""
    table: dict[int, CompiledFunction] = {}
    for compiled in sorted(compiled_functions(model), key=lambda c: c.node.lineno):  # inner ones start later
        first = min([compiled.node.lineno, *(d.lineno for d in compiled.node.decorator_list)])
        for line in range(first, (compiled.node.end_lineno or compiled.node.lineno) + 1):
            table[line] = compiled
    return table


def _find(model: "FileModel") -> list[CompiledFunction]:
    if "numba" not in model.source:
        return []
    found: dict[int, CompiledFunction] = {}
    for scope in model.scopes:
        if scope.kind is not ScopeKind.FUNCTION or not isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for decorator in scope.node.decorator_list:
            compiler = _compiler(model, decorator)
            if compiler is not None:
                found[id(scope.node)] = CompiledFunction(scope, scope.node, compiler)
                break
    for call in model.nodes(ast.Call):  # f = njit(g), f = numba.jit(nopython=True)(g)
        compiler = _compiler(model, call.func)
        if compiler is None or not call.args or not isinstance(call.args[0], ast.Name):
            continue
        scope = model.calls.function(call.args[0])
        if scope is not None and isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.setdefault(id(scope.node), CompiledFunction(scope, scope.node, compiler))
    functions = sorted(found.values(), key=lambda c: c.node.lineno)
    for compiled in functions:
        _gather_evidence(model, compiled, functions)
    return functions


def _compiler(model: "FileModel", expr: ast.expr) -> str | None:
    """``"njit"`` when ``expr`` compiles in nopython mode (a decorator, or
    a call that builds one: ``numba.jit(cache=True)``); None otherwise."""
    options: list[ast.keyword] = []
    if isinstance(expr, ast.Call):
        options = expr.keywords
        expr = expr.func
    name = model.qualname(expr)
    if name is None or not name.startswith("numba."):
        return None
    tail = name[len("numba."):]
    last = tail.rsplit(".", 1)[-1]
    if last not in COMPILERS:
        return None
    if _object_mode(options):
        return None
    return "cuda.jit" if tail.startswith("cuda.") else last


def _object_mode(options: list[ast.keyword]) -> bool:
    """``forceobj=True`` or ``nopython=False``: plain Python, which takes any array."""
    for keyword in options:
        if isinstance(keyword.value, ast.Constant):
            if keyword.arg == "forceobj" and keyword.value.value is True:
                return True
            if keyword.arg == "nopython" and keyword.value.value is False:
                return True
    return False


def _gather_evidence(model: "FileModel", compiled: CompiledFunction, functions: list[CompiledFunction]) -> None:
    """Inside compiled code values are Numba's own (an element is a float):
    only callers outside every compiled function hand in cuPyNumeric data."""
    scope = compiled.scope
    outside = [site for site in model.calls.sites(scope) if not any(f.contains_line(site.lineno) for f in functions)]
    for name in scope.params:
        # the body's own use (not what its callers pass: inside compiled code an element is a float)
        used_as_array = model.values.has_array_evidence(scope, name)
        if used_as_array or any(_passes_device(model, site, scope, name) for site in outside):
            compiled.array_params.append(name)
    # (said in the message only: what it returns is an array because of what it takes or makes)
    compiled.returns_array = any(model.is_array(value) for value in scope.returns if value is not None)
    seen: set[str] = set()
    for call in _calls_inside(compiled.node):
        api = model.array_api(call.func)
        if api is not None and api not in seen:
            seen.add(api)
            compiled.device_calls.append(model.segment(call.func, 40))
    for site in outside:
        if any(model.is_device(arg) for arg in [*site.args, *(k.value for k in site.keywords)]):
            caller = model.scope_of(site)
            compiled.callers.append((caller.name or "<module>", site.lineno))


def _passes_device(model: "FileModel", site: ast.Call, scope: Scope, name: str) -> bool:
    given = model.calls.argument(site, scope, name)
    return given is not None and model.is_device(given)


def _calls_inside(node: ast.AST) -> list[ast.Call]:
    return [n for n in walk(node) if isinstance(n, ast.Call)]


__all__ = ["COMPILERS", "CompiledFunction", "compiled_function_at", "compiled_functions"]
