"""The measures of issues 7 and 24, each a ratio (or a peak) taken in one run.

Cold measures (the first four) run with the result cache off
(``CPN_LINT_NO_CACHE=1``), so a warm cache can never flatter them. Warm
measures fill a cache of their own first, then time a second run over the
unchanged files. The last compares ``cpn-verdict --jobs 2`` with ``--jobs 1``.

Every timing is repeated and the repetitions are interleaved: the two sides of
a ratio alternate, and which side goes first alternates too, so a burst of
load from another process on the machine lands on both sides alike. A ratio is
the median of the per-repetition ratios (each pair measured back to back),
which holds up better on a shared machine than the ratio of two medians; both
medians are reported as well.
"""

from __future__ import annotations

import json
import os
import re
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .corpus import Corpus, spread_sample
from .environment import BENCHMARKS_DIR, PLUGIN_DIST, REPO_ROOT, WORKER, Interpreter
from .procs import ChildRun, run_child

BUDGETS: dict[str, dict[str, float]] = {
    # cold budgets as issue 24 set them for the semantic engine (issue 7 had +10% and 2.0x)
    "plugin_overhead": {"max_ratio": 1.12},  # flake8 with the plugin / flake8 without it, cache off
    "engine_throughput": {"max_ratio": 3.0},  # engine time (assessment on) / ast.parse time, cache off
    "peak_memory": {"max_mb": 500.0},  # cpn-verdict over the corpus
    "scaling": {"max_ratio": 1.5},  # per-line time at the largest size / at the smallest
    "plugin_overhead_warm": {"max_ratio": 1.03},  # flake8 with the plugin, warm cache / flake8 without it
    "verdict_warm": {"max_ratio": 0.25},  # cpn-verdict over unchanged files, warm cache / cache off
    "verdict_jobs": {"max_ratio": 0.6, "files": 300},  # cpn-verdict --jobs 2 / --jobs 1, cache off
}

MEASURES = ("overhead", "throughput", "memory", "scaling", "overhead-warm", "verdict-warm", "jobs")
NO_CACHE = "CPN_LINT_NO_CACHE"
CACHE_DIR = "CPN_LINT_CACHE_DIR"
OVERHEAD_METHODS = ("hide", "select")
FLAKE8_DEFAULT_SELECT = "E,W,F,C90"
MB = 1_000_000


class MeasureError(Exception):
    """A measure could not be taken; the message says why."""


@dataclass
class Context:
    interpreter: Interpreter
    corpus: Corpus
    spec: Path  # the corpus file list, as JSON, for the workers
    workdir: Path  # scratch space for outputs
    repeat: int  # repetitions of in-process timings
    flake8_repeat: int  # pairs of flake8 runs
    timeout: float  # seconds, per child process
    log: Callable[[str], None]
    jobs_files: int = 300  # the tree of the --jobs measure

    @property
    def python(self) -> str:
        return str(self.interpreter.python)

    def cold_env(self) -> dict[str, str]:
        """The environment of a cold measure: the result cache off."""
        env = {k: v for k, v in _child_environment().items() if k != CACHE_DIR}
        env[NO_CACHE] = "1"
        return env

    def warm_env(self, name: str) -> dict[str, str]:
        """The environment of a warm measure: a cache of its own, in the scratch folder."""
        env = {k: v for k, v in _child_environment().items() if k != NO_CACHE}
        env[CACHE_DIR] = str(self.workdir / f"cache-{name}")
        return env


