"""Read an installed cuPyNumeric's support table in a subprocess.

The table is read by the interpreter that has cuPyNumeric installed (``--python
PATH``), never by cpn-lint's own process: importing cuPyNumeric starts the
Legate runtime, and the target environment may be another venv entirely. The
subprocess runs :mod:`cpn_lint.manifest._probe`'s text with ``python -c`` from
an empty temporary directory, so no module of the user's working tree can be
imported by accident. Its environment is inherited (on a machine without a
GPU, Legate needs whatever the user normally sets to start on CPUs).
"""

from __future__ import annotations

import datetime as _dt
import json
import subprocess
import tempfile
from importlib import resources
from pathlib import Path
from typing import Sequence

from .sources import SourceError, SourceTable, parse_introspected_json

DEFAULT_TIMEOUT = 600.0


def probe_source() -> str:
    return (resources.files("cpn_lint.manifest") / "_probe.py").read_text(encoding="utf-8")


def introspect_installed(python: str, timeout: float = DEFAULT_TIMEOUT, names: Sequence[str] = ()) -> SourceTable:
    """The support table of the cuPyNumeric importable by ``python``; with
    ``names`` (NumPy surfaces), a row for each of them as well."""
    with tempfile.TemporaryDirectory(prefix="cpn-manifest-") as workdir:
        output = Path(workdir) / "table.json"
        extra: list[str] = []
        if names:
            names_file = Path(workdir) / "names.json"
            names_file.write_text(json.dumps(sorted(names)), encoding="utf-8")
            extra.append(str(names_file))
        try:
            proc = subprocess.run(
                [python, "-c", probe_source(), str(output), *extra],
                cwd=workdir, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout,
            )
        except FileNotFoundError:
            raise SourceError(f"no Python interpreter at {python}") from None
        except PermissionError:
            raise SourceError(f"{python} is not executable") from None
        except subprocess.TimeoutExpired:
            raise SourceError(f"{python} did not finish reading cuPyNumeric within {timeout:.0f} s") from None
        document = _read_output(output)
    if document is None:
        raise SourceError(f"{python} exited with status {proc.returncode} before writing the table"
                          + _last_line(proc.stderr))
    if "error" in document:
        raise SourceError(f"{python}: {document['error']} — is cuPyNumeric installed in that environment "
                          "(and can its runtime start here)?")
    document["retrieved"] = _dt.date.today().isoformat()
    table = parse_introspected_json(json.dumps(document, ensure_ascii=False), python, kind="installed")
    table.sha256 = None  # the bytes are ours, not a file anyone else has
    return table


def _read_output(path: Path) -> dict | None:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) else None


def _last_line(stderr: str) -> str:
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return f": {lines[-1].strip()}" if lines else ""
