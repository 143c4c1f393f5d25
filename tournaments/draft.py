"""The Kickin' It Queensberry draft moved to ``smashup.draft`` (a rule both play and tournaments use,
owned by neither). This name stays for code and tests written against it."""

from smashup.draft import *  # noqa: F403
from smashup.draft import FACTIONS_EACH, SETS  # noqa: F401  (named for readers and linters)
