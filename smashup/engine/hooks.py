"""What a card's declared abilities make the game keep track of while it is in play.

`GameState` (state.py) keeps the cards in play in indexes by hook, so that a rule asks only the
cards that can answer it: power modifiers, breakpoint changes, protections, triggers, talents,
replacements, play restrictions, cancellers, extra plays. Which definitions belong to which index
is declared here, once, and read by `GameState._indexes_of` (Big Base's game too).

Also here: how far a card's power effects reach (`power_locality`, `reach_confined`), which the
state's power cache reads to recount only the bases a move can change (CR "Power": a minion's
power is its printed power with every modifier in force; most modifiers read only their base).
"""
from __future__ import annotations

import cython

from .registry import BaseDef, CardDef, _Declares

# `power_locality`: a card reads only its minion's base / moreover reaches only its own.
READS_LOCALLY = 1
MOVES_LOCALLY = 2


def power_locality(defn) -> int:
    """What a card's abilities let power read beyond its own base: READS_LOCALLY when in play
    it changes only what its own modifier and protections declare `local` (a card moved on
    another base changes nothing they add or cover); MOVES_LOCALLY when moreover its arriving
    or leaving changes only the powers on its base (a modifier or protection reaching only
    there, and it cancels nothing); 0 otherwise (`Game.wide_readers`)."""
    locality = MOVES_LOCALLY
    if getattr(defn, "power_modifier", None) is not None:
        if not defn.modifier_local:
            return 0
        if defn.modifier_to is None:
            locality = READS_LOCALLY  # asked about every minion: its arrival reaches them all
    for prot in getattr(defn, "protections", ()):
        if prot.kind == "affect" and not prot.local:  # only "affect" ones gate a modifier
            return 0
    if getattr(defn, "cancels_base", False) or getattr(defn, "cancels_host", False):
        locality = READS_LOCALLY  # what it cancels may reach other bases
    return locality


def reach_confined(defn) -> bool:
    """Whether every power a card changes is on its own base, whatever its abilities read: its
    modifier reaches only itself, its host or the minions here (`modifier_to`), its protections
    that gate a modifier cover only its base (`local`), and it cancels nothing (what it cancels
    may be anywhere). Such a card among the `wide_readers` (Microbot Alpha) needs only its base
    counted afresh after a local change elsewhere (`_new_power_version`); its own move counts
    everything afresh (`_board_moved`: its locality is 0)."""
    if getattr(defn, "power_modifier", None) is not None and defn.modifier_to is None:
        return False
    for prot in getattr(defn, "protections", ()):
        if prot.kind == "affect" and not prot.local:
            return False
    return not (getattr(defn, "cancels_base", False) or getattr(defn, "cancels_host", False))


# The indexes of cards in play by hook (`GameState._place_in`): (attribute, which definitions
# belong, whether a base in play counts too).
INDEXES = (
    ("modifier_sources", lambda d: getattr(d, "power_modifier", None) is not None, True),
    ("breakpoint_sources", lambda d: (getattr(d, "starting_breakpoint", None) is not None
                                      or getattr(d, "breakpoint_modifier", None) is not None),
     False),
    ("protectors", lambda d: bool(getattr(d, "protections", ())), True),
    ("reactive", lambda d: d.kind != "base" and bool(getattr(d, "triggers", ())), False),
    ("talented", lambda d: getattr(d, "talent", None) is not None, False),
    ("replacers", lambda d: bool(getattr(d, "replacements", ())), True),
    ("restrictors", lambda d: bool(getattr(d, "restrictions", ())), False),
    # attached actions that cancel their host minion's abilities (Cuddle): `cancelled_cards`
    ("host_cancellers", lambda d: getattr(d, "cancels_host", False), False),
    # offering plays each turn or widening where a play's card may come from (Game.legal_plays)
    ("play_offering", lambda d: any(tg.zone == "play" for tg in getattr(d, "turn_grants", ()))
     or bool(getattr(d, "play_sources", ())), True),
    # whose modifier or protection may read beyond a minion's base (`_new_power_version`)
    ("wide_readers", lambda d: not power_locality(d), True),
)


@cython.locals(d=_Declares, card=CardDef)
def indexes_wanted(defn) -> tuple:
    """Whether `defn` belongs to each index of INDEXES, in its order: INDEXES's tests, written
    out on the declared fields of a card or a base (compiled: C reads, no call per test; every
    new game asks it of each of its definitions). Anything else is asked INDEXES's own tests.
    tests/engine/test_index_membership.py checks both agree on every definition."""
    kind = type(defn)
    if kind is not CardDef and kind is not BaseDef:
        return tuple([bool(wanted(defn)) for _name, wanted, _bases_too in INDEXES])
    d = defn
    talent = restricted = cancels_host = False  # a base declares none of these
    if kind is CardDef:
        card = defn
        talent = card.talent is not None
        restricted = bool(card.restrictions)
        cancels_host = bool(card.cancels_host)
    return (d.power_modifier is not None,
            d.starting_breakpoint is not None or d.breakpoint_modifier is not None,
            bool(d.protections), d.kind != "base" and bool(d.triggers), talent,
            bool(d.replacements), restricted, cancels_host, _offers_plays(d),
            not power_locality(d))


@cython.locals(d=_Declares, tg=object)
def _offers_plays(d) -> bool:
    """Whether a card or a base offers plays each turn or widens where a play's card may come
    from (the "play_offering" index)."""
    if d.play_sources:
        return True
    for tg in d.turn_grants:
        if tg.zone == "play":
            return True
    return False

