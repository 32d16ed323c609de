"""Runs inside the *target* interpreter: reads the installed cuPyNumeric's
NumPy comparison table and writes it as JSON (the introspected-table format).

Standalone on purpose (no cpn_lint imports, Python 3.8 syntax): the target
interpreter need not have cpn-lint installed. ``cpn_lint.manifest.introspect``
passes this file's text to ``python -c`` from an empty working directory.

The table is built the way cuPyNumeric's documentation builds its comparison
page: the library's own generator (``cupynumeric._sphinxext``) when it is
importable, otherwise the same procedure re-stated here — every public
callable NumPy name per namespace, implemented when cuPyNumeric has the
attribute, GPU support parsed from the "Availability" section of its
docstring ("Multiple GPUs", "Multiple GPUs (partial)", "Single GPU").

With a second argument, a JSON list of NumPy names (a NumPy "surface", see
``cpn_lint.manifest.surface``), every name of the list gets a row too: the
names the comparison table leaves out (aliases, ``numpy.ma``, the methods of
``random.Generator`` and of ufuncs, names NumPy 2 removed) are looked up in
cuPyNumeric the same way. Every row says whether cuPyNumeric has an attribute
of that name at all (``present``), which tells a name that raises
AttributeError from one that exists but is not supported.

usage: python -c "<this file>" OUTPUT.json [NAMES.json]
"""

import json
import sys

YES, NO, PARTIAL = "\u2713", "\u274c", "\U0001f7e1"
SECTIONS = (
    ("Module-Level", None),
    ("Multi-Dimensional Array", "ndarray"),
    ("Linear Algebra", "linalg"),
    ("Discrete Fourier Transform", "fft"),
    ("Random Sampling", "random"),
)
# Names the library's generator leaves out (aliases and test helpers).
FALLBACK_SKIP = {
    "abs", "add_docstring", "add_newdoc_ufunc", "add_newdoc", "alen", "alltrue", "bitwise_not",
    "compare_chararrays", "cumproduct", "fastCopyAndTranspose", "get_array_wrap", "iterable", "max", "min",
    "product", "recfromcsv", "recfromtxt", "round", "safe_eval", "set_numeric_ops", "size", "sometrue", "test",
    "Tester",
}


# Sections for names the library's table does not list, by their namespace.
EXTRA_SECTIONS = (
    ("numpy.ndarray.", "Multi-Dimensional Array"),
    ("numpy.linalg.", "Linear Algebra"),
    ("numpy.fft.", "Discrete Fourier Transform"),
    ("numpy.random.Generator.", "Random Generator"),
    ("numpy.random.RandomState.", "Random Sampling"),
    ("numpy.random.", "Random Sampling"),
    ("numpy.ma.", "Masked Arrays"),
    ("numpy.ufunc.", "Universal Functions"),
    ("numpy.emath.", "Mathematical functions"),
    ("numpy.polynomial.", "Polynomials"),
    ("numpy.lib.", "Stride Tricks"),
)


def write(path, document):
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(document, handle, ensure_ascii=False)


def support_from_docstring(obj):
    doc = getattr(obj, "__doc__", None) or ""
    if "Multiple GPUs (partial)" in doc:
        multi = PARTIAL
    elif "Multiple GPUs" in doc:
        multi = YES
    else:
        multi = NO
    single = YES if "Single GPU" in doc else (multi if multi != NO else NO)
    return single, multi


def availability_text(obj):
    """The first line under an "Availability" heading, if any."""
    doc = getattr(obj, "__doc__", None) or ""
    lines = [line.strip() for line in doc.splitlines()]
    for i, line in enumerate(lines):
        if line == "Availability":
            for following in lines[i + 1:]:
                if following and set(following) != {"-"}:
                    return following
    return None


def namespaces(numpy, cupynumeric, attr):
    if attr is None:
        return numpy, cupynumeric
    return getattr(numpy, attr), getattr(cupynumeric, attr)


