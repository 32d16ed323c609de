"""NumPy names looked up in the API manifest (shared by CPN401-CPN403).

A call counts when its callee resolves, through the file's imports, to a
device NumPy API (``np.interp``, ``la.svd`` after ``import numpy.linalg as
la``, ``interp`` after ``from numpy import interp``, ``cupynumeric.X``), is a
method of a device array (``arr.std()`` -> ``numpy.ndarray.std``), of a
random generator (``rng.choice()`` -> ``numpy.random.Generator.choice``, or
``RandomState`` when the generator is built with it), or of a NumPy ufunc
(``np.add.at`` -> ``numpy.ufunc.at``). The host alias beside cuPyNumeric
(``onp.interp``) is not looked up: it stays NumPy.

Names cuPyNumeric lacks are also found where they are used without a call
(``dtype=np.float_``, ``isinstance(m, np.ma.MaskedArray)``): such a use fails
as soon as it runs.
"""

from __future__ import annotations

import ast
import functools
import json
from importlib import resources
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Iterator

from ..manifest import ApiSupport, Manifest, Status, active, canonical_name
from ..findings import Finding
from ..model import FileModel, IterKind, Kind, LoopFrame
from ..registry import Rule
from ..model.syntax import is_type_checking, walk

# APIs whose calls another rule reports as the blocking idiom itself; listing
# them again as "not implemented" would double-count one problem.
COVERED_ELSEWHERE: dict[str, str] = {
    "numpy.vectorize": "CPN102",
    "numpy.frompyfunc": "CPN102",
}
# Index/element iterators: as the iterable of a loop they are the element loop
# the loop rules (CPN101, CPN103) report; the fix removes the call with the loop.
LOOP_ITERATORS = frozenset({"numpy.ndindex", "numpy.ndenumerate", "numpy.nditer"})
UFUNC_METHODS = frozenset({"accumulate", "at", "outer", "reduce", "reduceat"})
RECEIVER_CLASSES = ("numpy.ndarray", "numpy.random.Generator", "numpy.random.RandomState")
# Names cuPyNumeric 26.6.1 lacks that one line of supported calls replaces
# exactly; each equivalent was run under the oracle
# (tests/data/oracle/one_line_equivalents.py). A gap with one is a light fix
# item, not a verdict demotion (issue 30).
ONE_LINE_EQUIVALENTS: dict[str, str] = {
    "numpy.size": "a.size (or a.shape[axis])",
    "numpy.around": "np.round",
    "numpy.atan2": "np.arctan2",
    "numpy.pow": "np.power",
    "numpy.fix": "np.trunc",
    "numpy.spacing": "np.nextafter(x, np.copysign(np.inf, x)) - x (np.finfo(float).eps for 1.0)",
    "numpy.std": "np.sqrt(np.var(a, axis=...))",
    "numpy.ptp": "np.max(a, axis) - np.min(a, axis)",
    "numpy.ndarray.std": "np.sqrt(a.var(axis=..., ddof=...))",
    "numpy.ndarray.ptp": "a.max(axis) - a.min(axis)",
    "numpy.ascontiguousarray": "np.asarray",
    "numpy.asanyarray": "np.asarray",
    "numpy.double": "np.float64",
    "numpy.int_": "np.int64",
    "numpy.intc": "np.int32",
    "numpy.iterable": "isinstance(x, collections.abc.Iterable)",
    "numpy.fft.fftfreq": "np.concatenate((np.arange((n - 1) // 2 + 1), np.arange(-(n // 2), 0))) / (d * n)",
    "numpy.fft.rfftfreq": "np.arange(n // 2 + 1) / (d * n)",
    "numpy.fromfunction": "f(*np.indices(shape, dtype=float))",
    "numpy.trapezoid": "np.diff(x)@(y[1:]+y[:-1])/2",
    "numpy.trapz": "np.diff(x)@(y[1:]+y[:-1])/2",
    # index helpers: Python's own slice objects and two broadcast ranges
    "numpy.s_": "a tuple of slice(a, b) objects",
    "numpy.index_exp": "a tuple of slice(a, b) objects",
    "numpy.ogrid": "np.arange(h)[:, None], np.arange(w)",
    "numpy.r_": "np.hstack((x, a, ...))",
    "numpy.c_": "np.column_stack((a, b, ...))",
    # the same distribution (cuPyNumeric's random streams differ from NumPy's anyway: CPN304)
    "numpy.random.standard_normal": "np.random.normal(0.0, 1.0, size)",
    "numpy.random.Generator.standard_normal": "rng.normal(0.0, 1.0, size)",
    # cuPyNumeric raises no floating-point warnings to silence: drop the
    # block, or keep the host NumPy's for host code
    "numpy.errstate": "no errstate (or host NumPy's) around device code",
    "numpy.seterr": "no seterr (or host NumPy's) for device code",
    "numpy.geterr": "host NumPy's geterr",
}


