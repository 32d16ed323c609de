"""The runtime oracle: run a NumPy program under the real cuPyNumeric, on CPUs,
with cuPyNumeric Doctor on, and keep Doctor's JSON report.

cpn-lint never runs the code it checks; this module is the one exception, and
only on request: it is the harness of the differential test tier and a
convenience for users without a GPU. It keeps cuPyNumeric out of the caller's
environment by installing it into a separate virtual environment::

    python -m cpn_lint.oracle setup                     # once; downloads ~300 MB
    python -m cpn_lint.oracle run prog.py -o doctor-report.json
    cpn-verdict --doctor doctor-report.json prog.py

The PyPI wheels of cuPyNumeric/Legate link against the NVIDIA driver library
even when they only use CPUs, so ``setup`` compiles a small stand-in for it
(every driver call answers "no device") and ``run`` puts it first on the
library path with ``--gpus 0``. In the program's own files ``import numpy``
gives ``cupynumeric``, as the port's ``import cupynumeric as np`` would;
host libraries (matplotlib with its non-interactive Agg backend, SciPy, ...)
keep the real NumPy they were built for, whenever they are loaded, so a
program that plots or calls SciPy runs instead of failing inside them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

CUPYNUMERIC_VERSION = os.environ.get("CUPYNUMERIC_VERSION", "26.6.1")
VENV_ENV = "CPN_ORACLE_VENV"
DEFAULT_VENV = ".cpn-oracle-venv"
LEGATE_CONFIG = "--cpus 1 --gpus 0 --sysmem 4000"
DEFAULT_TIMEOUT = 180.0
# Single-rank MPI so programs that import mpi4py run (and Doctor's mpi4py
# check can see the import). mpich's wheel ships the MPI library itself.
MPI_PACKAGES = ("mpi4py", "mpich")
# Host libraries simulation scripts use beside NumPy (plots, SciPy solvers),
# installed into the oracle environment and loaded before numpy is swapped.
HOST_PACKAGES = ("matplotlib", "scipy", "numba")

_READY_MARKER = "cpn-oracle-ready.json"
_STUB_DIR = "cuda-stub"

# A stand-in for libcuda.so.1: Legate probes the driver, hears "no device"
# from every entry point, and carries on with CPUs only.
LIBCUDA_STUB_C = r"""
#include <string.h>

typedef int CUresult;
#define CU_OK 0
#define CU_NO_DEVICE 100

static const char *no_device_name = "CUDA_ERROR_NO_DEVICE";
static const char *no_device_text = "no CUDA device (cpn-lint oracle: CPU-only driver stand-in)";

CUresult cuInit(unsigned int flags) { (void)flags; return CU_NO_DEVICE; }
CUresult cuDriverGetVersion(int *version) { if (version) *version = 13000; return CU_OK; }
CUresult cuDeviceGetCount(int *count) { if (count) *count = 0; return CU_NO_DEVICE; }
CUresult cuGetErrorName(CUresult error, const char **name) { (void)error; if (name) *name = no_device_name; return CU_OK; }
CUresult cuGetErrorString(CUresult error, const char **text) { (void)error; if (text) *text = no_device_text; return CU_OK; }
CUresult cuMemFreeHost(void *pointer) { (void)pointer; return CU_NO_DEVICE; }
CUresult cuMemFree_v2(unsigned long long pointer) { (void)pointer; return CU_NO_DEVICE; }

static CUresult any_other_entry(void) { return CU_NO_DEVICE; }

static void *entry_point(const char *symbol) {
    if (strcmp(symbol, "cuInit") == 0) return (void *)cuInit;
    if (strcmp(symbol, "cuDriverGetVersion") == 0) return (void *)cuDriverGetVersion;
    if (strcmp(symbol, "cuDeviceGetCount") == 0) return (void *)cuDeviceGetCount;
    if (strcmp(symbol, "cuGetErrorName") == 0) return (void *)cuGetErrorName;
    if (strcmp(symbol, "cuGetErrorString") == 0) return (void *)cuGetErrorString;
    return (void *)any_other_entry;
}

CUresult cuGetProcAddress(const char *symbol, void **function, int version,
                          unsigned long long flags, int *status) {
    (void)version; (void)flags;
    if (function) *function = entry_point(symbol);
    if (status) *status = 0;
    return CU_OK;
}

