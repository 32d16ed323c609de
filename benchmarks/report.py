"""The short table printed after a run (and by ``python -m benchmarks show``)."""

from __future__ import annotations

from typing import Any

TITLES = {
    "plugin_overhead": "plugin overhead (flake8 -j1)",
    "engine_throughput": "engine time / ast.parse",
    "peak_memory": "peak memory",
    "scaling": "scaling (per line)",
    "plugin_overhead_warm": "warm: plugin overhead (flake8 -j1)",
    "verdict_warm": "warm: cpn-verdict / cold",
    "verdict_jobs": "cpn-verdict --jobs 2 / --jobs 1",
}


_PART_NAMES = {"decode_parse": "decode + ast.parse", "model": "model (FileModel build)"}


def _grows(part: dict[str, Any], scaling: dict[str, Any]) -> bool:
    """A part that grows past the budget and weighs at least 1% of the engine's time per line."""
    total = sum(p["large_us_per_line"] for p in scaling["parts_gc_paused"])
    growth = part.get("growth")
    return growth is not None and growth > scaling["budget"]["max_ratio"] and part["large_us_per_line"] >= 0.01 * total


def _n(value: float) -> str:
    return f"{value:,.0f}"


def _size(lines: int) -> str:
    return f"{lines // 1000}k" if lines >= 1000 else str(lines)


def _row(key: str, m: dict[str, Any]) -> tuple[str, str, str, str]:
    title = TITLES[key]
    if m.get("status") in ("ERROR", "SKIP"):
        return title, m.get("error") or m.get("reason") or "", "", m["status"]
    budget = m["budget"]
    if key == "plugin_overhead":
        wall = m["wall_s"]
        pairs = len(m["pair_ratios"])
        low, high = (min(m["pair_ratios"]) - 1) * 100, (max(m["pair_ratios"]) - 1) * 100
        spread = f" (pairs {low:+.1f}%..{high:+.1f}%)" if pairs > 1 else ""
        cpu = f", CPU {(m['cpu_ratio'] - 1) * 100:+.1f}%" if m.get("cpu_ratio") else ""
        result = (f"{m['overhead_pct']:+.1f}% wall{spread}{cpu}; flake8 alone {wall['without']['median']:.1f} s; "
                  f"{pairs} pair{'s' if pairs != 1 else ''}, plugin {m['method']}")
        return title, result, f"<= +{(budget['max_ratio'] - 1) * 100:.0f}%", m["status"]
    if key == "plugin_overhead_warm":
        wall = m["wall_s"]
        low, high = (min(m["pair_ratios"]) - 1) * 100, (max(m["pair_ratios"]) - 1) * 100
        spread = f" (pairs {low:+.1f}%..{high:+.1f}%)" if len(m["pair_ratios"]) > 1 else ""
        cpu = f", CPU {(m['cpu_ratio'] - 1) * 100:+.1f}%" if m.get("cpu_ratio") else ""
        result = (f"{m['overhead_pct']:+.1f}% wall{spread}{cpu}; flake8 alone {wall['without']['median']:.1f} s, "
                  f"with the plugin {wall['with']['median']:.1f} s")
        return title, result, f"<= +{(budget['max_ratio'] - 1) * 100:.0f}%", m["status"]
    if key in ("verdict_warm", "verdict_jobs"):
        names = ("warm", "cold") if key == "verdict_warm" else ("jobs2", "jobs1")
        wall = m["wall_s"]
        spread = f" (pairs {min(m['pair_ratios']):.2f}..{max(m['pair_ratios']):.2f})" if len(m["pair_ratios"]) > 1 else ""
        cpu = f", CPU {m['cpu_ratio']:.2f}x" if m.get("cpu_ratio") else ""
        result = (f"{m['ratio']:.2f}x{spread}{cpu}; {wall[names[0]]['median']:.1f} s vs {wall[names[1]]['median']:.1f} s, "
                  f"{m['files']} files, reports identical")
        return title, result, f"<= {budget['max_ratio']:.2f}x", m["status"]
    if key == "engine_throughput":
        result = (f"{m['ratio']:.2f}x  (engine {_n(m['engine_lines_per_s'])} lines/s, "
                  f"ast.parse {_n(m['parse_lines_per_s'])} lines/s)")
        return title, result, f"<= {budget['max_ratio']:.2f}x", m["status"]
    if key == "peak_memory":
        tool = "cpn-verdict" if m["tool"] == "cpn-verdict" else "engine stand-in"
        result = f"{_n(m['peak_mb'])} MB  ({tool}, {m['wall_s']:.1f} s)"
        return title, result, f"<= {_n(budget['max_mb'])} MB", m["status"]
    sizes = m["sizes"]
    small, large = sizes[0], sizes[-1]
    paused = f"GC paused {m['gc_paused_ratio']:.2f}x; " if "gc_paused_ratio" in m else ""
    result = (f"{m['ratio']:.2f}x  ({_size(large['target_lines'])} vs {_size(small['target_lines'])}: "
              f"{large['engine_us_per_line']['median']:.0f} vs {small['engine_us_per_line']['median']:.0f} us/line; "
              f"{paused}ast.parse {m['parse_ratio']:.2f}x)")
    return title, result, f"<= {budget['max_ratio']:.2f}x", m["status"]


