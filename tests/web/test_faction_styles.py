"""Each implemented faction has its own colour and emblem, and every emblem is drawn in the sprite."""
import re
from pathlib import Path

import smashup.cards  # noqa: F401
from smashup.engine import REGISTRY
from smashup.play.render import FACTION_STYLES, faction_key

ROOT = Path(__file__).resolve().parents[2]


def test_every_implemented_faction_has_a_colour_and_an_emblem_of_its_own():
    sprite = (ROOT / "templates/play/_emblems.html").read_text()
    css = (ROOT / "static/css/play.css").read_text()
    symbols = set(re.findall(r'<symbol id="em-([a-z]+)"', sprite))
    assert set(REGISTRY.factions) <= set(FACTION_STYLES)
    assert len(set(FACTION_STYLES.values())) == len(FACTION_STYLES)  # no two share an emblem
    for name, emblem in FACTION_STYLES.items():
        assert emblem in symbols, name
        assert f".fac-{faction_key(name)} {{ --fac:" in css, name
