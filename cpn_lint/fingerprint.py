"""One key per finding that survives lines moving: the code, the file, the
function it is in and the text of its line with the spacing normalised.

The baseline (``cpn-lint baseline``) and SARIF's ``partialFingerprints``
both use it, so a finding a baseline accepts is the one code scanning
already knows. Two findings with the same key in one file (the same line
copied twice) are told apart by their order in the file.
"""

from __future__ import annotations

import ast
import hashlib
from typing import Iterable, Sequence

KEY_VERSION = "cpnLint/v1"


def normalised(text: str) -> str:
    """A line's text without the spacing that reformatting changes."""
    return " ".join(text.split())


def finding_key(code: str, path: str, function: str | None, line_text: str) -> str:
    parts = (code, path.replace("\\", "/"), function or "", normalised(line_text))
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]


def numbered(keys: Iterable[str]) -> list[str]:
    """``key:n``, n counting earlier findings with the same key (in the order
    given, which is the file's order)."""
    seen: dict[str, int] = {}
    out = []
    for key in keys:
        n = seen.get(key, 0)
        seen[key] = n + 1
        out.append(f"{key}:{n}")
    return out


# Nodes that can hold a function or class definition: statements (and the
# blocks of try/match). An expression never does, a lambda being no def.
_HOLDS_STATEMENTS = (ast.stmt, ast.excepthandler, ast.match_case, ast.mod)


def function_spans(tree: ast.AST) -> list[tuple[int, int, str]]:
    """(first line, last line, ``Outer.name``) of every function and method."""
    spans: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    spans.append((child.lineno, child.end_lineno or child.lineno, name))
                visit(child, name + ".")
            elif isinstance(child, _HOLDS_STATEMENTS):
                visit(child, prefix)  # expressions hold no def: not walked

    visit(tree, "")
    return spans


def function_at(spans: Sequence[tuple[int, int, str]], line: int) -> str | None:
    """The innermost function whose lines hold ``line``."""
    best: tuple[int, str] | None = None
    for first, last, name in spans:
        if first <= line <= last and (best is None or first >= best[0]):
            best = (first, name)
    return best[1] if best else None
