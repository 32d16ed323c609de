"""Import resolution: which local names stand for numpy, cupynumeric, cupy, ...

Resolution is file-wide and flow-insensitive (an import inside a function
counts for the whole file): imports are rare to shadow, and a missed alias is
a missed finding while a wrong one would be a false alarm only in code that
rebinds ``np``, which the binding tables catch separately.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Callable

from .syntax import dotted_name

# Roots whose arrays cuPyNumeric distributes (after the import swap).
DEVICE_ROOTS = ("numpy", "cupynumeric")
CUPY_ROOT = "cupy"
# Libraries whose import alone is evidence for a rule or a verdict gate.
TRACKED_ROOTS = (
    "numpy",
    "cupynumeric",
    "cupy",
    "cupyx",
    "mpi4py",
    "scipy",
    "networkx",
    "sklearn",
    "torch",
    "tensorflow",
    "jax",
    "pandas",
    "legate",
)


# ``from pylab import *`` (or matplotlib.pylab): NumPy's names with pyplot's.
PYLAB_MODULES = frozenset({"pylab", "matplotlib.pylab"})
_PYLAB_STARS = ("numpy", "numpy.fft", "numpy.random", "numpy.linalg")  # in pylab's order: later ones win
_PYLAB_ALIASES = {"np": "numpy", "ma": "numpy.ma", "plt": "matplotlib.pyplot", "mpl": "matplotlib"}
_PYLAB_BUILTINS = frozenset({"bytes", "abs", "bool", "max", "min", "pow", "round"})


@dataclass
class ImportRecord:
    node: ast.stmt
    qualname: str  # what the local name stands for, e.g. "numpy.linalg"
    local: str  # the bound name, e.g. "la"


@dataclass
class ImportTable:
    """Local name -> fully qualified name, for every import in the file."""

    aliases: dict[str, str] = field(default_factory=dict)
    records: list[ImportRecord] = field(default_factory=list)
    star_imports: list[str] = field(default_factory=list)
    # names a star import binds to Python's builtins again (pylab's max, abs, ...)
    star_builtins: frozenset[str] = frozenset()
    # imported_roots() memo, keyed by how many imports it has seen (rules ask
    # for the device root once per call they inspect)
    _roots: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    _roots_seen: tuple[int, int] = field(default=(-1, -1), repr=False, compare=False)

    def add(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self._bind(node, alias.name, alias.asname)
                else:
                    # `import numpy.linalg` binds `numpy`.
                    root = alias.name.split(".", 1)[0]
                    self._bind(node, root, root, full=alias.name)
            return
        if node.level or not node.module:
            return  # relative imports never name a tracked library
        for alias in node.names:
            if alias.name == "*":
                self._star(node, node.module)
                continue
            self._bind(node, f"{node.module}.{alias.name}", alias.asname or alias.name)

    def _star(self, node: ast.ImportFrom, module: str) -> None:
        self.star_imports.append(module)
        if module in PYLAB_MODULES:
            # pylab star-imports NumPy and three of its submodules, binds np
            # and ma, and puts a few Python builtins back over NumPy's
            self.star_imports.extend(_PYLAB_STARS)
            for local, qualname in _PYLAB_ALIASES.items():
                self._bind(node, qualname, local)
            self.star_builtins |= _PYLAB_BUILTINS
        elif module.partition(".")[0] in DEVICE_ROOTS:
            self.star_builtins -= _PYLAB_BUILTINS  # NumPy's own names again

    def _bind(self, node: ast.stmt, qualname: str, local: str, full: str | None = None) -> None:
        self.aliases[local] = qualname
        self.records.append(ImportRecord(node, full or qualname, local))

    # -- queries ----------------------------------------------------------------
    def imported_roots(self) -> set[str]:
        return set(self._root_set())

    def _root_set(self) -> frozenset[str]:
        seen = (len(self.records), len(self.star_imports))
        if seen != self._roots_seen:
            roots = {r.qualname.split(".", 1)[0] for r in self.records}
            roots.update(m.split(".", 1)[0] for m in self.star_imports)
            self._roots, self._roots_seen = frozenset(roots), seen
        return self._roots

    def imports_any(self, *roots: str) -> bool:
        mine = self._root_set()
        return any(r in mine for r in roots)

    @property
    def device_root(self) -> str | None:
        """The module whose arrays will be distributed.

        With cupynumeric imported, that is cupynumeric and numpy is the host
        alias; otherwise numpy (the code is about to be ported).
        """
        roots = self._root_set()
        if "cupynumeric" in roots:
            return "cupynumeric"
        if "numpy" in roots or "numba" in roots:
            return "numpy"  # (a Numba module compiles kernels for the NumPy arrays its callers pass)
        return None

    def resolve(self, expr: ast.expr) -> str | None:
        """The qualified name of a ``Name``/``Attribute`` chain, or None.

        Chains through calls or subscripts (``f().x``, ``a[0].x``) are refused.
        """
        root = expr
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name) or root.id not in self.aliases:
            return None  # most names and chains: no string is built for them
        dotted = dotted_name(expr)
        if dotted is None:
            return None
        head, dot, tail = dotted.partition(".")
        return self.aliases[head] + dot + tail

    def star_shadows_builtin(self, name: str) -> bool:
        """Does a star import of NumPy bind ``name`` over Python's builtin
        (``from numpy import *`` gives NumPy's ``sum``; after
        ``from pylab import *`` ``max`` is Python's again)?"""
        if name not in _NUMPY_STAR_BUILTINS:
            return False
        starred = any(m.split(".", 1)[0] in DEVICE_ROOTS for m in self.star_imports)
        return starred and name not in self.star_builtins


# Python built-ins ``from numpy import *`` replaces with NumPy's own functions.
_NUMPY_STAR_BUILTINS = frozenset({"sum", "min", "max", "any", "all", "abs", "round"})

# What an ``except`` clause catches when the import it guards is missing.
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def import_fallback(parents: "Callable[[ast.AST], ast.AST | None]", node: ast.AST, name: str) -> bool:
    """Is ``node`` (the statement binding ``name``) the fallback of an optional
    import: inside ``except ImportError:`` of a ``try`` whose body imports
    ``name`` (``try: import cupy as cp`` / ``except ImportError: cp = None``)?
    Where the module is installed, the import is what the name holds."""
    child: ast.AST = node
    parent = parents(child)
    while parent is not None:
        if isinstance(parent, ast.ExceptHandler):
            handler = parent
            guarded = parents(handler)
            if isinstance(guarded, ast.Try) and _catches_import_error(handler) and _imports_name(guarded.body, name):
                return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            return False
        child, parent = parent, parents(parent)
    return False


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    if caught is None:
        return True  # a bare except
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any(isinstance(n, ast.Name) and n.id in _IMPORT_ERRORS for n in names)


def _imports_name(body: list[ast.stmt], name: str) -> bool:
    for statement in body:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            for alias in statement.names:
                bound = alias.asname or (alias.name.split(".", 1)[0] if isinstance(statement, ast.Import) else alias.name)
                if bound == name:
                    return True
    return False
