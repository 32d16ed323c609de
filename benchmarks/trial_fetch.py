"""Check a trial corpus folder against the sources recorded for a labelled look.

A look kept in the repository (``docs/trials/<look>/``) holds the labels and a
``sources.json`` naming, for every program, the public repository, commit and
path it was copied from and the sha256 of the copied file. The programs
themselves stay outside the repository. This command fetches nothing: it
checks that ``DEST/<set>/<program>.py`` is byte-for-byte the recorded file,
lists what is missing with where to get it, and (``--install-labels``) copies
the labels into ``DEST/labels/`` so ``python -m benchmarks.trial DEST --set
<set>`` can score it::

    python -m benchmarks.trial_fetch docs/trials/kernels-look DEST [--install-labels]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path


def check(look: Path, dest: Path) -> tuple[list[str], list[str], list[str]]:
    """Return (matching, differing, missing) program names."""
    sources = json.loads((look / "sources.json").read_text(encoding="utf-8"))
    folder = dest / sources["set"]
    matching: list[str] = []
    differing: list[str] = []
    missing: list[str] = []
    for entry in sources["files"]:
        program = folder / f"{entry['program']}.py"
        if not program.is_file():
            missing.append(f"{entry['program']}: {entry['repo']}@{entry['commit']}:{entry['path']}")
        elif hashlib.sha256(program.read_bytes()).hexdigest() != entry["sha256"]:
            differing.append(entry["program"])
        else:
            matching.append(entry["program"])
    return matching, differing, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.trial_fetch", description=__doc__.splitlines()[0])
    parser.add_argument("look", type=Path, help="folder with sources.json and labels/")
    parser.add_argument("dest", type=Path, help="corpus folder holding <set>/<program>.py")
    parser.add_argument("--install-labels", action="store_true", help="copy the look's labels into DEST/labels/")
    ns = parser.parse_args(argv)
    matching, differing, missing = check(ns.look, ns.dest)
    for name in differing:
        print(f"DIFFERS {name}")
    for line in missing:
        print(f"MISSING {line}")
    print(f"{len(matching)} match, {len(differing)} differ, {len(missing)} missing", file=sys.stderr)
    if ns.install_labels:
        target = ns.dest / "labels"
        target.mkdir(parents=True, exist_ok=True)
        for label in sorted((ns.look / "labels").glob("*.json")):
            shutil.copyfile(label, target / label.name)
    return 0 if not (differing or missing) else 1


if __name__ == "__main__":
    raise SystemExit(main())
