"""Running a command's per-file work on every core: ``--jobs N``.

Every command that lints a tree (``cpn-verdict``, ``cpn-lint fix``,
``noqa``, ``baseline write``) takes ``--jobs N`` (default: the machine's
cores, as ``flake8 -j auto``; ``--jobs 1`` runs in process) and
``--no-cache``. The work is a module-level function of one item, so it runs
the same in a worker process started with ``spawn`` (the only start method
on Windows and the default on macOS) as in process; results come back in
the order of the items, whatever finishes first, so the output is the same
for any N. Workers hold nothing across files but what the function returns.

Workers are started only when there is enough to do: starting one costs
about an import of cpn-lint, so a handful of small files runs in process.
Ctrl-C stops the workers at once (they ignore SIGINT; the parent ends them)
and the command ends with its usual "interrupted" line.
"""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")

# Below this much source per worker, a worker costs more to start than it saves.
MIN_BYTES_PER_WORKER = 64 * 1024


class WorkerFailed(RuntimeError):
    """A worker process died (killed, out of memory); the run cannot finish."""


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def jobs_value(text: str) -> int:
    """``--jobs`` value: a whole number of 1 or more, or ``auto`` (the cores)."""
    if str(text).strip().lower() == "auto":
        return default_jobs()
    try:
        value = int(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number or 'auto': {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {text!r}")
    return value


def add_arguments(parser: Any) -> None:
    """``--jobs N`` and ``--no-cache`` on a command's parser (or argument group)."""
    parser.add_argument("--jobs", "-j", type=jobs_value, default=None, metavar="N",
                        help="files analysed at once, in separate processes (default: the machine's cores; "
                        "1: in this process); the output is the same for any N")
    parser.add_argument("--no-cache", action="store_true", default=False,
                        help="analyse every file again instead of reusing the results cached for unchanged files "
                        "(also: CPN_LINT_NO_CACHE=1; 'cpn-lint cache info' shows where the cache is)")


def workers_for(jobs: int | None, sizes: Sequence[int]) -> int:
    """How many worker processes ``sizes`` (bytes of each pending file)
    justify under ``--jobs`` (None: the cores); 1 means in process."""
    wanted = default_jobs() if jobs is None else jobs
    by_size = sum(sizes) // MIN_BYTES_PER_WORKER
    return max(1, min(wanted, len(sizes), by_size))


def file_size(path: Any) -> int:
    try:
        return os.stat(path).st_size
    except (OSError, ValueError):
        return 0


def ordered_map(task: Callable[[T], R], items: Sequence[T], workers: int,
                sizes: Sequence[int] | None = None) -> Iterator[R]:
    """``task(item)`` for each item, in order: in process when ``workers`` is
    1, else in that many ``spawn`` worker processes. ``task`` must be
    picklable (a module-level function, or a ``functools.partial`` of one).
    ``sizes`` (bytes of each item's file): workers take the largest first, so
    no worker is left with a long file while the others are idle."""
    if workers <= 1 or len(items) <= 1:
        for item in items:
            yield task(item)
        return
    yield from _in_workers(task, items, workers, sizes)


def _in_workers(task: Callable[[T], R], items: Sequence[T], workers: int,
                sizes: Sequence[int] | None) -> Iterator[R]:
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    here = os.getcwd()
    order = sorted(range(len(items)), key=lambda i: -sizes[i]) if sizes is not None else range(len(items))
    futures: dict[int, Future[R]] = {}
    finished = False
    with _starting_workers():
        executor = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                       initializer=_start_worker, initargs=(here,))
    try:
        with _starting_workers():  # every task is queued now: a submit may start a worker
            for index in order:
                futures[index] = executor.submit(task, items[index])
        for index in range(len(items)):  # results in the items' order, whatever finishes first
            yield futures.pop(index).result()
        finished = True
    except BrokenProcessPool as exc:
        raise WorkerFailed("a worker process ended abruptly (killed, or out of memory); "
                           "run again with --jobs 1 to see which file") from exc
    finally:
        if finished:
            executor.shutdown(wait=True)
        else:  # Ctrl-C, an error or an abandoned generator: stop the workers now
            _stop(executor)


@contextmanager
def _starting_workers() -> Iterator[None]:
    """Start worker processes from the standard library's own folder.

    A ``spawn`` worker begins as ``python -c ...``, which puts its working
    folder first on ``sys.path`` while it imports multiprocessing: started
    from the user's tree, a ``signal/`` or ``random.py`` there would be
    imported instead of the standard module (user code run, or a crash).
    From the standard library's folder, that first entry finds the standard
    modules themselves. The worker then moves to the user's folder
    (:func:`_start_worker`); the parent returns to it at once.
    """
    here = os.getcwd()
    try:
        os.chdir(os.path.dirname(os.__file__))
    except (OSError, TypeError, AttributeError):  # a frozen interpreter: start where we are
        yield
        return
    try:
        with _ctrl_c_held():
            yield
    finally:
        os.chdir(here)


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold back Ctrl-C while workers start: a worker inherits the blocked
    signal, so one still starting up cannot die mid-import with half a
    traceback on the terminal before its initializer ignores the signal; the
    parent receives a Ctrl-C pressed meanwhile as soon as it is released."""
    import signal  # from the standard library's folder (see _starting_workers)

    block = getattr(signal, "pthread_sigmask", None)
    if block is None:  # Windows: no signal masks
        yield
        return
    previous = block(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, previous)


def _start_worker(cwd: str) -> None:
    """In each worker: the user's folder (paths are relative to it), no
    working-folder entry on ``sys.path`` (nothing of the user's tree is ever
    imported), and Ctrl-C left to the parent, which stops the workers."""
    os.chdir(cwd)
    sys.path[:] = [entry for entry in sys.path if entry not in ("", ".")]
    import signal  # here, not at the top: `python -m` from scipy's sources would find scipy/signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held back by the parent while starting


def _stop(executor: Any) -> None:
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for process in processes:
        try:
            process.terminate()
        except (OSError, AttributeError, ValueError):
            pass
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        try:
            process.join(timeout=5)
        except (OSError, AttributeError, ValueError, AssertionError):
            pass