def _child_environment() -> dict[str, str]:
    """The measuring process's environment, with bytecode caching on: an
    installed package runs from the .pyc files pip writes, so a child that
    recompiled flake8, its plugins and cpn-lint from source on every start
    (PYTHONDONTWRITEBYTECODE=1 in the caller's shell) would charge each run
    a compile no user pays. Both sides of every comparison get the same."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def median(values: list[float]) -> float:
    return statistics.median(values)


def summary(values: list[float]) -> dict[str, Any]:
    return {"median": median(values), "min": min(values), "max": max(values), "samples": values}


def status(value: float, limit: float) -> str:
    return "PASS" if value <= limit else "FAIL"


def run_task(ctx: Context, task: str, *args: str) -> tuple[dict[str, Any], ChildRun]:
    """Run a worker task in a fresh child of the benchmark interpreter."""
    out = ctx.workdir / f"{task}.json"
    err = ctx.workdir / f"{task}.stderr"
    run = run_child([ctx.python, "-m", WORKER, task, *args], cwd=REPO_ROOT, stdout=out, stderr=err,
                    timeout=ctx.timeout, env=ctx.cold_env())
    if run.timed_out:
        raise MeasureError(f"worker task {task!r} did not finish within {ctx.timeout:.0f} s")
    if run.returncode != 0:
        raise MeasureError(f"worker task {task!r} failed (exit {run.returncode}): {_tail(err)}")
    return json.loads(out.read_text(encoding="utf-8")), run


def _tail(path: Path, lines: int = 6) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""
    return " | ".join(text.splitlines()[-lines:])


# --------------------------------------------------------- 1. plugin overhead
_CPN_LINE = re.compile(r":\d+:\d+: CPN\d{3} ")


def _flake8_commands(ctx: Context, method: str) -> dict[str, list[str]]:
    launcher = [ctx.python, str(BENCHMARKS_DIR / "flake8_launcher.py")]
    if method == "hide":
        return {"without": [*launcher, "--hide", PLUGIN_DIST, "--"], "with": [*launcher, "--"]}
    if method == "select":
        return {
            "without": [*launcher, "--", "--select", FLAKE8_DEFAULT_SELECT],
            "with": [*launcher, "--", "--select", FLAKE8_DEFAULT_SELECT + ",CPN"],
        }
    raise ValueError(f"unknown overhead method {method!r}")


def _check_plugin_loading(ctx: Context, commands: dict[str, list[str]], method: str) -> None:
    """``flake8 --version`` lists the plugins it loaded: make sure each side is what it claims."""
    for variant, argv in commands.items():
        out = ctx.workdir / f"flake8-version-{variant}.txt"
        run = run_child([*argv, "--version"], stdout=out, stderr=out, timeout=ctx.timeout, env=ctx.cold_env())
        listed = "cpn-lint" in out.read_text(encoding="utf-8", errors="replace")
        expected = variant == "with" or method == "select"
        if run.returncode != 0 or listed != expected:
            raise MeasureError(
                f"flake8 --version ({variant} the plugin) {'does not list' if expected else 'still lists'} "
                f"cpn-lint: {_tail(out)}"
            )


def measure_overhead(ctx: Context, method: str = "hide") -> dict[str, Any]:
    commands = _flake8_commands(ctx, method)
    _check_plugin_loading(ctx, commands, method)  # also imports everything once (warm-up)
    counts: dict[str, dict[str, int]] = {}

    def count(variant: str, out: Path) -> None:
        if variant not in counts:
            counts[variant] = _count_output(out)

    wall, cpu = _flake8_pairs(ctx, commands, ctx.cold_env(), "", "flake8", count)
    ratios = [w / wo for w, wo in zip(wall["with"], wall["without"])]
    ratio = median(ratios)
    result: dict[str, Any] = {
        "status": status(ratio, BUDGETS["plugin_overhead"]["max_ratio"]),
        "budget": BUDGETS["plugin_overhead"],
        "method": method,
        "ratio": ratio,
        "overhead_pct": (ratio - 1.0) * 100.0,
        "pair_ratios": ratios,
        "ratio_of_medians": median(wall["with"]) / median(wall["without"]),
        "wall_s": {variant: summary(values) for variant, values in wall.items()},
        "output": counts,
        **_cpu(cpu, "with", "without"),
    }
    return result


def _flake8_pairs(ctx: Context, commands: dict[str, list[str]], env: dict[str, str], label: str, stem: str,
                  seen: Callable[[str, Path], None]) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Interleaved flake8 runs without and with the plugin over the corpus
    (the order alternating pair by pair); ``seen`` reads each run's output
    before it is removed. The wall and CPU times of each side."""
    wall: dict[str, list[float]] = {"without": [], "with": []}
    cpu: dict[str, list[float]] = {"without": [], "with": []}
    for rep in range(ctx.flake8_repeat):
        order = ("without", "with") if rep % 2 == 0 else ("with", "without")
        for variant in order:
            ctx.log(f"  flake8 -j1 {variant} the plugin{label}, pair {rep + 1}/{ctx.flake8_repeat}")
            out = ctx.workdir / f"{stem}-{variant}.txt"
            err = ctx.workdir / f"{stem}-{variant}.stderr"
            run = run_child([*commands[variant], "--isolated", "-j1", *ctx.corpus.files], cwd=ctx.corpus.root,
                            stdout=out, stderr=err, timeout=ctx.timeout, env=env)
            if run.timed_out:
                raise MeasureError(f"flake8 ({variant} the plugin{label}) did not finish within {ctx.timeout:.0f} s")
            if run.returncode not in (0, 1):
                raise MeasureError(f"flake8 ({variant} the plugin{label}) exited {run.returncode}: {_tail(err)}")
            seen(variant, out)
            wall[variant].append(run.wall_s)
            if run.cpu_s is not None:
                cpu[variant].append(run.cpu_s)
            out.unlink()
    return wall, cpu


