"""What the verdict rests on and how the report scales (issue: cpn-verdict on a
real project).

Scope (tests, docs, examples and setup scripts are read but do not decide),
excludes, suppressions (``# noqa`` and flake8's ignore settings), NO VERDICT,
the severity of an element loop that is the hot path, the data-path API
demotion, Gate 4 by share of work, and the report's summary and caps. The
scenario reports are compared with golden files under
``tests/data/verdict/scenarios/``; regenerate them with

    CPN_REGEN_GOLDEN=1 python -m pytest tests/test_verdict_scope.py

and review the diff like code.
"""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from cpn_lint.verdict import command
from cpn_lint.verdict.json_format import load_schema
from cpn_lint.verdict.scope import Role, matches, role_of
from cpn_lint.verdict.suppress import noqa_codes, parse_per_file_ignores

from .conftest import ROOT
from .verdict_helpers import unwrapped

def assert_schema(document: dict) -> None:
    schema = load_schema()
    kind = "no_verdict" if document.get("verdict") is None else "report"
    errors = list(Draft202012Validator({**schema, "oneOf": [{"$ref": f"#/$defs/{kind}"}]}).iter_errors(document))
    assert not errors, [(list(c.absolute_path), c.message[:200]) for e in errors[:5] for c in e.context or [e]]


GOLDEN = ROOT / "tests" / "data" / "verdict" / "scenarios"

ELEMENT_LOOP = textwrap.dedent(
    """\
    import numpy as np


    def smooth(u, n):
        out = np.zeros(n)
        for i in range(1, n - 1):
            out[i] = 0.5 * (u[i - 1] + u[i + 1])
        return out
    """
)
STEPPED = textwrap.dedent(
    """\
    import numpy as np


    def relax(u, steps):
        n = u.shape[0]
        new = np.zeros(n)
        for step in range(steps):
            for i in range(1, n - 1):
                new[i] = 0.5 * (u[i - 1] + u[i + 1])
            u, new = new, u
        return u
    """
)
CLEAN = "import numpy as np\n\n\ndef scale(a):\n    return a * 2.0 + 1.0\n"
VECTORIZE = "import numpy as np\n\nf = np.vectorize(lambda v: v + 1)\n"


