"""CPN107: an object-dtype array (``dtype=object``, ``.astype(object)``)."""

from __future__ import annotations

import ast
import re
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, Kind
from ..model.imports import DEVICE_ROOTS
from ..model.syntax import call_argument
from ..registry import Category, Invalid, Rule, Valid

# Text every object-dtype spelling contains (substring tests are far cheaper
# than a regular expression over the whole file); the model decides the rest.
_PRECHECK_WORDS = ("object", "O'", 'O"', "O4", "O8")
_OBJECT_STRING = re.compile(r"^[|=]?(O[48]?|object)$")

# Device-numpy functions whose dtype may be passed positionally, and where.
_POSITIONAL_DTYPE = {
    "array": 1, "asarray": 1, "asanyarray": 1, "ascontiguousarray": 1,
    "asfortranarray": 1, "zeros": 1, "ones": 1, "empty": 1, "full": 2,
    "zeros_like": 1, "ones_like": 1, "empty_like": 1, "full_like": 2,
    "fromiter": 1, "frombuffer": 1, "identity": 1, "ndarray": 1,
}  # fmt: skip


class ObjectDtype(Rule):
    """
    ## What it does
    Reports a request for an object-dtype array made through NumPy (or
    cuPyNumeric): `dtype=object`, `dtype="O"`, `dtype="object"`,
    `dtype=np.object_` or `dtype=np.dtype(object)` on a NumPy call or on a
    method of a NumPy array, the same spellings passed positionally where the
    function takes its dtype positionally (`np.empty(n, object)`), and
    `arr.astype(object)`. Reported at the `dtype` keyword or at the argument.

    ## Why it does not scale on cuPyNumeric
    An object array holds pointers to Python objects, and only the Python
    interpreter can work on those. cuPyNumeric arrays hold numbers: an object
    array cannot be split across GPUs or handed to a GPU kernel: cuPyNumeric
    26.6.1 refuses every object-dtype array it is asked to make with
    `TypeError: cuPyNumeric does not support dtype=object` (checked under the
    runtime oracle, `tests/test_oracle_object_dtype.py`), so the ported
    program stops there; the report lists it under "What breaks first".

    ## Example
    ```python
    import numpy as np

    records = np.array([("a", 1.5), ("bb", 2.0, 7)], dtype=object)
    labels = np.empty(n, dtype=object)
    ```

    ## Use instead
    Give the data a numeric representation (recipe RR-numeric): one numeric
    array per field instead of an array of records; categories as integer
    codes plus a Python list of names; ragged rows as one flat array plus an
    offsets array; variable-length strings padded to a fixed width.
    ```python
    lengths = np.array([len(r) for r in rows])
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    flat = np.array([v for r in rows for v in r], dtype=np.float64)
    ```

    ## Known false alarms
    * Object arrays built with the host alias (`onp` beside
      `import cupynumeric as np`) and `dtype=object` on other libraries'
      calls (`pd.Series(..., dtype=object)`) are not reported.
    * Comparisons such as `a.dtype == object` and `np.issubdtype(t,
      np.object_)` only inspect a dtype and are not reported.
    * Object arrays NumPy creates implicitly (ragged nested lists) and
      structured dtypes with an object field are not detected.
    """

    code = "CPN107"
    slug = "object-dtype"
    category = Category.BLOCKS
    recipe = "RR-numeric"
    summary = "Object-dtype NumPy array"
    message = (
        "{call} makes an object-dtype array ({form}); cuPyNumeric arrays hold only numbers, so this "
        "stays on the host or fails: restructure the data into numeric arrays (RR-numeric)"
    )
    short = "{call} makes an object-dtype array: use numeric arrays (RR-numeric)"

    valid = (
        Valid("""
            import numpy as np
            a = np.array([1, 2, 3], dtype=np.float64)
            b = np.zeros(4, 'f8')
            c = a.astype(int)
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            labels = onp.empty(4, dtype=object)
            boxed = onp.asarray([1, 'a'], dtype='O')
            """),
        Valid("""
            import numpy as np
            import pandas as pd
            s = pd.Series(['a', 'b'], dtype=object)
            t = s.astype(object)
            """),
        Valid(
            """
            import numpy as np
            def is_boxed(a):
                return a.dtype == object or np.issubdtype(a.dtype, np.object_)
            kind = np.dtype('O')
            """
        ),
        Valid("""
            import numpy as np
            class Cell(object):
                pass
            x = isinstance(3, object)
            """),
        Valid("""
            import numpy as np
            object = float
            a = np.zeros(3, dtype=object)
            """),
    )
    invalid = (
        Invalid("""
            import numpy as np
            rows = np.array([[1], [2, 3]], dtype=object)
            """, line=2, contains="dtype=object"),
        Invalid("""
            import numpy as np
            labels = np.empty(5, dtype='O')
            """, line=2, contains="'O'"),
        Invalid("""
            import numpy as np
            a = np.arange(4)
            boxed = a.astype(object)
            """, line=3, contains="a.astype"),
        Invalid("""
            import cupynumeric as cpn
            buf = cpn.full(3, None, dtype=cpn.object_)
            """, line=2),
        Invalid("""
            import numpy as np
            slots = np.empty(8, object)
            """, line=2),
        Invalid("""
            from numpy import zeros, dtype
            cells = zeros(4, dtype=dtype('object'))
            """, line=2),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy() or not any(w in model.source for w in _PRECHECK_WORDS):
            return
        reported: set[tuple[int, int]] = set()
        for request in _object_dtype_requests(model):
            site = call_argument(request, model.parent(request), "dtype", ast.expr)
            if site is None:
                continue
            node, call, value = site
            position = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
            if position in reported or not _takes_dtype_here(model, call, node):
                continue
            form = _object_form(model, value)
            if form is None:
                continue
            reported.add(position)
            yield self.finding(
                node,
                in_loop=model.in_loop(node),
                call=model.segment(call.func, 40) + "(...)",
                form=f"dtype={form}" if isinstance(node, ast.keyword) else form,
            )


def _object_dtype_requests(model: FileModel) -> list[ast.AST]:
    """The ``dtype=`` keywords and positional arguments by which a device call
    asks for the object dtype."""
    index = model.nodes_by_type()
    found: list[ast.AST] = []
    for keyword in index.get(ast.keyword, ()):
        if keyword.arg == "dtype":  # type: ignore[attr-defined]
            call = model.parent(keyword)
            if isinstance(call, ast.Call) and _object_form(model, keyword.value) and _takes_dtype_here(model, call, keyword):  # type: ignore[attr-defined]
                found.append(keyword)
    for call in index.get(ast.Call, ()):
        for argument in call.args:  # type: ignore[attr-defined]
            if _looks_like_object(argument) and _object_form(model, argument) and _takes_dtype_here(model, call, argument):  # type: ignore[arg-type]
                found.append(argument)
    return found


def _looks_like_object(value: ast.expr) -> bool:
    """The spellings of the object dtype (``object``, ``np.object_``, ``'O'``,
    ``np.dtype(...)``), tested before the model is asked what they name."""
    if isinstance(value, ast.Name):
        return value.id in ("object", "object_")
    if isinstance(value, ast.Attribute):
        return value.attr == "object_"
    if isinstance(value, ast.Constant):
        return isinstance(value.value, str) and _OBJECT_STRING.match(value.value) is not None
    if isinstance(value, ast.Call):
        func = value.func
        return (isinstance(func, ast.Name) and func.id == "dtype") or (isinstance(func, ast.Attribute) and func.attr == "dtype")
    return False


def _takes_dtype_here(model: FileModel, call: ast.Call, node: ast.AST) -> bool:
    """Is ``node`` the dtype of a device-numpy call or of a device array's method?"""
    func = call.func
    api = model.call_api(call)
    if api is not None:
        if isinstance(node, ast.keyword):
            return api != "dtype"
        position = _POSITIONAL_DTYPE.get(api)
        return position is not None and position < len(call.args) and call.args[position] is node
    if isinstance(func, ast.Attribute) and model.kind(func.value) is Kind.DEVICE:
        if isinstance(node, ast.keyword):
            return True
        return func.attr == "astype" and bool(call.args) and call.args[0] is node
    return False


def _object_form(model: FileModel, value: ast.expr) -> str | None:
    """How ``value`` spells the object dtype (for the message), or None."""
    if isinstance(value, ast.Name) and value.id == "object":
        return "object" if model.lookup(value) is None else None
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return repr(value.value) if _OBJECT_STRING.match(value.value) else None
    if isinstance(value, (ast.Name, ast.Attribute)):
        qualname = model.qualname(value) or ""
        root, _, tail = qualname.partition(".")
        return model.segment(value, 30) if root in DEVICE_ROOTS and tail == "object_" else None
    if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
        qualname = model.qualname(value.func) or ""
        root, _, tail = qualname.partition(".")
        if root in DEVICE_ROOTS and tail == "dtype" and _object_form(model, value.args[0]) is not None:
            return model.segment(value, 30)
    return None
