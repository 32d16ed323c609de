"""Monte-Carlo estimate of pi, batches of samples on every MPI rank."""
import mpi4py.MPI as MPI
import numpy as np

BATCH = 1_000_000
N_BATCHES = 100
REPORT_EVERY = 20

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
rng = np.random.default_rng(1234 + rank)

hits = 0
for batch in range(N_BATCHES):
    x = rng.random(BATCH)
    y = rng.random(BATCH)
    hits += np.count_nonzero(x * x + y * y <= 1.0)
    if rank == 0 and batch % REPORT_EVERY == 0:
        print(f"rank 0, batch {batch}: pi ~ {4.0 * float(hits) / ((batch + 1) * BATCH):.6f}")

total = comm.reduce(hits, op=MPI.SUM, root=0)
if rank == 0:
    n_total = N_BATCHES * BATCH * comm.Get_size()
    estimate = 4.0 * total / n_total
    print(f"pi ~ {float(estimate):.8f} from {n_total} samples")
