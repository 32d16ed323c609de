"""Find what to assess and run the engine on it, in process.

Paths may be files, folders and Jupyter notebooks. Folders are walked in a
stable order, skipping hidden folders, virtual environments and build output,
and following a symlinked folder only once (a symlink loop ends the descent).
A notebook's code cells are joined into one module, as the kernel runs them,
with IPython magics and shell lines blanked out; a finding's line is mapped
back to ``notebook.ipynb:cell N:line M``, where N counts every cell of the
notebook from 1, as a notebook viewer shows them.

Input problems (a missing path, an unreadable file, a notebook that is not
JSON, a cell that does not parse) become one-line messages; everything else
is still assessed.
"""

from __future__ import annotations

import ast
import json
import os
import re
import stat
import sys
import warnings
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from ..cache import ResultCache, Unencodable, decode, encode, register, transient
from ..engine import FileResult, LintOptions, analyze_source
from ..findings import Finding
from ..jobs import file_size, ordered_map, workers_for
from ..model import FileModel
from ..model.cost import file_sites
from ..model.cost_terms import Site
from .gates import SizedArray, SizeEvidence

SKIPPED_DIRS = frozenset({
    "__pycache__", "node_modules", "site-packages", "build", "dist", "venv", "env",
    "__pypackages__", "htmlcov",
})
SOURCE_SUFFIXES = (".py", ".ipynb")

# Cell magics whose body is Python run by the kernel (the first line is the magic).
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})
_MAGIC_LINE = re.compile(r"^\s*(%|!)")
_MAGIC_ASSIGN = re.compile(r"^\s*[\w.,\s\[\]()]+=\s*[%!]")
_HELP_LINE = re.compile(r"^\s*(\?\??[\w.]+|[\w.]+\?\??)\s*$")



def main_block_spans(tree: ast.Module) -> list[tuple[int, int]]:
    """The lines of each module-level ``if __name__ == "__main__":`` body."""
    spans = []
    for node in tree.body:
        test = node.test if isinstance(node, ast.If) else None
        if isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__" \
                and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators):
            spans.append((node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno))
    return spans

