"""``cpn-lint fix``: rewrites of the mechanical idioms, made only where the
semantic model proves they keep the program's meaning.

The model decides whether a rewrite is safe; ast-grep (:mod:`.edits`) is the
rewrite engine. One fixer per code:

* CPN202 (:mod:`.inplace`): ``x = x + y`` -> ``x += y``, ``x = np.f(x, y)`` -> ``np.f(x, y, out=x)``;
* CPN204 (:mod:`.mask`): ``a[np.nonzero(m)]`` -> ``a[m]``;
* CPN110 (:mod:`.builtins`): ``sum(a)`` -> ``np.sum(a, axis=0)`` and the like;
* CPN201 (:mod:`.hoist`): an allocation moved before the loop;
* CPN203 (:mod:`.collect`): a growing join turned into a list joined once.

Every other finding is left, with the reason.
"""

from __future__ import annotations

from .planner import FIXERS, TextFix, fix_text, fixable_findings

__all__ = ["FIXERS", "TextFix", "fix_text", "fixable_findings"]
