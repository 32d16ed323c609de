"""The trial tools' --json/--floors writer: it refuses a wrong target and
never leaves a half-written file (benchmarks/results_file.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.results_file import write_results


def test_a_new_file_and_an_earlier_results_file_are_written(tmp_path: Path) -> None:
    target = tmp_path / "results.json"
    write_results(target, json.dumps({"run": 1}))
    write_results(target, json.dumps({"run": 2}))
    assert json.loads(target.read_text()) == {"run": 2}
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]  # no temporary file left behind


@pytest.mark.parametrize("name, content", [("prog.py", "print('mine')\n"), ("notes.txt", "my notes\n")])
def test_a_file_the_user_wrote_is_refused_and_kept(tmp_path: Path, name: str, content: str) -> None:
    target = tmp_path / name
    target.write_text(content)
    with pytest.raises(SystemExit, match=name):
        write_results(target, "{}")
    assert target.read_text() == content


def test_a_folder_or_a_missing_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="directory"):
        write_results(tmp_path, "{}")
    with pytest.raises(SystemExit, match="does not exist"):
        write_results(tmp_path / "absent" / "results.json", "{}")
