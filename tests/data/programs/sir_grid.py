"""Spatial SIR epidemic on a grid: infection spreads to the four neighbours."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

N = 80
DAYS = 120
BETA = 0.3
GAMMA = 0.1


def neighbours(i):
    return (np.roll(i, 1, 0) + np.roll(i, -1, 0) + np.roll(i, 1, 1) + np.roll(i, -1, 1)) / 4.0


def main():
    s = np.ones((N, N))
    i = np.zeros((N, N))
    r = np.zeros((N, N))
    i[N // 2, N // 2] = 0.5
    s -= i
    totals = np.zeros((DAYS, 3))
    for day in range(DAYS):
        new_infections = BETA * s * (i + neighbours(i))
        new_infections = np.minimum(new_infections, s)
        recoveries = GAMMA * i
        s -= new_infections
        i += new_infections - recoveries
        r += recoveries
        totals[day, 0] = s.sum()
        totals[day, 1] = i.sum()
        totals[day, 2] = r.sum()
    plt.plot(totals[:, 0], label="S")
    plt.plot(totals[:, 1], label="I")
    plt.plot(totals[:, 2], label="R")
    plt.legend()
    plt.show()
    print("recovered:", float(totals[-1, 2]))


if __name__ == "__main__":
    main()