def fallback_rows(numpy, cupynumeric):
    rows = []
    for title, attr in SECTIONS:
        np_obj, lg_obj = namespaces(numpy, cupynumeric, attr)
        names = sorted(
            n for n in dir(np_obj)
            if not n.startswith("_") and n not in FALLBACK_SKIP and callable(getattr(np_obj, n, None))
        )
        for name in names:
            lg_attr = getattr(lg_obj, name, None)
            if lg_attr is None:
                rows.append(row(title, attr, name, False, "", "", None))
            else:
                single, multi = support_from_docstring(lg_attr)
                rows.append(row(title, attr, name, True, single, multi, lg_attr))
    return rows


def library_rows(numpy, cupynumeric):
    from cupynumeric._sphinxext._comparison_config import NUMPY_CONFIGS
    from cupynumeric._sphinxext._comparison_util import generate_section

    rows = []
    for config in NUMPY_CONFIGS:
        _, lg_obj = namespaces(numpy, cupynumeric, config.attr)
        for item in generate_section(config).items:
            lg_attr = getattr(lg_obj, item.name, None) if item.implemented else None
            rows.append(row(config.title, config.attr, item.name, item.implemented, item.single, item.multi, lg_attr))
    return rows


def row(title, attr, name, implemented, single, multi, lg_attr):
    entry = {
        "section": title,
        "numpy": "numpy." + (attr + "." if attr else "") + name,
        "implemented": bool(implemented),
        "single": single,
        "multi": multi,
    }
    if implemented and single == NO and multi == NO and lg_attr is not None:
        text = availability_text(lg_attr)
        if text:
            entry["availability"] = text
    return entry


def resolve(cupynumeric, name):
    """cuPyNumeric's object for a NumPy name, or None when it has none.
    A ufunc method is looked up on a binary ufunc (``add``): the unary ones
    have fewer methods, and NumPy refuses those on unary ufuncs anyway."""
    missing = object()  # numpy.newaxis is None: absence needs its own marker
    parts = name.split(".")[1:]
    obj = cupynumeric
    if parts[:1] == ["ufunc"] and len(parts) == 2:
        obj, parts = getattr(cupynumeric, "add", missing), parts[1:]
    for part in parts:
        if obj is missing:
            return ABSENT
        obj = getattr(obj, part, missing)
    return ABSENT if obj is missing else obj


ABSENT = object()  # what resolve() returns for a name cuPyNumeric does not have


def section_of(name):
    for prefix, title in EXTRA_SECTIONS:
        if name.startswith(prefix):
            return title
    return "Module-Level"


def surface_rows(cupynumeric, names, listed):
    rows = []
    for name in sorted(set(names) - listed):
        obj = resolve(cupynumeric, name)
        if obj is ABSENT:
            rows.append(row(section_of(name), None, name[len("numpy."):], False, "", "", None))
        else:
            single, multi = support_from_docstring(obj)
            rows.append(row(section_of(name), None, name[len("numpy."):], True, single, multi, obj))
    return rows


def read_names(path):
    with open(path, encoding="utf-8") as handle:
        names = json.load(handle)
    if not isinstance(names, list) or not all(isinstance(n, str) and n.startswith("numpy.") for n in names):
        raise ValueError("the names file must be a JSON list of numpy.* names")
    return names


def main(argv):
    output = argv[1]
    try:
        names = read_names(argv[2]) if len(argv) > 2 else []
    except (OSError, ValueError) as exc:
        write(output, {"error": "cannot read the names to look up: %s" % (exc,)})
        return 3
    try:
        import numpy
        import cupynumeric
    except BaseException as exc:  # ImportError, or a runtime that fails to start
        write(output, {"error": "cannot import cupynumeric: %s: %s" % (type(exc).__name__, exc)})
        return 3
    method = "cupynumeric._sphinxext (the library's comparison-table generator)"
    try:
        rows = library_rows(numpy, cupynumeric)
    except ImportError:
        method = "docstring Availability sections (cpn-lint's restatement of the library's generator)"
        rows = fallback_rows(numpy, cupynumeric)
    rows.extend(surface_rows(cupynumeric, names, {r["numpy"] for r in rows}))
    for entry in rows:
        entry["present"] = resolve(cupynumeric, entry["numpy"]) is not ABSENT
    write(output, {
        "cupynumeric_version": str(getattr(cupynumeric, "__version__", "") or ""),
        "numpy_version": str(numpy.__version__),
        "method": method,
        "rows": rows,
    })
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
