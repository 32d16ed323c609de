"""Run one cpn-lint command with a fault injected into its file writing.

    python tests/fault_driver.py FAULT STEP cpn-lint|cpn-verdict ARG...

FAULT is ``none``, ``kill`` (the process dies on the spot, as under SIGKILL:
no cleanup runs), ``enospc`` (the disk is full), ``erofs`` (the folder is
read-only) or ``interrupt`` (Ctrl-C). STEP counts the system calls
:mod:`cpn_lint.safe_write` makes (creating the temporary file, writing,
flushing, closing, setting its mode, renaming it, syncing the folder); the
fault strikes at that call. The process prints ``STEPS n`` on stderr when
it ends normally, so a test knows how many steps there are to strike.
Only this module's calls are intercepted: the command reads files and
prints as usual.
"""

from __future__ import annotations

import errno
import os
import sys
import types

FAULT, STEP = sys.argv[1], int(sys.argv[2])
PROGRAM, ARGS = sys.argv[3], sys.argv[4:]
calls = 0


def _strike(name: str, real):  # type: ignore[no-untyped-def]
    def call(*args, **kwargs):  # type: ignore[no-untyped-def]
        global calls
        calls += 1
        if calls == STEP:
            if FAULT == "kill":
                os._exit(137)
            if FAULT == "interrupt":
                raise KeyboardInterrupt
            if FAULT == "enospc":
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            if FAULT == "erofs":
                raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real(*args, **kwargs)

    return call


def _patched(module: types.ModuleType, names: tuple[str, ...]) -> types.SimpleNamespace:
    """A stand-in for ``module`` whose ``names`` strike; the rest pass through."""
    proxy = types.SimpleNamespace(**{k: getattr(module, k) for k in dir(module) if not k.startswith("__")})
    for name in names:
        setattr(proxy, name, _strike(name, getattr(module, name)))
    return proxy


def main() -> int:
    from cpn_lint import cli, safe_write

    safe_write.os = _patched(os, ("write", "fsync", "close", "chmod", "replace", "open"))  # type: ignore[assignment]
    import tempfile

    safe_write.tempfile = _patched(tempfile, ("mkstemp",))  # type: ignore[assignment]
    entry = cli.verdict_main if PROGRAM == "cpn-verdict" else cli.main
    try:
        status = entry(ARGS)
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 2
    print(f"STEPS {calls}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
