"""Loops over input files: one pass per file (or image) read.

A loop whose every iteration takes a new input — ``for path in
glob.glob("*.h5")``, ``for name in os.listdir(d)``, ``for f in
sys.argv[1:]``, ``for n in range(1, len(sys.argv)): f = sys.argv[n]``, or a
loop whose body opens a file named from its own variable (``np.load(f"run{i}
.npy")``, ``imread(path)``) — repeats at the pace of the file system. What
it does once per file (a host conversion, a check) costs once per file, not
once per step of a computation: the host-sync rules ask
:func:`walks_input_files` before calling such a loop hot.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .scopes import BindKind, LoopFrame
from .syntax import walk

if TYPE_CHECKING:  # pragma: no cover
    from . import FileModel

# Calls that list files (qualified names), and path methods that do.
LISTERS = frozenset({"glob.glob", "glob.iglob", "os.listdir", "os.scandir", "os.walk", "fileinput.input"})
LISTING_METHODS = frozenset({"glob", "rglob", "iterdir"})
# Calls that read one file (qualified names; ``open`` is the builtin).
READERS = frozenset({
    "numpy.load", "numpy.loadtxt", "numpy.genfromtxt", "numpy.fromfile", "imageio.imread", "imageio.v2.imread",
    "imageio.v3.imread", "cv2.imread", "PIL.Image.open", "matplotlib.pyplot.imread", "matplotlib.image.imread",
    "skimage.io.imread", "tifffile.imread", "h5py.File", "netCDF4.Dataset", "xarray.open_dataset",
    "pandas.read_csv", "pandas.read_parquet", "pandas.read_hdf", "scipy.io.loadmat", "astropy.io.fits.open",
})
# Wrappers that keep an iterable's items.
_WRAPPERS = frozenset({"sorted", "list", "enumerate", "reversed", "tuple", "tqdm"})
_DEPTH = 4


def walks_input_files(model: "FileModel", frame: LoopFrame) -> bool:
    """Does each iteration of ``frame`` take a new input file or image?"""
    return model.derived(("walks-input-files", id(frame)), lambda m: _walks(m, frame))


def _walks(model: "FileModel", frame: LoopFrame) -> bool:
    node = frame.node
    if not isinstance(node, (ast.For, ast.AsyncFor)):
        return False
    if _lists_files(model, node.iter, 0):
        return True
    names = _target_names(node.target)
    if not names:
        return False
    for inner in walk(node):
        if isinstance(inner, ast.Subscript) and _is_argv(model, inner.value) and _mentions(inner.slice, names):
            return True  # for n in range(1, len(sys.argv)): f = sys.argv[n]
        if isinstance(inner, ast.Call) and _reads(model, inner) and any(_mentions(a, names | _derived(node, names))
                                                                        for a in inner.args[:1]):
            return True  # np.load(f"run{i}.npy"), imread(path)
    return False


def _lists_files(model: "FileModel", expr: ast.expr, depth: int) -> bool:
    if depth > _DEPTH:
        return False
    if isinstance(expr, ast.Call):
        func = expr.func
        if isinstance(func, ast.Name) and func.id in _WRAPPERS and expr.args and model.lookup(func) is None:
            return _lists_files(model, expr.args[0], depth + 1)
        if model.qualname(func) in LISTERS:
            return True
        return isinstance(func, ast.Attribute) and func.attr in LISTING_METHODS  # Path(d).glob("*.png")
    if isinstance(expr, ast.Subscript):
        return _is_argv(model, expr.value)  # sys.argv[1:]
    if isinstance(expr, ast.Name):
        bindings = model.reaching_bindings(expr)
        return bool(bindings) and all(b.kind is BindKind.VALUE and b.value is not None
                                      and _lists_files(model, b.value, depth + 1) for b in bindings)
    if isinstance(expr, (ast.ListComp, ast.GeneratorExp)):
        return any(_lists_files(model, g.iter, depth + 1) for g in expr.generators)
    return False


def _is_argv(model: "FileModel", expr: ast.expr) -> bool:
    return model.qualname(expr) == "sys.argv"


def _reads(model: "FileModel", call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name) and func.id == "open" and model.lookup(func) is None:
        return True
    return model.qualname(func) in READERS


def _target_names(target: ast.expr) -> set[str]:
    return {n.id for n in walk(target) if isinstance(n, ast.Name)}


def _derived(loop: ast.For | ast.AsyncFor, names: set[str]) -> set[str]:
    """Names the loop body assigns from the loop's own names (``path =
    os.path.join(d, name)``, ``f = files[i]``), one step deep."""
    found: set[str] = set()
    for stmt in walk(loop):
        if isinstance(stmt, ast.Assign) and _mentions(stmt.value, names):
            for target in stmt.targets:
                found |= _target_names(target)
    return found


def _mentions(expr: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in walk(expr))


__all__ = ["LISTERS", "READERS", "walks_input_files"]
