"""Run one child process and measure it: wall time, CPU time and peak memory.

On POSIX the child is reaped with :func:`os.wait4`, which returns that child's
own resource usage (``RUSAGE_CHILDREN`` would mix in every earlier child, and
its ``ru_maxrss`` is the largest of them all). Elsewhere only wall time is known.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence


@dataclass(frozen=True)
class ChildRun:
    returncode: int
    wall_s: float
    cpu_s: float | None  # user + system time of the child
    max_rss_bytes: int | None  # the child's peak resident set size
    timed_out: bool = False


def _rss_bytes(ru_maxrss: int) -> int:
    # Linux reports kilobytes, macOS bytes.
    return ru_maxrss if sys.platform == "darwin" else ru_maxrss * 1024


def run_child(
    argv: Sequence[str],
    *,
    cwd: str | Path | None = None,
    stdout: Path | None = None,
    stderr: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
) -> ChildRun:
    """Run ``argv`` to completion; its output goes to the given files (or nowhere)."""
    out = open(stdout, "wb") if stdout is not None else subprocess.DEVNULL
    err = open(stderr, "wb") if stderr is not None else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(list(argv), cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            proc.kill()

        timer = threading.Timer(timeout, kill) if timeout else None
        if timer is not None:
            timer.daemon = True
            timer.start()
        try:
            if hasattr(os, "wait4"):
                _, status, usage = os.wait4(proc.pid, 0)
                wall = time.perf_counter() - start
                proc.returncode = os.waitstatus_to_exitcode(status)
                cpu: float | None = usage.ru_utime + usage.ru_stime
                rss: int | None = _rss_bytes(usage.ru_maxrss)
            else:  # pragma: no cover - Windows
                proc.wait()
                wall = time.perf_counter() - start
                cpu, rss = None, None
        finally:
            if timer is not None:
                timer.cancel()
        return ChildRun(proc.returncode, wall, cpu, rss, killed.is_set())
    finally:
        for handle in (out, err):
            if handle is not subprocess.DEVNULL:
                handle.close()  # type: ignore[union-attr]