def _count_output(path: Path) -> dict[str, int]:
    total = cpn = 0
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            total += 1
            cpn += bool(_CPN_LINE.search(line))
    return {"lines": total, "cpn": cpn, "other": total - cpn}


# ------------------------------------------------------- 2. engine throughput
def measure_throughput(ctx: Context, breakdown: bool = True, top: int = 15) -> dict[str, Any]:
    data, run = run_task(ctx, "throughput", str(ctx.spec), "--repeat", str(ctx.repeat))
    if not data["files"]:
        raise MeasureError("no file of the corpus parses")
    ratios = [e / p for e, p in zip(data["engine_s"], data["parse_s"])]
    ratio = median(ratios)
    lines = data["lines"]
    result: dict[str, Any] = {
        "status": status(ratio, BUDGETS["engine_throughput"]["max_ratio"]),
        "budget": BUDGETS["engine_throughput"],
        "ratio": ratio,
        "pair_ratios": ratios,
        "files": data["files"],
        "lines": lines,
        "unparseable": data["unparseable"],
        "parse_s": summary(data["parse_s"]),
        "engine_s": summary(data["engine_s"]),
        "parse_lines_per_s": lines / median(data["parse_s"]),
        "engine_lines_per_s": lines / median(data["engine_s"]),
        "findings": data["findings"],
        "models_alive_after_warm_up": data["models_alive_after_warm_up"],
        "worker_peak_mb": run.max_rss_bytes / MB if run.max_rss_bytes else None,
    }
    if breakdown:
        ctx.log("  engine breakdown: model and each rule, in engine order")
        result["breakdown"] = _breakdown(run_task(ctx, "rules", str(ctx.spec))[0])
        ctx.log("  engine profile (cProfile)")
        result["profile"] = run_task(ctx, "profile", str(ctx.spec), "--top", str(top))[0]
    return result


def _breakdown(data: dict[str, Any]) -> dict[str, Any]:
    parts = {"decode + ast.parse": data["stages_s"]["decode_parse"], "model (FileModel build)": data["stages_s"]["model"]}
    parts.update({f"rule {code}": seconds for code, seconds in data["rules_s"].items()})
    total = sum(parts.values())
    return {
        "total_s": total,
        "parts": [
            {"part": name, "seconds": seconds, "share": seconds / total if total else 0.0}
            for name, seconds in sorted(parts.items(), key=lambda kv: -kv[1])
        ],
        "skipped_irrelevant_files": data["skipped_irrelevant"],
        "rule_errors": data["rule_errors"],
        "ast_grep_parse": data["ast_grep_parse"],
    }


