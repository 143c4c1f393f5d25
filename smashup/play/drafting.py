"""The Kickin' It Queensberry faction draft at a live table, over ``tournaments.draft``.

The lobby's third way to give out factions (besides picked per seat and random): the table is set
up with its seats and no factions, and ``Game.draft`` holds the draft state
(``tournaments.draft.DraftState.to_dict()``, the players being the seat indexes). The first picker is
drawn from the game's keyed generator (``tables.table_stream``, "table-draft:first"); picks go
clockwise from them, then back (a snake: the last picks twice in a row). Each seat picks on its turn
on the table page, once it is taken; bot seats pick at once (a random legal faction from the stream
"table-draft:pick:<n>"; tables stored before the keyed generator keep the draft's own seeded
``default_choice``). The draft state never holds the game's secret seed. Each seat's factions so far
are kept on the seat; when every seat has two the game starts (``starting.maybe_start``).

The pool is every implemented faction, one copy of each: the draft is of one table
(``one_table``), and each faction is in a game once, so no faction is drafted twice at a table. A
table needs two factions a seat in the pool. A refused pick (out of turn, a faction the seat
already has, a faction already at the table, a pick that would leave someone without a legal
faction later) raises a PlayError and changes nothing.
"""

from __future__ import annotations

import dataclasses

from django.db import transaction

from smashup import draft as kiq
from smashup.core import params
from smashup.engine import rng as engine_rng

from .errors import BadRequest, IllegalMove, NotYourDecision, PlayError, SpectatorChoice, StaleChoice
from .live import changed_on_commit
from .models import Game, Seat
from .starting import maybe_start
from .tables import lock_game, table_stream


def state(row: Game) -> kiq.DraftState | None:
    return kiq.DraftState.from_dict(row.draft) if row.draft is not None else None


def is_done(row: Game) -> bool:
    current = state(row)
    return current is None or kiq.is_done(current)


def picks_made(row: Game) -> int:
    current = state(row)
    return len(current.picks) if current is not None else 0


def begin(row: Game, pool: list[str]) -> None:
    """Inside the creating transaction: start the draft of `row` (its seats exist)."""
    seats = list(range(row.seats.count()))
    options = {"pool": list(pool), "copies": 1, "one_table": True}
    if row.rng_version == engine_rng.LEGACY:
        current = kiq.new_draft(seats, seed=f"{row.seed}:table-draft", **options)
    else:
        first = table_stream(row, "table-draft:first").choice(seats)
        # The draft keeps a seed of its own (for its default choice): a keyed output, not the secret.
        own_seed = table_stream(row, "table-draft:seed").getrandbits(128)
        current = kiq.new_draft(seats, seed=f"{own_seed:032x}", first=first, **options)
        current = dataclasses.replace(current, first_by="random")
    row.draft = current.to_dict()
    row.save(update_fields=["draft", "updated_at"])
    bots_pick(row)


def bots_pick(row: Game) -> int:
    """Inside a transaction holding `row`: bot seats pick while it is their turn. When the draft is
    over, the seats get their factions. Returns how many picks the bots made."""
    current = state(row)
    if current is None:
        return 0
    bots = set(row.seats.filter(kind=Seat.Kind.BOT).values_list("index", flat=True))
    made = 0
    while not kiq.is_done(current) and kiq.current_picker(current) in bots:
        current = kiq.apply_pick(current, kiq.current_picker(current), _bot_pick(row, current))
        made += 1
    _store(row, current)
    return made


def _bot_pick(row: Game, current: kiq.DraftState) -> str:
    """A bot's pick: a random legal faction, from the game's keyed generator (version 2)."""
    if row.rng_version == engine_rng.LEGACY:
        return kiq.default_choice(current)
    done = len(current.bans) + len(current.picks)
    return table_stream(row, f"table-draft:pick:{done}").choice(kiq.legal_picks(current))


def _store(row: Game, current: kiq.DraftState) -> None:
    """Save the draft, and each seat's factions so far (complete when the draft is over)."""
    row.draft = current.to_dict()
    row.save(update_fields=["draft", "updated_at"])
    result = kiq.result(current)
    for seat in row.seats.select_for_update():
        if seat.factions != result[seat.index]:
            seat.factions = list(result[seat.index])
            seat.save(update_fields=["factions"])


def pick(game_id: int, seat: int | None, faction, expected_picks=None) -> Game:
    """`seat` picks `faction` (its turn, a legal pick), then the bots after it; the game starts when
    the draft is over. A PlayError (and nothing changed) otherwise. `expected_picks`: the number of
    picks the player saw (a second click on a page that is behind is refused as stale)."""
    if seat is None:
        raise SpectatorChoice("Spectators watch; only a player at the table can pick a faction.")
    if not isinstance(faction, str) or not faction or len(faction) > 64:
        raise BadRequest("Say which faction you pick.")
    try:
        expected_picks = params.optional_number(expected_picks, "picks")
    except params.BadNumber as exc:
        raise BadRequest(exc.message) from None
    with transaction.atomic():
        row = lock_game(game_id)
        current = state(row)
        if current is None:
            raise PlayError("This table has no faction draft.", "no_draft")
        if not row.is_lobby or kiq.is_done(current):
            raise PlayError("The draft is over.", "draft_over")
        if expected_picks is not None and expected_picks != len(current.picks):
            raise StaleChoice("The draft has moved on since your page showed it; here it is now.")
        names = {s.index: s.display_name for s in row.seats.all()}
        picker = kiq.current_picker(current)
        if picker != seat:
            raise NotYourDecision(f"It is {names.get(picker, 'another player')}'s pick, not yours.")
        try:
            current = kiq.apply_pick(current, seat, faction)
        except kiq.DraftError as exc:
            raise IllegalMove(f"You cannot pick {faction}: {exc}.") from None
        _store(row, current)
        bots_pick(row)
        changed_on_commit(row)
        maybe_start(row)
    return row


def context(row: Game, my_seat: int | None) -> dict | None:
    """What the table page shows of the draft."""
    current = state(row)
    if current is None:
        return None
    seats = {s.index: s for s in row.seats.all()}
    names = {i: s.display_name for i, s in seats.items()}
    done = kiq.is_done(current)
    picker = kiq.current_picker(current)
    mine = not done and picker is not None and picker == my_seat and row.is_lobby
    legal = set(kiq.legal_picks(current)) if mine else set()
    taken: dict[str, int] = {}
    for c in current.picks:
        taken[c.faction] = taken.get(c.faction, 0) + 1
    pool = [
        {"faction": f, "copies": n, "left": n - taken.get(f, 0), "legal": f in legal} for f, n in current.pool
    ]
    steps = []
    for n, (player, _kind) in enumerate(kiq.turn_order(current)):
        made = current.picks[n] if n < len(current.picks) else None
        steps.append(
            {
                "n": n + 1,
                "seat": player,
                "name": names.get(player, f"Seat {player + 1}"),
                "faction": made.faction if made else None,
                "current": n == len(current.picks) and not done,
                "mine": player == my_seat,
            }
        )
    waiting_for_seat = (
        picker is not None and not done and not seats[picker].filled
    )  # a free seat's pick waits for someone to sit there
    return {
        "done": done,
        "picks": len(current.picks),
        "total": len(kiq.turn_order(current)),
        "picker": picker,
        "picker_name": names.get(picker, "") if picker is not None else "",
        "picker_is_bot": picker is not None and seats[picker].is_bot,
        "waiting_for_seat": waiting_for_seat,
        "my_turn": mine,
        "first_name": names.get(current.first, ""),
        "pool": pool,
        "steps": steps,
    }
