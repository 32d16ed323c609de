"""Reading cuPyNumeric Doctor's JSON report and reconciling it with cpn-lint.

Doctor is the runtime check cuPyNumeric ships: run a program with
``CUPYNUMERIC_DOCTOR=1 CUPYNUMERIC_DOCTOR_FORMAT=json`` and, when it saw
something, it writes a JSON list with one object per (check, location)::

    [{"filename": "/abs/prog.py", "lineno": 8, "source": "s += a[i]",
      "description": "...", "reference": "https://...", "traceback": ""}]

The entries do not name the check that fired; each check has a fixed
description (the built-in reduction check lists the built-ins it saw), so the
check is recognised from it. This module is pure: it never imports
cuPyNumeric or flake8 and never runs anything.

>>> report = '[{"filename": "p.py", "lineno": 3, "source": "idx = np.nonzero(m)",'
>>> report += ' "description": "use of nonzero can be slow in cuPyNumeric"}]'
>>> [(d.check, d.code, d.line) for d in load_doctor_report(report)]
[('NonzeroCheck', 'CPN204', 3)]
"""

from __future__ import annotations

import ast
import io
import json
import os
import re
import tokenize
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Sequence

from .engine import FileResult, decode_source, parse
from .findings import Finding
from .model import Role, Work

UNRECOGNIZED = "unrecognized"



@dataclass(frozen=True)
class DoctorCheck:
    """One of Doctor's nine runtime checks, as cpn-lint reads it."""

    name: str  # the name Doctor's source gives it
    signature: str | None  # a fragment of its fixed description no other check's contains
    codes: tuple[str, ...] = ()  # the CPN code(s) its finding stands for (none: runtime-only)
    # Static findings of other codes it confirms on a loop's header line: Doctor
    # reports host iteration where it happens (a built-in walking an array,
    # ``sum(a)``, or a ``for x in a`` header), and R110 says such built-ins are
    # R103's host iteration; an ``.item()`` in a loop shows as repeated item ops.
    confirms_at_header: frozenset[str] = frozenset()
    # Codes reported at a loop whose element accesses it counts: a loop
    # cpn-lint classes as a sequential recurrence (CPN410) rather than R101.
    confirms_in_loop: frozenset[str] = frozenset()


# The one table of Doctor's checks (cuPyNumeric 26.x): the reader, the merge
# and the report's "what to look for" all read it.
DOCTOR_CHECKS: dict[str, DoctorCheck] = {check.name: check for check in (
    DoctorCheck("RepeatedItemOps", "scalar item accesses repeated", ("CPN101",),
                frozenset({"CPN103", "CPN110", "CPN104"}), frozenset({"CPN410"})),
    DoctorCheck("RepeatedSliceAccessCheck", "repeated slice access", ("CPN101",), confirms_in_loop=frozenset({"CPN410"})),
    DoctorCheck("ArrayGatherCheck", "being gathered into one memory"),
    DoctorCheck("StackOpsCheck", "hstack/vstack called repeatedly", ("CPN203",)),
    DoctorCheck("AdvancedIndexingCheck", "use of advanced indexing"),
    DoctorCheck("NonzeroCheck", "use of nonzero", ("CPN204",)),
    DoctorCheck("Mpi4pyCheck", "mpi4py is imported", ("CPN108",)),
    DoctorCheck("IterCheck", "with __iter__", ("CPN103",), frozenset({"CPN110"})),
    # float()/int()/bool() are R104 (a host sync), other built-ins R110 (host iteration).
    DoctorCheck("BuiltinReductionCheck", None, ("CPN104", "CPN110")),
)}
_BUILTIN_CHECK = "BuiltinReductionCheck"
# Doctor's checks of accesses repeated on one line: in a loop whose passes do
# whole-array work, one such access per pass is a single small task per step.
_REPEATED_ACCESS_CHECKS = frozenset({"RepeatedSliceAccessCheck", "RepeatedItemOps"})
_BUILTINS_SEEN = re.compile(r"^Python built-ins? (?P<names>[a-z_]+(?:, [a-z_]+)*) used with cuPyNumeric array")
# Conversions to a Python scalar are R104 (host sync), not R110 (host iteration).
_CONVERSION_BUILTINS = frozenset({"float", "int", "bool"})


