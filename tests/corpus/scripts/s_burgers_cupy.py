"""1-D viscous Burgers equation by a pseudo-spectral method.

The update runs on cuPyNumeric; the FFTs were moved to CuPy while porting.
"""
import cupy as cp
import cupynumeric as np
import numpy as onp
import matplotlib.pyplot as plt

N = 1024  # modes (demo)
NU = 0.02
DT = 1.0e-4
N_STEPS = 5000
SAVE_EVERY = 500

x = np.linspace(0.0, 2.0 * onp.pi, N, endpoint=False)
u = np.sin(x) + 0.5 * np.sin(2.0 * x)
k = cp.asarray(onp.fft.fftfreq(N, d=1.0 / N))
dealias = cp.abs(k) < (2.0 / 3.0) * (N / 2)

frames = []
for step in range(N_STEPS):
    u_hat = cp.fft.fft(cp.asarray(u))
    du = np.asarray(cp.asnumpy(cp.fft.ifft(1j * k * u_hat * dealias).real))
    d2u = np.asarray(cp.asnumpy(cp.fft.ifft(-(k**2) * u_hat).real))
    u = u + DT * (NU * d2u - u * du)
    if step % SAVE_EVERY == 0:
        frames.append(u.copy())

spectra = []
for frame in frames:
    power = cp.abs(cp.fft.rfft(cp.asarray(frame))) ** 2
    spectra.append(np.asarray(cp.asnumpy(power)) / N**2)

u_gpu = cp.asarray(u)
host_spectra = []
for shift in range(4):
    shifted = cp.roll(u_gpu, shift * N // 4)
    host_spectra.append(cp.asnumpy(cp.abs(cp.fft.rfft(shifted))))

for s in spectra:
    plt.semilogy(onp.asarray(s)[1 : N // 2])
plt.savefig("burgers_spectra.png")
