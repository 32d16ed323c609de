"""A Lennard-Jones particle system held in a dataclass of arrays."""
from dataclasses import dataclass, field

import numpy as np


@dataclass
class ParticleSystem:
    pos: np.ndarray
    vel: np.ndarray
    mass: np.ndarray
    cutoff: float = 2.5
    energies: list = field(default_factory=list)

    @classmethod
    def lattice(cls, n_side, spacing=1.1, seed=0):
        g = np.arange(n_side) * spacing
        X, Y, Z = np.meshgrid(g, g, g, indexing="ij")
        pos = np.stack([X.ravel(), Y.ravel(), Z.ravel()], axis=1)
        rng = np.random.default_rng(seed)
        vel = rng.normal(0.0, 0.1, size=pos.shape)
        return cls(pos, vel, np.ones(pos.shape[0], dtype=np.float_))

    def kinetic_energy(self):
        return float(0.5 * np.sum(self.mass[:, None] * self.vel ** 2))

    def forces_pairwise(self):
        """Lennard-Jones forces, one pair at a time."""
        n = self.pos.shape[0]
        F = np.zeros_like(self.pos)
        for i in range(n):
            for j in range(i + 1, n):
                d = self.pos[j] - self.pos[i]
                r2 = d @ d
                if r2 < self.cutoff ** 2:
                    inv6 = 1.0 / r2 ** 3
                    f = 24.0 * (2.0 * inv6 * inv6 - inv6) / r2 * d
                    F[i] -= f
                    F[j] += f
        return F

    def forces(self):
        """Same forces with whole-array pair arithmetic."""
        d = self.pos[None, :, :] - self.pos[:, None, :]
        r2 = np.sum(d * d, axis=2)
        np.fill_diagonal(r2, np.inf)
        inv6 = np.where(r2 < self.cutoff ** 2, 1.0 / r2 ** 3, 0.0)
        coef = 24.0 * (2.0 * inv6 * inv6 - inv6) / r2
        return -np.sum(coef[:, :, None] * d, axis=1)

    def step(self, dt):
        a = self.forces() / self.mass[:, None]
        self.vel += a * dt
        self.pos += self.vel * dt

    def run(self, n_steps, dt=1e-3, log_every=50):
        for s in range(n_steps):
            self.step(dt)
            if s % log_every == 0:
                self.energies.append(self.kinetic_energy())
        return self


def simulate_slow(n_side, n_steps, dt):
    """Reference integration with the pairwise forces, logging every step."""
    system = ParticleSystem.lattice(n_side)
    trace = []
    for s in range(n_steps):
        F = system.forces_pairwise()
        system.vel += F / system.mass[:, None] * dt
        system.pos += system.vel * dt
        trace.append(system.kinetic_energy())
    return trace
