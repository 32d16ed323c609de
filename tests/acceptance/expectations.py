"""What each case of the reference skill's evaluation suite requires of
``cpn-verdict``, written as data (SPEC §4, "Acceptance").

The suite itself (programs, questions, prose, expected verdicts) stays in
``../shared/reference/skill-evals`` and is read at run time; nothing of it is
copied here. This file is the project's own reading of each case's
``expected_behavior``: which codes must be reported and where, which must
not be reported anywhere, and the gate statuses the case states. The
expected verdict is not repeated: it is read from the suite's
``cases.json``.

Idioms map by number: the suite's R0xx/R3xx (SCALES/INFO, assessment
codes) are CPN0xx/CPN3xx, R1xx CPN1xx, R2xx CPN2xx, R410 CPN410.

A site locates its line by ``anchor``, a few characters of that line of the
program (never a sentence of the suite). When several lines contain the
anchor, ``nth`` says which (1-based, in file order); without it the anchor
must be on one line only.

``pending`` names a class of the tool that is known not to meet the case
yet and who owns its fix. The tier reports pending mismatches as expected
failures with that reason, fails as soon as one is fixed (so the marker is
removed in the same change) and, with ``CPN_ACCEPTANCE_STRICT=1``, fails on
them like on any other mismatch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BLOCKS = tuple(f"CPN1{n:02d}" for n in range(1, 12))
REFACTOR = tuple(f"CPN20{n}" for n in range(1, 7))
API = ("CPN401", "CPN402", "CPN403", "CPN404")
INFO = tuple(f"CPN30{n}" for n in range(1, 6))
SCOPE = ("CPN410",)


def but(codes: tuple[str, ...], *keep: str) -> tuple[str, ...]:
    """``codes`` without ``keep`` ("no BLOCKS other than CPN105")."""
    return tuple(c for c in codes if c not in keep)


# Classes that do not meet a case yet, and whose fix they are (issue 23).


@dataclass(frozen=True)
class Site:
    """``code`` must be reported at the line ``anchor`` locates."""

    code: str
    anchor: str
    nth: int | None = None  # which line holding the anchor, when several do
    # Codes that name the same idiom at that line instead: SCALES report one
    # finding per statement, under its most specific code (CPN001 doc).
    instead: tuple[str, ...] = ()
    pending: str | None = None

    @property
    def codes(self) -> tuple[str, ...]:
        return (self.code, *self.instead)


@dataclass(frozen=True)
class Expect:
    required: tuple[Site, ...] = ()
    forbidden: tuple[str, ...] = ()  # reported nowhere in the program
    gates: dict[int, str] = field(default_factory=dict)  # gate number -> status symbol the case states
    context: dict[str, str] = field(default_factory=dict)  # context key -> text its value contains
    verdict_pending: str | None = None


STENCIL = "work[1:-1, 1:-1] = 0.25"
SWAP = "u, work = work, u"

CASES: dict[str, Expect] = {
    # SCALES R001-R007 named in the functions the case lists; nothing BLOCKS or REFACTOR.
    "ready-001": Expect(
        required=(
            Site("CPN005", STENCIL),
            Site("CPN002", "np.sqrt(np.sum(diff"),
            Site("CPN006", SWAP),
            Site("CPN001", "np.where(a > 0", instead=("CPN004",)),
            Site("CPN004", "np.where(a > 0"),
            Site("CPN003", "np.matmul(A, np.matmul(B, C))"),
            Site("CPN007", "arr[mask] = value"),
            Site("CPN006", "np.add(a, b, out=out)"),
            Site("CPN006", "np.multiply(out, 0.5, out=out)"),
        ),
        forbidden=BLOCKS + REFACTOR,
        gates={2: "✓", 4: "✓"},
    ),
    # The canonical Jacobi: stencil and buffer swap, allocations hoisted (no R201).
    "ready-002": Expect(
        required=(Site("CPN005", STENCIL), Site("CPN006", SWAP)),
        forbidden=("CPN201",),
        gates={2: "✓", 4: "✓"},
    ),
    # GEMM and reductions scale; svd/qr single-device (R302, and single-GPU API gaps);
    # the batched solve is R305; nothing BLOCKS or REFACTOR.
    "ready-003": Expect(
        required=(
            Site("CPN003", "np.matmul(np.matmul(X.T, W), Y)"),
            Site("CPN003", 'np.einsum("ij,ik->jk"'),
            Site("CPN003", "rhs = np.matmul(A.T, b)"),
            Site("CPN002", "np.sqrt(np.mean(out, axis=0))"),
            Site("CPN002", "np.linalg.norm(per_rhs)"),
            Site("CPN006", "np.subtract(pred, b, out=out)"),
            Site("CPN006", "np.multiply(out, out, out=out)"),
            Site("CPN302", "np.linalg.svd(A)"),
            Site("CPN302", "np.linalg.qr(A)"),
            Site("CPN402", "np.linalg.svd(A)"),
            Site("CPN402", "np.linalg.qr(A)"),
            Site("CPN305", "np.linalg.solve(A_batch, b_batch)"),
        ),
        forbidden=BLOCKS + REFACTOR,
        gates={4: "✓"},
    ),
    # The draw is hoisted: no R201; R304 is a note; R001/R002 scale.
    "ready-004": Expect(
        required=(
            Site("CPN304", "np.random.randn(n_steps, n_paths)"),
            Site("CPN001", "payoff = np.maximum(s - K, 0.0)"),
            Site("CPN002", "np.mean(payoff)"),
        ),
        forbidden=BLOCKS + REFACTOR,
        gates={2: "✓", 4: "✓"},
    ),
    # The SciPy filter design is a one-time boundary (R301); the tap loop is not R101.
    "ready-005": Expect(
        required=(
            Site("CPN301", "signal.butter(order"),
            Site("CPN006", "np.multiply(x[:, k : k + valid]"),
            Site("CPN006", "np.add(acc[:, :valid]"),
            Site("CPN006", "np.divide(x, energy, out=out)"),
            Site("CPN002", "np.sqrt(np.sum(x * x, axis=1"),
            Site("CPN002", "np.mean(np.square(band), axis=1)"),
        ),
        forbidden=BLOCKS + REFACTOR,
    ),
    # The per-step draw in the time loop is R201; R304 note; R001/R002 scale; no R101/R104/mpi4py.
    "light-001": Expect(
        required=(
            Site("CPN201", "z = np.random.randn(n_paths)"),
            Site("CPN304", "z = np.random.randn(n_paths)"),
            Site("CPN001", "paths[:, t] = paths[:, t - 1] * np.exp("),
            Site("CPN002", "np.mean(payoff)"),
        ),
        forbidden=("CPN101", "CPN104", "CPN108"),
    ),
    # Five REFACTOR idioms, one per function; no BLOCKS.
    "light-002": Expect(
        required=(
            Site("CPN201", "temp = np.zeros(n)"),
            Site("CPN202", "x = x + y"),
            Site("CPN203", "arr = np.vstack([arr, new_row])"),
            Site("CPN204", "idx = np.nonzero(condition)"),
            Site("CPN206", "reshaped = data.reshape(2, -1)"),
        ),
        forbidden=BLOCKS,
    ),
    # The while test on an array reduction is the only BLOCK (R105); stencil and swap scale.
    "light-003": Expect(
        required=(
            Site("CPN105", "while np.max(np.abs(u - work)) > tol:"),
            Site("CPN005", STENCIL),
            Site("CPN006", SWAP),
        ),
        forbidden=("CPN201", *but(BLOCKS, "CPN105")),
    ),
    # The cuPyNumeric <-> CuPy hop every iteration is R111; the out= op is neither R201 nor R202.
    "light-004": Expect(
        required=(Site("CPN111", "y = cp.asarray(np.asarray(scratch))"),),
        forbidden=("CPN201", "CPN202", *but(BLOCKS, "CPN111")),
    ),
    # np.interp is missing on the data path (a demotion); the final float(np.max(...)) is not R104.
    "light-005": Expect(
        required=(Site("CPN401", "np.interp(dst_grid, src_grid, signal)"),),
        forbidden=("CPN104",),
        gates={2: "✓"},
    ),
    # float(np.max(...)) every iteration is the one BLOCK (R104); the if on that float is not R105.
    "light-006": Expect(
        required=(
            Site("CPN104", "err = float(np.max(np.abs(u - work)))"),
            Site("CPN005", STENCIL),
            Site("CPN006", SWAP),
        ),
        forbidden=("CPN201", *but(BLOCKS, "CPN104")),
    ),
    # Writing to np.diag's result is R205 (reported where the copy is made); nothing else,
    # and np.diag is no API gap.
    "light-007": Expect(
        required=(Site("CPN205", "d = np.diag(matrix)"),),
        forbidden=BLOCKS + but(REFACTOR, "CPN205") + API + INFO + SCOPE,
    ),
    # mpi4py (R108) plus R101-R110, each in its function.
    "significant-001": Expect(
        required=(
            Site("CPN108", "from mpi4py import MPI"),
            Site("CPN101", "for i in range(n):"),
            Site("CPN102", "np.vectorize("),
            Site("CPN103", "for row in arr:"),
            Site("CPN104", "s = np.sum(arr).item()"),
            Site("CPN105", "if err < tol:"),
            Site("CPN106", "arr[::2] + arr[1::2]"),
            Site("CPN107", "dtype=object"),
            Site("CPN109", 'order="F"'),
            Site("CPN110", "float(min(arr))"),
        ),
    ),
    # Several BLOCKS, none of them mpi4py.
    "significant-002": Expect(
        required=(
            Site("CPN101", "for i in range(n):"),
            Site("CPN104", "err = float(np.max(np.abs(u - work)))"),
            Site("CPN103", "for row in arr:"),
            Site("CPN106", "arr[::2] + arr[1::2]"),
        ),
        forbidden=("CPN108",),
    ),
    # scipy.sparse and the scikit-learn import are the Gate 4 evidence.
    "norec-001": Expect(
        required=(
            Site("CPN410", "from scipy import sparse"),
            Site("CPN410", "from sklearn.metrics.pairwise import cosine_similarity"),
        ),
        gates={4: "✗"},
    ),
    # The user's 8192 elements fail Gate 2; np.sinc is missing.
    "norec-002": Expect(
        required=(Site("CPN401", "np.sinc("),),
        gates={2: "✗"},
    ),
    # A breadth-first search over a dict of lists: Gate 4.
    "norec-003": Expect(
        required=(Site("CPN410", "while queue:"),),
        gates={4: "✗"},
    ),
    # Two feedback recurrences (IIR, EWMA): Gate 4, not R101.
    "norec-004": Expect(
        required=(
            Site("CPN410", "for n in range(1, x.shape[0]):", nth=1),
            Site("CPN410", "for n in range(1, x.shape[0]):", nth=2),
        ),
        forbidden=("CPN101",),
        gates={4: "✗"},
    ),
    # Clean code on a Pascal GPU: Gate 1 fails; no code-level BLOCKS or REFACTOR invented.
    "norec-005": Expect(
        forbidden=BLOCKS + REFACTOR,
        gates={1: "✗"},
    ),
    # No sizes or hardware given: the stated defaults, stencil and swap, no R201.
    "meta-defaults": Expect(
        required=(Site("CPN005", STENCIL), Site("CPN006", SWAP)),
        forbidden=("CPN201",),
        context={"elements": "30–50 million", "gpus": "1–4", "nodes": "1"},
        gates={2: "✓", 4: "✓"},
    ),
    # Two nodes: svd/qr are single-GPU (matter now), solve needs the size threshold, GEMM still scales.
    "meta-multinode": Expect(
        required=(
            Site("CPN402", "np.linalg.svd(A)"),
            Site("CPN402", "np.linalg.qr(A)"),
            Site("CPN305", "np.linalg.solve(A_batch, b_batch)"),
            Site("CPN003", "np.matmul(np.matmul(X.T, W), Y)"),
            Site("CPN003", 'np.einsum("ij,ik->jk"'),
            Site("CPN002", "np.linalg.norm(per_rhs)"),
        ),
        context={"nodes": "2"},
    ),
    # The vectorised hot path scales; np.mgrid (unlisted, works in 26.6.1) is no gap.
    "meta-unlisted": Expect(
        required=(
            Site("CPN001", "r2 = np.add(np.square(xs), np.square(ys))"),
            Site("CPN001", "envelope = np.exp(-0.5 * r2"),
            Site("CPN001", "phase = np.cos(k * xs) * np.cos(k * ys)"),
            Site("CPN002", "energy = np.sqrt(np.sum(np.square(field)))"),
            Site("CPN004", "np.where(energy > 0.0"),
        ),
        forbidden=BLOCKS + REFACTOR + API,
        gates={2: "✓"},
    ),
}
