"""``cpn-lint fix``: writing in place, ``--diff``, exit statuses, bad input,
notebooks, encodings, and the console script."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cpn_lint.fix import command

REBIND = "import numpy as np\nx = np.zeros(100)\ny = np.ones(100)\nfor _ in range(1000):\n    x = x + y\n"
REBIND_FIXED = "import numpy as np\nx = np.zeros(100)\ny = np.ones(100)\nfor _ in range(1000):\n    x += y\n"
ELEMENT_LOOP = "import numpy as np\na = np.arange(10.0)\nfor i in range(len(a)):\n    a[i] = a[i] * 2.0\n"
CLEAN = "import numpy as np\na = np.ones(10)\nb = a * 2.0\n"


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = command.main(list(args), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_fixes_in_place_and_says_what_it_changed(write) -> None:
    path = write("sim.py", REBIND)
    status, out, _ = run(str(path))
    assert path.read_text() == REBIND_FIXED
    assert f"{path}:5: CPN202 fixed: x = x + y -> x += y" in out
    assert "Fixed 1 finding in 1 file; 0 left." in out
    assert status == 0


def test_findings_left_are_listed_with_a_reason_and_exit_1(write) -> None:
    path = write("loop.py", ELEMENT_LOOP)
    status, out, _ = run(str(path))
    assert status == 1
    assert path.read_text() == ELEMENT_LOOP
    assert f"{path}:3:1: CPN101 left: no automatic fix (RR-loop:" in out


def test_nothing_to_fix_exits_0(write) -> None:
    path = write("clean.py", CLEAN)
    assert run(str(path))[0] == 0
    assert run("--diff", str(path)) == (0, "", "Would fix 0 findings in 0 files; 0 left.\n")


def test_diff_changes_nothing_and_exits_1(write) -> None:
    path = write("sim.py", REBIND)
    status, out, err = run("--diff", str(path))
    assert status == 1
    assert path.read_text() == REBIND
    assert out.startswith(f"--- {path}\n+++ {path}\n")
    assert "-    x = x + y\n+    x += y\n" in out
    assert "Would fix 1 finding in 1 file; 0 left." in err


def test_diff_applies_as_a_patch(write, tmp_path: Path) -> None:
    path = write("sim.py", REBIND)
    _, out, _ = run("--diff", str(path))
    patched = subprocess.run(["patch", "-p0", "--dry-run", "-s"], input=out, text=True, capture_output=True, cwd="/")
    if patched.returncode == 127:  # pragma: no cover - no patch(1) here
        pytest.skip("patch is not installed")
    assert patched.returncode == 0, patched.stderr


def test_select_limits_fixes_and_report(write) -> None:
    path = write("both.py", REBIND + "total = sum(x)\n")
    status, out, _ = run("--select", "CPN110", str(path))
    text = path.read_text()
    assert "x = x + y" in text and "total = np.sum(x)" in text
    assert "CPN202" not in out
    assert status == 0


def test_select_prefix_and_unknown_code(write) -> None:
    path = write("sim.py", REBIND)
    assert run("--select", "cpn2", str(path))[0] == 0
    status, _, err = run("--select", "CPN9", str(path))
    assert status == 2 and "no rule code starts with 'CPN9'" in err


def test_bad_inputs_get_one_message_and_the_rest_is_still_fixed(write, tmp_path: Path) -> None:
    good = write("good.py", REBIND)
    broken = write("broken.py", "import numpy as np\ndef f(:\n")
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"import numpy as np\ns = '\xe9'\n")
    status, out, err = run(str(broken), str(latin), str(tmp_path / "missing.py"), str(good))
    assert status == 2
    assert good.read_text() == REBIND_FIXED
    assert err.count("broken.py: does not parse: invalid syntax (line 2); left unchanged") == 1
    assert "latin.py: not valid UTF-8 (byte 24); left unchanged" in err
    assert "missing.py: no such file or directory" in err
    assert "CPN202 fixed" in out


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs file permissions that bind the user")
def test_unreadable_file_is_reported(write) -> None:
    path = write("locked.py", REBIND)
    path.chmod(0)
    try:
        status, _, err = run(str(path))
    finally:
        path.chmod(0o644)
    assert status == 2 and "locked.py: cannot be read" in err


def test_only_named_files_and_files_under_named_folders_change(write, tmp_path: Path) -> None:
    inside = write("pkg/a.py", REBIND)
    named = write("b.py", REBIND)
    other = write("c.py", REBIND)
    run(str(tmp_path / "pkg"), str(named))
    assert inside.read_text() == REBIND_FIXED and named.read_text() == REBIND_FIXED
    assert other.read_text() == REBIND


def test_encoding_bom_and_line_endings_are_kept(tmp_path: Path) -> None:
    crlf = tmp_path / "crlf.py"
    crlf.write_bytes(b"\xef\xbb\xbf" + REBIND.replace("\n", "\r\n").encode())
    cookie = tmp_path / "cookie.py"
    cookie.write_bytes(b"# -*- coding: latin-1 -*-\n" + REBIND.encode() + b"label = '\xe9'\n")
    run(str(crlf), str(cookie))
    assert crlf.read_bytes() == b"\xef\xbb\xbf" + REBIND_FIXED.replace("\n", "\r\n").encode()
    assert cookie.read_bytes() == b"# -*- coding: latin-1 -*-\n" + REBIND_FIXED.encode() + b"label = '\xe9'\n"


def test_statement_moves_keep_crlf(tmp_path: Path) -> None:
    source = ("import numpy as np\nu = np.zeros(8)\nfor t in range(10):\n    un = u.copy()\n"
              "    u[1:] = un[:-1]\n").replace("\n", "\r\n")
    path = tmp_path / "move.py"
    path.write_bytes(source.encode())
    run(str(path))
    assert path.read_bytes().decode() == ("import numpy as np\nu = np.zeros(8)\nun = np.empty_like(u)\nfor t in range(10):\n"
                                          "    np.copyto(un, u)\n    u[1:] = un[:-1]\n").replace("\n", "\r\n")


NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# A notebook\n", "with prose\n"]},
        {"cell_type": "code", "execution_count": 1, "metadata": {"tags": ["setup"]}, "outputs": [],
         "source": ["%matplotlib inline\n", "import numpy as np\n", "x = np.zeros(100)\n", "y = np.ones(100)"]},
        {"cell_type": "code", "execution_count": 2, "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout", "text": ["hi\n"]}],
         "source": ["%%time\n", "for _ in range(1000):\n", "    x = x + y\n", "    !echo step\n", "total = sum(x)\n"]},
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": "def broken(:\n"},
    ],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def test_notebook_code_cells_are_fixed_and_the_json_kept(tmp_path: Path) -> None:
    path = tmp_path / "nb.ipynb"
    original = json.dumps(NOTEBOOK, indent=1, ensure_ascii=False) + "\n"
    path.write_text(original)
    status, out, _ = run(str(path))
    fixed = json.loads(path.read_text())
    assert fixed["cells"][2]["source"] == [
        "%%time\n", "for _ in range(1000):\n", "    x += y\n", "    !echo step\n", "total = np.sum(x)\n"]
    expected = json.loads(original)
    expected["cells"][2]["source"] = fixed["cells"][2]["source"]
    assert fixed == expected
    assert path.read_text() == json.dumps(expected, indent=1, ensure_ascii=False) + "\n"
    assert f"{path}:cell 3:line 3: CPN202 fixed" in out
    assert f"{path}:cell 3:line 5: CPN110 fixed" in out
    assert status == 0


def test_notebook_diff_is_per_cell(tmp_path: Path) -> None:
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(NOTEBOOK, indent=1))
    status, out, _ = run("--diff", str(path))
    assert status == 1
    assert f"--- {path}:cell 3\n+++ {path}:cell 3\n" in out
    assert json.loads(path.read_text()) == NOTEBOOK


def test_not_a_notebook_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "nb.ipynb"
    path.write_text("{not json")
    status, _, err = run(str(path))
    assert status == 2 and "nb.ipynb: not valid JSON" in err


@pytest.mark.e2e
def test_console_script_and_module_entry(tmp_path: Path) -> None:
    path = tmp_path / "sim.py"
    path.write_text(REBIND)
    script = Path(sys.executable).parent / "cpn-lint"
    argv = [str(script)] if script.exists() else [sys.executable, "-m", "cpn_lint"]
    diff = subprocess.run([*argv, "fix", "--diff", str(path)], capture_output=True, text=True, timeout=300)
    assert diff.returncode == 1 and "+    x += y" in diff.stdout
    fixed = subprocess.run([sys.executable, "-m", "cpn_lint", "fix", str(path)], capture_output=True, text=True, timeout=300)
    assert fixed.returncode == 0 and path.read_text() == REBIND_FIXED
    usage = subprocess.run([*argv, "fix"], capture_output=True, text=True, timeout=300)
    assert usage.returncode == 2


MIXED = REBIND + "a = np.arange(10.0)\nfor i in range(len(a)):\n    a[i] = a[i] * 2.0\n"


def test_diff_ends_with_a_summary_and_quiet_prints_only_the_diff(write) -> None:
    path = write("mixed.py", MIXED)
    status, out, err = run("--diff", str(path))
    assert status == 1 and "+    x += y\n" in out
    left, summary = err.splitlines()
    assert left.startswith(f"{path}:7:1: CPN101 left: no automatic fix")
    assert summary == "Would fix 1 finding in 1 file; 1 left (CPN101; reasons above)."
    assert run("--diff", "-q", str(path)) == (1, out, "")
    quiet = run("--quiet", str(path))
    assert quiet == (1, "", "") and "x += y" in path.read_text()  # fixed, nothing said
    _, again, _ = run(str(path))
    assert again.splitlines()[-1] == "Fixed 0 findings in 0 files; 1 left (CPN101; reasons above)."