def checks_seeing(code: str) -> tuple[str, ...]:
    """The Doctor checks whose findings stand for, or confirm, ``code``."""
    primary = [c.name for c in DOCTOR_CHECKS.values() if code in c.codes]
    return (*primary, *(c.name for c in DOCTOR_CHECKS.values() if code in c.confirms_at_header and c.name not in primary))


# Path fragments of files that belong to an installation, not to the program:
# Doctor reports a line once per call stack, library frames included.
_LIBRARY_PARTS = ("/site-packages/", "/dist-packages/", "\\site-packages\\", "\\dist-packages\\")
_STDLIB = re.compile(r"[/\\]lib[/\\](?:python\d+(?:\.\d+)?|Python\d+)[/\\](?!site-packages|dist-packages)[^/\\]+")


def is_library_file(filename: str) -> bool:
    """A file of an installed package or of Python's standard library (or a
    frame with no file, ``<frozen runpy>``): never the user's code."""
    if filename.startswith("<"):
        return True
    return any(part in filename for part in _LIBRARY_PARTS) or bool(_STDLIB.search(filename))


_REQUIRED_KEYS = ("filename", "lineno", "description")


@dataclass(frozen=True)
class DoctorFinding:
    """One entry of a Doctor report, with the check recognised and its CPN code.

    ``line`` is Doctor's ``lineno`` (1-based); ``code`` is None for checks
    that have no CPN counterpart (array gathers, advanced indexing).
    """

    filename: str
    line: int
    check: str
    description: str
    source: str
    code: str | None


class DoctorReportError(ValueError):
    """The text is not a Doctor JSON report; the message is one line."""


def load_doctor_report(text: str, origin: str = "doctor report", *, keep_library: bool = False) -> list[DoctorFinding]:
    """Parse Doctor's JSON output into findings, in report order.

    Entries located in library files (site-packages, the standard library)
    are dropped unless ``keep_library``: Doctor reports a pattern once per
    call stack, and the frames inside matplotlib or NumPy are not code the
    user can change. Repeated rows (same file, line, description and source)
    are kept once. An entry whose description names both conversion
    built-ins and reducing built-ins (``float(sum(a))``) yields one finding
    per code. Raises :class:`DoctorReportError` for anything that is not
    such a report.
    """
    entries = _decode(text, origin)
    findings: list[DoctorFinding] = []
    seen: set[tuple[str, int, str, str, str | None]] = set()
    for index, entry in enumerate(entries):
        for finding in _findings_of(entry, index, origin):
            key = (finding.filename, finding.line, finding.description, finding.source, finding.code)
            if key in seen or (is_library_file(finding.filename) and not keep_library):
                continue
            seen.add(key)
            findings.append(finding)
    return findings


def check_of(description: str) -> str:
    """The Doctor check whose fixed description this is, or ``"unrecognized"``."""
    if _BUILTINS_SEEN.match(description.strip()):
        return _BUILTIN_CHECK
    lowered = description.lower()
    for check in DOCTOR_CHECKS.values():
        if check.signature and check.signature.lower() in lowered:
            return check.name
    return UNRECOGNIZED


def codes_of(check: str, description: str, source: str = "") -> list[str | None]:
    """The CPN code(s) a finding of ``check`` stands for (``[None]``: none).

    ``source`` is the line Doctor quotes: a built-in that compares or rounds
    its arguments there (``max(0, x)``, ``round(x)``) converts a 0-d value,
    which is R104's host sync, not R110's host iteration."""
    if check != _BUILTIN_CHECK:
        known = DOCTOR_CHECKS.get(check)
        return [known.codes[0] if known and known.codes else None]
    called = _calls_in(source) if source else None
    names = _seen(_builtin_names(description), called)
    conversions = names & (_CONVERSION_BUILTINS | _converting_calls(called or {}))
    codes: list[str | None] = []
    if conversions or (source and not names):
        codes.append("CPN104")
    if names - conversions or (not names and not source):
        codes.append("CPN110")
    return codes


def builtins_seen(description: str, source: str = "") -> set[str]:
    """The built-ins a BuiltinReductionCheck finding stands for. Doctor names
    the built-ins called on the line it quotes; when none is called there it
    names those it finds among the frame's variables (``from pylab import *``
    binds bool, max, min, pow and round), and what it saw is an implicit
    conversion such as an ``if`` on a 0-d array: then the set is empty."""
    return _seen(_builtin_names(description), _calls_in(source) if source else None)


def _seen(names: set[str], called: dict[str, int] | None) -> set[str]:
    """``names`` kept to those ``called`` on the quoted line (all of them
    when the line could not be read)."""
    return {name for name in names if name in called} if called is not None else names


