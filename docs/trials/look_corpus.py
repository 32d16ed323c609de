"""Rebuild a verdict trial corpus (cost-look, verdict-look, ...) from the fetched mirrors.

Each look's ``make_corpus.py`` calls :func:`rebuild` with its own folder: for
every program in that folder's sources.json it takes the file at the recorded
commit and path out of the bare mirror under /work/.mirror, writes it as
<program>.py or <program>.ipynb into the target folder, and checks it against
the recorded sha256 and line count. Exits non-zero if any file differs.
"""
import hashlib
import json
import subprocess
from pathlib import Path

MIRROR = Path("/work/.mirror")


def gitdir(repo: str) -> Path:
    # fetch leaves either a bare repo at .../repo or a clone with .../repo/.git
    d = MIRROR / repo.replace("/", "+") / "repo"
    return d / ".git" if (d / ".git").is_dir() else d


def git(repo: str, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(gitdir(repo)), *args],
                          check=True, capture_output=True).stdout


def rebuild(look: Path, default_target: Path, argv: list[str]) -> int:
    target = Path(argv[0]) if argv else default_target
    target.mkdir(parents=True, exist_ok=True)
    sources = json.loads((look / "sources.json").read_text())
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
