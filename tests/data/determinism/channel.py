import numpy as np

nx, ny, iters = 41, 41, 50


def relax(p, b):
    pn = np.empty_like(p)
    for _ in range(iters):
        pn = p.copy()
        p[1:-1, 1:-1] = 0.25 * (pn[1:-1, 2:] + pn[1:-1, :-2] + pn[2:, 1:-1] + pn[:-2, 1:-1] - b[1:-1, 1:-1])
        p[:, -1] = p[:, -2]
    return p


def source(u, v):
    b = np.zeros_like(u)
    b[1:-1, 1:-1] = (u[1:-1, 2:] - u[1:-1, :-2]) + (v[2:, 1:-1] - v[:-2, 1:-1])
    return b


u = np.zeros((ny, nx))
v = np.zeros((ny, nx))
p = np.ones((ny, nx))
change = 1.0
steps = 0
while change > 1e-3:
    un = u.copy()
    vn = v.copy()
    b = source(u, v)
    p = relax(p, b)
    u[1:-1, 1:-1] = un[1:-1, 1:-1] - 0.1 * (p[1:-1, 2:] - p[1:-1, :-2])
    v[1:-1, 1:-1] = vn[1:-1, 1:-1] - 0.1 * (p[2:, 1:-1] - p[:-2, 1:-1])
    change = float(np.abs(np.sum(u) - np.sum(un)))
    steps += 1
