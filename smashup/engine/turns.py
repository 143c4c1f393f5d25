"""The flow of a game: mulligans, then turns, each in its phases, until somebody wins.

Rules implemented here: the community page's "Mulligan" (a hand without minions may be shown,
discarded and redrawn once) and "Turns": "Phase 1: Start Turn" (effects "until your next turn"
end, start-of-turn abilities, a Special window: `_start_of_turn`), "Phase 2: Play Cards" (the
main decision: every legal play, talent and "end", `main_options`; `_play_phase`), "Phase 3:
Score Bases" (scoring.py), "Phase 4: Draw 2 Cards" (the hand limit of 10 applies here and only
here: `_draw_phase`), "Phase 5: End Turn" (end-of-turn abilities, "until the end of the turn"
effects end); WWWT "Game Over, Man!" (15 VP or more and a single leader wins at the end of a
turn; a tied lead plays on: `_game_over`) and the community page's "Infinite Loops" ("Game
Over": a game where nobody decides anything for STALEMATE_TURNS turns ends on the VP); the
tournament endings (time called, a base limit: `_decide_on_vp`). A mode (Big Base) overrides
`_main` and `take_turn`.

Compiled, `game` is typed GameState (turns.pxd).
"""
from __future__ import annotations

import re
from functools import partial

import cython

from .core import ACTION, CARD_OPTION_ID, MINION, Event, Grant, Option, card_option_id, counted
from .effects import Ctx
from .options import (
    _END,
    _CardOptions,
    _end_option,
    _mark_alike,
    _mark_alike_in_hand,
    alike_key,
    describe_minion,
)
from .playing import talents_usable
from .plays import PlayFinder, RowLater
from .protections import base_active
from .reactions import _index_triggers, _reactions_to, _top_level_reactions
from .scoring import _GameEnds
from .specials import _window_possible
from .state import GameState, PlayerState
from .turn_state import TurnState

WIN_VP = 15  # WWWT "Game Over, Man!": the VP that win at the end of a turn
HAND_LIMIT = 10
STARTING_HAND = 5
DRAW_PER_TURN = 2
# A game in which no player has been asked anything for this many turns in a row is stuck.
STALEMATE_TURNS = 40
# A tied lead when a game ends on time (or on its base limit) plays on for at most this many
# rounds of turns (every player one more turn each); if still tied, the leaders share the win.
TIE_PLAY_ON_ROUNDS = 1

MAIN_PROMPT = "Play a card, use a talent, or end the Play Cards phase"


_AT_BASE = re.compile(r"@(\d+)")  # the base of a card option id's tail ("@3:1": base 3)


@cython.locals(game=GameState)
def _main(game):
    yield from _mulligans(game)
    yield from _turns(game, start_phase="start")


@cython.locals(game=GameState)
def _turns(game, start_phase: str):
    phase = start_phase
    quiet_turns = 0
    while True:
        asked_before = game.decision_seq
        try:
            yield from game.take_turn(phase)
        except _GameEnds:
            return
        if _game_over(game):
            return
        quiet_turns = quiet_turns + 1 if game.decision_seq == asked_before else 0
        if quiet_turns >= STALEMATE_TURNS:
            _stalemate(game)
            return
        game.current = (game.current + 1) % len(game.players)
        phase = "start"


@cython.locals(game=GameState)
def _stalemate(game) -> None:
    # Nobody has had anything to decide for many turns (no cards left anywhere): the game
    # cannot go on. CR "Infinite Loops", the "Game Over" resolution: count the VP; a single
    # leader wins, a tied lead shares nothing (winner stays None).
    top = max([p.vp for p in game.players])
    leaders = [p.seat for p in game.players if p.vp == top]
    game.winner = leaders[0] if len(leaders) == 1 else None
    game.phase = "over"
    game.log("Nothing can happen any more: the game ends on the current VP.")


