"""Run under the oracle (cuPyNumeric 26.6.1, CPU, Doctor on) by
test_runtime_claims.py: call the functions of the suite's programs with
small inputs and print, as one JSON line, how each call ended: ``ok`` or
the exception's type name. ``python runtime_claims.py FILES_DIR``.

The acceptance expectations rest on these runtime facts (a copy that the
write does not reach, APIs that are missing, forms that raise); the test
compares them with what it expects, so a case whose ground truth were wrong
about 26.6.1 would show here.
"""

from __future__ import annotations

import importlib
import json
import sys

import numpy as np

sys.path.insert(0, sys.argv[1])
outcomes: dict[str, str] = {}


def probe(label: str, call) -> None:  # type: ignore[no-untyped-def]
    try:
        call()
        outcomes[label] = "ok"
    except Exception as exc:  # noqa: BLE001 - the exception's type is the fact recorded
        outcomes[label] = type(exc).__name__


def module(name: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(name)


grid = np.random.rand(16, 16)
tall = np.random.rand(8, 4)
signal = np.random.rand(64)

m = module("scales_well")
probe("scales_well.solve", lambda: m.solve(16, 3))
probe("scales_well.vectorized_update", lambda: m.vectorized_update(grid, grid, grid, 0.5))
probe("scales_well.matmul_chain", lambda: m.matmul_chain(grid, grid, grid))
probe("scales_well.masked_assign", lambda: m.masked_assign(grid.copy(), grid > 0.5, 0.0))
probe("scales_well.fused_with_out", lambda: m.fused_with_out(grid, grid, np.empty_like(grid)))
probe("jacobi_heat.solve", lambda: module("jacobi_heat").solve(16, 3))
m = module("dense_linalg")
probe("dense_linalg.normal_equations", lambda: m.normal_equations(tall, np.random.rand(8, 2)))
probe("dense_linalg.batched_solve", lambda: m.batched_solve(np.random.rand(5, 3, 3) + 3 * np.eye(3), np.random.rand(5, 3, 2)))
probe("dense_linalg.svd_energy", lambda: m.svd_energy(tall))
probe("dense_linalg.svd_energy(stacked)", lambda: m.svd_energy(np.random.rand(2, 4, 3)))
probe("dense_linalg.qr_factor", lambda: m.qr_factor(tall))
probe("dense_linalg.qr_factor(stacked)", lambda: m.qr_factor(np.random.rand(2, 4, 3)))
probe("dense_linalg.residual_norms", lambda: m.residual_norms(tall, np.random.rand(4, 2), np.random.rand(8, 2), np.empty((8, 2))))
probe("monte_carlo_good", lambda: module("monte_carlo_good").black_scholes_mc(100.0, 100.0, 0.05, 0.2, 1.0, 1000, 10))
probe("numpy.random.standard_normal", lambda: np.random.standard_normal(4))
probe("dense_with_scipy_boundary", lambda: module("dense_with_scipy_boundary").band_energy(np.random.rand(4, 64), 0.2, 4))
probe("monte_carlo_bs", lambda: module("monte_carlo_bs").black_scholes_mc(100.0, 100.0, 0.05, 0.2, 1.0, 1000, 10))
m = module("needs_refactor")
probe("needs_refactor", lambda: (m.alloc_in_loop(3, 10), m.rebind_in_loop(np.ones(10), np.ones(10)), m.stack_in_loop(3, 4),
                                 m.nonzero_then_index(np.ones(10), np.arange(10) > 4), m.reshape_in_hot_loop(np.ones(10), 3)))
probe("convergence_loop", lambda: module("convergence_loop").solve(8, 1e-2))
m = module("api_gap_hotpath")
probe("api_gap_hotpath.normalize", lambda: m.normalize(signal))
probe("api_gap_hotpath.process", lambda: m.process(1000))
probe("item_sync", lambda: module("item_sync").solve(8, 3, 1e-9))
matrix = np.arange(9.0).reshape(3, 3)
probe("view_mutation", lambda: module("view_mutation").regularize(matrix, 1.0))
outcomes["view_mutation: diagonal after the write"] = str([float(matrix[i, i]) for i in range(3)])
m = module("many_blocks")
probe("many_blocks.scale_each_element", lambda: m.scale_each_element(np.ones(5)))
probe("many_blocks.downsample_blend", lambda: m.downsample_blend(np.ones(10)))
m = module("blocks_scaling")
probe("blocks_scaling.apply_vectorize", lambda: m.apply_vectorize(np.ones(5)))
probe("blocks_scaling.object_dtype", lambda: m.object_dtype([[1, 2], [3, 4]]))
probe("blocks_scaling.fortran_order_reshape", lambda: m.fortran_order_reshape(np.ones(400)))
m = module("sequential_recurrence")
probe("sequential_recurrence", lambda: m.detector(signal, 0.1, 0.5))
m = module("tiny_array")
probe("tiny_array.make_lowpass", lambda: m.make_lowpass())
probe("tiny_array.fir_filter", lambda: m.fir_filter(np.random.rand(8192), np.random.rand(64)))
probe("tiny_array.zero_crossings", lambda: m.zero_crossings(np.random.rand(8192) - 0.5))
probe("unlisted_api.evaluate", lambda: module("unlisted_api").evaluate(35, 8, 4, 2.5))
outcomes["numpy.mgrid exists"] = str(hasattr(np, "mgrid"))
print("RUNTIME-CLAIMS " + json.dumps(outcomes, sort_keys=True))
