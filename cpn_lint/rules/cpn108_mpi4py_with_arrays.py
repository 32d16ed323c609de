"""CPN108: mpi4py imported in a module that works with NumPy arrays."""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import BindKind, FileModel
from ..model.imports import DEVICE_ROOTS
from ..registry import Category, Invalid, Rule, Valid

# Communicator methods that move data, by buffer (capitalised) or by pickling.
_BUFFER_METHODS = frozenset(
    {
        "Send", "Recv", "Ssend", "Bsend", "Rsend", "Isend", "Irecv", "Issend",
        "Sendrecv", "Sendrecv_replace", "Bcast", "Ibcast", "Scatter", "Scatterv",
        "Iscatter", "Gather", "Gatherv", "Igather", "Allgather", "Allgatherv",
        "Iallgather", "Alltoall", "Alltoallv", "Alltoallw", "Ialltoall", "Reduce",
        "Ireduce", "Allreduce", "Iallreduce", "Reduce_scatter",
        "Reduce_scatter_block", "Scan", "Exscan", "Put", "Get", "Accumulate",
    }
)  # fmt: skip
_OBJECT_METHODS = frozenset(
    {
        "send", "recv", "isend", "irecv", "ssend", "issend", "sendrecv", "bcast",
        "scatter", "gather", "allgather", "alltoall", "reduce", "allreduce",
        "scan", "exscan",
    }
)  # fmt: skip
# Communicator methods that return another communicator.
_COMM_FACTORIES = frozenset(
    {"Dup", "Clone", "Split", "Split_type", "Create", "Create_cart", "Create_graph", "Create_group", "Merge", "Sub"}
)
_ARRAY_KEYWORDS = frozenset({"buf", "sendbuf", "recvbuf", "obj", "origin", "result"})
_MAX_LISTED = 4