@dataclass
class Unit:
    """One assessed input: a Python file or a notebook."""

    path: str  # as displayed and cited
    result: FileResult
    cells: list[tuple[int, int]] | None = None  # notebook: combined line -> (cell, line in cell)
    errors: list[str] = field(default_factory=list)  # one-line input problems
    line_count: int | None = None
    # quoted lines when there is no source (flake8 input): line -> text
    quotes: dict[int, str] = field(default_factory=dict)
    # What the report needs from the semantic model, kept so the model itself
    # can be dropped after each file (a large tree would otherwise hold them all).
    source_lines: list[str] | None = None
    uses_numpy: bool | None = None  # None: unknown (no model), judged from findings
    imported_roots: frozenset[str] = frozenset()
    sizes: SizeEvidence = field(default_factory=SizeEvidence)
    # (first line, last line, qualified name) of every function and method,
    # so that a citation can name the function it is in
    functions: list[tuple[int, int, str]] = field(default_factory=list)
    # (first line, last line) of the module's `if __name__ == "__main__":`
    # blocks: they run when the file is run as a script, never on import
    main_blocks: list[tuple[int, int]] = field(default_factory=list)
    fixable: list[tuple[int, str]] = field(default_factory=list)  # (line, code) `cpn-lint fix` can rewrite
    # calls of functions imported from the project's own modules: (qualified
    # name, line, calling function), so a compiled kernel's callers in other
    # files can be named (only when the file's findings hold a CPN112 somewhere)
    imported_calls: list[tuple[str, int, str]] = field(default_factory=list)
    # Gate 5: the file's loops, and how many of them touch a NumPy array
    # (None: unknown, no model)
    loops: int | None = None
    array_loops: int | None = None
    # Where the time would go (cpn_lint.model.cost); None: unknown (no model)
    cost_sites: list[Site] | None = None

    def summarise(self) -> "Unit":
        """Keep the model's facts the report needs, then release the model."""
        model = self.result.model
        if model is not None:
            self.source_lines = model.lines
            self.uses_numpy = model.uses_numpy()
            self.imported_roots = frozenset(model.imports.imported_roots())
            self.sizes = self._size_evidence(model)
            self.functions = function_spans(model)
            self.main_blocks = main_block_spans(model.tree)
            self.fixable = _fixable(model, self.result.findings)
            self.imported_calls = imported_calls(model)
            self.loops, self.array_loops = loop_counts(model)
            self.cost_sites = _cost_sites(model)
            self.result.model = None
            model.release()  # freed at once rather than by the cyclic collector
        elif self.result.plain_loops is not None:
            self.loops, self.array_loops = self.result.plain_loops, 0  # no array library in the file
            self.cost_sites = []  # no array work to project
        return self

    def function_at(self, line: int) -> str | None:
        """The innermost function or method holding ``line`` (``Class.method``)."""
        from ..fingerprint import function_at

        return function_at(self.functions, line)

    def in_main_block(self, line: int) -> bool:
        """Is ``line`` in the script's ``if __name__ == "__main__":`` block,
        outside every function (it runs when the file is run, not imported)?"""
        return self.function_at(line) is None and any(first <= line <= last for first, last in self.main_blocks)

    def _size_evidence(self, model: FileModel) -> SizeEvidence:
        """Gate 2 evidence from the model's hot-path arrays: the ones with a
        literal size, and whether any hot-path array's size is unknown."""
        arrays = model.hot_arrays()
        sized: dict[str, SizedArray] = {}
        for array in arrays:
            if array.size is not None:
                line = getattr(array.made_by, "lineno", 1)
                sized.setdefault(self.cite(line), SizedArray(self.cite(line), model.segment(array.made_by, 40), array.size))
        unknown = any(array.size is None for array in arrays)
        return SizeEvidence(tuple(sorted(sized.values(), key=lambda a: a.citation)), unknown=unknown)

    @property
    def is_notebook(self) -> bool:
        return self.cells is not None

    def cite(self, line: int) -> str:
        """``path:line``, or ``notebook.ipynb:cell N:line M``."""
        if self.cells is not None:
            if 1 <= line <= len(self.cells):
                cell, cell_line = self.cells[line - 1]
                return f"{self.path}:cell {cell}:line {cell_line}"
            return f"{self.path}:line {line}"
        return f"{self.path}:{line}"

    def cell_of(self, line: int) -> tuple[int, int] | None:
        if self.cells is not None and 1 <= line <= len(self.cells):
            return self.cells[line - 1]
        return None

    def raw_line(self, line: int) -> str:
        """The source line as written (no stripping), or "" if unknown."""
        model = self.result.model
        lines = model.lines if model is not None else self.source_lines
        if lines is not None:
            return lines[line - 1] if 1 <= line <= len(lines) else ""
        return self.quotes.get(line, "").rstrip("\r\n")

    def quote(self, line: int) -> str:
        return self.raw_line(line).strip()


# What the cache and the --jobs workers carry of a unit (checked on reading).
register(Unit, FileResult, Finding, SizeEvidence, SizedArray, Site)


# Roots of qualified names that are never the project's own modules.
_LIBRARY_ROOTS = frozenset({
    "numpy", "cupynumeric", "cupy", "scipy", "matplotlib", "pandas", "numba", "sklearn", "torch", "jax",
    "tensorflow", "xarray", "h5py", "netCDF4", "mpi4py", "legate", "PIL", "cv2", "skimage", "networkx", "tqdm",
})


def imported_calls(model: FileModel) -> list[tuple[str, int, str]]:
    """Calls of names imported from modules that may be the project's own
    (not the standard library, not a known array or plotting library)."""
    if "import" not in model.source:
        return []
    found = []
    for call in model.nodes(ast.Call):
        name = model.qualname(call.func)
        if not name or "." not in name:
            continue
        root = name.lstrip(".").split(".", 1)[0]
        if root in _LIBRARY_ROOTS or root in sys.stdlib_module_names:
            continue
        found.append((name, call.lineno, model.scope_of(call).function_like().name or "<module>"))
    return found


