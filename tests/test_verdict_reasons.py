"""Reasons that hold on a real project (issue 25 §2, §4): the verdict names
its deciding root causes first (a Numba-compiled kernel, a hot element loop,
a recurrence), files outside the main computation weigh less, folded
findings count in "where the blocking work is", the dominant pattern is
weighed by work, and the next steps agree with the body."""

from __future__ import annotations

from cpn_lint.verdict.periphery import peripheral_files, peripheral_kind
from cpn_lint.verdict.gates import Verdict

from .verdict_helpers import finding, report_for, unwrapped

KERNEL = dict(function="flux", compiler="njit", callers=[["step", 40], ["<module>", 52]],
              folded={"CPN101": 1, "CPN105": 6, "CPN201": 1})


def _kernel(line: int = 5, **extra) -> object:
    return finding("CPN112", line, **{**KERNEL, **extra})


def test_numba_kernels_lead_the_reason_and_are_named_with_their_callers() -> None:
    report = report_for({"solver.py": [_kernel(5), finding("CPN105", 60, in_loop=True)],
                         "analysis/compare.py": [finding("CPN104", 12, in_loop=True)],
                         "bc.py": [finding("CPN109", 3)]})
    assert report.verdict is Verdict.SIGNIFICANT
    text = report.summary
    assert "Root causes first: the hot path is 1 Numba-compiled kernel (CPN112: `flux` (solver.py:5))" in text
    assert "must be rewritten as whole-array operations or kept on the host" in text
    assert "the 8 element-level findings inside it are part of that rewrite" in text
    # the analysis script's conversion is named last, and weighs less
    assert text.index("CPN112") < text.index("CPN105 (solver.py:60)") < text.index("Only in analysis scripts")
    assert "CPN104 (analysis/compare.py:12)" in text.split("Only in analysis scripts")[1]
    note = report.verdict_notes[0]
    assert note.startswith("The hot path runs through 1 Numba-compiled kernel (CPN112)")
    assert "`flux` (solver.py:5), handed arrays by `step` (line 40), `<module>` (line 52)" in note


def test_kernels_get_their_own_first_step_and_hot_loops_come_next() -> None:
    report = report_for({"solver.py": [_kernel(5), finding("CPN101", 80, in_loop=True, repeated_by=70),
                                       finding("CPN201", 90, in_loop=True)]})
    titles = [s.title for s in report.next_steps]
    assert titles.index("Rewrite the Numba-compiled kernels, or keep them on the host") < titles.index("Apply RR-loop")
    assert titles.index("Apply RR-loop") < titles.index("Apply RR-alloc")
    assert report.verdict_notes[1].endswith("it is the next thing to rewrite after the compiled kernels.")


def test_folded_findings_count_in_where_the_blocking_work_is_but_not_as_codes() -> None:
    report = report_for({"solver.py": [_kernel(5)], "other.py": [finding("CPN105", 3, in_loop=True),
                                                                   finding("CPN105", 9, in_loop=True)]})
    spots = {s.where: s for s in report.overview.top_files}
    kernel = spots["solver.py"]
    assert kernel.codes == ("CPN112",)
    assert kernel.blocks == 1 + 7 and kernel.fixes == 1  # the kernel, its 7 folded BLOCKS, 1 folded CPN201
    assert kernel.weight == 3 + 7 * 3 * 2 + 1 * 2 > spots["other.py"].weight
    assert report.overview.top_files[0].where == "solver.py"
    # the verdict's count of codes is unchanged by what was folded
    assert report.decision.rule == "few-blocks"


def test_files_outside_the_main_computation_weigh_less() -> None:
    report = report_for({"core.py": [finding("CPN105", 3, in_loop=True)],
                         "logo/logo.py": [finding("CPN105", 3, in_loop=True), finding("CPN105", 5, in_loop=True),
                                          finding("CPN105", 7, in_loop=True)]})
    assert [s.where for s in report.overview.top_files] == ["core.py", "logo/logo.py"]
    assert report.overview.peripheral == [("logo/logo.py", "logo")]


