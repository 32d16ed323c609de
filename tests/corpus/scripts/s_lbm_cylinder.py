"""Lattice Boltzmann (D2Q9, BGK) flow past a cylinder in a periodic channel."""
import numpy as np
import matplotlib.pyplot as plt

NX, NY = 400, 100  # demo grid
TAU = 0.6
RHO0 = 100.0
N_STEPS = 4000
PLOT_EVERY = 500

NL = 9
idxs = np.arange(NL)
cxs = np.array([0, 0, 1, 1, 1, 0, -1, -1, -1])
cys = np.array([0, 1, 1, 0, -1, -1, -1, 0, 1])
weights = np.array([4 / 9, 1 / 9, 1 / 36, 1 / 9, 1 / 36, 1 / 9, 1 / 36, 1 / 9, 1 / 36])
OPPOSITE = [0, 5, 6, 7, 8, 1, 2, 3, 4]


def equilibrium(rho, ux, uy):
    feq = np.zeros((NY, NX, NL))
    for i in range(NL):
        cu = 3.0 * (cxs[i] * ux + cys[i] * uy)
        feq[:, :, i] = rho * weights[i] * (1.0 + cu + 0.5 * cu**2 - 1.5 * (ux**2 + uy**2))
    return feq


rng = np.random.default_rng(1)
F = np.ones((NY, NX, NL)) + 0.01 * rng.random((NY, NX, NL))
F[:, :, 3] += 2.3  # push the flow to the right
X, Y = np.meshgrid(range(NX), range(NY))
cylinder = (X - NX / 4) ** 2 + (Y - NY / 2) ** 2 < (NY / 4) ** 2
rho = np.sum(F, 2)
for i in idxs:
    F[:, :, i] *= RHO0 / rho

for it in range(N_STEPS):
    # streaming: shift each population along its lattice velocity
    for i, cx, cy in zip(idxs, cxs, cys):
        F[:, :, i] = np.roll(F[:, :, i], cx, axis=1)
        F[:, :, i] = np.roll(F[:, :, i], cy, axis=0)

    # bounce-back inside the cylinder
    bndry = F[cylinder, :]
    bndry = bndry[:, OPPOSITE]

    rho = np.sum(F, 2)
    ux = np.sum(F * cxs, 2) / rho
    uy = np.sum(F * cys, 2) / rho
    F += -(1.0 / TAU) * (F - equilibrium(rho, ux, uy))
    F[cylinder, :] = bndry

    if it % PLOT_EVERY == 0:
        ux[cylinder] = 0.0
        uy[cylinder] = 0.0
        vorticity = (np.roll(ux, -1, axis=0) - np.roll(ux, 1, axis=0)) - (
            np.roll(uy, -1, axis=1) - np.roll(uy, 1, axis=1)
        )
        vorticity[cylinder] = np.nan
        plt.imshow(vorticity, cmap="bwr", vmin=-0.1, vmax=0.1)
        plt.savefig(f"lbm_{it:05d}.png")
        plt.clf()
