"""Writing a trial's results (``--json``, ``--floors``) the way cpn-lint writes
its own files: never over a source file or a file that is not JSON, never
half-written (:mod:`cpn_lint.safe_write`)."""

from __future__ import annotations

import json
from pathlib import Path


def _is_json(data: bytes) -> bool:
    try:
        json.loads(data)
    except ValueError:
        return False
    return True


def write_results(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one step; a wrong target ends the
    command with one line saying why, and leaves the file as it was."""
    from cpn_lint.safe_write import OutputKind, WriteRefused, atomic_write, check_target  # the checkout on the path

    kind = OutputKind("results file", _is_json, "results.json")
    try:
        atomic_write(check_target(path, kind), text.encode("utf-8"))
    except WriteRefused as exc:
        raise SystemExit(f"error: {exc}") from None
