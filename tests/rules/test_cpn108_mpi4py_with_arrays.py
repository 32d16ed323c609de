"""CPN108 (mpi4py-with-arrays) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import textwrap

from cpn_lint import lint_source


def _findings(code: str, source: str) -> list:
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code == code]


# ---------------------------------------------------------------------- CPN108
def test_mpi4py_one_finding_per_import_statement() -> None:
    source = "import numpy as np, mpi4py\nfrom mpi4py import MPI, futures\nx = np.ones(3)\n"
    assert [f.line for f in _findings("CPN108", source)] == [1, 2]


def test_mpi4py_star_import_is_reported() -> None:
    assert [f.line for f in _findings("CPN108", "from mpi4py import *\nimport numpy as np\nx = np.ones(3)\n")] == [1]


def test_mpi4py_without_numpy_calls_is_quiet() -> None:
    assert _findings("CPN108", "import numpy as np\nfrom mpi4py import MPI\nrank = MPI.COMM_WORLD.Get_rank()\n") == []


def test_mpi4py_lists_array_calls_through_bindings_only() -> None:
    source = """
        import numpy as np
        from mpi4py import MPI
        comm = MPI.COMM_WORLD
        dup = comm.Dup()
        data = np.ones(8)
        dup.Allreduce(MPI.IN_PLACE, data)
        comm.send(data, dest=1)
        comm.send({'k': 1}, dest=1)
        queue = []
        queue.reduce(data)
        """
    (finding,) = _findings("CPN108", source)
    assert finding.data["mpi_array_calls"] == ["dup.Allreduce", "comm.send"]
    assert "dup.Allreduce (line 7)" in finding.message


def test_mpi4py_truncates_a_long_call_list() -> None:
    calls = "".join(f"comm.Bcast(buf, root={i})\n" for i in range(6))
    source = "import numpy as np\nfrom mpi4py import MPI\ncomm = MPI.COMM_WORLD\nbuf = np.ones(3)\n" + calls
    (finding,) = _findings("CPN108", source)
    assert "and 2 more" in finding.message
