"""What kind of value an expression evaluates to, as far as the rules care."""

from __future__ import annotations

import enum


class Kind(enum.Enum):
    DEVICE = "device-array"  # an array cuPyNumeric will distribute (incl. 0-d results)
    HOST = "host-array"  # an array of the host alias beside cupynumeric
    CUPY = "cupy-array"  # a CuPy array: another runtime
    SEQ = "array-sequence"  # a Python tuple/list of arrays (np.nonzero, np.split)
    GENERATOR = "random-generator"  # np.random.default_rng(...)
    SCALAR = "python-scalar"  # a Python number literal or arithmetic on them
    NOT = "not-array"  # list, dict, set, str, range, module, function, ...
    UNKNOWN = "unknown"

    @property
    def is_array(self) -> bool:
        return self in (Kind.DEVICE, Kind.HOST, Kind.CUPY)


NEUTRAL = frozenset({Kind.SCALAR, Kind.UNKNOWN})


def join(kinds: list[Kind]) -> Kind:
    """Combine the kinds of every binding that may reach a use.

    Numbers and unknowns are neutral (``err = 1.0`` before ``err = np.max(..)``
    is the accumulator idiom); anything certainly not an array wins, so a name
    that is sometimes a list stays quiet.
    """
    informative = {k for k in kinds if k not in NEUTRAL}
    if not informative:
        if Kind.SCALAR in kinds and Kind.UNKNOWN not in kinds:
            return Kind.SCALAR
        return Kind.UNKNOWN
    if Kind.NOT in informative:
        return Kind.NOT
    if len(informative) == 1:
        return next(iter(informative))
    return Kind.UNKNOWN


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
        "testing.assert_array_almost_equal", "testing.assert_",
        "linalg.LinAlgError", "load",
    }
)

# numpy-namespace callables returning a tuple or list of arrays.
SEQUENCE_FUNCTIONS = frozenset(
    {
        "nonzero", "meshgrid", "split", "array_split", "hsplit", "vsplit",
        "dsplit", "histogram", "histogram2d", "histogramdd", "gradient",
        "broadcast_arrays", "atleast_1d", "atleast_2d", "atleast_3d",
        "unravel_index", "diag_indices", "diag_indices_from", "tril_indices",
        "tril_indices_from", "triu_indices", "triu_indices_from", "indices",
        "linalg.eig", "linalg.eigh", "linalg.svd", "linalg.qr", "linalg.slogdet",
        "linalg.lstsq", "modf", "frexp", "divmod", "unique_all",
        "unique_counts", "unique_inverse", "ogrid",
    }
)

# numpy-namespace callables whose first argument is a shape, a size, a
# number, a file or a function: passing a parameter there does not show that
# the parameter is an array.
NOT_ARRAY_FIRST_ARGUMENT = frozenset(
    {
        "zeros", "ones", "empty", "full", "identity", "eye", "tri", "indices",
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
CONVERSION_FUNCTIONS = frozenset(
    {
        "array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray",
        "asarray_chkfinite", "require", "atleast_1d", "atleast_2d", "atleast_3d",
    }
)

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

# numpy.random callables that do take an array first (the others take sizes).
ARRAY_RANDOM_FUNCTIONS = frozenset({"random.shuffle", "random.permuted"})

GENERATOR_FUNCTIONS = frozenset({"random.default_rng", "random.RandomState", "random.Generator"})

# numpy scalar types: calling them makes a scalar, not an array.
SCALAR_TYPES = frozenset(
    {
        "float16", "float32", "float64", "float128", "longdouble", "double",
        "single", "half", "int8", "int16", "int32", "int64", "intp", "uint",
        "uint8", "uint16", "uint32", "uint64", "uintp", "int_", "intc", "bool_",
        "bool", "complex64", "complex128", "cdouble", "csingle", "short",
        "ushort", "long", "ulong", "longlong", "ulonglong", "byte", "ubyte",
        "str_", "bytes_", "object_", "void", "generic", "number", "integer",
        "floating", "complexfloating", "datetime64", "timedelta64",
    }
)

# numpy-namespace constants and index helpers (attributes, not arrays).
NON_ARRAY_ATTRIBUTES = frozenset(
    {"pi", "e", "inf", "nan", "newaxis", "euler_gamma", "NINF", "PINF", "NaN", "Inf", "s_", "index_exp"}
)

# numpy objects that build arrays through subscripting: np.r_[0:10:2].
INDEX_BUILDERS = frozenset({"r_", "c_", "mgrid", "ogrid", "s_", "index_exp"})

# ndarray attributes that are metadata, not array data.
ARRAY_METADATA = frozenset(
    {"shape", "ndim", "size", "dtype", "nbytes", "itemsize", "strides", "flags", "ctypes", "data", "base", "__array_interface__"}
)
ARRAY_VALUE_ATTRIBUTES = frozenset({"T", "mT", "real", "imag", "flat"})

# ndarray methods whose result is not an array.
NON_ARRAY_METHODS = frozenset({"item", "tolist", "tobytes", "tostring", "fill", "sort", "resize", "dump", "dumps", "tofile", "setflags", "put", "itemset", "__len__", "__bool__", "__float__", "__int__", "keys", "values", "items"})
SEQUENCE_METHODS = frozenset({"nonzero"})

# Generator (np.random.default_rng) methods that draw arrays.
GENERATOR_DRAWS = frozenset(
    {
        "random", "integers", "normal", "standard_normal", "uniform", "choice",
        "permutation", "permuted", "exponential", "poisson", "binomial",
        "gamma", "beta", "lognormal", "laplace", "multivariate_normal",
        "standard_exponential", "standard_gamma", "standard_t", "chisquare",
        "rand", "randn", "randint", "random_sample", "geometric", "weibull",
        "rayleigh", "triangular", "vonmises", "wald", "zipf", "logistic",
        "gumbel", "pareto", "power", "shuffle",
    }
)

ARRAY_ANNOTATIONS = frozenset({"ndarray", "NDArray"})
NOT_ARRAY_ANNOTATIONS = frozenset({"int", "float", "str", "bool", "complex", "list", "dict", "set", "tuple", "bytes", "List", "Dict", "Set", "Tuple", "Sequence", "Mapping", "Iterable", "Callable"})

# Builtins whose result is certainly not an array.
NON_ARRAY_BUILTINS = frozenset(
    {
        "list", "dict", "set", "frozenset", "tuple", "str", "repr", "bytes",
        "range", "len", "int", "float", "bool", "complex", "sorted",
        "enumerate", "zip", "map", "filter", "reversed", "iter", "open",
        "print", "isinstance", "issubclass", "hasattr", "getattr", "id",
        "hash", "type", "format", "ord", "chr", "input", "vars",
        "dir", "callable", "any", "all", "object",
    }
)
