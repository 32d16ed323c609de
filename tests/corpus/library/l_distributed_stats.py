"""Streaming mean and variance that can be merged across MPI ranks."""
import numpy as np
import mpi4py.MPI as MPI


class RunningStats:
    """Welford's algorithm for the mean and variance of a stream of vectors."""

    def __init__(self, dim):
        self.n = 0
        self.mean = np.zeros(dim)
        self.m2 = np.zeros(dim)

    def push(self, x):
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)

    def push_batch(self, batch):
        """Push the rows of a 2-D batch one at a time."""
        assert batch.ndim == 2
        for row in batch:
            self.push(row)

    def push_batch_vectorised(self, batch):
        """Chan's merge of a whole batch at once."""
        nb = batch.shape[0]
        mb = batch.mean(axis=0)
        m2b = ((batch - mb) ** 2).sum(axis=0)
        self._merge(nb, mb, m2b)

    def _merge(self, nb, mb, m2b):
        n = self.n + nb
        delta = mb - self.mean
        self.mean = self.mean + delta * nb / n
        self.m2 = self.m2 + m2b + delta ** 2 * self.n * nb / n
        self.n = n

    @property
    def variance(self):
        return self.m2 / max(self.n - 1, 1)

    def allreduce(self, comm=MPI.COMM_WORLD):
        """Combine the statistics of every rank."""
        counts = comm.allgather(self.n)
        means = comm.allgather(self.mean)
        m2s = comm.allgather(self.m2)
        total = RunningStats(self.mean.shape[0])
        for nb, mb, m2b in zip(counts, means, m2s):
            total._merge(nb, mb, m2b)
        return total


def histogram_allreduce(values, bins, comm=MPI.COMM_WORLD):
    local, edges = np.histogram(values, bins=bins)
    total = np.empty_like(local)
    comm.Allreduce(local, total, op=MPI.SUM)
    return total, edges
