"""Literal shapes the model reads from the code (what Gate 2 and the SCALES pass cite)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from cpn_lint.model import FileModel
from cpn_lint.model.shapes import broadcast


# -------------------------------------------------------------- literal shapes
def _shape(source: str):
    text = textwrap.dedent(source)
    tree = ast.parse(text)
    model = FileModel(tree, text)
    probe = tree.body[-1]
    assert isinstance(probe, ast.Assign)
    return model.literal_shape(probe.value)


@pytest.mark.parametrize(
    ("body", "shape"),
    [
        ("x = np.zeros((3, 4))", (3, 4)),
        ("x = np.random.rand(5, 6)", (5, 6)),
        ("x = np.eye(7)", (7, 7)),
        ("x = np.zeros((3, 4)).T", (4, 3)),
        ("x = np.ones((2, 3, 4)) * 2.0 + np.ones(4)", (2, 3, 4)),
        ("x = np.ones(12).reshape(3, 4)", (3, 4)),
        ("x = np.random.default_rng(0).standard_normal((8, 2))", (8, 2)),
        ("N = 16\nx = np.zeros((N, N))", (16, 16)),
        ("x = np.zeros((3, 4)) + np.zeros((5, 4))", None),  # does not broadcast
        ("x = np.zeros(n)", None),
        ("x = np.zeros(3)\nx = np.zeros(4)", (4,)),  # the binding that reaches
        ("x = np.linspace(0.0, 1.0, 11)", (11,)),
        ("x = np.linspace(0.0, 1.0)", (50,)),
        ("x = np.arange(2, 11, 3)", (3,)),
        ("x = np.arange(10)", (10,)),
        ("x = np.zeros((3, 4)) @ np.zeros((4, 5))", (3, 5)),
        ("x = np.logspace(0, 1, 1000)", (1000,)),
        ("x = np.random.binomial(10, 0.5, 1000)", (1000,)),
        ("x = np.random.exponential(1.0, 1000)", (1000,)),
        ("x = np.sum(np.ones((3, 4)), axis=0)", (4,)),
        ("x = np.sum(np.ones((3, 4)))", ()),
    ],
)
def test_literal_shapes(body: str, shape) -> None:
    source = "import numpy as np\nn = input()\n" + body + "\nprobe = x\n"
    assert _shape(source) == shape


def test_broadcast() -> None:
    assert broadcast((8, 1, 3), (4, 3)) == (8, 4, 3)
    assert broadcast((2, 3), (3, 2)) is None