# Aliases of Python's own types that NumPy deprecated in 1.20 and removed in
# 1.24 (np.int, np.float, ...): older than the releases the manifest covers
# (1.26, 2.x), still common in code written for NumPy 1.19 and earlier, and
# missing from cuPyNumeric 26.6.1 (tests/data/oracle/api_names.py shows the
# AttributeError). The value is what to write instead. np.bool and np.long,
# which NumPy 2 brought back, are in the manifest itself.
REMOVED_TYPE_ALIASES: dict[str, str] = {
    "int": "int", "float": "float", "complex": "complex", "object": "object", "str": "str", "unicode": "str",
}
_LAST_ALIAS_RELEASE = "1.23.5"


def _removed_alias(name: str) -> ApiSupport | None:
    head, _, tail = canonical_name(name).rpartition(".")
    if head != "numpy" or tail not in REMOVED_TYPE_ALIASES:
        return None
    return ApiSupport(f"numpy.{tail}", Status.NOT_IMPLEMENTED, "Module-Level", lacks=True, kind="class",
                      releases=(_LAST_ALIAS_RELEASE,), replacement=REMOVED_TYPE_ALIASES[tail])


# NumPy 2's np.bool and np.long are missing from cuPyNumeric too; as a dtype
# Python's own type says the same.
_TYPE_REPLACEMENTS = {"numpy.bool": "bool", "numpy.long": "int"}


# Submodules cuPyNumeric 26.6.1 does not have at all (the import raises
# ModuleNotFoundError; tests/data/oracle/one_line_equivalents.py): every name under
# them is missing, whether or not the manifest lists it.
# NumPy's submodules cuPyNumeric has no counterpart of (oracle-checked:
# importing them fails). numpy.testing and numpy.typing are left out on
# purpose: tests compare against host NumPy, and type hints do not run.
MISSING_SUBMODULES = ("numpy.polynomial", "numpy.version", "numpy.emath", "numpy.rec", "numpy.ctypeslib",
                      "numpy.matlib", "numpy.dtypes", "numpy.exceptions")


# Submodules a port keeps on host NumPy, where they are right: numpy.typing
# names types only, numpy.testing's checks compare host values. Renamed with
# the rest (``from cupynumeric.typing import ...``, or a module-wide swap as the
# oracle does) their import fails on load with ModuleNotFoundError
# (oracle-checked: tests/test_oracle_equivalents.py). Only the import
# statement is reported, as a note on the port.
TYPE_ONLY_SUBMODULE = "numpy.typing"
KEPT_ON_NUMPY = {TYPE_ONLY_SUBMODULE: "keep this import on NumPy: it names types only",
                 "numpy.testing": "keep this import on NumPy: its checks run on host values"}

# Submodules whose import statement fails under 26.6.1 (oracle-checked), the
# names under them listed in the manifest (numpy.ma, stride_tricks) or not.
UNIMPORTABLE_SUBMODULES = (*MISSING_SUBMODULES, "numpy.ma", "numpy.char", "numpy.core", "numpy.lib.stride_tricks",
                           *KEPT_ON_NUMPY)


