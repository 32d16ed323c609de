"""The engine: source text in, findings out. Knows nothing about flake8.

>>> from cpn_lint import lint_source
>>> [f.code for f in lint_source("import numpy as np\\nf = np.vectorize(abs)\\n")]
['CPN102']
"""

from __future__ import annotations

import ast
import gc
import re
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from . import manifest
from .findings import Finding
from .model import FileModel
from .registry import Default
from .rules import load_rules

INTERNAL_ERROR = "CPN000"
COMPILED_KERNEL = "CPN112"  # findings inside a compiled function fold into it

# A file that mentions none of these cannot produce a finding; skip the model.
_RELEVANT = re.compile(
    rb"numpy|cupynumeric|cupy|mpi4py|scipy|networkx|sklearn|torch|tensorflow|jax|transformers|nltk|spacy|pylab|numba"
)

# Above this many bytes a file is reported as too large rather than analysed.
MAX_SOURCE_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class LintOptions:
    """What to run.

    ``codes``: the codes to run (None: every code). Assessment-only codes run
    only when ``assessment`` is true, whatever ``codes`` says (the registry's
    ``Default.ASSESSMENT`` rules; README.md, "Codes").
    ``manifest_path``: the API manifest the CPN40x rules read (None: the
    refreshed one in the user's cache, else the shipped snapshot).
    """

    assessment: bool = False
    codes: frozenset[str] | None = None
    manifest_path: str | None = None

    def wants(self, code: str, default: Default) -> bool:
        if default is Default.ASSESSMENT and not self.assessment:
            return False
        return self.codes is None or code in self.codes


@dataclass
class FileResult:
    """The outcome for one file: findings, or why it could not be read."""

    filename: str
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None  # a one-line reason when the file could not be analysed
    lines: int = 0
    model: FileModel | None = None
    # with keep_model, for a file no rule looks at (no model): its for/while
    # loops, which the verdict's Gate 5 counts as loops on plain Python values
    plain_loops: int | None = None


def lint_source(source: str | bytes, filename: str = "<string>", *, assessment: bool = False,
                codes: Iterable[str] | None = None) -> list[Finding]:
    """Lint one file's source and return its findings, sorted by position.

    Raises ``SyntaxError``/``UnicodeDecodeError`` for input that cannot be
    parsed; :func:`analyze_source` reports those as an error instead.
    """
    options = LintOptions(assessment=assessment, codes=frozenset(codes) if codes is not None else None)
    text = decode_source(source) if isinstance(source, bytes) else source
    tree = parse(text, filename)
    return lint_tree(tree, text, filename, options)


def lint_tree(tree: ast.Module, source: str, filename: str, options: LintOptions) -> list[Finding]:
    """Run the selected rules over an already parsed tree."""
    return _run(tree, source, filename, options, keep_model=False)[0]


def analyze_source(source: str | bytes, filename: str, options: LintOptions,
                   keep_model: bool = False) -> FileResult:
    """Like :func:`lint_source`, but never raises on bad input."""
    result = FileResult(filename)
    raw = source if isinstance(source, bytes) else None
    if raw is not None and len(raw) > MAX_SOURCE_BYTES:
        result.error = f"file is larger than {MAX_SOURCE_BYTES // (1024 * 1024)} MiB; skipped"
        return result
    try:
        text = decode_source(raw) if raw is not None else source  # type: ignore[arg-type]
    except UnicodeDecodeError as exc:
        result.error = f"not valid UTF-8 (byte {exc.start}); skipped"
        return result
    assert isinstance(text, str)
    result.lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if "\0" in text:
        result.error = "contains a NUL byte; skipped"
        return result
    # One pause for the parse and the analysis: the tree and the model are
    # all live objects until the file is done, and both are gone (freed by
    # reference counting) before the collector runs again, so it has nothing
    # of this file to trace.
    with _collector_paused():
        _parse_and_run(text, filename, options, keep_model, result)
    return result