def table(result: dict[str, Any], hot_spots: int = 8) -> str:
    corpus = result["corpus"]
    env = result["environment"]
    version = f" {corpus['version']}" if corpus.get("version") else ""
    subset = f" (of {_n(corpus['total_files'])})" if corpus["files"] != corpus["total_files"] else ""
    lines = [
        f"cpn-lint benchmarks: corpus {corpus['name']}{version}, {_n(corpus['files'])} files{subset}, "
        f"{_n(corpus['lines'])} lines; Python {env['python']}, flake8 {env['flake8']}; "
        f"{env['cpus']} CPUs, load {env['load_before']}",
        "",
    ]
    rows = [("measure", "result", "budget", "status")]
    rows += [_row(key, m) for key, m in result["measures"].items()]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        lines.append(f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:<{widths[2]}}  {r[3]}".rstrip())
    engine = result["measures"].get("engine_throughput", {})
    if engine.get("models_alive_after_warm_up"):
        lines += ["", f"warning: {engine['models_alive_after_warm_up']:,} FileModel objects outlived their files "
                      f"(a leak: the engine worker peaked at {_n(engine.get('worker_peak_mb') or 0)} MB)"]
    breakdown = engine.get("breakdown")
    if breakdown:
        lines += ["", "Engine time by part (engine order; a rule includes model answers it asks first):"]
        for part in breakdown["parts"][:hot_spots]:
            lines.append(f"  {part['share'] * 100:5.1f}%  {part['seconds']:7.2f} s  {part['part']}")
        grep = breakdown["ast_grep_parse"]
        if grep["files"]:
            lines.append(f"  (ast-grep parses {grep['files']} files, about {grep['estimated_s']:.2f} s, "
                         "inside the first rule that uses it)")
    profile = engine.get("profile")
    if profile:
        lines += ["", "Self time by area (cProfile):"]
        for area in profile["areas"][:hot_spots]:
            lines.append(f"  {area['share'] * 100:5.1f}%  {area['area']}")
        lines += ["", "Hottest functions (cProfile self time):"]
        for row in profile["top_self"][:hot_spots]:
            share = row["self_s"] / profile["profiled_s"] * 100 if profile["profiled_s"] else 0.0
            lines.append(f"  {share:5.1f}%  {row['calls']:>10,} calls  {row['function']}")
    scaling = result["measures"].get("scaling", {})
    growing = [p for p in scaling.get("parts_gc_paused", ()) if _grows(p, scaling)]
    if growing:
        small, large = scaling["sizes"][0]["target_lines"], scaling["sizes"][-1]["target_lines"]
        lines += ["", f"Parts whose time per line grows with the file (GC paused, {_size(large)} vs {_size(small)}):"]
        for part in growing[:hot_spots]:
            lines.append(f"  {part['growth']:5.2f}x  {part['small_us_per_line']:6.2f} -> {part['large_us_per_line']:6.2f} "
                         f"us/line  {_PART_NAMES.get(part['part'], 'rule ' + part['part'])}")
    lines += ["", f"overall: {result['status']}"]
    return "\n".join(lines)
