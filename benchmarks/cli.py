"""``python -m benchmarks``: set up the benchmark environment, run the measures, show results."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from . import SCHEMA, SCHEMA_VERSION
from . import corpus as corpus_module
from . import environment as env
from . import measures as m
from .report import table
from .synth import generate

LATEST = env.BENCHMARKS_DIR / "results" / "latest.json"
SUBCOMMANDS = ("setup", "run", "show", "synth")
# Key in the result, and in the table, for each measure name of --only.
RESULT_KEYS = {
    "overhead": "plugin_overhead",
    "throughput": "engine_throughput",
    "memory": "peak_memory",
    "scaling": "scaling",
    "overhead-warm": "plugin_overhead_warm",
    "verdict-warm": "verdict_warm",
    "jobs": "verdict_jobs",
}


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _measure_list(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in m.MEASURES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(m.MEASURES)}")
    return names


def _sizes(text: str) -> list[int]:
    try:
        sizes = sorted({int(s) for s in text.split(",") if s.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError("a comma-separated list of line counts") from None
    if len(sizes) < 2 or sizes[0] < 1:
        raise argparse.ArgumentTypeError("give at least two positive sizes, e.g. 1000,10000,100000")
    return sizes


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Measure cpn-lint against its performance budgets: flake8 plugin overhead, engine "
                    "throughput against ast.parse, cpn-verdict peak memory, and linear scaling (cold: the result "
                    "cache off); the plugin's overhead and cpn-verdict's time over a warm cache; and "
                    "cpn-verdict --jobs 2 against --jobs 1.",
        epilog="Without a subcommand, `run` is assumed. Typical use: `python -m benchmarks setup` once, "
               "then `python -m benchmarks` (several minutes on scipy) or "
               "`python -m benchmarks --max-files 100 --repeat 1` for a quick look.",
    )
    sub = parser.add_subparsers(dest="command", metavar="{setup,run,show,synth}")

    setup = sub.add_parser("setup", help="create or refresh the benchmark environment (.bench-venv)")
    setup.add_argument("requirements", nargs="*", metavar="REQUIREMENT",
                       help="pip requirements replacing the defaults of the same name, e.g. scipy==1.17.1 "
                            f"(defaults: {', '.join(env.DEFAULT_REQUIREMENTS)})")
    setup.add_argument("--venv", type=Path, default=env.DEFAULT_VENV, help="where (default: .bench-venv)")
    setup.add_argument("--python", default=sys.executable,
                       help="the interpreter to create it with (default: the one running this command)")
    setup.add_argument("--recreate", action="store_true", help="delete and recreate the environment")

    run = sub.add_parser("run", help="run the measures, print the table, write the JSON result (default)")
    where = run.add_argument_group("what to measure")
    where.add_argument("--corpus", default="scipy",
                       help="scipy, numpy (installed in the benchmark environment) or a directory of .py files "
                            "(default: scipy)")
    where.add_argument("--max-files", type=_positive, metavar="N",
                       help="only N files, spread evenly over the corpus (a quick run)")
    where.add_argument("--only", type=_measure_list, default=list(m.MEASURES), metavar="LIST",
                       help=f"comma-separated measures to run (default: all of {','.join(m.MEASURES)})")
    how = run.add_argument_group("how")
    how.add_argument("--repeat", type=_positive, default=5, metavar="N",
                     help="repetitions of the in-process engine/parse timings (default: 5)")
    how.add_argument("--flake8-repeat", type=_positive, default=3, metavar="N",
                     help="interleaved pairs of flake8 runs, without and with the plugin (default: 3)")
    how.add_argument("--overhead-method", choices=m.OVERHEAD_METHODS, default="hide",
                     help="hide: flake8 without the plugin's distribution vs with it (default); "
                          "select: --select E,W,F,C90 vs E,W,F,C90,CPN with the plugin installed")
    how.add_argument("--memory-tool", choices=("auto", "cpn-verdict", "engine"), default="auto",
                     help="what the peak-memory measure runs (auto: cpn-verdict if installed, else the engine)")
    how.add_argument("--scaling-sizes", type=_sizes, default=[1000, 10000, 100000], metavar="LIST",
                     help="synthetic file sizes in lines (default: 1000,10000,100000)")
    how.add_argument("--scaling-repeat", type=_positive, default=3, metavar="N",
                     help="repetitions per size (default: 3)")
    how.add_argument("--seed", type=int, default=0, help="seed of the synthetic files (default: 0)")
    how.add_argument("--jobs-files", type=_positive, default=m.BUDGETS["verdict_jobs"]["files"], metavar="N",
                     help="files (spread over the corpus) of the cpn-verdict --jobs 2 vs --jobs 1 measure "
                          "(default: %(default)s)")
    how.add_argument("--no-breakdown", action="store_true",
                     help="skip the per-rule timing and the cProfile pass of the throughput measure")
    how.add_argument("--timeout", type=float, default=3600.0, metavar="S",
                     help="give up on any one child process after S seconds (default: 3600)")
    envg = run.add_argument_group("environment and output")
    envg.add_argument("--venv", type=Path, default=env.DEFAULT_VENV,
                      help="the benchmark environment (default: .bench-venv)")
    envg.add_argument("--python", help="measure with this interpreter instead of the environment's "
                                       "(it needs flake8 and this repository installed)")
    envg.add_argument("--output", type=Path, default=LATEST, metavar="FILE",
                      help=f"where to write the JSON result (default: {LATEST.relative_to(env.REPO_ROOT)})")
    envg.add_argument("--strict", action="store_true", help="exit 1 when a budget fails or a measure errors")

    show = sub.add_parser("show", help="print the table of a JSON result")
    show.add_argument("file", nargs="?", type=Path, default=LATEST, help="default: the latest run")

    synth = sub.add_parser("synth", help="print a synthetic NumPy file (the scaling measure's input)")
    synth.add_argument("--lines", type=_positive, default=1000, help="about how many lines (default: 1000)")
    synth.add_argument("--seed", type=int, default=0)
    synth.add_argument("--output", "-o", type=Path, help="write to FILE instead of stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or (args[0] not in SUBCOMMANDS and args[0] not in ("-h", "--help")):
        args.insert(0, "run")
    ns = build_parser().parse_args(args)
    try:
        if ns.command == "setup":
            python = env.setup(ns.venv, ns.python, ns.requirements, ns.recreate)
            facts = env.resolve(str(python), ns.venv).facts
            print(f"benchmark environment ready: {ns.venv} (cpn-lint {facts['cpn_lint']}, flake8 {facts['flake8']}, "
                  f"scipy {facts['scipy']}, numpy {facts['numpy']})")
            return 0
        if ns.command == "show":
            print(table(json.loads(ns.file.read_text(encoding="utf-8"))))
            return 0
        if ns.command == "synth":
            text = generate(ns.lines, ns.seed)
            if ns.output:
                ns.output.write_text(text, encoding="utf-8")
            else:
                sys.stdout.write(text)
            return 0
        return run(ns)
    except (env.EnvironmentProblem, FileNotFoundError) as exc:
        print(f"benchmarks: {exc}", file=sys.stderr)
        return 2


def _log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _load() -> str:
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg())
    except (OSError, AttributeError):  # pragma: no cover - Windows
        return "n/a"


def run(ns: argparse.Namespace, log: Callable[[str], None] = _log) -> int:
    started = time.time()
    load_before = _load()
    log("probing the benchmark interpreter")
    interpreter = env.resolve(ns.python, ns.venv)
    corpus = corpus_module.load(ns.corpus, ns.max_files, lambda name: env.worker(interpreter.python, "locate", name))
    log(f"corpus {corpus.name}: {len(corpus.files)} files, {corpus.lines:,} lines under {corpus.root}")
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="cpn-bench-") as scratch:
        workdir = Path(scratch)
        ctx = m.Context(interpreter, corpus, corpus.write_spec(workdir / "corpus.json"), workdir,
                        ns.repeat, ns.flake8_repeat, ns.timeout, log, ns.jobs_files)
        steps: list[tuple[str, str, Callable[[], dict[str, Any]]]] = [
            ("throughput", "engine throughput vs ast.parse", lambda: m.measure_throughput(ctx, not ns.no_breakdown)),
            ("scaling", "scaling on synthetic files",
             lambda: m.measure_scaling(ctx, ns.scaling_sizes, ns.scaling_repeat, ns.seed)),
            ("memory", "peak memory", lambda: m.measure_memory(ctx, ns.memory_tool)),
            ("overhead", "flake8 plugin overhead", lambda: m.measure_overhead(ctx, ns.overhead_method)),
            ("overhead-warm", "flake8 plugin overhead over a warm cache", lambda: m.measure_overhead_warm(ctx)),
            ("verdict-warm", "cpn-verdict warm vs cold", lambda: m.measure_verdict_warm(ctx)),
            ("jobs", "cpn-verdict --jobs 2 vs --jobs 1", lambda: m.measure_jobs(ctx)),
        ]
        for name, title, measure in steps:
            if name not in ns.only:
                continue
            log(f"measuring {title}")
            try:
                results[RESULT_KEYS[name]] = measure()
            except m.MeasureError as exc:
                log(f"  error: {exc}")
                results[RESULT_KEYS[name]] = {"status": "ERROR", "error": str(exc)}
    ordered = {RESULT_KEYS[n]: results[RESULT_KEYS[n]] for n in m.MEASURES if RESULT_KEYS[n] in results}
    result = {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "started": dt.datetime.fromtimestamp(started, dt.timezone.utc).isoformat(timespec="seconds"),
        "duration_s": round(time.time() - started, 1),
        "status": overall_status(ordered),
        "environment": _environment(interpreter, load_before),
        "corpus": corpus.describe(),
        "settings": {
            "corpus": ns.corpus, "max_files": ns.max_files, "only": ns.only, "repeat": ns.repeat,
            "flake8_repeat": ns.flake8_repeat, "overhead_method": ns.overhead_method,
            "memory_tool": ns.memory_tool, "scaling_sizes": ns.scaling_sizes,
            "scaling_repeat": ns.scaling_repeat, "seed": ns.seed, "breakdown": not ns.no_breakdown,
            "jobs_files": ns.jobs_files,
        },
        "budgets": m.BUDGETS,
        "measures": ordered,
    }
    ns.output.parent.mkdir(parents=True, exist_ok=True)
    ns.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(table(result))
    log(f"wrote {ns.output}")
    return 1 if ns.strict and result["status"] != "PASS" else 0


def overall_status(measures: dict[str, dict[str, Any]]) -> str:
    statuses = {v["status"] for v in measures.values()}
    if "ERROR" in statuses:
        return "ERROR"
    if "FAIL" in statuses:
        return "FAIL"
    return "PASS" if statuses else "SKIP"


def _environment(interpreter: env.Interpreter, load_before: str) -> dict[str, Any]:
    facts = interpreter.facts
    return {
        "python": facts["python"],
        "implementation": facts["implementation"],
        "interpreter": facts["executable"],
        "cpn_lint": facts["cpn_lint"],
        "flake8": facts["flake8"],
        "pycodestyle": facts["pycodestyle"],
        "pyflakes": facts["pyflakes"],
        "mccabe": facts["mccabe"],
        "ast_grep_py": facts["ast_grep_py"],
        "scipy": facts["scipy"],
        "numpy": facts["numpy"],
        "rules": facts["registry"],
        "entry_points_current": not interpreter.stale_entry_points,
        "repository": env.git_revision(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_before": load_before,
        "load_after": _load(),
    }
