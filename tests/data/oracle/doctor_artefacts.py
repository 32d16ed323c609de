"""np.mgrid under cuPyNumeric 26.6.1, with Doctor on and off: under Doctor
every use raises AttributeError (its checks read ``.ndim`` of the grid
object, which has none); without it real steps run and a point count (a
complex step) raises TypeError, which CPN404 reports; the recipe it gives
(np.meshgrid of np.linspace, indexing='ij') runs. Prints one JSON object,
form -> "ok (shape)" or the exception's name."""
import json

import numpy as np


def attempt(make):
    try:
        return f"ok {tuple(make().shape)}"
    except Exception as exc:  # the oracle's verdict is the exception's type
        return type(exc).__name__


def mgrid_with_real_steps():
    return np.mgrid[0:4, 0:3]


def mgrid_with_point_count():
    return np.mgrid[0:1:5j, 0:1:3j]


def recipe_meshgrid_of_linspace():
    return np.stack(np.meshgrid(np.linspace(0, 1, 5), np.linspace(0, 1, 3), indexing="ij"))


print(json.dumps({case.__name__: attempt(case) for case in (
    mgrid_with_real_steps, mgrid_with_point_count, recipe_meshgrid_of_linspace)}))
