"""The hooks this repository offers to pre-commit (.pre-commit-hooks.yaml) are
well formed, and each one does what README.md says when run the way
pre-commit runs it: the entry split like a shell line, then ``args``, then the
staged file names unless ``pass_filenames: false``.

pre-commit and PyYAML are not test dependencies, so the manifest is read with
a small reader for the flat list-of-mappings form the file keeps to; where
PyYAML happens to be installed, the reader is checked against it.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / ".pre-commit-hooks.yaml"
REQUIRED = {"id", "name", "entry", "language"}
# The keys pre-commit accepts in a hook manifest (its "Creating new hooks" table).
KNOWN = REQUIRED | {
    "alias", "always_run", "args", "description", "exclude", "exclude_types", "fail_fast", "files",
    "language_version", "log_file", "minimum_pre_commit_version", "pass_filenames", "require_serial",
    "stages", "types", "types_or", "verbose",
}

Scalar = str | bool
Hook = dict[str, Scalar | list[str]]


def read_hooks(text: str) -> list[Hook]:
    """Read ``- key: value`` blocks whose values are scalars or ``[a, b]`` lists.

    Anything else (nested mappings, block lists, multi-line strings) raises
    ValueError, so the manifest cannot drift into a form this reader misreads.
    """
    hooks: list[Hook] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _without_comment(raw).rstrip()
        if not line.strip():
            continue
        if line.startswith("- "):
            hooks.append({})
            line = "  " + line[2:]
        if not hooks or not re.match(r"  [a-z_]+:( |$)", line):
            raise ValueError(f"line {number}: not a '  key: value' line of a hook: {raw!r}")
        key, _, value = line.strip().partition(":")
        if key in hooks[-1]:
            raise ValueError(f"line {number}: {key!r} given twice")
        hooks[-1][key] = _value(value.strip(), number)
    return hooks


def _without_comment(raw: str) -> str:
    if raw.lstrip().startswith("#"):
        return ""
    return raw.split(" #", 1)[0]


def _value(text: str, number: int) -> Scalar | list[str]:
    if text.startswith("["):
        if not text.endswith("]"):
            raise ValueError(f"line {number}: unterminated list {text!r}")
        return [_scalar(item.strip(), number) for item in text[1:-1].split(",") if item.strip()]  # type: ignore[misc]
    return _scalar(text, number)


def _scalar(text: str, number: int) -> Scalar:
    if not text or text[0] in "{|>&*!\"'" or ": " in text:
        raise ValueError(f"line {number}: value outside the plain-scalar form: {text!r}")
    if text in ("true", "false"):
        return text == "true"
    return text


HOOKS = {str(hook["id"]): hook for hook in read_hooks(MANIFEST.read_text(encoding="utf-8"))}


def test_reader_reads_the_flat_form_and_rejects_the_rest() -> None:
    assert read_hooks("# c\n- id: a  # why\n  args: [--x, y]\n  pass_filenames: false\n- id: b\n") == [
        {"id": "a", "args": ["--x", "y"], "pass_filenames": False},
        {"id": "b"},
    ]
    for bad in ("id: loose\n", "- id: a\n  args:\n    - x\n", "- id: a\n  name: 'quoted'\n",
                "- id: a\n  id: b\n", "- id: a\n  args: [x\n", "- id: a\n  entry: a: b\n"):
        with pytest.raises(ValueError):
            read_hooks(bad)


def test_reader_agrees_with_pyyaml_where_it_is_installed() -> None:
    yaml = pytest.importorskip("yaml")
    assert yaml.safe_load(MANIFEST.read_text(encoding="utf-8")) == list(HOOKS.values())


def test_every_hook_has_the_required_keys_and_only_known_ones() -> None:
    assert list(HOOKS) == ["cpn-lint", "cpn-verdict"]
    for hook in HOOKS.values():
        assert REQUIRED <= set(hook), hook
        assert set(hook) <= KNOWN, set(hook) - KNOWN
        assert hook["language"] == "python"  # pre-commit installs this package into the hook's env


def test_the_lint_hook_runs_flake8_on_the_staged_python_files() -> None:
    hook = HOOKS["cpn-lint"]
    program, *options = shlex.split(str(hook["entry"]))
    assert program == "flake8" and options == ["--select=CPN,E9"] and "args" not in hook
    assert hook["types"] == ["python"] and hook.get("pass_filenames", True) is True
    assert hook["require_serial"] is False


def test_the_verdict_hook_assesses_the_repository_at_a_level_args_cannot_drop() -> None:
    hook = HOOKS["cpn-verdict"]
    program, *options = shlex.split(str(hook["entry"]))
    assert program in _project_scripts()
    assert options == ["--fail-on=NOT-RECOMMENDED", "--brief"]
    assert hook["pass_filenames"] is False and hook["always_run"] is False
    assert "args" not in hook
    assert hook["types_or"] == ["python", "jupyter"]


def test_readme_snippet_names_only_hooks_that_exist() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    snippet = re.search(r"```yaml\n# \.pre-commit-config\.yaml\n(.*?)```", readme, re.S)
    assert snippet, "README.md lost its .pre-commit-config.yaml example"
    ids = re.findall(r"- id: ([\w-]+)", snippet.group(1))
    assert ids and set(ids) <= set(HOOKS), ids


def _project_scripts() -> list[str]:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return sorted(project.get("scripts", {}))


def _command(hook_id: str, files: tuple[Path, ...] = (), user_args: tuple[str, ...] = ()) -> list[str]:
    """The command pre-commit would run; the script comes from this interpreter's bin dir."""
    hook = HOOKS[hook_id]
    program, *entry_args = shlex.split(str(hook["entry"]))
    executable = shutil.which(program, path=str(Path(sys.executable).parent))
    assert executable, f"{program} is not installed beside {sys.executable}"
    args = list(user_args) or [str(a) for a in hook.get("args", [])]  # type: ignore[union-attr]
    names = [str(f) for f in files] if hook.get("pass_filenames", True) else []
    return [executable, *entry_args, *args, *names]


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=300)


