"""First-order upwind advection of a Gaussian pulse in a periodic box.

The velocity varies in space; the time step follows the CFL limit of the
fastest cell. Profiles are kept at a few output times for plotting.
"""
import numpy as np
import matplotlib.pyplot as plt

NX = 512
LENGTH = 2.0
CFL = 0.8
T_END = 4.0
PLOT_TIMES = (0.0, 1.0, 2.0, 4.0)

x = np.linspace(0.0, LENGTH, NX, endpoint=False)
dx = LENGTH / NX
vel = 1.0 + 0.5 * np.sin(2.0 * np.pi * x / LENGTH)
dt = CFL * dx / np.max(np.abs(vel))


def upwind_derivative(q, c):
    """c * dq/dx by first-order upwinding (c > 0 everywhere here)."""
    return c * (q - np.roll(q, 1)) / dx


q = np.exp(-(((x - 0.5) / 0.1) ** 2))
mass0 = np.sum(q) * dx
profiles = {0.0: q.copy()}
t = 0.0
n = 0
next_plot = 1
while t < T_END:
    q = q - dt * upwind_derivative(q, vel)
    t += dt
    n += 1
    if next_plot < len(PLOT_TIMES) and t >= PLOT_TIMES[next_plot]:
        profiles[PLOT_TIMES[next_plot]] = q.copy()
        next_plot += 1

mass_change = abs(np.sum(q) * dx - mass0) / mass0
print(f"{n} steps, relative mass change {float(mass_change):.2e}")

for t_out, profile in profiles.items():
    plt.plot(x, profile, label=f"t = {t_out:g}")
plt.legend()
plt.xlabel("x")
plt.savefig("advection.png")
