"""Particle in a finite square well: eigenstates of the finite-difference
Hamiltonian and the spectral time evolution of a Gaussian wave packet."""
import numpy as np
import matplotlib.pyplot as plt

N = 400  # grid points (demo)
X_MAX = 10.0
V0 = 20.0
WIDTH = 2.0
DT = 0.01
N_STEPS = 500

x = np.linspace(-X_MAX, X_MAX, N)
dx = 2.0 * X_MAX / (N - 1)
potential = np.where(np.abs(x) < WIDTH / 2, -V0, 0.0)

off = np.full(N - 1, -0.5 / dx**2)
H = np.diag(np.full(N, 1.0 / dx**2) + potential) + np.diag(off, 1) + np.diag(off, -1)
energies, states = np.linalg.eigh(H)
states /= np.sqrt(dx)
print("lowest bound-state energies:", energies[:4])
shifted = np.diag(H).copy()
shifted -= energies[0]
print("diagonal range after the shift", float(shifted.min()), float(shifted.max()))

# orthonormality of the computed eigenvectors
gram = states.T @ states * dx
worst_diag = 0.0
worst_off = 0.0
for i in range(N):
    worst_diag = max(worst_diag, abs(gram[i, i] - 1.0))
    for j in range(i + 1, N):
        worst_off = max(worst_off, abs(gram[i, j]))
print(f"orthonormality: diagonal {float(worst_diag):.1e}, off-diagonal {float(worst_off):.1e}")

psi = np.exp(-((x + 4.0) ** 2) / 2.0 + 3.0j * x)
psi /= np.sqrt(np.sum(np.abs(psi) ** 2) * dx)
coeffs = states.T @ psi * dx
phases = np.exp(-1.0j * energies * DT)
prob = np.zeros((N_STEPS, N))
norms = []
for n in range(N_STEPS):
    coeffs = coeffs * phases
    psi = states @ coeffs
    prob[n] = np.abs(psi) ** 2
    norms.append(float(np.sum(prob[n]) * dx))

print(f"norm drift {max(norms) - min(norms):.2e}")

transmitted = np.sum(prob[:, x > WIDTH / 2], axis=1) * dx
flat = prob.ravel()
flat[flat < 1.0e-12] = 1.0e-12
plt.imshow(np.log10(prob), aspect="auto", extent=(-X_MAX, X_MAX, N_STEPS * DT, 0.0))
plt.savefig("wavepacket.png")
plt.figure()
plt.plot(np.arange(N_STEPS) * DT, transmitted)
plt.savefig("transmission.png")
