"""Bots choose among the options of `game.pending`.

`random_choice` picks uniformly (for fuzzing); `heuristic_choice` plays to score bases: it puts
minions where they make a base score while it wins there (or where they take a better place),
aims each choice by the intent the decision declares (`Decision.intent`: "harm" at other
players' cards, "help" at its own; core.INTENTS), uses a Special only when it gains a better
place on a scoring base, and keeps its best cards when it must discard.

It knows no card by name (a test reads this file): everything it weighs comes from the decision
and the board.
"""
from __future__ import annotations

import random

import cython

from .core import Decision
from .rng import _SMALL, KeyedRandom, _Bits

# Below the value of ending the Play Cards phase (0): a play that helps nobody, kept in hand.
USELESS = -1.0
# The counts a keyed stream's `_Bits.below` draws below (rng.py's `_SMALL`), a C constant compiled.
_BELOW_BITS = cython.declare(cython.longlong, _SMALL)


@cython.locals(d=Decision, src=_Bits, n=cython.longlong)
def random_choice(game, rng: random.Random) -> list[str]:
    # `game` untyped: anything with the open question as `pending` (test_bot_draws).
    d = game.pending
    # What `rng.randint(min, max)` and `rng.sample(options, count)` draw, without their argument
    # checks (a random game asks this hundreds of times): the same draws from the same stream,
    # so seeded games are unchanged (test_bots_draw_as_randint_and_sample).
    n = d.max_count - d.min_count + 1
    if type(rng) is KeyedRandom and 0 < n < _BELOW_BITS:
        # The keyed stream's own bits, drawn as its `_randbelow` draws them (the same numbers),
        # by C calls compiled rather than a Python method call each.
        src = rng._src
        count = d.min_count + src.below(n)
        if count == 1:
            n = d.option_count()
            if 0 < n < _BELOW_BITS:
                return [d.option_id(src.below(n))]
    else:
        count = d.min_count + rng._randbelow(n)
    if count == 1:
        # By index, so the main decision makes only the Option picked (`Decision.option_id`).
        return [d.option_id(rng._randbelow(d.option_count()))]
    return [o.id for o in rng.sample(d.options, count)]


def heuristic_choice(game, rng: random.Random) -> list[str]:
    d = game.pending
    seat = d.seat
    if d.kind == "play":
        return [max(d.options, key=lambda o: (_play_value(game, seat, o), rng.random())).id]
    if d.kind == "special":
        return [_special_choice(game, seat, d)]
    if d.kind == "confirm":
        if d.option("yes").label == "Mulligan":
            return ["yes" if _no_minion_hand(game, seat) else "no"]
        if _scoring_special(game, d):
            # A Special of a card in play while a base is about to score (moving a minion
            # there): used unless declining wins more.
            return [_looked_ahead(game, seat, ["yes", "no"])]
        return ["yes"]
    if d.kind == "discard":
        keep = sorted(d.options, key=lambda o: _card_value(game, o.card))
        return [o.id for o in keep[: d.min_count]]
    if d.kind == "extra":
        value = _extra_value
    else:
        value = _target_value
    values = {o.id: value(game, seat, d, o) for o in d.options}
    scored = sorted(d.options, key=lambda o: (values[o.id], rng.random()), reverse=True)
    if d.min_count == 0:
        return [o.id for o in scored if values[o.id] > 0][: d.max_count]
    return [o.id for o in scored[: max(d.min_count, 1)]]



def option_values(game) -> dict[str, float]:
    """The heuristic bot's worth of each option of the open decision, higher first, without its
    look-ahead and without chance: the order in which a search (expert.py) tries them. Where the
    heuristic bot picks the least worth (the cards it discards), the worth is negated."""
    d = game.pending
    seat = d.seat
    if d.kind == "play":
        return {o.id: _play_value(game, seat, o) for o in d.options}
    if d.kind == "discard":
        return {o.id: -_card_value(game, o.card) for o in d.options}
    if d.kind == "special":
        # Used or kept is what a search looks at; a Special that can be used is tried first.
        return {o.id: (0.0 if o.id == "pass" else 1.0) for o in d.options}
    if d.kind == "confirm":
        no_minion = d.option("yes") is not None and d.option("yes").label == "Mulligan"
        yes = 1.0 if not no_minion or _no_minion_hand(game, seat) else 0.0
        return {o.id: (yes if o.id == "yes" else 1.0 - yes if o.id == "no" else 0.5) for o in d.options}
    value = _extra_value if d.kind == "extra" else _target_value
    return {o.id: value(game, seat, d, o) for o in d.options}

# ---------------------------------------------------------------------------- the board -----
def _no_minion_hand(game, seat):
    return not any(game.defs[c].is_minion for c in game.players[seat].hand)


def _card_value(game, cid):
    defn = game.defs[cid]
    return defn.power if getattr(defn, "is_minion", False) else 2.5


def _powers(game, uid) -> dict[int, int]:
    return {p.seat: game.player_power(uid, p.seat) for p in game.players}


