"""Properties of ``cpn-lint fix`` on generated programs: the fixed file
parses, fixing it again changes nothing, and every finding that was not
fixed is still reported."""

from __future__ import annotations

import ast
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpn_lint import lint_source
from cpn_lint.fix.command import selected_codes
from cpn_lint.fix.planner import fix_text

CODES = selected_codes(None)

# Snippets, fixable and not, each with a slot {k} for names of its own.
SNIPPETS = (
    "x{k} = np.zeros({n})\nfor _ in range(100):\n    x{k} = x{k} {op} 0.5\n",
    "x{k} = np.linspace(0.0, 1.0, {n})\nfor _ in range(100):\n    x{k} = np.mod(x{k}, 0.3)\n",
    "i{k} = np.arange({n})\nfor _ in range(100):\n    i{k} = i{k} + 0.5\n",
    "e{k} = np.abs(np.linspace(-1.0, 1.0, {n}))\nt{k} = {reduce}(e{k})\n",
    "a{k} = np.linspace(-1.0, 1.0, {n})\na{k}[np.nonzero(a{k} < 0.1)] = 0.0\n",
    "a{k} = np.linspace(-1.0, 1.0, {n})\nidx{k} = np.nonzero(a{k} < 0.1)\na{k}[idx{k}] = 0.0\n",
    "u{k} = np.ones({n})\nfor t in range(100):\n    w{k} = u{k}.copy()\n    u{k}[1:] = w{k}[:-1]\n",
    "u{k} = np.ones({n})\nkeep{k} = []\nfor t in range(100):\n    w{k} = np.zeros({n})\n    w{k}[:] = u{k}\n    keep{k}.append(w{k})\n",
    "acc{k} = np.zeros(0)\nfor i in range(100):\n    acc{k} = np.append(acc{k}, i * 1.0)\n",
    "acc{k} = np.zeros(0)\nfor i in range(100):\n    acc{k} = np.append(acc{k}, i * 1.0)\n    print(acc{k}.size)\n",
    "b{k} = np.ones({n})\nfor i in range(len(b{k})):\n    b{k}[i] = b{k}[i] * 2.0\n",
    "r{k} = np.ones({n})\nfor s in range(100):\n    r{k} = r{k} * 0.5 + sum(r{k})\n    if float(np.max(r{k})) < 1e-9:\n        break\n",
)


@st.composite
def programs(draw: st.DrawFn) -> str:
    chosen = draw(st.lists(st.sampled_from(SNIPPETS), min_size=1, max_size=5))
    body: list[str] = []
    for k, snippet in enumerate(chosen):
        text = snippet.format(
            k=k,
            n=draw(st.sampled_from([8, 64, 1000])),
            op=draw(st.sampled_from(["+", "-", "*", "/"])),
            reduce=draw(st.sampled_from(["sum", "min", "max", "any", "all"])),
        )
        if draw(st.booleans()):  # inside a function
            text = f"def f{k}():\n" + "".join(f"    {line}\n" for line in text.splitlines()) + f"    return 0\n"
        body.append(text)
    return "import numpy as np\n" + "".join(body)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_fix_parses_is_idempotent_and_keeps_other_findings(source: str) -> None:
    result = fix_text(source, "<generated>", CODES)
    assert result.error is None
    ast.parse(result.fixed)
    again = fix_text(result.fixed, "<generated>", CODES)
    assert again.fixed == result.fixed and not again.applied
    before = Counter(f.code for f in lint_source(source, codes=CODES))
    after = Counter(f.code for f in lint_source(result.fixed, codes=CODES))
    unfixed = before - Counter(a.code for a in result.applied)
    assert not (unfixed - after), f"findings lost: {unfixed - after}\n{result.fixed}"
