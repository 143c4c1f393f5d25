"""The card registry: one module per faction and one per set of bases.

Importing this package declares every implemented card and base in `smashup.engine.REGISTRY`.
"""
from . import aliens, core_bases, dinosaurs, ninjas, pirates, robots, wizards, zombies  # noqa: F401
