"""Runs inside an interpreter that has some NumPy release installed: lists the
public names of NumPy that code may use, and writes them as JSON.

Standalone on purpose (no cpn_lint imports, Python 3.8 syntax): the target
interpreter need not have cpn-lint installed, and it may hold an old NumPy
(1.2x) that cpn-lint itself does not run with. ``cpn_lint.manifest.surface``
passes this file's text to ``python -c`` from an empty working directory.

Output::

    {"numpy_version": "1.26.4",
     "names": {"numpy.trapz": "function", "numpy.add": "ufunc",
               "numpy.ndarray.std": "method", "numpy.ufunc.at": "method", ...}}

Kinds: ``function``, ``ufunc``, ``class``, ``object`` (constants and index
helpers such as ``numpy.r_``), ``method`` and ``attribute`` (of a class).

usage: python -c "<this file>" OUTPUT.json
"""

import importlib
import json
import sys
import warnings

# Modules whose public names are listed (a module missing from a release is skipped).
MODULES = (
    "numpy",
    "numpy.linalg",
    "numpy.fft",
    "numpy.random",
    "numpy.ma",
    "numpy.emath",
    "numpy.polynomial",
    "numpy.lib.stride_tricks",
)
# Classes whose public methods and attributes are listed.
CLASSES = ("numpy.ndarray", "numpy.random.Generator", "numpy.random.RandomState")
# The methods of a ufunc object (numpy.add.at, numpy.multiply.outer, ...).
UFUNC_METHODS = ("accumulate", "at", "outer", "reduce", "reduceat")


def kind_of(numpy, obj):
    if isinstance(obj, numpy.ufunc):
        return "ufunc"
    if isinstance(obj, type):
        return "class"
    if callable(obj):
        return "function"
    return "object"


def resolve(numpy, dotted):
    """The object a dotted name stands for (``numpy.emath`` is an attribute,
    not an importable module, in some releases), or None."""
    obj = numpy
    for part in dotted.split(".")[1:]:
        obj = getattr(obj, part, None)
        if obj is None:
            try:
                return importlib.import_module(dotted)
            except ImportError:
                return None
    return obj


def public_names(module):
    """The module's declared public names (``__all__``) when it has them,
    else every name without a leading underscore."""
    declared = getattr(module, "__all__", None)
    names = declared if declared is not None and module.__name__ != "numpy" else dir(module)
    return sorted(n for n in names if not n.startswith("_"))


def module_names(numpy, module_name):
    module = resolve(numpy, module_name)
    if module is None:
        return {}
    names = {}
    for name in public_names(module):
        try:
            obj = getattr(module, name)
        except Exception:  # a deprecated name whose access raises
            continue
        if type(obj) is type(numpy):  # a submodule: its names are listed on their own, if at all
            continue
        names[module_name + "." + name] = kind_of(numpy, obj)
    return names


def class_names(numpy, dotted):
    cls = resolve(numpy, dotted)
    if not isinstance(cls, type):
        return {}
    names = {}
    for name in sorted(dir(cls)):
        if name.startswith("_"):
            continue
        member = getattr(cls, name, None)
        names[dotted + "." + name] = "method" if callable(member) else "attribute"
    return names


def surface(numpy):
    names = {}
    for module_name in MODULES:
        names.update(module_names(numpy, module_name))
    for dotted in CLASSES:
        names.update(class_names(numpy, dotted))
    for method in UFUNC_METHODS:
        if hasattr(numpy.add, method):
            names["numpy.ufunc." + method] = "method"
    return names


def main(argv):
    output = argv[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import numpy
        except BaseException as exc:
            document = {"error": "cannot import numpy: %s: %s" % (type(exc).__name__, exc)}
        else:
            document = {"numpy_version": str(numpy.__version__), "names": surface(numpy)}
    with open(output, "w", encoding="utf-8") as handle:
        json.dump(document, handle, ensure_ascii=False, indent=0, sort_keys=True)
    return 0 if "names" in document else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv))
