"""2-D Ising model: Metropolis single-spin updates in typewriter order, swept
over a range of temperatures to locate the ordering transition."""
import numpy as np
import matplotlib.pyplot as plt

L = 32  # lattice side (demo)
J = 1.0
N_SWEEPS = 400
N_EQUIL = 100
temps = np.linspace(1.5, 3.5, 21)
rng = np.random.default_rng(2024)


def metropolis_sweep(spins, beta):
    """Visit every site once and flip it with the Metropolis probability."""
    n = spins.shape[0]
    for i in range(n):
        for j in range(n):
            nb = spins[(i + 1) % n, j] + spins[i - 1, j] + spins[i, (j + 1) % n] + spins[i, j - 1]
            d_e = 2.0 * J * spins[i, j] * nb
            if d_e <= 0.0 or rng.random() < np.exp(-beta * d_e):
                spins[i, j] = -spins[i, j]


def lattice_energy(spins):
    return -J * np.sum(spins * (np.roll(spins, 1, axis=0) + np.roll(spins, 1, axis=1)))


magnetisation = []
energy = []
for T in temps:
    spins = np.ones((L, L))
    beta = 1.0 / T
    m_sum = 0.0
    e_sum = 0.0
    for sweep in range(N_SWEEPS):
        metropolis_sweep(spins, beta)
        if sweep >= N_EQUIL:
            m_sum += abs(np.mean(spins))
            e_sum += lattice_energy(spins)
    n_meas = N_SWEEPS - N_EQUIL
    magnetisation.append(float(m_sum) / n_meas)
    energy.append(float(e_sum) / (n_meas * L * L))
    print(f"T = {T:.2f}  |m| = {magnetisation[-1]:.3f}")

plt.plot(temps, magnetisation, "o-", label="|m|")
plt.plot(temps, energy, "s-", label="E / N")
plt.axvline(2.0 / np.log(1.0 + np.sqrt(2.0)), color="gray", ls="--")
plt.legend()
plt.savefig("ising.png")
