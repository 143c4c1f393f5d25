"""When may a player take back a choice? The rule, as plain functions over engine games.

A seat may take back its own choice while it is the last choice of the record (nobody else has
chosen since) and the choice taught nobody anything that the seat could use after taking it back:

- the engine's random generator is in the same state before and after (no deck or base deck was
  shuffled, nothing was drawn at random; an undo must never re-roll a shuffle);
- no new private log line (somebody was told something only they may read: a draw, a look at a
  hand);
- for every viewer (each seat and the spectator), every card id its view shows after the choice was
  already in its view before, or in the view of the seat that chose (the cards it played from its own
  hand become visible to all: that is the chooser's own information, like a card laid on the table
  and picked up again). So nothing came out of a deck, the base deck or another player's hand, and no
  card was revealed to anyone by a decision;
- the decision open after it is still the chooser's own: once the game waits on another player, the
  choice showed the chooser something about that player (in "fast" Specials mode a Special window only
  opens for a player who holds a usable Special, so the mere question tells the table they hold one);
- in "fast" Specials mode, no Special window looked at another player's hand during the choice: a
  window that passes silently for a player tells the table they hold no usable Special, which is just
  as hidden. (In "ask" mode every player is asked, so a window shows nothing.)
- no card left a hidden zone that is not the chooser's own hand: another player's hand, any deck
  (the chooser's own too: nobody knows its order), the base deck. Even when the chooser had seen the
  card (Probe shows them a hand), the card comes out where everyone sees it: taken back and chosen
  again, the same choice would show the table that hand one card at a time;
- no hidden card was shown where it lay (a deck's top revealed to the table or looked at, a hand
  looked at: the engine's ``Game.disclosures``), unless it is a card of the chooser's own hand: a
  public reveal writes no private line and moves nothing, yet taken back and chosen again it would
  show the next card of the deck every time;
- the choice was not made among cards that other people's hidden information put in front of the
  chooser: the decision revealed cards to the chooser alone (``Decision.reveal``: a hand looked at,
  the top of a deck), or offered cards from another player's hand, a deck or the base deck. Taken
  back, such a choice could be made again knowing what the first answer showed.

The chooser's own hand is theirs: playing a card from it and taking that back shows the table only
what the chooser chose to show (like a card laid on the table and picked up again).

The rule is checked twice: when the choice is applied (``block_reason`` on the engine game before and
after it, stored on the choice, so pages can offer the Undo button without replaying), and again by
``services.undo_choice`` on a game rebuilt from the record without the choice.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from smashup.engine.invariants import card_ids_in


@dataclass(frozen=True)
class Snapshot:
    rng: tuple
    known: dict  # viewer (seat or None) -> frozenset of the card ids in its view
    log_len: int
    # Where each card of a hidden zone was: card id -> ("hand", seat), ("deck", seat), ("base_deck",).
    hidden: dict
    # Why the decision open now (its seat's) is answered knowing someone's hidden cards: a code of
    # `REASONS`, or "".
    secret_decision: str
    disclosures: int = 0  # len(game.disclosures): hidden cards shown where they lay so far


def hidden_zones(game) -> dict:
    """Every card of a zone hidden from someone, with its zone (the engine's `loc` form)."""
    zones = {cid: ("base_deck",) for cid in game.base_deck}
    for p in game.players:
        for cid in p.deck:
            zones[cid] = ("deck", p.seat)
        for cid in p.hand:
            zones[cid] = ("hand", p.seat)
    return zones


def secret_decision(game, hidden: dict) -> str:
    """Why the open decision is made among hidden cards of others, as a code of `REASONS` ("" when it
    is not): it shows its seat cards that only it sees, or offers cards from a hand not its own, a
    deck or the base deck."""
    pending = game.pending
    if pending is None:
        return ""
    own_hand = ("hand", pending.seat)
    if any(hidden.get(cid, own_hand) != own_hand for cid in getattr(pending, "reveal", ())):
        return "shown_to_you"
    if any(o.card is not None and hidden.get(o.card, own_hand) != own_hand for o in pending.options):
        return "hidden_offered"
    return ""


def snapshot(game) -> Snapshot:
    # A view is the public part plus the seat's own part (`Game.view`), so the public part's card ids
    # are read once, not once per viewer (this runs twice for every choice a person makes).
    public = card_ids_in(game.public_view())
    viewers = [None, *range(len(game.players))]
    hidden = hidden_zones(game)
    return Snapshot(
        rng=game.rng.getstate(),
        known={v: frozenset(public | card_ids_in(game.private_view(v))) for v in viewers},
        log_len=len(game.log_lines),
        hidden=hidden,
        secret_decision=secret_decision(game, hidden),
        disclosures=len(game.disclosures),
    )


@contextmanager
def watching_specials(game) -> Iterator[set]:
    """The seats whose hands a Special window looked at while the block runs (a set, filled in when
    the block ends), from the engine's own account of it (`Game.special_checks`): a window that passes
    a player silently is otherwise invisible."""
    start = len(game.special_checks)
    seen: set = set()
    try:
        yield seen
    finally:
        seen.update(game.special_checks[start:])


# Why a choice cannot be taken back: a short code (pages and clients key on it) and its words (stored
# on the choice, `Choice.undo_block`, and shown to the player who made it).
REASONS = {
    "random": "cards were shuffled or something was decided at random",
    "shown_to_you": "it was chosen among cards shown to you alone",
    "hidden_offered": "it was chosen among cards from a hidden hand or deck",
    "revealed": "a hidden card was revealed",
    "hand_revealed": "a card of another player's hand was revealed",
    "drawn": "a hidden card was drawn or revealed",
    "shown_hidden": "someone was shown something hidden",
    "other_deciding": "another player is deciding now",
    "special_check": "the game checked whether another player could play a Special",
    # Not from the rule above: set where the choice is stored, or read from the record.
    "bot": "it was made by the bot",
    "timed_out": "it was made by the bot when the time ran out",
    "time_called": "time was called",
    "chosen_since": "another player has chosen since",
}
_CODES = {text: code for code, text in REASONS.items()}


def reason_code(text: str) -> str:
    """The code of a stored reason (`Choice.undo_block`): "" when there is none, "other" for words
    this table does not know (a row stored by an older version)."""
    if not text:
        return ""
    return _CODES.get(text, "other")


def block_reason(
    before: Snapshot, after_game, seat: int, peeked=frozenset(), after: Snapshot | None = None
) -> str:
    """Why `seat`'s choice that led from `before` to `after_game` cannot be taken back ('' if it can),
    in words (`REASONS`; `block_code` gives the code). `peeked`: the seats whose hands a Special
    window looked at during the choice (`watching_specials`). `after`: `snapshot(after_game)` if the
    caller took it already."""
    code = block_code(before, after_game, seat, peeked, after)
    return REASONS[code] if code else ""


def block_code(
    before: Snapshot, after_game, seat: int, peeked=frozenset(), after: Snapshot | None = None
) -> str:
    """The code (`REASONS`) of why the choice cannot be taken back, '' if it can (see block_reason)."""
    if after is None and after_game.rng.getstate() != before.rng:
        return "random"
    if after is None:
        after = snapshot(after_game)
    elif after.rng != before.rng:
        return "random"
    if before.secret_decision:
        return before.secret_decision
    own_hand = ("hand", seat)
    for cid, _ in after_game.disclosures[before.disclosures :]:
        if before.hidden.get(cid, own_hand) != own_hand:
            return "revealed"
    for cid, zone in before.hidden.items():
        if zone != own_hand and after_game.loc[cid] != zone:
            if zone[0] == "hand":
                return "hand_revealed"
            return "drawn"
    mine = before.known.get(seat, frozenset())
    for viewer, ids in after.known.items():
        if ids - before.known.get(viewer, frozenset()) - mine:
            return "drawn"
    if any(to is not None for _, to in after_game.log_lines[before.log_len :]):
        return "shown_hidden"
    pending = after_game.pending
    if pending is not None and pending.seat != seat:
        return "other_deciding"
    if after_game.config.get("specials", "fast") != "ask" and set(peeked) - {seat}:
        return "special_check"
    return ""
