"""The finding: what every rule produces and every adapter consumes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class Finding:
    """One reported idiom.

    ``line`` is 1-based and ``col`` is a 0-based UTF-8 byte offset, the
    convention of :mod:`ast` and of flake8, so adapters pass them through.
    ``message`` never contains the code; :attr:`text` prefixes it in the one
    place that does.
    """

    code: str
    line: int
    col: int
    message: str
    end_line: int | None = None
    end_col: int | None = None
    in_loop: bool = False
    # The headline (what was found and the recipe, about 100 characters):
    # what flake8 and editors show; None when the rule has no separate one.
    short: str | None = field(default=None, compare=False, hash=False)
    # Machine-readable facts a verdict may need (the API name for CPN40x,
    # the workload kind for CPN410, ...). Never shown by flake8.
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def text(self) -> str:
        return f"{self.code} {self.message}"

    @property
    def headline(self) -> str:
        """The short form: the code, what was found and the recipe."""
        return f"{self.code} {self.short or self.message}"

    def sort_key(self) -> tuple[int, int, str]:
        return (self.line, self.col, self.code)
