"""The registry, entry points, rule modules, docs and changelog agree."""

from __future__ import annotations

import ast
import importlib.metadata
import pkgutil
import re
import tomllib

import pytest

from cpn_lint import docs, flake8_plugin, lint_source, rules
from cpn_lint.registry import CODE_PATTERN, RECIPES, Category, Default
from cpn_lint.rules import load_rules

from .conftest import ROOT

RULES = load_rules()


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_entry_points_in_pyproject_equal_registry() -> None:
    declared = _pyproject()["project"]["entry-points"]["flake8.extension"]
    assert sorted(declared) == sorted(RULES)
    for code, target in declared.items():
        assert target == f"cpn_lint.flake8_plugin:{code}"


def test_installed_entry_points_equal_registry() -> None:
    eps = importlib.metadata.entry_points(group="flake8.extension")
    ours = {ep.name for ep in eps if ep.value.startswith("cpn_lint.")}
    assert ours == set(RULES), "reinstall the package (pip install -e .) after adding a rule"


def test_one_rule_module_per_code_named_after_it() -> None:
    modules = [m.name for m in pkgutil.iter_modules(rules.__path__) if m.name.startswith("cpn")]
    by_code = {m[:6].upper(): m for m in modules}
    assert len(by_code) == len(modules), "two modules for one code"
    assert set(by_code) == set(RULES)
    for code, rule in RULES.items():
        assert rule.__module__.endswith(by_code[code])
        assert re.fullmatch(r"cpn\d{3}_[a-z0-9_]+", by_code[code])


@pytest.mark.parametrize("code", list(RULES))
def test_rule_metadata_is_complete(code: str) -> None:
    rule = RULES[code]
    assert CODE_PATTERN.match(rule.code)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.slug)
    assert rule.summary and not rule.summary.endswith(".")
    assert not rule.message.startswith("CPN"), "the code is prefixed in one place only"
    assert rule.recipe is None or rule.recipe in RECIPES
    assert docs.missing_headings(rule) == [], f"{code} doc lacks headings"


def test_slugs_are_unique() -> None:
    slugs = [r.slug for r in RULES.values()]
    assert len(slugs) == len(set(slugs))


def test_emitted_text_starts_with_own_code() -> None:
    for rule in RULES.values():
        for example in rule.invalid:
            for finding in lint_source(example.source, assessment=True):
                assert finding.text.startswith(finding.code + " ")


def test_exactly_one_checker_owns_options() -> None:
    owners = [
        code
        for code, cls in flake8_plugin.CHECKERS.items()
        if hasattr(cls, "add_options") or hasattr(cls, "parse_options")
    ]
    assert owners == ["CPN000"]


def test_docs_pages_are_generated_and_current() -> None:
    directory = ROOT / "docs" / "rules"
    for name, text in docs.expected_pages().items():
        path = directory / name
        assert path.exists(), f"{path} missing: run python -m cpn_lint docs"
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run python -m cpn_lint docs"
    extra = {p.name for p in directory.glob("*.md")} - set(docs.expected_pages())
    assert not extra, f"pages for unknown rules: {extra}"


def test_changelog_mentions_every_code() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    missing = [code for code in RULES if code not in changelog]
    assert not missing, f"CHANGELOG.md does not mention {missing}"


def test_categories_match_code_ranges() -> None:
    expected = {
        "CPN00": Category.SCALES,
        "CPN1": Category.BLOCKS,
        "CPN2": Category.REFACTOR,
        "CPN30": Category.INFO,
        "CPN40": Category.API,
        "CPN41": Category.SCOPE,
    }
    for code, rule in RULES.items():
        if code == "CPN000":
            assert rule.category is Category.INTERNAL
            continue
        prefix = next(p for p in expected if code.startswith(p))
        assert rule.category is expected[prefix], code


def test_assessment_only_codes_are_the_spec_ones() -> None:
    assessment = {c for c, r in RULES.items() if r.default is Default.ASSESSMENT}
    spec = {c for c in RULES if c.startswith(("CPN00", "CPN30"))} - {"CPN000"} | ({"CPN402", "CPN403"} & set(RULES))
    assert assessment == spec


