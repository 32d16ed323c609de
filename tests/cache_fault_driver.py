"""Run one command with a fault injected into the result cache's writes.

    python tests/cache_fault_driver.py FAULT STEP flake8|cpn-lint|cpn-verdict ARG...

The faults are those of ``tests/fault_driver.py`` (``none``, ``kill``,
``enospc``, ``erofs``, ``interrupt``), struck at the STEP-th system call
:mod:`cpn_lint.cache` makes to write an entry (creating the temporary file,
writing, closing, renaming). The process prints ``STEPS n`` on stderr when it
ends normally. ``flake8`` runs flake8 itself in this process (``-j1``).
"""

from __future__ import annotations

import errno
import os
import sys
import tempfile
import types

FAULT, STEP = sys.argv[1], int(sys.argv[2])
PROGRAM, ARGS = sys.argv[3], sys.argv[4:]
calls = 0


def _strike(real):  # type: ignore[no-untyped-def]
    def call(*args, **kwargs):  # type: ignore[no-untyped-def]
        global calls
        calls += 1
        if calls == STEP:
            if FAULT == "kill":
                os._exit(137)
            if FAULT == "interrupt":
                raise KeyboardInterrupt
            if FAULT in ("enospc", "erofs"):
                code = errno.ENOSPC if FAULT == "enospc" else errno.EROFS
                raise OSError(code, os.strerror(code))
        return real(*args, **kwargs)

    return call


def _patched(module: types.ModuleType, names: tuple[str, ...]) -> types.SimpleNamespace:
    proxy = types.SimpleNamespace(**{k: getattr(module, k) for k in dir(module) if not k.startswith("__")})
    for name in names:
        setattr(proxy, name, _strike(getattr(module, name)))
    return proxy


def main() -> int:
    from cpn_lint import cache, cli

    cache.os = _patched(os, ("write", "close", "replace"))  # type: ignore[assignment]
    cache.tempfile = _patched(tempfile, ("mkstemp",))  # type: ignore[assignment]
    if PROGRAM == "flake8":
        from flake8.main.cli import main as flake8_main

        entry = flake8_main
    else:
        entry = cli.verdict_main if PROGRAM == "cpn-verdict" else cli.main
    try:
        status = entry(ARGS)
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 2
    print(f"STEPS {calls}", file=sys.stderr)
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
