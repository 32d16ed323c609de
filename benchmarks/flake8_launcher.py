"""Run flake8, optionally as if one distribution's plugins were not installed.

    python flake8_launcher.py [--hide DIST] -- FLAKE8 ARGS...

flake8 finds its plugins by iterating ``importlib.metadata.distributions()``;
with ``--hide`` that iterator leaves out ``DIST``, so flake8 neither imports
nor runs any of its plugins: the same interpreter, flake8 and files, without
the plugin. Both sides of the overhead measure start through this script, so
they pay the same start-up. ``--version`` shows which plugins flake8 loaded,
which is how the harness checks the hiding worked.

It is run as a script (not ``-m``) so that it adds nothing to ``sys.path``.
"""

from __future__ import annotations

import importlib.metadata
import re
import sys


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def hide_distribution(dist_name: str) -> None:
    hidden = _normalise(dist_name)
    original = importlib.metadata.distributions

    def distributions(**kwargs):  # type: ignore[no-untyped-def]
        for dist in original(**kwargs):
            if _normalise(dist.metadata["Name"] or "") != hidden:
                yield dist

    importlib.metadata.distributions = distributions  # type: ignore[assignment]


def main(argv: list[str]) -> int:
    if argv[:1] == ["--hide"]:
        if len(argv) < 2:
            print("flake8_launcher: --hide needs a distribution name", file=sys.stderr)
            return 2
        hide_distribution(argv[1])
        argv = argv[2:]
    if argv[:1] == ["--"]:
        argv = argv[1:]
    from flake8.main.cli import main as flake8_main

    return int(flake8_main(argv) or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
