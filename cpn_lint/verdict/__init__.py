"""``cpn-verdict``: findings in, a migration verdict and its report out.

The pipeline, one module per step:

* :mod:`.collect` finds the files and notebooks to assess and runs the engine
  on them (or :mod:`.from_flake8` reads an existing flake8 run instead);
* :mod:`.scope` and :mod:`.suppress` decide which files and findings count;
* :mod:`.summary` counts them for the report's summary;
* :mod:`.gates` holds the decision framework as pure functions: Gates 1-6 and
  the verdict order (README.md, "The verdict command"); :mod:`.gate_inputs`
  reads their inputs from the findings;
* :mod:`.report` assembles one :class:`~.report_items.Report`, with the
  words from :mod:`.advice`;
* :mod:`.markdown`, :mod:`.json_format`, :mod:`.html_format` and
  :mod:`.sarif` render it;
* :mod:`.command` is the command line.
"""

from __future__ import annotations

from .gates import Verdict

__all__ = ["Verdict"]
