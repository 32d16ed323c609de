"""SIR model with vaccination (S, I, R, V), integrated with classic RK4 for
three vaccination rates; reports the epidemic peak of each."""
import numpy as np
import matplotlib.pyplot as plt

BETA = 0.3  # infections per contact per day
GAMMA = 0.1  # recovery rate per day
POP = 1.0e6
DAYS = 200.0
DT = 0.1
VACC_RATES = [0.0, 0.002, 0.005]


def rhs(y, nu):
    s, i, r, v = y[0], y[1], y[2], y[3]
    infection = BETA * s * i / POP
    return np.array([-infection - nu * s, infection - GAMMA * i, GAMMA * i, nu * s])


def integrate(y0, nu, n_steps):
    y = y0.copy()
    out = np.zeros((n_steps + 1, 4))
    out[0] = y
    for n in range(n_steps):
        k1 = rhs(y, nu)
        k2 = rhs(y + 0.5 * DT * k1, nu)
        k3 = rhs(y + 0.5 * DT * k2, nu)
        k4 = rhs(y + DT * k3, nu)
        y = y + DT / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        out[n + 1] = y
    return out


n_steps = int(DAYS / DT)
y0 = np.array([POP - 10.0, 10.0, 0.0, 0.0])
t = np.linspace(0.0, DAYS, n_steps + 1)
results = {}
for nu in VACC_RATES:
    traj = integrate(y0, nu, n_steps)
    results[nu] = traj
    peak_day = t[np.argmax(traj[:, 1])]
    print(f"nu = {nu}: peak {float(traj[:, 1].max()):.0f} infected on day {float(peak_day):.1f}")

print("extreme rates:", VACC_RATES[::2])
fig, ax = plt.subplots()
for nu, traj in results.items():
    ax.plot(t, traj[:, 1] / POP, label=f"nu = {nu}")
ax.set_xlabel("day")
ax.set_ylabel("infected fraction")
ax.legend()
fig.savefig("sir.png")