def _vp_for(game, uid, seat, powers) -> float:
    """The VP `seat` would get if base `uid` scored with these powers (no power, no VP; tied
    players share a place)."""
    mine = powers.get(seat, 0)
    if mine <= 0:
        return 0.0
    place = len({p for s, p in powers.items() if s != seat and p > mine})
    vp = game.base_def(game.slot(uid)).vp
    return float(vp[place]) if place < len(vp) else 0.0


def _stake(game, uid, seat, powers, total) -> float:
    """What base `uid` is worth to `seat` with these powers and this total: the VP it would get,
    in full once the base reaches its breakpoint, else by how close it is; minus a share of the
    best VP another player would get, so that a base is also worth denying."""
    slot = game.slot(uid)
    breakpoint = max(game.breakpoint(slot), 1)
    near = 1.0 if total >= breakpoint else (total / breakpoint) ** 2
    rival = max((_vp_for(game, uid, s, powers) for s in powers if s != seat), default=0.0)
    return near * (_vp_for(game, uid, seat, powers) - 0.5 * rival)


def _gain(game, seat, uid, power, for_seat=None) -> float:
    """What adding `power` to `for_seat`'s side of base `uid` is worth to `seat`: the change of
    its stake there (a base made to score while it wins there is worth its first place)."""
    owner = seat if for_seat is None else for_seat
    powers = _powers(game, uid)
    total = game.total_power(game.slot(uid))
    before = _stake(game, uid, seat, powers, total)
    powers[owner] = powers.get(owner, 0) + power
    return _stake(game, uid, seat, powers, total + power) - before


def _ready_bases(game) -> list[int]:
    return [s.uid for s in game.bases if game.total_power(s) >= game.breakpoint(s)]


# ---------------------------------------------------------------------------- plays --------
def _play_value(game, seat, option) -> float:
    value = option.value
    if value[0] == "end":
        return 0.0
    if value[0] == "talent":
        return 0.5
    if value[0] == "action":
        return _action_value(game, seat, value[1])
    # A minion from hand ("minion", card, base) or from the discard pile ("discard", card, base,
    # way): the same judgement of where it goes.
    return _minion_value(game, seat, value[1], value[2])


def _minion_value(game, seat, cid, uid) -> float:
    power = game.defs[cid].power
    if game.config.get("mode") == "bigbase":
        # Big Base scores total power on the board, plus a bonus for the most power on a side:
        # any minion counts; one that takes the lead on its side counts more.
        mine = game.player_power(uid, seat) + power
        best_other = max((game.player_power(uid, p.seat) for p in game.players if p.seat != seat),
                         default=0)
        return 2.0 + power / 10 + (1.0 if mine > best_other >= mine - power else 0.2)
    return 2.0 + power / 10 + 3 * _gain(game, seat, uid, power)


def _action_value(game, seat, cid) -> float:
    """An action that goes on a minion or a base is worth its best host by its declared intent
    (none worth having: kept in hand); any other action is worth playing."""
    defn = game.defs[cid]
    if defn.attach is None or defn.intent is None:
        return 1.5
    hosts = game.attach_hosts(seat, cid)
    if defn.attach == "minion":
        best = max((_minion_target(game, seat, m, defn.intent) for m in hosts), default=USELESS)
    else:
        best = max((_base_target(game, seat, u, defn.intent, None) for u in hosts),
                   default=USELESS)
    return 1.5 if best > 0 else USELESS


def _extra_value(game, seat, decision, option) -> float:
    """An extra play offered by an ability: a minion on a base like a play, an action like one."""
    if option.card is None:
        return _target_value(game, seat, decision, option)
    defn = game.defs[option.card]
    if defn.is_minion and option.base is not None:
        return _minion_value(game, seat, option.card, option.base)
    return _action_value(game, seat, option.card)


# ---------------------------------------------------------------------------- Specials -----
# Choices a look-ahead makes at most before it stops (a base about to score has scored by then).
LOOKAHEAD_CHOICES = 200


def _special_choice(game, seat, decision) -> str:
    """A Special from the hand is used when it wins this player VP on the base about to score,
    tried out on a copy of the game (the record replayed): the Special used, then everyone
    passing, until the base has scored; against passing. A Special that would do nothing (no
    minion to bring, no better place) is kept. With no base about to score (after scoring, at
    the start of a turn), a Special that can be used is used."""
    usable = [o for o in decision.options if o.id != "pass"]
    if not usable:
        return "pass"
    if not _ready_bases(game) or getattr(game, "_bot_lookahead", False):
        return "pass" if getattr(game, "_bot_lookahead", False) else usable[0].id
    if decision.option("pass") is None:
        return usable[0].id
    return _looked_ahead(game, seat, ["pass"] + [o.id for o in usable])


def _scoring_special(game, decision) -> bool:
    source = decision.source
    return (source is not None and game.is_minion_in_play(source)
            and bool(getattr(game.defs[source], "specials", ())) and bool(_ready_bases(game))
            and not getattr(game, "_bot_lookahead", False))


