"""Special windows: "Me First!" before and after a base scores, at the start of a turn, and the
Specials from hand that answer an event.

Rules implemented here: WWWT "Me First!" and the community page's Phase 3 steps (before and after
scoring: first the Specials of cards in play, in the order the current player picks, each card's
controller choosing to use it; then from the current player clockwise, each player uses a
Special from hand or passes, until all pass in a row: `special_window`), the start of a turn
("Phase 1: Start Turn"), and step 4 of the Card Resolution Order (Specials from hand that answer
an event of a batch, opened only for the seats holding one that can: `answer_window`). A Special
action is played (revealed, resolved, then discarded) and announced once resolved, as a normal
play is; using a Special that would be a play is refused where a play is (`_special_play_forbidden`).
In "fast" mode a player holding no usable Special is passed for; "ask" mode asks everyone.

Compiled, `game` is typed GameState (specials.pxd).
"""
from __future__ import annotations

from functools import partial

import cython

from .core import ACTION, MINION, Decision, Event, Option, Play, card_option_id
from .effects import Ctx, board_label
from .options import _alike_key, alike_key
from .protections import ability_active
from .reactions import _cards_on, _reaction_options, run_item, run_pending
from .registry import _Declares
from .restrictions import forbids, may_restrict
from .scoring import Scoring
from .state import _IN_PLAY, GameState


@cython.locals(game=GameState)
def special_window(game, window: str, wctx=None, pending=None):
    """"Me First!" (WWWT p.6): Specials of cards in play first, in the order the current
    player picks (`_specials_in_play`); then from the current player clockwise, each player
    uses a Special from hand or passes, until every player has passed in a row
    (`_hand_round`). In "fast" mode a player who holds no usable Special is passed for;
    "ask" mode asks everyone so nobody learns who holds one.

    `pending` (`reactions.pending_items`): the other abilities of cards in play the step sets
    off (a scoring base's own ability, the reactions to the step): the current player orders
    them among the Specials in play (WWWT "Me First!": "Special abilities of cards in play are
    resolved first, in the order chosen by the current player"; CR Card Resolution Order step
    3). `wctx` may be several Scorings scored as one (Big Base's sides): a Special is then used
    on one of the sides where it can be, the player choosing ("choose one side")."""
    if pending and (not _window_possible(game, window)
                    or ("play", window) not in game._special_cards):
        yield from run_pending(game, pending)
        pending = None
    if not _window_possible(game, window):
        return
    if ("play", window) in game._special_cards:
        yield from _specials_in_play(game, window, wctx, pending)
    seats = game.seats_from_current()
    ask_all = game.config["specials"] == "ask"
    if not ask_all and ("hand", window) not in game._special_cards:
        # No card of this game is used from a hand here: each player is passed for at once,
        # as `_hand_round` would after finding nothing in their hand.
        game.special_checks.extend(seats)
        return
    yield from _hand_round(game, window, wctx, seats, ask_all=ask_all)


@cython.locals(game=GameState)
def answer_window(game, batch: list[Event]):
    """CR Card Resolution Order step 4: Specials from hand that answer an event of this
    batch (a Special declared with that event's kind as its window, `usable(ctx, event)`),
    event by event. Only the seats holding a card that can answer take part, in either
    mode: "ask" mode does not question the table after every minion. Nothing else in the
    game could tell who holds one here (a window for a kind of event no card of this game
    answers never opens, `_window_possible`)."""
    for event in batch:
        if not _window_possible(game, event.kind):
            continue
        if ("hand", event.kind) not in game._special_cards:
            game.special_checks.extend(game.seats_from_current())
            continue
        able = []
        for seat in game.seats_from_current():
            game.special_checks.append(seat)
            if _usable_specials(game, seat, event.kind, event, zone="hand"):
                able.append(seat)
        if able:
            yield from _hand_round(game, event.kind, event, able, ask_all=False)


