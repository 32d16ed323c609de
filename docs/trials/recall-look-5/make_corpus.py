"""Rebuild the recall-look-5 trial corpus (a test split only) from the fetched mirrors.

Reads every ``sources-<style>.json`` beside this file and, for every program,
takes the file at the recorded commit and path out of the mirror under
/work/.mirror (``fetch`` each repository first), writes it to
``<target>/<set>/<program>.py`` (or ``.ipynb``), copies the labels to
``<target>/labels/`` and checks every file against its recorded sha256.
Every repository here belongs to the test split; there is no dev half.
Exits non-zero when a file is missing or differs.

    python3 make_corpus.py [TARGET_DIR]

Score it with ``python -m benchmarks.trial TARGET_DIR --by-style``.
"""
import argparse
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent
MIRROR = Path("/work/.mirror")
DEFAULT_TARGET = Path("/work/trials/recall-test-5")


def gitdir(repo: str) -> Path:
    # fetch leaves either a bare repository at .../repo or a clone with .../repo/.git
    folder = MIRROR / repo.replace("/", "+") / "repo"
    return folder / ".git" if (folder / ".git").is_dir() else folder


def show(repo: str, commit: str, path: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(gitdir(repo)), "show", f"{commit}:{path}"],
                          check=True, capture_output=True).stdout


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("target", nargs="?", type=Path, default=DEFAULT_TARGET)
    ns = parser.parse_args()
    (ns.target / "labels").mkdir(parents=True, exist_ok=True)
    written = bad = 0
    for sources in sorted(ROOT.glob("sources-*.json")):
        for rec in json.loads(sources.read_text(encoding="utf-8"))["files"]:
            try:
                data = show(rec["repo"], rec["commit"], rec["path"])
            except subprocess.CalledProcessError:
                bad += 1
                print(f"MISSING {rec['program']} ({rec['repo']}: fetch it first)")
                continue
            suffix = ".ipynb" if rec["path"].endswith(".ipynb") else ".py"
            folder = ns.target / rec["set"]
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{rec['program']}{suffix}").write_bytes(data)
            shutil.copy(ROOT / "labels" / f"{rec['program']}.json", ns.target / "labels" / f"{rec['program']}.json")
            written += 1
            if hashlib.sha256(data).hexdigest() != rec["sha256"]:
                bad += 1
                print(f"MISMATCH {rec['program']}")
    print(f"{written} programs written to {ns.target}, {bad} missing or mismatched")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
