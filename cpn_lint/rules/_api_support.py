"""NumPy calls looked up in the API manifest (shared by CPN401-CPN403).

A call counts when its callee resolves, through the file's imports, to a
device NumPy API (``np.interp``, ``la.svd`` after ``import numpy.linalg as
la``, ``interp`` after ``from numpy import interp``, ``cupynumeric.X``) or is
a method of a device array (``arr.std()`` -> ``numpy.ndarray.std``). The host
alias beside cuPyNumeric (``onp.interp``) is not looked up: it stays NumPy.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ..manifest import ApiSupport, Manifest, Status, bundled
from ..model import FileModel, IterKind, Kind, LoopFrame

# APIs whose calls another rule reports as the blocking idiom itself; listing
# them again as "not implemented" would double-count one problem.
COVERED_ELSEWHERE: dict[str, str] = {
    "numpy.vectorize": "CPN102",
    "numpy.frompyfunc": "CPN102",
}
# Index/element iterators: as the iterable of a loop they are the element loop
# the loop rules (CPN101, CPN103) report; the fix removes the call with the loop.
LOOP_ITERATORS = frozenset({"numpy.ndindex", "numpy.ndenumerate", "numpy.nditer"})


@dataclass(frozen=True)
class ApiCall:
    """One call site of an API the manifest lists."""

    call: ast.Call
    entry: ApiSupport
    hot_loop: LoopFrame | None  # the innermost enclosing loop that repeats the call

    @property
    def in_loop(self) -> bool:
        return self.hot_loop is not None


def manifest() -> Manifest:
    return bundled()


def api_calls(model: FileModel) -> list[ApiCall]:
    """Every call site of a manifest-listed API in the file, in source order."""
    return model.derived(api_calls, lambda m: list(_find(m, manifest())))


def calls_with_status(model: FileModel, status: Status) -> list[ApiCall]:
    return [c for c in api_calls(model) if c.entry.status is status]


def _find(model: FileModel, table: Manifest) -> list[ApiCall]:
    if not model.uses_numpy():
        return []
    found = []
    for call in model.nodes(ast.Call):
        name = api_name(model, call, table)
        if name is None or name in COVERED_ELSEWHERE:
            continue
        entry = table.lookup(name)
        if entry is None:
            continue  # not in the manifest: passed over silently
        if entry.api in LOOP_ITERATORS and _is_loop_iterable(model, call):
            continue
        found.append(ApiCall(call, entry, hot_loop(model, call)))
    return found


def api_name(model: FileModel, call: ast.Call, table: Manifest | None = None) -> str | None:
    """``numpy.<tail>`` for a device NumPy function or a device-array method.

    With ``table``, a method the manifest does not list is refused before the
    receiver's kind is worked out (most method calls are on other objects)."""
    name = model.numpy_name(call.func)
    if name is not None:
        return name
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    method = f"numpy.ndarray.{func.attr}"
    if table is not None and table.lookup(method) is None:
        return None
    if model.qualname(func) is None and model.kind(func.value) is Kind.DEVICE:
        return method
    return None


def hot_loop(model: FileModel, node: ast.AST) -> LoopFrame | None:
    """The innermost loop repeating ``node`` that is more than a handful of
    fixed iterations (a loop over three axes is not a hot path)."""
    frame = model.loop_of(node)
    while frame is not None and frame.iter_kind is IterKind.SMALL_CONSTANT:
        frame = frame.parent
    return frame


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


def describe_call(model: FileModel, call: ast.Call) -> str:
    return model.segment(call.func, 40) + "(...)"


def version_text(table: Manifest | None = None) -> str:
    table = table or manifest()
    return f"cuPyNumeric {table.cupynumeric_version}" if table.cupynumeric_version else "cuPyNumeric"


def finding_data(api_call: ApiCall) -> dict[str, object]:
    data: dict[str, object] = {"api": api_call.entry.api, "status": api_call.entry.status.value}
    if api_call.entry.note:
        data["note"] = api_call.entry.note
    return data