@cython.locals(game=GameState)
def _mulligans(game):
    # CR Setup, Mulligan: a hand without minions may be shown, discarded and redrawn once.
    if not game.config["mulligan"]:
        return
    for i in range(len(game.players)):
        seat = (game.current + i) % len(game.players)
        player = game.players[seat]
        if player.mulliganed or any([game.defs[c].is_minion for c in player.hand]):
            continue
        redraw = yield from game.ask_yes_no(
            seat,
            "Your hand has no minion. Show it, discard it and draw 5 new cards?",
            yes="Mulligan",
            no="Keep",
        )
        if redraw:
            player.mulliganed = True
            names = ", ".join([game.name(c) for c in player.hand])
            game.log(f"{player.name} shows a hand without minions ({names}) and redraws.")
            for cid in list(player.hand):
                game.move_card(cid, ("discard", seat))
            game.draw(seat, STARTING_HAND)


@cython.locals(game=GameState)
def new_turn_state(game, seat: int) -> TurnState:
    return TurnState(
        seat, grants=[Grant(MINION, free=True, source="turn"), Grant(ACTION, free=True, source="turn")]
    )


@cython.locals(game=GameState)
def take_turn(game, phase: str = "start"):
    seat = game.current
    if phase == "start":
        game.turn += 1
        game.turn_state = new_turn_state(game, seat)
        game.phase = "start"
        game._chain_counts.clear()
        game.log(f"Turn {game.turn}: {game.pname(seat)}.")
        _expire_at_turn_start(game, seat)
        yield from _start_of_turn(game, seat)
    if phase in ("start", "play"):
        game.phase = "play"
        yield from _play_phase(game, seat)
    if phase in ("start", "play", "score"):
        game.phase = "score"
        game._chain_counts.clear()
        yield from game.score_bases()
    if phase in ("start", "play", "score", "draw"):
        game.phase = "draw"
        yield from _draw_phase(game, seat)
    game.phase = "end"
    game._chain_counts.clear()
    # Announced as a resolution of its own (`resolve`), without wrapping it in one.
    game.emit(Event("turn_end", player=seat))
    reactions = _top_level_reactions(game)
    if reactions is not None:
        yield from reactions
    _expire_at_turn_end(game, seat)
    game.turn_state.grants.clear()


@cython.locals(game=GameState)
def _start_of_turn(game, seat):
    # Base "start of turn" abilities and ongoing triggers; the current player orders them.
    extra = []
    if len(game.defs) != game._trigger_index_of:
        _index_triggers(game)
    if game._turn_start_bases:  # some base of this game has one
        for slot in list(game.bases):
            bdef = game.base_def(slot)
            if bdef.at_turn_start is not None and base_active(game, slot):
                extra.append((bdef.name, slot.card,
                              _base_hook(game, bdef.at_turn_start, slot, seat)))
    game.emit(Event("turn_start", player=seat))
    batch = game._take_events()
    reactions = [(cid, trig, event) for event in batch
                 for cid, trig in _reactions_to(game, event)]
    if reactions or extra:
        yield from game.run_reactions(reactions, extra)
    if _window_possible(game, "turn_start"):
        yield from game.special_window("turn_start")


def _base_hook(game, fn, slot, *args):
    # Not typed (a closure may not capture a typed game when compiled): it only makes the factory.
    def factory():
        if game.slot_or_none(slot.uid) is None or not base_active(game, slot):
            return
        yield from game.run_ability(fn, Ctx(game, slot.card, game.current, base=slot.uid),
                                    *args)

    return factory


@cython.locals(game=GameState)
def _expire_at_turn_start(game, seat: int) -> None:
    """The start of `seat`'s turn: effects "until your next turn" end, effects "during their
    next turn" begin (core.Lasting)."""
    if not game.lasting:
        return
    ending = ("turn_start", seat)
    kept = [e for e in game.lasting if not (e.ends == ending and e.started)]
    changed = [e for e in game.lasting if e.ends == ending and e.started]
    for e in kept:
        if e.starts == ending:
            e.starts = None
            changed.append(e)
    if changed:
        game._lasting_changed(changed)  # nothing power reads changed when none ended or began
    game.lasting = kept


@cython.locals(game=GameState)
def _expire_at_turn_end(game, seat: int) -> None:
    """The end of `seat`'s turn: effects "until the end of the turn" and "until the end of
    your turn" (this player's) end."""
    if not game.lasting:
        return
    ended = [e for e in game.lasting
             if e.started and e.ends is not None and e.ends[0] == "turn_end"
             and e.ends[1] in (None, seat)]
    if ended:  # what power reads changed; nothing did when none ended
        game._lasting_changed(ended)
        game.lasting = [e for e in game.lasting if not any([e is x for x in ended])]