def _module_of(api: str, modules: Iterable[str]) -> str | None:
    """The one of ``modules`` that ``api`` is or lies under."""
    return next((m for m in modules if api == m or api.startswith(m + ".")), None)


def kept_module(api: str) -> str | None:
    """The submodule a port keeps on NumPy that ``api`` is or lies under."""
    return _module_of(api, KEPT_ON_NUMPY)


def kept_on_numpy(api: str) -> bool:
    """A submodule (or a name of one) a port keeps on NumPy: a note, never a device API."""
    return kept_module(api) is not None


def kept_on_numpy_fix(api: str) -> str:
    return KEPT_ON_NUMPY[kept_module(api) or TYPE_ONLY_SUBMODULE]


def _type_only_import(name: str) -> ApiSupport | None:
    if _module_of(canonical_name(name), (TYPE_ONLY_SUBMODULE,)):
        return ApiSupport(canonical_name(name), Status.NOT_IMPLEMENTED, "Module-Level", lacks=True, kind="module")
    return None


def _under_a_missing_class(table: Manifest, name: str) -> ApiSupport | None:
    """``np.matrix.transpose``: a name reached through a class cuPyNumeric
    lacks fails where the class is looked up (AttributeError); the class's row."""
    owner = name.rpartition(".")[0]
    while owner.count("."):
        entry = table.lookup(owner)
        if entry is not None:
            lacking = entry.status is Status.NOT_IMPLEMENTED and entry.lacks is not False and entry.kind == "class"
            return entry if lacking else None
        owner = owner.rpartition(".")[0]
    return None


def _in_missing_submodule(name: str) -> ApiSupport | None:
    canonical = canonical_name(name)
    for module in MISSING_SUBMODULES:
        if canonical.startswith(module + "."):
            return ApiSupport(canonical, Status.NOT_IMPLEMENTED, "Module-Level", lacks=True)
    return None


def lookup(table: Manifest, name: str) -> ApiSupport | None:
    """The manifest's entry for ``name``; for one of NumPy's removed type
    aliases, or a name under a submodule cuPyNumeric lacks, a row of the
    same shape."""
    entry = table.lookup(name)
    if entry is None:
        return _removed_alias(name) or _in_missing_submodule(name) or _under_a_missing_class(table, name)
    if entry.replacement is None and entry.api in _TYPE_REPLACEMENTS and entry.status is Status.NOT_IMPLEMENTED:
        return replace(entry, replacement=_TYPE_REPLACEMENTS[entry.api])
    return entry


@dataclass(frozen=True)
class ApiCall:
    """One use of an API the manifest lists: a call, or (``called`` false) a
    reference to a name cuPyNumeric lacks."""

    call: ast.expr | ast.alias  # an alias: ``from numpy import name``
    entry: ApiSupport
    hot_loop: LoopFrame | None  # the innermost enclosing loop that repeats the use
    called: bool = True
    error: str | None = None  # what the use raises, when its form says (an import of a missing submodule)

    @property
    def in_loop(self) -> bool:
        return self.hot_loop is not None


def manifest() -> Manifest:
    return active()


@functools.lru_cache(maxsize=1)
def scipy_special_ufuncs() -> frozenset[str]:
    """scipy.special's ufuncs (shipped list, cpn_lint/data/scipy-special-ufuncs.json):
    a cuPyNumeric array handed to one raises NotImplementedError."""
    text = (resources.files("cpn_lint") / "data" / "scipy-special-ufuncs.json").read_text(encoding="utf-8")
    return frozenset(json.loads(text)["ufuncs"])


def device_arguments(model: FileModel, call: ast.Call) -> list[ast.expr]:
    """The arguments of ``call`` that are device arrays or 0-d device values
    (``x.__array__()`` is a host copy)."""
    found = []
    for argument in [*call.args, *(k.value for k in call.keywords)]:
        if isinstance(argument, ast.Call) and isinstance(argument.func, ast.Attribute) and argument.func.attr == "__array__":
            continue
        if model.kind(argument) in (Kind.DEVICE, Kind.DEVICE_SCALAR):
            found.append(argument)
    return found