def _calls_in(source: str) -> dict[str, int] | None:
    """The plain names called on a source line, with their positional
    argument counts (None when the line is not a statement on its own)."""
    line = source.strip()
    if line.startswith("elif "):
        line = line[2:]  # an elif header parses as the if it continues
    for text in (line, line + "\n    pass"):  # a compound statement's header needs a body
        try:
            tree = ast.parse(text)
            break
        except (SyntaxError, ValueError):
            continue
    else:
        return _called_tokens(line)
    return {n.func.id: len(n.args) for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def _called_tokens(line: str) -> dict[str, int] | None:
    """A line that is part of a longer statement: the names followed by
    ``(`` and not after a dot, as Doctor finds them (argument counts unknown)."""
    tokens: list[tokenize.TokenInfo] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(line).readline):
            tokens.append(token)
    except (tokenize.TokenError, SyntaxError):
        pass  # an unclosed bracket at the end of the fragment: the tokens before it stand
    called = {tok.string: 0 for i, tok in enumerate(tokens[:-1])
              if tok.type == tokenize.NAME and tokens[i + 1].string == "(" and (i == 0 or tokens[i - 1].string != ".")}
    return called or None


def _converting_calls(called: dict[str, int]) -> set[str]:
    """``max(a, b)``/``min(a, b)`` compare their arguments and ``round(x)``
    returns a Python number: on a 0-d device value, a conversion."""
    return {name for name, count in called.items() if (name in ("max", "min") and count >= 2) or name == "round"}


def _builtin_names(description: str) -> set[str]:
    """The built-ins a BuiltinReductionCheck description names."""
    match = _BUILTINS_SEEN.match(description.strip())
    return set(match.group("names").split(", ")) if match else set()


def _decode(text: str, origin: str) -> list[Any]:
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        raise DoctorReportError(
            f"{origin}: empty file, not a Doctor JSON report (Doctor writes no file at all when it finds nothing)"
        )
    if stripped.startswith("!!! cuPyNumeric Doctor") or stripped.startswith("filename,lineno"):
        kind = "plain-text" if stripped.startswith("!") else "CSV"
        raise DoctorReportError(
            f"{origin}: this is Doctor's {kind} output; rerun with CUPYNUMERIC_DOCTOR_FORMAT=json"
        )
    try:
        data = json.loads(stripped)
    except json.JSONDecodeError as exc:
        raise DoctorReportError(
            f"{origin}: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    except RecursionError:
        raise DoctorReportError(f"{origin}: not a Doctor report (JSON nested too deeply)") from None
    if not isinstance(data, list):
        described = _describe(data)
        raise DoctorReportError(
            f"{origin}: expected the JSON list Doctor writes, found {described}"
        )
    return data


def _findings_of(entry: Any, index: int, origin: str) -> Iterable[DoctorFinding]:
    where = f"{origin}: entry {index + 1}"
    if not isinstance(entry, dict):
        raise DoctorReportError(f"{where} is {_describe(entry)}, expected an object with filename, lineno, description")
    missing = [key for key in _REQUIRED_KEYS if key not in entry]
    if missing:
        raise DoctorReportError(f"{where} lacks {', '.join(missing)}; not a Doctor finding")
    filename, lineno, description = entry["filename"], entry["lineno"], entry["description"]
    if not isinstance(filename, str) or not filename:
        raise DoctorReportError(f"{where}: filename must be a non-empty string, found {_describe(filename)}")
    if isinstance(lineno, bool) or not isinstance(lineno, int) or lineno < 1:
        raise DoctorReportError(f"{where}: lineno must be a line number, found {_describe(lineno)}")
    if not isinstance(description, str):
        raise DoctorReportError(f"{where}: description must be a string, found {_describe(description)}")
    source = entry.get("source")
    if source is not None and not isinstance(source, str):
        raise DoctorReportError(f"{where}: source must be a string or null, found {_describe(source)}")
    named = entry.get("check")  # not written by Doctor 26.x; honoured if a later one names its check
    check = named if isinstance(named, str) and named else check_of(description)
    for code in codes_of(check, description, (source or "").strip()):
        yield DoctorFinding(filename, lineno, check, description, (source or "").strip(), code)


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        keys = ", ".join(sorted(map(str, value))[:4])
        return f"an object (keys: {keys})" if keys else "an empty object"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value[:30]!r}"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


