"""The observation API, in the OpenSpiel sense, for bots and analysis: `legal_actions()` (the
stable list of what the pending decision offers), `legal_choices()` (every whole answer), and
`observation(seat)` (everything that seat knows, and nothing more).

An action is an option id of the pending decision (`Game.apply` takes a list of them). A
decision answered by one option (`min_count == max_count == 1`, most of them) is one action.
A decision answered by several (`max_count > 1`: discard 2 cards) or by none (`min_count == 0`:
a "may") is answered by a list of min..max distinct actions, the empty list declining:
`legal_choices` lists those whole answers. Options marked `alike` (an identical copy's play,
never shown: core.Option) are left out, as a view leaves them out: taking one is taking the
option shown for it.

No rules here: the project's contract (DESIGN.md section 3).
"""
from __future__ import annotations

from itertools import combinations, islice

from .knowledge import PILE, PLACE


def legal_actions(game) -> list[str]:
    """The option ids of the pending decision, in its order (alike copies left out); [] when
    the game is over."""
    decision = game.pending
    if decision is None:
        return []
    return [opt.id for opt in decision.options if opt.alike is None]


def legal_choices(game, limit: int | None = None) -> list[tuple[str, ...]]:
    """Every legal answer to the pending decision, each a tuple of option ids for `apply`:
    one id each for a one-option decision; for the others every set of min..max distinct
    options (smallest first, each in the decision's order; `()` declines), at most `limit`."""
    decision = game.pending
    if decision is None:
        return []
    ids = legal_actions(game)
    low, high = decision.min_count, min(decision.max_count, len(ids))
    if low == high == 1:
        return [(i,) for i in ids][:limit]
    every = (c for k in range(low, high + 1) for c in combinations(ids, k))
    return list(islice(every, limit))


def observation(game, seat: int) -> dict:
    """What `seat` knows: its view (`Game.view`: the board, its hand, its decision, the log it
    may read) and, from what it saw (knowledge.py, tracked from now on if it was not), the hidden
    cards it knows: "known" holds, per player, the cards of that player's hand it knows of
    ("hand") and the known cards of that player's deck ("deck": each with its "position" from
    the top when known, else "position" None); "base_deck" likewise; "unseen", per player,
    the names of that player's cards whose place it does not know (in their hand or deck: every
    card of their factions not seen elsewhere, so nothing more than the table can count);
    "legal_actions", its actions when the decision is its own."""
    if game.knowledge is None:
        game.track_knowledge()
    data = game.view(seat)
    knowledge = game.knowledge
    known, unseen = {}, {}
    for player in game.players:
        mine = player.seat == seat
        hand = [] if mine else [game.card_view(c) for c in player.hand
                                if knowledge.where(seat, c, ("hand", player.seat)) == PLACE]
        deck, names = [], []
        for i, c in enumerate(player.deck):
            knows = knowledge.where(seat, c, ("deck", player.seat))
            if knows is None:
                names.append(game.name(c))
            else:
                deck.append({**game.card_view(c), "position": i if knows == PLACE else None})
        if not mine:
            names += [game.name(c) for c in player.hand
                      if knowledge.where(seat, c, ("hand", player.seat)) is None]
        known[str(player.seat)] = {"hand": hand, "deck": deck}
        unseen[str(player.seat)] = sorted(names)
    shown = game.public_deck_cards()
    base_deck = []
    for i, c in enumerate(game.base_deck):
        knows = PLACE if c in shown else knowledge.where(seat, c, ("base_deck",))
        if knows in (PLACE, PILE):
            base_deck.append({**game.card_view(c), "position": i if knows == PLACE else None})
    data["known"] = {"players": known, "base_deck": base_deck}
    data["unseen"] = unseen
    decision = game.pending
    data["legal_actions"] = legal_actions(game) if decision is not None and decision.seat == seat else []
    return data