def main_options(game, seat: int, finder: PlayFinder | None = None) -> list[Option]:
    """Every legal play of the Play Cards phase (`legal_plays`), talent, and end."""
    finder = finder or PlayFinder(game, seat)
    return _main_list(game, seat, finder.plays(options=True, rows_later=True),
                      _talent_options(game, seat))


def _main_list(game, seat: int, plays: list, talents: list[Option]) -> list[Option]:
    """The main decision's options: the Options of the plays (`PlayFinder.plays(rows_later=
    True)`: Options, rows of Options, `RowLater`s), the talents', then end; alike copies
    marked (`_mark_alike`)."""
    options = []
    for item in plays:
        if type(item) is Option:
            options.append(item)
        elif type(item) is tuple:
            options += item
        else:
            options += item.row(game, seat)
    if talents:
        options.extend(talents)
        if len(talents) > 1:
            options.append(_END)
            return _mark_alike(game, options)
    options.append(_END)
    return _mark_alike_in_hand(game, options, seat)


@cython.locals(game=GameState)
def _ask_main(game, seat: int, finder: PlayFinder):
    """`ask` of the main decision, its options listed only when read (`_MainOptions`): as
    `ask` does, a phase where "end" is the only option ends without asking. In live play its
    options are counted at once (a bot picks among them by index: `Decision.option_id`); a
    replay (`lazy_options`) only asks whether there is any play, and looks its choice up."""
    if game.dropped_effects:
        game.check_dropped()
    source = _MainOptions(game, seat, finder)
    if game.lazy_options:
        if not finder.plays(first=True) and not talents_usable(game, seat):
            return [_end_option()]
    elif source.count() == 1:
        return [_END]
    return (yield from game.ask_lazily(seat, "play", MAIN_PROMPT, source, None))


def _talent_options(game, seat: int) -> list[Option]:
    """The talents `seat` may use now. Alike copies (two Enshrouding Mists of one player on
    one base) are offered once: each may be used in turn, so the other one is offered next.
    Copies that differ are labelled apart by where they are."""
    found = talents_usable(game, seat)  # a C call compiled (`Game.talents_usable`)
    if not found:
        return found
    usable, seen = [], set()
    if len(found) > 1:
        # A key starts with the card's name: only talents sharing a name need theirs.
        named = [game.name(c) for c in found]
        for cid, name in zip(found, named, strict=True):
            if named.count(name) > 1:
                key = alike_key(game, cid)
                if key in seen:
                    continue
                seen.add(key)
            usable.append(cid)
    else:
        usable = found
    names = [game.name(c) for c in usable]
    options = []
    made = game._card_options
    for cid in usable:
        name = game.name(cid)
        if names.count(name) == 1:
            # Labelled by its name alone: the same Option turn after turn, made once.
            option = made.get(("t", cid, name))
            if option is None:
                option = made["t", cid, name] = Option(card_option_id("t", cid),
                                                       f"Use {name}'s talent", card=cid,
                                                       value=("talent", cid))
            options.append(option)
            continue
        # Copies that differ, labelled apart by where they are.
        label = f"Use {name}'s talent"
        host = game.action_state[cid].host if cid in game.action_state else None
        if host is not None and game.action_state[cid].host_kind == "minion":
            label += f" (on {describe_minion(game, host, cid)})"
        elif cid in game.minion_state:
            label += f" ({describe_minion(game, cid)})"
        else:
            label += f" (on {game.base_name(game.base_of(cid))})"
        options.append(Option(card_option_id("t", cid), label, card=cid,
                              value=("talent", cid)))
    return options


@cython.locals(game=GameState)
def _play_phase(game, seat: int):
    while True:
        # The same finder gives the chosen play its grant: nothing changes in between.
        finder = PlayFinder(game, seat)
        chosen = yield from _ask_main(game, seat, finder)
        value = chosen[0].value
        game._chain_counts.clear()
        if value[0] == "end":
            return
        if value[0] in ("minion", "discard"):
            play = chosen[0].play
            extra, via, special = finder.use(play)
            yield from game.resolve(game.play_minion(
                seat, play.card, play.base, extra=extra, special=special, via=via,
                as_kind=play.kind))
        elif value[0] == "action":
            play = chosen[0].play
            extra, via, _ = finder.use(play)
            yield from game.resolve(
                game.play_action(seat, play.card, extra=extra, via=via),
                after=partial(game.finish_action, play.card)
            )
        elif value[0] == "talent":
            _, cid = value
            yield from game.resolve(game.use_talent(seat, cid))


