"""model.hostsync: device values, scalar math and modulo checks (CPN103-CPN105 rely on them)."""

from __future__ import annotations

import ast
import textwrap

from cpn_lint import lint_source
from cpn_lint.model import FileModel, IterKind, Kind
from cpn_lint.model.hostsync import scalar_math_origin, hot_loop, is_device_value, is_modulo_check

SYNC_CODES = ("CPN103", "CPN104", "CPN105")


def _findings(source: str, *codes: str) -> list:
    wanted = codes or SYNC_CODES
    return [f for f in lint_source(textwrap.dedent(source), assessment=True) if f.code in wanted]


def _model(source: str) -> FileModel:
    text = textwrap.dedent(source)
    return FileModel(ast.parse(text), text)


# ----------------------------------------------------------------- model facts
def test_augmented_assignment_keeps_the_array_kind() -> None:
    model = _model(
        """
        import numpy as np
        wave = np.linspace(0, 1, 8)
        count = 0
        for step in range(5):
            wave *= 0.99
            count += 1
            use = wave
            n = count
        """
    )
    kinds = {n.id: model.kind(n) for n in model.nodes(ast.Name) if isinstance(n.ctx, ast.Load) and n.id in ("wave", "count")}
    assert kinds["wave"] is Kind.DEVICE
    assert not kinds["count"].is_array


def test_enumerate_of_zip_over_arrays_is_an_array_loop() -> None:
    model = _model(
        """
        import numpy as np
        a = np.ones(3)
        b = np.ones(3)
        for i, (x, y) in enumerate(zip(a, b)):
            pass
        for i, (x, y) in enumerate(zip([1], [2])):
            pass
        """
    )
    first, second = model.loops
    assert first.iter_kind is IterKind.ARRAY and first.index_vars == frozenset({"i"})
    assert second.iter_kind is IterKind.OTHER


def test_hostsync_helpers() -> None:
    model = _model(
        """
        import numpy as np
        a = np.ones(3)
        for step in range(10):
            for axis in range(3):
                t = (np.sum(a), np.isnan(step * 1.0), a.shape[0], step % 5 == 0, step % 5 != 0)
        """
    )
    (tuple_node,) = model.nodes(ast.Tuple)
    reduction, scalar_math, metadata, every_fifth, most = tuple_node.elts
    assert is_device_value(model, reduction) and scalar_math_origin(model, reduction) is None
    assert is_device_value(model, scalar_math) and scalar_math_origin(model, scalar_math) is scalar_math
    assert not is_device_value(model, metadata)
    assert is_modulo_check(model, every_fifth)
    assert not is_modulo_check(model, most)
    outer, inner = model.loops
    assert hot_loop(inner) is outer


def test_nested_numpy_math_on_python_numbers_is_traced_through_names() -> None:
    source = """
        import numpy as np
        def trust(gamma2, ratios):
            gamma3 = np.maximum(1, np.minimum(0.75 * gamma2, 1.5))
            for k, r in enumerate(ratios):
                if r <= gamma3 * 2.0:
                    continue
                print(int(np.floor(r / gamma2)))
        """
    branch, conversion = _findings(source)
    assert (branch.code, branch.line) == ("CPN105", 6)
    assert "'gamma3' is a 0-d device array (np.minimum(), line 4): one float() outside the loop fixes it" in branch.message
    assert (conversion.code, conversion.line) == ("CPN104", 8)
    assert "np.floor() of Python numbers is a 0-d device array: use the math module" in conversion.message


def test_predicates_and_broadcast_objects_are_not_arrays() -> None:
    model = _model(
        """
        import numpy as np
        def f(arg, shift, axis):
            ok = np.iterable(arg)
            b = np.broadcast(shift, axis)
            return ok, b
        """
    )
    (result,) = model.nodes(ast.Tuple)
    assert [model.kind(e) for e in result.elts] == [Kind.NOT, Kind.NOT]