@cython.locals(game=GameState)
def _specials_in_play(game, window, wctx, pending=None):
    """Specials of cards in play usable in this window, each once, in the order the current
    player picks (public cards: no secret to keep), with the `pending` abilities the step set
    off (`special_window`); each card's controller may use its Special or not. Looked for
    again after each one (a Special may make another usable: the second of two alike First
    Mates); alike copies are one option."""
    done = set()
    pending = list(pending) if pending else []
    holders = game._special_cards.get(("play", window), ())
    loc = game.loc
    while True:
        # Most of the time no card with such a Special is in play: no seat's cards are read.
        found = []
        if any(loc[c][0] in _IN_PLAY for c in holders):
            found = [(cid, i, sp) for seat in game.seats_from_current()
                     for cid, i, sp in _usable_specials(game, seat, window, wctx, zone="play")
                     if (cid, i) not in done]
        if not found:
            if pending:
                yield from run_pending(game, pending)
            return
        options = _reaction_options(game, pending) if pending else []
        seen = set()
        for c, j, sp in found:
            key = (_alike_key(game, c), j)
            if key not in seen:
                seen.add(key)
                options.append(Option(card_option_id("s", c, index=j),
                                      f"{sp.label}: {_card_words(game, c)}", card=c))
        prompt = ("Several abilities happen now: pick the next one" if pending
                  else "Several Specials in play may be used now: pick the next one")
        chosen = yield from game.ask(game.current, "order", prompt, options)
        if chosen[0].id[:1] != "s":  # one of the abilities the step set off
            yield from run_item(game, pending.pop(int(chosen[0].id)))
            continue
        cid, index = (int(x) for x in chosen[0].id[1:].split(":"))
        done.add((cid, index))
        sp = game.defs[cid].specials[index]
        seat = game.controller(cid)
        use = yield from game.ask_yes_no(seat, f"{sp.label}?", source=cid)
        if use:
            side = yield from _choose_side(game, seat, cid, sp, wctx, "play")
            if side is _NO_SIDE:
                continue
            game.log(f"{game.pname(seat)} uses {game.name(cid)}.")
            ctx = Ctx(game, cid, seat, base=_window_base(side))
            yield from game.resolve(game.run_ability(sp.run, ctx, side))


# A Special that no side lets its player use any more (what made it usable went meanwhile).
_NO_SIDE = object()


def _sides(wctx) -> list:
    """The scorings a window is about: several scored as one (Big Base's sides), or one (a
    Scoring, an Event, None)."""
    return wctx if type(wctx) is list else [wctx]


@cython.locals(game=GameState)
def _usable_sides(game, seat, cid, sp, wctx, zone) -> list:
    ctx = Ctx(game, cid, seat)
    return [w for w in _sides(wctx)
            if (zone != "hand" or not _special_play_forbidden(game, seat, cid, w))
            and sp.usable(ctx, w)]


@cython.locals(game=GameState)
def _choose_side(game, seat, cid, sp, wctx, zone):
    """The scoring a Special is used on: the window's one, or, when several are scored as one
    (Big Base), one of those where it can be used, which its player picks (the Big Base rules:
    "if an ability affects a base or plays a card to a base, choose one side")."""
    if type(wctx) is not list:
        return wctx
    sides = _usable_sides(game, seat, cid, sp, wctx, zone)
    if not sides:
        return _NO_SIDE
    if len(sides) == 1:
        return sides[0]
    at, describe = game.label_version(), game.base_name
    options = [Option(f"b{w.base}", (board_label, game, at, describe, w.base), base=w.base)
               for w in sides]
    chosen = yield from game.ask(seat, "base", f"{sp.label}: on which side?", options,
                                 source=cid, intent="help")
    return next(w for w in sides if w.base == chosen[0].base)


