"""``cpn-lint noqa``: today's findings marked where flake8 reads the mark,
codes merged, nothing else in the file changed, a second run a no-op."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from cpn_lint.noqa import main, marked
from cpn_lint.verdict.suppress import noqa_ranges, noqa_text

from .conftest import run_flake8

LOOP = textwrap.dedent(
    """\
    import numpy as np


    def smooth(u):
        out = np.zeros_like(u)
        for i in range(1, u.shape[0] - 1):
            out[i] = 0.5 * (u[i - 1] + u[i + 1])
        return out
    """
)


def test_a_finding_gets_its_code_on_its_line() -> None:
    text, added, lines = marked(LOOP, [(6, "CPN101")])
    assert (added, lines) == (1, 1)
    assert text.splitlines()[5].endswith("range(1, u.shape[0] - 1):  # noqa: CPN101")


def test_codes_merge_into_an_existing_noqa_and_a_bare_noqa_is_left_alone() -> None:
    source = "a = 1  # noqa: E501\nb = 2  # noqa\nc = 3  # keep this comment\n"
    text, added, _ = marked(source, [(1, "CPN104"), (2, "CPN104"), (3, "CPN110")])
    assert text == "a = 1  # noqa: CPN104,E501\nb = 2  # noqa\nc = 3  # keep this comment  # noqa: CPN110\n"
    assert added == 2


def test_a_finding_inside_a_multiline_string_is_marked_where_the_string_ends() -> None:
    source = 'x = f("""\nline\n""")\ny = 2\n'
    text, _, _ = marked(source, [(2, "CPN101")])
    assert text == 'x = f("""\nline\n""")  # noqa: CPN101\ny = 2\n'
    lines = text.splitlines(keepends=True)
    assert "noqa" in noqa_text(lines, 1, noqa_ranges(lines))  # flake8 reads it for every line of the string


def test_the_command_round_trip_with_flake8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "relax.py"
    target.write_bytes(LOOP.replace("\n", "\r\n").encode())
    assert run_flake8("--select", "CPN", str(target)).stdout.count("CPN101") == 1
    assert main([str(tmp_path)]) == 0
    assert "Added noqa for 1 finding(s) in 1 file(s)." in capsys.readouterr().out
    assert b"\r\n" in target.read_bytes() and b"\n" not in target.read_bytes().replace(b"\r\n", b"")
    assert run_flake8("--select", "CPN", str(target)).stdout == ""
    before = target.read_bytes()
    assert main([str(tmp_path)]) == 0
    assert target.read_bytes() == before  # nothing left to mark
    target.write_bytes(before + b"def again(v):\r\n    for k in range(v.shape[0]):\r\n        v[k] = v[k] * 2.0\r\n")
    assert run_flake8("--select", "CPN", str(target)).stdout.count("CPN101") == 1  # only the new one


def test_the_file_encoding_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "latin.py"
    target.write_bytes(b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + LOOP.encode())
    assert main([str(target)]) == 0
    data = target.read_bytes()
    assert b"caf\xe9" in data and b"# noqa: CPN101" in data


def test_a_file_that_does_not_parse_is_reported_and_left_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    good = tmp_path / "good.py"
    good.write_text(LOOP)
    assert main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "broken.py: does not parse" in err and err.count("\n") == 1
    assert broken.read_text() == "def f(:\n" and "# noqa: CPN101" in good.read_text()


def test_select_narrows_the_codes(tmp_path: Path) -> None:
    target = tmp_path / "m.py"
    target.write_text(LOOP + "total = sum(np.ones(3))\n")
    assert main(["--select", "CPN110", str(target)]) == 0
    text = target.read_text()
    assert "# noqa: CPN110" in text and "CPN101" not in text
