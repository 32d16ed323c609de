"""CPN304: random numbers differ between GPU counts (INFO)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, Kind
from ..model.numpy_api import GENERATOR_DRAWS
from ..registry import Category, Default, Invalid, Rule, Valid

# Calls that create a generator object rather than draw from the module's
# global one.
_CREATORS = frozenset({"random.default_rng", "random.RandomState", "random.Generator"})
_GLOBAL_STREAM = "module"  # np.random.seed / np.random.rand / np.random.normal / ...
_OBJECT_STREAM = "generator"  # default_rng(...) and draws from it
_SHOWN = 4


@dataclass
class _Stream:
    calls: list[ast.Call] = field(default_factory=list)
    apis: list[str] = field(default_factory=list)
    seeds: list[str] = field(default_factory=list)


class RandomReproducibility(Rule):
    """
    ## What it does
    Reports the use of NumPy's random numbers once per file and stream, at
    the first call: one finding for the module-level functions
    (`np.random.seed`, `np.random.rand`, `np.random.normal`, ...) and one for
    generator objects (`np.random.default_rng(seed)`, `RandomState(seed)` and
    the draws made from them, `rng.normal(...)`). The message lists the calls
    (up to four), how many sites there are, and the seed when one is fixed.
    A note per call site would repeat the same fact many times; a note per
    stream says it once and cites where it starts.

    ## Why it does not scale on cuPyNumeric
    cuPyNumeric generates random numbers on the GPUs (cuRAND), each GPU
    filling its own block of the result. The values therefore depend on how
    the array is split: with the same seed, a run on the same number of GPUs
    repeats itself, but a 1-GPU run and an 8-GPU run produce different
    numbers, and neither matches NumPy. That matters before benchmarking or
    comparing results across machines, not for the speed of the code.

    ## Example
    ```python
    import numpy as np

    rng = np.random.default_rng(42)
    samples = rng.standard_normal(10_000_000)
    estimate = np.mean(np.sin(samples) ** 2)
    ```

    ## Use instead
    Compare runs at a fixed GPU count (the Legate launcher's `--gpus N`, or
    `LEGATE_GPUS`), compare statistics with a tolerance rather than exact
    values, or, when bit-identical inputs are required across GPU counts,
    draw them once with host NumPy, save them, and load the saved arrays at
    the start of every run.

    ## Known false alarms
    * Random numbers from the host alias (`onp.random` beside cuPyNumeric)
      are not reported: that is the reproducible path.
    * A generator created in one function and used in another is grouped by
      what the draws call, not by which generator object they use.
    """

    code = "CPN304"
    slug = "random-reproducibility"
    category = Category.INFO
    default = Default.ASSESSMENT
    summary = "Random numbers depend on the GPU count"
    message = (
        "{apis} ({sites}): cuPyNumeric draws random numbers on the GPUs and repeats a stream only for the same "
        "GPU count, so runs on different numbers of GPUs give different values; compare runs at a fixed "
        "--gpus or load inputs drawn once on the host"
    )
    short = "{apis}: random values depend on the GPU count"

    valid = (
        Valid("""
            import cupynumeric as np
            import numpy as onp
            x = onp.random.default_rng(0).random(8)
            """),
        Valid("""
            import numpy as np
            import random
            random.seed(0)
            x = random.random()
            """),
        Valid("""
            import numpy as np
            class Rng:
                def normal(self):
                    return 0.0
            r = Rng()
            v = r.normal()
            """),
    )
    invalid = (
        Invalid(
            """
            import numpy as np
            rng = np.random.default_rng(42)
            x = rng.standard_normal(100)
            y = rng.uniform(0.0, 1.0, 100)
            """,
            line=2,
            contains="seed 42",
        ),
        Invalid("""
            import numpy as np
            np.random.seed(0)
            a = np.random.rand(8)
            b = np.random.rand(8)
            """, line=2, contains="3 calls"),
        Invalid("""
            from numpy.random import normal
            import numpy as np
            for k in range(3):
                x = normal(0.0, 1.0, 64)
            """, line=4),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy():
            return
        if "random" not in model.source:
            return
        streams: dict[str, _Stream] = {}
        # Source order, a call nested in another first: default_rng(0) before
        # default_rng(0).normal(...).
        calls = sorted(model.nodes(ast.Call), key=lambda c: (c.lineno, c.col_offset, c.end_lineno or 0, c.end_col_offset or 0))
        for call in calls:
            if not _maybe_random(model, call.func):
                continue
            found = self._classify(model, call)
            if found is None:
                continue
            stream_name, api, seed = found
            stream = streams.setdefault(stream_name, _Stream())
            stream.calls.append(call)
            if api not in stream.apis:
                stream.apis.append(api)
            if seed is not None and seed not in stream.seeds:
                stream.seeds.append(seed)
        for stream_name, stream in streams.items():
            first = min(stream.calls, key=lambda c: (c.lineno, c.col_offset))
            count = len(stream.calls)
            shown = ", ".join(stream.apis[:_SHOWN]) + (f" and {len(stream.apis) - _SHOWN} more" if len(stream.apis) > _SHOWN else "")
            seed = f", seed {', '.join(stream.seeds)}" if stream.seeds else ""
            lines = sorted({c.lineno for c in stream.calls})
            yield self.finding(
                first,
                in_loop=any(model.in_loop(c) for c in stream.calls),
                apis=shown,
                sites=f"{count} call{'s' if count > 1 else ''} in this file{seed}",
                data={"stream": stream_name, "apis": stream.apis, "calls": count, "lines": lines, "seeds": stream.seeds},
            )

    @staticmethod
    def _classify(model: FileModel, call: ast.Call) -> tuple[str, str, str | None] | None:
        """(stream, API as written, seed text) of a random-number call."""
        api = model.call_api(call)
        written = model.segment(call.func, 40)
        if api is not None and api.startswith("random."):
            shown = written if "." in written else f"numpy.{api}"  # `from numpy.random import normal`
            if api in _CREATORS:
                return _OBJECT_STREAM, shown, _seed_text(model, call)
            if api == "random.seed":
                return _GLOBAL_STREAM, shown, _seed_text(model, call)
            return _GLOBAL_STREAM, shown, None
        func = call.func
        if api is None and isinstance(func, ast.Attribute) and model.kind(func.value) is Kind.GENERATOR:
            origin = _device_generator(model, func.value, 0)
            if origin or (origin is None and model.device_root == "numpy"):
                receiver = func.value
                named = isinstance(receiver, (ast.Name, ast.Attribute))
                return _OBJECT_STREAM, written if named else f"Generator.{func.attr}", None
        return None


def _maybe_random(model: FileModel, func: ast.expr) -> bool:
    """A cheap look at the callee before resolving it: ``np.random.x``,
    ``npr.x``, ``normal`` imported from numpy.random, or a draw method."""
    if isinstance(func, ast.Name):
        return ".random" in model.imports.aliases.get(func.id, "")
    if not isinstance(func, ast.Attribute):
        return False
    base = func.value
    if isinstance(base, ast.Attribute) and base.attr == "random":
        return True
    if isinstance(base, ast.Name) and model.imports.aliases.get(base.id, "").endswith(".random"):
        return True
    return func.attr in GENERATOR_DRAWS or isinstance(base, ast.Call)


def _device_generator(model: FileModel, expr: ast.expr, depth: int) -> bool | None:
    """Was this generator made by the device module (True) or by the host
    alias beside cuPyNumeric (False)? None when the code does not show it."""
    if depth > 6:
        return None
    if isinstance(expr, ast.Call):
        if model.array_api(expr.func) in _CREATORS:
            return True
        if model.host_api(expr.func) is not None:
            return False
        return None
    if isinstance(expr, ast.Name):
        origins = {_device_generator(model, b.value, depth + 1) if b.value is not None else None for b in model.reaching_bindings(expr)}
        if False in origins:
            return False
        return True if origins == {True} else None
    return None


def _seed_text(model: FileModel, call: ast.Call) -> str | None:
    seed = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "seed"), None)
    if seed is None or (isinstance(seed, ast.Constant) and seed.value is None):
        return None
    return model.segment(seed, 20)