def function_spans(model: FileModel) -> list[tuple[int, int, str]]:
    """(first line, last line, ``Outer.name``) of each function of the file;
    for a notebook the lines are those of the joined cells. The rule is
    :mod:`cpn_lint.fingerprint`'s, so that cpn-verdict, the baseline and
    ``flake8 --format=cpn-sarif`` name a finding's function alike."""
    from ..fingerprint import function_spans as spans_of

    return spans_of(model.tree)


def _fixable(model: FileModel, findings: list[Finding]) -> list[tuple[int, str]]:
    from ..fix import fixable_findings  # the fix planner is needed only here

    return [(f.line, f.code) for f in fixable_findings(model, findings)]


# ------------------------------------------------------------------ discovery
def discover(paths: Sequence[str]) -> tuple[list[str], list[str]]:
    """The files to assess under ``paths`` (sorted, unique), and input errors."""
    found, errors = discover_with_roots(paths)
    return [path for path, _ in found], errors


def discover_with_roots(paths: Sequence[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """As :func:`discover`, each file paired with the folder it was found
    under (None for a file named itself)."""
    files: list[tuple[str, str | None]] = []
    errors: list[str] = []
    seen: set[str] = set()
    for raw in paths:
        path = Path(raw)
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            errors.append(f"{raw}: no such file or directory")
            continue
        except OSError as exc:
            errors.append(f"{raw}: cannot be read ({exc.strerror or exc})")
            continue
        except ValueError:  # a NUL byte: no file can have that name
            errors.append(f"{raw!r}: no such file or directory")
            continue
        if stat.S_ISDIR(mode):
            found = list(_walk(path, errors))
            root: str | None = str(path)
        else:
            found, root = [str(path)], None
        for item in found:
            key = os.path.normcase(os.path.abspath(item))
            if key not in seen:
                seen.add(key)
                files.append((item, root))
    return files, errors


def _is_venv(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "pyvenv.cfg"))


def _skip_dir(name: str, full: str) -> bool:
    return (
        name.startswith(".")
        or name in SKIPPED_DIRS
        or name.endswith(".egg-info")
        or _is_venv(full)
    )


def _walk(root: Path, errors: list[str]) -> Iterator[str]:
    """Source files under ``root``, in sorted order, each real folder once."""
    visited: set[tuple[int, int]] = set()

    def onerror(exc: OSError) -> None:
        errors.append(f"{exc.filename}: cannot be listed ({exc.strerror or exc})")

    found: list[str] = []
    for current, dirs, names in os.walk(root, followlinks=True, onerror=onerror):
        try:
            st = os.stat(current)
            key = (st.st_dev, st.st_ino)
        except OSError:
            dirs[:] = []
            continue
        if key in visited:  # a symlink back into the tree: do not descend again
            dirs[:] = []
            continue
        visited.add(key)
        dirs[:] = sorted(d for d in dirs if not _skip_dir(d, os.path.join(current, d)))
        for name in sorted(names):
            if name.endswith(SOURCE_SUFFIXES) and not name.startswith("."):
                found.append(os.path.normpath(os.path.join(current, name)))
    yield from sorted(found, key=lambda p: Path(p).parts)


# ------------------------------------------------------------------ analysis
def assess_paths(
    files: Sequence[str],
    options: LintOptions,
    progress: Callable[[int, int], None] | None = None,
    *,
    jobs: int | None = 1,
    cache: ResultCache | None = None,
) -> list[Unit]:
    """Run the engine on every file; never raises on bad input.

    ``cache``: where the units of unchanged files are kept between runs
    (:mod:`cpn_lint.cache`; None: analyse everything). ``jobs``: how many
    files to analyse at once in worker processes (None: the machine's
    cores; :mod:`cpn_lint.jobs`). The units are the same, in the same
    order, whatever the cache holds and whatever ``jobs`` is: a worker
    returns what the cache stores of a unit.
    """
    units: list[Unit | None] = [None] * len(files)
    pending: list[int] = []
    sizes: list[int] = []
    done = 0
    for index, path in enumerate(files):  # cached units first: a warm run starts no worker
        unit, size = _cached_unit(path, options, cache)
        if unit is None:
            pending.append(index)
            sizes.append(size)
            continue
        units[index] = unit
        done += 1
        if progress is not None:
            progress(done, len(files))
    task = partial(_assess_task, options=options, cache=cache)
    results = ordered_map(task, [files[i] for i in pending], workers_for(jobs, sizes), sizes)
    for position, payload in enumerate(results):  # the workers' generator runs to its end
        units[pending[position]] = _unit_of(payload)
        done += 1
        if progress is not None:
            progress(done, len(files))
    return [unit for unit in units if unit is not None]


def assess_file(path: str, options: LintOptions) -> Unit:
    """One file's unit, with the model still attached (see :meth:`Unit.summarise`)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        return _unreadable(path, exc)
    return assess_bytes(path, raw, options)


def assess_bytes(path: str, raw: bytes, options: LintOptions) -> Unit:
    """The unit of ``path`` holding ``raw``, with the model still attached."""
    if path.endswith(".ipynb"):
        return assess_notebook(path, raw, options)
    result = analyze_source(raw, path, options, keep_model=True)
    errors = [f"{path}: {result.error}"] if result.error else []
    return Unit(path, result, errors=errors, line_count=result.lines)


def assess_summarised(path: str, options: LintOptions, cache: ResultCache | None = None) -> Unit:
    """One file's summarised unit, from the cache when the file is unchanged
    (the key is made from the very bytes analysed), else computed and stored."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        return _unreadable(path, exc)
    key = cache.key(_CACHE_KIND, path, raw, options) if cache is not None else None
    if cache is not None and key is not None:
        hit = cache.get(key, Unit)
        if hit is not None and hit.path == path:
            return hit
    unit = assess_bytes(path, raw, options).summarise()
    if cache is not None and key is not None and cacheable(unit):
        cache.put(key, unit)
    return unit


def cacheable(unit: Unit) -> bool:
    """A unit that depends on the file alone (not an internal error, not a
    parse that ran out of stack or memory)."""
    return not transient(unit.result.findings, [unit.result.error, *unit.errors])


_CACHE_KIND = "verdict-unit"


def _cached_unit(path: str, options: LintOptions, cache: ResultCache | None) -> tuple[Unit | None, int]:
    """The cached unit of ``path`` (None: not cached), and its size in bytes."""
    if cache is None:
        return None, file_size(path)
    try:
        raw = Path(path).read_bytes()
    except OSError:
        return None, 0
    hit = cache.get(cache.key(_CACHE_KIND, path, raw, options), Unit)
    return (hit if hit is not None and hit.path == path else None), len(raw)


def _assess_task(path: str, options: LintOptions, cache: ResultCache | None) -> Any:
    """What a worker returns for one file: the unit as the cache stores it
    (the unit itself should it hold something the cache cannot store)."""
    unit = assess_summarised(path, options, cache)
    try:
        return encode(unit)
    except Unencodable:
        return unit


def _unit_of(payload: Any) -> Unit:
    if isinstance(payload, Unit):
        return payload
    unit = decode(payload, checked=False)  # from our own worker, not from the cache
    if not isinstance(unit, Unit):  # pragma: no cover - our own workers' output
        raise TypeError("a worker returned something other than a file's unit")
    return unit


def _unreadable(path: str, exc: OSError) -> Unit:
    reason = exc.strerror or type(exc).__name__
    result = FileResult(path, error=f"cannot be read ({reason})")
    return Unit(path, result, errors=[f"{path}: {result.error}"])


# ------------------------------------------------------------------ notebooks
class NotebookError(ValueError):
    """A notebook that cannot be read as one (one-line reason)."""


def notebook_cells(raw: bytes) -> list[tuple[str, str]]:
    """(cell_type, source) of every cell, nbformat 4 or 3; raises NotebookError."""
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise NotebookError(f"not valid UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise NotebookError(f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise NotebookError("JSON nested too deeply") from None
    if not isinstance(document, dict):
        raise NotebookError("not a notebook (the JSON document is not an object)")
    if "cells" in document:
        cells = document["cells"]
        source_key = "source"
    elif isinstance(document.get("worksheets"), list):  # nbformat 3
        cells = [c for ws in document["worksheets"] if isinstance(ws, dict) for c in ws.get("cells", [])]
        source_key = "input"
    else:
        raise NotebookError("not a notebook (no 'cells' list)")
    if not isinstance(cells, list):
        raise NotebookError("not a notebook ('cells' is not a list)")
    out: list[tuple[str, str]] = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict):
            raise NotebookError(f"cell {number} is not an object")
        source = cell.get(source_key, "")
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise NotebookError(f"cell {number} has a malformed source")
        out.append((str(cell.get("cell_type", "")), source))
    return out


def python_of_cell(source: str) -> str | None:
    """The cell's Python with IPython syntax blanked, keeping line numbers;
    None when the whole cell is a non-Python cell magic (%%bash, %%html...)."""
    lines = source.splitlines()
    if lines and lines[0].lstrip().startswith("%%"):
        magic = lines[0].lstrip()[2:].split(maxsplit=1)
        if not magic or magic[0] not in PYTHON_CELL_MAGICS:
            return None
        lines[0] = ""
    cleaned: list[str] = []
    for line in lines:
        if _MAGIC_LINE.match(line) or _HELP_LINE.match(line) or _MAGIC_ASSIGN.match(line):
            indent = line[: len(line) - len(line.lstrip())]
            # keep a block that held only the magic valid Python
            cleaned.append(f"{indent}pass" if indent else "")
        else:
            cleaned.append(line)
    return "\n".join(cleaned)


def assess_notebook(path: str, raw: bytes, options: LintOptions) -> Unit:
    try:
        cells = notebook_cells(raw)
    except NotebookError as exc:
        result = FileResult(path, error=str(exc))
        return Unit(path, result, cells=[], errors=[f"{path}: {exc}"])
    errors: list[str] = []
    pieces: list[str] = []
    mapping: list[tuple[int, int]] = []
    for number, (cell_type, source) in enumerate(cells, start=1):
        if cell_type != "code":
            continue
        code = python_of_cell(source)
        if code is None or not code.strip():
            continue
        problem = _cell_problem(code)
        if problem:
            errors.append(f"{path}:cell {number}: {problem}; cell skipped")
            continue
        cell_lines = code.split("\n")
        pieces.extend(cell_lines)
        mapping.extend((number, i) for i in range(1, len(cell_lines) + 1))
    combined = "\n".join(pieces) + ("\n" if pieces else "")
    result = analyze_source(combined, path, options, keep_model=True)
    if result.error:  # cannot happen for cells that parse alone, but never lose it
        errors.append(f"{path}: {result.error}")
    return Unit(path, result, cells=mapping, errors=errors, line_count=len(mapping))


def _cell_problem(code: str) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(code)
    except SyntaxError as exc:
        return f"does not parse: {exc.msg} (line {exc.lineno})"
    except (RecursionError, MemoryError, ValueError) as exc:
        return f"cannot be parsed ({type(exc).__name__})"
    return None


# ------------------------------------------------------------------ progress
class Progress:
    """``cpn-verdict: 120/340 files`` on stderr, only for a terminal and many files."""

    THRESHOLD = 20

    def __init__(self, total: int, stream=None) -> None:  # type: ignore[no-untyped-def]
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = total >= self.THRESHOLD and _isatty(self.stream)
        self._shown = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        self.stream.write(f"\rcpn-verdict: {done}/{total} files")
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        if self._shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _isatty(stream) -> bool:  # type: ignore[no-untyped-def]
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _cost_sites(model: FileModel) -> list[Site]:
    """The file's projected cost sites; none when the projection fails on
    this file (the report then simply has less to show)."""
    try:
        return file_sites(model)
    except RecursionError:
        return []


def loop_counts(model: FileModel) -> tuple[int, int]:
    """(loops, loops that touch a NumPy array) among the file's ``for`` and
    ``while`` loops: a loop touches an array when something in it is a
    device array or value, or calls the array library."""
    loops = [frame for frame in model.loops if not frame.is_comprehension]
    if not model.uses_numpy():
        return len(loops), 0
    touching = 0
    for frame in loops:
        names = model.nodes_in_loop(frame, ast.Name, ast.Attribute, ast.Subscript)
        calls = model.nodes_in_loop(frame, ast.Call)
        if any(model.call_api(call) is not None for call in calls) or any(model.kind(node).is_device for node in names):
            touching += 1
    return len(loops), touching
