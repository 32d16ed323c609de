"""The hooks offered to pre-commit (.pre-commit-hooks.yaml) are well formed
and do what they say when pre-commit runs their entry.

pre-commit is not a test dependency: the manifest is read with a small reader
for its flat list-of-mappings form, and each hook's command line is run the
way pre-commit would (entry + args + the staged files).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / ".pre-commit-hooks.yaml"
REQUIRED = {"id", "name", "entry", "language"}
KNOWN = REQUIRED | {"description", "args", "types", "types_or", "pass_filenames", "require_serial",
                    "files", "exclude", "always_run", "stages", "minimum_pre_commit_version"}


def read_hooks(text: str) -> list[dict[str, object]]:
    """Parse ``- key: value`` blocks; values are scalars or ``[a, b]`` flow lists."""
    hooks: list[dict[str, object]] = []
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        if line.startswith("- "):
            hooks.append({})
            line = line[2:]
        elif not line.startswith("  "):
            raise ValueError(f"unexpected line: {raw!r}")
        key, sep, value = line.strip().partition(":")
        if not sep or not hooks:
            raise ValueError(f"not a key: value line: {raw!r}")
        hooks[-1][key] = _scalar_or_list(value.strip())
    return hooks


def _scalar_or_list(value: str) -> object:
    if value.startswith("[") and value.endswith("]"):
        return [item.strip() for item in value[1:-1].split(",") if item.strip()]
    if value in ("true", "false"):
        return value == "true"
    return value


HOOKS = {hook["id"]: hook for hook in read_hooks(MANIFEST.read_text(encoding="utf-8"))}


def test_reader_rejects_what_it_cannot_read() -> None:
    with pytest.raises(ValueError):
        read_hooks("id: loose\n")
    assert read_hooks("- id: a\n  args: [--x, y]\n  pass_filenames: false\n") == [
        {"id": "a", "args": ["--x", "y"], "pass_filenames": False}
    ]


def test_every_hook_has_the_required_keys_and_no_unknown_ones() -> None:
    assert set(HOOKS) == {"cpn-lint", "cpn-verdict"}
    for hook in HOOKS.values():
        assert REQUIRED <= set(hook), hook
        assert set(hook) <= KNOWN, set(hook) - KNOWN
        assert hook["language"] == "python"


def test_entries_are_console_scripts_this_package_installs() -> None:
    assert HOOKS["cpn-verdict"]["entry"] in _project_scripts()
    assert HOOKS["cpn-lint"]["entry"] == "flake8"  # the plugin rides on flake8's own script


def _project_scripts() -> list[str]:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return sorted(project.get("scripts", {}))


def _command(hook_id: str, *files: str) -> list[str]:
    hook = HOOKS[hook_id]
    entry = str(hook["entry"])
    executable = shutil.which(entry, path=str(Path(sys.executable).parent)) or entry
    command = [executable, *[str(a) for a in hook.get("args", [])]]  # type: ignore[union-attr]
    return command + (list(files) if hook.get("pass_filenames", True) else [])


LOOP = "import numpy as np\na = np.zeros(1000)\nfor i in range(len(a)):\n    a[i] = a[i] * 2.0\n"
CLEAN = "import numpy as np\na = np.arange(8) * 2.0\n"


@pytest.mark.e2e
def test_cpn_lint_hook_fails_on_a_finding_and_passes_clean_files(tmp_path: Path) -> None:
    bad, good = tmp_path / "bad.py", tmp_path / "good.py"
    bad.write_text(LOOP)
    good.write_text(CLEAN)
    failing = subprocess.run(_command("cpn-lint", str(bad), str(good)), capture_output=True, text=True, cwd=tmp_path)
    assert failing.returncode == 1 and "bad.py:3:1: CPN101" in failing.stdout and "CPN101" in failing.stdout
    assert "good.py" not in failing.stdout
    passing = subprocess.run(_command("cpn-lint", str(good)), capture_output=True, text=True, cwd=tmp_path)
    assert passing.returncode == 0, passing.stdout + passing.stderr


@pytest.mark.e2e
def test_cpn_verdict_hook_fails_only_at_its_level(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text(CLEAN)
    passing = subprocess.run(_command("cpn-verdict"), capture_output=True, text=True, cwd=tmp_path)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert passing.stdout.startswith("# cuPyNumeric migration readiness: READY")
    # A workload outside cuPyNumeric's scope is NOT RECOMMENDED: the hook fails.
    (tmp_path / "graph.py").write_text("import numpy as np\nimport networkx as nx\ng = nx.Graph()\nd = np.zeros(3)\n")
    failing = subprocess.run(_command("cpn-verdict"), capture_output=True, text=True, cwd=tmp_path)
    assert failing.returncode == 1, failing.stdout
    assert failing.stdout.startswith("# cuPyNumeric migration readiness: NOT RECOMMENDED")
