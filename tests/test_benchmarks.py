"""The benchmark harness (``python -m benchmarks``): its parts, and one tiny end-to-end run.

No test here asserts a timing: the figures depend on the machine. They check
that the harness measures what it says (the right files, the plugin really
absent on one side, a well-formed result) and that its inputs are deterministic.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import SCHEMA, SCHEMA_VERSION, cli, corpus, measures, report, synth, worker
from benchmarks.procs import run_child
from cpn_lint import lint_source

from .conftest import ROOT

LAUNCHER = ROOT / "benchmarks" / "flake8_launcher.py"


# ---------------------------------------------------------------- synthetic files
def test_splitmix64_matches_the_reference_stream() -> None:
    rng = synth.SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_synthetic_file_is_deterministic_and_seeded() -> None:
    assert synth.generate(1000, seed=0) == synth.generate(1000, seed=0)
    assert synth.generate(1000, seed=0) != synth.generate(1000, seed=1)


@pytest.mark.parametrize("lines", [1, 300, 1000, 10_000])
def test_synthetic_file_parses_and_has_about_the_requested_size(lines: int) -> None:
    source = synth.generate(lines)
    ast.parse(source)
    count = synth.line_count(source)
    assert lines <= count <= lines + 40  # at most one block (and a driver section) past the target


def test_synthetic_file_is_varied_code_not_one_repeated_line() -> None:
    source = synth.generate(10_000)
    lines = [line for line in source.splitlines() if line.strip()]
    assert len(set(lines)) / len(lines) > 0.15
    tree = ast.parse(source)
    functions = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.col_offset == 0]
    assert len(functions) == len(set(functions)) > 100
    assert any(isinstance(n, ast.While) for n in ast.walk(tree))
    assert any(isinstance(n, ast.ClassDef) for n in tree.body)
    module_rebinds = [n for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "grid"]
    assert len(module_rebinds) > 10  # script-style driver sections at module level


def test_synthetic_file_is_numpy_code_the_rules_fire_on() -> None:
    codes = {f.code for f in lint_source(synth.generate(1000), assessment=True)}
    assert {"CPN101", "CPN102"} <= codes
    assert "CPN000" not in codes


def test_synth_command_writes_the_file(tmp_path: Path) -> None:
    target = tmp_path / "s.py"
    assert cli.main(["synth", "--lines", "200", "--seed", "3", "-o", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == synth.generate(200, 3)


# -------------------------------------------------------------------- corpus
def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    for rel, text in {
        "pkg/__init__.py": "",
        "pkg/a.py": "import numpy as np\nx = np.zeros(3)\n",
        "pkg/b.py": "y = 1\nz = 2",  # no final newline: still two lines
        "pkg/notes.txt": "not python\n",
        "pkg/__pycache__/a.cpython-311.py": "cached = 1\n",
        ".hidden/c.py": "h = 1\n",
        "env/pyvenv.cfg": "home = /usr\n",
        "env/lib/d.py": "v = 1\n",
    }.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_corpus_lists_python_files_only_skipping_caches_hidden_and_venvs(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    assert corpus.list_python_files(root) == ["pkg/__init__.py", "pkg/a.py", "pkg/b.py"]


def test_corpus_from_a_directory_counts_lines_and_bytes(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    loaded = corpus.load(str(root), None, locate=lambda name: pytest.fail("a directory needs no locating"))
    assert (loaded.name, loaded.version, loaded.root) == ("corpus", None, root.resolve())
    assert loaded.lines == 0 + 2 + 2
    assert loaded.bytes == sum((root / f).stat().st_size for f in loaded.files)
    assert loaded.spec() == {"root": str(root.resolve()), "files": loaded.files}


def test_named_corpus_is_located_in_the_benchmark_interpreter(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    loaded = corpus.load("scipy", 2, locate=lambda name: {"root": str(root), "version": "9.9"})
    assert (loaded.name, loaded.version, len(loaded.files), loaded.total_files) == ("scipy", "9.9", 2, 3)
    with pytest.raises(FileNotFoundError):
        corpus.load("numpy", None, locate=lambda name: {"root": None, "version": None})
    with pytest.raises(FileNotFoundError):
        corpus.load(str(tmp_path / "missing"), None, locate=lambda name: {})


def test_quick_runs_sample_the_whole_corpus_evenly() -> None:
    items = [f"f{i:03d}" for i in range(100)]
    assert corpus.spread_sample(items, 4) == ["f000", "f025", "f050", "f075"]
    assert corpus.spread_sample(items, None) == items
    assert corpus.spread_sample(items, 500) == items


# ---------------------------------------------------------- child processes
def test_run_child_reports_exit_status_and_peak_memory(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    run = run_child([sys.executable, "-c", "b = bytearray(80_000_000); print(len(b)); raise SystemExit(3)"],
                    stdout=out)
    assert run.returncode == 3 and not run.timed_out
    assert out.read_text().strip() == "80000000"
    if sys.platform != "win32":
        assert run.max_rss_bytes is not None and run.max_rss_bytes >= 80_000_000
        assert run.cpu_s is not None


def test_run_child_stops_a_child_at_its_timeout() -> None:
    run = run_child([sys.executable, "-c", "import time; time.sleep(60)"], timeout=0.5)
    assert run.timed_out and run.returncode != 0


@pytest.mark.e2e
def test_launcher_really_removes_the_plugin_from_flake8(tmp_path: Path) -> None:
    def version(*launcher_args: str) -> str:
        done = subprocess.run([sys.executable, str(LAUNCHER), *launcher_args, "--", "--version"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "cpn-lint" in version()
    hidden = version("--hide", "cpn_lint")  # any spelling of the distribution name
    assert "cpn-lint" not in hidden and "pycodestyle" in hidden

    target = tmp_path / "v.py"
    target.write_text("import numpy as np\nf = np.vectorize(abs)\n", encoding="utf-8")
    args = ["--", "--isolated", "--select", "CPN", str(target)]
    shown = subprocess.run([sys.executable, str(LAUNCHER), *args], capture_output=True, text=True, timeout=120)
    assert "CPN102" in shown.stdout
    quiet = subprocess.run([sys.executable, str(LAUNCHER), "--hide", "cpn-lint", *args],
                           capture_output=True, text=True, timeout=120)
    assert quiet.stdout == ""


# --------------------------------------------------------------- reporting
def test_profile_areas_name_the_pipeline_parts() -> None:
    assert worker._area("~", "<built-in method builtins.compile>") == "ast.parse (compile)"
    assert worker._area("/x/cpn_lint/rules/cpn101_element_loop_indexing.py", "check") == "rule CPN101"
    assert worker._area("/x/cpn_lint/rules/_scales.py", "check") == "rules (_scales)"
    assert worker._area("/x/cpn_lint/model/__init__.py", "_walk") == "model (__init__)"
    assert worker._area("/x/cpn_lint/engine.py", "_run") == "engine"
    assert worker._area("/usr/lib/python3.11/ast.py", "walk") == "ast module (walk, iter_child_nodes, ...)"
    assert worker._area("<string>", "__init__") == "generated __init__ (dataclasses)"


def test_overall_status_is_the_worst_measure() -> None:
    assert cli.overall_status({"a": {"status": "PASS"}, "b": {"status": "PASS"}}) == "PASS"
    assert cli.overall_status({"a": {"status": "PASS"}, "b": {"status": "FAIL"}}) == "FAIL"
    assert cli.overall_status({"a": {"status": "ERROR"}, "b": {"status": "FAIL"}}) == "ERROR"


def test_table_shows_a_measure_that_could_not_be_taken() -> None:
    result = {
        "status": "ERROR",
        "corpus": {"name": "x", "version": None, "files": 1, "total_files": 1, "lines": 3},
        "environment": {"python": "3.11", "flake8": "7", "cpus": 2, "load_before": "0.1"},
        "measures": {"peak_memory": {"status": "ERROR", "error": "cpn-verdict exited 3"}},
    }
    text = report.table(result)
    assert "cpn-verdict exited 3" in text and "ERROR" in text


def test_command_line_defaults_to_run_and_validates_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["--help"])
    assert exited.value.code == 0
    assert "setup" in capsys.readouterr().out
    parser = cli.build_parser()
    ns = parser.parse_args(["run"])
    assert (ns.corpus, ns.only, ns.scaling_sizes, ns.output) == ("scipy", list(measures.MEASURES),
                                                                 [1000, 10000, 100000], cli.LATEST)
    for bad in (["run", "--only", "speed"], ["run", "--scaling-sizes", "1000"], ["run", "--max-files", "0"]):
        with pytest.raises(SystemExit):
            parser.parse_args(bad)


@pytest.mark.e2e
def test_module_help_runs_from_the_repository_root() -> None:
    done = subprocess.run([sys.executable, "-m", "benchmarks", "run", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "--corpus" in done.stdout and "--max-files" in done.stdout


def test_missing_environment_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["run", "--venv", str(tmp_path / "nowhere")]) == 2
    assert "python -m benchmarks setup" in capsys.readouterr().err


# ------------------------------------------------------------ end to end
def _tiny_corpus(tmp_path: Path) -> Path:
    root = tmp_path / "tiny"
    root.mkdir()
    (root / "loops.py").write_text(synth.generate(120, seed=5), encoding="utf-8")
    (root / "plain.py").write_text("def f(x):\n    return x + 1\n", encoding="utf-8")
    (root / "vec.py").write_text("import numpy as np\n\nramp = np.vectorize(abs)\n", encoding="utf-8")
    return root


def _run_harness(tmp_path: Path, *extra: str) -> dict:
    output = tmp_path / "result.json"
    code = cli.main([
        "run", "--python", sys.executable, "--corpus", str(_tiny_corpus(tmp_path)), "--repeat", "1",
        "--flake8-repeat", "1", "--scaling-sizes", "50,200", "--scaling-repeat", "1", "--output", str(output),
        *extra,
    ])
    assert code == 0
    return json.loads(output.read_text(encoding="utf-8"))


@pytest.mark.e2e
@pytest.mark.slow
def test_harness_smoke_run_in_process_measures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = _run_harness(tmp_path, "--only", "throughput,scaling")
    assert (result["schema"], result["schema_version"]) == (SCHEMA, SCHEMA_VERSION)
    assert list(result["measures"]) == ["engine_throughput", "scaling"]
    assert result["corpus"]["files"] == 3 and result["corpus"]["lines"] == synth.line_count(
        synth.generate(120, seed=5)) + 2 + 3

    engine = result["measures"]["engine_throughput"]
    assert engine["status"] in ("PASS", "FAIL")
    assert engine["files"] == 3 and len(engine["pair_ratios"]) == 1
    assert engine["ratio"] > 0 and engine["engine_lines_per_s"] > 0
    assert {"CPN101", "CPN102"} <= set(engine["findings"])
    assert isinstance(engine["models_alive_after_warm_up"], int)
    parts = {p["part"] for p in engine["breakdown"]["parts"]}
    assert {"decode + ast.parse", "model (FileModel build)", "rule CPN101"} <= parts
    assert abs(sum(p["share"] for p in engine["breakdown"]["parts"]) - 1.0) < 1e-6
    assert engine["profile"]["top_self"] and engine["profile"]["areas"]

    scaling = result["measures"]["scaling"]
    assert [row["target_lines"] for row in scaling["sizes"]] == [50, 200]
    assert all(row["lines"] >= row["target_lines"] for row in scaling["sizes"])
    assert scaling["ratio"] > 0 and scaling["gc_paused_ratio"] > 0 and scaling["status"] in ("PASS", "FAIL")
    parts = {p["part"] for p in scaling["parts_gc_paused"]}
    assert {"decode_parse", "model", "CPN101", "CPN102"} <= parts

    out = capsys.readouterr().out
    assert "engine time / ast.parse" in out and "scaling (per line)" in out


@pytest.mark.e2e
@pytest.mark.slow
def test_harness_smoke_run_all_measures(tmp_path: Path) -> None:
    result = _run_harness(tmp_path)
    assert list(result["measures"]) == ["plugin_overhead", "engine_throughput", "peak_memory", "scaling",
                                        "plugin_overhead_warm", "verdict_warm", "verdict_jobs"]
    assert all(m["status"] in ("PASS", "FAIL") for m in result["measures"].values()), result["measures"]
    # warm and --jobs runs print what cold and serial runs print (else the measure is an ERROR)
    assert result["measures"]["plugin_overhead_warm"]["output_identical_to_cold"]
    assert result["measures"]["verdict_warm"]["reports_identical"]
    assert result["measures"]["verdict_jobs"]["reports_identical"]
    assert result["measures"]["verdict_jobs"]["files"] == 3

    overhead = result["measures"]["plugin_overhead"]
    assert overhead["method"] == "hide" and len(overhead["pair_ratios"]) == 1
    # the plugin ran on one side only; everything else flake8 reported is identical
    assert overhead["output"]["without"]["cpn"] == 0 and overhead["output"]["with"]["cpn"] >= 2
    assert overhead["output"]["without"]["other"] == overhead["output"]["with"]["other"]

    memory = result["measures"]["peak_memory"]
    assert memory["tool"] == "cpn-verdict" and memory["peak_mb"] > 1
    assert result["environment"]["entry_points_current"] in (True, False)
