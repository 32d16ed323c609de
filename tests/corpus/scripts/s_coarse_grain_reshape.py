"""Coarse-graining of a synthetic 2-D wave field stored as flat vectors:
block averages per frame and their row anomalies."""
import numpy as np
import matplotlib.pyplot as plt

NY, NX = 256, 256  # demo
BLOCK = 8
N_FRAMES = 200
DT = 0.05
PLOT_EVERY = 50

rng = np.random.default_rng(3)
base = rng.normal(0.0, 1.0, NY * NX)  # stored flat, as read from the instrument
omega = rng.uniform(0.5, 2.0, NY * NX)
phase = np.zeros(NY * NX)

# the first detector row is dead: zero it in the flat record
image = base.reshape(NY, NX)
image[0, :] = 0.0


def coarse_grain(frame2d):
    """Average over BLOCK x BLOCK tiles."""
    ny, nx = frame2d.shape
    tiles = frame2d.reshape(ny // BLOCK, BLOCK, nx // BLOCK, BLOCK)
    return tiles.mean(axis=(1, 3))


anomaly_power = np.zeros(N_FRAMES)
edge_phase = np.zeros(N_FRAMES)
coarse_movie = np.empty((N_FRAMES, NY // BLOCK, NX // BLOCK))
for f in range(N_FRAMES):
    background = base.reshape(NY, NX)
    phase += omega * DT
    frame = background * np.cos(phase).reshape(NY, NX)
    coarse = coarse_grain(frame)
    coarse_movie[f] = coarse
    row_mean = np.mean(coarse, axis=1).reshape((NY // BLOCK, 1))
    anomaly_power[f] = np.mean((coarse - row_mean) ** 2)
    phase_grid = phase.reshape(NY, NX)
    edge_phase[f] = np.mean(phase_grid[:, 0])
    if f % PLOT_EVERY == 0:
        plt.imshow(coarse - row_mean, cmap="RdBu_r")
        plt.savefig(f"anomaly_{f:04d}.png")
        plt.clf()

plt.plot(np.arange(N_FRAMES) * DT, anomaly_power)
plt.savefig("anomaly_power.png")
