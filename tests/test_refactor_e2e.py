"""CPN201–CPN206 through real flake8 in a subprocess: selection, ignore,
noqa, positions, the cpn-json formatter, and the rule fixtures line by line."""

from __future__ import annotations

import json

import pytest

from cpn_lint.registry import HEADLINE_LIMIT

from .conftest import FIXTURES, expected_findings, run_flake8

pytestmark = pytest.mark.e2e

REFACTOR_CODES = ("CPN201", "CPN202", "CPN203", "CPN204", "CPN205", "CPN206")

# One finding of each code, at a known line and column.
PROGRAM = """import numpy as np


def run(u, steps):
    u = np.asarray(u, dtype=float)
    x = np.zeros(8)
    table = np.zeros((1, 8))
    m = np.zeros((8, 8))
    for step in range(steps):
        un = u.copy()
        x = x + un
        table = np.vstack([table, x])
        grid = m.reshape(4, 16)
    idx = np.nonzero(u < 0)
    u[idx] = 0.0
    d = np.diag(m)
    d[0] = 5.0
    return u, x, table, grid, m
"""
EXPECTED = [
    (10, 14, "CPN201"),
    (11, 9, "CPN202"),
    (12, 17, "CPN203"),
    (13, 16, "CPN206"),
    (14, 11, "CPN204"),
    (16, 9, "CPN205"),
]

# The traps: every one of these is the recipe already applied, or not the idiom.
QUIET = """import numpy as np


def double_buffer(arr, coef, steps):
    arr = np.asarray(arr, dtype=float)
    temp = np.zeros_like(arr)
    for step in range(steps):
        np.multiply(arr, coef, out=temp)
        arr, temp = temp, arr
    return arr


def in_place(x, y, steps):
    x = np.array(x, dtype=float)
    for _ in range(steps):
        np.add(x, y, out=x)
        x += y
    return x


def stack_once(rows):
    parts = []
    for i in range(rows):
        parts.append(np.full(4, 1.0))
    return np.stack(parts)


def masks(arr):
    arr = np.array(arr, dtype=float)
    arr[arr < 0] = 0.0
    np.putmask(arr, arr > 1.0, 1.0)
    hits = np.nonzero(arr)
    return len(hits[0])


def read_only_diagonal(values):
    m = np.asarray(values, dtype=float).reshape(4, 4)
    d = np.diag(m)
    return float(d.sum())


def hoisted_reshape(data, steps):
    data = np.asarray(data, dtype=float)
    grid = data.reshape(4, -1)
    for step in range(steps):
        grid[1:-1] = 0.5 * (grid[:-2] + grid[2:])
    return grid
"""


def _found(out: str) -> list[tuple[int, int, str]]:
    """(line, column, code) of every ``path:line:col: CODE ...`` line."""
    found = []
    for line in out.splitlines():
        parts = line.split(":", 3)
        if len(parts) == 4:
            found.append((int(parts[1]), int(parts[2]), parts[3].split()[0]))
    return found


def test_every_refactor_code_fires_through_select_cpn2(write) -> None:
    path = write("prog.py", PROGRAM)
    result = run_flake8("--select", "CPN2", str(path))
    assert result.returncode == 1, result.stderr
    assert _found(result.stdout) == EXPECTED, result.stdout + result.stderr
    assert {code for _, _, code in _found(result.stdout)} == set(REFACTOR_CODES)


def test_refactor_codes_are_on_in_a_plain_run(write) -> None:
    path = write("prog.py", PROGRAM)
    result = run_flake8(str(path))
    codes = {code for _, _, code in _found(result.stdout)}
    assert set(REFACTOR_CODES) <= codes, result.stdout + result.stderr


def test_extend_ignore_hides_only_that_code(write) -> None:
    path = write("prog.py", PROGRAM)
    result = run_flake8("--select", "CPN2", "--extend-ignore", "CPN201", str(path))
    assert _found(result.stdout) == [e for e in EXPECTED if e[2] != "CPN201"], result.stdout


def test_noqa_silences_one_refactor_finding(write) -> None:
    source = PROGRAM.replace("        x = x + un\n", "        x = x + un  # noqa: CPN202\n")
    path = write("prog.py", source)
    result = run_flake8("--select", "CPN2", str(path))
    assert _found(result.stdout) == [e for e in EXPECTED if e[2] != "CPN202"], result.stdout