# An element loop over a large array (CPN101), and code with nothing to report.
LOOP = "import numpy as np\na = np.zeros(10_000_000)\nfor i in range(len(a)):\n    a[i] = a[i] * 2.0\n"
CLEAN = "import numpy as np\na = np.ones(10_000_000) * 2.0\nb = a.sum()\n"
# A flood fill over the grid does the work, one cell at a time: Gate 4 fails on its share of the projected time.
GRAPH = (
    "import numpy as np\nfrom collections import deque\ngrid = np.random.rand(3000, 3000) < 0.6\n"
    "seen = np.zeros_like(grid)\nqueue = deque([(0, 0)])\nwhile queue:\n    i, j = queue.popleft()\n"
    "    for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):\n        a, b = i + di, j + dj\n"
    "        if 0 <= a < 3000 and 0 <= b < 3000 and grid[a, b] and not seen[a, b]:\n"
    "            seen[a, b] = True\n            queue.append((a, b))\nprint(int(seen.sum()))\n"
)


@pytest.mark.e2e
def test_lint_hook_fails_on_a_finding(tmp_path: Path) -> None:
    bad, good = tmp_path / "bad.py", tmp_path / "good.py"
    bad.write_text(LOOP)
    good.write_text(CLEAN)
    result = _run(_command("cpn-lint", (bad, good)), tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines and all(line.startswith(f"{bad}:") for line in lines), lines
    assert any(line.startswith(f"{bad}:3:1: CPN101 ") for line in lines), lines


@pytest.mark.e2e
def test_lint_hook_fails_on_a_file_that_does_not_parse(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text(LOOP + "def f(:\n")
    result = _run(_command("cpn-lint", (broken,)), tmp_path)
    assert result.returncode == 1 and f"{broken}:5:" in result.stdout and "E999" in result.stdout, result.stdout


@pytest.mark.e2e
def test_lint_hook_selection_survives_user_args(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(LOOP + "x = 1  # " + "z" * 100 + "\n")  # also too long for pycodestyle
    result = _run(_command("cpn-lint", (bad,), user_args=("--max-line-length=100",)), tmp_path)
    codes = {line.split()[1] for line in result.stdout.splitlines()}
    assert result.returncode == 1 and codes == {"CPN101"}, result.stdout  # still CPN and E9 only, no E501


@pytest.mark.e2e
def test_lint_hook_passes_a_clean_file(tmp_path: Path) -> None:
    good = tmp_path / "good.py"
    good.write_text(CLEAN)
    result = _run(_command("cpn-lint", (good,)), tmp_path)
    assert (result.returncode, result.stdout) == (0, ""), result.stderr


@pytest.mark.e2e
def test_verdict_hook_passes_until_the_project_is_not_recommended(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text(CLEAN)
    (tmp_path / "loop.py").write_text(LOOP)
    passing = _run(_command("cpn-verdict"), tmp_path)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert passing.stdout.startswith("# cuPyNumeric migration readiness: LIGHT REFACTOR")
    # brief: the verdict, the summary and the top findings; the report is in a file
    assert "### Summary" in passing.stdout and "Top findings:" in passing.stdout
    assert "## 2. What works" not in passing.stdout and len(passing.stdout.splitlines()) < 60
    full = passing.stdout.rstrip().splitlines()[-1].removeprefix("Full report: ")
    assert Path(full).read_text().count("## ") >= 9
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop.py", "ok.py"]  # nothing written into the tree
    # A graph workload in the only other file is out of cuPyNumeric's scope (Gate 4).
    (tmp_path / "loop.py").unlink()
    (tmp_path / "graph.py").write_text(GRAPH)
    failing = _run(_command("cpn-verdict"), tmp_path)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert failing.stdout.startswith("# cuPyNumeric migration readiness: NOT RECOMMENDED")


@pytest.mark.e2e
def test_verdict_hook_level_follows_user_args_and_survives_other_args(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "loop.py").write_text(LOOP)
    (tmp_path / "graph.py").write_text(GRAPH)  # outside src/: not assessed below
    stricter = _run(_command("cpn-verdict", user_args=("--fail-on=LIGHT", "src")), tmp_path)
    assert stricter.returncode == 1, stricter.stdout + stricter.stderr
    assert stricter.stdout.startswith("# cuPyNumeric migration readiness: LIGHT REFACTOR")
    default_level = _run(_command("cpn-verdict", user_args=("--gpus", "8", "src")), tmp_path)
    assert default_level.returncode == 0, default_level.stdout + default_level.stderr
    whole_repo = _run(_command("cpn-verdict", user_args=("--gpus", "8")), tmp_path)
    assert whole_repo.returncode == 1, whole_repo.stdout
