"""Cooling of a rod with one end held hot: explicit finite differences, in the
interactive pylab style of an old lab handout."""
from pylab import *

nx = 101
L = 1.0
alpha = 1.0e-4
t_end = 600.0
dx = L / (nx - 1)
dt = 0.4 * dx**2 / alpha
nt = int(t_end / dt)

x = linspace(0, L, nx)
T = zeros(nx)
T[0] = 100.0
history = zeros((nt // 100 + 1, nx))

for n in range(nt):
    Tn = T.copy()
    for i in range(1, nx - 1):
        T[i] = Tn[i] + alpha * dt / dx**2 * (Tn[i + 1] - 2 * Tn[i] + Tn[i - 1])
    T[-1] = T[-2]  # insulated far end
    if n % 100 == 0:
        history[n // 100] = T
        plot(x, T, color="tab:red", alpha=0.3)

xlabel("x (m)")
ylabel("T (C)")
savefig("rod_profiles.png")

flux = -gradient(T, dx)[0]
print("heat flux into the hot end", flux)
print("peak temperature", max(T))
print("heat content", sum(T) * dx)
centre = [snap[nx // 2] for snap in history]
figure()
plot(arange(len(centre)) * 100 * dt, centre)
savefig("rod_centre.png")
