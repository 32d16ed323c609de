"""Probe: vincenty.track2 on two scalar end points aborts the whole process
under cuPyNumeric (Legion 'Unsupported dimension 0 for output region').
faulthandler prints the Python stack at the abort, to find the library line."""
import faulthandler
import sys
import numpy as np
faulthandler.enable(file=sys.stdout)
print("PROBE numpy module is", np.__name__, flush=True)
import pymap3d.vincenty as vin
print("PROBE calling track2", flush=True)
out = vin.track2(40.0, -75.0, 51.5, -0.1, npts=16)
print("PROBE track2 ok", out, flush=True)
