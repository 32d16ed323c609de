"""The acceptance tier: the reference skill's own evaluation suite (SPEC §4)."""
