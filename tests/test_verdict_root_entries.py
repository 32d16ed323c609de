"""What blocks and API support gaps list root causes, not lines (issue 32, "No inflation").

The host waits a loop meets every iteration (scalar branches and host
conversions in the helpers it calls) are one entry of What blocks, and the
sites of one missing API name are one entry of API support gaps; every
finding stays in the JSON report and the counts still add up (the
consistency tests check every fixture project for that)."""

from __future__ import annotations

import json
import textwrap

from .test_verdict_scope import assert_schema, project, verdict, write  # noqa: F401 (fixture)

SIFTING = textwrap.dedent(
    """\
    import numpy as np


    def extrema(s):
        d = np.diff(s)
        if d[0] > 0:
            return 1
        if np.any(d == 0):
            return 2
        return 0


    def stop(s, old):
        if np.abs(s - old).max() < 1e-6:
            return True
        return float(s[0] - old[0]) == 0.0


    def sift(signal):
        s = signal.copy()
        old = signal * 0.0
        while True:
            extrema(s)
            if stop(s, old):
                break
            old = s
            s = s - s.mean()
        return s
    """
)

SPREAD = textwrap.dedent(
    """\
    import numpy as np


    def spread(a, b):
        return np.std(a) + np.std(b) + np.std(a - b)
    """
)


def test_the_host_waits_of_one_loop_are_one_entry(project, capsys) -> None:
    write(project, {"sift.py": SIFTING})
    _, text, _ = verdict(capsys, "sift.py")
    blocks = text.split("## 3. What blocks")[1].split("## 4.")[0]
    rows = [line for line in blocks.splitlines() if line.startswith("- ")]
    loop_rows = [r for r in rows if "waits on the device at" in r]
    assert len(loop_rows) == 1, rows
    assert "`sift.py:22` (in `sift`) loop `while True:`" in loop_rows[0]
    assert "one root cause" in loop_rows[0]
    assert not [r for r in rows if " CPN105 " in r], rows  # no branch listed apart from its loop

    _, out, _ = verdict(capsys, "sift.py", "--format", "json", raw=True)
    document = json.loads(out)
    assert_schema(document)
    section = document["sections"]["what_blocks"]
    (loop,) = section["loops"]
    assert loop["location"] == {"path": "sift.py", "line": 22, "citation": "sift.py:22"}
    waits = [i for i in section["items"] if i["code"] in ("CPN104", "CPN105", "CPN110")]
    assert sorted(loop["sites"]) == sorted(i["location"]["citation"] for i in waits)  # every site, once
    assert sum(loop["codes"].values()) == len(loop["sites"]) >= 3


def test_a_single_host_wait_stays_a_finding_of_its_own(project, capsys) -> None:
    write(project, {"step.py": textwrap.dedent(
        """\
        import numpy as np


        def run(u, steps):
            for _ in range(steps):
                u = 0.5 * (np.roll(u, 1) + np.roll(u, -1))
                if np.abs(u).max() > 1e3:
                    break
            return u
        """)})
    _, out, _ = verdict(capsys, "step.py", "--format", "json", raw=True)
    section = json.loads(out)["sections"]["what_blocks"]
    assert section["loops"] == []
    assert [i["code"] for i in section["items"]] == ["CPN105"]


def test_the_sites_of_one_missing_name_are_one_gap(project, capsys) -> None:
    write(project, {"spread.py": SPREAD})
    _, text, _ = verdict(capsys, "spread.py")
    gaps = text.split("## 6. API support gaps")[1].split("## 7.")[0]
    rows = [line for line in gaps.splitlines() if line.startswith("- ")]
    assert len(rows) == 1 and rows[0].startswith("- `numpy.std` CPN401 api-not-implemented at 3 sites:"), rows

    _, out, _ = verdict(capsys, "spread.py", "--format", "json", raw=True)
    section = json.loads(out)["sections"]["api_support_gaps"]
    assert len(section["items"]) == 3
    assert section["apis"] == [{"code": "CPN401", "api": "numpy.std", "in_loops": 0,
                                "sites": ["spread.py:5", "spread.py:5", "spread.py:5"]}]


def test_the_findings_of_one_line_are_one_entry(project, capsys) -> None:
    write(project, {"steps.py": "import numpy as np\n\n\ndef mix(n):\n    a = np.arange(n)\n    c = np.ones(n)\n"
                                "    return a[::2] + c[::-1]\n"})
    _, text, _ = verdict(capsys, "steps.py")
    blocks = text.split("## 3. What blocks")[1].split("## 4.")[0]
    rows = [line for line in blocks.splitlines() if line.startswith("- `")]
    assert len(rows) == 1 and rows[0].count("CPN106 strided-slice") == 2, rows
    assert "; on the same line: CPN106 strided-slice:" in rows[0]


SELF_TESTED = textwrap.dedent(
    """\
    import numpy as np


    def scale(a):
        return np.asarray(a) * 2.0


    def test_scale():
        r = np.random.RandomState(0)
        x = r.uniform(size=10)
        y = scale(x)
        for i in range(x.shape[0]):
            assert y[i] == 2 * x[i]
    """
)


def test_a_libraries_own_test_functions_do_not_decide(project, capsys) -> None:
    write(project, {"pkg/core.py": SELF_TESTED})
    _, out, _ = verdict(capsys, "pkg", "--format", "json", raw=True)
    document = json.loads(out)
    assert document["verdict"] == "READY"
    assert document["sections"]["what_blocks"]["items"] == []
    assert any(n.startswith("Set aside: ") and "`test_scale (pkg/core.py)`" in n for n in document["inputs"]["notes"])

    _, out, _ = verdict(capsys, "pkg", "--include-tests", "--format", "json", raw=True)
    document = json.loads(out)
    assert document["verdict"] != "READY"
    assert {i["function"] for i in document["sections"]["what_blocks"]["items"]} == {"test_scale"}
