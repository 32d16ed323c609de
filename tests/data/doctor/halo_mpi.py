"""A diffusion step split across MPI ranks, with a halo swap every step.

Run under cuPyNumeric Doctor by ``python -m tests.oracle_support capture``
(one rank); the report beside this file is what Doctor wrote.
"""

import numpy as np
from mpi4py import MPI

comm = MPI.COMM_WORLD


def swap_halos(u):
    rank, size = comm.Get_rank(), comm.Get_size()
    above = rank - 1 if rank > 0 else MPI.PROC_NULL
    below = rank + 1 if rank < size - 1 else MPI.PROC_NULL
    comm.Sendrecv(u[1, :], dest=above, recvbuf=u[-1, :], source=below)


def run(rows, cols, steps):
    u = np.zeros((rows + 2, cols))
    u[rows // 2, cols // 2] = 1.0
    for _ in range(steps):
        swap_halos(u)
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return comm.allreduce(np.sum(u), op=MPI.SUM)


if __name__ == "__main__":
    print(run(rows=16, cols=16, steps=12))
