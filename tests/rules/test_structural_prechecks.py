"""Files without candidates never pay for an ast-grep parse."""

from __future__ import annotations

import pytest

from cpn_lint.engine import LintOptions, analyze_source


# ------------------------------------------------------------------ pre-checks
@pytest.mark.parametrize(
    "source",
    [
        "import numpy as np\na = np.zeros(3, dtype=np.float32)\nb = a.reshape(3, 1)\n",
        '"""Docs::\n\n    example\n"""\nimport numpy as np\na = np.ones(2)[1:]\n',
    ],
)
def test_files_without_candidates_never_parse_with_ast_grep(source: str) -> None:
    options = LintOptions(assessment=True, codes=frozenset({"CPN106", "CPN107", "CPN109"}))
    result = analyze_source(source, "<test>", options, keep_model=True)
    assert result.model is not None
    assert "structural" not in result.model.__dict__
