"""``python -m tests.acceptance``: the acceptance score card, every case."""

from __future__ import annotations

import sys

from .suite import assess, load_cases, score_card, suite_missing


def main() -> int:
    missing = suite_missing()
    if missing:
        print(missing, file=sys.stderr)
        return 2
    outcomes = [assess(case) for case in load_cases()]
    print(score_card(outcomes))
    return 0 if all(not (o.mismatches or o.pending or o.stale) for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