CUresult cuGetProcAddress_v2(const char *symbol, void **function, int version,
                             unsigned long long flags, int *status) {
    return cuGetProcAddress(symbol, function, version, flags, status);
}
"""

# Runs inside the oracle venv. Imports of numpy made by the program's own
# files (anything outside the Python installation) get cuPyNumeric, as after
# `import cupynumeric as np`; every library keeps the real NumPy, whenever it
# is loaded (matplotlib, SciPy: cupynumeric.patch's global swap crashes them,
# e.g. NumPy's own ufunc.outer segfaults once sys.modules["numpy"] is
# cuPyNumeric). matplotlib draws with its non-interactive Agg backend, so
# plt.pause and plt.show return at once. If the program stops with an
# exception, the innermost frame outside the Python installation is recorded
# (where the user's code stopped), then the exception propagates as usual
# (traceback, exit status 1, Doctor's report).
_BOOTSTRAP = """\
import builtins, json, os, runpy, sys, sysconfig, traceback
os.environ.setdefault("MPLBACKEND", "Agg")
import cupynumeric  # noqa: F401  starts Legate; numpy stays NumPy for every library
LIBRARY = tuple(os.path.realpath(p) for p in {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
_real_import = builtins.__import__

def _from_program(globals):
    filename = (globals or {}).get("__file__")
    return bool(filename) and not os.path.realpath(filename).startswith(LIBRARY)

def _public(name):
    return name.split(".")[0] == "numpy" and not any(part.startswith("_") for part in name.split("."))

def _import(name, globals=None, locals=None, fromlist=(), level=0):
    # NumPy's own C code imports its private modules with the caller's globals: those stay NumPy's.
    if level == 0 and _public(name) and _from_program(globals):
        name = "cupynumeric" + name[len("numpy"):]
    return _real_import(name, globals, locals, fromlist, level)

builtins.__import__ = _import
sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except BaseException as exc:
    if not isinstance(exc, SystemExit) or exc.code not in (None, 0):
        frames = [f for f in traceback.extract_tb(exc.__traceback__)
                  if os.path.isabs(f.filename) and not os.path.realpath(f.filename).startswith(LIBRARY)]
        where = frames[-1] if frames else None
        with open(os.environ["CPN_ORACLE_STOP_FILE"], "w") as out:
            json.dump({"error": type(exc).__name__, "message": str(exc)[:300],
                       "filename": where.filename if where else None,
                       "line": where.lineno if where else None}, out)
    raise
"""


class OracleError(RuntimeError):
    """The oracle environment could not be created or used; one-line reason."""


@dataclass(frozen=True)
class OracleRun:
    """One program run under Doctor."""

    program: str
    returncode: int  # -9 after a timeout
    report: list[dict]  # Doctor's entries, as written ([] when it found nothing)
    stderr_tail: str
    seconds: float
    timed_out: bool = False
    # How the program stopped, if it raised: error (exception type name),
    # message, and filename/line of the innermost frame in the user's code.
    stop: dict | None = None
    report_raw: str = ""  # the report exactly as Doctor wrote it ("" when it wrote none)
    stdout: str = ""  # what the program printed

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    def report_text(self) -> str:
        """The report as Doctor wrote it, or ``[]`` when it found nothing."""
        return self.report_raw or "[]\n"


def default_venv() -> Path:
    return Path(os.environ.get(VENV_ENV) or DEFAULT_VENV)


def venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def _ready_record(venv: Path) -> dict:
    try:
        data = json.loads((venv / _READY_MARKER).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def installed_version(venv: Path) -> str | None:
    """The cuPyNumeric version a finished setup recorded, else None."""
    version = _ready_record(venv).get("cupynumeric")
    return version if isinstance(version, str) and venv_python(venv).exists() else None


def installed_host_packages(venv: Path) -> tuple[str, ...]:
    """The host libraries a setup recorded installing beside cuPyNumeric."""
    host = _ready_record(venv).get("host")
    return tuple(h for h in host if isinstance(h, str)) if isinstance(host, list) else ()


def ensure_venv(venv: Path | None = None, *, version: str = CUPYNUMERIC_VERSION,
                with_mpi: bool = True, log: Callable[[str], None] | None = None) -> Path:
    """Create the oracle venv unless a finished one with ``version`` exists.

    Raises :class:`OracleError` when something needed is missing (network,
    gcc, a Python the wheels support).
    """
    venv = (venv or default_venv()).absolute()
    if installed_version(venv) == version and _has_host_packages(venv):
        return venv
    venv.parent.mkdir(parents=True, exist_ok=True)
    say = log or (lambda message: print(message, file=sys.stderr))
    lock = Path(tempfile.gettempdir()) / f"cpn-oracle-{hashlib.sha256(str(venv).encode()).hexdigest()[:16]}.lock"
    with _exclusive(lock):  # two test runs may race to create it
        if installed_version(venv) != version:
            _create(venv, version, with_mpi, say)
        elif not _has_host_packages(venv):
            _add_host_packages(venv, say)  # an environment from before the host libraries: add them, keep the rest
    return venv


def _has_host_packages(venv: Path) -> bool:
    return set(HOST_PACKAGES) <= set(installed_host_packages(venv))


def _add_host_packages(venv: Path, say: Callable[[str], None]) -> None:
    say(f"cpn-lint oracle: adding {', '.join(HOST_PACKAGES)} to {venv}")
    _pip_install(venv, HOST_PACKAGES)
    record = _ready_record(venv)
    record["host"] = list(HOST_PACKAGES)
    (venv / _READY_MARKER).write_text(json.dumps(record) + "\n")


def _pip_install(venv: Path, packages: Sequence[str]) -> None:
    _run([str(venv_python(venv)), "-m", "pip", "install", "-q", "--disable-pip-version-check", *packages],
         f"install {' '.join(packages)}")


@contextmanager
def _exclusive(lock_path: Path) -> Iterator[None]:
    with open(lock_path, "a") as handle:
        try:
            import fcntl
        except ImportError:  # not POSIX: no locking
            yield
            return
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _create(venv: Path, version: str, with_mpi: bool, say: Callable[[str], None]) -> None:
    compiler = shutil.which(os.environ.get("CC", "gcc")) or shutil.which("cc")
    if compiler is None:
        raise OracleError("no C compiler (gcc/cc) to build the CPU-only driver stand-in")
    if venv.exists():
        shutil.rmtree(venv)  # an unfinished or older setup
    started = time.monotonic()
    say(f"cpn-lint oracle: creating {venv} with nvidia-cupynumeric=={version} and {', '.join(HOST_PACKAGES)} "
        "(about 400 MB to download)")
    _run([sys.executable, "-m", "venv", str(venv)], "create the virtual environment")
    _pip_install(venv, [f"nvidia-cupynumeric=={version}", *(MPI_PACKAGES if with_mpi else ()), *HOST_PACKAGES])
    _build_stub(venv, compiler)
    _smoke_test(venv)
    record = {"cupynumeric": version, "mpi": with_mpi, "host": list(HOST_PACKAGES)}
    (venv / _READY_MARKER).write_text(json.dumps(record) + "\n")
    say(f"cpn-lint oracle: ready in {time.monotonic() - started:.0f} s")


def _run(command: list[str], what: str, timeout: float = 1800) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise OracleError(f"could not {what}: {exc}") from None
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise OracleError(f"could not {what}: {detail[-1] if detail else f'exit status {done.returncode}'}")


def _build_stub(venv: Path, compiler: str) -> None:
    target = venv / _STUB_DIR
    target.mkdir(parents=True, exist_ok=True)
    source = target / "libcuda_stub.c"
    source.write_text(LIBCUDA_STUB_C)
    _run([compiler, "-shared", "-fPIC", "-O1", "-o", str(target / "libcuda.so.1"), str(source)],
         "compile the CPU-only driver stand-in")


def _smoke_test(venv: Path) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        program = Path(scratch) / "smoke.py"
        program.write_text("import numpy as np\nprint(float(np.arange(4.0).sum()))\n")
        run = run_program(program, venv=venv, timeout=300)
    if not run.ok:
        raise OracleError(f"cuPyNumeric does not start on this machine: {run.stderr_tail.splitlines()[-1:] or run.returncode}")


def oracle_environment(venv: Path, report: Path, *, doctor: bool = True) -> dict[str, str]:
    """The child's environment: CPU-only Legate, Doctor on (unless
    ``doctor`` is false), JSON to ``report``."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP"}}
    library_path = env.get("LD_LIBRARY_PATH")
    stub = str(venv / _STUB_DIR)
    env.update(
        LD_LIBRARY_PATH=f"{stub}:{library_path}" if library_path else stub,
        LEGATE_AUTO_CONFIG="0",
        LEGATE_CONFIG=LEGATE_CONFIG,
        CUPYNUMERIC_DOCTOR="1" if doctor else "0",
        CUPYNUMERIC_DOCTOR_FORMAT="json",
        CUPYNUMERIC_DOCTOR_FILENAME=str(report),
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONUNBUFFERED="1",
    )
    return env


