"""cpn-lint: will this NumPy code scale on cuPyNumeric? A static answer.

The public entry points are :func:`lint_source` (one file's source in,
findings out) and :func:`analyze_source` (the same, never raising on bad
input). The flake8 plugin and ``cpn-verdict`` are thin layers over them.
"""

from __future__ import annotations

from .engine import FileResult, LintOptions, analyze_source, lint_source
from .findings import Finding

__all__ = ["Finding", "FileResult", "LintOptions", "analyze_source", "lint_source", "__version__"]

try:
    from importlib.metadata import PackageNotFoundError, version

    __version__ = version("cpn-lint")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"
