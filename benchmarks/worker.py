"""Measurement tasks that run inside the benchmark interpreter (``python -m benchmarks.worker``).

Each task prints one JSON document on stdout. The orchestrator (``cli``) runs
every task in a fresh child process, so one measurement never warms or
pollutes another, and the child's peak memory can be read when it exits.

Tasks:
  probe                    versions, the rule registry, installed CPN entry points
  locate PACKAGE           where an installed package's sources are (without importing it)
  throughput SPEC          engine vs ast.parse over the corpus, interleaved per file
  rules SPEC               time of the model and of each rule's check(), in engine order
  profile SPEC             cProfile of the engine over the corpus: hot functions and areas
  scaling                  engine and parse time per line on synthetic files of several sizes
  engine-memory SPEC       one engine pass over the corpus (its peak RSS is read by the caller)

SPEC is a JSON file ``{"root": DIR, "files": [relative paths]}``.
"""

from __future__ import annotations

import argparse
import ast
import gc
import importlib.metadata
import importlib.util
import json
import re
import sys
import sysconfig
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any, Callable

# Parsing someone else's code can warn (invalid escapes, `is` with a literal);
# those are not measurements.
warnings.simplefilter("ignore")


def _load(spec_path: str) -> list[tuple[str, bytes]]:
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    root = Path(spec["root"])
    return [(rel, (root / rel).read_bytes()) for rel in spec["files"]]


def _parseable(files: list[tuple[str, bytes]]) -> tuple[list[tuple[str, bytes]], list[str]]:
    """Files ``ast.parse`` accepts (the same set for both sides of a ratio)."""
    good, bad = [], []
    for rel, data in files:
        try:
            ast.parse(data, filename=rel)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            bad.append(rel)
        else:
            good.append((rel, data))
    return good, bad


def _lines(data: bytes) -> int:
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def _options() -> Any:
    from cpn_lint.engine import LintOptions

    return LintOptions(assessment=True)


# ----------------------------------------------------------------- probe
def task_probe(_: argparse.Namespace) -> dict[str, Any]:
    def version(dist: str) -> str | None:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return None

    import cpn_lint
    from cpn_lint.rules import load_rules

    entry_points = sorted(
        ep.name for ep in importlib.metadata.entry_points(group="flake8.extension") if ep.name.startswith("CPN")
    )
    return {
        "python": sys.version.split()[0],
        "implementation": sys.implementation.name,
        "executable": sys.executable,
        "scripts": sysconfig.get_path("scripts"),
        "cpn_lint": getattr(cpn_lint, "__version__", None),
        "cpn_lint_path": str(Path(cpn_lint.__file__).resolve().parent),
        "registry": sorted(load_rules()),
        "entry_points": entry_points,
        **{key: version(dist) for key, dist in (
            ("flake8", "flake8"), ("pycodestyle", "pycodestyle"), ("pyflakes", "pyflakes"),
            ("mccabe", "mccabe"), ("ast_grep_py", "ast-grep-py"), ("scipy", "scipy"), ("numpy", "numpy"),
        )},
    }


def task_locate(ns: argparse.Namespace) -> dict[str, Any]:
    # find_spec of a top-level package reads the file system; it does not run the package.
    spec = importlib.util.find_spec(ns.package)
    if spec is None or not spec.submodule_search_locations:
        return {"root": None, "version": None}
    try:
        version = importlib.metadata.version(ns.package)
    except importlib.metadata.PackageNotFoundError:
        version = None
    return {"root": str(Path(list(spec.submodule_search_locations)[0]).resolve()), "version": version}