def api_calls(model: FileModel) -> list[ApiCall]:
    """Every call site of a manifest-listed API in the file, in source order."""
    return model.derived(api_calls, lambda m: list(_find(m, manifest())))


def calls_with_status(model: FileModel, status: Status) -> list[ApiCall]:
    return [c for c in api_calls(model) if c.entry.status is status]


def uses_not_implemented(model: FileModel) -> list[ApiCall]:
    """Calls of APIs cuPyNumeric does not implement and, for the names it
    lacks altogether, every other use of them, in source order."""
    found = calls_with_status(model, Status.NOT_IMPLEMENTED) + _references(model, manifest())
    return sorted(found, key=lambda c: (c.call.lineno, c.call.col_offset))


def _find(model: FileModel, table: Manifest) -> list[ApiCall]:
    if not model.uses_numpy():
        return []
    found = []
    could_name = _name_filter(model, _method_names(table, listed=True))
    for call in model.nodes(ast.Call):
        if not could_name(call.func):
            continue
        name = api_name(model, call, table)
        if name is None or name in COVERED_ELSEWHERE:
            continue
        entry = lookup(table, name)
        if entry is None:
            continue  # not a NumPy name: passed over
        if entry.api in LOOP_ITERATORS and _judged_as_loop(model, call):
            continue
        if guarded(model, call, entry.api):
            continue
        found.append(ApiCall(call, entry, hot_loop(model, call)))
    return found


_BROAD = frozenset({"Exception", "BaseException"})  # handlers that catch whatever a missing name raises


def guarded(model: FileModel, node: ast.AST, api: str, caught: frozenset[str] = frozenset({"AttributeError"})) -> bool:
    """Is the use of ``api`` one the program already guards: in the branch
    of ``if hasattr(np, "trapz"):`` (which cuPyNumeric never takes), in
    the body of a ``try`` whose handler catches the AttributeError, or
    under ``if TYPE_CHECKING:`` (which never runs)?"""
    attribute = api.rpartition(".")[2]
    child: ast.AST = node
    for parent in model.ancestors(node):
        if isinstance(parent, ast.If) and any(child is s for s in parent.body) and (
                _tests_hasattr(parent.test, attribute) or is_type_checking(parent.test)):
            return True
        if isinstance(parent, ast.Try) and any(child is s for s in parent.body) and any(_catches(h, caught) for h in parent.handlers):
            return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return False
        child = parent
    return False


def _tests_hasattr(test: ast.expr, attribute: str) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "hasattr" and len(n.args) == 2
               and isinstance(n.args[1], ast.Constant) and n.args[1].value == attribute for n in walk(test))


def _catches(handler: ast.ExceptHandler, errors: frozenset[str]) -> bool:
    if handler.type is None:
        return True
    return any(name in _BROAD or name in errors for name in caught_names(handler))


def caught_names(handler: ast.ExceptHandler) -> list[str]:
    """The exception names ``except X:`` / ``except (X, Y):`` writes out."""
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type] if handler.type is not None else []
    return [c.id for c in caught if isinstance(c, ast.Name)]


