"""What the model knows about NumPy's API: one table per question.

Names are the tail after the ``numpy``/``cupynumeric`` root (``"sum"``,
``"linalg.norm"``, ``"random.normal"``). The value engine
(:mod:`cpn_lint.model.values`) reads these tables to decide what a call
returns — its kind (Python number, 0-d device scalar, array, ...) and its
shape — and the rules read them to recognise the calls they are about.

The runtime facts encoded here were checked under cuPyNumeric 26.6.1
(``tests/test_oracle_runtime_facts.py`` keeps that run): a NumPy function of
Python numbers (``np.sqrt(2)``) and a reduction without ``axis`` return 0-d
device arrays, a scalar index of an array (``a[3]``) is a 0-d device array,
and a random draw without ``size`` is a one-element device array.
"""

from __future__ import annotations

import ast

# ----------------------------------------------------------------- builders
# The first argument (or shape=) is the result's shape; the ndarray
# constructor (``np.ndarray((n, n), int)``) makes an uninitialised one.
SHAPE_FIRST = frozenset({"zeros", "ones", "empty", "full", "ndarray"})
# The result has the shape of the first argument (unless shape= is given).
LIKE = frozenset({"zeros_like", "ones_like", "empty_like", "full_like"})
# Conversions: the result has the first argument's shape (a list's own shape).
CONVERSIONS = frozenset(
    {"array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "asarray_chkfinite", "require", "copy", "matrix", "asmatrix"}
)
# Conversions that also raise the rank to at least 1, 2 or 3.
AT_LEAST = {"atleast_1d": 1, "atleast_2d": 2, "atleast_3d": 3}
# Evenly spaced values: (position of num, default num).
SPACES = {"linspace": (2, 50), "logspace": (2, 50), "geomspace": (2, 50)}
# Square matrices: eye(N, M=None), identity(n), tri(N, M=None).
SQUARE = frozenset({"eye", "identity", "tri"})
# Arrays built by calling something for each element or reading a file.
FROM_DATA = frozenset({"fromfunction", "fromiter", "fromstring", "frombuffer", "fromfile", "loadtxt", "genfromtxt", "load"})
# All the calls that make a new device array from shapes, sizes or host data
# (not from array arithmetic).
BUILDERS = SHAPE_FIRST | LIKE | CONVERSIONS | frozenset(AT_LEAST) | frozenset(SPACES) | SQUARE | FROM_DATA | {"arange"}

# --------------------------------------------------------------- random draws
# Legacy np.random functions: the position of ``size`` (keyword "size").
# Without it (and with scalar parameters) a draw is one number — on
# cuPyNumeric a 0-d or one-element device array.
RANDOM_SIZE_POSITION: dict[str, int] = {
    "random": 0, "random_sample": 0, "ranf": 0, "sample": 0, "standard_normal": 0,
    "standard_exponential": 0, "standard_cauchy": 0,
    "exponential": 1, "poisson": 1, "rayleigh": 1, "geometric": 1, "standard_gamma": 1,
    "standard_t": 1, "chisquare": 1, "pareto": 1, "power": 1, "weibull": 1, "zipf": 1,
    "logseries": 1, "choice": 1, "dirichlet": 1,
    "uniform": 2, "normal": 2, "randint": 2, "random_integers": 2, "integers": 2,
    "lognormal": 2, "laplace": 2, "logistic": 2, "gumbel": 2, "binomial": 2,
    "negative_binomial": 2, "gamma": 2, "beta": 2, "f": 2, "vonmises": 2, "wald": 2,
    "noncentral_chisquare": 2, "multinomial": 2, "multivariate_normal": 2,
    "hypergeometric": 3, "triangular": 3, "noncentral_f": 3,
}
# Draws that, without ``size``, still return a 0-d value on cuPyNumeric
# 26.6.1; every other distribution then returns a one-element array of shape
# (1,) (tests/data/runtime_facts.py shows both under the runtime).
ZERO_D_DRAWS = frozenset({"rand", "randn", "randint", "random_integers", "integers"})
# The distribution parameters of each draw, in order (``size`` follows them).
# cuPyNumeric 26.6.1 converts each to a Python number, so an array or a list
# there raises (tests/data/oracle/api_forms.py).
DISTRIBUTION_PARAMETERS: dict[str, tuple[str, ...]] = {
    "normal": ("loc", "scale"), "uniform": ("low", "high"), "lognormal": ("mean", "sigma"),
    "gamma": ("shape", "scale"), "beta": ("a", "b"), "exponential": ("scale",), "poisson": ("lam",),
    "binomial": ("n", "p"), "laplace": ("loc", "scale"), "logistic": ("loc", "scale"),
    "gumbel": ("loc", "scale"), "rayleigh": ("scale",), "weibull": ("a",), "pareto": ("a",),
    "chisquare": ("df",), "standard_t": ("df",), "vonmises": ("mu", "kappa"), "geometric": ("p",),
    "triangular": ("left", "mode", "right"), "wald": ("mean", "scale"), "f": ("dfnum", "dfden"),
    "power": ("a",), "negative_binomial": ("n", "p"), "standard_gamma": ("shape",), "zipf": ("a",),
    "logseries": ("p",), "hypergeometric": ("ngood", "nbad", "nsample"),
}
# Draws whose sample has dimensions of its own, added after ``size``.
RANDOM_VECTOR_DRAWS = frozenset({"multinomial", "multivariate_normal", "dirichlet"})
# Legacy draws that take their dimensions as separate arguments: rand(2, 3).
RANDOM_DIMS_AS_ARGS = frozenset({"rand", "randn"})
# Draws that reorder an array: permutation(x) has x's shape (or (x,) for an int).
RANDOM_PERMUTATIONS = frozenset({"permutation", "permuted"})
# Methods of np.random.default_rng(...)/RandomState(...) that draw numbers.
GENERATOR_DRAWS = frozenset(RANDOM_SIZE_POSITION) | RANDOM_DIMS_AS_ARGS | RANDOM_PERMUTATIONS | {"shuffle"}
GENERATOR_FUNCTIONS = frozenset({"random.default_rng", "random.RandomState", "random.Generator"})
# Public stride-trick functions (tail after the root): arrays (views) of
# their first argument's data, whatever namespace they sit in.
STRIDE_TRICK_ARRAYS = frozenset({
    "lib.stride_tricks.sliding_window_view", "lib.stride_tricks.as_strided", "lib.stride_tricks.broadcast_to",
})
# What a random generator was built with -> the NumPy class whose methods it has.
GENERATOR_CLASSES = {
    "random.default_rng": "numpy.random.Generator",
    "random.Generator": "numpy.random.Generator",
    "random.RandomState": "numpy.random.RandomState",
}
# Every public attribute of numpy.random.Generator and RandomState (NumPy
# 2.x, plus the older aliases ranf/sample): a method call on a generator
# with any other name fails, so only these are worth the receiver's kind.
GENERATOR_METHODS = frozenset({
    "beta", "binomial", "bit_generator", "bytes", "chisquare", "choice", "dirichlet", "exponential", "f", "gamma",
    "geometric", "get_state", "gumbel", "hypergeometric", "integers", "laplace", "logistic", "lognormal", "logseries",
    "multinomial", "multivariate_hypergeometric", "multivariate_normal", "negative_binomial", "noncentral_chisquare",
    "noncentral_f", "normal", "pareto", "permutation", "permuted", "poisson", "power", "rand", "randint", "randn",
    "random", "random_integers", "random_sample", "ranf", "rayleigh", "sample", "seed", "set_state", "shuffle", "spawn",
    "standard_cauchy", "standard_exponential", "standard_gamma", "standard_normal", "standard_t", "tomaxint",
    "triangular", "uniform", "vonmises", "wald", "weibull", "zipf",
})
# numpy.random callables that do take an array first (the others take sizes).
ARRAY_RANDOM_FUNCTIONS = frozenset({"random.shuffle", "random.permuted"})

# ----------------------------------------------------------- elementwise math
UNARY_UFUNCS = frozenset(
    {
        "negative", "positive", "absolute", "abs", "fabs", "sign", "sqrt", "cbrt", "square",
        "reciprocal", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
        "tan", "arcsin", "arccos", "arctan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
        "arcsinh", "arccosh", "arctanh", "asinh", "acosh", "atanh", "deg2rad", "rad2deg",
        "degrees", "radians", "floor", "ceil", "trunc", "rint", "round", "around", "fix",
        "logical_not", "bitwise_not", "invert", "isnan", "isinf", "isfinite", "isposinf",
        "isneginf", "signbit", "conj", "conjugate", "real", "imag", "angle", "nan_to_num",
        "sinc", "i0", "spacing", "iscomplex", "isreal",
    }
)
BINARY_UFUNCS = frozenset(
    {
        "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power",
        "float_power", "mod", "remainder", "fmod", "logaddexp", "logaddexp2", "arctan2",
        "atan2", "hypot", "maximum", "minimum", "fmax", "fmin", "greater", "greater_equal",
        "less", "less_equal", "equal", "not_equal", "logical_and", "logical_or",
        "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
        "right_shift", "copysign", "nextafter", "gcd", "lcm", "ldexp", "isclose", "heaviside",
    }
)
ELEMENTWISE = UNARY_UFUNCS | BINARY_UFUNCS | {"clip", "where"}
# Functions whose result has the first argument's shape.
SAME_SHAPE = frozenset({"roll", "sort", "flip", "fliplr", "flipud", "rot90", "nan_to_num", "gradient_component"})

# ------------------------------------------------------------------ reductions
# Reductions: without axis= a 0-d result; with axis= one dimension fewer.
REDUCTIONS = frozenset(
    {
        "sum", "mean", "max", "min", "amax", "amin", "prod", "product", "std", "var", "any",
        "all", "nansum", "nanmean", "nanmax", "nanmin", "nanprod", "nanstd", "nanvar",
        "argmax", "argmin", "nanargmax", "nanargmin", "count_nonzero", "average", "median",
        "nanmedian", "ptp", "linalg.norm", "trapz", "trapezoid", "alltrue", "sometrue",
        "percentile", "quantile", "nanpercentile", "nanquantile",
    }
)
REDUCTION_METHODS = frozenset({"sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "argmax", "argmin", "ptp"})
# Where a function-form reduction takes its axis positionally (0-based).
REDUCTION_AXIS_POSITION = {"linalg.norm": 2, "percentile": 2, "quantile": 2, "nanpercentile": 2, "nanquantile": 2, "average": 1}
# Always 0-d (or a number) whatever the arguments.
SCALAR_RESULTS = frozenset({"linalg.det", "linalg.matrix_rank", "trace", "vdot", "linalg.cond"})
# Scans: the first argument's shape with axis=, flattened without it.
SCANS = frozenset({"cumsum", "cumprod", "nancumsum", "nancumprod"})

# ------------------------------------------------------------------ products
MATMUL_APIS = frozenset(
    {"matmul", "dot", "vdot", "inner", "outer", "einsum", "tensordot", "linalg.multi_dot", "linalg.matmul", "linalg.matrix_power"}
)

# ------------------------------------- what scales on cuPyNumeric (SCALES)
# Device APIs are matched on the tail after the numpy/cupynumeric root. Every
# name below is implemented with multi-GPU support in cuPyNumeric 26.6.1 (its
# comparison table and docstrings); APIs it lacks (np.std, np.ptp, np.kron,
# np.heaviside, np.sinc, ...) are CPN401 material, never "what works".

SCALING_UFUNCS = frozenset(
    {
        "add", "subtract", "multiply", "divide", "true_divide", "floor_divide",
        "power", "float_power", "mod", "remainder", "fmod", "negative",
        "positive", "absolute", "abs", "fabs", "sign", "sqrt", "cbrt", "square",
        "reciprocal", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
        "logaddexp", "logaddexp2", "sin", "cos", "tan", "arcsin", "arccos",
        "arctan", "arctan2", "asin", "acos", "atan", "hypot", "sinh", "cosh",
        "tanh", "arcsinh", "arccosh", "arctanh", "asinh", "acosh", "atanh",
        "deg2rad", "rad2deg", "degrees", "radians", "floor", "ceil", "trunc",
        "rint", "round", "maximum", "minimum", "fmax", "fmin", "clip",
        "greater", "greater_equal", "less", "less_equal", "equal", "not_equal",
        "logical_and", "logical_or", "logical_xor", "logical_not",
        "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "invert",
        "left_shift", "right_shift", "isnan", "isinf", "isfinite", "isposinf",
        "isneginf", "signbit", "copysign", "nextafter", "conj", "conjugate",
        "real", "imag", "angle", "gcd", "lcm", "ldexp", "nan_to_num", "isclose",
    }
)
# Elementwise methods of ndarray (the rest are reductions, copies or reshapes).
SCALING_UFUNC_METHODS = frozenset({"clip", "conj", "conjugate"})

# Element tests whose result is a boolean array (a mask).
BOOLEAN_UFUNCS = frozenset(
    {
        "greater", "greater_equal", "less", "less_equal", "equal", "not_equal",
        "logical_and", "logical_or", "logical_xor", "logical_not", "isnan",
        "isinf", "isfinite", "isposinf", "isneginf", "signbit", "isclose",
        "isin", "iscomplex", "isreal",
    }
)

# Reductions: tree-reduced across GPUs. np.std and ndarray.std are not
# implemented in cuPyNumeric 26.6.1 (CPN401 reports them); median and
# percentile need a sort, not a tree reduction, and are left out.
SCALING_REDUCTIONS = frozenset(
    {
        "sum", "mean", "max", "min", "amax", "amin", "prod", "var", "any", "all",
        "nansum", "nanmean", "nanmax", "nanmin", "nanprod", "argmax", "argmin",
        "nanargmax", "nanargmin", "count_nonzero", "average", "linalg.norm",
    }
)
SCALING_REDUCTION_METHODS = frozenset({"sum", "mean", "max", "min", "prod", "var", "any", "all", "argmax", "argmin"})
SCALAR_PRODUCTS = frozenset({"vdot", "inner"})  # 0-d for the vectors they are used on
SELF_PRODUCTS = frozenset({"dot", "matmul"})  # np.dot(f, f): 0-d for vectors

CONDITIONAL_APIS = frozenset({"where", "select", "choose", "putmask", "place", "copyto"})

# Calls that allocate a fresh array: passing one as out= is not reuse.
ALLOCATIONS = frozenset(
    {"empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like", "array", "asarray", "copy", "ascontiguousarray"}
)

# Elementwise NumPy functions that take out= and keep their operand's shape.
OUT_UFUNCS = frozenset(
    {
        "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power",
        "float_power", "remainder", "mod", "fmod", "negative", "positive", "absolute", "abs",
        "fabs", "sqrt", "cbrt", "square", "reciprocal", "exp", "exp2", "expm1", "log", "log2",
        "log10", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh",
        "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "hypot", "maximum", "minimum", "fmax",
        "fmin", "clip", "sign", "floor", "ceil", "trunc", "rint", "deg2rad", "rad2deg",
        "degrees", "radians", "conjugate", "conj", "copysign", "logaddexp", "logaddexp2",
    }
)
# Reductions: without an axis they make a 0-d result, a number, not a buffer.
ZERO_D_REDUCTIONS = frozenset(
    {
        "sum", "prod", "mean", "std", "var", "max", "min", "amax", "amin", "nansum", "nanmean",
        "nanmax", "nanmin", "nanstd", "nanvar", "median", "average", "dot", "vdot", "inner",
        "linalg.norm", "trace", "count_nonzero", "ptp", "all", "any", "argmax", "argmin",
    }
)

# Functions that join arrays into a larger one.
JOINERS = frozenset({"append", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack", "row_stack", "block", "insert", "pad", "tile", "repeat"})

# --------------------------------------------------------------- reshaping
FLATTENING = frozenset({"ravel"})
TRANSPOSING = frozenset({"transpose"})

# ------------------------------------------------------------ views or copies
# Calls that give a view of their array in NumPy but a copy in cuPyNumeric
# 26.6.1, so a write through the result reaches the original only under
# NumPy. The value is the family: "diagonal" (a read-only view in NumPy:
# the write raises there), "flip" and "ravel" (writable views; reshape
# belongs to "ravel"). tests/test_oracle_views.py writes through each result
# under both libraries and holds this table to what they do.
VIEW_BECOMES_COPY: dict[str, str] = {
    "diag": "diagonal", "diagonal": "diagonal",
    "flip": "flip", "fliplr": "flip", "flipud": "flip", "rot90": "flip",
    "ravel": "ravel", "reshape": "ravel",
}
VIEW_BECOMES_COPY_METHODS: dict[str, str] = {"diagonal": "diagonal", "ravel": "ravel", "reshape": "ravel"}
# Views in both libraries (a write through them reaches the original under
# cuPyNumeric too): transposes, axis moves, added or removed unit axes,
# splits, basic slices with unit steps, ``a.view()``, ``np.asarray``.
VIEWS_IN_BOTH = frozenset({
    "transpose", "swapaxes", "moveaxis", "squeeze", "expand_dims", "atleast_1d", "atleast_2d", "atleast_3d",
    "split", "array_split", "hsplit", "vsplit", "asarray",
})
VIEW_METHODS_IN_BOTH = frozenset({"transpose", "swapaxes", "squeeze", "view", "T", "mT"})
# ``.real``/``.imag`` of a complex array are copies in cuPyNumeric too (of a
# real array, views): the dtype decides, which a static check rarely knows.
DTYPE_DEPENDENT_VIEWS = frozenset({"real", "imag"})

# ------------------------------------------------------------- other results
# numpy-namespace callables that never return an array (tail after the root).
NON_ARRAY_FUNCTIONS = frozenset(
    {
        "isscalar", "iterable", "iscomplexobj", "isrealobj", "shape", "ndim", "size",
        "result_type", "dtype", "finfo", "iinfo", "can_cast", "promote_types",
        "min_scalar_type", "issubdtype", "isdtype", "save", "savez",
        "savez_compressed", "savetxt", "set_printoptions", "get_printoptions",
        "printoptions", "seterr", "geterr", "errstate", "get_include",
        "broadcast", "broadcast_shapes", "ndindex", "nditer", "ndenumerate", "vectorize",
        "frompyfunc", "may_share_memory", "shares_memory", "array2string",
        "array_repr", "array_str", "format_float_positional",
        "format_float_scientific", "base_repr", "binary_repr", "info",
        "show_config", "typename", "mintypecode", "common_type",
        "random.seed", "random.default_rng", "random.RandomState",
        "random.Generator", "random.SeedSequence", "random.get_state",
        "random.set_state", "random.PCG64", "random.MT19937", "random.Philox",
        "random.SFC64", "testing.assert_allclose", "testing.assert_array_equal",
        "testing.assert_equal", "testing.assert_almost_equal",
        "testing.assert_array_almost_equal", "testing.assert_", "random.shuffle",
        "linalg.LinAlgError", "load", "copyto", "putmask", "place", "put", "fill_diagonal",
        "put_along_axis",
    }
)
# numpy-namespace callables that return Python numbers (host values).
PYTHON_NUMBER_FUNCTIONS = frozenset({"ndim", "size", "isscalar", "iscomplexobj", "isrealobj", "can_cast", "issubdtype"})

# numpy-namespace callables returning a tuple or list of arrays.
SEQUENCE_FUNCTIONS = frozenset(
    {
        "nonzero", "meshgrid", "split", "array_split", "hsplit", "vsplit",
        "dsplit", "histogram", "histogram2d", "histogramdd", "gradient",
        "broadcast_arrays", "unravel_index", "diag_indices", "diag_indices_from",
        "tril_indices", "tril_indices_from", "triu_indices", "triu_indices_from", "indices",
        "linalg.eig", "linalg.eigh", "linalg.svd", "linalg.qr", "linalg.slogdet",
        "linalg.lstsq", "modf", "frexp", "divmod", "unique_all",
        "unique_counts", "unique_inverse", "ogrid",
    }
)
SEQUENCE_METHODS = frozenset({"nonzero"})

# numpy-namespace callables whose first argument is a shape, a size, a
# number, a file or a function: passing a parameter there does not show that
# the parameter is an array.
NOT_ARRAY_FIRST_ARGUMENT = frozenset(
    {
        "zeros", "ones", "empty", "full", "ndarray", "identity", "eye", "tri", "indices",
        "ndindex", "diag_indices", "tril_indices", "triu_indices",
        "mask_indices", "arange", "linspace", "logspace", "geomspace",
        "isscalar", "iterable", "ndim", "shape", "size", "iscomplexobj",
        "isrealobj", "save", "savez", "savez_compressed", "savetxt", "load",
        "loadtxt", "genfromtxt", "fromfile", "fromfunction", "fromiter",
        "fromstring", "dtype", "finfo", "iinfo", "issubdtype", "can_cast",
        "result_type", "promote_types", "seterr", "errstate",
        "set_printoptions", "printoptions", "vectorize", "frompyfunc",
    }
)
# numpy-namespace callables that convert whatever they are given into an
# array: code converts a value because it may not be an array yet, so
# passing a name there is no evidence that the name holds one.
CONVERSION_FUNCTIONS = frozenset(CONVERSIONS - {"copy"}) | frozenset(AT_LEAST)

# numpy scalar types: calling them makes a host scalar (a number), not an array.
SCALAR_TYPES = frozenset(
    {
        "float16", "float32", "float64", "float128", "longdouble", "double",
        "single", "half", "int8", "int16", "int32", "int64", "intp", "uint",
        "uint8", "uint16", "uint32", "uint64", "uintp", "int_", "intc", "bool_",
        "bool", "complex64", "complex128", "cdouble", "csingle", "short",
        "ushort", "long", "ulong", "longlong", "ulonglong", "byte", "ubyte",
        "str_", "bytes_", "object_", "void", "generic", "number", "integer",
        "floating", "complexfloating", "datetime64", "timedelta64", "float_", "complex_",
    }
)

# numpy-namespace constants and index helpers (attributes, not arrays).
NUMERIC_CONSTANTS = frozenset({"pi", "e", "inf", "nan", "euler_gamma", "NINF", "PINF", "NaN", "Inf", "NZERO", "PZERO", "infty"})
NON_ARRAY_ATTRIBUTES = NUMERIC_CONSTANTS | {"newaxis", "s_", "index_exp"}

# numpy objects that build arrays through subscripting: np.r_[0:10:2].
INDEX_BUILDERS = frozenset({"r_", "c_", "mgrid", "ogrid", "s_", "index_exp"})

# ------------------------------------------------------------ ndarray members
# ndarray attributes that are metadata, not array data.
ARRAY_METADATA = frozenset(
    {"shape", "ndim", "size", "dtype", "nbytes", "itemsize", "strides", "flags", "ctypes", "data", "base", "__array_interface__"}
)
# Metadata that is a Python number.
NUMERIC_METADATA = frozenset({"ndim", "size", "nbytes", "itemsize"})
ARRAY_VALUE_ATTRIBUTES = frozenset({"T", "mT", "real", "imag", "flat"})
# ndarray methods whose result is not an array.
NON_ARRAY_METHODS = frozenset(
    {
        "item", "tolist", "tobytes", "tostring", "fill", "sort", "resize", "dump", "dumps",
        "tofile", "setflags", "put", "itemset", "__len__", "__bool__", "__float__", "__int__",
        "keys", "values", "items",
    }
)
# ndarray methods that keep the receiver's shape.
SAME_SHAPE_METHODS = frozenset({"copy", "astype", "conj", "conjugate", "clip", "round", "view", "__abs__", "__neg__"})

# --------------------------------------------------------------- annotations
ARRAY_ANNOTATIONS = frozenset({"ndarray", "NDArray"})
NOT_ARRAY_ANNOTATIONS = frozenset(
    {"int", "float", "str", "bool", "complex", "list", "dict", "set", "tuple", "bytes", "List", "Dict", "Set", "Tuple", "Sequence", "Mapping", "Iterable", "Callable"}
)

# ------------------------------------------------------------------ builtins
# Builtins whose result is certainly not an array.
NON_ARRAY_BUILTINS = frozenset(
    {
        "list", "dict", "set", "frozenset", "tuple", "str", "repr", "bytes",
        "range", "sorted", "enumerate", "zip", "map", "filter", "reversed", "iter", "open",
        "print", "isinstance", "issubclass", "hasattr", "getattr", "id",
        "hash", "type", "format", "ord", "chr", "input", "vars",
        "dir", "callable", "object",
    }
)
# Builtins that return a Python number (or bool) whatever they are given.
NUMBER_BUILTINS = frozenset({"len", "int", "float", "bool", "complex", "any", "all", "ord", "round"})

# -------------------------------------------------------------- host sinks
# Builtins that take their arguments to the host (output, Python containers,
# iteration): what feeds them is not device work.
HOST_BUILTINS = frozenset(
    {
        "print", "str", "repr", "format", "len", "list", "tuple", "set",
        "frozenset", "dict", "sorted", "iter", "next", "enumerate", "zip",
        "map", "filter", "reversed", "sum", "min", "max", "any", "all",
        "input", "open", "hash", "id", "type", "isinstance",
    }
)
# Libraries that take arrays to the host (plots, logs, files, host compute).
HOST_LIBRARIES = frozenset(
    {
        "matplotlib", "seaborn", "plotly", "logging", "warnings", "scipy",
        "sklearn", "pandas", "torch", "tensorflow", "jax", "cupy", "cupyx",
        "mpi4py", "h5py", "json", "pickle", "csv", "pyarrow", "xarray", "zarr",
    }
)
# Plotting libraries: a call on an object they made (ax.plot, fig.savefig)
# is output too.
PLOTTING_LIBRARIES = frozenset({"matplotlib", "seaborn", "plotly"})

# ------------------------------------------------------------- SciPy sparse
# Attributes and methods only a SciPy sparse matrix has: a name used with one
# may be sparse, so its .shape, .T or 2-D subscripts do not show an array.
SPARSE_ONLY_ATTRIBUTES = frozenset(
    {
        "toarray", "todense", "tocsr", "tocsc", "tocoo", "tobsr", "tolil", "todok",
        "todia", "nnz", "getnnz", "indptr", "blocksize", "eliminate_zeros",
        "sum_duplicates", "has_sorted_indices", "sort_indices", "asformat",
        "multiply", "getrow", "getcol", "setdiag",
    }
)
# scipy.sparse functions that do not build a sparse matrix.
SPARSE_MODULE_NON_MATRIX = frozenset({"find", "issparse", "isspmatrix", "save_npz", "get_index_dtype", "safely_cast_index_arrays"})
SPARSE_PREDICATES = frozenset({"issparse", "isspmatrix", "isspmatrix_csr", "isspmatrix_csc", "isspmatrix_coo", "is_pydata_spmatrix"})
DENSIFY_METHODS = frozenset({"toarray", "todense"})  # sparse methods that return a dense array

# numpy namespaces that are tooling, not array APIs.
TOOLING_NAMESPACES = frozenset({"distutils", "testing", "typing", "f2py", "ctypeslib", "compat", "version", "exceptions", "dtypes", "core", "lib"})


def is_internal_api(tail: str) -> bool:
    """``core.numeric.normalize_axis_tuple``, ``_utils.x``, ``testing.y``: not public array API.

    ``lib.stride_tricks`` and friends are public, but what they return is not
    worth guessing; unknown keeps the rules quiet.
    """
    parts = tail.split(".")
    return any(part.startswith("_") for part in parts) or (len(parts) > 1 and parts[0] in TOOLING_NAMESPACES)


# Binary operators with an in-place form, their symbol and the ufunc that
# writes into out= (CPN202 and its fix share them).
IN_PLACE_OPERATORS: dict[type, tuple[str, str]] = {
    ast.Add: ("+", "add"),
    ast.Sub: ("-", "subtract"),
    ast.Mult: ("*", "multiply"),
    ast.Div: ("/", "divide"),
    ast.FloorDiv: ("//", "floor_divide"),
    ast.Pow: ("**", "power"),
    ast.Mod: ("%", "remainder"),
}
COMMUTATIVE_OPERATORS = (ast.Add, ast.Mult)

# Libraries whose work is outside cuPyNumeric's scope (CPN410's import
# evidence; the cost model's out-of-scope calls), most specific first.
OUT_OF_SCOPE_MODULES: tuple[tuple[str, str], ...] = (
    ("scipy.sparse.csgraph", "graph"),
    ("scipy.sparse", "sparse"),
    ("cupyx.scipy.sparse", "sparse"),
    ("networkx", "graph"),
    ("igraph", "graph"),
    ("graph_tool", "graph"),
    ("rustworkx", "graph"),
    ("sklearn.feature_extraction.text", "nlp"),
    ("nltk", "nlp"),
    ("spacy", "nlp"),
    ("transformers", "nlp"),
    ("tokenizers", "nlp"),
    ("sentencepiece", "nlp"),
    ("gensim", "nlp"),
    ("torchtext", "nlp"),
    ("sklearn", "ml"),
    ("torch", "ml"),
    ("tensorflow", "ml"),
    ("keras", "ml"),
    ("xgboost", "ml"),
    ("lightgbm", "ml"),
    ("catboost", "ml"),
    ("flax", "ml"),
    ("optax", "ml"),
    ("haiku", "ml"),
    ("equinox", "ml"),
    ("jax.nn", "ml"),
    ("jax.example_libraries", "ml"),
    ("jax.grad", "ml"),
    ("jax.value_and_grad", "ml"),
)

# Data utilities of ML libraries: making, splitting and scaling data is no
# training or inference (scripts that write their own model in NumPy import
# them for test data). Metrics are not among them: SPEC §4 names "ML
# estimators and metrics" as Gate 4 evidence (pairwise similarity is compute).
# Nor is the estimator interface a NumPy-written transformer adopts
# (BaseEstimator, TransformerMixin) or its input checks (check_array): a
# library built on that interface does its own array work.
OUT_OF_SCOPE_DATA_UTILITIES: tuple[str, ...] = (
    "sklearn.base",
    "sklearn.utils",
    "sklearn.exceptions",
    "sklearn.datasets",
    "sklearn.preprocessing",
    "sklearn.model_selection.train_test_split",
    "sklearn.model_selection.KFold",
    "sklearn.model_selection.StratifiedKFold",
    "sklearn.model_selection.ShuffleSplit",
)
