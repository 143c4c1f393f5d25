"""Invariants checked after every step of simulated games (DESIGN.md section 3 and 8)."""
from __future__ import annotations

import json
import re

from .core import CARD_OPTION_ID, CARD_OPTION_PREFIXES, PLAIN_OPTION_ID
from .state import IN_PLAY_ZONES


def check(game, previous_vp: list[int] | None = None) -> list[str]:
    """Return a list of violations (empty when the state is sound)."""
    problems = []
    problems += _zones(game)
    problems += _option_ids(game)
    problems += identical_options(game)
    for m in game.all_minions():
        power = game.power(m)
        if power < 0:
            problems.append(f"{game.name(m)} has negative power")
        if power != game.power_now(m):
            # The power cache (Game.version) missed a change: a rules bug, not a slow path.
            problems.append(f"{game.name(m)}'s power is stale: {power}, now {game.power_now(m)}")
    if previous_vp is not None:
        for p, before in zip(game.players, previous_vp, strict=True):
            if p.vp < before:
                problems.append(f"seat {p.seat} lost VP ({before} -> {p.vp})")
    # A view is its public part (the same for every seat) plus a private part: the public part
    # must show nothing hidden from anybody, and each private part nothing hidden from its seat.
    problems += game.mode_problems()
    public = card_ids_in(game.public_view()) & hidden_from_someone(game)
    if public:
        problems.append(f"the public view shows hidden cards {sorted(public)}")
    for seat in [None, *range(len(game.players))]:
        leaked = card_ids_in(game.private_view(seat)) & hidden_from(game, seat)
        if leaked:
            problems.append(f"view of seat {seat} shows hidden cards {sorted(leaked)}")
    return problems


def hidden_from_someone(game) -> set[int]:
    hidden = set(game.base_deck) - game.public_deck_cards()
    for p in game.players:
        hidden.update(p.deck)
        hidden.update(p.hand)
    return hidden


def _zones(game) -> list[str]:
    problems = []
    seen = {}

    def add(cid, zone):
        if cid in seen:
            problems.append(f"card {cid} is in {seen[cid]} and in {zone}")
        seen[cid] = zone
        if game.loc[cid] != zone:
            problems.append(f"card {cid} is in {zone} but located at {game.loc[cid]}")

    for p in game.players:
        for kind in ("deck", "hand", "discard"):
            for cid in getattr(p, kind):
                add(cid, (kind, p.seat))
    for slot in game.bases:
        add(slot.card, ("base", slot.uid))
        for m in slot.minions:
            add(m, ("minion", slot.uid))
            for a in game.minion_state[m].attached:
                add(a, ("attached", m))
        for a in slot.actions:
            add(a, ("base_action", slot.uid))
    for cid in game.base_deck:
        add(cid, ("base_deck",))
    for cid in game.base_discard:
        add(cid, ("base_discard",))
    for cid in game.resolving:
        add(cid, ("resolving",))
    for zone, cards in game.other_zones():
        for cid in cards:
            add(cid, zone)
    missing = set(range(len(game.defs))) - set(seen)
    if missing:
        problems.append(f"cards in no zone: {sorted(missing)}")
    minions = set(game.all_minions())
    if set(game.minion_state) != minions:
        problems.append("minion state does not match the minions in play")
    attached = {c for c, z in seen.items() if z[0] in IN_PLAY_ZONES and z[0] != "minion"}
    if set(game.action_state) != attached:
        problems.append("action state does not match the actions in play")
    if game._slot_of != {slot.uid: slot for slot in game.bases}:
        problems.append("the bases by uid (Game.slot) do not match the bases in play")
    if game.resolving and game.pending is not None and game.pending.kind == "play":
        problems.append("an action is still resolving at the main decision")
    return problems


def hidden_from(game, seat) -> set[int]:
    hidden = set(game.base_deck) - game.public_deck_cards()
    for p in game.players:
        hidden.update(p.deck)
        if p.seat != seat:
            hidden.update(p.hand)
    if game.pending is not None and game.pending.seat == seat:
        hidden.difference_update(getattr(game.pending, "reveal", ()))
    return hidden


def _option_ids(game) -> list[str]:
    """Each option id is its question's alone; every option id has one of the known shapes
    (`core.CARD_OPTION_ID`, made by `core.card_option_id`, or `core.PLAIN_OPTION_ID`, which
    names no card), and a card-shaped id names its option's card: so the leak check below reads
    every card an option id carries."""
    problems = []
    if game.pending is None:
        return problems
    ids = [o.id for o in game.pending.options]
    if len(set(ids)) != len(ids):
        # A choice names options by id (`apply`; the random bot picks the main decision's by
        # index, then its id: `_MainOptions.id_at`): two options may not share one.
        problems.append(f"options share an id: {sorted(i for i in set(ids) if ids.count(i) > 1)}")
    for o in game.pending.options:
        match = CARD_OPTION_ID.match(o.id)
        if match is None and PLAIN_OPTION_ID.match(o.id) is None:
            problems.append(f"option id {o.id!r} has an unknown shape (use core.card_option_id)")
        elif match is not None and int(match.group(2)) != o.card:
            problems.append(f"option {o.id!r} names card {match.group(2)}, not its card {o.card}")
    return problems


def identical_options(game) -> list[str]:
    """Identical copies never give identical options (issue 9 and 24): in a question that picks
    one option, no two options shown (`Option.alike` None) read the same, and no two shown are
    about cards a player cannot tell apart (`Game.alike_key`) with the same base and the same
    shape of id. A question picking several options may show alike copies (two Invaders to
    discard: each is a pick of its own)."""
    d = game.pending
    if d is None or d.max_count != 1:
        return []
    problems = []
    labels, cards = {}, {}
    for o in d.options:
        if o.alike is not None:
            continue
        label = o.label
        if label in labels:
            problems.append(f"decision {d.kind!r} ({d.prompt}) shows two options {labels[label]!r} "
                            f"and {o.id!r} that both read {label!r}")
        labels[label] = o.id
        match = CARD_OPTION_ID.match(o.id)
        if match is not None and o.card is not None:
            key = (match.group(1), match.group(3), game.alike_key(o.card), o.base)
            if key in cards:
                problems.append(f"decision {d.kind!r} ({d.prompt}) shows options {cards[key]!r} "
                                f"and {o.id!r} about copies nobody can tell apart")
            cards[key] = o.id
    return problems


_CARD_REF = re.compile(r'"(?:id|card|source)": (\d+)')
# Option ids that carry a card id (``m45``, ``m45@2``, ``a12``, ``c12``, ``t12``, ``s73:0``), the
# shapes `core.card_option_id` makes: a page could show one without its "card" key. Base (``b3``),
# player (``p1``), labelled (``o2``) and decision ids name no card.
_OPTION_REF = re.compile(r'"id": "[' + CARD_OPTION_PREFIXES + r'](\d+)(?:[@:]\d+)*"')


def card_ids_in(data) -> set[int]:
    """Every card id a view or message refers to (values of "id", "card" and "source" keys, and the
    card in an option id), read from its JSON form: the same text that goes over the wire."""
    text = data if isinstance(data, str) else json.dumps(data)
    ids = {int(n) for n in _CARD_REF.findall(text)}
    ids.update(int(n) for n in _OPTION_REF.findall(text))
    return ids


def leaks(game, seat) -> set[int]:
    return card_ids_in(game.view(seat)) & hidden_from(game, seat)
