"""Command-line entry points: ``cpn-lint`` and ``cpn-verdict``."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path
from typing import Callable, Sequence

from . import __version__


def main(argv: Sequence[str] | None = None) -> int:
    """``cpn-lint check ... | rule CODE | rules | docs [DIR] | verdict ... | manifest ... | fix ... | noqa ... | cache ...``."""
    return _guarded("cpn-lint", _main, list(sys.argv[1:] if argv is None else argv))


def _main(args: list[str]) -> int:
    if args and args[0] == "verdict":
        return verdict_main(args[1:])
    if args and args[0] == "manifest":
        return _delegate("cpn_lint.manifest.command", args[1:])
    if args and args[0] == "fix":
        return _delegate("cpn_lint.fix.command", args[1:])
    if args and args[0] == "noqa":
        return _delegate("cpn_lint.noqa", args[1:])
    if args and args[0] == "check":
        return _delegate("cpn_lint.check", args[1:])
    if args and args[0] == "baseline":
        return _delegate("cpn_lint.baseline", args[1:])
    if args and args[0] == "cache":
        return _delegate("cpn_lint.cache", args[1:])
    parser = argparse.ArgumentParser(prog="cpn-lint", description="cuPyNumeric migration-readiness checks.")
    parser.add_argument("--version", action="version", version=f"cpn-lint {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    rule = sub.add_parser("rule", help="print one rule's documentation")
    rule.add_argument("code")
    sub.add_parser("rules", help="list every rule")
    docs = sub.add_parser("docs", help="regenerate the rule pages")
    docs.add_argument("directory", nargs="?", default="docs/rules")
    sub.add_parser("check", help="lint paths and print one line per finding, as ruff check does (see "
                   "cpn-lint check --help)")
    sub.add_parser("verdict", help="assess paths and print the migration verdict (see cpn-verdict --help)")
    sub.add_parser("manifest", help="inspect or refresh the API support manifest")
    sub.add_parser("fix", help="rewrite the findings the model proves safe to change (see cpn-lint fix --help)")
    sub.add_parser("noqa", help="add '# noqa: CODE' for today's findings, so only new ones are reported")
    sub.add_parser("baseline", help="record today's findings in a file, so only new ones are reported")
    sub.add_parser("cache", help="show where unchanged files' results are cached, or empty that cache")
    ns = parser.parse_args(args)
    from . import docs as docs_module
    from .rules import load_rules

    rules = load_rules()
    if ns.command == "rule":
        code = ns.code.upper()
        if code not in rules:
            print(f"cpn-lint: unknown rule {ns.code!r}; try 'cpn-lint rules'", file=sys.stderr)
            return 2
        sys.stdout.write(docs_module.render_rule(rules[code]))
        return 0
    if ns.command == "rules":
        for code, r in rules.items():
            print(f"{code}  {r.category.value:<9} {r.default.value:<10} {r.slug:<32} {r.summary}")
        return 0
    from .safe_write import WriteRefused

    try:
        written = docs_module.write_pages(Path(ns.directory))
    except WriteRefused as exc:
        print(f"cpn-lint docs: {exc}", file=sys.stderr)
        return 2
    print(f"{len(written)} page(s) updated in {ns.directory}")
    return 0


def verdict_main(argv: Sequence[str] | None = None) -> int:
    return _guarded("cpn-verdict", lambda args: _delegate("cpn_lint.verdict.command", args),
                    list(sys.argv[1:] if argv is None else argv))


def _guarded(prog: str, command: Callable[[list[str]], int], args: list[str]) -> int:
    """Run a command; a closed pipe (``cpn-lint rules | head``) or Ctrl-C ends
    it with a status, never a traceback. argparse's own exits pass through."""
    try:
        return command(args)
    except BrokenPipeError:
        # Python would complain again when it flushes stdout at exit: point it at /dev/null
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug, not the user's error: one line, and how to see more
        if os.environ.get("CPN_LINT_DEBUG"):
            raise
        print(f"{prog}: internal error: {type(exc).__name__}: {exc} (please report it; "
              f"CPN_LINT_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 2


def _delegate(module: str, argv: list[str]) -> int:
    try:
        target = importlib.import_module(module)
    except ModuleNotFoundError as exc:  # pragma: no cover - only in a half-built tree
        if exc.name == module:
            print(f"cpn-lint: {module} is not available in this build", file=sys.stderr)
            return 2
        raise
    return int(target.main(argv))
