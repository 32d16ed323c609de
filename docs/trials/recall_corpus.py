"""Rebuild a recall-look trial corpus (labelled per line) from the fetched mirrors.

Each ``recall-look-N/make_corpus.py`` calls :func:`rebuild` with its own folder
and default target. For every program of every ``sources-<style>.json`` beside
it, the file at the recorded commit and path is taken out of the mirror under
/work/.mirror (``fetch`` each repository first), written to
``<target>/<set>/<program>.py`` (or ``.ipynb``) with its labels copied to
``<target>/labels/``, and checked against its recorded sha256. Exits non-zero
when a file is missing or differs. Score the corpus with
``python -m benchmarks.trial TARGET_DIR --by-style``.
"""
import argparse
import hashlib
import json
import shutil
import subprocess
from pathlib import Path

MIRROR = Path("/work/.mirror")


def gitdir(repo: str) -> Path:
    # fetch leaves either a bare repository at .../repo or a clone with .../repo/.git
    folder = MIRROR / repo.replace("/", "+") / "repo"
    return folder / ".git" if (folder / ".git").is_dir() else folder


def show(repo: str, commit: str, path: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(gitdir(repo)), "show", f"{commit}:{path}"],
                          check=True, capture_output=True).stdout


def rebuild(root: Path, default_target: Path) -> int:
    """Write the corpus ``root`` describes; 0 when every file matches."""
    parser = argparse.ArgumentParser()
    parser.add_argument("target", nargs="?", type=Path, default=default_target)
    ns = parser.parse_args()
    (ns.target / "labels").mkdir(parents=True, exist_ok=True)
    written = bad = 0
    for sources in sorted(root.glob("sources-*.json")):
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
            shutil.copy(root / "labels" / f"{rec['program']}.json", ns.target / "labels" / f"{rec['program']}.json")
            written += 1
            if hashlib.sha256(data).hexdigest() != rec["sha256"]:
                bad += 1
                print(f"MISMATCH {rec['program']}")
    print(f"{written} programs written to {ns.target}, {bad} missing or mismatched")
    return 1 if bad else 0