def _looked_ahead(game, seat, option_ids) -> str:
    """The first of `option_ids` that leaves this seat the best VP lead once the next base has
    scored (`_vp_after_scoring`); a later one only when strictly better."""
    record = game.record()
    record.pop("hashes", None)
    best, best_vp = None, None
    for option_id in option_ids:
        vp = _vp_after_scoring(game, record, seat, option_id)
        if best_vp is None or vp > best_vp:
            best, best_vp = option_id, vp
    return best


def _vp_after_scoring(game, record, seat, first) -> float:
    """This seat's VP lead over the best other player once the next base has scored, in a copy of
    the game where it answers the pending question with `first`, every later Special window is
    passed by everyone (what others hold stays unknown) and every other question is answered by
    this bot without looking ahead."""
    from .setup import replay

    branch = replay(record, game.registry, verify=False)
    branch._bot_lookahead = True
    scored = branch.bases_scored
    d = branch.pending
    branch.apply(d.seat, d.id, [first])
    rng = random.Random(0)
    for _ in range(LOOKAHEAD_CHOICES):
        d = branch.pending
        if d is None or branch.bases_scored > scored:
            break
        branch.apply(d.seat, d.id, heuristic_choice(branch, rng))
    mine = branch.players[seat].vp
    lead = mine - max(p.vp for p in branch.players if p.seat != seat)
    branch.close()  # freed at once, not by the cycle collector
    return lead


# ---------------------------------------------------------------------------- targets ------
def _target_value(game, seat, decision, option) -> float:
    intent = decision.intent
    card = option.card
    if card is not None and card in game.minion_state:
        return _minion_target(game, seat, card, intent)
    if card is not None and card in game.action_state:
        own = game.action_state[card].controller == seat
        return _aimed(intent, own, 2.0)
    if card is not None:
        owner = game.owner[card]
        worth = 1 + _card_value(game, card)
        if intent is None or owner is None:
            return worth
        # Harm: another player's best card, else its own least; help: the other way round.
        return _aimed(intent, owner == seat, worth)
    if names_a_faction(game, decision):
        return _faction_target(game, seat, decision, option.value, intent)
    if option.id.startswith("p") and option.id[1:].isdigit():
        other = int(option.id[1:])
        # Harm the leader most; help oneself.
        return _aimed(intent or "harm", other == seat, 1 + game.players[other].vp)
    if option.base is not None and game.slot_or_none(option.base) is not None:
        return _base_target(game, seat, option.base, intent, decision.subject)
    return 1.0


def _aimed(intent, own: bool, worth: float) -> float:
    """The value of aiming a choice of this intent at a card worth `worth`: harm another
    player's or help one's own is worth it; the other way round costs (the least is best)."""
    if intent is None:
        return worth
    wanted = own if intent == "help" else not own
    return worth if wanted else -worth / 10


def _minion_target(game, seat, m, intent) -> float:
    """A minion in play, weighed by its power and by what its base is worth to its controller
    (a minion that wins a base about to score matters most)."""
    controller = game.minion_state[m].controller
    power = game.power(m)
    uid = game.base_of(m)
    # What its power does for its controller there, as that player sees it.
    matters = max(0.0, -_gain(game, controller, uid, -power))
    worth = 1 + power / 2 + 3 * matters
    return _aimed(intent, controller == seat, worth)


def _base_target(game, seat, uid, intent, subject) -> float:
    slot = game.slot(uid)
    powers = _powers(game, uid)
    mine = powers.get(seat, 0)
    if subject is not None and game.defs[subject].is_minion:
        power = game.power(subject) if subject in game.minion_state else game.defs[subject].power
        owner = game.controller(subject)
        if owner is None:
            owner = seat
        if intent == "help" or (intent is None and owner == seat):
            # Taking it there: what it brings there for its controller.
            return 1 + _gain(game, seat, uid, power, for_seat=owner)
        # Sending another player's minion there: where it brings its player (and takes from
        # this one) least.
        return 1 - _gain(game, owner, uid, power)
    others = game.total_power(slot) - mine
    near = game.total_power(slot) / max(game.breakpoint(slot), 1)
    if intent == "harm":
        return 1 + others - 2 * mine + near
    return 1 + mine + near * (1 if mine >= max(powers.values(), default=0) else 0.3)


def names_a_faction(game, decision) -> bool:
    """A question naming a faction (`Ctx.name_faction`): a choice whose
    every option is a faction of this game."""
    if decision.kind != "choice":
        return False
    factions = {f for p in game.players for f in p.factions}
    return all(o.value in factions for o in decision.options)


def _faction_target(game, seat, decision, faction, intent) -> float:
    """A faction to name: for harm one of other players' (never its own), weighed by their
    minions of it in play, most on the base of the card that asks; for help the reverse."""
    own = faction in game.players[seat].factions
    here = game.base_of(decision.source) if decision.source is not None else None
    worth = 1.0
    for m in game.all_minions():
        if game.defs[m].faction == faction and game.controller(m) != seat:
            worth += game.power(m) * (3 if game.base_of(m) == here else 1) / 5
    return _aimed(intent or "harm", own, worth)


BOTS = {"random": random_choice, "heuristic": heuristic_choice}