def _references(model: FileModel, table: Manifest) -> list[ApiCall]:
    """Uses, other than calls, of NumPy names cuPyNumeric lacks."""
    if not model.uses_numpy():
        return []
    def lacking(name: str) -> bool:
        entry = lookup(table, name)
        return entry is not None and entry.status is Status.NOT_IMPLEMENTED and entry.lacks is not False

    found = []
    for node in _reference_candidates(model, _method_names(table, listed=False)):
        if not isinstance(node.ctx, ast.Load) or not _is_reference(model, node):
            continue
        name = resolved_name(model, node, table, lacking)
        if name is not None and name not in COVERED_ELSEWHERE and lacking(name) and not guarded(model, node, name):
            found.append(ApiCall(node, lookup(table, name), hot_loop(model, node), called=False))  # type: ignore[arg-type]
    for alias, name in _imported_names(model):
        if guarded(model, alias, name, frozenset({"ImportError"})):
            continue
        # (a name under a submodule cuPyNumeric lacks: the module's import fails first)
        error = "ModuleNotFoundError" if _module_of(name.rpartition(".")[0], UNIMPORTABLE_SUBMODULES) else None
        if name not in COVERED_ELSEWHERE and lacking(name):
            found.append(ApiCall(alias, lookup(table, name), None, called=False, error=error))  # type: ignore[arg-type]
        elif (type_only := _type_only_import(name)) is not None:
            found.append(ApiCall(alias, type_only, None, called=False, error=error))
    reported = {id(use.call) for use in found}
    return found + _submodule_imports(model, reported)


def _submodule_imports(model: FileModel, reported: set[int]) -> list[ApiCall]:
    """``import numpy.ma as ma``, ``from numpy import testing``, ``from
    numpy.testing import assert_allclose``: the import of a submodule
    cuPyNumeric lacks fails on load (oracle-checked), once per statement;
    statements whose names are reported already are left to them."""
    root = model.device_root
    if not root:
        return []
    found = []
    in_tests = _is_test_module(model.filename)
    for node in model.nodes(ast.Import, ast.ImportFrom):
        for alias, module, error in _imported_modules(node, root):
            missing = _module_of(module, UNIMPORTABLE_SUBMODULES)
            if missing is None or any(id(a) in reported for a in node.names):
                continue
            if missing == "numpy.testing" and in_tests:
                continue  # a test compares on host NumPy: its import stays as it is
            if guarded(model, alias, module, frozenset({"ImportError", "ModuleNotFoundError"})):
                continue
            entry = ApiSupport(missing, Status.NOT_IMPLEMENTED, "Module-Level", lacks=True, kind="module")
            found.append(ApiCall(alias, entry, None, called=False, error=error))
            break  # one statement, one failure
    return found


def _is_test_module(filename: str) -> bool:
    """``test_x.py``, ``x_test.py``, ``conftest.py`` or a file under a
    ``tests``/``testing`` folder: code a port leaves on host NumPy."""
    parts = filename.replace("\\", "/").split("/")
    name = parts[-1]
    return (name.startswith("test_") or name.endswith(("_test.py", "_tests.py")) or name in ("conftest.py", "tests.py")
            or any(part in ("test", "tests", "testing") for part in parts[:-1]))


def _imported_modules(node: ast.Import | ast.ImportFrom, root: str) -> list[tuple[ast.alias, str, str]]:
    """The NumPy submodules an import statement loads, with the alias that
    names each and what a missing one raises."""
    if isinstance(node, ast.Import):
        return [(a, "numpy" + a.name[len(root):], "ModuleNotFoundError") for a in node.names
                if a.name.partition(".")[0] == root and "." in a.name]
    module = node.module or ""
    if node.level or module.partition(".")[0] != root:
        return []
    tail = module.partition(".")[2]
    if tail:
        return [(node.names[0], f"numpy.{tail}", "ModuleNotFoundError")]
    return [(a, f"numpy.{a.name}", "ImportError") for a in node.names]


def _reference_candidates(model: FileModel, methods: frozenset[str]) -> list[ast.Name | ast.Attribute]:
    """The names and attribute chains :func:`_name_filter` lets through: the
    uses of imported names and the attributes named like a method, instead
    of every node of the file."""
    found: list[ast.Name | ast.Attribute] = [a for a in model.nodes(ast.Attribute) if a.attr in methods]
    seen = {id(a) for a in found}
    return found + [n for n in model.imported_name_uses() if id(n) not in seen]


