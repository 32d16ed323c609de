"""cpn_lint.oracle, the harness that runs programs under the real cuPyNumeric.

The first group needs nothing installed; the ``oracle`` group runs small
programs in the oracle environment (created on first use, skipped when it
cannot be).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpn_lint import oracle

from . import oracle_support as support


def test_the_environment_turns_doctor_on_and_gpus_off(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PYTHONPATH", "/somewhere/else")
    monkeypatch.setenv("LD_LIBRARY_PATH", "/usr/lib/extra")
    env = oracle.oracle_environment(tmp_path / "venv", tmp_path / "out.json")
    assert env["CUPYNUMERIC_DOCTOR"] == "1" and env["CUPYNUMERIC_DOCTOR_FORMAT"] == "json"
    assert env["CUPYNUMERIC_DOCTOR_FILENAME"] == str(tmp_path / "out.json")
    assert env["LEGATE_CONFIG"] == "--cpus 1 --gpus 0 --sysmem 4000" and env["LEGATE_AUTO_CONFIG"] == "0"
    assert env["LD_LIBRARY_PATH"] == f"{tmp_path / 'venv' / 'cuda-stub'}:/usr/lib/extra"
    assert "PYTHONPATH" not in env  # the oracle venv sees only its own packages


def test_the_venv_defaults_to_the_environment_variable(monkeypatch) -> None:
    monkeypatch.setenv(oracle.VENV_ENV, "/tmp/some-oracle")
    assert oracle.default_venv() == Path("/tmp/some-oracle")
    monkeypatch.delenv(oracle.VENV_ENV)
    assert oracle.default_venv() == Path(".cpn-oracle-venv")


def test_an_unfinished_venv_is_not_ready(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python").write_text("")
    assert oracle.installed_version(tmp_path) is None
    (tmp_path / "cpn-oracle-ready.json").write_text(json.dumps({"cupynumeric": "26.6.1"}))
    assert oracle.installed_version(tmp_path) == "26.6.1"
    (tmp_path / "cpn-oracle-ready.json").write_text("{broken")
    assert oracle.installed_version(tmp_path) is None


def test_running_without_a_venv_says_how_to_make_one(tmp_path: Path, capsys) -> None:
    program = tmp_path / "p.py"
    program.write_text("print(1)\n")
    with pytest.raises(oracle.OracleError, match="python -m cpn_lint.oracle setup"):
        oracle.run_program(program, venv=tmp_path / "missing")
    assert oracle.main(["--venv", str(tmp_path / "missing"), "run", str(program)]) == 2
    assert "cpn-lint oracle: no oracle environment" in capsys.readouterr().err


def test_programs_with_a_main_driver_are_runnable(tmp_path: Path) -> None:
    cases = {
        "driver.py": 'import numpy as np\nif __name__ == "__main__":\n    print(np.ones(2))\n',
        "reversed.py": 'if "__main__" == __name__:\n    pass\n',
        "library.py": "import numpy as np\ndef f(a):\n    return a\n",
        "nested.py": 'def f():\n    if __name__ == "__main__":\n        pass\n',
        "broken.py": "def (:\n",
    }
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
    assert {name for name in cases if support.has_main_driver(tmp_path / name)} == {"driver.py", "reversed.py"}


def test_the_cache_key_follows_local_imports(tmp_path: Path) -> None:
    (tmp_path / "helpers.py").write_text("from . import deeper\n")
    (tmp_path / "deeper.py").write_text("X = 1\n")
    (tmp_path / "unrelated.py").write_text("Y = 2\n")
    program = tmp_path / "main.py"
    program.write_text("import numpy as np\nimport helpers\n")
    assert [p.name for p in support.local_modules(program)] == ["deeper.py", "helpers.py"]
    before = support.cache_key(program)
    (tmp_path / "unrelated.py").write_text("Y = 3\n")
    assert support.cache_key(program) == before
    (tmp_path / "deeper.py").write_text("X = 2\n")
    assert support.cache_key(program) != before


def test_expectations_need_reasons(tmp_path: Path) -> None:
    data = {"disagreements": [{"file": "f.py", "line": 1, "check": "IterCheck", "code": "CPN103", "reason": "todo"}]}
    path = tmp_path / "e.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="needs a reviewed reason"):
        support.load_expectations(path)


def test_the_reviewed_expectations_load() -> None:
    loaded = support.load_expectations()
    assert loaded.disagreements and loaded.stops


# -- with the oracle environment -------------------------------------------------------


@pytest.fixture(scope="module")
def venv() -> Path:
    return support.require_oracle_venv()


@pytest.mark.oracle
def test_a_clean_program_gives_an_empty_report(venv: Path, tmp_path: Path) -> None:
    program = tmp_path / "clean.py"
    program.write_text("import numpy as np\nprint(type(np.ones(3)).__module__.split('.')[0])\n")
    run = oracle.run_program(program, venv=venv)
    assert run.ok and run.report == [] and run.report_text() == "[]\n" and run.stop is None


@pytest.mark.oracle
def test_a_stopping_program_reports_where_and_keeps_doctors_findings(venv: Path, tmp_path: Path) -> None:
    program = tmp_path / "stops.py"
    program.write_text(
        "import numpy as np\n"
        "a = np.arange(30.0)\n"
        "for i in range(30):\n"
        "    a[i] = a[i] + 1.0\n"
        "b = a[::2]\n"
    )
    output = tmp_path / "doctor.json"
    status = oracle.main(["--venv", str(venv), "run", str(program), "-o", str(output)])
    assert status == 1
    report = json.loads(output.read_text())
    assert [(e["lineno"], e["source"]) for e in report] == [(4, "a[i] = a[i] + 1.0")]
    run = oracle.run_program(program, venv=venv)
    assert run.stop is not None and (Path(run.stop["filename"]).name, run.stop["line"]) == ("stops.py", 5)
    assert run.stop["error"] == "NotImplementedError"


@pytest.mark.oracle
def test_a_program_past_its_time_is_stopped(venv: Path, tmp_path: Path) -> None:
    program = tmp_path / "slow.py"
    program.write_text("import time\ntime.sleep(120)\n")
    run = oracle.run_program(program, venv=venv, timeout=8)
    assert run.timed_out and not run.ok and run.seconds < 60


@pytest.mark.oracle
def test_program_arguments_and_working_directory(venv: Path, tmp_path: Path) -> None:
    (tmp_path / "sibling.py").write_text("VALUE = 3\n")
    program = tmp_path / "args.py"
    program.write_text("import sys\nimport sibling\nassert sys.argv[1:] == ['x', '--flag'], sys.argv\n"
                       "assert sibling.VALUE == 3\n")
    run = oracle.run_program(program, venv=venv, args=["x", "--flag"])
    assert run.ok, run.stderr_tail


@pytest.mark.oracle
def test_the_command_passes_arguments_after_a_double_dash_and_shows_the_output(
        venv: Path, tmp_path: Path, capsys) -> None:
    program = tmp_path / "echo.py"
    program.write_text("import sys\nprint('argv', sys.argv[1:])\n")
    output = tmp_path / "report.json"
    status = oracle.main(["--venv", str(venv), "run", str(program), "-o", str(output), "--", "x", "--flag"])
    out = capsys.readouterr().out
    assert status == 0 and output.read_text() == "[]\n"
    assert out.startswith("argv ['x', '--flag']\n")  # the program's own output, without Legate's driver notes
    assert "Doctor reported 0 issue(s)" in out


def test_setup_without_a_compiler_says_so(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(oracle.shutil, "which", lambda name: None)
    with pytest.raises(oracle.OracleError, match="no C compiler"):
        oracle.ensure_venv(tmp_path / "venv")
    assert not (tmp_path / "venv").exists()


@pytest.mark.oracle
def test_setup_of_a_ready_environment_is_quick(venv: Path, capsys) -> None:
    assert oracle.main(["--venv", str(venv), "setup"]) == 0
    assert f"cuPyNumeric {oracle.CUPYNUMERIC_VERSION} ready in {venv}" in capsys.readouterr().out


def test_an_environment_from_before_the_host_libraries_gets_them_added(tmp_path: Path, monkeypatch) -> None:
    """A ready environment without matplotlib and SciPy is completed, not rebuilt."""
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python").write_text("")
    (tmp_path / "cpn-oracle-ready.json").write_text(json.dumps({"cupynumeric": oracle.CUPYNUMERIC_VERSION, "mpi": True}))
    installed: list[tuple[str, ...]] = []
    monkeypatch.setattr(oracle, "_pip_install", lambda venv, packages: installed.append(tuple(packages)))
    monkeypatch.setattr(oracle, "_create", lambda *a: pytest.fail("a ready environment must not be rebuilt"))
    assert oracle.ensure_venv(tmp_path, log=lambda message: None) == tmp_path.absolute()
    assert installed == [oracle.HOST_PACKAGES]
    assert oracle.installed_host_packages(tmp_path) == oracle.HOST_PACKAGES
    assert oracle.ensure_venv(tmp_path, log=lambda message: None) and len(installed) == 1


@pytest.mark.oracle
def test_a_program_that_plots_and_calls_scipy_runs(venv: Path, tmp_path: Path) -> None:
    """Issue 12: numpy means cuPyNumeric in the program's files only; matplotlib
    (Agg) and SciPy keep the real NumPy, even when imported after the program's numpy."""
    (tmp_path / "helper.py").write_text("import numpy\nKIND = type(numpy.ones(2)).__module__.split('.')[0]\n")
    program = tmp_path / "plots.py"
    program.write_text(
        "import numpy as np\n"
        "import helper\n"
        "import matplotlib.pyplot as plt\n"
        "from scipy import ndimage\n"
        "import matplotlib.cbook\n"
        "u = np.linspace(0.0, 1.0, 16)\n"
        "fig, ax = plt.subplots()\n"
        "ax.scatter(u, u * u)\n"
        "ax.plot(u, u)\n"
        "plt.pause(0.001)\n"
        "fig.canvas.draw()\n"
        "smooth = ndimage.gaussian_filter(np.ones((8, 8)), 1.0)\n"
        "print(type(u).__module__.split('.')[0], helper.KIND, matplotlib.cbook.np.__name__, type(smooth).__module__)\n"
    )
    run = oracle.run_program(program, venv=venv)
    assert run.ok, run.stderr_tail
    assert run.stdout.split() == ["cupynumeric", "cupynumeric", "numpy", "numpy"]


@pytest.mark.oracle
def test_the_import_of_a_name_cupynumeric_lacks_fails_as_after_the_port(venv: Path, tmp_path: Path) -> None:
    program = tmp_path / "old.py"
    program.write_text("import numpy as np\nx = np.ones(3)\nfrom numpy import trapz\n")
    run = oracle.run_program(program, venv=venv)
    assert run.stop is not None and (run.stop["error"], run.stop["line"]) == ("ImportError", 3)
