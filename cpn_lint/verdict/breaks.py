"""What breaks first: the findings that stop (or silently corrupt) the
ported program, before any question of scaling.

A name cuPyNumeric lacks raises AttributeError where it is used; an argument
form it rejects raises the error the oracle recorded; a stepped slice raises
NotImplementedError or, with some bounds, hands back an empty array; an
object-dtype array raises TypeError, and so does a ``set()`` of a device
array's items (0-d arrays are unhashable; CPN110 marks it). Uses at
module level fail as soon as the module is loaded, so they come first; then
those on the data path and in loops, then the rest. Uses the program guards
(``if hasattr(np, ...)``, ``try``/``except AttributeError``) are never
findings, so they never appear here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .report_items import Item, by_position

BREAKING_CODES = ("CPN401", "CPN404", "CPN106", "CPN107")
SHOWN = 8  # breaks listed in the report; the JSON report has them all

# When each break happens, in the order a user meets them.
ON_LOAD = "on load"
ON_DATA_PATH = "on the data path"
IN_LOOP = "in a loop"
WHEN_CALLED = "when its code runs"
AS_SCRIPT = "when run as a script"  # the `if __name__ == "__main__":` block, never on import
_ORDER = {ON_LOAD: 0, IN_LOOP: 1, ON_DATA_PATH: 2, WHEN_CALLED: 3, AS_SCRIPT: 4}


@dataclass(frozen=True)
class Break:
    item: Item
    effect: str  # "raises AttributeError", "returns an empty array, without an error"
    when: str  # ON_LOAD, IN_LOOP, ON_DATA_PATH or WHEN_CALLED
    silent: bool  # the program runs on with wrong data

    @property
    def subject(self) -> str:
        """What breaks, as the message names it: ``np.trapz(...)``, ``xb[::-1]``."""
        head = self.item.message.split(": ", 1)[0]
        return head.split(" slices array ", 1)[0]

    def as_dict(self) -> dict[str, object]:
        return {"code": self.item.code, "path": self.item.location.path, "line": self.item.location.line,
                "subject": self.subject, "effect": self.effect, "when": self.when, "silent": self.silent,
                "message": self.item.message}


def breaks_first(items: list[Item]) -> list[Break]:
    """The findings that stop or corrupt the ported program, those met first first."""
    found = [b for item in by_position(items) if (b := _break(item)) is not None]
    found = [b for b in found if not _after_failed_import(b, found)]
    return sorted(found, key=lambda b: (_ORDER[b.when], not b.silent))


_IMPORT_FAILURES = frozenset({"raises ImportError", "raises ModuleNotFoundError"})


def _after_failed_import(candidate: Break, found: list[Break]) -> bool:
    """A use of a name whose ``from numpy import name`` already fails, or of
    a module whose ``import numpy.ma as ma`` does: the program never gets
    that far, so the import is the one break."""
    if candidate.effect != "raises AttributeError":
        return False
    api = candidate.item.data.get("api")
    if not isinstance(api, str):
        return False
    return any(b.effect in _IMPORT_FAILURES and isinstance(failed := b.item.data.get("api"), str)
               and (api == failed or api.startswith(failed + "."))
               and b.item.location.path == candidate.item.location.path for b in found)


def _break(item: Item) -> Break | None:
    if item.source != "static" or not (item.code in BREAKING_CODES or _unhashable(item) or _order_rejected(item)):
        return None
    effect, silent = _effect(item)
    return Break(item, effect, _when(item), silent)


def _unhashable(item: Item) -> bool:
    """``set(a.ravel())``: CPN110 on a builtin that hashes the items
    (tests/test_oracle_hashing.py: TypeError under cuPyNumeric)."""
    return item.code == "CPN110" and bool(item.data.get("unhashable"))


def _order_rejected(item: Item) -> bool:
    """``np.zeros(shape, order="F")``: CPN109 on a function that takes no
    ``order=`` under cuPyNumeric (tests/test_oracle_order_keyword.py)."""
    return item.code == "CPN109" and (item.data.get("effect") == "raises" or (
        not item.data and "raises TypeError" in item.message))


def _effect(item: Item) -> tuple[str, bool]:
    if _order_rejected(item):
        return "raises TypeError (no order= there)", False
    if _unhashable(item):
        return "raises TypeError (unhashable items)", False
    if item.code == "CPN401":
        # ``from numpy import name`` fails at the import itself (flake8 input has no data: the message says)
        error = item.data.get("error") or ("ImportError" if "(ImportError)" in item.message else "AttributeError")
        return f"raises {error}", False
    if item.code == "CPN404":
        if item.data.get("aborts") or (not item.data and ": aborts the process" in item.message):
            return "aborts the process (no exception to catch)", False  # a 0-d boolean mask read
        if item.data.get("silent"):
            return str(item.data["silent"]), True  # runs on with another result (np.linalg.eig's dtype)
        silent = _silent_in_message(item.message) if not item.data else None
        if silent:
            return silent, True  # (a flake8 log carries the message only)
        return f"raises {item.data.get('error') or 'an error'}", False
    if item.code == "CPN107":
        return "raises TypeError (ValueError for ragged input)", False  # no object dtype (tests/test_oracle_object_dtype.py)
    effect = item.data.get("effect")
    if effect == "empty":
        return "returns an empty array, without an error", True
    if effect == "either":
        return "raises NotImplementedError, or returns an empty array", False
    return "raises NotImplementedError", False


def _silent_in_message(message: str) -> str | None:
    """``returns complex arrays where NumPy returns real ones`` from a CPN404
    message that names no error: ``<call>: <what> <result> on cuPyNumeric; <fix>``."""
    head = message.split(" on cuPyNumeric", 1)[0]
    if " raises " in head or ": " not in head or " where NumPy " not in head:
        return None
    return head[head.index(" returns "):].strip() if " returns " in head else None


def _when(item: Item) -> str:
    if item.data.get("main_block"):
        return AS_SCRIPT
    if item.function is None:
        return ON_LOAD
    if item.in_loop:
        return IN_LOOP
    if item.data.get("data_path"):
        return ON_DATA_PATH
    return WHEN_CALLED


def summary_line(breaks: list[Break]) -> str:
    """'5 uses break the ported program before any scaling question (2 on load, ...).'"""
    if not breaks:
        return ("Nothing found that stops the ported program: the names, argument forms and slices it uses "
                "all run under cuPyNumeric.")
    counts: dict[str, int] = {}
    for b in breaks:
        counts[b.when] = counts.get(b.when, 0) + 1
    parts = [f"{n} {when}" for when, n in sorted(counts.items(), key=lambda kv: _ORDER[kv[0]])]
    silent = sum(b.silent for b in breaks)
    tail = f"; {silent} of them give wrong results without an error" if silent else ""
    noun = "use breaks" if len(breaks) == 1 else "uses break"
    return f"{len(breaks)} {noun} the ported program before any scaling question ({', '.join(parts)}){tail}."