def _name_filter(model: FileModel, methods: frozenset[str]) -> Callable[[ast.expr], bool]:
    """A quick test that :func:`resolved_name` may name something: the
    chain starts at an imported name (or a star import could supply it), or
    it ends in a method some receiver class has. Nothing else resolves, so
    the many other names and attributes of a file skip the lookups."""
    if model.imports.star_imports:
        return lambda expr: True
    aliases = model.imports.aliases

    def could_name(expr: ast.expr) -> bool:
        if isinstance(expr, ast.Attribute):
            if expr.attr in methods:
                return True
            root: ast.expr = expr.value
            while isinstance(root, ast.Attribute):
                root = root.value
            return isinstance(root, ast.Name) and root.id in aliases
        return isinstance(expr, ast.Name) and expr.id in aliases

    return could_name


_METHOD_NAMES: dict[tuple[int, bool], tuple[Manifest, frozenset[str]]] = {}


def _method_names(table: Manifest, listed: bool) -> frozenset[str]:
    """Method names the manifest lists for a receiver class (``listed``), or
    only those cuPyNumeric lacks altogether; cached per manifest (the entry
    holds the manifest, so its id is not reused while cached)."""
    key = (id(table), listed)
    cached = _METHOD_NAMES.get(key)
    if cached is None or cached[0] is not table:
        found = set()
        for name, entry in table.entries.items():
            owner, _, method = name.rpartition(".")
            if owner in RECEIVER_CLASSES and (listed or (entry.status is Status.NOT_IMPLEMENTED and entry.lacks is not False)):
                found.add(method)
        cached = _METHOD_NAMES[key] = (table, frozenset(found))
    return cached[1]


def _imported_names(model: FileModel) -> list[tuple[ast.alias, str]]:
    """``from numpy import trapz`` -> (the alias, ``numpy.trapz``): the import
    itself fails when cuPyNumeric lacks the name."""
    root = model.device_root
    found = []
    for node in model.nodes(ast.ImportFrom):
        module = node.module or ""
        if node.level or not root or module.partition(".")[0] != root:
            continue
        tail = module.partition(".")[2]
        for alias in node.names:
            if alias.name != "*":
                found.append((alias, "numpy." + (f"{tail}." if tail else "") + alias.name))
    return found


def _is_reference(model: FileModel, node: ast.expr) -> bool:
    """A whole name (not the head of a longer attribute chain), not called."""
    parent = model.parent(node)
    if isinstance(parent, ast.Attribute) and parent.value is node:
        return False
    return not (isinstance(parent, ast.Call) and parent.func is node)


def api_name(model: FileModel, call: ast.Call, table: Manifest | None = None) -> str | None:
    """``numpy.<tail>`` for a device NumPy function or a method of a device
    array, random generator or ufunc.

    With ``table``, a method the manifest does not list is refused before the
    receiver's kind is worked out (most method calls are on other objects)."""
    return resolved_name(model, call.func, table)


def resolved_name(model: FileModel, expr: ast.expr, table: Manifest | None = None,
                  wanted: Callable[[str], bool] | None = None) -> str | None:
    """The manifest name ``expr`` stands for (see :func:`api_name`). A method
    is looked for only when ``wanted`` accepts it for some receiver class."""
    name = model.numpy_name(expr)
    if name is not None:
        return _ufunc_method(name, table) or name
    if not isinstance(expr, ast.Attribute) or model.qualname(expr) is not None:
        return None
    wanted = wanted or (lambda method: table is None or table.lookup(method) is not None)
    if not any(wanted(f"{owner}.{expr.attr}") for owner in RECEIVER_CLASSES):
        return None  # no class has a method of that name: not worth the receiver's kind
    owner_of_receiver = receiver_class(model, expr.value)
    return f"{owner_of_receiver}.{expr.attr}" if owner_of_receiver else None


def _ufunc_method(name: str, table: Manifest | None) -> str | None:
    """``numpy.ufunc.at`` for ``numpy.add.at`` (when ``numpy.add`` is a ufunc)."""
    head, _, method = name.rpartition(".")
    if method in UFUNC_METHODS and table is not None and table.is_ufunc(head):
        return f"numpy.ufunc.{method}"
    return None