class Mpi4pyWithArrays(Rule):
    """
    ## What it does
    Reports every `import mpi4py`, `import mpi4py.MPI as MPI` and
    `from mpi4py import ...` statement in a module that also calls NumPy (or
    cuPyNumeric) array functions. The message lists the MPI calls seen that
    pass arrays (`comm.Allreduce(local, total)`, `comm.Send([buf, MPI.DOUBLE],
    dest=1)`, `comm.bcast(arr, root=0)`), following `comm = MPI.COMM_WORLD`
    and communicators derived from it, or says that none were seen.

    ## Why it does not scale on cuPyNumeric
    The Legate runtime under cuPyNumeric already runs one process per rank
    and moves data between GPUs and nodes with its own communication layer.
    A second, hand-written MPI layer next to it conflicts with that layer, and
    cuPyNumeric Doctor refuses a program that imports mpi4py at all. Code
    that scatters, reduces and gathers pieces of an array by hand is doing
    work the runtime does for a single global array.

    ## Example
    ```python
    from mpi4py import MPI
    import numpy as np

    comm = MPI.COMM_WORLD
    local = np.random.rand(1_000_000)
    total = np.zeros(1)
    comm.Allreduce(np.array([local.sum()]), total, op=MPI.SUM)
    ```

    ## Use instead
    Remove mpi4py and write the algorithm on one global array; Legate splits
    it across ranks and performs the communication (recipe RR-mpi):
    ```python
    import cupynumeric as np

    data = np.random.rand(4 * 1_000_000)
    total = data.sum()
    ```
    Launch across nodes with `legate --nodes 4 --gpus 8 --launcher mpirun
    main.py`.

    ## Known false alarms
    A module that mentions mpi4py only in strings, comments or docstrings,
    or imports it without calling any NumPy function, is not reported. An
    import that is never executed (behind a feature flag) is still reported:
    Doctor rejects the program whenever the import runs.
    """

    code = "CPN108"
    slug = "mpi4py-with-arrays"
    category = Category.BLOCKS
    recipe = "RR-mpi"
    summary = "Module imports mpi4py and works with NumPy arrays"
    message = (
        "'{statement}' brings mpi4py into a module that uses NumPy arrays; Legate does the "
        "communication for cuPyNumeric and Doctor rejects mpi4py ({calls}); drop mpi4py and "
        "work on one global array (RR-mpi)"
    )
    short = "'{statement}': mpi4py beside NumPy arrays; let Legate distribute (RR-mpi)"

    valid = (
        Valid('"""Unlike the old version, this module does not use mpi4py."""\nimport numpy as np\n# from mpi4py import MPI\nx = np.zeros(3)\nnote = "import mpi4py"\n'),
        Valid("""
            from mpi4py import MPI
            comm = MPI.COMM_WORLD
            rank = comm.Get_rank()
            print(rank)
            """),
        Valid("""
            import numpy as np
            from .mpi4py import helpers
            x = np.ones(3)
            """),
        Valid("""
            import numpy as np
            import mpi4py_utils
            x = np.ones(3)
            """),
    )
    invalid = (
        Invalid(
            """
            from mpi4py import MPI
            import numpy as np
            comm = MPI.COMM_WORLD
            local = np.ones(4)
            total = np.zeros(4)
            comm.Allreduce(local, total, op=MPI.SUM)
            """,
            line=1,
            contains="comm.Allreduce (line 6)",
        ),
        Invalid("""
            import mpi4py
            import cupynumeric as np
            x = np.arange(10)
            """, line=1, contains="no MPI calls on arrays were seen"),
        Invalid(
            """
            import numpy as np
            import mpi4py.MPI as MPI
            buf = np.empty(8)
            MPI.COMM_WORLD.Bcast([buf, MPI.DOUBLE], root=0)
            """,
            line=2,
            contains="MPI.COMM_WORLD.Bcast (line 4)",
        ),
        Invalid(
            """
            import numpy as np
            from mpi4py import MPI
            world = MPI.COMM_WORLD
            rows = world.Split(color=0)
            part = np.ones(3)
            parts = rows.gather(part, root=0)
            n = rows.allreduce(3)
            """,
            line=2,
            contains="rows.gather (line 6)",
        ),
        Invalid("""
            import numpy as np
            def run():
                from mpi4py import MPI
                return np.zeros(MPI.COMM_WORLD.Get_size())
            """, line=3),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy() or "mpi4py" not in model.imports.imported_roots():
            return
        imports = [node for node in model.nodes(ast.Import, ast.ImportFrom) if _imports_mpi4py(node)]
        if not imports or not any(model.call_api(call) is not None for call in model.nodes(ast.Call)):
            return
        calls = _mpi_array_calls(model)
        if calls:
            listed = ", ".join(f"{name} (line {line})" for name, line in calls[:_MAX_LISTED])
            more = f" and {len(calls) - _MAX_LISTED} more" if len(calls) > _MAX_LISTED else ""
            seen = f"MPI calls on arrays: {listed}{more}"
        else:
            seen = "no MPI calls on arrays were seen"
        for node in imports:
            yield self.finding(
                node,
                in_loop=model.in_loop(node),
                statement=model.segment(node, 50),
                calls=seen,
                data={"mpi_array_calls": [name for name, _ in calls]},
            )


def _imports_mpi4py(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.Import):
        return any(alias.name.split(".", 1)[0] == "mpi4py" for alias in node.names)
    return node.level == 0 and (node.module or "").split(".", 1)[0] == "mpi4py"


def _mpi_array_calls(model: FileModel) -> list[tuple[str, int]]:
    """``(callee as written, line)`` of communicator calls that pass an array."""
    found: list[tuple[str, int]] = []
    for call in model.nodes(ast.Call):
        func = call.func
        if not isinstance(func, ast.Attribute):
            continue
        method = func.attr
        if method not in _BUFFER_METHODS and method not in _OBJECT_METHODS:
            continue
        communicator = _is_communicator(model, func.value)
        # An unresolved receiver (self.comm) counts only for MPI's capitalised
        # buffer methods, whose names nothing else uses.
        if communicator is False or (communicator is None and method not in _BUFFER_METHODS):
            continue
        if _passes_array(model, call):
            found.append((model.segment(func, 40), call.lineno))
    return found


def _is_communicator(model: FileModel, expr: ast.expr, depth: int = 0) -> bool | None:
    """True for an mpi4py communicator, False for something else, None if unknown."""
    if depth > 6:
        return None
    qualname = model.qualname(expr)
    if qualname is not None:
        if qualname.startswith("mpi4py.MPI.COMM_"):
            return True
        return False if qualname.split(".", 1)[0] in DEVICE_ROOTS else None
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in _COMM_FACTORIES:
        return _is_communicator(model, expr.func.value, depth + 1)
    if isinstance(expr, ast.Name):
        bindings = model.reaching_bindings(expr)
        values = [b.value for b in bindings if b.kind is BindKind.VALUE and b.value is not None]
        if not values or len(values) != len(bindings):
            return None
        verdicts = {_is_communicator(model, value, depth + 1) for value in values}
        return True if verdicts == {True} else None
    return None


def _passes_array(model: FileModel, call: ast.Call) -> bool:
    """An argument is an array, or a buffer spec ``[array, MPI.DOUBLE]``."""
    arguments = list(call.args) + [k.value for k in call.keywords if k.arg in _ARRAY_KEYWORDS]
    for argument in arguments:
        if isinstance(argument, (ast.List, ast.Tuple)) and argument.elts:
            argument = argument.elts[0]
        if model.is_array(argument):
            return True
    return False