def test_what_is_outside_the_main_computation() -> None:
    assert peripheral_kind("pyro/analysis/sod_compare.py") == "analysis"
    assert peripheral_kind("logo/logo.py") == "logo"
    assert peripheral_kind("scripts/plot_energy.py") == "plotting"
    assert peripheral_kind("src/solver/flux.py") is None
    paths = ["pkg/solver.py", "pkg/demo.ipynb", "analysis/fig.py"]
    assert peripheral_files(paths, paths) == {"pkg/demo.ipynb": "notebook", "analysis/fig.py": "analysis"}
    # a project of notebooks only, or of analysis scripts only, has no periphery
    assert peripheral_files(["a.ipynb", "b.ipynb"], ["a.ipynb", "b.ipynb"]) == {}
    assert peripheral_files(["analysis/a.py"], ["analysis/a.py"]) == {}


def _scales(code: str, line: int, in_loop: bool = False, **data) -> object:
    return finding(code, line, in_loop=in_loop, **data)


def test_dominant_pattern_by_work_not_by_site_count() -> None:
    # two set-up matrix products run once lose to one stencil in the time loop
    findings = [_scales("CPN003", n) for n in range(10, 12)] + [_scales("CPN005", 40, in_loop=True),
                                                               _scales("CPN001", 41, in_loop=True)]
    report = report_for({"a.py": findings})
    row = next(r for r in report.context if r.key == "pattern")
    assert row.value.startswith("stencil (share of the whole-array work: stencil 42% (1 site), gemm 17% (2 sites)")


def test_random_draws_run_once_are_set_up_not_monte_carlo() -> None:
    draws = finding("CPN304", 5, calls=3)
    work = [_scales("CPN001", n, in_loop=True) for n in range(20, 24)]
    report = report_for({"init.py": [draws], "step.py": work})
    row = next(r for r in report.context if r.key == "pattern")
    assert row.value.startswith("not determined: no pattern covers a tenth of the whole-array work")
    looped = report_for({"mc.py": [finding("CPN304", 5, in_loop=True, calls=2), *work]})
    assert next(r for r in looped.context if r.key == "pattern").value.startswith("monte-carlo")


def test_a_file_called_clean_has_nothing_to_fix() -> None:
    # CPN404 stops the ported program: the file with it is not "nothing to fix"
    report = report_for({"sim.py": [finding("CPN404", 4, data_path=True)],
                         "mesh.py": [finding("CPN105", 3, in_loop=True)],
                         "io.py": [_scales("CPN001", 2)]})
    pilot = next(s for s in report.next_steps if s.title == "Port one module first")
    assert "in io.py, which has nothing to fix" in pilot.detail
    only = report_for({"sim.py": [finding("CPN404", 4, data_path=True)]})
    pilot = next(s for s in only.next_steps if s.title == "Port one module first")
    assert "nothing to fix" not in pilot.detail and "once its findings are fixed" in pilot.detail


def test_every_recipe_id_is_explained_in_the_readme_and_under_what_blocks() -> None:
    from cpn_lint.registry import RECIPES
    from cpn_lint.verdict.markdown import render_markdown

    from .conftest import ROOT

    readme = (ROOT / "README.md").read_text()
    for recipe, words in RECIPES.items():
        assert f"| `{recipe}` | {words} |" in readme, recipe
    report = report_for({"a.py": [finding("CPN105", 3, in_loop=True)]})
    assert "- **RR-converge** — test convergence on a Python bool updated every N steps (CPN105)" \
        in render_markdown(report).split("## 3. What blocks")[1]


def test_a_kernel_is_named_with_its_callers_in_other_files(tmp_path, monkeypatch) -> None:
    from cpn_lint.verdict.command import main

    pkg = tmp_path / "solver"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "kernels.py").write_text(
        "import numba\nimport numpy as np\n\n\n@numba.njit\ndef flux(u, f):\n"
        "    for i in range(1, u.shape[0]):\n        f[i] = 0.5 * (u[i] + u[i - 1])\n    return f\n")
    (pkg / "driver.py").write_text(
        "import numpy as np\nimport solver.kernels as kern\n\n\ndef advance(u):\n"
        "    f = np.zeros_like(u)\n    for step in range(100):\n        f = kern.flux(u, f)\n        u = u - 0.1 * f\n"
        "    return u\n")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "report.md"
    assert main(["solver", "--isolated", "-o", str(out)]) == 0
    text = unwrapped(out.read_text())
    assert "`flux` (solver/kernels.py:6), handed arrays by `advance` (solver/driver.py:8)" in text
