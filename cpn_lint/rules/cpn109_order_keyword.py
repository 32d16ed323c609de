"""CPN109: an ``order=`` memory-layout request on a device-numpy call or array method.

What cuPyNumeric 26.6.1 does with the keyword (run under the oracle:
tests/data/oracle/order_keyword.py): the constructors and converters
``asarray``, ``zeros``, ``ones``, ``empty``, ``full``, their ``*_like``
forms, ``eye`` and ``np.copy`` take no ``order=`` at all and raise TypeError,
whatever the value (``'C'`` and ``None`` too); a reshape (and so
``ravel``/``flatten``, which reshape) with an order other than ``'C'`` or
``'A'`` copies the array through host NumPy with a warning; ``'A'`` is
treated as ``'C'``; the other calls (``np.array``, array methods, ufuncs)
accept ``order=`` and ignore it. There, ``order='C'`` is the default and what
cuPyNumeric does anyway, and ``order=None`` asks for nothing, so neither is
reported.
"""

from __future__ import annotations

import ast
from typing import Iterator

from ..findings import Finding
from ..model import FileModel, Kind
from ..model.syntax import call_argument
from ..registry import Category, Invalid, Rule, Valid

# `order=` as a keyword (after `(` or `,`), or a one-letter layout argument.
# Text every reportable file contains (substring tests are far cheaper than a
# regular expression over the whole file); the model decides the rest.
_PRECHECK_WORDS = ("order", *(q + letter + q for letter in "FAKfak" for q in "'\""))
# `order=` here names structured-array fields to sort by, not a memory layout.
_FIELD_ORDER = frozenset({"sort", "argsort", "partition", "argpartition"})
# Index arithmetic that supports both orders on the distributed path.
_INDEX_ORDER = frozenset({"unravel_index", "ravel_multi_index"})
# NumPy functions whose cuPyNumeric counterparts take no order= at all: any
# order= raises TypeError (tests/data/oracle/order_keyword.py).
REJECTS_ORDER = frozenset({"asarray", "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like",
                           "full_like", "eye", "copy"})
# Calls that reshape: a non-C order falls back to host NumPy.
_RESHAPES = frozenset({"reshape", "ravel", "flatten"})
# Where the order may be passed positionally: device-numpy functions, and
# methods of a device array.
_POSITIONAL_ORDER = {
    "reshape": 2, "ravel": 1, "copy": 1, "asarray": 2, "asanyarray": 2,
    "array": 3, "zeros": 2, "ones": 2, "empty": 2, "full": 3,
    "zeros_like": 2, "ones_like": 2, "empty_like": 2, "full_like": 3,
}  # fmt: skip
_POSITIONAL_ORDER_METHODS = {"ravel": 0, "flatten": 0, "copy": 0, "tobytes": 0, "astype": 1}


