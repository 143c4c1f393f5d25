"""Helpers to drive a game by names and labels, for tests and for checking rulings by hand.

    game = Scenario(...).build()
    play(game, "Collector", base="The Homeworld")   # the main decision's play option
    choose(game, "Invader")                         # the option whose label contains "Invader"
    decline(game)                                   # choose nothing (a "may")
"""
from __future__ import annotations

from .core import IllegalChoice
from .setup import find_cards


def card(game, name: str, zone: str | None = None, index: int = 0) -> int:
    """The id of a card by name (optionally in a kind of zone: "hand", "minion", "discard"...)."""
    found = find_cards(game, name, zone)
    if len(found) <= index:
        raise LookupError(f"no card {name!r} in zone {zone!r}")
    return found[index]


def base_uid(game, name: str) -> int:
    for slot in game.bases:
        if game.name(slot.card) == name:
            return slot.uid
    raise LookupError(f"no base {name!r} in play")


def where(game, cid: int) -> str:
    """Where a card is: the name of the base a minion is on, else its kind of zone ("hand", ...)."""
    zone = game.loc[cid]
    return game.name(game.slot(zone[1]).card) if zone[0] == "minion" else zone[0]


def hand_names(game, seat: int = 0) -> list[str]:
    """The names of the cards in a seat's hand, sorted."""
    return sorted(game.name(c) for c in game.players[seat].hand)


def log_texts(game) -> list[str]:
    """Every log line, public or private, oldest first."""
    return [text for text, _ in game.log_lines]


def labels(game) -> list[str]:
    # What a player sees: an identical copy's option is shown once (core.Option.alike).
    return [o.label for o in game.pending.options if o.alike is None] if game.pending else []


def _find(game, wanted):
    d = game.pending
    if d is None:
        raise IllegalChoice("the game is over")
    if isinstance(wanted, int):  # a card id or a base uid
        for o in d.options:
            if o.card == wanted:
                return o.id
        for o in d.options:
            if o.base == wanted:
                return o.id
        raise LookupError(f"no option about {wanted} in {labels(game)}")
    for o in d.options:
        if o.id == wanted:
            return o.id
    matches = [o for o in d.options if wanted in o.label and o.alike is None]
    if len(matches) != 1:
        raise LookupError(f"{wanted!r} matches {len(matches)} options of {labels(game)}")
    return matches[0].id


def choose(game, *wanted) -> None:
    """Answer the pending decision with options named by id, label fragment, card id or base uid."""
    d = game.pending
    game.apply(d.seat, d.id, [_find(game, w) for w in wanted])


def decline(game) -> None:
    d = game.pending
    game.apply(d.seat, d.id, [])


def play(game, name: str, base: str | None = None, index: int = 0) -> None:
    """Play a card from the deciding seat's hand in the main decision (a minion needs `base`)."""
    d = game.pending
    hand = [c for c in game.players[d.seat].hand if game.name(c) == name]
    if len(hand) <= index:
        raise LookupError(f"{name!r} is not in seat {d.seat}'s hand")
    cid = hand[index]
    uid = base_uid(game, base) if base is not None else None
    for o in d.options:
        if o.card == cid and (uid is None or o.base == uid):
            game.apply(d.seat, d.id, [o.id])
            return
    raise LookupError(f"cannot play {name!r} now: {labels(game)}")


def end_play(game) -> None:
    """End the Play Cards phase (the main decision's "end" option)."""
    d = game.pending
    game.apply(d.seat, d.id, ["end"])


def snapshot(game) -> tuple:
    """Everything a refused choice must leave exactly as it was."""
    return (
        game.digest(),
        list(game.loc),
        len(game.choices),
        game.pending.public() if game.pending else None,
        len(game.log_lines),
        game.rng.getstate(),
        [p.vp for p in game.players],
    )


def assert_refused(game, choice, seat=None, decision_id=None) -> IllegalChoice:
    """Apply a choice that must be refused; fail unless it raises IllegalChoice and changes
    nothing at all. `seat` and `decision_id` default to the pending decision's."""
    pending = game.pending
    seat = pending.seat if seat is None and pending else seat
    decision_id = pending.id if decision_id is None and pending else decision_id
    before = snapshot(game)
    try:
        game.apply(seat, decision_id, choice)
    except IllegalChoice as refusal:
        if snapshot(game) != before:
            raise AssertionError("a refused choice changed the game") from refusal
        return refusal
    raise AssertionError(f"the choice {choice!r} was accepted")


def record_events(game) -> list:
    """Every event the game announces from now on, in order (the list fills as the game goes)."""
    seen = []
    emit = game.emit

    def recording(event):
        seen.append(event)
        emit(event)

    game.emit = recording
    return seen