def test_traps_are_quiet(write) -> None:
    path = write("quiet.py", QUIET)
    result = run_flake8("--select", "CPN2", str(path))
    assert result.stdout == "" and result.returncode == 0, result.stdout + result.stderr


def test_traps_turn_loud_when_the_recipe_is_undone(write) -> None:
    """The quiet program is quiet for the right reason: undo each fix and its code fires."""
    undone = (
        QUIET.replace("        np.multiply(arr, coef, out=temp)\n", "        temp = np.zeros_like(arr)\n        np.multiply(arr, coef, out=temp)\n")
        .replace("        np.add(x, y, out=x)\n", "        x = x + y\n")
        .replace("        parts.append(np.full(4, 1.0))\n", "        parts.append(np.full(4, 1.0))\n        whole = np.stack(parts)\n")
        .replace("    hits = np.nonzero(arr)\n", "    hits = np.nonzero(arr)\n    arr[hits] = 2.0\n")
        .replace("    d = np.diag(m)\n", "    d = np.diag(m)\n    d[0] = 1.0\n")
        .replace("    for step in range(steps):\n        grid[1:-1]", "    for step in range(steps):\n        grid = data.reshape(4, -1)\n        grid[1:-1]")
    )
    path = write("loud.py", undone)
    codes = sorted(code for _, _, code in _found(run_flake8("--select", "CPN2", str(path)).stdout))
    assert codes == list(REFACTOR_CODES)


def test_messages_name_the_concrete_thing_and_recipe(write) -> None:
    path = write("prog.py", PROGRAM)
    lines = run_flake8("--select", "CPN2", "--cpn-verbose", str(path)).stdout.splitlines()
    text = {line.split(":", 3)[3].split()[0]: line for line in lines}
    assert "u.copy()" in text["CPN201"] and "np.copyto(un, u)" in text["CPN201"] and "(RR-alloc)" in text["CPN201"]
    assert "'x = x + un'" in text["CPN202"] and "x += un" in text["CPN202"] and "(RR-inplace)" in text["CPN202"]
    assert "grows 'table'" in text["CPN203"] and "(RR-stack)" in text["CPN203"]
    assert "'u' (line 15)" in text["CPN204"] and "u[u < 0]" in text["CPN204"] and "(RR-mask)" in text["CPN204"]
    assert "line 17 ('d[0] = 5.0')" in text["CPN205"] and "(RR-write-through)" in text["CPN205"]
    assert "reshapes 'm'" in text["CPN206"] and "(RR-reshape)" in text["CPN206"]


def test_cpn_json_carries_loop_and_data(write) -> None:
    path = write("prog.py", PROGRAM)
    result = run_flake8("--select", "CPN2", "--format", "cpn-json", str(path))
    document = json.loads(result.stdout)
    by_code = {f["code"]: f for f in document["findings"]}
    assert sorted(by_code) == list(REFACTOR_CODES)
    assert by_code["CPN201"]["in_loop"] is True and by_code["CPN201"]["data"]["kind"] == "copy"
    assert by_code["CPN201"]["category"] == "REFACTOR" and by_code["CPN201"]["recipe"] == "RR-alloc"
    assert by_code["CPN203"]["data"]["form"] == "growing"
    assert by_code["CPN204"]["in_loop"] is False and by_code["CPN204"]["data"]["lines"] == [15]
    assert by_code["CPN205"]["recipe"] == "RR-write-through"


@pytest.mark.parametrize("code", REFACTOR_CODES)
def test_rule_fixture_matches_its_expectations_through_flake8(code: str) -> None:
    (path,) = sorted((FIXTURES / "rules").glob(f"{code.lower()}_*.py"))
    result = run_flake8("--select", "CPN2", str(path))
    actual = {(line, found) for line, _, found in _found(result.stdout)}
    expected = {(line, c) for line, c in expected_findings(path) if c.startswith("CPN2")}
    assert any(c == code for _, c in expected), f"{path.name} has no positive case for {code}"
    assert actual == expected, f"missing={sorted(expected - actual)} unexpected={sorted(actual - expected)}"


@pytest.mark.e2e
def test_headlines_are_short_and_name_the_recipe(write) -> None:
    path = write("prog.py", PROGRAM)
    lines = run_flake8("--select", "CPN2", str(path)).stdout.splitlines()
    assert lines
    for line in lines:
        message = line.split(": ", 1)[1]
        assert len(message) <= 8 + HEADLINE_LIMIT and message.endswith(")") and "(RR-" in message, line
