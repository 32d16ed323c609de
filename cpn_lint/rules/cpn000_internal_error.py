"""CPN000: a rule failed on this file (reported instead of crashing flake8)."""

from __future__ import annotations

from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..registry import Category, Rule


class InternalError(Rule):
    """
    ## What it does
    Reports that one of cpn-lint's rules raised an unexpected exception on
    this file. The failure is contained: the other rules still run and their
    findings still appear, and flake8's run is not aborted.

    ## Why it does not scale on cuPyNumeric
    It is not about your code's scaling. It means cpn-lint could not finish
    one check, so a blocker may have gone unreported in this file.

    ## Example
    ```text
    model.py:1:1: CPN000 internal error in CPN101: KeyError: 'x' (please report)
    ```

    ## Use instead
    Nothing to change in your code. Please report the message and, if you
    can, a minimal file that reproduces it. Silence it with
    `extend-ignore = CPN000` until a fix is released.

    ## Known false alarms
    None: every CPN000 is a bug in cpn-lint.
    """

    code = "CPN000"
    slug = "internal-error"
    category = Category.INTERNAL
    message = "internal error in {rule}: {detail} (please report)"
    short = "internal error in {rule}: {detail} (please report)"
    summary = "a cpn-lint rule failed on this file; its findings may be missing"

    def check(self, model: FileModel) -> Iterator[Finding]:
        return iter(())  # emitted by the engine's containment, not by a check