def _card_words(game, cid: int) -> str:
    """A card in play with a Special, for people: where it is and whose it is (three Dust
    Devils on three bases never read the same)."""
    if cid in game.minion_state:
        return game.describe_minion(cid)
    if cid in game.action_state:
        return game.describe_action(cid)
    return game.name(cid)


def _window_base(wctx):
    if type(wctx) is list:
        return None
    slot = getattr(wctx, "slot", None)
    if slot is not None:
        return slot.uid
    return getattr(wctx, "base", None) if isinstance(wctx, Event) else None


@cython.locals(game=GameState)
def _hand_round(game, window, wctx, seats, ask_all):
    """From the first of `seats` on, each uses one Special from hand or passes; one who
    passed may use one later; it ends when all of `seats` have passed in a row."""
    n = len(seats)
    passes = 0
    turn = 0
    while passes < n:
        seat = seats[turn % n]
        turn += 1
        game.special_checks.append(seat)
        usable = _usable_specials(game, seat, window, wctx, zone="hand")
        if not usable and not ask_all:
            passes += 1
            continue
        # Identical copies (two Shinobis in hand) give one option; the other's id is still
        # accepted (`Option.alike`), so records made before replay.
        options, shown = [], {}
        for cid, i, sp in usable:
            oid = card_option_id("s", cid, index=i)
            first = shown.setdefault((alike_key(game, cid), i), oid)
            options.append(Option(oid, f"{sp.label}", card=cid,
                                  alike=None if first == oid else first))
        options.append(Option("pass", "Pass"))
        prompt = (_BOARD_PROMPTS if type(wctx) is list else _WINDOW_PROMPTS).get(window) or (
            f"Use a Special now ({game._event_words(wctx)})?" if isinstance(wctx, Event)
            else "Use a Special ability now?")
        chosen = yield from _ask_window(game, seat, window, prompt, options)
        if chosen.id == "pass":
            passes += 1
            continue
        passes = 0
        cid, index = chosen.id[1:].split(":")
        cid = int(cid)
        special = game.defs[cid].specials[int(index)]
        side = yield from _choose_side(game, seat, cid, special, wctx, "hand")
        if side is _NO_SIDE:
            continue
        ctx = Ctx(game, cid, seat, base=_window_base(side))
        if game.defs[cid].is_action:
            # A Special action is played (revealed, resolved, then discarded), and announces
            # itself once resolved, as a normal play does (`play_action`).
            game.move_card(cid, ("resolving",))
            game.log(f"{game.pname(seat)} plays {game.name(cid)}.")
            game._note_play(seat, cid, ACTION, None, special=True)
            if game.resolution == 1:  # old records: announced before it resolved
                game.emit(Event("action_played", card=cid, player=seat, by_player=seat,
                                data={"special": True}))
                yield from game.resolve(game.run_ability(special.run, ctx, side),
                                        after=partial(game.finish_action, cid))
                continue
            yield from game.resolve(_special_action(game, special, ctx, side),
                                    after=partial(game.finish_action, cid))
        else:
            game.log(f"{game.pname(seat)} uses {game.name(cid)}.")
            yield from game.resolve(game.run_ability(special.run, ctx, side))


@cython.locals(game=GameState)
def _special_action(game, special, ctx, wctx):
    cid, seat = ctx.card, ctx.me
    result = yield from game.run_ability(special.run, ctx, wctx)
    host = game.action_state[cid].host if cid in game.action_state else None
    game.emit(Event("action_played", card=cid, base=game.base_of(cid), player=seat,
                    by_player=seat, data={"special": True, **({"host": host} if host
                                                              is not None else {})}))
    return result


@cython.locals(game=GameState)
def _ask_window(game, seat, window, prompt, options):
    # Always a real question, even with only "Pass": in "ask" mode that is the point.
    game.decision_seq += 1
    decision = Decision(f"d{game.decision_seq}", seat, "special", prompt, options, 1, 1)
    ids = yield decision
    return decision.option(ids[0])


