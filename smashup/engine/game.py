"""The game: `Game` is a game's state (`GameState`, state.py) with the rules attached, and the
public contract (`start`, `apply`, `call_time`, `record`; `new_game` and `replay` in setup.py
build one).

The rules live in one module per rule area, each a set of functions taking the game first, and
Game lists them below as its methods (a mode, Big Base, overrides what differs; a test may set one
on an instance): turns.py (the flow of a turn and of the game), decisions.py (asking, running an
ability), decks.py (drawing, decks and bases dealt), powers.py (power and breakpoints),
protections.py (cancel, protections, "instead"), reactions.py (the Card Resolution Order),
specials.py ("Me First!"), plays.py (which plays are legal), playing.py (playing a card),
options.py (what a question offers), scoring.py, views.py, digests.py; the card vocabulary is
effects.py and its verb modules. smashup/engine/README.md maps every rule to its module.

The game runs as a generator (`_flow`, turns.py's `_main`) that yields each `Decision` and receives
the chosen option ids, so a pending decision is plain data and nothing waits on a thread. A game
is rebuilt by replaying its record (config, seed, choices), which is how a server restores it.

Names imported here with `noqa: F401` are those other modules and tests import from game.py, where
they were before the rules were split into modules (`Scoring`, `PlayerState`, `NOT_STATE`...).

Rules references in comments: "CR" is the community rules page (`shared/rules/002_*`), "WWWT" the
What Were We Thinking? rulebook (`001_*`).
"""
from __future__ import annotations

import cython

from . import (
    decisions,
    decks,
    determinize,
    digests,
    forks,
    observation,
    options,
    playing,
    plays,
    powers,
    protections,
    reactions,
    restrictions,
    scoring,
    specials,
    turns,
    views,
)
from .config import MAX_END_AFTER_BASES, normalize_config, require_factions_once  # noqa: F401
from .core import Decision, EngineError, Event, IllegalChoice
from .digests import _FIELDS, _FIELDS_V2, NOT_STATE, _plain, digest_version_of  # noqa: F401
from .options import _CardOptions  # noqa: F401
from .registry import Registry
from .rng import LEGACY
from .scoring import Scoring  # noqa: F401
from .state import GAME_FIELDS, IN_PLAY_ZONES, RESOLUTION, GameState, PlayerState  # noqa: F401
from .turns import STARTING_HAND, TIE_PLAY_ON_ROUNDS, WIN_VP, _MainOptions  # noqa: F401

# The decision id of the recorded "time is called" entry: `[None, CALL_TIME, []]` in the choices
# (seat None: nobody at the table made it; engine decision ids are "d<n>", so it cannot collide).
CALL_TIME = "call_time"
# A switch for tests (tests/cards/conftest.py), a module global because the compiled Game is a
# type that cannot be patched (game.pxd): called with the game after every accepted choice (the
# card tests check every invariant there). powers.VERIFY_POWERS is the other.
AFTER_APPLY = None


