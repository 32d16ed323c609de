"""Step 1 of the assessment: the context a verdict depends on.

Every value has a default tuned to the typical workload (the seed's Step 1),
so the command never blocks on a question; the report states which values
were given and which are defaults, so the reader can correct them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

PATTERNS: tuple[str, ...] = ("stencil", "gemm", "monte-carlo", "reduction", "mixed")

# The seed's defaults (Step 1): 30-50 million hot-path elements on 1-4 GPUs
# of one node.
DEFAULT_ELEMENTS = (30_000_000, 50_000_000)
DEFAULT_GPUS = (1, 4)
DEFAULT_NODES = 1

# Where a value came from, as the report words it.
FROM_CLI = "command line"
FROM_DEFAULT = "default"


@dataclass(frozen=True)
class Context:
    """What the user told us about the run, or the defaults.

    ``None`` for ``elements``/``gpus``/``pattern`` means "not given": the
    defaults above apply (or, for the pattern, it is inferred from the code).
    ``sources`` maps a field name to where its value came from.
    """

    elements: int | None = None
    gpus: int | None = None
    nodes: int = DEFAULT_NODES
    gpu_model: str | None = None
    compute_capability: tuple[int, int] | None = None
    pattern: str | None = None
    sources: dict[str, str] = field(default_factory=dict, compare=False)

    def source_of(self, name: str) -> str:
        return self.sources.get(name, FROM_DEFAULT)

    def is_default(self, name: str) -> bool:
        return self.source_of(name) == FROM_DEFAULT

    @property
    def gpu_range(self) -> tuple[int, int]:
        """The GPU counts to consider: the given one, else the default range."""
        return (self.gpus, self.gpus) if self.gpus is not None else DEFAULT_GPUS

    @property
    def element_range(self) -> tuple[int, int]:
        return (self.elements, self.elements) if self.elements is not None else DEFAULT_ELEMENTS

    def per_gpu_range(self) -> tuple[int, int]:
        """Smallest and largest per-GPU element counts the context allows."""
        low_e, high_e = self.element_range
        low_g, high_g = self.gpu_range
        return (low_e // max(high_g, 1), high_e // max(low_g, 1))

    def with_values(self, source: str, **values: Any) -> "Context":
        """A copy with ``values`` set (None values are skipped) from ``source``."""
        given = {k: v for k, v in values.items() if v is not None}
        sources = dict(self.sources)
        sources.update({k: source for k in given})
        return replace(self, sources=sources, **given)


def format_share(share: float, words: bool = False) -> str:
    """A share as a percentage that never reads 0% or 100% when it is not:
    '<1%' and '>99%' in tables, 'under 1%' and 'over 99%' in sentences."""
    if 0 < share < 0.01:
        return "under 1%" if words else "<1%"
    if 0.99 < share < 1:
        return "over 99%" if words else ">99%"
    return f"{share:.0%}"


def format_count(n: int) -> str:
    """12_000_000 -> '12 million', 65536 -> '65,536'."""
    if n >= 1_000_000_000 and n % 100_000_000 == 0:
        return f"{n / 1_000_000_000:g} billion"
    if n >= 1_000_000 and n % 100_000 == 0:
        return f"{n / 1_000_000:g} million"
    return f"{n:,}"
