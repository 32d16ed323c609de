"""Hypothesis strategies for NumPy-flavoured programs.

A program is drawn as a list of statement templates and rendered with a
chosen numpy alias, so the same program can be rendered under different
aliases (``np``, ``xp``, ``numpy``) or wrapped in a function and compared.
Templates cover the idioms the rules look for and the quiet cases beside them.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

ARRAYS = ("a", "b", "u", "grid")
SIZES = ("8", "n", "64", "(n, n)", "(4, 4)")

# {np} is the numpy alias; {x}, {y} arrays; {size} a shape.
STATEMENTS: tuple[str, ...] = (
    "{x} = {np}.zeros({size})",
    "{x} = {np}.ones({size}) * 2.0",
    "{x} = {np}.arange(64.0)",
    "{x} = {np}.random.rand(64)",
    "{x} = {y} * 2.0 + 1.0",
    "total = {np}.sum({x})",
    "peak = max({x})",
    "f = {np}.vectorize(abs)",
    "evens = {x}[::2]",
    "objs = {np}.array([1, 'a'], dtype=object)",
    "flat = {x}.reshape(-1, order='F')",
    "idx = {np}.nonzero({x} > 0)\n{x}[idx] = 0.0",
    "d = {np}.diag({x})\nd[0] = 1.0",
    "{x}[{x} > 0.5] = 0.0",
    "c = {np}.where({x} > 0, {x}, 0.0)",
    "for i in range(len({x})):\n    {x}[i] = {x}[i] * 2.0",
    "for step in range(100):\n    {x}[1:-1] = 0.5 * ({x}[:-2] + {x}[2:])",
    "for step in range(100):\n    err = float({np}.max({np}.abs({x})))\n    if err < 1e-6:\n        break",
    "while {np}.max({np}.abs({x})) > 1e-3:\n    {x} = {x} * 0.5",
    "for row in {x}:\n    s = {np}.sum(row)",
    "for step in range(10):\n    tmp = {np}.zeros({size})\n    tmp[:] = {x}",
    "for step in range(10):\n    {x} = {x} + {y}",
    "for k in range(10):\n    {x} = {np}.concatenate([{x}, {y}])",
    "for axis in range(3):\n    s = {np}.sum({x}, axis=0)",
    "items = [1, 2, 3]\nfor i in range(len(items)):\n    items[i] = items[i] * 2",
    "y = {np}.zeros(64)\nfor t in range(1, 64):\n    y[t] = 0.9 * y[t - 1] + 1.0",
    "m = {np}.linalg.svd({np}.ones((4, 4)))",
    "z = {np}.fft.fft({x})",
    "v = {np}.interp({x}, {x}, {x})",
    "s = 'np.vectorize(f) in a string'",
    "# a comment mentioning {np}.vectorize",
)


@dataclass(frozen=True)
class Program:
    statements: tuple[tuple[str, str, str, str], ...]  # (template, x, y, size)
    wrap: bool

    def render(self, alias: str = "np", module: str = "numpy", *, wrap: bool | None = None,
               padding: bool = False) -> str:
        header = f"import {module} as {alias}\n" if alias != module else f"import {module}\n"
        header += "n = 16\n"
        # Every array name exists before use, whatever order templates came in.
        body_lines: list[str] = [f"{name} = {alias}.ones(64)" for name in ARRAYS]
        for template, x, y, size in self.statements:
            text = template.format(np=alias, x=x, y=y, size=size)
            body_lines.extend(text.splitlines())
            if padding:
                body_lines.extend(["", "# padding comment"])
        use_wrap = self.wrap if wrap is None else wrap
        if use_wrap:
            body = "def main():\n" + "".join(f"    {line}\n" if line else "\n" for line in body_lines) + "    return None\n"
        else:
            body = "".join(f"{line}\n" for line in body_lines)
        return header + body


statement = st.tuples(
    st.sampled_from(STATEMENTS), st.sampled_from(ARRAYS), st.sampled_from(ARRAYS), st.sampled_from(SIZES)
)
programs = st.builds(
    Program, statements=st.lists(statement, min_size=1, max_size=12).map(tuple), wrap=st.booleans()
)