def _window_possible(game, window: str) -> bool:
    """Open a window only if some card of this game could ever be used in it."""
    if game._window_cards_of != len(game.defs):
        _index_specials(game)
    return window in game._window_cards


def _index_specials(game) -> None:
    """Which cards of this game have a Special, by (zone, window): a window is looked for
    only in the cards that could be used in it. Derived from the definitions once per game
    (again if cards are added), like `_index_triggers`."""
    cards: dict[tuple, set] = {}
    for cid, defn in enumerate(game.defs):
        for sp in getattr(defn, "specials", ()):
            cards.setdefault((sp.zone, sp.window), set()).add(cid)
    game._special_cards = {key: frozenset(found) for key, found in cards.items()}
    game._window_cards = frozenset([window for _, window in cards])
    game._window_cards_of = len(game.defs)


@cython.locals(defn=_Declares)
def _special_play_forbidden(game, seat, cid, wctx) -> bool:
    """Whether using this card's Special from the hand would be a play that is not allowed:
    a Special action is played; a minion's Special from the hand in a scoring window plays
    it on the scoring base (Shinobi)."""
    if not may_restrict(game):
        return False  # nothing in force could forbid a play (the cheap test of `forbids`)
    defn = game.defs[cid]
    if defn.is_action:
        return bool(forbids(game, Play(seat, cid, ACTION, "hand")))
    if isinstance(wctx, Scoring):
        return bool(forbids(game, Play(seat, cid, MINION, "hand", wctx.base)))
    return False


@cython.locals(d=_Declares)
def _usable_specials(game, seat, window, wctx, zone="hand"):
    """The Specials `seat` could use now in `window`: from their hand (`zone` "hand") or on
    their cards in play ("play")."""
    found = []
    if not _window_possible(game, window):
        return found
    # Only the cards of this game that have a Special of this zone and window are read.
    holders = game._special_cards.get(("hand" if zone == "hand" else "play", window))
    if not holders:
        return found
    several = type(wctx) is list  # scorings scored as one (Big Base): usable on any of them
    if zone == "hand":
        hand = game.players[seat].hand
        if holders.isdisjoint(hand):  # most hands at most windows: no such card (a C loop)
            return found
        for cid in list(hand):
            if cid not in holders:
                continue
            d = game.defs[cid]
            for i, sp in enumerate(d.specials):
                if sp.window != window or sp.zone != "hand":
                    continue
                if several:
                    if _usable_sides(game, seat, cid, sp, wctx, zone):
                        found.append((cid, i, sp))
                elif (not _special_play_forbidden(game, seat, cid, wctx)
                        and sp.usable(Ctx(game, cid, seat), wctx)):
                    found.append((cid, i, sp))
        return found
    # The holders in play this seat controls (most windows: none, the Specials in play being
    # another player's): only they can be found on the bases below, read in board order.
    loc = game.loc
    mine = [c for c in holders if loc[c][0] in _IN_PLAY and game.controller(c) == seat]
    if not mine:
        return found
    for slot in game.bases:
        for cid in _cards_on(game, slot):
            if cid not in mine or not ability_active(game, cid):
                continue
            d = game.defs[cid]
            for i, sp in enumerate(d.specials):
                if sp.window != window or sp.zone != "play":
                    continue
                if (_usable_sides(game, seat, cid, sp, wctx, zone) if several
                        else sp.usable(Ctx(game, cid, seat), wctx)):
                    found.append((cid, i, sp))
    return found


# The prompt of each window of the turn (one that answers an event names it); when several bases
# score as one (Big Base's board).
_BOARD_PROMPTS = {
    "before_scoring": "The board is about to score: use a Special?",
    "after_scoring": "The board has scored: use a Special?",
}
_WINDOW_PROMPTS = {
    "before_scoring": "A base is about to score: use a Special?",
    "after_scoring": "A base has scored: use a Special?",
    "turn_start": "Start of turn: use a Special?",
}
