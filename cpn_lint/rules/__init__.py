"""One module per rule, named ``cpnNNN_<idiom>.py``.

Importing a module registers its rule (see :mod:`cpn_lint.registry`);
:func:`cpn_lint.registry.load_rules` imports them all, so a new rule needs no
edit anywhere else.
"""
