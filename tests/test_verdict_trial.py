"""benchmarks.verdict_trial: scores cpn-verdict against labels written before it ran."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from benchmarks import verdict_trial

WHOLE_ARRAY = """
    import numpy as np
    u = np.zeros((512, 512))
    for step in range(100):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
"""
FILTER = """
    import numpy as np
    def smooth(x, alpha):
        y = np.empty_like(x)
        y[0] = x[0]
        for n in range(1, x.shape[0]):
            y[n] = alpha * x[n] + (1 - alpha) * y[n - 1]
        return y
"""


def test_outcomes_count_agreement_with_the_label_and_with_the_spec_verdict(tmp_path: Path) -> None:
    (tmp_path / "stencil.py").write_text(textwrap.dedent(WHOLE_ARRAY))
    (tmp_path / "iir.py").write_text(textwrap.dedent(FILTER))
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps({"programs": {
        # the expert said LIGHT, the contract says READY: agreement is counted both ways
        "stencil": {"verdict": "LIGHT REFACTOR", "also_acceptable": ["READY"], "spec_verdict": "READY"},
        "iir": {"verdict": "NOT RECOMMENDED", "sequential_core": True},
    }}))
    outcomes = verdict_trial.run(tmp_path, labels)
    facts = verdict_trial.summary(outcomes)
    got = {o.program: o.verdict for o in outcomes}
    assert got == {"stencil": "READY", "iir": "NOT RECOMMENDED"}
    assert facts["agree"] == 1 and facts["agree_or_acceptable"] == 2 and facts["agree_with_spec_verdict"] == 2
    assert facts["sequential_called_ready_or_light"] == []
