"""Rebuild the recall-look-9 trial corpus (a test split only) from the fetched mirrors.

Every repository here belongs to the test split; there is no dev half. See
../recall_corpus.py for what is written and checked.

    python3 make_corpus.py [TARGET_DIR]

Score it with ``python -m benchmarks.trial TARGET_DIR --by-style``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from recall_corpus import rebuild  # noqa: E402

if __name__ == "__main__":
    sys.exit(rebuild(Path(__file__).parent, Path("/work/trials/recall-test-9")))