@cython.locals(game=GameState)
def _draw_phase(game, seat: int):
    game.draw(seat, DRAW_PER_TURN)
    player = game.players[seat]
    excess = len(player.hand) - HAND_LIMIT
    if excess > 0:
        # The hand limit applies here and only here (CR Phase 4).
        prompt = f"Discard {counted(excess, 'card')} down to {HAND_LIMIT}"
        if game.lazy_options:
            chosen = yield from game.ask_lazily(
                seat, "discard", prompt, _CardOptions(game, "c", player.hand),
                len(player.hand), excess, excess)
        else:
            options = _CardOptions(game, "c", player.hand).options()
            chosen = yield from game.ask(seat, "discard", prompt, options, excess, excess)
        for opt in chosen:
            game.move_card(opt.card, ("discard", seat))
        game.log(f"{player.name} discards {', '.join([game.name(o.card) for o in chosen])} "
                 f"down to {HAND_LIMIT} cards.")
        # A discard like any other (WWWT "Discard"): cards that react to it do.
        yield from game.resolve(game._emit_gen(
            *[Event("discarded", card=o.card, player=seat, data={"from": "hand"},
                    by_player=seat) for o in chosen]))


@cython.locals(game=GameState, p=PlayerState)
def _leaders(game) -> tuple:
    """The most VP any player has, and the seats that have it (asked after every turn)."""
    top = None
    for p in game.players:
        if top is None or p.vp > top:
            top = p.vp
    leaders = []
    for p in game.players:
        if p.vp == top:
            leaders.append(p.seat)
    return top, leaders


@cython.locals(game=GameState)
def _game_over(game) -> bool:
    # End of turn: 15 VP or more and a single leader wins; a tied lead plays on (WWWT p.8).
    top, leaders = _leaders(game)
    if top >= WIN_VP and len(leaders) == 1:
        game.winner = leaders[0]
        game.phase = "over"
        game.log(f"{game.pname(game.winner)} wins with {top} VP.")
        return True
    if game.final_turn is not None and game.turn >= game.final_turn:
        return _decide_on_vp(game, end_of_turn=True)
    return False


@cython.locals(game=GameState)
def _decide_on_vp(game, end_of_turn: bool) -> bool:
    """The game ends on the VP (time called, or the base limit reached): a single leader wins.
    A tied lead plays on (see `call_time`); at the end of the last play-on turn the tied
    leaders share the win (`winner` None, `shared_winners` the seats). True: the game is over."""
    top, leaders = _leaders(game)
    why = "time was called" if game.end_reason == "time" else "the base limit was reached"
    if len(leaders) == 1:
        game.winner = leaders[0]
        game.phase = "over"
        game.log(f"{game.pname(game.winner)} wins with {top} VP, the most when {why}.")
        return True
    if not end_of_turn:
        return False
    if game.play_on_until is None:
        game.play_on_until = game.turn + TIE_PLAY_ON_ROUNDS * len(game.players)
        names = " and ".join([game.pname(s) for s in leaders])
        game.log(f"{names} are tied for the lead with {top} VP: play goes on until a scored base "
                 f"breaks the tie, at most until the end of turn {game.play_on_until}.")
        return False
    if game.turn >= game.play_on_until:
        game.shared_winners = leaders
        game.winner = None
        game.phase = "over"
        names = " and ".join([game.pname(s) for s in leaders])
        game.log(f"The tie was not broken: {names} share the win with {top} VP.")
        return True
    return False


def winners(game) -> list[int]:
    """The seats that won: the winner, or the seats sharing a tie that was not broken; for a game
    cut short before it ended (a search's playout, a bench's cap), the seats leading on VP."""
    if game.winner is not None:
        return [game.winner]
    if game.shared_winners:
        return list(game.shared_winners)
    top = max([p.vp for p in game.players])
    return [p.seat for p in game.players if p.vp == top]