class OrderKeyword(Rule):
    """
    ## What it does
    Reports the `order=` keyword — `'F'`, `'A'`, `'K'` or a value not written
    as a literal — on a NumPy call (`np.asarray(x, order="F")`,
    `np.reshape(a, s, order="F")`, `np.zeros(s, order="F")`, ufuncs) or on a
    method of a NumPy array (`a.reshape(m, n, order="F")`,
    `a.flatten(order="F")`, `a.copy(order="F")`, `a.astype(t, order="F")`).
    Reported at the keyword. A literal layout passed by position where the
    call takes its order positionally (`a.flatten("F")`, `a.ravel("K")`,
    `np.reshape(a, s, "F")`) is reported at that argument.

    `np.asarray`, `np.zeros`, `np.ones`, `np.empty`, `np.full`, their
    `*_like` forms, `np.eye` and `np.copy` take no `order=` on cuPyNumeric
    26.6.1: any `order=` there, `"C"` and `None` included, raises TypeError,
    and `cpn-verdict` lists it in What breaks first. Elsewhere `order="C"`
    is not reported: it is the default and the only layout cuPyNumeric
    uses, so it asks for nothing new, and `order=None` is not a request
    either. Where cuPyNumeric accepts the keyword and ignores it
    (`np.array`, array methods, ufuncs), the finding asks only to drop a
    keyword with no effect: `cpn-verdict` lists it as a compatibility note,
    not as a blocking idiom.

    ## Why it does not scale on cuPyNumeric
    A distributed array has no single buffer, so "Fortran order" has no
    meaning for it. cuPyNumeric handles the keyword call by call: its
    constructors and converters refuse it (TypeError); a reshape,
    `ravel` or `flatten` in Fortran or memory order copies the data through
    host NumPy with a warning, on every call; `order="A"` is read as `"C"`,
    which changes the element order for inputs NumPy would have seen as
    Fortran-contiguous; the other calls accept the keyword and ignore it, so
    code that relies on the layout (a C or Fortran extension, a raw-bytes
    view) silently gets something else.

    ## Example
    ```python
    import numpy as np

    a = np.asarray(data, order="F")
    cols = a.reshape((m, n), order="F")
    flat = cols.flatten(order="F")
    ```

    ## Use instead
    Drop `order=` on the distributed path; where a column-major element order
    is what the algorithm needs, say it with a transpose
    (`a.T.reshape(-1)` instead of `a.reshape(-1, order="F")`). When an
    extension needs a Fortran buffer, convert once at the host boundary
    (recipe RR-order):
    ```python
    import numpy as onp

    host = onp.asfortranarray(onp.asarray(a))
    fortran_solver(host)
    ```

    ## Known false alarms
    * A wrapper that forwards its own `order` argument to a call that
      accepts it (`np.array(x, order=order)`) is reported even when every
      caller passes `"C"`; drop the parameter or add `# noqa: CPN109`.
    * `order=` on the host alias (`onp.asarray(x, order="F")` beside
      `import cupynumeric as np`), on other libraries (`pd.DataFrame`,
      `sorted`), the structured-field `order=` of `np.sort`, `np.argsort`,
      `np.partition` and `np.argpartition`, and the index arithmetic of
      `np.unravel_index`/`np.ravel_multi_index` are not reported. A method
      call on a value the model cannot show to be an array stays quiet.
    """

    code = "CPN109"
    slug = "order-keyword"
    category = Category.BLOCKS
    recipe = "RR-order"
    summary = "Memory-layout order= on a NumPy call or array method"
    message = "order={value} on {call} {effect}; drop order= and convert layout at a host boundary (RR-order)"
    short = "order={value} on {call}: drop order= (RR-order)"

    valid = (
        Valid("""
            import numpy as np
            a = np.arange(6)
            b = a.reshape((2, 3), order='C')
            c = np.array(a, order=None)
            d = a.ravel()
            """),
        Valid(
            """
            import cupynumeric as np
            import numpy as onp
            host = onp.asarray([[1.0, 2.0]], order='F')
            fort = onp.asfortranarray(host)
            flat = host.flatten(order='F')
            """
        ),
        Valid(
            """
            import numpy as np
            import pandas as pd
            df = pd.DataFrame({'a': [2, 1]})
            x = df.sort_values('a')
            names = sorted(['b', 'a'])
            y = pd.Categorical(['a'], ordered=True)
            """
        ),
        Valid(
            """
            import numpy as np
            rec = np.array([(1, 2.0)], dtype=[('x', int), ('y', float)])
            s = np.sort(rec, order='y')
            i = np.argsort(rec, order=['x', 'y'])
            rec.sort(order='x')
            p = np.partition(rec, 0, order='y')
            """
        ),
        Valid("""
            import numpy as np
            idx = np.unravel_index(np.arange(4), (2, 2), order='F')
            flat = np.ravel_multi_index(idx, (2, 2), order='F')
            """),
        Valid("""
            import numpy as np
            def view(x, order):
                return x.astype(float, order=order)
            """),
    )
    invalid = (
        Invalid("""
            import numpy as np
            data = [[1.0, 2.0], [3.0, 4.0]]
            a = np.asarray(data, order='F')
            """, line=3, contains="raises TypeError"),
        Invalid("""
            import numpy as np
            z = np.zeros((3, 3), order='C')
            """, line=2, contains="raises TypeError"),
        Invalid("""
            import numpy as np
            a = np.array([[1.0, 2.0], [3.0, 4.0]], order='F')
            """, line=2, contains="ignored"),
        Invalid("""
            import numpy as np
            a = np.arange(6.0)
            b = a.reshape((2, 3), order='F')
            """, line=3, contains="host NumPy"),
        Invalid("""
            import numpy as np
            m = np.ones((3, 4))
            flat = m.flatten(order='F')
            """, line=3, contains="m.flatten"),
        Invalid("""
            import cupynumeric as np
            z = np.zeros((4, 4), order='F')
            """, line=2),
        Invalid("""
            import numpy as np
            a = np.ones((2, 2))
            v = np.ravel(a, order='K')
            """, line=3),
        Invalid("""
            import numpy as np
            m = np.ones((3, 4))
            cols = m.ravel('F')
            """, line=3, contains="order='F'"),
        Invalid("""
            import numpy as np
            def as_matrix(x, order='C'):
                return np.asarray(x, order=order)
            """, line=3, contains="raises TypeError"),
        Invalid("""
            import numpy as np
            def as_matrix(x, order='C'):
                return np.array(x, order=order)
            """, line=3, contains="not known"),
        Invalid("""
            import numpy as np
            def view(x, order):
                return x.reshape(-1, order=order)
            """, line=3, contains="not known"),
        # a slice of a parameter nothing else shows to be an array
        Invalid("""
            import numpy as np
            def unpack(flat, n, m):
                return flat[:n * m].reshape((n, m), order="F")
            """, line=3, contains="order=\"F\""),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        if not model.uses_numpy() or not any(w in model.source for w in _PRECHECK_WORDS):
            return
        for request in _layout_requests(model):
            site = call_argument(request, model.parent(request), "order", ast.Constant)
            if site is None:
                continue
            node, call, value = site
            name = _layout_call(model, call, node)
            if name is None:
                continue
            rejected = name in REJECTS_ORDER and model.call_api(call) == name  # np.zeros(...), not a.copy(...)
            order = _requested_order(value)
            if order in ("C", None) and not rejected:
                continue
            data = {"effect": "raises", "error": "TypeError"} if rejected else {"effect": _runtime_effect(name, order)}
            yield self.finding(
                node,
                in_loop=model.in_loop(node),
                value=model.segment(value, 20),
                call=model.segment(call.func, 40) + "(...)",
                effect=_REJECTED if rejected else _effect(name, order),
                data=data,
            )


def _layout_requests(model: FileModel) -> list[ast.AST]:
    """``order=`` keywords and one-letter layout strings that a device call
    takes as a memory layout. Most files that mention ``order=`` pass it to
    their own or SciPy's functions."""
    index = model.nodes_by_type()
    found: list[ast.AST] = []
    for keyword in index.get(ast.keyword, ()):
        if keyword.arg == "order":  # type: ignore[attr-defined]
            call = model.parent(keyword)
            if isinstance(call, ast.Call) and _layout_call(model, call, keyword) is not None:
                found.append(keyword)
    for constant in index.get(ast.Constant, ()):
        value = constant.value  # type: ignore[attr-defined]
        if isinstance(value, str) and len(value) == 1 and value in "FAKfak":
            call = model.parent(constant)
            if isinstance(call, ast.Call) and _layout_call(model, call, constant) is not None:
                found.append(constant)
    return found


def _layout_call(model: FileModel, call: ast.Call, node: ast.AST) -> str | None:
    """The API or method name when ``node`` is a memory-layout order of ``call``."""
    api = model.call_api(call)
    func = call.func
    if api is not None:
        name = api.rpartition(".")[2]
        positions = _POSITIONAL_ORDER if "." not in api else {}
    elif isinstance(func, ast.Attribute) and model.kind(func.value) is Kind.DEVICE:
        name = func.attr
        positions = _POSITIONAL_ORDER_METHODS
    elif isinstance(func, ast.Attribute) and func.attr in _RESHAPES and isinstance(node, ast.keyword) \
            and model.kind(func.value) is Kind.UNKNOWN:
        # ``flat[a:b].reshape(shape, order="F")``: a layout keyword on a
        # reshape is NumPy's array method signature, whatever the receiver
        # is known as (lists and tuples have no such method)
        return func.attr
    else:
        return None
    if name in _FIELD_ORDER or name in _INDEX_ORDER:
        return None
    if isinstance(node, ast.keyword):
        return name
    position = positions.get(name)
    return name if position is not None and position < len(call.args) and call.args[position] is node else None


def _requested_order(value: ast.expr) -> str | None:
    """``"F"``/``"A"``/``"K"``/``"C"`` for a literal, None for ``None``, ``"?"`` otherwise."""
    if isinstance(value, ast.Constant):
        if value.value is None:
            return None
        if isinstance(value.value, str):
            return value.value.upper()
    return "?"


def _runtime_effect(name: str, order: str) -> str:
    """What cuPyNumeric does with the request, in one word: ``ignored`` (a
    keyword with no effect on the device: the verdict reads the finding as a
    note, not a blocking idiom), ``host-copy``, ``reordered`` or ``unknown``."""
    if order == "?":
        return "unknown"
    if name in _RESHAPES:
        return "reordered" if order == "A" else "host-copy"
    return "ignored"


_REJECTED = "raises TypeError on cuPyNumeric, which takes no order= there"


def _effect(name: str, order: str) -> str:
    if order == "?":
        return "is not known to be 'C'; any other layout is ignored or sent through host NumPy by cuPyNumeric"
    if name in _RESHAPES:
        if order == "A":
            return "is read as 'C' by cuPyNumeric, which reorders elements NumPy would read in Fortran order"
        return "makes cuPyNumeric copy the array through host NumPy on every call"
    return "is ignored by cuPyNumeric: a distributed array has no C or Fortran memory layout"