# -- reconciliation ---------------------------------------------------------


@dataclass
class Reconciliation:
    """Static findings Doctor confirmed, Doctor findings with no static
    counterpart, and the conversions at the program's boundary set aside."""

    confirmed: list[tuple[str, Finding, list[DoctorFinding]]] = field(default_factory=list)
    runtime_only: list[DoctorFinding] = field(default_factory=list)
    # float()/int()/bool() outside every loop of a linted file: one host sync
    # where a result leaves the array world, which SPEC section 4 exempts from R104;
    # likewise an unpacking of a few items there (``V0, V1 = np.zeros((2, n))``).
    boundary: list[DoctorFinding] = field(default_factory=list)
    # Repeated slice or item accesses no static finding explains, in a loop
    # cpn-lint reads as time stepping (whole rows or slabs each step: a
    # boundary row, ``u[0] = 0``, a history store ``E[t] = np.sum(u)``): one
    # small task per step beside whole-array work, the seed's exception to
    # R101, not an element loop.
    per_step_accesses: list[DoctorFinding] = field(default_factory=list)


def reconcile(results: Sequence[FileResult], doctor: Sequence[DoctorFinding]) -> Reconciliation:
    """Pair each Doctor finding with the static findings it confirms.

    A static finding confirms a Doctor finding when both are in the same file
    (same resolved path, else the unique file sharing the longest path
    suffix), the codes agree, and Doctor's line is the finding's own line
    (any line of a simple statement that starts there; the header of a
    compound one), or, for the codes reported at a loop about its body
    (CPN101, CPN103, CPN410), Doctor's line sits in that loop with no other
    statement between them than a tight nest of loops (``for i: for j:``):
    a line elsewhere in a long loop body is another pattern. Doctor reports
    mpi4py at the first cuPyNumeric call after the import, so any CPN108
    finding confirms it. A finding folded into a root cause (a CPN104 inside
    a CPN101 loop, anything inside a CPN112 kernel) is confirmed by that
    root when Doctor's line is in its span and the root counts the code. A conversion built-in outside every loop is set
    aside (not R104); unmapped and unmatched Doctor findings are
    runtime-only. Doctor findings in a linted file carry that file's name as
    it was linted (the report may come from another checkout).
    """
    files = [_Unit(result) for result in results]
    evidence: dict[tuple[int, int], list[DoctorFinding]] = {}
    outcome = Reconciliation()
    for finding in doctor:
        unit = _file_of(finding.filename, files)
        if unit is not None:  # cite the file as it was linted, not as Doctor saw it
            finding = replace(finding, filename=files[unit].result.filename)
            if _once_at_boundary(finding) and not files[unit].in_loop(finding.line):
                outcome.boundary.append(finding)
                continue
        matches = _matches(finding, unit, files) if finding.code is not None else []
        if not matches and finding.check in _REPEATED_ACCESS_CHECKS and unit is not None \
                and files[unit].in_whole_array_pass(finding.line):
            outcome.per_step_accesses.append(finding)
            continue
        if not matches:
            outcome.runtime_only.append(finding)
        for key in matches:
            evidence.setdefault(key, []).append(finding)
    outcome.confirmed = [
        (files[u].result.filename, files[u].result.findings[f], evidence[(u, f)])
        for u, f in sorted(evidence)
    ]
    return outcome


def _once_at_boundary(finding: DoctorFinding) -> bool:
    """A conversion, or an unpacking of a few items (``V0, V1 =
    np.zeros((2, n))``), which outside every loop happens once."""
    return finding.code == "CPN104" or (finding.code == "CPN103" and bool(_UNPACKING.match(finding.source)))


