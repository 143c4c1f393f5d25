"""Bots choose among the options of `game.pending`.

`random_choice` picks uniformly (for fuzzing); `heuristic_choice` plays sensibly: it plays minions
where they win or approach a base, aims harmful effects at opponents and helpful ones at itself,
uses its Specials and keeps its best cards when it must discard.
"""
from __future__ import annotations

import random

# Abilities whose targets should be the bot's own cards (moves and swaps it benefits from).
SELF_TARGETED = {"Way of Deception", "Disguise", "Smoke Bomb", "Ninja Acolyte",
                 "Dinghy", "Full Sail", "Sacrifice", "Powderkeg"}


def random_choice(game, rng: random.Random) -> list[str]:
    d = game.pending
    count = rng.randint(d.min_count, d.max_count)
    return [o.id for o in rng.sample(d.options, count)]


def heuristic_choice(game, rng: random.Random) -> list[str]:
    d = game.pending
    seat = d.seat
    if d.kind == "play":
        return [max(d.options, key=lambda o: (_play_value(game, seat, o), rng.random())).id]
    if d.kind == "special":
        usable = [o for o in d.options if o.id != "pass"]
        return [usable[0].id] if usable else ["pass"]
    if d.kind == "confirm":
        return ["yes" if d.option("yes").label != "Mulligan" or _no_minion_hand(game, seat)
                else "no"]
    if d.kind == "discard":
        keep = sorted(d.options, key=lambda o: _card_value(game, o.card))
        return [o.id for o in keep[: d.min_count]]
    scored = sorted(d.options, key=lambda o: (_target_value(game, seat, d, o), rng.random()),
                    reverse=True)
    if d.min_count == 0:
        good = [o for o in scored if _target_value(game, seat, d, o) > 0][: d.max_count]
        return [o.id for o in good]
    return [o.id for o in scored[: max(d.min_count, 1)]]


def _no_minion_hand(game, seat):
    return not any(game.defs[c].is_minion for c in game.players[seat].hand)


def _card_value(game, cid):
    defn = game.defs[cid]
    return defn.power if defn.is_minion else 2.5


def _play_value(game, seat, option) -> float:
    value = option.value
    if value[0] == "end":
        return 0.0
    if value[0] == "talent":
        return 0.5
    if value[0] == "action":
        return 1.5
    # A minion from hand ("minion", card, base) or from the discard pile ("discard", card, base,
    # way): the same judgement of where it goes.
    cid, uid = value[1], value[2]
    slot = game.slot(uid)
    power = game.defs[cid].power
    mine = game.player_power(uid, seat) + power
    best_other = max((game.player_power(uid, p.seat) for p in game.players if p.seat != seat),
                     default=0)
    total = game.total_power(slot) + power
    bdef = game.base_def(slot)
    breakpoint = game.breakpoint(slot)  # the current one: Rampage, Turn Up to 11
    score = 2.0 + power / 10
    if total >= breakpoint:
        score += bdef.vp[0] if mine > best_other else -1.0
    else:
        closeness = total / breakpoint
        score += closeness * (1.0 if mine >= best_other else 0.3)
    return score


def _target_value(game, seat, decision, option) -> float:
    source = game.defs[decision.source].name if decision.source is not None else ""
    friendly = source in SELF_TARGETED
    if option.card is not None and option.card in game.minion_state:
        own = game.minion_state[option.card].controller == seat
        power = game.power(option.card)
        if friendly:
            return 1 + power if own else -1
        return -1 if own else 1 + power
    if option.card is not None and option.card in game.action_state:
        # An action in play (Disenchant): harm other players' ones, keep its own.
        return -1 if game.action_state[option.card].controller == seat else 2
    if option.card is not None:
        return 1 + _card_value(game, option.card)
    if option.id.startswith("p") and option.id[1:].isdigit():
        # A player to aim at (Mark of Sleep): anyone but itself.
        return -1 if int(option.id[1:]) == seat else 1
    if option.base is not None:
        slot = game.slot_or_none(option.base)
        return 1 + (game.player_power(option.base, seat) if slot else 0)
    return 1.0


BOTS = {"random": random_choice, "heuristic": heuristic_choice}
