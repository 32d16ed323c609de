"""Deterministic synthetic NumPy programs of a requested size, for the scaling measure.

A generated module reads like a real numerical code base: imports and constants,
then a long run of functions and classes drawn from a dozen kernels (stencils
written as element loops and as slices, reductions, convergence loops with host
syncs, accumulate-and-stack, masked updates, time-stepping classes), with
varied names, constants and shapes, and now and then a module-level driver
section that rebinds the same script variables, as notebooks and scripts do.
Nothing is one line repeated: every block differs in names and numbers.

The output depends only on ``(lines, seed)``: the generator uses its own
SplitMix64 stream, not :mod:`random`, so it is identical on every Python
version and platform.
"""

from __future__ import annotations

from typing import Callable

_MASK64 = (1 << 64) - 1


class SplitMix64:
    """A tiny, portable pseudo-random stream (Steele, Lea and Flood's SplitMix64)."""

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK64

    def next(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An integer in ``[0, n)``."""
        return self.next() % n

    def between(self, low: int, high: int) -> int:
        """An integer in ``[low, high]``."""
        return low + self.below(high - low + 1)

    def choice(self, items: tuple[str, ...]) -> str:
        return items[self.below(len(items))]

    def real(self, low: float, high: float, digits: int = 3) -> str:
        """A decimal literal in ``[low, high)`` with ``digits`` decimals."""
        fraction = self.next() / float(1 << 64)
        return f"{low + (high - low) * fraction:.{digits}f}"


_NOUNS = (
    "heat", "wave", "flux", "pressure", "density", "velocity", "charge", "stress",
    "signal", "spectrum", "field", "potential", "strain", "vorticity", "species", "tracer",
)
_VERBS = ("relax", "advance", "smooth", "update", "integrate", "filter", "project", "correct")
_AXES = ("0", "1", "-1")
_DTYPES = ("np.float64", "np.float32", "np.complex128", "float")
_ORDERS = ("C", "F")


def _name(rng: SplitMix64, index: int) -> str:
    return f"{rng.choice(_VERBS)}_{rng.choice(_NOUNS)}_{index}"


def _jacobi_loop(rng: SplitMix64, i: int) -> list[str]:
    n_iter, tol, w = rng.between(5, 200), rng.real(1e-6, 1e-3, 6), rng.real(0.1, 0.3)
    return [
        f"def {_name(rng, i)}(u, n_iter={n_iter}):",
        '    """Relax ``u`` with a five-point stencil, one element at a time."""',
        "    nx, ny = u.shape",
        "    new = np.empty_like(u)",
        "    for sweep in range(n_iter):",
        "        for i in range(1, nx - 1):",
        "            for j in range(1, ny - 1):",
        f"                new[i, j] = {w} * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])",
        "        u, new = new, u",
        f"        if float(np.abs(u - new).max()) < {tol}:",
        "            break",
        "    return u",
    ]


def _sliced_stencil(rng: SplitMix64, i: int) -> list[str]:
    alpha = rng.real(0.01, 0.25)
    return [
        f"def {_name(rng, i)}(grid, alpha={alpha}):",
        "    inner = grid[1:-1, 1:-1]",
        "    lap = grid[:-2, 1:-1] + grid[2:, 1:-1] + grid[1:-1, :-2] + grid[1:-1, 2:] - 4.0 * inner",
        "    out = grid.copy()",
        "    out[1:-1, 1:-1] = inner + alpha * lap",
        f"    out[0, :] = out[1, :] * {rng.real(0.5, 1.0)}",
        "    out[-1, :] = out[-2, :]",
        "    return out",
    ]


def _reduction_sync(rng: SplitMix64, i: int) -> list[str]:
    dt = rng.real(1e-4, 1e-2, 5)
    return [
        f"def {_name(rng, i)}(states, dt={dt}):",
        "    energy = 0.0",
        "    for step in range(states.shape[0]):",
        f"        kinetic = {rng.real(0.4, 0.6)} * np.sum(states[step] ** 2)",
        "        energy += kinetic.item() * dt",
        f"        if step % {rng.between(10, 100)} == 0:",
        "            print('step', step, float(np.max(states[step])))",
        "    return energy",
    ]


def _convergence(rng: SplitMix64, i: int) -> list[str]:
    tol, max_iter, w = rng.real(1e-8, 1e-4, 8), rng.between(50, 5000), rng.real(0.05, 0.9)
    return [
        f"def {_name(rng, i)}(a, b, tol={tol}, max_iter={max_iter}):",
        "    x = np.zeros_like(b)",
        "    residual = b - a @ x",
        "    count = 0",
        "    while np.linalg.norm(residual) > tol and count < max_iter:",
        f"        x = x + {w} * residual",
        "        residual = b - a @ x",
        "        count += 1",
        "    return x, count",
    ]


def _accumulate(rng: SplitMix64, i: int) -> list[str]:
    width, axis = rng.between(2, 64), rng.choice(_AXES[:2])
    return [
        f"def {_name(rng, i)}(samples, width={width}):",
        "    parts = []",
        "    for k in range(len(samples) - width):",
        "        window = samples[k:k + width]",
        f"        parts.append(np.mean(window, axis={axis}))",
        "    stacked = np.stack(parts)",
        "    return np.concatenate([stacked, stacked[-1:]])",
    ]


def _masked(rng: SplitMix64, i: int) -> list[str]:
    lo, hi = rng.real(-5.0, 0.0), rng.real(0.0, 5.0)
    return [
        f"def {_name(rng, i)}(x, lo={lo}, hi={hi}):",
        "    y = np.where(x < lo, lo, x)",
        "    y = np.where(y > hi, hi, y)",
        "    mask = np.isnan(y)",
        "    y[mask] = 0.0",
        "    idx = np.nonzero(y > hi / 2)",
        "    y[idx] *= 0.5",
        "    return y",
    ]


def _time_stepper(rng: SplitMix64, i: int) -> list[str]:
    noun = rng.choice(_NOUNS).capitalize()
    n, kappa, dt = rng.between(16, 4096), rng.real(0.01, 1.0), rng.real(0.001, 0.1)
    return [
        f"class {noun}Model{i}:",
        f'    """Explicit diffusion of a {noun.lower()} field."""',
        "",
        f"    def __init__(self, n={n}, kappa={kappa}):",
        "        self.n = n",
        "        self.kappa = kappa",
        f"        self.grid = np.zeros((n, n), dtype={rng.choice(_DTYPES)}, order={rng.choice(_ORDERS)!r})",
        "",
        "    def step(self, dt):",
        "        g = self.grid",
        "        self.grid = g + self.kappa * dt * (np.roll(g, 1, 0) + np.roll(g, -1, 0) - 2 * g)",
        "        return self.grid",
        "",
        "    def run(self, steps):",
        "        history = []",
        "        for s in range(steps):",
        f"            history.append(float(self.step({dt}).sum()))",
        "        return np.asarray(history)",
    ]


def _vectorize(rng: SplitMix64, i: int) -> list[str]:
    scale = rng.real(0.5, 3.0)
    return [
        f"def {_name(rng, i)}(values):",
        f"    ramp = np.vectorize(lambda v: v * {scale} if v > 0 else -v)",
        "    shaped = ramp(values)",
        "    return np.apply_along_axis(np.sort, 0, shaped)",
    ]


def _row_loop(rng: SplitMix64, i: int) -> list[str]:
    return [
        f"def {_name(rng, i)}(matrix, weights):",
        "    out = np.empty(matrix.shape[0])",
        "    for r, row in enumerate(matrix):",
        f"        out[r] = np.dot(row, weights) + {rng.real(-1.0, 1.0)}",
        "    norms = [float(v) for v in out.tolist()]",
        "    return out, max(norms)",
    ]


def _fft_pipeline(rng: SplitMix64, i: int) -> list[str]:
    cutoff = rng.between(4, 512)
    return [
        f"def {_name(rng, i)}(signal, cutoff={cutoff}):",
        "    spectrum = np.fft.rfft(signal, axis=-1)",
        "    spectrum[..., cutoff:] = 0",
        "    smooth = np.fft.irfft(spectrum, n=signal.shape[-1], axis=-1)",
        f"    order = np.argsort(smooth, axis={rng.choice(_AXES)})",
        "    return np.take_along_axis(smooth, order, axis=-1)",
    ]


def _strided(rng: SplitMix64, i: int) -> list[str]:
    step = rng.between(2, 8)
    return [
        f"def {_name(rng, i)}(a):",
        f"    coarse = a[::{step}, ::{step}]",
        f"    fine = np.repeat(np.repeat(coarse, {step}, axis=0), {step}, axis=1)",
        "    tiles = np.ascontiguousarray(fine[: a.shape[0], : a.shape[1]])",
        "    return a - tiles",
    ]


def _helpers(rng: SplitMix64, i: int) -> list[str]:
    eps = rng.real(1e-12, 1e-6, 12)
    return [
        f"def {_name(rng, i)}(a, b=None, *, eps={eps}):",
        "    if b is None:",
        "        b = np.ones_like(a)",
        "    denom = np.where(np.abs(b) < eps, eps, b)",
        "    ratio = a / denom",
        "    total = ratio.sum(axis=0)",
        "    labels = np.empty(ratio.shape[0], dtype=object)",
        "    return ratio, total / max(1, ratio.shape[0]), labels",
    ]


_KERNELS: tuple[Callable[[SplitMix64, int], list[str]], ...] = (
    _jacobi_loop, _sliced_stencil, _reduction_sync, _convergence, _accumulate, _masked,
    _time_stepper, _vectorize, _row_loop, _fft_pipeline, _strided, _helpers,
)

_DRIVER_EVERY = 12  # a module-level driver section after this many kernels


def _driver(rng: SplitMix64, i: int, recent: list[str]) -> list[str]:
    """Script-style code at module level that rebinds the same names each time."""
    n = rng.between(32, 2048)
    lines = [
        "",
        f"# --- driver {i}",
        f"grid = np.random.default_rng({rng.between(0, 10_000)}).random(({n}, {n}))",
        f"total = {rng.real(0.0, 1.0)}",
    ]
    for name in recent[-3:]:
        lines.append(f"result = {name}(grid)")
        lines.append("total = total + float(np.sum(result[0] if isinstance(result, tuple) else result))")
    lines.append("history.append(total)")
    lines.append("")
    return lines


_HEADER = [
    '"""Synthetic numerical kernels generated for the cpn-lint scaling benchmark."""',
    "",
    "import math",
    "",
    "import numpy as np",
    "",
    "GRID = 512",
    "STEPS = 100",
    "history = []",
    "",
]


def generate(lines: int, seed: int = 0) -> str:
    """A NumPy module of about ``lines`` lines (never fewer; at most one block more)."""
    if lines < 1:
        raise ValueError("lines must be at least 1")
    rng = SplitMix64(seed * 0x2545F4914F6CDD1D + lines)
    out = list(_HEADER)
    recent: list[str] = []
    index = 0
    while len(out) < lines:
        kernel = _KERNELS[rng.below(len(_KERNELS))]
        block = kernel(rng, index)
        if block[0].startswith("def "):
            recent.append(block[0][4:block[0].index("(")])
        out.extend(block)
        out.extend(["", ""])
        index += 1
        if index % _DRIVER_EVERY == 0 and recent:
            out.extend(_driver(rng, index, recent))
    return "\n".join(out) + "\n"


def line_count(source: str) -> int:
    return source.count("\n") + (0 if source.endswith("\n") or not source else 1)
