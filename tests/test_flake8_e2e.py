"""Real flake8 in a subprocess: selection, noqa, jobs, options."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import run_flake8

pytestmark = pytest.mark.e2e

LOOP = """import numpy as np

a = np.arange(100.0)
for i in range(len(a)):
    a[i] = a[i] * 2.0 + 1.0
f = np.vectorize(abs)
"""


def _codes(out: str) -> list[tuple[int, str]]:
    found = []
    for line in out.splitlines():
        parts = line.split(":", 3)
        if len(parts) == 4:
            found.append((int(parts[1]), parts[3].split()[0]))
    return found


def test_select_cpn_reports_codes(write) -> None:
    path = write("prog.py", LOOP)
    result = run_flake8("--select", "CPN", str(path))
    assert _codes(result.stdout) == [(4, "CPN101"), (6, "CPN102")], result.stdout + result.stderr
    assert "prog.py:4:1: CPN101 " in result.stdout


def test_plain_run_shows_cpn_codes_by_default(write) -> None:
    path = write("prog.py", LOOP)
    result = run_flake8(str(path))
    assert ("4", "CPN101") in {(str(line), code) for line, code in _codes(result.stdout)}


def test_noqa_on_reported_line_silences_only_that_code(write) -> None:
    path = write("prog.py", LOOP.replace("for i in range(len(a)):", "for i in range(len(a)):  # noqa: CPN101"))
    result = run_flake8("--select", "CPN", str(path))
    assert _codes(result.stdout) == [(6, "CPN102")]


def test_prefix_noqa_and_extend_ignore(write) -> None:
    path = write("prog.py", LOOP.replace("f = np.vectorize(abs)", "f = np.vectorize(abs)  # noqa: CPN1"))
    assert _codes(run_flake8("--select", "CPN", str(path)).stdout) == [(4, "CPN101")]
    path2 = write("prog2.py", LOOP)
    assert _codes(run_flake8("--select", "CPN", "--extend-ignore", "CPN101", str(path2)).stdout) == [(6, "CPN102")]


def test_parallel_jobs_match_serial(write, tmp_path: Path) -> None:
    for i in range(6):
        write(f"pkg/m{i}.py", LOOP)
    serial = run_flake8("--select", "CPN", "-j1", str(tmp_path / "pkg"))
    parallel = run_flake8("--select", "CPN", "-j2", str(tmp_path / "pkg"))
    assert serial.returncode == parallel.returncode == 1
    assert sorted(serial.stdout.splitlines()) == sorted(parallel.stdout.splitlines())
    assert len(serial.stdout.splitlines()) == 12


def test_files_without_numpy_are_quiet(write) -> None:
    path = write("plain.py", "items = [1, 2]\nfor i in range(len(items)):\n    items[i] = items[i] * 2\n")
    result = run_flake8("--select", "CPN", str(path))
    assert result.stdout == "" and result.returncode == 0


def test_version_lists_the_plugin() -> None:
    result = run_flake8("--version")
    assert "cpn-lint" in result.stdout


def test_cpn_manifest_option_names_the_manifest(write, tmp_path: Path) -> None:
    """--cpn-manifest (or cpn-manifest = PATH in the config) replaces the default manifest."""
    import datetime as dt

    from cpn_lint.manifest import ApiSupport, Manifest, Status

    path = write("prog.py", "import numpy as np\ny = np.interp(0.5, np.ones(2), np.ones(2))\n")
    assert _codes(run_flake8("--select", "CPN401", str(path)).stdout) == [(2, "CPN401")]
    custom = Manifest(snapshot_date=dt.date(2030, 1, 1), cupynumeric_version="99.0", numpy_version=None,
                      entries={"numpy.interp": ApiSupport("numpy.interp", Status.MULTI_GPU)})
    manifest = tmp_path / "custom-manifest.json"
    manifest.write_text(custom.to_json(), encoding="utf-8")
    result = run_flake8("--select", "CPN401", "--cpn-manifest", str(manifest), str(path))
    assert result.returncode == 0 and result.stdout == "", result.stdout + result.stderr
    broken = run_flake8("--select", "CPN401", "--cpn-manifest", str(tmp_path / "nope.json"), str(path))
    assert broken.returncode != 0 and "--cpn-manifest" in broken.stderr + broken.stdout
