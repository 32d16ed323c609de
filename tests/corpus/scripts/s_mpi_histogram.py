"""Speed distribution of a Maxwellian gas sample, optionally split over MPI
ranks; each rank histograms its share and rank 0 sums the counts."""
import numpy as np

try:
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
except ImportError:
    comm = None

N_PARTICLES = 2_000_000
KT_OVER_M = 1.5
N_BINS = 80
V_MAX = 8.0

rank = comm.Get_rank() if comm is not None else 0
size = comm.Get_size() if comm is not None else 1

rng = np.random.default_rng(10 + rank)
n_local = N_PARTICLES // size
velocities = rng.normal(0.0, KT_OVER_M**0.5, size=(n_local, 3))
speeds = np.sqrt(np.sum(velocities**2, axis=1))

edges = np.linspace(0.0, V_MAX, N_BINS + 1)
counts, _ = np.histogram(speeds, bins=edges)
total = np.zeros_like(counts)
if comm is not None:
    comm.Reduce(counts, total, op=MPI.SUM, root=0)
else:
    total[:] = counts

if rank == 0:
    centres = 0.5 * (edges[1:] + edges[:-1])
    width = edges[1] - edges[0]
    density = total / (np.sum(total) * width)
    theory = 4.0 * np.pi * centres**2 * (2.0 * np.pi * KT_OVER_M) ** -1.5 * np.exp(-(centres**2) / (2.0 * KT_OVER_M))
    print("max deviation from Maxwell", float(np.max(np.abs(density - theory))))
    sample = np.random.choice(speeds, size=10_000, replace=False)
    auto_counts, auto_edges = np.histogram(sample, bins="auto")
    print(f"auto binning chose {auto_edges.shape[0] - 1} bins")
    print("sample speed spread", float(np.std(sample)))
