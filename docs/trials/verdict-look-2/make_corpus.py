"""Rebuild the verdict-look-2 trial corpus from the fetched mirrors.

Reads sources.json (beside this file) and, for every program, takes the file
at the recorded commit and path out of the bare mirror under /work/.mirror,
writes it as <program>.py or <program>.ipynb into the target folder (default
/work/trials/verdict-look-2), and checks it against the recorded sha256 and line
count.  Exits non-zero if any file is missing or differs.

    python3 make_corpus.py [TARGET_DIR]
"""
import hashlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent
MIRROR = Path("/work/.mirror")
DEFAULT_TARGET = Path("/work/trials/verdict-look-2")


def gitdir(repo: str) -> Path:
    # fetch leaves either a bare repo at .../repo or a clone with .../repo/.git
    d = MIRROR / repo.replace("/", "+") / "repo"
    return d / ".git" if (d / ".git").is_dir() else d


def git(repo: str, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(gitdir(repo)), *args],
                          check=True, capture_output=True).stdout


def main() -> int:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_TARGET
    target.mkdir(parents=True, exist_ok=True)
    sources = json.loads((ROOT / "sources.json").read_text())
    bad = 0
    for rec in sources["files"]:
        data = git(rec["repo"], "show", f"{rec['commit']}:{rec['path']}")
        suffix = ".ipynb" if rec["path"].endswith(".ipynb") else ".py"
        (target / f"{rec['program']}{suffix}").write_bytes(data)
        digest = hashlib.sha256(data).hexdigest()
        lines = data.count(b"\n") + 1
        if digest != rec["sha256"] or lines != rec["lines"]:
            bad += 1
            print(f"MISMATCH {rec['program']}: sha256 {digest} lines {lines}")
    print(f"{len(sources['files'])} programs written to {target}, {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
