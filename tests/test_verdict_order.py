"""The decision framework: the verdict order of SPEC §4, the gates, and the
invariants the verdict must keep whatever the findings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpn_lint.verdict import gates as g
from cpn_lint.verdict.context import Context
from cpn_lint.verdict.gates import SizedArray, SizeEvidence, ScopeEvidence, Status, Verdict, decide

from .verdict_helpers import BLOCKS, REFACTOR, finding, report_for, stand_in_rules


@pytest.fixture(autouse=True)
def _stand_ins():
    with stand_in_rules():
        yield


def _decide(**overrides):
    args = dict(gate1_failed=False, gate4_failed=False, gate2_failed=False, blocks_codes=(),
                has_refactor=False, hot_missing_api=False)
    args.update(overrides)
    return decide(**args)


# ------------------------------------------------------------- decide(): order
def test_nothing_found_is_ready():
    d = _decide()
    assert (d.verdict, d.rule, d.demoted) == (Verdict.READY, "clean", False)


def test_a_compiled_kernel_is_the_element_loop_idiom_it_compiles():
    """CPN112 (a Numba kernel taking arrays) is element loops the compiler
    runs: beside CPN101 it is one root cause, not a third idiom."""
    assert g.blocking_idioms(["CPN105", "CPN112", "CPN101"]) == ["CPN101/CPN112", "CPN105"]
    assert _decide(blocks_codes=("CPN101", "CPN105", "CPN112")).verdict is Verdict.LIGHT
    assert _decide(blocks_codes=("CPN101", "CPN105", "CPN112", "CPN103")).verdict is Verdict.SIGNIFICANT


def test_refactor_only_is_light():
    assert _decide(has_refactor=True).verdict is Verdict.LIGHT
    assert _decide(has_refactor=True).rule == "refactor-only"


@pytest.mark.parametrize("codes", [("CPN101",), ("CPN101", "CPN104")])
def test_one_or_two_blocks_codes_are_light(codes):
    d = _decide(blocks_codes=codes, has_refactor=True)
    assert (d.verdict, d.rule) == (Verdict.LIGHT, "few-blocks")


def test_exactly_two_blocks_codes_stay_light_however_many_sites():
    # distinct codes count, not sites: the same two codes repeated are still two
    assert _decide(blocks_codes=["CPN101"] * 9 + ["CPN104"] * 4).verdict is Verdict.LIGHT


def test_three_distinct_blocks_codes_are_significant():
    d = _decide(blocks_codes=("CPN101", "CPN104", "CPN106"))
    assert (d.verdict, d.rule) == (Verdict.SIGNIFICANT, "many-blocks")



def test_mpi4py_alone_is_significant():
    d = _decide(blocks_codes=("CPN108",))
    assert (d.verdict, d.rule) == (Verdict.SIGNIFICANT, "mpi4py")


def test_mpi4py_rule_comes_before_the_blocks_count():
    assert _decide(blocks_codes=("CPN108", "CPN101", "CPN102")).rule == "mpi4py"


def test_gate4_wins_over_everything_but_gate1():
    d = _decide(gate4_failed=True, gate2_failed=True, blocks_codes=("CPN108", "CPN101", "CPN102"))
    assert (d.verdict, d.rule) == (Verdict.NOT_RECOMMENDED, "gate4-pattern")


def test_gate4_is_checked_before_gate2():
    assert _decide(gate4_failed=True, gate2_failed=True).rule == "gate4-pattern"
    assert _decide(gate2_failed=True).rule == "gate2-size"


def test_gate2_wins_over_mpi4py():
    assert _decide(gate2_failed=True, blocks_codes=("CPN108",)).verdict is Verdict.NOT_RECOMMENDED


def test_gate1_failure_is_not_recommended_first():
    d = _decide(gate1_failed=True, gate4_failed=True)
    assert (d.verdict, d.rule) == (Verdict.NOT_RECOMMENDED, "gate1-hardware")


def test_a_pile_of_blocks_never_reaches_not_recommended():
    d = _decide(blocks_codes=[f"CPN1{i:02d}" for i in range(1, 12)], has_refactor=True, hot_missing_api=True)
    assert d.verdict is Verdict.SIGNIFICANT


@pytest.mark.parametrize(
    "overrides, base, demoted",
    [
        ({}, Verdict.READY, Verdict.LIGHT),
        ({"has_refactor": True}, Verdict.LIGHT, Verdict.SIGNIFICANT),
        ({"blocks_codes": ("CPN101",)}, Verdict.LIGHT, Verdict.SIGNIFICANT),
        ({"blocks_codes": ("CPN108",)}, Verdict.SIGNIFICANT, Verdict.SIGNIFICANT),
        ({"blocks_codes": ("CPN101", "CPN102", "CPN103")}, Verdict.SIGNIFICANT, Verdict.SIGNIFICANT),
    ],
)
def test_hot_path_missing_api_demotes_one_tier(overrides, base, demoted):
    d = _decide(hot_missing_api=True, **overrides)
    assert d.base is base and d.verdict is demoted
    assert d.demoted is (base is not demoted)


@pytest.mark.parametrize("gate", ["gate1_failed", "gate4_failed", "gate2_failed"])
def test_demotion_never_touches_not_recommended(gate):
    d = _decide(hot_missing_api=True, **{gate: True})
    assert d.verdict is Verdict.NOT_RECOMMENDED and not d.demoted


def test_demotion_never_reaches_not_recommended():
    for verdict in Verdict:
        if verdict is not Verdict.NOT_RECOMMENDED:
            assert verdict.demoted() is not Verdict.NOT_RECOMMENDED


@pytest.mark.parametrize("text, verdict", [
    ("LIGHT", Verdict.LIGHT), ("light-refactor", Verdict.LIGHT), ("SIGNIFICANT", Verdict.SIGNIFICANT),
    ("NOT-RECOMMENDED", Verdict.NOT_RECOMMENDED), ("not recommended", Verdict.NOT_RECOMMENDED),
    ("ready", Verdict.READY),
])
def test_verdict_names_parse(text, verdict):
    assert Verdict.parse(text) is verdict


@pytest.mark.parametrize("text", ["NOT", "HEAVY", ""])
def test_unknown_verdict_names_are_refused(text):
    with pytest.raises(ValueError):
        Verdict.parse(text)


# ----------------------------------------------------------------- gate 1
@pytest.mark.parametrize("model, cc", [
    ("P100", (6, 0)), ("Tesla P100-PCIE-16GB", (6, 0)), ("V100", (7, 0)), ("A100-SXM4-80GB", (8, 0)),
    ("NVIDIA A10G", (8, 6)), ("H100 NVL", (9, 0)), ("GeForce RTX 4090", (8, 9)), ("l40s", (8, 9)), ("K80", (3, 7)),
])
def test_gpu_models_map_to_compute_capability(model, cc):
    assert g.compute_capability_of(model) == cc


@pytest.mark.parametrize("model", ["A1000X", "Radeon VII", "H1000", ""])
def test_unknown_gpu_models_are_not_guessed(model):
    assert g.compute_capability_of(model) is None


def test_gate1_fails_below_compute_capability_7():
    gate = g.gate1_hardware(Context(gpu_model="P100", compute_capability=(6, 0)))
    assert gate.status is Status.FAIL and "P100" in gate.reason and "7.0" in gate.reason


def test_gate1_passes_from_volta_and_is_uncertain_when_unstated():
    assert g.gate1_hardware(Context(compute_capability=(7, 0))).status is Status.PASS
    assert g.gate1_hardware(Context()).status is Status.UNCERTAIN


def test_gate1_failure_in_a_report_names_the_hardware():
    ctx = Context(gpu_model="P100", compute_capability=(6, 0))
    report = report_for({"a.py": [finding("CPN901", 3)]}, ctx)
    assert report.verdict is Verdict.NOT_RECOMMENDED
    assert "P100" in report.summary and "Gate 1" in report.summary
    # the code-level assessment is still there, for when the hardware is fixed
    assert report.gates[2].status is Status.PARTIAL and "LIGHT REFACTOR" in report.gates[2].reason
    assert report.doctor_command is not None


# ----------------------------------------------------------------- gate 2
def _small(*sizes: int, unknown: bool = False) -> SizeEvidence:
    return SizeEvidence(tuple(SizedArray(f"a.py:{i + 1}", f"np.zeros({n})", n) for i, n in enumerate(sizes)), unknown)


def test_gate2_small_literal_shapes_make_it_uncertain_never_failed():
    # SPEC §4 (revised 2026-11-26): the code's own sizes are demo sizes until the user says otherwise
    gate = g.gate2_size(Context(), _small(9, 4096, 65_535))
    assert gate.status is Status.UNCERTAIN and "give --elements" in gate.reason
    assert gate.evidence == ("a.py:1", "a.py:2", "a.py:3")
    line = g.small_code_sizes(Context(), _small(9, 4096, 65_535))
    assert line is not None and "a.py:3" in line and "65,535 elements" in line
    assert "if production runs are this small, the verdict is NOT RECOMMENDED; give --elements" in line


def test_gate2_small_literal_shapes_say_nothing_once_the_user_gives_a_size():
    ctx = Context(elements=40_000_000, sources={"elements": "command line"})
    assert g.small_code_sizes(ctx, _small(100)) is None


def test_gate2_literal_evidence_needs_every_hot_array_known():
    assert g.gate2_size(Context(), _small(9, 4096, unknown=True)).status is not Status.FAIL


def test_gate2_one_large_hot_array_passes():
    assert g.gate2_size(Context(), _small(9, 65_536)).status is not Status.FAIL


def test_gate2_literal_sizes_are_divided_by_the_given_gpus():
    four = Context(gpus=4, sources={"gpus": "command line"})
    assert g.gate2_size(four, _small(200_000)).status is Status.UNCERTAIN  # 50,000 per GPU, but only literals
    assert g.small_code_sizes(four, _small(200_000)) is not None
    assert g.gate2_size(Context(), _small(200_000)).status is Status.PASS


def test_gate2_given_size_beats_literal_evidence_but_mentions_it():
    ctx = Context(elements=40_000_000, sources={"elements": "command line"})
    gate = g.gate2_size(ctx, _small(100))
    assert gate.status is Status.PASS and "literal" in gate.reason and gate.evidence == ("a.py:1",)


def test_gate2_given_size_below_the_floor_fails():
    ctx = Context(elements=50_000, gpus=1, sources={"elements": "command line", "gpus": "command line"})
    assert g.gate2_size(ctx, SizeEvidence()).status is Status.FAIL


def test_gate2_defaults_pass_and_say_they_are_assumed():
    gate = g.gate2_size(Context(), SizeEvidence())
    assert gate.status is Status.PASS and "assumed" in gate.reason and "--elements" in gate.reason


def test_gate2_partial_when_more_gpus_would_cross_the_floor():
    ctx = Context(elements=200_000, gpus=8, sources={"elements": "command line", "gpus": "command line"})
    gate = g.gate2_size(ctx, SizeEvidence())
    assert gate.status is Status.FAIL  # 25,000 per GPU on all 8
    ctx = Context(elements=200_000, sources={"elements": "command line"})  # 1-4 GPUs: 50,000-200,000
    gate = g.gate2_size(ctx, SizeEvidence())
    assert gate.status is Status.PARTIAL and "3 GPUs or fewer" in gate.reason


# ----------------------------------------------------------------- gate 4
def test_gate4_fails_when_out_of_scope_work_dominates():
    gate = g.gate4_pattern(Context(), ScopeEvidence(("ml", "sparse"), ("t.py:3",), share=0.8))
    assert gate.status is Status.FAIL and "sparse" in gate.reason and gate.evidence == ("t.py:3",)


def test_gate4_is_partial_for_a_minor_out_of_scope_part():
    gate = g.gate4_pattern(Context(), ScopeEvidence(("graph",), ("t.py:3",), share=0.2))
    assert gate.status is Status.PARTIAL


def test_gate4_trusts_a_named_dense_pattern():
    gate = g.gate4_pattern(Context(pattern="stencil"), ScopeEvidence(("ml",), ("t.py:3",), share=0.9))
    assert gate.status is Status.PARTIAL and "stencil" in gate.reason


def test_gate4_mixed_pattern_still_fails_when_dominated():
    assert g.gate4_pattern(Context(pattern="mixed"), ScopeEvidence(("ml",), ("t.py:3",), share=0.9)).failed


def test_gate4_passes_without_evidence():
    assert g.gate4_pattern(Context(), ScopeEvidence()).status is Status.PASS


# ------------------------------------------------------- build_report end to end
def test_report_gate4_before_gate2():
    sizes = _small(10)
    report = report_for({"t.py": [finding("CPN410", 2, kind="ml")]}, size_evidence=sizes)
    assert report.decision.rule == "gate4-pattern"
    assert [gate.status for gate in report.gates] == [
        Status.UNCERTAIN, Status.NA, Status.NA, Status.FAIL, Status.NA, Status.NA]


def test_report_out_of_scope_share_is_weighed_by_lines():
    findings = {"model.py": [finding("CPN410", 2, kind="ml")], "solver.py": [finding("CPN921", 4)]}
    report = report_for(findings)
    assert report.verdict is Verdict.NOT_RECOMMENDED  # two files of 100 lines each: 50% is dominant
    from .verdict_helpers import unit
    from cpn_lint.verdict.report import build_report
    units = [unit("model.py", findings["model.py"], lines=40), unit("solver.py", findings["solver.py"], lines=400)]
    report = build_report(units, Context())
    assert report.verdict is Verdict.READY
    assert report.gates[3].status is Status.PARTIAL


def test_report_single_gpu_api_demotes_only_on_several_nodes():
    findings = {"a.py": [finding("CPN402", 5, in_loop=True, api="linalg.qr")]}
    assert report_for(findings).verdict is Verdict.READY
    many = Context(nodes=2, sources={"nodes": "command line"})
    report = report_for(findings, many)
    assert report.verdict is Verdict.LIGHT and report.decision.demoted
    assert "linalg.qr" in report.summary


def test_report_missing_api_outside_loops_does_not_demote():
    assert report_for({"a.py": [finding("CPN401", 5, in_loop=False, api="x")]}).verdict is Verdict.READY
    assert report_for({"a.py": [finding("CPN401", 5, in_loop=True, api="x")]}).verdict is Verdict.LIGHT


def test_report_rejected_argument_form_in_a_loop_demotes_like_a_missing_api():
    assert report_for({"a.py": [finding("CPN404", 5, in_loop=False)]}).verdict is Verdict.READY
    report = report_for({"a.py": [finding("CPN404", 5, in_loop=True)]})
    assert report.verdict is Verdict.LIGHT and report.decision.demoted


def test_report_recurrence_loops_count_their_iterations_never_zero():
    # SPEC §4: a program whose array work is mostly recurrence loops (an IIR filter, an EWMA) fails Gate 4
    recurrences = [finding("CPN410", 21, in_loop=True, kind="recurrence", regions=[[21, 22]], library_work=0),
                   finding("CPN410", 29, in_loop=True, kind="recurrence", regions=[[29, 30]], library_work=0)]
    report = report_for({"filters.py": [*recurrences, finding("CPN921", 36)]})
    assert report.decision.rule == "gate4-pattern" and "67% of the array work" in report.gates[3].reason
    # one small recurrence beside a dense time loop stays a minor part
    dense = [finding("CPN921", line, in_loop=True) for line in range(40, 50)]
    report = report_for({"sim.py": [recurrences[0], *dense]})
    assert report.gates[3].status is Status.PARTIAL and "2% of the array work" in report.gates[3].reason


def test_report_small_literal_sizes_leave_the_verdict_to_the_default_sizes():
    # a demo script (N = 100) is not NOT RECOMMENDED by default; the verdict section says so in one line
    report = report_for({"a.py": [finding("CPN921", 3)]}, size_evidence=_small(100, 300))
    assert report.verdict is Verdict.READY and report.gates[1].status is Status.UNCERTAIN
    assert report.verdict_notes == [g.small_code_sizes(Context(), _small(100, 300))]
    assert "a.py:2" in report.verdict_notes[0]


def test_report_only_the_users_numbers_fail_gate2():
    ctx = Context(elements=8192, gpus=1, sources={"elements": "command line", "gpus": "command line"})
    report = report_for({"a.py": [finding("CPN921", 3)]}, ctx, size_evidence=_small(8192))
    assert report.verdict is Verdict.NOT_RECOMMENDED and report.decision.rule == "gate2-size"
    assert report.verdict_notes == []


def test_report_a_hot_element_loop_is_one_blocks_code_but_named_as_the_main_work():
    # SPEC §4 (clarified 2026-11-26): the "hot element loop => SIGNIFICANT" rule is withdrawn
    loop = finding("CPN101", 12, in_loop=True, repeated_by=9)
    report = report_for({"a.py": [loop]})
    assert report.verdict is Verdict.LIGHT and report.decision.rule == "few-blocks"
    assert report.verdict_notes == ["The element loop at a.py:12 runs on every pass of the loop at line 9: it is the "
                                    "program's main work, one element at a time, and must go first."]
    assert report.next_steps[0].title == "Apply RR-loop" and report.next_steps[0].citations == ("a.py:12",)


def test_report_counts_distinct_blocks_codes_across_files():
    report = report_for({"a.py": [finding("CPN901", 1), finding("CPN902", 2)], "b.py": [finding("CPN901", 7)]})
    assert report.verdict is Verdict.LIGHT
    report = report_for({"a.py": [finding("CPN901", 1), finding("CPN902", 2)], "b.py": [finding("CPN903", 7)]})
    assert report.verdict is Verdict.SIGNIFICANT


# ------------------------------------------------------------- properties
CODES = list(BLOCKS + REFACTOR) + ["CPN108", "CPN401", "CPN402", "CPN410", "CPN921", "CPN931"]
FINDINGS = st.builds(
    lambda path, code, line, in_loop: (path, finding(code, line, in_loop=in_loop, kind="sparse", api="x")),
    st.sampled_from(["a.py", "b.py", "c.py"]),
    st.sampled_from(CODES),
    st.integers(1, 60),
    st.booleans(),
)
CONTEXTS = st.builds(
    lambda nodes, pattern: Context(nodes=nodes, pattern=pattern),
    st.integers(1, 3),
    st.sampled_from([None, "stencil", "mixed"]),
)


def _report(items, context):
    # The same three NumPy files every time, so only findings vary. (Each has a
    # SCALES finding: without a model, a file counts as NumPy code for Gate 4's
    # share only once it has a finding, which is new information, not a finding
    # making the code better.)
    by_file = {path: [finding("CPN921", 99)] for path in ("a.py", "b.py", "c.py")}
    for path, f in items:
        by_file[path].append(f)
    return report_for(by_file, context)


@settings(max_examples=150, deadline=None)
@given(st.lists(FINDINGS, max_size=12), FINDINGS, CONTEXTS)
def test_adding_a_finding_never_improves_the_verdict(items, extra, context):
    with stand_in_rules():
        before = _report(items, context).verdict
        after = _report(items + [extra], context).verdict
    assert after.rank >= before.rank


@settings(max_examples=100, deadline=None)
@given(st.lists(FINDINGS, max_size=12), st.randoms(use_true_random=False), CONTEXTS)
def test_the_order_of_findings_does_not_matter(items, rnd, context):
    shuffled = list(items)
    rnd.shuffle(shuffled)
    with stand_in_rules():
        a, b = _report(items, context), _report(shuffled, context)
    assert (a.verdict, a.decision, a.summary) == (b.verdict, b.decision, b.summary)
    from cpn_lint.verdict.markdown import render_markdown
    with stand_in_rules():
        assert render_markdown(a) == render_markdown(b)


# ------------------------------------------------------------------- Gate 5
def test_gate5_fails_only_on_enough_loops_none_of_them_on_arrays():
    assert g.gate5_boundary([], loops=3, array_loops=0).status is Status.FAIL
    assert g.gate5_boundary([], loops=2, array_loops=0).status is Status.UNCERTAIN  # too little to go on
    assert g.gate5_boundary([], loops=9, array_loops=1).status is Status.UNCERTAIN
    assert g.gate5_boundary([], loops=None, array_loops=None).status is Status.UNCERTAIN  # flake8 input


def test_gate5_counts_the_loops_on_arrays_in_its_reason():
    assert "the one loop in the program's source works on NumPy arrays" in g.gate5_boundary([], 1, 1).reason
    assert "2 of the 7 loops in the program's source work on NumPy arrays" in g.gate5_boundary([], 7, 2).reason
    assert "loops" not in g.gate5_boundary([], None, None).reason
