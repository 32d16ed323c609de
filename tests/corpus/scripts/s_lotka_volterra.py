"""Predator-prey (Lotka-Volterra) dynamics: one long trajectory, and a phase
portrait of many initial conditions integrated side by side."""
import numpy as np
import matplotlib.pyplot as plt

ALPHA, BETA, DELTA, GAMMA = 1.1, 0.4, 0.1, 0.4
DT = 0.01
N_STEPS = 20_000
N_ORBITS = 400
N_ORBIT_STEPS = 3000
SAMPLE_EVERY = 10


def lv(state):
    prey, pred = state[0], state[1]
    return np.array([ALPHA * prey - BETA * prey * pred, DELTA * prey * pred - GAMMA * pred])


def rk4_step(f, y, dt):
    k1 = f(y)
    k2 = f(y + 0.5 * dt * k1)
    k3 = f(y + 0.5 * dt * k2)
    k4 = f(y + dt * k3)
    return y + dt * (k1 + 2.0 * k2 + 2.0 * k3 + k4) / 6.0


state = np.array([10.0, 5.0])
history = np.empty((N_STEPS + 1, 2))
history[0] = state
for n in range(N_STEPS):
    state = rk4_step(lv, state, DT)
    history[n + 1] = state

up = (history[:-1, 0] < 10.0) & (history[1:, 0] >= 10.0)
crossings = np.nonzero(up)[0]
period = np.mean(np.diff(crossings)) * DT
print(f"oscillation period {float(period):.2f}")


def lv_rates(prey, pred):
    return ALPHA * prey - BETA * prey * pred, DELTA * prey * pred - GAMMA * pred


prey = np.linspace(2.0, 20.0, N_ORBITS)
pred = np.full(N_ORBITS, 5.0)
samples = np.empty((2, N_ORBITS, N_ORBIT_STEPS // SAMPLE_EVERY))
for n in range(N_ORBIT_STEPS):
    a1, b1 = lv_rates(prey, pred)
    a2, b2 = lv_rates(prey + 0.5 * DT * a1, pred + 0.5 * DT * b1)
    a3, b3 = lv_rates(prey + 0.5 * DT * a2, pred + 0.5 * DT * b2)
    a4, b4 = lv_rates(prey + DT * a3, pred + DT * b3)
    prey = prey + DT * (a1 + 2.0 * a2 + 2.0 * a3 + a4) / 6.0
    pred = pred + DT * (b1 + 2.0 * b2 + 2.0 * b3 + b4) / 6.0
    if n % SAMPLE_EVERY == 0:
        samples[0, :, n // SAMPLE_EVERY] = prey
        samples[1, :, n // SAMPLE_EVERY] = pred

plt.plot(history[:, 0], history[:, 1], "k", lw=1)
plt.plot(samples[0, :40].T, samples[1, :40].T, lw=0.3)
plt.xlabel("prey")
plt.ylabel("predators")
plt.savefig("lotka_volterra.png")
