"""Driver for stochastic (crflynn/stochastic): samples from its public
process classes. Each call prints `CALL name: ok` or the exception; CHECK
lines print seed-independent invariants (lengths, start values, time grids)
to compare against a plain-NumPy run."""
import sys
import traceback
import numpy as np

try:
    import stochastic
    from stochastic import random as srandom
    from stochastic.processes.continuous import (BrownianMotion, BrownianBridge,
        FractionalBrownianMotion, GeometricBrownianMotion, PoissonProcess)
    from stochastic.processes.diffusion import (OrnsteinUhlenbeckProcess,
        CoxIngersollRossProcess)
    from stochastic.processes.discrete import RandomWalk
    from stochastic.processes.noise import ColoredNoise
    print("CALL import stochastic: ok")
except Exception as e:
    print(f"CALL import stochastic: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    traceback.print_exc(file=sys.stdout)
    raise SystemExit(0)


def call(name, fn):
    try:
        out = fn()
        print(f"CALL {name}: ok")
        return out
    except Exception as e:
        msg = str(e).splitlines()[0] if str(e) else ""
        print(f"CALL {name}: {type(e).__name__}: {msg}")
        traceback.print_exc(file=sys.stdout)
        return None


def check(name, value):
    print(f"CHECK {name}: {float(value):.10g}")


call("random.seed", lambda: srandom.seed(42))

bm = BrownianMotion(drift=0.5, scale=1.0, t=1.0)
r = call("BrownianMotion.sample", lambda: bm.sample(64))
if r is not None:
    check("bm.len", len(r))
    check("bm.start", r[0])
r = call("BrownianMotion.times", lambda: BrownianMotion(t=1.0).times(64))
if r is not None:
    check("bm.times_sum", np.sum(r))

r = call("FractionalBrownianMotion.sample(daviesharte)", lambda: FractionalBrownianMotion(hurst=0.7, t=1).sample(64))
if r is not None:
    check("fbm.len", len(r))
    check("fbm.start", r[0])

r = call("GeometricBrownianMotion.sample", lambda: GeometricBrownianMotion(drift=0.1, volatility=0.2, t=1).sample(64, initial=1.0))
if r is not None:
    check("gbm.start", r[0])
    check("gbm.positive", np.all(r > 0))

r = call("OrnsteinUhlenbeckProcess.sample", lambda: OrnsteinUhlenbeckProcess(speed=1, vol=0.5, t=1).sample(64, initial=0.3))
if r is not None:
    check("ou.start", r[0])
    check("ou.len", len(r))

r = call("PoissonProcess.sample", lambda: PoissonProcess(rate=5).sample(n=10))
if r is not None:
    check("poisson.len", len(r))
    check("poisson.monotone", np.all(np.diff(r) >= 0))

r = call("ColoredNoise(beta=1).sample", lambda: ColoredNoise(beta=1, t=1).sample(64))
if r is not None:
    check("pink.len", len(r))

r = call("BrownianBridge.sample", lambda: BrownianBridge(b=1.0, t=1).sample(64))
if r is not None:
    check("bridge.start", r[0])
    check("bridge.end", r[-1])

r = call("CoxIngersollRossProcess.sample", lambda: CoxIngersollRossProcess(speed=1, mean=0.5, vol=0.1, t=1).sample(64, initial=0.5))
if r is not None:
    check("cir.start", r[0])

r = call("RandomWalk.sample", lambda: RandomWalk(steps=[-1, 1], weights=[0.5, 0.5]).sample(20))
if r is not None:
    check("rw.len", len(r))
    check("rw.start", r[0])
