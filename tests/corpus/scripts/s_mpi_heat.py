"""1-D heat equation decomposed over MPI ranks, with ghost-cell exchange."""
from mpi4py import MPI
import numpy as np

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
size = comm.Get_size()

N_GLOBAL = 1_000_000
ALPHA = 0.25
N_STEPS = 1000
CHECK_EVERY = 100

n_local = N_GLOBAL // size
u = np.zeros(n_local + 2)  # one ghost cell at each end
xs = (rank * n_local + np.arange(n_local)) / N_GLOBAL
u[1:-1] = np.exp(-200.0 * (xs - 0.5) ** 2)

left = rank - 1 if rank > 0 else MPI.PROC_NULL
right = rank + 1 if rank < size - 1 else MPI.PROC_NULL

for step in range(N_STEPS):
    comm.Sendrecv(u[1:2], dest=left, recvbuf=u[-1:], source=right)
    comm.Sendrecv(u[-2:-1], dest=right, recvbuf=u[0:1], source=left)
    u[1:-1] = u[1:-1] + ALPHA * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    if step % CHECK_EVERY == 0:
        local = np.array([np.sum(u[1:-1])])
        total = np.zeros(1)
        comm.Allreduce(local, total, op=MPI.SUM)
        if rank == 0:
            print(f"step {step}: total heat {total[0]:.6f}")

full = np.empty(N_GLOBAL) if rank == 0 else None
comm.Gather(u[1:-1], full, root=0)
if rank == 0:
    np.savetxt("heat_final.txt", full[::1000])
