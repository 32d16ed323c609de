"""What the verdict rests on: the program's own source, not its tests or docs.

Every file found is given a role from its path below the folder it was found
in: ``tests`` (``tests/``, ``test_*.py``, ``conftest.py``, a package's
``testing.py``), ``docs``, ``examples`` (``examples/``, ``demos/``,
``tutorials/``, galleries, ``example_*.py``, ``*_demo.py``), ``benchmarks``
(``benchmarks/``, ``bench_*.py``, ``run_benchmark.py``, ``profiletools.py``)
or ``setup`` (``setup.py``, ``noxfile.py``, ``versioneer.py``)
— else ``source``. A file named on the command line is source whatever its
name. Only source files decide the verdict unless ``--include-tests`` (or the
config key ``include-tests``) says otherwise; the others are still read and
counted in the summary. When a tree has no source file with NumPy code at
all (a folder of examples), everything counts, and the report says so.

Files matching an ``--exclude`` glob (or flake8's ``exclude`` /
``extend-exclude``) are not read at all; globs match the file's name, its
path as shown, and its absolute path, as flake8 matches them.
"""

from __future__ import annotations

import enum
import fnmatch
import os
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Iterable, Sequence


class Role(enum.Enum):
    SOURCE = "source"
    TESTS = "tests"
    DOCS = "docs"
    EXAMPLES = "examples"
    BENCHMARKS = "benchmarks"
    SETUP = "setup"


FOLDER_ROLES: dict[str, Role] = {
    **dict.fromkeys(("test", "tests", "testing", "unittests", "unit_tests", "integration_tests", "functional_tests"), Role.TESTS),
    **dict.fromkeys(("doc", "docs", "documentation", "sphinx", "doc_src", "docsrc"), Role.DOCS),
    **dict.fromkeys(("example", "examples", "demo", "demos", "tutorial", "tutorials", "gallery", "galleries",
                     "auto_examples", "sample", "samples", "cookbook"), Role.EXAMPLES),
    **dict.fromkeys(("benchmark", "benchmarks", "bench", "benches", "asv_bench", "asv_benchmarks"), Role.BENCHMARKS),
}
# Modules a package ships beside its code that are not the code: test helpers
# (numpy.testing's kind), benchmark and profiling drivers, examples and demos.
TEST_FILES = frozenset({"tests.py", "testing.py", "testutils.py", "test_utils.py"})
BENCHMARK_PREFIXES = ("bench_", "benchmark", "run_benchmark", "profiletools", "profiling", "run_profile")
EXAMPLE_PREFIXES = ("example_", "examples", "demo_", "demos")
SETUP_FILES = frozenset({"setup.py", "noxfile.py", "fabfile.py", "versioneer.py", "conftest.py", "dodo.py"})


def role_of(path: str, root: str | None) -> Role:
    """The role of ``path``, judged from its parts below ``root`` (the folder
    the user named); a file named itself (``root`` None) is source."""
    if root is None:
        return Role.SOURCE
    try:
        relative = PurePath(os.path.relpath(path, root))
    except ValueError:  # another drive on Windows
        relative = PurePath(path)
    name = relative.name
    if name == "conftest.py" or name.startswith("test_") or name.endswith(("_test.py", "_tests.py")) or name in TEST_FILES:
        return Role.TESTS
    for part in relative.parts[:-1]:
        role = FOLDER_ROLES.get(part.lower())
        if role is not None:
            return role
    if name in SETUP_FILES:
        return Role.SETUP
    stem = name.rsplit(".", 1)[0].lower()
    if stem.startswith(BENCHMARK_PREFIXES) or stem.endswith("_benchmark"):
        return Role.BENCHMARKS
    if stem.startswith(EXAMPLE_PREFIXES) or stem.endswith(("_demo", "_example", "_examples")):
        return Role.EXAMPLES
    return Role.SOURCE


def matches(path: str, patterns: Iterable[str], root: str | None = None) -> str | None:
    """The first glob that excludes ``path``; None when none does.

    As flake8 matches: a glob is tried against the name and the absolute
    path of the file and of every folder between the folder the user named
    and the file (the named folder itself is never excluded: the user asked
    for it); a glob with a slash in it is a path relative to the working
    folder."""
    candidates = _candidates(path, root)
    for pattern in patterns:
        cleaned = pattern.strip().rstrip("/\\")
        if not cleaned:
            continue
        if "/" in cleaned or os.sep in cleaned:
            cleaned = os.path.abspath(cleaned)
        if any(fnmatch.fnmatch(candidate, cleaned) for candidate in candidates):
            return pattern
    return None


def _candidates(path: str, root: str | None) -> list[str]:
    """Names and absolute paths of the file and the folders below ``root``."""
    absolute = os.path.abspath(path)
    found = [os.path.basename(absolute), absolute]
    if root is None:
        return found
    top = os.path.abspath(root)
    folder = os.path.dirname(absolute)
    while folder.startswith(top + os.sep) and folder != top:
        found += [os.path.basename(folder), folder]
        folder = os.path.dirname(folder)
    return found


@dataclass
class Scope:
    """Which found files decide the verdict, and what was left out."""

    roles: dict[str, Role] = field(default_factory=dict)  # path -> role
    excluded: dict[str, str] = field(default_factory=dict)  # path -> the glob that excluded it
    include_tests: bool = False
    fallback: bool = False  # no source file with NumPy: everything decides

    def decides(self, path: str) -> bool:
        role = self.roles.get(path, Role.SOURCE)
        return self.include_tests or self.fallback or role is Role.SOURCE

    def role(self, path: str) -> Role:
        return self.roles.get(path, Role.SOURCE)

    def counts_outside(self, paths: Sequence[str]) -> dict[Role, int]:
        """Files per role that do not decide the verdict."""
        counts: dict[Role, int] = {}
        for path in paths:
            if not self.decides(path):
                counts[self.role(path)] = counts.get(self.role(path), 0) + 1
        return counts


def plan_scope(found: Sequence[tuple[str, str | None]], patterns: Sequence[str], include_tests: bool) -> tuple[list[str], Scope]:
    """The files to read and their scope: ``found`` pairs each file with the
    folder it was found under (None for a file named itself)."""
    scope = Scope(include_tests=include_tests)
    kept: list[str] = []
    for path, root in found:
        glob = matches(path, patterns, root) if root is not None else None  # a file named itself is read
        if glob is not None:
            scope.excluded[path] = glob
            continue
        scope.roles[path] = role_of(path, root)
        kept.append(path)
    return kept, scope
