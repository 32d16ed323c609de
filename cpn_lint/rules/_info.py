"""Helpers shared by the INFO rules (CPN301–CPN305).

Shapes come from the model (``model.literal_shape``); the question these
notes add is whether a call sits in a loop that hands it one independent problem per
  iteration (``for k in range(n): np.linalg.eigh(H[k])``,
  ``for sig in signals: np.fft.fft(sig)``), which a single batched call
  would replace.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..model import IterKind, Kind
from ..model.scopes import BindKind
from ..model.syntax import callee_name, walk

if TYPE_CHECKING:  # pragma: no cover
    from ..model import FileModel, LoopFrame


# ------------------------------------------------------------------- loops
def loop_variables(frame: LoopFrame) -> set[str]:
    """The names a ``for`` loop or comprehension binds on each iteration."""
    node = frame.node
    if isinstance(node, (ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif frame.is_comprehension:
        targets = [g.target for g in node.generators]  # type: ignore[attr-defined]
    else:
        return set()
    return {n.id for t in targets for n in walk(t) if isinstance(n, ast.Name)}


def per_item_loop(model: FileModel, call: ast.Call) -> LoopFrame | None:
    """The loop that feeds ``call`` one independent problem per iteration.

    That is the innermost enclosing loop whose variable selects the data:
    used as an index of an argument (``f(x[i])``, ``f(A[k, :, :])``) or passed
    as an argument itself when the loop walks items (``for sig in signals:
    f(sig)``). A loop over a handful of axes is not one.
    """
    frame = model.loop_of(call)
    arguments = list(call.args) + [kw.value for kw in call.keywords if kw.arg not in ("axis", "axes", "n", "s", "norm")]
    while frame is not None:
        if frame.iter_kind not in (IterKind.SMALL_CONSTANT, IterKind.WHILE):
            variables = loop_variables(frame)
            if variables and any(_selects_with(model, arg, variables, frame) for arg in arguments):
                return frame
        frame = frame.parent
    return None


def _selects_with(model: FileModel, arg: ast.expr, variables: set[str], frame: LoopFrame) -> bool:
    for node in walk(arg):
        if isinstance(node, ast.Subscript) and variables & {n.id for n in walk(node.slice) if isinstance(n, ast.Name)}:
            return True
    if isinstance(arg, ast.Name) and arg.id in variables and frame.iter_kind not in (IterKind.RANGE, IterKind.INDEX_PRODUCT):
        # ``for sig in signals: f(sig)``: the item itself, unless it is a number
        return _binding_is_item(model, arg)
    return False


def _binding_is_item(model: FileModel, name: ast.Name) -> bool:
    return any(b.kind is BindKind.ELEMENT for b in model.reaching_bindings(name)) and model.kind(name) not in (Kind.SCALAR, Kind.NOT)




def candidate_calls(model: FileModel, api_names: "set[str] | frozenset[str] | dict[str, object]") -> list[tuple[ast.Call, str]]:
    """Calls to the given device APIs (``"linalg.svd"``), with the API."""
    last = {name.rpartition(".")[2] for name in api_names}
    found: list[tuple[ast.Call, str]] = []
    for call in model.nodes(ast.Call):
        if callee_name(call.func) in last:
            api = model.call_api(call)
            if api in api_names:
                found.append((call, api))  # type: ignore[arg-type]
    return found


def call_text(model: FileModel, call: ast.Call) -> str:
    """``'np.linalg.svd(A)'`` as written, shortened."""
    return repr(model.segment(call, 50))
