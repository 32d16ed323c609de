"""Which NumPy names exist? For each name below, "present" or the error its
access raises, under NumPy and under cuPyNumeric (tests/test_oracle_api_forms.py).

* the aliases of Python's types NumPy 1.24 removed (np.int, np.float, ...)
  and the two NumPy 2 brought back (np.bool, np.long);
* every name of NumPy 1.26 that NumPy 2 dropped (the manifest's 1.26-only
  module-level names);
* NumPy's index and item iterators (np.ndindex, np.ndenumerate, np.nditer);
* classes whose methods code calls through the class (``np.matrix.transpose(w)``).
"""

import json

import numpy as np

TYPE_ALIASES = ("int", "float", "complex", "object", "str", "unicode", "bool", "long")
ONLY_IN_NUMPY_1 = (
    "ALLOW_THREADS", "BUFSIZE", "CLIP", "DataSource", "ERR_CALL", "ERR_DEFAULT", "ERR_IGNORE", "ERR_LOG",
    "ERR_PRINT", "ERR_RAISE", "ERR_WARN", "FLOATING_POINT_SUPPORT", "FPE_DIVIDEBYZERO", "FPE_INVALID",
    "FPE_OVERFLOW", "FPE_UNDERFLOW", "Inf", "Infinity", "MAXDIMS", "MAY_SHARE_BOUNDS", "MAY_SHARE_EXACT", "NAN",
    "NINF", "NZERO", "NaN", "PINF", "PZERO", "RAISE", "RankWarning", "SHIFT_DIVIDEBYZERO", "SHIFT_INVALID",
    "SHIFT_OVERFLOW", "SHIFT_UNDERFLOW", "UFUNC_BUFSIZE_DEFAULT", "UFUNC_PYVALS_NAME", "WRAP", "add_docstring",
    "add_newdoc", "add_newdoc_ufunc", "alltrue", "asfarray", "byte_bounds", "cast", "cfloat", "chararray",
    "clongfloat", "compare_chararrays", "complex_", "cumproduct", "deprecate", "deprecate_with_doc", "disp",
    "fastCopyAndTranspose", "find_common_type", "float_", "format_parser", "get_array_wrap", "geterrobj", "in1d",
    "infty", "issctype", "issubclass_", "issubsctype", "kernel_version", "longcomplex", "longfloat", "lookfor",
    "mat", "maximum_sctype", "msort", "nbytes", "numarray", "obj2sctype", "oldnumeric", "product", "recfromcsv",
    "recfromtxt", "round_", "safe_eval", "sctype2char", "sctypes", "set_numeric_ops", "set_string_function",
    "seterrobj", "singlecomplex", "sometrue", "source", "string_", "tracemalloc_domain", "trapz", "unicode_",
    "who",
)
ITERATORS = ("ndindex", "ndenumerate", "nditer")
CLASSES = ("matrix",)


def outcome(name):
    try:
        getattr(np, name)
    except Exception as exc:  # AttributeError, or a FutureWarning turned error
        return type(exc).__name__
    return "present"


if __name__ == "__main__":
    names = TYPE_ALIASES + ONLY_IN_NUMPY_1 + ITERATORS + CLASSES
    print(json.dumps({name: outcome(name) for name in names}))
