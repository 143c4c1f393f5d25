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


def snapshot(game) -> Snapshot:
    # A view is the public part plus the seat's own part (`Game.view`), so the public part's card ids
    # are read once, not once per viewer (this runs twice for every choice a person makes).
    public = card_ids_in(game.public_view())
    viewers = [None, *range(len(game.players))]
    return Snapshot(
        rng=game.rng.getstate(),
        known={v: frozenset(public | card_ids_in(game.private_view(v))) for v in viewers},
        log_len=len(game.log_lines),
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


def block_reason(
    before: Snapshot, after_game, seat: int, peeked=frozenset(), after: Snapshot | None = None
) -> str:
    """Why `seat`'s choice that led from `before` to `after_game` cannot be taken back ('' if it can).
    `peeked`: the seats whose hands a Special window looked at during the choice (`watching_specials`).
    `after`: `snapshot(after_game)` if the caller took it already."""
    if after is None and after_game.rng.getstate() != before.rng:
        return "cards were shuffled or something was decided at random"
    if after is None:
        after = snapshot(after_game)
    elif after.rng != before.rng:
        return "cards were shuffled or something was decided at random"
    mine = before.known.get(seat, frozenset())
    for viewer, ids in after.known.items():
        if ids - before.known.get(viewer, frozenset()) - mine:
            return "a hidden card was drawn or revealed"
    if any(to is not None for _, to in after_game.log_lines[before.log_len :]):
        return "someone was shown something hidden"
    pending = after_game.pending
    if pending is not None and pending.seat != seat:
        return "another player is deciding now"
    if after_game.config.get("specials", "fast") != "ask" and set(peeked) - {seat}:
        return "the game checked whether another player could play a Special"
    return ""