# ------------------------------------------------------------ throughput
def task_throughput(ns: argparse.Namespace) -> dict[str, Any]:
    from cpn_lint.engine import analyze_source

    files, unparseable = _parseable(_load(ns.spec))
    options = _options()
    codes: Counter[str] = Counter()
    for rel, data in files:  # warm-up pass: imports, lazily built tables, page cache
        codes.update(f.code for f in analyze_source(data, rel, options).findings)
    leaked = _live_models()
    parse_samples: list[float] = []
    engine_samples: list[float] = []
    clock = time.perf_counter
    for rep in range(ns.repeat):
        gc.collect()
        parse_total = engine_total = 0.0
        parse_first = rep % 2 == 0  # alternate which side meets a warm cache first
        for rel, data in files:
            if parse_first:
                t0 = clock()
                ast.parse(data, filename=rel)
                t1 = clock()
                analyze_source(data, rel, options)
                t2 = clock()
                parse_total += t1 - t0
                engine_total += t2 - t1
            else:
                t0 = clock()
                analyze_source(data, rel, options)
                t1 = clock()
                ast.parse(data, filename=rel)
                t2 = clock()
                engine_total += t1 - t0
                parse_total += t2 - t1
        parse_samples.append(parse_total)
        engine_samples.append(engine_total)
    return {
        "files": len(files),
        "unparseable": unparseable,
        "lines": sum(_lines(d) for _, d in files),
        "parse_s": parse_samples,
        "engine_s": engine_samples,
        "findings": dict(sorted(codes.items())),
        "models_alive_after_warm_up": leaked,
    }


def _live_models() -> int:
    """How many ``FileModel`` objects survive a full collection once their
    files are done: anything above zero is a leak, and the heap (and every
    later collection) grows with the corpus."""
    from cpn_lint.model import FileModel

    gc.collect()
    return sum(1 for obj in gc.get_objects() if isinstance(obj, FileModel))


# ----------------------------------------------------------------- rules
class StageTimer:
    """Time each stage of the engine separately, in the engine's own order.

    Mirrors ``cpn_lint.engine._run``: decode and parse, the relevance test,
    the model, then every selected rule's ``check()`` over the one model. The
    model answers most questions lazily and memoises them, so a rule's time
    includes the answers it is the first to ask for.
    """

    def __init__(self) -> None:
        from cpn_lint import engine
        from cpn_lint.rules import load_rules

        options = _options()
        self._engine = engine
        self._rules = [
            cls for code, cls in load_rules().items()
            if code != engine.INTERNAL_ERROR and options.wants(code, cls.default)
        ]
        self._relevant: re.Pattern[bytes] | None = getattr(engine, "_RELEVANT", None)
        self.stages = {"decode_parse": 0.0, "model": 0.0}
        self.rules = {cls.code: 0.0 for cls in self._rules}
        self.errors: Counter[str] = Counter()
        self.skipped = self.structural_files = 0
        self.structural_s = 0.0

    def add(self, name: str, source: bytes | str) -> None:
        from cpn_lint.model import FileModel

        clock = time.perf_counter
        t0 = clock()
        text = self._engine.decode_source(source) if isinstance(source, bytes) else source
        tree = self._engine.parse(text, name)
        self.stages["decode_parse"] += clock() - t0
        if self._relevant is not None and not self._relevant.search(text.encode("utf-8", "surrogatepass")):
            self.skipped += 1
            return
        t0 = clock()
        model = FileModel(tree, text, name)
        self.stages["model"] += clock() - t0
        for cls in self._rules:
            t0 = clock()
            try:
                list(cls().check(model))
            except Exception:  # the engine contains these as CPN000; count them
                self.errors[cls.code] += 1
            self.rules[cls.code] += clock() - t0
        structural = model.__dict__.get("structural")
        if structural is not None and getattr(structural, "_root", None) is not None:
            # The first rule to use ast-grep paid for its parse; time one more to say how much.
            from ast_grep_py import SgRoot

            self.structural_files += 1
            t0 = clock()
            SgRoot(text, "python").root()
            self.structural_s += clock() - t0

    def parts(self) -> dict[str, float]:
        """Seconds per part: the two stages, then one entry per rule code."""
        return {"decode_parse": self.stages["decode_parse"], "model": self.stages["model"], **self.rules}


def task_rules(ns: argparse.Namespace) -> dict[str, Any]:
    files, _ = _parseable(_load(ns.spec))
    timer = StageTimer()
    for rel, data in files:
        timer.add(rel, data)
    return {
        "files": len(files),
        "skipped_irrelevant": timer.skipped,
        "stages_s": timer.stages,
        "rules_s": timer.rules,
        "rule_errors": dict(timer.errors),
        "ast_grep_parse": {"files": timer.structural_files, "estimated_s": timer.structural_s},
    }