class Game(GameState):
    """One game of Smash Up: its state (`GameState`, state.py) with the rules attached. Build it
    with `new_game`, `replay` or the scenario builder.

    Compiled (native.py), Game is an extension type (game.pxd) whose fields are GameState's: it
    adds none. An instance still takes other attributes (a subclass's, a test's) in its
    `__dict__`, and `state_fields` reads both."""

    # The rules, by area: each is a function of its module taking the game first, and a method
    # of Game.
    # The flow: mulligans, turns and their phases, the main decision, the end of the game
    # (turns.py; a mode overrides `_main` and `take_turn`)
    _main = turns._main
    _turns = turns._turns
    _stalemate = turns._stalemate
    _mulligans = turns._mulligans
    new_turn_state = turns.new_turn_state
    take_turn = turns.take_turn
    _start_of_turn = turns._start_of_turn
    _base_hook = turns._base_hook
    _expire_at_turn_start = turns._expire_at_turn_start
    _expire_at_turn_end = turns._expire_at_turn_end
    main_options = turns.main_options
    _ask_main = turns._ask_main
    _talent_options = turns._talent_options
    _play_phase = turns._play_phase
    _draw_phase = turns._draw_phase
    _game_over = turns._game_over
    _decide_on_vp = turns._decide_on_vp
    _count_scored_base = turns._count_scored_base
    # Asking a player, running an ability (decisions.py)
    ask = decisions.ask
    ask_yes_no = decisions.ask_yes_no
    ask_lazily = decisions.ask_lazily
    run_ability = decisions.run_ability
    check_dropped = decisions.check_dropped
    # Drawing, decks refilled, the base deck, bases dealt, swapped, added (decks.py; a mode
    # overrides `deal_bases`, `swap_base`, `add_base`)
    draw = decks.draw
    refill_deck = decks.refill_deck
    refill_base_deck = decks.refill_base_deck
    draw_base = decks.draw_base
    deal_bases = decks.deal_bases
    swap_base = decks.swap_base
    add_base = decks.add_base
    # Power and breakpoints (powers.py)
    power = powers.power
    _count_base = powers._count_base
    _count_power = powers._count_power
    _working_modifiers = powers._working_modifiers
    _modifiers_now = powers._modifiers_now
    _lasting_bonuses = powers._lasting_bonuses
    power_now = powers.power_now
    player_power = powers.player_power
    total_power = powers.total_power
    breakpoint = powers.breakpoint
    starting_breakpoint = powers.starting_breakpoint
    # Cancelled abilities, protections and replacements (protections.py)
    base_active = protections.base_active
    ability_active = protections.ability_active
    cancelled_cards = protections.cancelled_cards
    _cancelled_now = protections._cancelled_now
    note_cancel = protections.note_cancel
    card_ctx = protections.card_ctx
    affects = protections.affects
    _working_protections = protections._working_protections
    affect_replaced = protections.affect_replaced
    replace = protections.replace
    # The Card Resolution Order: an ability resolves, then the reactions to it (reactions.py)
    resolve = reactions.resolve
    _emit_gen = reactions._emit_gen
    _top_level_reactions = reactions._top_level_reactions
    _reactions_to = reactions._reactions_to
    _index_triggers = reactions._index_triggers
    reaction_ctx = reactions.reaction_ctx
    _cards_on = reactions._cards_on
    react_to_batch = reactions.react_to_batch
    _batch_work = reactions._batch_work
    _react = reactions._react
    _run_child = reactions._run_child
    _legacy_process_events = reactions._legacy_process_events
    _legacy_run_child = reactions._legacy_run_child
    run_reactions = reactions.run_reactions
    _reaction_options = reactions._reaction_options
    _event_words = reactions._event_words
    _still_reacts = reactions._still_reacts
    # Special windows: Me First!, the start of a turn, Specials answering an event (specials.py)
    special_window = specials.special_window
    answer_window = specials.answer_window
    _specials_in_play = specials._specials_in_play
    _hand_round = specials._hand_round
    _special_action = specials._special_action
    _ask_window = specials._ask_window
    _window_possible = specials._window_possible
    _index_specials = specials._index_specials
    _special_play_forbidden = specials._special_play_forbidden
    _usable_specials = specials._usable_specials
    # Which plays are legal (plays.py), and what forbids one (restrictions.py)
    legal_plays = plays.legal_plays
    use_grant = plays.use_grant
    may_restrict = restrictions.may_restrict
    forbids = restrictions.forbids
    play_barrier = restrictions.play_barrier
    play_barriers = restrictions.play_barriers
    play_forbidden = restrictions.play_forbidden
    minion_targets_for_play = plays.minion_targets_for_play
    discard_offers = plays.discard_offers
    discard_offerers = plays.discard_offerers
    # Playing a card: a minion, an action, a talent; an action discarded (playing.py)
    attach_hosts = playing.attach_hosts
    has_attach_host = playing.has_attach_host
    _note_play = playing._note_play
    play_minion = playing.play_minion
    play_action = playing.play_action
    attach = playing.attach
    finish_action = playing.finish_action
    use_talent = playing.use_talent
    talents_usable = playing.talents_usable
    # What a question offers: Options of plays, alike copies offered once (options.py)
    alike_key = options.alike_key
    describe_minion = options.describe_minion
    describe_action = options.describe_action
    _alike_key = options._alike_key
    _mark_alike = options._mark_alike
    _mark_alike_in_hand = options._mark_alike_in_hand
    _play_row = options._play_row
    _play_option = options._play_option
    # Scoring a base (scoring.py)
    ready_bases = scoring.ready_bases
    score_bases = scoring.score_bases
    score_base = scoring.score_base
    _score_steps = scoring._score_steps
    _replaced = scoring._replaced
    _put_away = scoring._put_away
    _discard_scored = scoring._discard_scored
    put_instead = scoring.put_instead
    order_deck_placements = scoring.order_deck_placements
    _moves_instead = scoring._moves_instead
    _scoring_step = scoring._scoring_step
    _scoring_hook = scoring._scoring_hook
    award_vp = scoring.award_vp
    placement_vp_change = scoring.placement_vp_change
    # What each seat may see (views.py; a mode adds to `public_view`)
    card_view = views.card_view
    view = views.view
    public_view = views.public_view
    ending_view = views.ending_view
    _hidden_from = views._hidden_from
    private_view = views.private_view
    card_texts = views.card_texts
    _attached_view = views._attached_view
    summary = views.summary
    # The state as a hash, for replays to compare (digests.py; a mode may leave its caches
    # out of `state_fields`)
    digest = digests.digest
    state_fields = digests.state_fields
    _digest_v2 = digests._digest_v2
    _loc_text = digests._loc_text
    _pending_text = digests._pending_text
    _digest_v1 = digests._digest_v1

    # ------------------------------------------------------------------ modes (variants) ------
    # A mode of play (Big Base: bigbase/rules) is a subclass that overrides these hooks, the round
    # loop (`_main`, `take_turn`), scoring and the other methods above it needs to; card code is
    # the same in every mode.
    def normalize(self, config: dict, registry: Registry) -> dict:
        """Check this mode's config and fill its defaults (ConfigError when it cannot be played)."""
        return normalize_config(config, registry)

    def enter_base(self, card: int, uid: int, seat: int):
        """A card of `seat` is about to arrive on base `uid` (played, moved, attached to the base
        or transferred there). Nothing to do in standard play; Big Base places it in a slot."""
        return
        yield

    def batch_extras(self, batch: list[Event]) -> list[tuple]:
        """Abilities of the mode itself that answer this batch of events, as `run_reactions`
        extras (label, card, generator factory): none in standard play (Big Base: slots)."""
        return []

    def other_zones(self) -> list[tuple[tuple, list[int]]]:
        """Zones of this mode beyond the standard ones, as (zone, cards): the invariants check
        them like the others."""
        return []

    def public_deck_cards(self) -> set[int]:
        """Cards in a deck that everyone may see (Big Base: the next base card)."""
        return set()

    def mode_problems(self) -> list[str]:
        """This mode's own invariants (Big Base: slot occupancy); empty when sound."""
        return []

    def _flow_from_play_phase(self):
        """The flow from the current player's Play Cards phase on, for a copy made at a quiet
        point (forks.py): the main decision is asked again, then the game goes on."""
        return self._turns("play")

    # What a copy does with a mode's own fields (forks.copy_state): "shared" (immutable),
    # "fresh" (a cache, made empty); any other is copied as plain state.
    FORK_FIELDS: dict = {}

    # ------------------------------------------------------------------ public contract -------
    def start(self, flow=None):
        self.version += 1  # a scenario set the board up by hand
        self._flow = flow if flow is not None else self._main()
        self._advance(None)
        return self

    @cython.locals(decision=Decision)
    def apply(self, seat: int | None, decision_id: str, choice) -> None:
        """Check a choice completely, then apply it and run to the next decision.

        The recorded system entry `[None, CALL_TIME, []]` is applied as `call_time()`, so a record
        with a time call replays through the same loop as every choice."""
        if seat is None and decision_id == CALL_TIME:
            if _normalize_choice(choice):
                raise IllegalChoice("calling time takes no options")
            self.call_time()
            if AFTER_APPLY is not None:
                AFTER_APPLY(self)
            return
        decision = self.pending
        if decision is None:
            raise IllegalChoice("the game is over")
        # bool is an int in Python; False is not seat 0.
        if (type(seat) is not int and (not isinstance(seat, int) or isinstance(seat, bool))
                or seat != decision.seat):
            raise IllegalChoice(f"it is seat {decision.seat}'s decision, not seat {seat}'s")
        if decision_id != decision.id:
            raise IllegalChoice(f"stale decision {decision_id!r}: the open one is {decision.id!r}")
        ids = _normalize_choice(choice)
        if len(ids) > 1 and len(set(ids)) != len(ids):
            raise IllegalChoice("an option was chosen twice")
        chosen = []
        for option_id in ids:
            option = decision.option(option_id)
            if option is None:
                raise IllegalChoice(f"{option_id!r} is not an option of {decision.id}")
            chosen.append(option)
        if not decision.min_count <= len(ids) <= decision.max_count:
            if decision.min_count == decision.max_count:
                want = f"exactly {decision.min_count}"
            else:
                want = f"{decision.min_count} to {decision.max_count}"
            noun = "option" if decision.max_count == 1 else "options"
            raise IllegalChoice(f"choose {want} {noun}, not {len(ids)}")
        self.choices.append([seat, decision_id, ids])
        self._answer = (decision, chosen)  # `ask` takes the options found here
        decision.answered()
        self._advance(ids)
        self._answer = None
        if self.track_hashes:
            self.hashes.append(self.digest())
        if AFTER_APPLY is not None:
            AFTER_APPLY(self)

    def call_time(self) -> None:
        """Time is called (a tournament round's clock ran out): an outside event, recorded as
        `[None, CALL_TIME, []]` with its state hash like any choice. The open decision stays open.

        Ruling (the tournament issue): the player whose turn it is finishes it, bases that are
        ready score in its Score Bases phase as usual, and at the end of that turn the player with
        the most VP wins. A tied lead plays on, and the game ends as soon as a scored base (or the
        end of a turn) leaves a single leader, for at most TIE_PLAY_ON_ROUNDS more rounds of
        turns; then the tied leaders share the win. Called before the first turn (a mulligan),
        the first turn is the last. Called while the game is already ending on its base limit,
        it is noted and changes nothing else."""
        if self.pending is None:
            raise IllegalChoice("the game is over")
        if self.time_called_turn is not None:
            raise IllegalChoice("time has already been called")
        self.choices.append([None, CALL_TIME, []])
        self.time_called_turn = self.turn
        if self.final_turn is None:
            self.final_turn = max(self.turn, 1)
            self.end_reason = "time"
            self.log("Time is called: this turn is the last; then the most VP wins.")
        else:
            self.log("Time is called (the game is already in its last turns).")
        if self.track_hashes:
            self.hashes.append(self.digest())

    @property
    def time_called(self) -> bool:
        return self.time_called_turn is not None

    @property
    def over(self) -> bool:
        return self.pending is None

    def fork(self) -> Game:
        """An independent game at the same decision whose future is the same: the same options,
        the same digest after every choice, the same results (forks.py). It shares nothing
        mutable with this one."""
        return forks.fork(self)

    def determinize(self, seat: int, rng, knowledge: bool = True, exact: bool = False) -> Game:
        """A fork in which every card hidden from `seat` is dealt again at random with `rng` (a
        random.Random), consistent with all `seat` knows (determinize.py). It has a new secret
        drawn from `rng` and keeps nothing of the real game that `seat` may not know.
        `knowledge` False: it does not track what each seat knows (faster playouts). `exact`:
        `determinize.NotDealt` rather than the rare fallback that keeps real cards in place."""
        return determinize.determinize(self, seat, rng, knowledge, exact)

    def legal_actions(self) -> list[str]:
        """The option ids of the pending decision, in order (observation.py: how a decision of
        several options, or of none, is answered)."""
        return observation.legal_actions(self)

    def legal_choices(self, limit: int | None = None) -> list[tuple[str, ...]]:
        """Every legal answer to the pending decision, each a tuple of option ids."""
        return observation.legal_choices(self, limit)

    def observation(self, seat: int) -> dict:
        """What `seat` knows: its view and the hidden cards it has seen (observation.py)."""
        return observation.observation(self, seat)

    def track_knowledge(self) -> None:
        """Track what each seat knows of the hidden cards (knowledge.py), learning what it
        knows already by replaying the record once. `determinize` does it when needed."""
        determinize.track_knowledge(self)

    def record(self) -> dict:
        if self.determinized_for is not None:
            raise EngineError("a determinized game has no record: its hidden cards were dealt "
                              "again")
        data = {"config": self.config, "seed": self.seed}
        if self.rng_version != LEGACY:  # a record without "rng" is version 1 (rng.py)
            data["rng"] = self.rng_version
        if self.resolution != 1:  # a record without "resolution" is version 1 (Game.resolution)
            data["resolution"] = self.resolution
        data["choices"] = [list(c) for c in self.choices]
        if self.scenario is not None:
            data["scenario"] = self.scenario
        if self.track_hashes:
            data["hashes"] = list(self.hashes)
        return data

    def _advance(self, ids):
        try:
            pending = self._flow.send(ids) if ids is not None else next(self._flow)
        except StopIteration:
            pending = None
        if pending is not None and type(pending) is not Decision:
            raise EngineError(f"an ability yielded {pending!r}, not a question: a plain verb "
                              "(one that returns a value) was used with `yield from`")
        if self.dropped_effects:
            self.check_dropped()
        self.pending = pending
        if pending is None:
            self._drop_cycles()
        elif (pending.kind == "play" and self._depth == 0 and not self.scoring_stack
              and not self.resolving and not self._events):
            # A quiet point: the flow holds nothing a copy of the state lacks (forks.py).
            self._quiet_at = len(self.choices)
            if self._snapshot is None and self.determinized_for is not None:
                forks.take_snapshot(self)  # it cannot be rebuilt from a record

    def close(self) -> None:
        """This game will not be played on (a bot's look-ahead copy): its running flow is closed
        (the generator holds the game) and its caches emptied (`_drop_cycles`), so that it is
        freed as soon as nobody holds it. It then takes no more choices."""
        flow, self._flow = self._flow, None
        if flow is not None:
            flow.close()
        self.pending = None
        self._drop_cycles()

    def _drop_cycles(self) -> None:
        """The game is over: empty the caches whose entries hold a Ctx (which holds the game),
        so that a finished game is freed as soon as nobody holds it rather than by Python's cycle
        collector, whose full passes walk every finished game left over (about 4% of a run of
        simulated games). Read again (a final view), they are rebuilt."""
        self._modifiers = ([], {})
        self._modifiers_version = -1
        self._protections = []
        self._protections_version = -1


def _normalize_choice(choice) -> list[str]:
    if type(choice) is list:  # the usual form, checked without the general tests below
        for c in choice:
            if type(c) is not str and not isinstance(c, str):
                raise IllegalChoice("a choice is an option id or a list of option ids")
        return list(choice)
    if choice is None:
        return []
    if isinstance(choice, str):
        return [choice]
    if isinstance(choice, (list, tuple)):
        for c in choice:
            if not isinstance(c, str):
                break
        else:
            return list(choice)
    raise IllegalChoice("a choice is an option id or a list of option ids")
