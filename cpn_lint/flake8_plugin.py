"""The flake8 adapter: one checker class per code, all over one shared analysis.

flake8 hands every tree plugin the same ``ast`` object for a file, one plugin
after another, in one process. The first CPN checker to run analyses the file
with every selected rule and caches the result against that tree; the others
read their own code's findings from the cache. Plugin order never matters.
A file whose text, name and options are those of an earlier run takes its
findings from the persistent result cache instead (:mod:`cpn_lint.cache`).

Exactly one class (:class:`CPN000`) owns ``add_options``/``parse_options``:
flake8 calls them once per plugin object, and a second registration of the
same option crashes it.
"""

from __future__ import annotations

import ast
import sys
import weakref
from pathlib import Path
from typing import Any, ClassVar, Iterator

from . import __version__
from .cache import ResultCache, open_cache, register, transient
from .engine import INTERNAL_ERROR, LintOptions, lint_tree
from .findings import Finding
from .registry import CODE_PATTERN
from .rules import load_rules

_Result = tuple[int, int, str, type]
register(Finding)


class _Shared:
    """Options parsed once, and the analysis of the file being checked."""

    options: LintOptions = LintOptions()
    verbose: bool = False  # --cpn-verbose: the whole message, not the headline
    baseline: frozenset[str] = frozenset()  # --cpn-baseline: keys of accepted findings
    baseline_folder: Path = Path(".")  # the baseline file's folder: its paths are relative to it
    # A weak reference: the file's tree dies when flake8 is done with it, as it
    # would without the plugin (a strong one kept each tree alive through the
    # file's pycodestyle pass, and every full collection traced it), and a
    # dead tree never matches a new one that reuses its address.
    tree: "weakref.ReferenceType[ast.AST] | None" = None
    findings: dict[str, list[Finding]] = {}
    # the result cache (cpn_lint.cache); None until parse_options turns it on
    # (and with --cpn-no-cache or CPN_LINT_NO_CACHE=1)
    cache: "ResultCache | None" = None


def _analysis_for(tree: ast.Module, lines: list[str] | None, filename: str) -> dict[str, list[Finding]]:
    if _Shared.tree is None or _Shared.tree() is not tree:
        source = "".join(lines) if lines is not None else ast.unparse(tree)
        by_code: dict[str, list[Finding]] = {}
        findings = _findings(tree, source, filename, cacheable=lines is not None)
        if _Shared.baseline:
            findings = _drop_baselined(list(findings), tree, lines, filename)
        for finding in findings:
            by_code.setdefault(finding.code, []).append(finding)
        _Shared.tree, _Shared.findings = weakref.ref(tree), by_code
    return _Shared.findings


class _Checker:
    """Base of the generated per-code checkers (has no option hooks itself)."""

    name: ClassVar[str] = "cpn-lint"
    version: ClassVar[str] = __version__
    code: ClassVar[str] = ""

    def __init__(self, tree: ast.Module, filename: str = "(none)", lines: list[str] | None = None) -> None:
        self._tree = tree
        self._filename = filename
        self._lines = lines

    def run(self) -> Iterator[_Result]:
        codes = _Shared.options.codes
        if codes is not None and self.code not in codes:
            return
        for finding in _analysis_for(self._tree, self._lines, self._filename).get(self.code, ()):
            yield finding.line, finding.col, finding.text if _Shared.verbose else finding.headline, type(self)


def _findings(tree: ast.Module, source: str, filename: str, cacheable: bool) -> list[Finding]:
    """The file's findings (before any baseline), from the result cache when
    the file's text, name and the options are those of an earlier run."""
    cache = _Shared.cache
    key = cache.key(_CACHE_KIND, filename, source.encode("utf-8", "surrogatepass"), _Shared.options) \
        if cache is not None and cacheable else None
    if cache is not None and key is not None:
        hit = cache.get(key, list[Finding])
        if hit is not None:
            return hit
    findings = lint_tree(tree, source, filename, _Shared.options)
    if cache is not None and key is not None and not transient(findings):
        cache.put(key, findings)
    return findings


_CACHE_KIND = "flake8-findings"


def _drop_baselined(findings: list[Finding], tree: ast.AST, lines: list[str] | None, filename: str) -> list[Finding]:
    """The findings a ``--cpn-baseline`` file has not accepted."""
    from .baseline import key_path, keyed
    from .fingerprint import function_at, function_spans

    spans = function_spans(tree)
    text = lines or []
    path = key_path(filename, _Shared.baseline_folder)
    return [f for f, key in keyed(path, findings, lambda line: function_at(spans, line),
                                   lambda line: text[line - 1] if 1 <= line <= len(text) else "")
            if f.code == INTERNAL_ERROR or key not in _Shared.baseline]


