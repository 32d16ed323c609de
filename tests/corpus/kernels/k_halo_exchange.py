"""Domain-decomposed 1-D diffusion with an explicit halo exchange, and the
global reductions that go with it."""
import mpi4py
mpi4py.rc.threads = False
from mpi4py import MPI
import numpy as np


def local_diffusion(n_global, n_steps, nu, comm=MPI.COMM_WORLD):
    """Each rank owns n_global // size cells plus one ghost cell per side."""
    rank, size = comm.Get_rank(), comm.Get_size()
    n_local = n_global // size
    u = np.zeros(n_local + 2)
    x = (np.arange(n_local) + rank * n_local) / n_global
    u[1:-1] = np.exp(-100.0 * (x - 0.5) ** 2)
    left = (rank - 1) % size
    right = (rank + 1) % size
    for step in range(n_steps):
        comm.Sendrecv(u[1:2], dest=left, recvbuf=u[-1:], source=right)
        comm.Sendrecv(u[-2:-1], dest=right, recvbuf=u[0:1], source=left)
        u[1:-1] = u[1:-1] + nu * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    total = np.zeros(1)
    comm.Allreduce(np.array([u[1:-1].sum()]), total, op=MPI.SUM)
    return u[1:-1], total[0]


def global_dot(a, b, comm=MPI.COMM_WORLD):
    """Dot product of two distributed vectors."""
    local = np.array([np.dot(a, b)])
    out = np.empty(1)
    comm.Allreduce(local, out, op=MPI.SUM)
    return out[0]


def global_norm(a, comm=MPI.COMM_WORLD):
    return np.sqrt(global_dot(a, a, comm))


def gather_field(u_local, comm=MPI.COMM_WORLD):
    """The whole field on rank 0."""
    pieces = comm.gather(u_local, root=0)
    if comm.Get_rank() == 0:
        return np.concatenate(pieces)
    return None
