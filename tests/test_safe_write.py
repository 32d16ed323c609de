"""cpn_lint.safe_write: what may be replaced, and replacing it in one step."""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

import pytest

from cpn_lint import safe_write
from cpn_lint.safe_write import BASELINE, MANIFEST, REPORT, WriteRefused, atomic_write, check_target

BASELINE_TEXT = json.dumps({"schema": "cpn-lint/baseline", "schema_version": 1, "findings": []})


@pytest.mark.parametrize("name", ["model.py", "stub.pyi", "explore.ipynb", "kernel.pyx"])
def test_sources_are_never_a_target(tmp_path: Path, name: str) -> None:
    for kind in (BASELINE, REPORT, MANIFEST):
        with pytest.raises(WriteRefused, match="never written over it"):
            check_target(tmp_path / name, kind)  # even when it does not exist yet


def test_folders_missing_parents_and_other_kinds_are_refused(tmp_path: Path) -> None:
    with pytest.raises(WriteRefused, match="is a directory"):
        check_target(tmp_path, REPORT)
    with pytest.raises(WriteRefused, match="does not exist"):
        check_target(tmp_path / "nowhere" / "report.md", REPORT)
    notes = tmp_path / "notes.md"
    notes.write_text("# My notes\n")
    with pytest.raises(WriteRefused, match="is not a cpn-lint report"):
        check_target(notes, REPORT)
    base = tmp_path / "base.json"
    base.write_text(BASELINE_TEXT)
    with pytest.raises(WriteRefused, match="is not a cpn-lint manifest"):
        check_target(base, MANIFEST)
    assert check_target(base, BASELINE) == base


@pytest.mark.parametrize("text", [
    "# cuPyNumeric migration readiness: READY\n",
    "<!DOCTYPE html>\n<html><head><title>cuPyNumeric migration readiness: READY</title>",
    json.dumps({"schema": "cpn-lint/verdict-report", "verdict": "READY"}),
    json.dumps({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "cpn-lint"}}}]}),
    "",
])
def test_earlier_reports_and_empty_files_may_be_replaced(tmp_path: Path, text: str) -> None:
    report = tmp_path / "report.out"
    report.write_text(text)
    assert check_target(report, REPORT) == report


def test_another_tools_sarif_is_not_a_report(tmp_path: Path) -> None:
    other = tmp_path / "other.sarif"
    other.write_text(json.dumps({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "ruff"}}}]}))
    with pytest.raises(WriteRefused):
        check_target(other, REPORT)


def test_a_symbolic_link_is_followed_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text(BASELINE_TEXT)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    target = check_target(link, BASELINE)
    atomic_write(link, b'{"schema": "cpn-lint/baseline"}\n')
    assert target == real and link.is_symlink() and real.read_bytes() == b'{"schema": "cpn-lint/baseline"}\n'
    source = tmp_path / "a.py"
    source.write_text("x = 1\n")
    sneaky = tmp_path / "sneaky.json"
    sneaky.symlink_to(source)
    with pytest.raises(WriteRefused, match="Python source"):
        check_target(sneaky, BASELINE)


def test_replacing_keeps_the_permission_bits(tmp_path: Path) -> None:
    script = tmp_path / "run.py"
    script.write_bytes(b"print(1)\n")
    script.chmod(0o751)
    atomic_write(script, b"print(2)\n", expect=b"print(1)\n")
    assert stat.S_IMODE(script.stat().st_mode) == 0o751 and script.read_bytes() == b"print(2)\n"
    assert [p.name for p in tmp_path.iterdir()] == ["run.py"]  # no temporary file left


def test_a_file_changed_since_it_was_read_is_left_alone(tmp_path: Path) -> None:
    source = tmp_path / "a.py"
    source.write_bytes(b"edited by the user\n")
    with pytest.raises(WriteRefused, match="changed on disk"):
        atomic_write(source, b"fixed\n", expect=b"what cpn-lint read\n")
    assert source.read_bytes() == b"edited by the user\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.py"]


@pytest.mark.parametrize("failing, error", [
    ("write", errno.ENOSPC), ("fsync", errno.EIO), ("replace", errno.EACCES), ("chmod", errno.EPERM),
])
def test_a_failed_step_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             failing: str, error: int) -> None:
    target = tmp_path / "base.json"
    target.write_text(BASELINE_TEXT)

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError(error, os.strerror(error))

    monkeypatch.setattr(safe_write.os, failing, broken)
    with pytest.raises(WriteRefused, match="cannot write"):
        atomic_write(target, b"{}")
    monkeypatch.undo()
    assert target.read_text() == BASELINE_TEXT and [p.name for p in tmp_path.iterdir()] == ["base.json"]


def test_full_disk_and_read_only_folder_say_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(safe_write.os, "write", full)
    with pytest.raises(WriteRefused, match="no space left"):
        atomic_write(tmp_path / "r.md", b"# report")
    monkeypatch.undo()

    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(safe_write.tempfile, "mkstemp", read_only)
    with pytest.raises(WriteRefused, match="permission denied"):
        atomic_write(tmp_path / "r.md", b"# report")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_real_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "base.json").write_text(BASELINE_TEXT)
    folder.chmod(0o555)
    try:
        with pytest.raises(WriteRefused, match="permission denied"):
            atomic_write(folder / "base.json", b"{}")
        assert (folder / "base.json").read_text() == BASELINE_TEXT
    finally:
        folder.chmod(0o755)