def _selected_codes(options: Any, all_codes: list[str]) -> frozenset[str] | None:
    """Which codes flake8's select/ignore would show; None if unknown."""
    try:
        from flake8.style_guide import Decision, DecisionEngine

        engine = DecisionEngine(options)
        return frozenset(c for c in all_codes if engine.decision_for(c) is Decision.Selected)
    except Exception:  # flake8 internals changed: run everything, flake8 still filters
        return None


class CPN000(_Checker):
    """Carrier of the plugin's options; reports internal errors (CPN000)."""

    code = INTERNAL_ERROR

    @staticmethod
    def add_options(option_manager: Any) -> None:
        option_manager.add_option(
            "--cpn-assessment",
            action="store_true",
            default=False,
            parse_from_config=True,
            help="also emit cpn-lint's assessment codes (SCALES CPN00x, INFO CPN30x, "
            "CPN402, CPN403), as cpn-verdict does",
        )
        option_manager.add_option(
            "--cpn-verbose",
            action="store_true",
            default=False,
            parse_from_config=True,
            help="show each finding's whole explanation instead of its one-line headline "
            "(the rule page, 'cpn-lint rule CODE', explains every code)",
        )
        option_manager.add_option(
            "--cpn-baseline",
            metavar="FILE",
            default=None,
            parse_from_config=True,
            normalize_paths=True,  # in a config file: relative to that file's folder
            help="report only findings not in this baseline (write one with 'cpn-lint baseline write -o FILE PATH...')",
        )
        option_manager.add_option(
            "--cpn-manifest",
            metavar="PATH",
            default=None,
            parse_from_config=True,
            help="the cuPyNumeric API manifest CPN401-CPN403 read (default: the one 'cpn-lint manifest "
            "refresh' wrote to the user's cache, else the snapshot shipped with cpn-lint)",
        )
        option_manager.add_option(
            "--cpn-no-cache",
            action="store_true",
            default=False,
            parse_from_config=True,
            help="analyse every file again instead of reusing cpn-lint's cached results for unchanged files "
            "(also: CPN_LINT_NO_CACHE=1; 'cpn-lint cache info' shows where the cache is)",
        )

    @staticmethod
    def parse_options(options: Any) -> None:
        codes = load_rules()
        selected = _selected_codes(options, list(codes))
        path = getattr(options, "cpn_manifest", None) or None
        if path:
            _check_manifest(path)
        _Shared.options = LintOptions(assessment=bool(getattr(options, "cpn_assessment", False)), codes=selected,
                                      manifest_path=path)
        _Shared.verbose = bool(getattr(options, "cpn_verbose", False))
        baseline = getattr(options, "cpn_baseline", None) or None
        _Shared.baseline = _load_baseline(baseline)
        if baseline is not None:
            from .baseline import folder_of

            _Shared.baseline_folder = folder_of(baseline)
        _Shared.tree, _Shared.findings = None, {}
        _Shared.cache = open_cache(bool(getattr(options, "cpn_no_cache", False)))
        if _Shared.cache is not None:
            # hash the package's code once, here, before flake8 -j forks its workers
            _Shared.cache.key(_CACHE_KIND, "", b"", _Shared.options)


def _load_baseline(path: str | None) -> frozenset[str]:
    """The accepted keys; a bad file stops flake8 with one clear line."""
    if path is None:
        return frozenset()
    from .baseline import BaselineError, load

    try:
        return load(path)
    except BaselineError as exc:
        raise SystemExit(f"cpn-lint: --cpn-baseline: {exc}") from None


def _check_manifest(path: str) -> None:
    """Read a named manifest once, so a bad path stops flake8 with one clear line."""
    from .manifest import ManifestError, resolve

    try:
        resolve(path)
    except ManifestError as exc:
        raise SystemExit(f"cpn-lint: --cpn-manifest: {exc}") from None


def _make_checkers() -> dict[str, type[_Checker]]:
    checkers: dict[str, type[_Checker]] = {INTERNAL_ERROR: CPN000}
    for code, rule in load_rules().items():
        if code == INTERNAL_ERROR:
            continue
        doc = f"flake8 checker for {code} ({rule.slug})."
        checkers[code] = type(code, (_Checker,), {"code": code, "__doc__": doc, "__module__": __name__})
    return checkers


CHECKERS = _make_checkers()
_module = sys.modules[__name__]
for _code, _cls in CHECKERS.items():
    setattr(_module, _code, _cls)


def __getattr__(name: str) -> type[_Checker]:
    """An inert checker for a code with no rule.

    Entry points are read from the installed metadata, which can be older than
    the code (an editable install after a rule was renamed); failing to load
    would abort the user's whole flake8 run, so such a checker reports nothing.
    """
    if CODE_PATTERN.match(name):
        return type(name, (_Checker,), {"code": name, "__module__": __name__})
    raise AttributeError(name)


__all__ = sorted(CHECKERS)
