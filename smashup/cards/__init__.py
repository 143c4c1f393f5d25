"""The card registry: one module per faction and one per set of bases.

Importing this package declares every implemented card and base in `smashup.engine.REGISTRY`.
"""
from . import (  # noqa: F401
    aliens,
    core_bases,
    dinosaurs,
    grannies,
    iyf_bases,
    mythic_greeks,
    ninjas,
    pirates,
    robots,
    rock_stars,
    sharks,
    superheroes,
    tricksters,
    wizards,
    wwwt_bases,
    zombies,
)