def run_program(program: Path | str, *, venv: Path | None = None, args: Sequence[str] = (),
                timeout: float = DEFAULT_TIMEOUT, doctor: bool = True) -> OracleRun:
    """Run ``program`` (its folder as working directory) under Doctor, or
    without it (``doctor=False``: to tell a failure Doctor's own checks
    cause from one of cuPyNumeric)."""
    venv = (venv or default_venv()).absolute()
    program = Path(program).resolve()
    if not venv_python(venv).exists():
        raise OracleError(f"no oracle environment at {venv}; run 'python -m cpn_lint.oracle setup'")
    with tempfile.TemporaryDirectory(prefix="cpn-oracle-") as scratch:
        report = Path(scratch) / "doctor-report.json"
        stop_file = Path(scratch) / "stop.json"
        env = oracle_environment(venv, report, doctor=doctor)
        env["CPN_ORACLE_STOP_FILE"] = str(stop_file)
        command = [str(venv_python(venv)), "-c", _BOOTSTRAP, str(program), *args]
        started = time.monotonic()
        try:
            done = subprocess.run(command, cwd=program.parent, env=env,
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=timeout, errors="replace")
            returncode, stdout, stderr, timed_out = done.returncode, done.stdout, done.stderr, False
        except subprocess.TimeoutExpired as exc:
            stdout, stderr = (_text(exc.stdout), _text(exc.stderr))
            returncode, timed_out = -9, True
        seconds = time.monotonic() - started
        raw = report.read_text() if report.exists() else ""
        entries = _parse_report(raw, report)
        stop = json.loads(stop_file.read_text()) if stop_file.exists() else None
    tail = "\n".join(_meaningful(stderr).splitlines()[-12:])
    return OracleRun(str(program), returncode, entries, tail, seconds, timed_out, stop, raw, _meaningful(stdout, keep_end=True))


