"""Which files lie outside a program's main computation, and how much they weigh.

Analysis, plotting and figure scripts, logos, and notebooks beside a package
are read and listed like any source file, but a site in one of them weighs
:data:`PERIPHERAL_WEIGHT` of a core file's site wherever the verdict weighs
sites (:mod:`.causes`, :mod:`.summary`, :mod:`.gate_inputs`). Kept apart
from the root causes so that those three read it without importing each
other.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Iterable, Sequence

# Folders and file names of code outside the main computation: analysis,
# plotting and figure scripts, logos. They are read and listed like any
# source file; they weigh PERIPHERAL_WEIGHT of a core file's sites.
PERIPHERAL_FOLDERS = frozenset({
    "analysis", "analyses", "analysis_scripts", "plotting", "plots", "plot", "postprocessing", "post_processing",
    "postprocess", "post-processing", "visualization", "visualisation", "viz", "vis", "figures", "figs", "logo",
    "logos",
})
PERIPHERAL_STEMS = frozenset({"logo", "make_logo", "plotting", "visualize", "visualise", "make_figures", "figures"})
PERIPHERAL_WEIGHT = 0.25


def peripheral_kind(path: str) -> str | None:
    """What a file outside the main computation is, from its path (an
    ``analysis/`` folder, a ``plot_*.py`` script, a logo), or None."""
    pure = PurePath(path.replace("\\", "/"))
    for part in pure.parts[:-1]:
        lowered = part.lower()
        if lowered in PERIPHERAL_FOLDERS:
            return "logo" if lowered.startswith("logo") else "plotting" if lowered.startswith(("plot", "vis", "viz", "fig")) \
                else "analysis"
    stem = pure.stem.lower()
    if stem in PERIPHERAL_STEMS or stem.startswith("plot") or stem.endswith(("_plot", "_plots", "_figure", "_figures")):
        return "logo" if "logo" in stem else "plotting"
    return None


KIND_WORDS = {"analysis": "analysis scripts", "plotting": "plotting scripts", "logo": "logo scripts",
              "notebook": "notebooks beside the package"}


def peripheral_files(paths: Sequence[str], compute: Iterable[str]) -> dict[str, str]:
    """The files of ``paths`` outside the main computation, with what they
    are. Notebooks count among them when the program's ``.py`` files hold
    NumPy code (demos and analyses beside a package); a project that is
    only notebooks, or only such files, has no periphery."""
    compute = set(compute)
    package = any(not p.endswith(".ipynb") and p in compute for p in paths)
    found: dict[str, str] = {}
    for path in paths:
        kind = peripheral_kind(path)
        if kind is None and package and path.endswith(".ipynb"):
            kind = "notebook"
        if kind is not None:
            found[path] = kind
    if compute and all(p in found for p in compute):
        return {}  # everything is "analysis": then it is the main computation
    return found


__all__ = ["KIND_WORDS", "PERIPHERAL_FOLDERS", "PERIPHERAL_STEMS", "PERIPHERAL_WEIGHT", "peripheral_files",
           "peripheral_kind"]
