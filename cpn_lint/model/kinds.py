"""What kind of value an expression evaluates to, as far as the rules care."""

from __future__ import annotations

import enum


class Kind(enum.Enum):
    DEVICE = "device-array"  # an array cuPyNumeric will distribute (rank >= 1, or rank unknown)
    DEVICE_SCALAR = "device-scalar"  # a 0-d (or one-element) device array: a reduction, an element, np.sqrt(2)
    HOST = "host-array"  # an array of the host alias beside cupynumeric
    CUPY = "cupy-array"  # a CuPy array: another runtime
    SEQ = "array-sequence"  # a Python tuple/list of arrays (np.nonzero, np.split)
    GENERATOR = "random-generator"  # np.random.default_rng(...)
    SCALAR = "python-number"  # a Python number: a literal, len(x), float(x), arithmetic on them
    NOT = "not-array"  # list, dict, set, str, range, module, function, ...
    UNKNOWN = "unknown"
    # Inside the value engine's solve only: "no information yet" (a binding
    # of a cycle not evaluated so far). Never an answer: every public query
    # reads it as UNKNOWN. Distinct from UNKNOWN so that a cycle's first
    # round cannot lower what the other bindings of the cycle decide.
    BOTTOM = "no-information-yet"

    # Members are singletons compared by identity; Enum's own __hash__ runs
    # Python code, and the value engine hashes kinds hundreds of thousands of times.
    __hash__ = object.__hash__

    @property
    def is_array(self) -> bool:
        """An array with at least one axis (or of unknown rank), on any runtime."""
        return self in (Kind.DEVICE, Kind.HOST, Kind.CUPY)

    @property
    def is_device(self) -> bool:
        """A value cuPyNumeric holds: reading it on the host waits for the runtime."""
        return self in (Kind.DEVICE, Kind.DEVICE_SCALAR)


NEUTRAL = frozenset({Kind.SCALAR, Kind.UNKNOWN})


def join(kinds: list[Kind]) -> Kind:
    """Combine the kinds of every binding that may reach a use.

    Numbers and unknowns are neutral (``err = 1.0`` before ``err = np.max(..)``
    is the accumulator idiom: ``err`` is a device scalar); anything certainly
    not an array wins, so a name that is sometimes a list stays quiet. A
    device array and a device scalar join to a device array of unknown rank.
    BOTTOM (no information yet) adds nothing; only BOTTOM joins to BOTTOM.
    """
    first = kinds[0] if kinds else None
    if first is not None and all(k is first for k in kinds):
        return first  # the common case: one binding, or all alike (same answer as below)
    if any(k is Kind.BOTTOM for k in kinds):
        kinds = [k for k in kinds if k is not Kind.BOTTOM]
        if not kinds:
            return Kind.BOTTOM
        first = kinds[0]
        if all(k is first for k in kinds):
            return first
    # Identity tests, not set membership: hashing an Enum member runs Python code.
    informative = {k for k in kinds if k is not Kind.SCALAR and k is not Kind.UNKNOWN}
    if not informative:
        if Kind.SCALAR in kinds and Kind.UNKNOWN not in kinds:
            return Kind.SCALAR
        return Kind.UNKNOWN
    if Kind.NOT in informative:
        return Kind.NOT
    if len(informative) == 1:
        return next(iter(informative))
    if informative == {Kind.DEVICE, Kind.DEVICE_SCALAR}:
        return Kind.DEVICE
    return Kind.UNKNOWN