def receiver_class(model: FileModel, value: ast.expr) -> str | None:
    """``numpy.ndarray`` for a device array, the generator class for a random
    generator whose makers the model sees (a constructor, passed in, kept on
    ``self``); None otherwise."""
    kind = model.kind(value)
    if kind is Kind.DEVICE:
        return "numpy.ndarray"
    if kind is not Kind.GENERATOR:
        return None
    return model.values.generator_class(value)


def hot_loop(model: FileModel, node: ast.AST) -> LoopFrame | None:
    """The innermost loop repeating ``node`` that is more than a handful of
    fixed iterations (a loop over three axes is not a hot path)."""
    frame = model.loop_of(node)
    while frame is not None and frame.iter_kind is IterKind.SMALL_CONSTANT:
        frame = frame.parent
    return frame


def _judged_as_loop(model: FileModel, call: ast.Call) -> bool:
    """Is the call the iterable of a loop the loop rules report — over an
    array's items (CPN103) or picking array elements with its indices
    (CPN101)? Then the fix removes the call with the loop. Anywhere else
    (``for idx in np.ndindex(shape): print(idx)``) the missing name is the
    problem: cuPyNumeric 26.6.1 has none of the three (AttributeError)."""
    if not _is_loop_iterable(model, call):
        return False
    loop = model.parent(call)
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        loop = model.parent(loop)  # the comprehension of a generator
    frame = model.loop_for_node(loop) if loop is not None else None
    if frame is None:
        return False
    if frame.iter_kind is IterKind.ARRAY:
        return True
    return frame.iter_kind is IterKind.INDEX_PRODUCT and bool(model.work(frame).own_picks)


def _is_loop_iterable(model: FileModel, call: ast.Call) -> bool:
    parent = model.parent(call)
    if isinstance(parent, (ast.For, ast.AsyncFor)) and parent.iter is call:
        return True
    generators = getattr(parent, "generators", None) or ()
    return any(generator.iter is call for generator in generators)


def where(api_call: ApiCall) -> str:
    """Message suffix for a call in a hot loop."""
    frame = api_call.hot_loop
    if frame is None:
        return ""
    what = "comprehension" if frame.is_comprehension else "loop"
    return f", inside the {what} at line {frame.line}"


def describe_call(model: FileModel, call: ast.expr | ast.alias) -> str:
    """How the use is written: ``np.interp(...)`` for a call, ``np.NaN`` otherwise."""
    if isinstance(call, ast.Call):
        return model.segment(call.func, 40) + "(...)"
    if isinstance(call, ast.alias):
        statement = model.statement_of(call) if hasattr(call, "lineno") else None
        if isinstance(statement, ast.Import):
            return f"import {call.name}"
        module = statement.module if isinstance(statement, ast.ImportFrom) else "numpy"
        return f"from {module} import {call.name}"
    return model.segment(call, 40)


def version_text(table: Manifest | None = None) -> str:
    table = table or manifest()
    return f"cuPyNumeric {table.cupynumeric_version}" if table.cupynumeric_version else "cuPyNumeric"


# NumPy APIs that read, write or print data: a call of one sits at the
# program's boundary, not on the data path the main computation works on.
BOUNDARY_APIS = frozenset({
    "numpy.load", "numpy.save", "numpy.savez", "numpy.savez_compressed", "numpy.loadtxt", "numpy.savetxt",
    "numpy.genfromtxt", "numpy.fromfile", "numpy.fromregex", "numpy.memmap", "numpy.ndarray.tofile",
    "numpy.ndarray.dump", "numpy.ndarray.dumps", "numpy.array2string", "numpy.array_repr", "numpy.array_str",
    "numpy.set_printoptions", "numpy.get_printoptions", "numpy.printoptions", "numpy.format_float_positional",
    "numpy.format_float_scientific", "numpy.binary_repr", "numpy.base_repr", "numpy.info", "numpy.source",
})


