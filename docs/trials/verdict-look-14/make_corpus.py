"""Rebuild the verdict-look-14 trial corpus from the fetched mirrors (see ../look_corpus.py).

    python3 make_corpus.py [TARGET_DIR]     # default /work/trials/verdict-look-14
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from look_corpus import rebuild  # noqa: E402

if __name__ == "__main__":
    sys.exit(rebuild(Path(__file__).resolve().parent, Path("/work/trials/verdict-look-14"), sys.argv[1:]))
