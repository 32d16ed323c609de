"""Gray-Scott reaction-diffusion on a periodic square (spots and stripes)."""
import numpy as np
import matplotlib.pyplot as plt

N = 256  # grid (demo)
DU, DV = 0.16, 0.08
FEED, KILL = 0.035, 0.065
DT = 1.0
N_STEPS = 10000
FRAME_EVERY = 1000


def laplacian(Z):
    """Five-point Laplacian with periodic wrap."""
    return (
        np.roll(Z, 1, axis=0)
        + np.roll(Z, -1, axis=0)
        + np.roll(Z, 1, axis=1)
        + np.roll(Z, -1, axis=1)
        - 4.0 * Z
    )


rng = np.random.default_rng(5)
U = np.ones((N, N))
V = np.zeros((N, N))
mid = N // 2
U[mid - 10 : mid + 10, mid - 10 : mid + 10] = 0.50
V[mid - 10 : mid + 10, mid - 10 : mid + 10] = 0.25
V += 0.05 * rng.random((N, N))

frames = []
mean_v = np.zeros(N_STEPS)
for step in range(N_STEPS):
    uvv = U * V * V
    U += DT * (DU * laplacian(U) - uvv + FEED * (1.0 - U))
    V += DT * (DV * laplacian(V) + uvv - (FEED + KILL) * V)
    mean_v[step] = V.mean()
    if step % FRAME_EVERY == 0:
        frames.append(V.copy())

movie = np.stack(frames)
fig, axes = plt.subplots(2, 5, figsize=(15, 6))
for k, ax in enumerate(axes.flat):
    ax.imshow(movie[k], cmap="viridis")
    ax.set_axis_off()
fig.savefig("gray_scott.png")
print("pattern contrast", float(V.max() - V.min()))