class _Unit:
    """One linted file: its path parts and, lazily, its statements and loops."""

    def __init__(self, result: FileResult) -> None:
        self.result = result
        self.path = _resolve(result.filename)
        self.parts = tuple(reversed(self.path.replace("\\", "/").split("/")))
        self._statements: list[ast.stmt] | None = None
        self._loops: list[ast.AST] | None = None
        self._calls: dict[str, list[int]] | None = None

    def span(self, finding: Finding) -> tuple[int, int]:
        """The lines the statement beginning at the finding's line covers:
        all of a simple statement, the header of a compound one."""
        statement = _statement_at(self.statements(), finding.line)
        if statement is None:
            return finding.line, finding.line
        return _extent(statement)

    def nest_headers(self, line: int, depth: int = 0) -> set[int]:
        """The header lines of the loops whose body ``line`` belongs to
        directly: its innermost loop, and each loop around that one for which
        the inner loop is the whole body (a tight nest). A line of a function
        outside every loop of that function runs where the function is
        called: the loops around its calls in the file count (``mag(r[i])``
        called per element from a loop, a flood fill called per seed)."""
        loops = sorted((n for n in self.loops() if n.lineno <= line <= (n.end_lineno or n.lineno)),
                       key=lambda n: n.lineno, reverse=True)
        function = self._function_at(line)
        if function is not None and not any(function.lineno < n.lineno for n in loops):
            return self._call_site_headers(function, depth)
        headers: set[int] = set()
        inner: ast.AST | None = None
        for loop in loops:
            if inner is not None and getattr(loop, "body", None) != [inner]:
                break
            headers.add(loop.lineno)
            inner = loop
        return headers

    def in_whole_array_pass(self, line: int) -> bool:
        """Is ``line``'s innermost loop one whose iterations do whole-array
        work (rows or slabs), with no loop around it that the model reads as
        an element loop or a recurrence?"""
        model = self.result.model
        if model is None:
            return False
        frames = [f for f in model.loops if f.node.lineno <= line <= (f.node.end_lineno or f.node.lineno)]
        if not frames:
            return False
        innermost = max(frames, key=lambda f: f.node.lineno)
        if any(model.role(f) not in (Role.TIME_STEP, Role.OTHER) for f in frames):
            return False  # inside an element loop or a recurrence: that loop's pattern
        return model.work(innermost).work >= Work.ROW

    def in_loop(self, line: int) -> bool:
        """``line`` is in a loop or comprehension (its header included)."""
        return any(n.lineno <= line <= (n.end_lineno or n.lineno) for n in self.loops())

    def _function_at(self, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The innermost function whose body holds ``line``."""
        holding = [n for n in self.statements() if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and n.lineno < line <= (n.end_lineno or n.lineno)]
        return max(holding, key=lambda n: n.lineno, default=None)

    def _call_site_headers(self, function: ast.FunctionDef | ast.AsyncFunctionDef, depth: int) -> set[int]:
        if depth >= _CALL_DEPTH:
            return set()
        end = function.end_lineno or function.lineno
        calls = [line for line in self._call_lines().get(function.name, ()) if not function.lineno <= line <= end]
        return {header for call in calls for header in self.nest_headers(call, depth + 1)}

    def _call_lines(self) -> dict[str, list[int]]:
        """The lines of the file's calls of a plain name, by name (found once)."""
        if self._calls is None:
            tree = self._tree()
            self._calls = {}
            for node in ast.walk(tree) if tree else ():
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    self._calls.setdefault(node.func.id, []).append(node.lineno)
        return self._calls

    def loops(self) -> list[ast.AST]:
        if self._loops is None:
            tree = self._tree()
            self._loops = [n for n in ast.walk(tree) if isinstance(n, _LOOPS + _COMPREHENSIONS)] if tree else []
        return self._loops

    def statements(self) -> list[ast.stmt]:
        if self._statements is None:
            tree = self._tree()
            self._statements = [n for n in ast.walk(tree) if isinstance(n, ast.stmt)] if tree else []
        return self._statements

    def _tree(self) -> ast.Module | None:
        model = self.result.model
        if model is not None:
            return model.tree
        try:
            with open(self.result.filename, "rb") as handle:
                return parse(decode_source(handle.read()), self.result.filename)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            return None


def _matches(finding: DoctorFinding, unit_index: int | None, files: list[_Unit]) -> list[tuple[int, int]]:
    if finding.check == "Mpi4pyCheck":
        return _process_wide(finding, unit_index, files)
    if unit_index is None:
        return []
    unit = files[unit_index]
    check = DOCTOR_CHECKS.get(finding.check)
    header_codes = check.confirms_at_header if check else frozenset()
    seen = builtins_seen(finding.description, finding.source) if finding.check == _BUILTIN_CHECK else set()
    if finding.check == _BUILTIN_CHECK and finding.code == "CPN104" and (
            "bool" in seen or not seen or _TEST_HEADER.match(finding.source)):
        # bool() of an array is what an if/while test on it calls: R105's sync;
        # on a test header that is the conversion Doctor saw, whatever else the line calls
        header_codes = header_codes | {"CPN105"}
        folded_codes = {finding.code, "CPN105"}
    else:
        folded_codes = {finding.code}
    loop_codes = ({finding.code} & _REPORTED_AT_LOOPS) | (check.confirms_in_loop if check else frozenset())
    candidates: list[tuple[tuple[int, int], int]] = []
    for index, static in enumerate(unit.result.findings):
        if static.code != finding.code and static.code not in header_codes | loop_codes:
            continue
        first, last = unit.span(static)
        credited = first <= finding.line <= last and static.code in header_codes | {finding.code}
        if not credited and static.code in loop_codes:
            credited = static.line in unit.nest_headers(finding.line)
        if credited:
            # Prefer Doctor's own code, then the tightest statement.
            rank = (0 if static.code == finding.code else 1, last - first)
            candidates.append((rank, index))
    if not candidates:
        return _folded_into(finding, folded_codes, unit_index, unit)
    best = min(rank for rank, _ in candidates)
    return [(unit_index, index) for rank, index in candidates if rank == best]


def _folded_into(finding: DoctorFinding, codes: set[str | None], unit_index: int,
                 unit: "_Unit") -> list[tuple[int, int]]:
    """A finding of Doctor's code folded into a root cause that holds its
    line (an element loop or recurrence counts its conversions and branches;
    a compiled kernel holds everything inside it): that root confirms it."""
    for index, static in enumerate(unit.result.findings):
        folded = static.data.get("folded") or {}
        if any(code in folded for code in codes) and static.line <= finding.line <= (static.end_line or static.line):
            return [(unit_index, index)]
    return []


def _process_wide(finding: DoctorFinding, same_file: int | None, files: list[_Unit]) -> list[tuple[int, int]]:
    def sites(units: Iterable[int]) -> list[tuple[int, int]]:
        return [(u, i) for u in units for i, f in enumerate(files[u].result.findings) if f.code == finding.code]

    if same_file is not None and (local := sites([same_file])):
        return local
    return sites(range(len(files)))


def _file_of(filename: str, files: list[_Unit]) -> int | None:
    """The linted file Doctor's path names: the same file, else the unique
    file with the longest common path suffix (the report may come from
    another checkout or machine)."""
    path = _resolve(filename)
    for index, unit in enumerate(files):
        if unit.path == path:
            return index
    parts = tuple(reversed(path.replace("\\", "/").split("/")))
    best, chosen = 0, []
    for index, unit in enumerate(files):
        common = _common_prefix(parts, unit.parts)
        if common > best:
            best, chosen = common, [index]
        elif common == best and common:
            chosen.append(index)
    return chosen[0] if best and len(chosen) == 1 else None


def _common_prefix(left: tuple[str, ...], right: tuple[str, ...]) -> int:
    count = 0
    for a, b in zip(left, right):
        if a != b:
            break
        count += 1
    return count


def _resolve(filename: str) -> str:
    try:
        return os.path.normcase(os.path.realpath(filename))
    except (OSError, ValueError):
        return os.path.normcase(filename)


def _statement_at(statements: list[ast.stmt], line: int) -> ast.stmt | None:
    """The outermost statement beginning at ``line``, else the innermost one containing it."""
    beginning = [s for s in statements if s.lineno == line]
    if beginning:
        return min(beginning, key=lambda s: (s.col_offset, -(s.end_lineno or s.lineno)))
    containing = [s for s in statements if s.lineno <= line <= (s.end_lineno or s.lineno)]
    if not containing:
        return None
    return min(containing, key=lambda s: (s.end_lineno or s.lineno) - s.lineno)


_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# ``a, b = ...``: an unpacking assignment; ``if``/``elif``/``while``: a test header.
_UNPACKING = re.compile(r"\(?\s*[A-Za-z_]\w*\s*(?:,\s*[A-Za-z_]\w*\s*)+\)?\s*=(?!=)")
_TEST_HEADER = re.compile(r"(?:if|elif|while)\b")
# How many calls deep a line in a helper is followed to the loops that call it.
_CALL_DEPTH = 3
# Codes reported at the ``for`` of a loop about what happens in its body.
_REPORTED_AT_LOOPS = frozenset({"CPN101", "CPN103", "CPN410"})


def _extent(statement: ast.stmt) -> tuple[int, int]:
    """A compound statement covers its header (its body's statements are
    reported on their own); a simple statement all its lines."""
    last = statement.end_lineno or statement.lineno
    body = getattr(statement, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
        return statement.lineno, max(statement.lineno, body[0].lineno - 1)
    return statement.lineno, last