def _parse_and_run(text: str, filename: str, options: LintOptions, keep_model: bool, result: FileResult) -> None:
    try:
        tree = parse(text, filename)
    except SyntaxError as exc:
        result.error = f"does not parse: {exc.msg} (line {exc.lineno})"
        return
    except (RecursionError, MemoryError, ValueError) as exc:
        result.error = f"cannot be parsed ({type(exc).__name__}: nesting too deep or input too large)"
        return
    result.findings, model = _run(tree, text, filename, options, keep_model=keep_model)
    if keep_model:
        result.model = model
        if model is None:
            result.plain_loops = sum(isinstance(node, (ast.For, ast.AsyncFor, ast.While)) for node in ast.walk(tree))


def parse(text: str, filename: str) -> ast.Module:
    """``ast.parse`` without the SyntaxWarnings compiling the user's code can
    print (``1(2)``, invalid escapes): they are not ours to report."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        return ast.parse(text, filename=filename)


def decode_source(raw: bytes) -> str:
    """Decode like Python does: a BOM or a PEP 263 cookie, else UTF-8."""
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError:
        encoding = "utf-8"
    try:
        return raw.decode(encoding.replace("-sig", "") if encoding != "utf-8-sig" else "utf-8-sig")
    except LookupError:
        return raw.decode("utf-8")


def _run(tree: ast.Module, source: str, filename: str, options: LintOptions,
         keep_model: bool = True) -> tuple[list[Finding], FileModel | None]:
    rules = [r for code, r in load_rules().items() if code != INTERNAL_ERROR and options.wants(code, r.default)]
    if not rules or not _RELEVANT.search(source.encode("utf-8", "surrogatepass")):
        return [], None
    manifest.select(options.manifest_path)  # the API rules read it; cached per path
    with _collector_paused():
        try:
            model = FileModel(tree, source, filename)
        except RecursionError:
            return [_internal_error("model", RecursionError("nesting too deep for analysis"))], None
        findings: list[Finding] = []
        for rule_cls in rules:
            try:
                findings.extend(rule_cls().check(model))
            except Exception as exc:  # containment: one rule never sinks the run
                findings.append(_internal_error(rule_cls.code, exc))
        findings = _fold_into_compiled_functions(model, findings)
        if not keep_model:
            model.release()
    findings.sort(key=Finding.sort_key)
    return _dedupe(findings), model


def _fold_into_compiled_functions(model: FileModel, findings: list[Finding]) -> list[Finding]:
    """Findings inside a Numba-compiled function are not cuPyNumeric work:
    when the function takes the program's arrays they are part of its CPN112
    (one root cause, one finding) and counted in its data, not listed; when it
    only ever sees numbers they are dropped. Which functions those are is a
    fact of the model, so the result does not depend on the codes selected."""
    from dataclasses import replace

    from .model.compiled import compiled_function_at

    if "numba" not in model.source:
        return findings
    kept: list[Finding] = []
    folded: dict[int, dict[str, int]] = {}
    for finding in findings:
        compiled = None if finding.code in (COMPILED_KERNEL, INTERNAL_ERROR) else \
            compiled_function_at(model, finding.line)
        if compiled is None:
            kept.append(finding)
            continue
        counts = folded.setdefault(compiled.node.lineno, {})
        counts[finding.code] = counts.get(finding.code, 0) + 1
    return [replace(f, data={**f.data, "folded": dict(sorted(folded[f.line].items()))})
            if f.code == COMPILED_KERNEL and f.line in folded else f for f in kept]


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while one file is analysed.

    The model allocates hundreds of thousands of small objects, none of them
    garbage until the file is done; each collection triggered meanwhile would
    traverse every tree the host process holds (flake8 keeps them all) for
    nothing. The collector's previous state is restored, whatever happens.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _internal_error(where: str, exc: BaseException) -> Finding:
    detail = str(exc).splitlines()[0][:160] if str(exc) else ""
    message = f"internal error in {where}: {type(exc).__name__}{': ' + detail if detail else ''} (please report)"
    return Finding(INTERNAL_ERROR, 1, 0, message)


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, int, int, str]] = set()
    unique: list[Finding] = []
    for f in findings:
        key = (f.code, f.line, f.col, f.message)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique
