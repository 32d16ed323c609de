"""NumPy's public surface: the names code written for a NumPy release may use.

cuPyNumeric's own comparison table lists the NumPy functions it was compared
against, but not every name code calls: aliases (``numpy.max``), the methods
of ``random.Generator`` and of ufuncs (``numpy.add.at``), ``numpy.ma``, and
the names NumPy 2 removed that older code still uses (``numpy.trapz``,
``numpy.product``). A *surface* file lists those names for one NumPy
release; ``cpn-lint manifest refresh --surface FILE`` gives every one of them
a row, so that CPN401 can report each name cuPyNumeric lacks.

Surfaces are read in a subprocess of an interpreter that has that NumPy
installed (``cpn-lint manifest surface --python PATH``): cpn-lint itself
needs NumPy 2, while the 1.x surface comes from a NumPy 1.26 environment.
The module-level probe, :mod:`cpn_lint.manifest._surface_probe`, runs there.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Mapping

from . import ApiSupport, SourceError

KINDS = frozenset({"function", "ufunc", "class", "object", "method", "attribute"})

# Names NumPy 2 removed, and what NumPy 2 spells them (written into the
# manifest only when cuPyNumeric implements the replacement).
NUMPY2_REPLACEMENTS: Mapping[str, str] = {
    "numpy.alltrue": "numpy.all",
    "numpy.asfarray": "numpy.asarray",
    "numpy.cfloat": "numpy.complex128",
    "numpy.complex_": "numpy.complex128",
    "numpy.cumproduct": "numpy.cumprod",
    "numpy.float_": "numpy.float64",
    "numpy.in1d": "numpy.isin",
    "numpy.Inf": "numpy.inf",
    "numpy.Infinity": "numpy.inf",
    "numpy.infty": "numpy.inf",
    "numpy.PINF": "numpy.inf",
    "numpy.longcomplex": "numpy.clongdouble",
    "numpy.longfloat": "numpy.longdouble",
    "numpy.mat": "numpy.asmatrix",
    "numpy.msort": "numpy.sort",
    "numpy.NaN": "numpy.nan",
    "numpy.NAN": "numpy.nan",
    "numpy.product": "numpy.prod",
    "numpy.round_": "numpy.round",
    "numpy.row_stack": "numpy.vstack",
    "numpy.singlecomplex": "numpy.complex64",
    "numpy.sometrue": "numpy.any",
    "numpy.string_": "numpy.bytes_",
    "numpy.trapz": "numpy.trapezoid",
    "numpy.unicode_": "numpy.str_",
    "numpy.ndarray.tostring": "numpy.ndarray.tobytes",
}

DEFAULT_TIMEOUT = 300.0


@dataclass(frozen=True)
class NumpySurface:
    """The public names of one NumPy release, with their kinds."""

    numpy_version: str
    names: Mapping[str, str]  # "numpy.add" -> "ufunc"
    origin: str = "<surface>"

    def to_json(self) -> str:
        return json.dumps({"numpy_version": self.numpy_version, "names": dict(sorted(self.names.items()))},
                          indent=0, ensure_ascii=False) + "\n"


def parse_surface(text: str, origin: str = "<surface>") -> NumpySurface:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SourceError(f"{origin}: not JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("names"), dict) or not data.get("numpy_version"):
        raise SourceError(f"{origin}: not a NumPy surface (expected {{numpy_version, names}})")
    names = data["names"]
    bad = [n for n, k in names.items() if not str(n).startswith("numpy.") or k not in KINDS]
    if bad:
        raise SourceError(f"{origin}: {len(bad)} entries are not numpy.* names with a known kind, e.g. {bad[0]!r}")
    return NumpySurface(str(data["numpy_version"]), dict(names), origin)


def read_surface(path: Path) -> NumpySurface:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError(f"cannot read {path}: {exc}") from None
    return parse_surface(text, path.name)


def probe_source() -> str:
    return (resources.files("cpn_lint.manifest") / "_surface_probe.py").read_text(encoding="utf-8")


def probe_surface(python: str, timeout: float = DEFAULT_TIMEOUT) -> NumpySurface:
    """The surface of the NumPy importable by ``python`` (run from an empty folder)."""
    with tempfile.TemporaryDirectory(prefix="cpn-surface-") as workdir:
        output = Path(workdir) / "surface.json"
        try:
            proc = subprocess.run([python, "-c", probe_source(), str(output)], cwd=workdir,
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
        except (FileNotFoundError, PermissionError):
            raise SourceError(f"cannot run {python}") from None
        except subprocess.TimeoutExpired:
            raise SourceError(f"{python} did not list NumPy's names within {timeout:.0f} s") from None
        try:
            text = output.read_text(encoding="utf-8")
        except OSError:
            raise SourceError(f"{python} exited with status {proc.returncode} before writing the names") from None
    if '"error"' in text[:20]:
        raise SourceError(f"{python}: {json.loads(text)['error']}")
    return parse_surface(text, python)


def all_names(surfaces: list[NumpySurface]) -> list[str]:
    return sorted({name for surface in surfaces for name in surface.names})


def annotate(entries: dict[str, ApiSupport], surfaces: list[NumpySurface]) -> list[str]:
    """Give each row the kind and the releases its surfaces say (in place),
    and the NumPy 2 spelling of a removed name; return warnings for surface
    names no table has a row for (they stay out: their support is unknown)."""
    if not surfaces:
        return []
    versions = tuple(s.numpy_version for s in surfaces)
    for api, entry in list(entries.items()):
        having = tuple(s.numpy_version for s in surfaces if api in s.names)
        if not having:
            continue
        kind = next(s.names[api] for s in reversed(surfaces) if api in s.names)
        entries[api] = replace(entry, kind=kind, releases=having if having != versions else (),
                               replacement=_replacement(api, entry, entries))
    missing = [name for name in all_names(surfaces) if name not in entries]
    if not missing:
        return []
    shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
    return [f"{len(missing)} NumPy name(s) of the surfaces have no row in any table and are left out ({shown}); "
            "refresh --from installed with the same --surface files to look them up in cuPyNumeric"]


def _replacement(api: str, entry: ApiSupport, entries: Mapping[str, ApiSupport]) -> str | None:
    target = NUMPY2_REPLACEMENTS.get(api)
    if target is None or entry.status.implemented:
        return None
    row = entries.get(target)
    return target if row is not None and row.status.implemented else None


__all__ = ["NUMPY2_REPLACEMENTS", "NumpySurface", "all_names", "annotate", "parse_surface", "probe_surface",
           "read_surface"]