def _text(output: bytes | str | None) -> str:
    return output.decode("utf-8", "replace") if isinstance(output, bytes) else (output or "")


def _parse_report(text: str, report: Path) -> list[dict]:
    if not text:
        return []  # Doctor writes no file when it found nothing
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise OracleError(f"Doctor's report {report} is not JSON: {exc}") from None
    if not isinstance(data, list):
        raise OracleError(f"Doctor wrote something other than a JSON list to {report}")
    return data


def _meaningful(output: str, keep_end: bool = False) -> str:
    """Output without the lines the stand-in driver makes Legate print."""
    noise = ("CUDA_ERROR_NO_DEVICE", "discover the CUDA resources")
    lines = [line for line in output.splitlines(keepends=keep_end) if not any(n in line for n in noise)]
    return "".join(lines) if keep_end else "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cpn_lint.oracle",
        description="Run NumPy programs under the real cuPyNumeric on CPUs with cuPyNumeric Doctor on.",
    )
    parser.add_argument("--venv", type=Path, default=None,
                        help=f"the oracle environment (default: ${VENV_ENV} or ./{DEFAULT_VENV})")
    sub = parser.add_subparsers(dest="command", required=True)
    setup = sub.add_parser("setup", help=f"install nvidia-cupynumeric=={CUPYNUMERIC_VERSION}, "
                           f"{', '.join(HOST_PACKAGES)} and the driver stand-in")
    setup.add_argument("--no-mpi", action="store_true", help="do not install mpi4py and mpich")
    run = sub.add_parser("run", help="run one program under Doctor and write its JSON report")
    run.add_argument("program", type=Path)
    run.add_argument("args", nargs="*", help="arguments for the program, after --")
    run.add_argument("-o", "--output", type=Path, default=Path("doctor-report.json"),
                     help="where to write Doctor's report (default: doctor-report.json)")
    run.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds before the run is stopped")
    argv = list(sys.argv[1:] if argv is None else argv)
    # argparse's subcommands mishandle "--": split the program's own arguments off first.
    program_args = argv[argv.index("--") + 1:] if "--" in argv else []
    ns = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    ns.args = [*getattr(ns, "args", []), *program_args]
    try:
        if ns.command == "setup":
            venv = ensure_venv(ns.venv, with_mpi=not ns.no_mpi)
            print(f"cuPyNumeric {installed_version(venv)} ready in {venv}")
            return 0
        if not ns.program.is_file():
            parser.error(f"{ns.program}: no such file")
        result = run_program(ns.program, venv=ns.venv, args=ns.args, timeout=ns.timeout)
    except OracleError as exc:
        print(f"cpn-lint oracle: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(result.stdout)
    ns.output.write_text(result.report_text())
    _summarise(result, ns.output)
    return 0 if result.ok else 1


def _summarise(result: OracleRun, output: Path) -> None:
    from .doctor import load_doctor_report

    findings = load_doctor_report(json.dumps(result.report), origin=str(output))
    status = "timed out" if result.timed_out else f"exit status {result.returncode}"
    print(f"{result.program}: {status} after {result.seconds:.1f} s; "
          f"Doctor reported {len(result.report)} issue(s), written to {output}")
    for finding in findings:
        code = finding.code or "no CPN code"
        print(f"  {finding.filename}:{finding.line}: {finding.check} ({code}) {finding.source}")
    if not result.ok and result.stderr_tail:
        print(result.stderr_tail, file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