# ---------------------------------------------------------- 3. peak memory
def verdict_script(ctx: Context) -> Path | None:
    for name in ("cpn-verdict", "cpn-verdict.exe"):
        candidate = ctx.interpreter.scripts / name
        if candidate.is_file():
            return candidate
    return None


def measure_memory(ctx: Context, tool: str = "auto") -> dict[str, Any]:
    script = verdict_script(ctx)
    if tool == "cpn-verdict" and script is None:
        raise MeasureError(f"no cpn-verdict in {ctx.interpreter.scripts}")
    use_verdict = script is not None and tool != "engine"
    if use_verdict:
        report = ctx.workdir / "verdict.json"
        err = ctx.workdir / "verdict.stderr"
        # one process (--jobs 1): the peak of a run that does all the work itself
        argv = [str(script), "--isolated", "--jobs", "1", "--format", "json", "--output", str(report),
                *ctx.corpus.files]
        run = run_child(argv, cwd=ctx.corpus.root, stdout=ctx.workdir / "verdict.stdout", stderr=err,
                        timeout=ctx.timeout, env=ctx.cold_env())
        # 0: assessed; 2: some input could not be read (the report is still written)
        if run.timed_out or run.returncode not in (0, 2) or not report.exists():
            raise MeasureError(f"cpn-verdict exited {run.returncode}: {_tail(err)}")
        verdict = json.loads(report.read_text(encoding="utf-8")).get("verdict")
        described = "cpn-verdict"
    else:
        _, run = run_task(ctx, "engine-memory", str(ctx.spec))
        verdict = None
        described = "engine (stand-in: cpn-verdict is not installed)" if script is None else "engine"
    if run.max_rss_bytes is None:
        raise MeasureError("peak memory is not available on this platform")
    peak = run.max_rss_bytes / MB
    return {
        "status": status(peak, BUDGETS["peak_memory"]["max_mb"]),
        "budget": BUDGETS["peak_memory"],
        "tool": described,
        "peak_mb": peak,
        "wall_s": run.wall_s,
        "cpu_s": run.cpu_s,
        "exit": run.returncode,
        "verdict": verdict,
    }


# -------------------------------------------------------------- 4. scaling
def measure_scaling(ctx: Context, sizes: list[int], repeat: int, seed: int = 0) -> dict[str, Any]:
    data, _ = run_task(ctx, "scaling", "--sizes", ",".join(map(str, sizes)), "--repeat", str(repeat),
                       "--seed", str(seed))
    rows = []
    for row in data["sizes"]:
        rows.append({
            "target_lines": row["target_lines"],
            "lines": row["lines"],
            "copies_per_sample": row["copies_per_sample"],
            "findings": row["findings"],
            "engine_us_per_line": summary(row["engine_us_per_line"]),
            "engine_gc_paused_us_per_line": summary(row["engine_gc_paused_us_per_line"]),
            "parse_us_per_line": summary(row["parse_us_per_line"]),
        })
    rows.sort(key=lambda r: r["lines"])
    small, large = rows[0], rows[-1]

    def growth(key: str) -> float:
        return large[key]["median"] / small[key]["median"]

    ratio = growth("engine_us_per_line")
    return {
        "status": status(ratio, BUDGETS["scaling"]["max_ratio"]),
        "budget": BUDGETS["scaling"],
        "ratio": ratio,
        "gc_paused_ratio": growth("engine_gc_paused_us_per_line"),
        "parse_ratio": growth("parse_us_per_line"),
        "seed": seed,
        "sizes": rows,
        "parts_gc_paused": sorted(data["parts_gc_paused"],
                                  key=lambda r: -(r["large_us_per_line"] - r["small_us_per_line"])),
    }


