"""``cpn-verdict``: findings in, a migration verdict and its report out.

The pipeline, one module per step:

* :mod:`.collect` finds the files and notebooks to assess and runs the engine
  on them (or :mod:`.from_flake8` reads an existing flake8 run instead);
* :mod:`.sizes` reads the literal array sizes Gate 2 may cite;
* :mod:`.gates` holds the decision framework as pure functions: Gates 1-6 and
  the verdict order of SPEC §4;
* :mod:`.report` assembles one :class:`~.report.Report`;
* :mod:`.markdown`, :mod:`.json_format` and :mod:`.sarif` render it;
* :mod:`.command` is the command line.
"""

from __future__ import annotations

from .gates import Verdict

__all__ = ["Verdict"]