def test_engine_never_imports_flake8() -> None:
    package = ROOT / "cpn_lint"
    for path in package.rglob("*.py"):
        if path.name in ("flake8_plugin.py", "formatters.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("flake8") for a in node.names), path
            if isinstance(node, ast.ImportFrom):  # ``from .flake8_sarif import`` is cpn-lint's own module
                assert node.level or not (node.module or "").startswith("flake8"), path


def test_the_registry_never_imports_the_rules_built_on_it():
    import ast as ast_module

    source = (ROOT / "cpn_lint" / "registry.py").read_text(encoding="utf-8")
    for node in ast_module.walk(ast_module.parse(source)):
        if isinstance(node, ast_module.ImportFrom):
            assert not (node.module or "").startswith("rules") and "rules" not in [a.name for a in node.names]


def test_file_class_and_slug_of_every_rule_agree():
    """``cpn101_element_loop_indexing.py`` holds ``ElementLoopIndexing``, slug
    ``element-loop-indexing``: a newcomer finds any rule in one step."""
    import re

    disagreements = []
    for code, rule in load_rules().items():
        module = rule.__module__.rsplit(".", 1)[1]
        number, _, idiom = module.partition("_")
        words = re.findall(r"[A-Z][a-z0-9]*", rule.__name__)
        as_slug = "-".join(w.lower() for w in words)
        if number != code.lower() or idiom.replace("_", "-") != rule.slug or as_slug != rule.slug:
            disagreements.append(f"{code}: file {module}.py, class {rule.__name__}, slug {rule.slug}")
    assert disagreements == []


def test_every_headline_on_the_fixtures_fits_an_editor_panel():
    """The headline (what flake8 and editors show) names what was found and
    the recipe in at most HEADLINE_LIMIT characters; the whole explanation is
    in --cpn-verbose, the report and the rule page."""
    from cpn_lint.engine import LintOptions, analyze_source
    from cpn_lint.registry import HEADLINE_LIMIT

    too_long = []
    for path in sorted((ROOT / "fixtures").rglob("*.py")):
        for finding in analyze_source(path.read_bytes(), str(path), LintOptions(assessment=True)).findings:
            headline = finding.headline[len(finding.code) + 1:]
            if len(headline) > HEADLINE_LIMIT:
                too_long.append(f"{path.name}:{finding.line} {finding.code} ({len(headline)}): {headline}")
    assert too_long == []


def test_every_rule_has_a_headline_that_names_its_recipe():
    for code, rule in load_rules().items():
        assert rule.short, code
        if rule.recipe:
            assert f"({rule.recipe})" in rule.short, code


@pytest.mark.parametrize("field", [
    "loop 'for key in table[\"x\"] + other_table[name]'",
    "'it\\'s code with an odd number of quote marks in it'",
    "comprehension 'for name, v in zip(labels, values)'",
])
def test_a_cut_code_field_keeps_its_closing_quote(field: str) -> None:
    from cpn_lint.registry import CODE_FIELD_LIMIT, _cut

    cut = _cut(field, CODE_FIELD_LIMIT)
    assert len(cut) <= CODE_FIELD_LIMIT and cut.endswith("…" + field[-1])


@pytest.mark.parametrize(("names", "cut"), [
    ("'c', 'd', 'e', 'f' and 4 more", "'c', 'd', 'e' and 5 more"),
    ("'convolved_image', 'image', 'kernel'", "'convolved_image' and 2 more"),
    ("'a', 'b'", "'a', 'b'"),
])
def test_a_cut_list_of_names_keeps_whole_names_and_counts_the_rest(names: str, cut: str) -> None:
    from cpn_lint.registry import CODE_FIELD_LIMIT, _cut

    assert _cut(names, CODE_FIELD_LIMIT) == cut


def test_out_of_scope_headlines_quote_the_code_not_a_cut_sentence() -> None:
    """CPN410's headline quotes the import, call or loop header; the
    sentence describing the evidence stays in the full message."""
    from cpn_lint.engine import LintOptions, analyze_source

    source = (
        "import numpy as np\nfrom sklearn.cluster import KMeans\n\n"
        "def walk(grid):\n    seen = np.zeros_like(grid)\n    queue = [(0, 0)]\n    while queue:\n"
        "        i, j = queue.pop()\n        for a, b in [(i + 1, j), (i, j + 1)]:\n"
        "            if grid[a, b] and not seen[a, b]:\n                seen[a, b] = 1\n"
        "                queue.append((a, b))\n    return seen\n"
    )
    found = analyze_source(source.encode(), "walk.py", LintOptions()).findings
    headlines = sorted(f.headline for f in found if f.code == "CPN410")
    assert headlines == [
        "CPN410 import sklearn.cluster.KMeans: ML work is outside cuPyNumeric (Gate 4)",
        "CPN410 loop 'while queue': graph work is outside cuPyNumeric (Gate 4)",
    ]
