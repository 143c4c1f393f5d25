"""The card registry: one module per faction and one per set of bases.

Importing this package declares every implemented card and base in `smashup.engine.REGISTRY`.
"""
# The engine first: importing it puts the compiled build's finder in place (engine/native.py),
# before the card modules below are looked up.
from smashup import engine  # noqa: F401, I001

from . import (  # noqa: F401
    aliens,
    core_bases,
    dinosaurs,
    dragons,
    explorers,
    grannies,
    iyf_bases,
    mythic_greeks,
    ninjas,
    pirates,
    robots,
    rock_stars,
    sharks,
    superheroes,
    teddy_bears,
    tornados,
    tricksters,
    wizards,
    wwwt_bases,
    zombies,
)
