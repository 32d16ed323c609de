"""The before/after tier of ``cpn-lint fix``: every fixture program with a
``__main__`` driver that the fix changes, and every program under
``tests/data/fix_programs/``, runs under NumPy before and after its fix, and
everything it prints must be the same.

Arrays must have the same shape and dtype. Integers, booleans and strings
must be equal; floating-point values equal within ``rtol=1e-12`` and
``atol=1e-12`` (NaN equal to NaN), because ``np.sum`` adds pairwise where
the builtin ``sum`` it replaces adds in order, so the last bits may differ.
"""

from __future__ import annotations

import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cpn_lint.fix.command import selected_codes
from cpn_lint.fix.planner import fix_text

from .conftest import FIXTURES, ROOT
from .oracle_support import has_main_driver

pytestmark = pytest.mark.equivalence

HARNESS = ROOT / "tests" / "fix_harness.py"
FIX_PROGRAMS = ROOT / "tests" / "data" / "fix_programs"
RTOL = ATOL = 1e-12
CODES = selected_codes(None)


def _programs() -> list[Path]:
    fixtures = [p for p in sorted(FIXTURES.rglob("*.py")) if has_main_driver(p)]
    return fixtures + sorted(FIX_PROGRAMS.glob("*.py"))


def _fixed(path: Path) -> tuple[str, int]:
    result = fix_text(path.read_text(encoding="utf-8"), str(path), CODES)
    assert result.error is None, result.error
    return result.fixed, len(result.applied)


def _run(program: Path, tmp: Path) -> list[tuple[object, ...]]:
    out = tmp / f"{program.stem}.pickle"
    proc = subprocess.run([sys.executable, str(HARNESS), str(program), str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    with out.open("rb") as handle:
        return pickle.load(handle)


@pytest.mark.parametrize("program", _programs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_fixed_program_prints_the_same(program: Path, tmp_path: Path) -> None:
    fixed, applied = _fixed(program)
    declared = re.search(r"^# fixes: (\d+)$", program.read_text(encoding="utf-8"), re.M)
    if declared is not None:
        assert applied == int(declared.group(1)), f"{applied} fixes applied, {declared.group(1)} declared"
    if applied == 0:
        pytest.skip("cpn-lint fix changes nothing here")
    before_dir, after_dir = tmp_path / "before", tmp_path / "after"
    shutil.copytree(program.parent, before_dir)
    shutil.copytree(program.parent, after_dir)
    (after_dir / program.name).write_text(fixed, encoding="utf-8")
    before = _run(before_dir / program.name, tmp_path)
    after = _run(after_dir / program.name, tmp_path)
    assert len(before) == len(after), "the fixed program printed a different number of lines"
    for line, (old, new) in enumerate(zip(before, after), start=1):
        _assert_same(old, new, f"print #{line}")


def _assert_same(old: object, new: object, where: str) -> None:
    if isinstance(old, (list, tuple)) and not isinstance(old, np.ndarray):
        assert isinstance(new, (list, tuple)) and len(old) == len(new), where
        for i, (a, b) in enumerate(zip(old, new)):
            _assert_same(a, b, f"{where}[{i}]")
        return
    a, b = np.asarray(old), np.asarray(new)
    assert a.shape == b.shape, f"{where}: shape {a.shape} became {b.shape}"
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        assert a.dtype.kind == b.dtype.kind and a.dtype.itemsize == b.dtype.itemsize or np.isscalar(old), (
            f"{where}: dtype {a.dtype} became {b.dtype}")
        assert np.allclose(a, b, rtol=RTOL, atol=ATOL, equal_nan=True), f"{where}: {old!r} became {new!r}"
    else:
        assert a.dtype.kind == b.dtype.kind, f"{where}: dtype {a.dtype} became {b.dtype}"
        assert np.array_equal(a, b), f"{where}: {old!r} became {new!r}"


def test_every_fix_program_is_changed() -> None:
    for program in sorted(FIX_PROGRAMS.glob("*.py")):
        assert _fixed(program)[1] > 0, program