# ------------------------------------------- 5. plugin overhead, warm cache
def measure_overhead_warm(ctx: Context) -> dict[str, Any]:
    """flake8 -j1 without the plugin vs with it over a warm cache: the cost of
    the plugin on a second run over unchanged files. A cold run with the
    cache off gives the reference output, which every warm run must print."""
    commands = _flake8_commands(ctx, "hide")
    _check_plugin_loading(ctx, commands, "hide")
    files = ctx.corpus.files
    warm_env = ctx.warm_env("flake8")
    reference = ctx.workdir / "flake8-cold.txt"
    fill = ctx.workdir / "flake8-fill.txt"
    ctx.log("  flake8 -j1 with the plugin, cache off (reference output), then once to fill the cache")
    for out, env in ((reference, ctx.cold_env()), (fill, warm_env)):
        run = run_child([*commands["with"], "--isolated", "-j1", *files], cwd=ctx.corpus.root, stdout=out,
                        stderr=ctx.workdir / "flake8-fill.stderr", timeout=ctx.timeout, env=env)
        if run.timed_out or run.returncode not in (0, 1):
            raise MeasureError(f"flake8 (filling the cache) exited {run.returncode}: "
                               f"{_tail(ctx.workdir / 'flake8-fill.stderr')}")
    expected = reference.read_bytes()
    if fill.read_bytes() != expected:
        raise MeasureError("flake8 printed other findings while filling the cache than with the cache off")
    def same_as_cold(variant: str, out: Path) -> None:
        if variant == "with" and out.read_bytes() != expected:
            raise MeasureError("flake8 over a warm cache printed other findings than with the cache off")

    wall, cpu = _flake8_pairs(ctx, commands, warm_env, " (warm cache)", "flake8-warm", same_as_cold)
    ratios = [w / wo for w, wo in zip(wall["with"], wall["without"])]
    ratio = median(ratios)
    result: dict[str, Any] = {
        "status": status(ratio, BUDGETS["plugin_overhead_warm"]["max_ratio"]),
        "budget": BUDGETS["plugin_overhead_warm"],
        "ratio": ratio,
        "overhead_pct": (ratio - 1.0) * 100.0,
        "pair_ratios": ratios,
        "wall_s": {variant: summary(values) for variant, values in wall.items()},
        "output_identical_to_cold": True,
        **_cpu(cpu, "with", "without"),
    }
    return result


# ------------------------------------------- 6. cpn-verdict, warm vs cold
def _verdict_run(ctx: Context, script: Path, files: list[str], name: str, env: dict[str, str],
                 *extra: str) -> tuple[ChildRun, bytes]:
    report = ctx.workdir / f"verdict-{name}.md"  # the default format, as a user runs it
    err = ctx.workdir / f"verdict-{name}.stderr"
    argv = [str(script), "--isolated", "--output", str(report), *extra, *files]
    run = run_child(argv, cwd=ctx.corpus.root, stdout=ctx.workdir / f"verdict-{name}.stdout", stderr=err,
                    timeout=ctx.timeout, env=env)
    if run.timed_out or run.returncode not in (0, 2) or not report.exists():
        raise MeasureError(f"cpn-verdict ({name}) exited {run.returncode}: {_tail(err)}")
    data = report.read_bytes()
    report.unlink()
    return run, data