# --------------------------------------------------------------- profile
_BUILTIN = re.compile(r"^<(?:built-in method|method) '?([\w.]+)'?")


def _area(filename: str, function: str) -> str:
    """Which part of the pipeline a profiled function belongs to."""
    path = filename.replace("\\", "/")
    if filename == "~":
        if "compile" in function:
            return "ast.parse (compile)"
        if "ast_grep" in function or "Sg" in function:
            return "ast-grep"
        return "builtins"
    match = re.search(r"cpn_lint/(model|rules|verdict)/([\w]+)\.py$", path)
    if match:
        kind, module = match.groups()
        if kind == "rules":
            code = re.match(r"cpn\d{3}", module)
            return f"rule {code.group(0).upper()}" if code else f"rules ({module})"
        return f"{kind} ({module})" if kind == "model" else kind
    if re.search(r"cpn_lint/\w+\.py$", path):
        return "engine"
    if path.endswith("/ast.py"):
        return "ast module (walk, iter_child_nodes, ...)"
    if "ast_grep" in path:
        return "ast-grep"
    if filename == "<string>":
        return "generated __init__ (dataclasses)"
    return f"other ({Path(path).name})"


def _label(filename: str, line: int, function: str) -> str:
    path = filename.replace("\\", "/")
    marker = path.rfind("cpn_lint/")
    if marker >= 0:
        path = path[marker:]
    elif filename != "~":
        path = Path(filename).name
    return function if filename == "~" else f"{path}:{line}({function})"


def task_profile(ns: argparse.Namespace) -> dict[str, Any]:
    import cProfile
    import pstats

    from cpn_lint.engine import analyze_source

    files, _ = _parseable(_load(ns.spec))
    options = _options()
    for rel, data in files[:20]:  # imports and one-time tables stay out of the profile
        analyze_source(data, rel, options)
    profiler = cProfile.Profile()
    profiler.enable()
    for rel, data in files:
        analyze_source(data, rel, options)
    profiler.disable()
    stats = pstats.Stats(profiler)
    rows = []
    areas: Counter[str] = Counter()
    total = 0.0
    for (filename, line, function), (_, ncalls, tottime, cumtime, _) in stats.stats.items():  # type: ignore[attr-defined]
        total += tottime
        areas[_area(filename, function)] += tottime
        rows.append({"function": _label(filename, line, function), "calls": ncalls,
                     "self_s": tottime, "cumulative_s": cumtime, "ours": "cpn_lint/" in filename.replace("\\", "/")})
    by_self = sorted(rows, key=lambda r: -r["self_s"])[: ns.top]
    ours = [r for r in rows if r["ours"] and not r["function"].startswith(("cpn_lint/engine.py",))]
    by_cumulative = sorted(ours, key=lambda r: -r["cumulative_s"])[: ns.top]
    return {
        "files": len(files),
        "profiled_s": total,
        "areas": [{"area": a, "self_s": s, "share": s / total if total else 0.0} for a, s in areas.most_common()],
        "top_self": by_self,
        "top_cumulative_ours": by_cumulative,
    }


# --------------------------------------------------------------- scaling
_SAMPLE_LINES = 20_000