@cython.locals(game=GameState)
def _count_scored_base(game) -> None:
    """A base scored (its VP were awarded). With the config's `end_after_bases` (tournament
    option: e.g. 5 bases at 3 players, 6 at 4), the turn in which the Nth base scores is the
    last: the rest of it is played (other ready bases score too), then the most VP wins and a
    tie plays on as when time is called."""
    game.bases_scored += 1
    limit = game.config.get("end_after_bases")
    if limit and game.bases_scored >= limit and game.final_turn is None:
        game.final_turn = max(game.turn, 1)
        game.end_reason = "bases"
        game.log(f"{game.bases_scored} bases have scored: this turn is the last; then the most VP "
                 "wins.")


class _MainOptions:
    """The main decision's options, listed in full only when read (`main_options`: a view, the
    digest, the heuristic bot); a choice is looked up alone, with the same answer as the
    full list: the same Option, or None for an id that is not one of them (so a forged choice
    is refused as before). A play of a card in hand is checked by that card's plays alone (a
    card's plays do not depend on the others'); anything else reads the full list.

    In live play they are counted first (`count`), from the plays of `PlayFinder.plays(
    rows_later=True)`, whose rows of Options are made only when listed, and the random bot
    picks one by its index in the list (`id_at`): the same uniform draw over the same list,
    without making the Options of every card and base (the main decision is asked about 186
    times a game)."""

    __slots__ = ("game", "seat", "finder", "_plays", "_talents", "_count", "_picked")

    def __init__(self, game: GameState, seat: int, finder: PlayFinder):
        self.game = game
        self.seat = seat
        self.finder = finder
        self._plays = None  # `PlayFinder.plays(rows_later=True)`, once counted
        self._talents = None
        self._count = 0
        self._picked = None  # the Option `id_at` named last, which `find` then gives

    @cython.locals(plays=list, talents=list, count=cython.Py_ssize_t, later=RowLater)
    def count(self) -> int:
        """How many options the list has (`len(options())`): plays, talents, end."""
        if self._plays is None:
            plays = self.finder.plays(options=True, rows_later=True)
            talents = _talent_options(self.game, self.seat)
            count = 1 + len(talents)
            for item in plays:
                if type(item) is Option:
                    count += 1
                elif type(item) is tuple:
                    count += len(item)
                else:
                    later = item
                    count += later.count
            self._plays = plays
            self._talents = talents
            self._count = count
        return self._count

    @cython.locals(later=RowLater, picked=Option)
    def id_at(self, index: int) -> str:
        """The id of `options()[index]`, making at most that one Option (alike marks change no
        id: `_mark_alike`). `find` then gives that Option (ids in a question are distinct:
        invariants.py checks)."""
        if not 0 <= index < self.count():
            raise IndexError(f"the main decision has {self._count} options, not {index + 1}")
        picked = None
        for item in self._plays:
            if type(item) is Option:
                if index == 0:
                    picked = item
                    break
                index -= 1
            elif type(item) is tuple:
                if index < len(item):
                    picked = item[index]
                    break
                index -= len(item)
            else:
                later = item
                if index < later.count:
                    picked = later.option(self.game, self.seat, index)
                    break
                index -= later.count
        else:
            if index == len(self._talents):
                return _END.id
            picked = self._talents[index]
        self._picked = picked
        return picked.id

    def options(self) -> list[Option]:
        if self._plays is not None:
            return _main_list(self.game, self.seat, self._plays, self._talents)
        return self.game.main_options(self.seat, self.finder)

    def find(self, option_id: str) -> Option | None:
        if option_id == "end":
            return _END
        picked = self._picked
        if picked is not None and picked.id == option_id:
            return picked
        game = self.game
        parsed = CARD_OPTION_ID.match(option_id) if type(option_id) is str else None
        if parsed is not None and parsed.group(1) in "ma":
            cid = int(parsed.group(2))
            if cid < len(game.loc) and game.loc[cid] == ("hand", self.seat):
                # A minion's play names its base ("m12@3"): only that Option is made.
                at = _AT_BASE.match(parsed.group(3))
                onto = int(at.group(1)) if at is not None else None
                for opt in self.finder.plays(candidates=[(cid, "hand")], options=True,
                                             onto=onto):
                    if opt.id == option_id:
                        return opt
                return None
        for opt in self.options():
            if opt.id == option_id:
                return opt
        return None