def _pairs(ctx: Context, script: Path, files: list[str], sides: dict[str, tuple[dict[str, str], tuple[str, ...]]],
           label: str) -> tuple[dict[str, list[float]], dict[str, list[float]], bool]:
    """Interleaved runs of the two sides; the wall and CPU times (CPU: the
    command and the workers it waited for), and whether every report was the same."""
    wall: dict[str, list[float]] = {name: [] for name in sides}
    cpu: dict[str, list[float]] = {name: [] for name in sides}
    reports: set[bytes] = set()
    names = list(sides)
    for rep in range(ctx.flake8_repeat):
        for name in (names if rep % 2 == 0 else names[::-1]):
            ctx.log(f"  cpn-verdict {label} {name}, pair {rep + 1}/{ctx.flake8_repeat}")
            env, extra = sides[name]
            run, report = _verdict_run(ctx, script, files, name, env, *extra)
            wall[name].append(run.wall_s)
            if run.cpu_s is not None:
                cpu[name].append(run.cpu_s)
            reports.add(report)
    return wall, cpu, len(reports) == 1


def measure_verdict_warm(ctx: Context) -> dict[str, Any]:
    """cpn-verdict --jobs 1 over unchanged files with a warm cache vs with the cache off."""
    script = verdict_script(ctx)
    if script is None:
        raise MeasureError(f"no cpn-verdict in {ctx.interpreter.scripts}")
    files = ctx.corpus.files
    warm = ctx.warm_env("verdict")
    ctx.log("  cpn-verdict once to fill the cache")
    _verdict_run(ctx, script, files, "fill", warm, "--jobs", "1")
    sides = {"cold": (ctx.cold_env(), ("--jobs", "1")), "warm": (warm, ("--jobs", "1"))}
    wall, cpu, identical = _pairs(ctx, script, files, sides, "--jobs 1")
    if not identical:
        raise MeasureError("cpn-verdict wrote another report over a warm cache than with the cache off")
    return _paired_result("verdict_warm", wall, cpu, ("warm", "cold"), len(files), identical)


def _paired_result(budget: str, wall: dict[str, list[float]], cpu: dict[str, list[float]],
                   sides: tuple[str, str], files: int, identical: bool, **extra: Any) -> dict[str, Any]:
    """A paired measure's result: the ratio of ``sides[0]`` to ``sides[1]``
    pair by pair, against the budget named ``budget``."""
    top, bottom = sides
    ratios = [t / b for t, b in zip(wall[top], wall[bottom])]
    ratio = median(ratios)
    return {
        "status": status(ratio, BUDGETS[budget]["max_ratio"]),
        "budget": BUDGETS[budget],
        "ratio": ratio,
        "pair_ratios": ratios,
        "files": files,
        **extra,
        "wall_s": {name: summary(values) for name, values in wall.items()},
        **_cpu(cpu, top, bottom),
        "reports_identical": identical,
    }


def _cpu(cpu: dict[str, list[float]], top: str, bottom: str) -> dict[str, Any]:
    if not cpu[top] or not cpu[bottom]:
        return {}
    return {"cpu_s": {name: summary(values) for name, values in cpu.items()},
            "cpu_ratio": median([t / b for t, b in zip(cpu[top], cpu[bottom])])}


# ------------------------------------------- 7. cpn-verdict --jobs 2 vs --jobs 1
def measure_jobs(ctx: Context) -> dict[str, Any]:
    """cpn-verdict --jobs 2 vs --jobs 1 with the cache off, on about
    ``ctx.jobs_files`` files spread over the corpus."""
    script = verdict_script(ctx)
    if script is None:
        raise MeasureError(f"no cpn-verdict in {ctx.interpreter.scripts}")
    files = spread_sample(ctx.corpus.files, ctx.jobs_files)
    cold = ctx.cold_env()
    sides = {"jobs1": (cold, ("--jobs", "1")), "jobs2": (cold, ("--jobs", "2"))}
    wall, cpu, identical = _pairs(ctx, script, files, sides, "cache off,")
    if not identical:
        raise MeasureError("cpn-verdict --jobs 2 wrote another report than --jobs 1")
    # (its cpu_ratio is the work the two processes share: near 1.0, little is lost to parallelism)
    return _paired_result("verdict_jobs", wall, cpu, ("jobs2", "jobs1"), len(files), identical, cpus=os.cpu_count())