def verdict(capsys, *args: str, raw: bool = False) -> tuple[int, str, str]:
    """(exit status, stdout, stderr); a Markdown report with its wrapped
    lines joined unless ``raw``."""
    status = command.main(list(args))
    out, err = capsys.readouterr()
    return status, out if raw or not out.startswith("#") else unwrapped(out), err


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no configuration of the repository leaks in
    return tmp_path


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def golden(name: str, text: str) -> None:
    from .verdict_helpers import dated_lines_removed

    text = dated_lines_removed(text)
    path = GOLDEN / f"{name}.md"
    if os.environ.get("CPN_REGEN_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"{path} missing: run with CPN_REGEN_GOLDEN=1"
    assert text == path.read_text()


# ------------------------------------------------------------------ scope
@pytest.mark.parametrize(
    ("path", "role"),
    [
        ("proj/src/flow.py", Role.SOURCE),
        ("proj/tests/test_flow.py", Role.TESTS),
        ("proj/src/flow_test.py", Role.TESTS),
        ("proj/conftest.py", Role.TESTS),
        ("proj/docs/conf.py", Role.DOCS),
        ("proj/examples/demo.py", Role.EXAMPLES),
        ("proj/gallery/plot_x.py", Role.EXAMPLES),
        ("proj/benchmarks/bench_flow.py", Role.BENCHMARKS),
        ("proj/setup.py", Role.SETUP),
        ("proj/src/testing_utils.py", Role.SOURCE),  # a name, not a tests folder
        # modules a package ships beside its code (breaks-look-2's numdifftools)
        ("proj/pkg/testing.py", Role.TESTS),
        ("proj/pkg/run_benchmark.py", Role.BENCHMARKS),
        ("proj/pkg/profiletools.py", Role.BENCHMARKS),
        ("proj/pkg/example_functions.py", Role.EXAMPLES),
        ("proj/pkg/spline_demo.py", Role.EXAMPLES),
        ("proj/pkg/profile_fit.py", Role.SOURCE),  # a radial profile, not profiling
        ("proj/pkg/demography.py", Role.SOURCE),
    ],
)
def test_roles_come_from_the_path_below_the_folder_named(path: str, role: Role) -> None:
    assert role_of(path, "proj") is role


def test_a_folder_named_on_the_command_line_is_source_whatever_its_name() -> None:
    assert role_of("tests/test_flow.py", "tests") is Role.TESTS  # the file name still says test
    assert role_of("tests/helpers.py", "tests") is Role.SOURCE
    assert role_of("examples/demo.py", None) is Role.SOURCE


def test_excludes_match_as_flake8_does(project) -> None:
    write(project, {"pkg/legacy/old.py": "", "pkg/new.py": ""})
    assert matches("pkg/legacy/old.py", ["legacy"], "pkg") == "legacy"
    assert matches("pkg/legacy/old.py", ["*.py"], "pkg") == "*.py"
    assert matches("pkg/legacy/old.py", ["pkg/legacy"], "pkg") == "pkg/legacy"
    assert matches("pkg/new.py", ["legacy", "old.py"], "pkg") is None
    assert matches("pkg/new.py", ["pkg"], "pkg") is None  # the folder named is never excluded


def test_tests_and_examples_are_counted_but_do_not_decide(project, capsys) -> None:
    write(project, {"src/model.py": CLEAN, "tests/test_model.py": STEPPED, "examples/demo.py": VECTORIZE})
    status, out, _ = verdict(capsys, ".")
    assert status == 0 and "**READY**" in out
    assert "tests 1 file (2 findings, 1 blocking), examples 1 file (1 finding, 1 blocking)" in out
    assert "test_model.py" not in out.split("## 2.")[1]  # no site of a test in the sections
    status, out, _ = verdict(capsys, ".", "--include-tests")
    assert "**LIGHT REFACTOR**" in out  # two BLOCKS codes (CPN101, CPN102) from the test and the example


def test_include_tests_and_exclude_from_config(project, capsys) -> None:
    write(project, {"src/model.py": CLEAN, "tests/test_model.py": VECTORIZE, "src/vendor/x.py": STEPPED})
    (project / "pyproject.toml").write_text('[tool.cpn-lint]\ninclude-tests = true\nexclude = ["vendor"]\n')
    status, out, _ = verdict(capsys, ".")
    assert "**LIGHT REFACTOR**" in out and "src/vendor/x.py" not in out
    assert "**Excluded, not read:** 1 files by `vendor` (1)." in out


def test_flake8_excludes_apply(project, capsys) -> None:
    write(project, {"src/model.py": CLEAN, "src/generated/big.py": STEPPED})
    (project / "setup.cfg").write_text("[flake8]\nextend-exclude = generated\n")
    status, out, _ = verdict(capsys, ".")
    assert "**READY**" in out and "by `generated`" in out
    assert verdict(capsys, ".", "--isolated")[1].count("**LIGHT REFACTOR**") == 1


def test_a_folder_of_examples_only_still_gets_a_verdict(project, capsys) -> None:
    write(project, {"examples/demo.py": VECTORIZE})
    status, out, _ = verdict(capsys, ".")
    assert "**LIGHT REFACTOR**" in out
    assert "the tests, docs and examples found decide the verdict" in out


# ----------------------------------------------------------- suppressions
@pytest.mark.parametrize(
    ("line", "codes"),
    [
        ("x = 1  # noqa", ()),
        ("x = 1  # noqa: CPN101", ("CPN101",)),
        ("x = 1  # NOQA:CPN101,CPN104", ("CPN101", "CPN104")),
        ("x = 1  # noqa: CPN101 E501", ("CPN101", "E501")),
        ("x = 1  # a comment", None),
    ],
)
def test_noqa_comments(line: str, codes) -> None:
    assert noqa_codes(line) == codes


def test_per_file_ignores_parse_like_flake8() -> None:
    value = "\n    tests/*: CPN101,E501\n    scripts/run.py:CPN2\n    docs/*.py: CPN1 CPN4"
    assert parse_per_file_ignores(value) == [
        ("tests/*", ("CPN101", "E501")), ("scripts/run.py", ("CPN2",)), ("docs/*.py", ("CPN1", "CPN4"))]


def test_suppressions_apply_and_are_counted(project, capsys) -> None:
    noqa = STEPPED.replace("        for i in range(1, n - 1):", "        for i in range(1, n - 1):  # noqa: CPN101")
    assert noqa != STEPPED
    write(project, {"a.py": noqa, "b.py": ELEMENT_LOOP, "c.py": VECTORIZE, "d.py": "# flake8: noqa\n" + VECTORIZE})
    (project / "setup.cfg").write_text("[flake8]\nper-file-ignores =\n    b.py: CPN1\nextend-ignore = CPN102\n")
    # suppressions keep findings out of flake8's output, not out of the verdict (issue 25)
    status, out, _ = verdict(capsys, ".", "--fail-on", "LIGHT")
    assert status == 1 and "**LIGHT REFACTOR** — two blocking idioms (CPN101, CPN102)" in out
    assert "- **Accepted, still weighed:** 4 findings (flake8 ignore settings 2, `# flake8: noqa` 1, `# noqa` 1): " in out
    golden("suppressions", verdict(capsys, ".", raw=True)[1])
    status, out, _ = verdict(capsys, ".", "--isolated")
    assert "- **Accepted, still weighed:** 2 findings (`# flake8: noqa` 1, `# noqa` 1)" in out  # without config too
    document = json.loads(verdict(capsys, ".", "--format", "json")[1])
    assert_schema(document)
    suppressed = document["overview"]["suppressed"]
    assert suppressed["total"] == 4 and suppressed["still_weighed"] and suppressed["by_kind"] == {
        "config": 2, "file noqa": 1, "noqa": 1}
    assert document["overview"]["false_alarms"] == []


def test_only_a_stated_reason_takes_a_finding_out_of_the_verdict(project, capsys) -> None:
    reasoned = STEPPED.replace("        for i in range(1, n - 1):",
                               "        for i in range(1, n - 1):  # noqa: CPN101 not hot: runs once per file")
    assert reasoned != STEPPED
    write(project, {"a.py": reasoned, "b.py": ELEMENT_LOOP})
    status, out, _ = verdict(capsys, ".", "--isolated")
    assert "**LIGHT REFACTOR**" in out  # b.py's loop is still there
    assert "- **Declared false alarms, not weighed:** 1: `a.py:8` CPN101: not hot: runs once per file." in out
    (project / "pyproject.toml").write_text(
        '[tool.cpn-lint]\nfalse-alarms = ["b.py:6: CPN101 three cells, a boundary fix-up", "b.py:99: CPN104 gone"]\n')
    status, out, err = verdict(capsys, ".")
    assert "**READY**" in out and "`b.py:6` CPN101: three cells, a boundary fix-up" in out
    assert "false-alarms entry 'b.py:99: CPN104' names no finding" in out
    document = json.loads(verdict(capsys, ".", "--format", "json")[1])
    assert_schema(document)
    assert [(a["path"], a["line"], a["by"]) for a in document["overview"]["false_alarms"]] == [
        ("a.py", 8, "noqa"), ("b.py", 6, "false-alarm list")]
    (project / "pyproject.toml").write_text('[tool.cpn-lint]\nfalse-alarms = ["b.py:6: CPN101"]\n')
    status, _, err = verdict(capsys, ".")
    assert status == 2 and "the reason is required" in err


# -------------------------------------------------------------- NO VERDICT
def test_a_missing_path_is_a_usage_error(project, capsys) -> None:
    status, out, err = verdict(capsys, "nowhere/")
    assert (status, out) == (2, "") and err == "cpn-verdict: nowhere/: no such file or directory\n"


def test_an_empty_folder_gives_no_verdict(project, capsys) -> None:
    (project / "empty").mkdir()
    status, out, err = verdict(capsys, "empty")
    assert status == 2
    assert out.startswith("# cuPyNumeric migration readiness: NO VERDICT")
    for word in ("READY", "LIGHT", "SIGNIFICANT", "NOT RECOMMENDED"):
        assert word not in out
    assert err == "cpn-verdict: NO VERDICT: no Python file or notebook was found under the paths given\n"


def test_a_folder_whose_only_file_does_not_parse_gives_no_verdict(project, capsys) -> None:
    write(project, {"broken.py": "def f(:\n"})
    status, out, err = verdict(capsys, ".")
    assert status == 2 and "NO VERDICT" in out and "broken.py: does not parse" in out
    golden("no_verdict", out)
    status, out, _ = verdict(capsys, ".", "--format", "json")
    document = json.loads(out)
    assert document["verdict"] is None and document["no_verdict"] == "no Python file could be read"
    assert_schema(document)


def test_code_without_numpy_gives_no_verdict_but_is_not_an_error(project, capsys) -> None:
    write(project, {"tool.py": "import os\nprint(os.getcwd())\n"})
    status, out, err = verdict(capsys, ".", "--fail-on", "LIGHT")
    assert status == 0 and "NO VERDICT" in out and "none of the files read uses NumPy" in err


# -------------------------------------------------------------- severity
def test_an_element_loop_that_is_the_hot_path_is_one_blocks_code_named_as_the_main_work(project, capsys) -> None:
    # SPEC §4 (clarified 2026-11-26): one element loop is one recipe-fixable BLOCKS however hot it is
    write(project, {"relax.py": STEPPED})
    status, out, _ = verdict(capsys, ".")
    assert "**LIGHT REFACTOR** — one blocking idiom (CPN101)" in out
    assert "> The element loop at relax.py:8 (in relax) runs on every pass of the loop at line 7: it is the " \
           "program's main work, one element at a time, and must go first." in out
    assert "1. **Apply RR-loop**" in out


def test_an_element_loop_run_once_stays_light(project, capsys) -> None:
    write(project, {"smooth.py": ELEMENT_LOOP})
    assert "**LIGHT REFACTOR**" in verdict(capsys, ".")[1]


def test_a_missing_api_on_the_data_path_demotes_but_not_at_a_boundary(project, capsys) -> None:
    data_path = "import numpy as np\n\n\ndef area(y, x, xs):\n    return np.interp(xs, x, y)\n"
    boundary = "import numpy as np\n\n\ndef load(path):\n    return np.genfromtxt(path)\n"
    write(project, {"area.py": data_path})
    assert "**LIGHT REFACTOR** — no idiom blocks scaling" in verdict(capsys, "area.py")[1]
    write(project, {"load.py": boundary})
    assert "**READY**" in verdict(capsys, "load.py")[1]


def test_gate4_weighs_the_share_of_work_not_the_file(project, capsys) -> None:
    dense = textwrap.dedent(
        """\
        import numpy as np
        import scipy.sparse as sp


        def laplacian(n):
            return sp.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(n, n))


        def step(u, v, dt, steps):
            for _ in range(steps):
                v += dt * (np.roll(u, 1) + np.roll(u, -1) - 2.0 * u)
                u += dt * v
                np.clip(u, -1.0, 1.0, out=u)
                energy = np.sum(u * u) + np.sum(v * v)
            return u, v, energy
        """
    )
    write(project, {"wave.py": dense})
    status, out, _ = verdict(capsys, ".")
    assert "- **4. Compute pattern** — partial: mixed: sparse matrices covering " in out
    assert "NOT RECOMMENDED" not in out.split("### Summary")[0]


def test_gate4_a_numpy_model_on_scikit_learn_toy_data_is_not_ml_dominated(project, capsys) -> None:
    kmeans = textwrap.dedent(
        """\
        import numpy as np
        from sklearn.datasets import make_blobs


        def fit(X, k, steps):
            centroids = X[:k].copy()
            for _ in range(steps):
                labels = np.argmin(((X[:, None, :] - centroids) ** 2).sum(axis=2), axis=1)
                centroids = np.stack([X[labels == c].mean(axis=0) for c in range(k)])
            return centroids


        X, _ = make_blobs(n_samples=500, centers=3)
        print(fit(X, 3, 50))
        """
    )
    write(project, {"kmeans.py": kmeans})
    report = json.loads(verdict(capsys, ".", "--format", "json")[1])
    assert report["sections"]["what_blocks"]["out_of_scope"] == []  # a data utility is no ML evidence
    gate4 = next(g for g in report["sections"]["decision_framework"]["gates"] if g["number"] == 4)
    assert gate4["status"] == "✓" and report["verdict"] != "NOT RECOMMENDED"


# ------------------------------------------------------------ report size
def test_a_large_project_gives_a_short_report_with_capped_lists(project, capsys) -> None:
    for k in range(120):
        write(project, {f"pkg/mod{k:03d}.py": STEPPED + ELEMENT_LOOP.replace("def smooth", f"def smooth{k}")
                        + f"\n\ndef conv{k}(a):\n    return float(np.sum(a)) + np.vectorize(abs)(a).sum()\n"})
    status, out, _ = verdict(capsys, ".", raw=True)
    lines = out.splitlines()
    assert len(lines) < 400 and max(len(line) for line in lines) <= 200
    assert "… and " in out and "more CPN101" in out
    assert "- … and 100 more files (`--format json` lists every site)." in out
    assert "(in `relax`)" in out
    document = json.loads(verdict(capsys, ".", "--format", "json")[1])
    assert len(document["sections"]["what_blocks"]["items"]) >= 360  # the JSON keeps every site
    assert_schema(document)
    assert len(document["overview"]["top_files"]) == 10 and document["overview"]["files_deciding"] == 120
    assert {i["function"] for i in document["sections"]["what_blocks"]["items"]} >= {"relax", "smooth0"}
    golden("large_project", "\n".join(lines[:60]) + "\n")


def test_sites_are_ranked_loops_first_and_never_repeated(project, capsys) -> None:
    write(project, {"a.py": "import numpy as np\n\n\ndef f(a):\n    return np.interp(0.5, a, a) + np.interp(0.5, a, a)\n",
                    "b.py": STEPPED})
    out = verdict(capsys, ".")[1]
    blocks = out.split("## 3. What blocks")[1].split("## 4.")[0]
    rows = [line for line in blocks.splitlines() if line.startswith("- `")]
    assert rows and rows[0].startswith("- `b.py:8` (in `relax`)")
    gaps = out.split("## 6. API support gaps")[1].split("## 7.")[0]
    assert gaps.count("`a.py:5`") == 2  # two calls on one line: two sites, each once


def test_false_alarms_name_a_line_a_function_or_a_whole_file(project, capsys) -> None:
    two = STEPPED + ELEMENT_LOOP.replace("import numpy as np\n", "")
    write(project, {"a.py": two, "b.py": ELEMENT_LOOP, "c.py": VECTORIZE})
    (project / "pyproject.toml").write_text(
        '[tool.cpn-lint]\nfalse-alarms = [\n'
        '  "a.py::relax: CPN101 the sweep runs on three cells",\n'
        '  "b.py: CPN101 a generated file, ported by hand",\n'
        '  "c.py:3: CPN102 runs once at import",\n'
        '  "a.py::nowhere: CPN101 gone",\n]\n')
    status, out, _ = verdict(capsys, ".", "--format", "json")
    document = json.loads(out)
    declared = [(a["path"], a["line"], a["code"], a["reason"]) for a in document["overview"]["false_alarms"]]
    assert declared == [("a.py", 8, "CPN101", "the sweep runs on three cells"),
                        ("b.py", 6, "CPN101", "a generated file, ported by hand"),
                        ("c.py", 3, "CPN102", "runs once at import")]
    left = [i["location"]["citation"] for i in document["sections"]["what_blocks"]["items"]]
    assert left == ["a.py:16"]  # smooth(), the other function of a.py, is still weighed
    assert any("false-alarms entry 'a.py::nowhere: CPN101' names no finding" in n
               for n in document["inputs"]["notes"])
    (project / "pyproject.toml").write_text('[tool.cpn-lint]\nfalse-alarms = ["a.py::relax CPN101 no colon"]\n')
    status, _, err = verdict(capsys, ".")
    assert status == 2 and "'PATH::FUNCTION: CODE reason'" in err


RIDGE_BESIDE_STENCIL = """\
import numpy as np
from sklearn import linear_model

u = np.random.rand(4000, 4000)
for step in range(500):
    u[1:-1, 1:-1] = 0.25 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2])
    u = np.clip(u, 0.0, 1.0)
    u *= 0.999

clf = linear_model.{estimator}
clf.fit(u[:, :8], u[:, 9])
print(clf.coef_)
"""


@pytest.mark.parametrize(("estimator", "dominant"), [("Ridge(alpha=0.5)", False), ("SGDRegressor(max_iter=1000)", True)])
def test_gate4_a_closed_form_fit_is_one_pass_and_a_trained_one_is_not(project, capsys, estimator, dominant) -> None:
    """A ridge fit is a direct solve (one pass over the data, like any host
    call); an estimator trained by iterations passes over it many times."""
    write(project, {"tie.py": RIDGE_BESIDE_STENCIL.replace("{estimator}", estimator)})
    report = json.loads(verdict(capsys, ".", "--format", "json")[1])
    gate4 = next(g for g in report["sections"]["decision_framework"]["gates"] if g["number"] == 4)
    assert (gate4["status"] == "✗") is dominant, gate4
