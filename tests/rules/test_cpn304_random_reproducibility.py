"""CPN304 (random-reproducibility) beyond its examples and fixtures: positions, messages, quiet cases."""

from __future__ import annotations

import ast

from cpn_lint.model import FileModel, Kind
from .assessment_support import SCALES, assessment_at, assessment_findings


# ---------------------------------------------------------------------- random
def test_random_numbers_are_one_note_per_stream() -> None:
    source = """
        import numpy as np
        np.random.seed(1)
        a = np.random.rand(8)
        rng = np.random.default_rng(7)
        for k in range(4):
            b = rng.normal(0.0, 1.0, 8) + np.random.randn(8)
        c = rng.integers(0, 10, 8)
    """
    found = assessment_findings(source, {"CPN304"})
    assert [(f.line, f.data["stream"], f.data["calls"], f.in_loop) for f in found] == [
        (3, "module", 3, True),
        (5, "generator", 3, True),
    ]
    assert found[0].data["apis"] == ["np.random.seed", "np.random.rand", "np.random.randn"]
    assert found[1].data["seeds"] == ["7"] and found[1].data["lines"] == [5, 7, 8]
    assert "seed 7" in found[1].message


def test_draws_from_a_host_alias_generator_are_not_device_arrays() -> None:
    text = "import cupynumeric as np\nimport numpy as onp\nh = onp.random.default_rng(0).normal(size=8)\nd = np.random.default_rng(0).normal(size=8)\n"
    tree = ast.parse(text)
    model = FileModel(tree, text)
    host, device = (stmt.value for stmt in tree.body[2:])  # type: ignore[attr-defined]
    assert model.kind(host) is not Kind.DEVICE
    assert model.kind(device) is Kind.DEVICE
    assert assessment_at(text.replace("normal(size=8)", "normal(size=8) * 2.0"), SCALES) == [(4, "CPN001")]


def test_host_alias_generators_are_exempt() -> None:
    source = """
        import cupynumeric as np
        import numpy as onp
        rng = onp.random.default_rng(0)
        x = rng.normal(size=8)
        y = onp.random.rand(8)
    """
    assert assessment_at(source, {"CPN304"}) == []