def task_scaling(ns: argparse.Namespace) -> dict[str, Any]:
    from cpn_lint.engine import analyze_source

    from .synth import generate, line_count

    sizes = [int(s) for s in ns.sizes.split(",")]
    options = _options()
    sources = {size: generate(size, ns.seed) for size in sizes}
    lines = {size: line_count(src) for size, src in sources.items()}
    # Small files are analysed several times in a row per sample (as many
    # lines in all as the largest file, up to _SAMPLE_LINES), so their
    # per-line time is not timer noise.
    work = min(_SAMPLE_LINES, max(lines.values()))
    copies = {size: max(1, round(work / lines[size])) for size in sizes}
    engine_us: dict[int, list[float]] = {size: [] for size in sizes}
    paused_us: dict[int, list[float]] = {size: [] for size in sizes}
    parse_us: dict[int, list[float]] = {size: [] for size in sizes}
    findings = {size: len(analyze_source(src, f"synthetic_{size}.py", options).findings) for size, src in sources.items()}
    clock = time.perf_counter

    def per_line(fn: Callable[[], object], size: int, pause_gc: bool = False) -> float:
        gc.collect()
        if pause_gc:
            gc.disable()
        try:
            t0 = clock()
            for _ in range(copies[size]):
                fn()
            elapsed = clock() - t0
        finally:
            gc.enable()
        return elapsed / (copies[size] * lines[size]) * 1e6

    for rep in range(ns.repeat):
        order = sizes[rep % len(sizes):] + sizes[: rep % len(sizes)]  # rotate who goes first
        for size in order:
            src = sources[size]
            name = f"synthetic_{size}.py"
            engine_us[size].append(per_line(lambda: analyze_source(src, name, options), size))
            parse_us[size].append(per_line(lambda: ast.parse(src, filename=name), size))
            # Without the cyclic collector: what is left of any growth is the engine's own.
            paused_us[size].append(per_line(lambda: analyze_source(src, name, options), size, pause_gc=True))
    return {
        "seed": ns.seed,
        "parts_gc_paused": _parts_growth(sources, lines, copies, sizes[0], sizes[-1]),
        "sizes": [
            {"target_lines": size, "lines": lines[size], "copies_per_sample": copies[size], "findings": findings[size],
             "engine_us_per_line": engine_us[size], "engine_gc_paused_us_per_line": paused_us[size],
             "parse_us_per_line": parse_us[size]}
            for size in sizes
        ],
    }


def _parts_growth(sources: dict[int, str], lines: dict[int, int], copies: dict[int, int],
                  small: int, large: int) -> list[dict[str, Any]]:
    """Per-line time of each engine part at the smallest and the largest size,
    with the collector paused: a part whose time per line grows with the file
    scans something quadratically."""
    per_line: dict[int, dict[str, float]] = {}
    for size in (small, large):
        timer = StageTimer()
        gc.collect()
        gc.disable()
        try:
            for _ in range(copies[size]):
                timer.add(f"synthetic_{size}.py", sources[size])
        finally:
            gc.enable()
        work = copies[size] * lines[size]
        per_line[size] = {part: seconds / work * 1e6 for part, seconds in timer.parts().items()}
    rows = []
    for part, small_us in per_line[small].items():
        large_us = per_line[large][part]
        rows.append({"part": part, "small_us_per_line": small_us, "large_us_per_line": large_us,
                     "growth": large_us / small_us if small_us > 0 else None})
    return rows


# --------------------------------------------------------- engine memory
def task_engine_memory(ns: argparse.Namespace) -> dict[str, Any]:
    from cpn_lint.engine import analyze_source

    spec = json.loads(Path(ns.spec).read_text(encoding="utf-8"))
    root = Path(spec["root"])
    options = _options()
    count = 0
    for rel in spec["files"]:  # read one file at a time, as cpn-verdict does
        count += len(analyze_source((root / rel).read_bytes(), rel, options).findings)
    return {"files": len(spec["files"]), "findings": count}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.worker", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="task", required=True)
    sub.add_parser("probe").set_defaults(fn=task_probe)
    locate = sub.add_parser("locate")
    locate.add_argument("package")
    locate.set_defaults(fn=task_locate)
    for name, fn in (("throughput", task_throughput), ("rules", task_rules), ("profile", task_profile),
                     ("engine-memory", task_engine_memory)):
        task = sub.add_parser(name)
        task.add_argument("spec")
        task.add_argument("--repeat", type=int, default=5)
        task.add_argument("--top", type=int, default=15)
        task.set_defaults(fn=fn)
    scaling = sub.add_parser("scaling")
    scaling.add_argument("--sizes", default="1000,10000,100000")
    scaling.add_argument("--repeat", type=int, default=3)
    scaling.add_argument("--seed", type=int, default=0)
    scaling.set_defaults(fn=task_scaling)
    ns = parser.parse_args(argv)
    result = ns.fn(ns)
    result["worker_seconds"] = time.process_time()
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