def on_data_path(model: FileModel, node: ast.AST, api: str | None = None, depth: int = 0) -> bool:
    """Is the use on the program's data path — does it make or consume the
    arrays the computation works on? Not so for I/O and printing APIs, for
    an import line, for a call made only to hand its value to a host call
    (``plt.plot(np.trapz(y, x))``, ``print(...)``), and for one in what a
    function returns when every call of it is such a call (a density
    evaluated only to be plotted)."""
    if isinstance(node, ast.alias) or (api is not None and (api in BOUNDARY_APIS or api.startswith("numpy.testing."))):
        return False
    for ancestor in model.ancestors(node):
        if isinstance(ancestor, ast.Call) and ancestor is not node and model.is_host_call(ancestor):
            return False
        if isinstance(ancestor, ast.stmt):
            if isinstance(ancestor, ast.Return) and depth < 2 and _returned_only_to_host(model, ancestor, depth):
                return False
            return not _only_shown(model, ancestor, node)
    return True


def _returned_only_to_host(model: FileModel, statement: ast.Return, depth: int) -> bool:
    """Is ``statement`` in a function whose every call (none unseen) hands
    its value straight to a host call or to a name only shown?"""
    scope = model.scope_of(statement).function_like()
    calls = model.calls
    sites = calls.sites(scope) if scope.node is not model.tree else []
    if not sites or calls.escapes(scope):
        return False
    return all(not on_data_path(model, site, depth=depth + 1) for site in sites)


def _only_shown(model: FileModel, statement: ast.stmt, call: ast.AST) -> bool:
    """``v = np.ma.array(v, mask=m)`` whose every later read hands ``v`` to
    a host call (``plt.imshow(v)``): a plot boundary, like a call made
    inside the host call."""
    if not (isinstance(statement, ast.Assign) and statement.value is call and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)):
        return False
    target = statement.targets[0]
    scope = model.scope_of(target).function_like()
    end = statement.end_lineno or statement.lineno
    reads = [n for n in walk(scope.node) if isinstance(n, ast.Name) and n.id == target.id and n.lineno > end
             and isinstance(n.ctx, ast.Load) and any(b.node is target for b in model.reaching_bindings(n))]
    if not reads:
        return False
    for read in reads:
        parent = model.parent(read)
        if not (isinstance(parent, ast.Call) and read in parent.args and model.is_host_call(parent)):
            return False
    return True


def finding_data(api_call: ApiCall, model: FileModel | None = None) -> dict[str, object]:
    entry = api_call.entry
    data: dict[str, object] = {"api": entry.api, "status": entry.status.value}
    if model is not None:
        data["data_path"] = on_data_path(model, api_call.call, entry.api)
    optional = {"note": entry.note, "lacks": entry.lacks, "replacement": entry.replacement,
                "releases": list(entry.releases) or None,
                "equivalent": ONE_LINE_EQUIVALENTS.get(entry.api) or (kept_on_numpy_fix(entry.api) if kept_on_numpy(entry.api) else None)}
    data.update({key: value for key, value in optional.items() if value is not None})
    return data


class ApiSupportRule(Rule):
    """CPN401–CPN403: one finding per use of an API whose cuPyNumeric support
    the manifest limits. A subclass says which uses (:meth:`uses`) and the
    message fields beyond the call, the API and where it is
    (:meth:`fields`)."""

    def uses(self, model: FileModel) -> list[ApiCall]:  # pragma: no cover
        raise NotImplementedError

    def fields(self, model: FileModel, use: ApiCall) -> dict[str, Any]:
        return {"version": version_text()}

    def data(self, model: FileModel, use: ApiCall) -> dict[str, object]:
        return finding_data(use)

    def check(self, model: FileModel) -> Iterator[Finding]:
        for use in self.uses(model):
            yield self.finding(
                use.call,
                in_loop=use.in_loop,
                data=self.data(model, use),
                call=describe_call(model, use.call),
                api=use.entry.api,
                where=where(use),
                **self.fields(model, use),
            )
