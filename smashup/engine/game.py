"""The rules of standard Smash Up: state, zones, turn structure, scoring, reactions, decisions.

The game runs as a generator (`_flow`) that yields each `Decision` and receives the chosen option ids,
so a pending decision is plain data and nothing waits on a thread. A game is rebuilt by replaying its
record (config, seed, choices), which is how a server restores it.

Rules references in comments: "CR" is the community rules page (`shared/rules/002_*`), "WWWT" the What
Were We Thinking? rulebook (`001_*`).
"""
from __future__ import annotations

import dataclasses
import hashlib
import operator
import re
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from itertools import chain, compress
from operator import is_not
from types import GeneratorType

from .core import (
    ACTION,
    CARD_OPTION_ID,
    INTENTS,
    LEAVES_PLAY_KINDS,
    MINION,
    ActionState,
    Affect,
    ConfigError,
    Decision,
    EngineError,
    Event,
    Grant,
    IllegalChoice,
    Lasting,
    MinionState,
    Option,
    Play,
    PlayRecord,
    _added,
    card_option_id,
    counted,
)
from .registry import REGISTRY, BaseDef, CardDef, Registry
from .rng import GAME_STREAM, LEGACY, stream, version_for


def _probe():
    yield


# A generator made by compiled code (native.py) is of the compiler's own type, not GeneratorType:
# checked by identity first (the type of this module's own generators), and any other generator
# (a compiled card module while this one runs as Python) by the abstract type (`_drives`).
_COMPILED_GENERATOR = type(_probe())


def _drives(result) -> bool:
    """Whether an ability's result is run to its end: a generator of any kind, or a verb's
    Effect (a plain ability returns None, or a value)."""
    t = type(result)
    return (t is GeneratorType or t is _COMPILED_GENERATOR or t is Effect
            or (result is not None and isinstance(result, Generator)))


WIN_VP = 15
HAND_LIMIT = 10
STARTING_HAND = 5
DRAW_PER_TURN = 2
# The indexes of cards in play by hook (Game._place_in): (attribute, which definitions belong,
# whether a base in play counts too).
_INDEXES = (
    ("modifier_sources", lambda d: getattr(d, "power_modifier", None) is not None, True),
    ("breakpoint_sources", lambda d: (getattr(d, "starting_breakpoint", None) is not None
                                      or getattr(d, "breakpoint_modifier", None) is not None),
     False),
    ("protectors", lambda d: bool(getattr(d, "protections", ())), True),
    ("reactive", lambda d: d.kind != "base" and bool(getattr(d, "triggers", ())), False),
    ("talented", lambda d: getattr(d, "talent", None) is not None, False),
    ("replacers", lambda d: bool(getattr(d, "replacements", ())), True),
    ("restrictors", lambda d: bool(getattr(d, "restrictions", ())), False),
    # attached actions that cancel their host minion's abilities (Cuddle): `cancelled_cards`
    ("host_cancellers", lambda d: getattr(d, "cancels_host", False), False),
    # offering plays each turn or widening where a play's card may come from (Game.legal_plays)
    ("play_offering", lambda d: any(tg.zone == "play" for tg in getattr(d, "turn_grants", ()))
     or bool(getattr(d, "play_sources", ())), True),
    # whose modifier or protection may read beyond a minion's base (`_new_power_version`)
    ("wide_readers", lambda d: not _power_locality(d), True),
)
# Finite abilities (CR, "Infinite Loops", the "Finite Abilities" resolution): one ongoing ability may
# react at most this many times in one chain of events; a chain starts at each top-level play.
TRIGGER_LIMIT = 50
# A game in which no player has been asked anything for this many turns in a row is stuck.
STALEMATE_TURNS = 40
# The decision id of the recorded "time is called" entry: `[None, CALL_TIME, []]` in the choices
# (seat None: nobody at the table made it; engine decision ids are "d<n>", so it cannot collide).
CALL_TIME = "call_time"
# A tied lead when a game ends on time (or on its base limit) plays on for at most this many
# rounds of turns (every player one more turn each); if still tied, the leaders share the win.
TIE_PLAY_ON_ROUNDS = 1
MAX_END_AFTER_BASES = 50
IN_PLAY_ZONES = ("minion", "base_action", "attached")
# The controller of a base's power modifier (Game._modifiers_now): nobody's card, never "affects".
_BASE = object()
_NOTHING: frozenset = frozenset()
# `_power_locality`: a card reads only its minion's base / moreover reaches only its own.
_READS_LOCALLY = 1
_MOVES_LOCALLY = 2
# What a local change moved (`Game._moved_kinds`): a card with a modifier, or with a protection
# (a minion carrying actions counts as both), so the lists of those working are made afresh.
_MOVED_MODIFIER = 1
_MOVED_PROTECTOR = 2


def _power_locality(defn) -> int:
    """What a card's abilities let power read beyond its own base: _READS_LOCALLY when in play
    it changes only what its own modifier and protections declare `local` (a card moved on
    another base changes nothing they add or cover); _MOVES_LOCALLY when moreover its arriving
    or leaving changes only the powers on its base (a modifier or protection reaching only
    there, and it cancels nothing); 0 otherwise (`Game.wide_readers`)."""
    locality = _MOVES_LOCALLY
    if getattr(defn, "power_modifier", None) is not None:
        if not defn.modifier_local:
            return 0
        if defn.modifier_to is None:
            locality = _READS_LOCALLY  # asked about every minion: its arrival reaches them all
    for prot in getattr(defn, "protections", ()):
        if prot.kind == "affect" and not prot.local:  # only "affect" ones gate a modifier
            return 0
    if getattr(defn, "cancels_base", False) or getattr(defn, "cancels_host", False):
        locality = _READS_LOCALLY  # what it cancels may reach other bases
    return locality

# The zones power can read (`Game.version`): cards in play and the bases in play.
_BOARD_ZONES = frozenset(IN_PLAY_ZONES + ("base",))
_IN_PLAY = frozenset(IN_PLAY_ZONES)
_ON_CARDS = frozenset(("attached", "base_action"))  # where an action has an ActionState
# A player's piles, out of play: a card moved between them touches nothing else (`move_card`).
_PILE_ZONES = frozenset(("deck", "hand", "discard"))

@dataclass(slots=True)
class BaseSlot:
    """A base in play. `uid` names the place; Terraforming swaps the card and keeps the place."""

    uid: int
    card: int
    minions: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)


@dataclass(slots=True)
class PlayerState:
    seat: int
    name: str
    factions: list[str]
    bot: str | None = None
    deck: list[int] = field(default_factory=list)  # index 0 is the top
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    vp: int = 0
    mulliganed: bool = False


@dataclass(slots=True)
class TurnState:
    seat: int
    grants: list[Grant] = field(default_factory=list)
    talents_used: set = field(default_factory=set)
    flags: dict = field(default_factory=dict)  # per-turn memory of card abilities ("once per turn")
    plays: list[PlayRecord] = field(default_factory=list)  # every card played this turn, in order
    # The plays of this turn that another grant fitted too, and the grant each uses (grant
    # matching, plays.py); digest 3 reads it.
    spent: list = field(default_factory=list, metadata={"since": []})

    @property
    def minions_played(self) -> int:
        """Minions this turn's player played in its Play Cards phase."""
        return sum(1 for p in self.plays
                   if p.kind == MINION and p.seat == self.seat and p.phase == "play")

    @property
    def actions_played(self) -> int:
        return sum(1 for p in self.plays
                   if p.kind == ACTION and p.seat == self.seat and p.phase == "play")


@dataclass(slots=True)
class Scoring:
    """What happens while one base scores (CR Phase 3, steps 3 to 9)."""

    slot: BaseSlot
    base_card: int
    powers: dict[int, int] = field(default_factory=dict)
    places: dict[int, int] = field(default_factory=dict)  # seat -> place (1, 2, 3) for VP
    awards: dict[int, int] = field(default_factory=dict)
    # minion -> "hand", "deck_top", "deck_bottom" or ("move", base uid)
    instead: dict[int, str | tuple] = field(default_factory=dict)
    # minion -> the term its "instead" uses, announced as that event at step 7 ("placed" unless
    # the card says "return"); a ("move", uid) is a move and announces "moved" itself.
    terms: dict[int, str] = field(default_factory=dict)
    used: set = field(default_factory=set)  # once-per-scoring limits (e.g. Shinobi)
    cancelled: bool = False
    # Whether the base's abilities worked when it scored (step 4): its after-scoring and
    # replacement abilities follow that, not a cancel that came later.
    base_active_at_scoring: bool = True
    # (card, seat) whose `picks_new_base` ability chooses the base replacing this one (step 9):
    # the first card to claim it (Lost City), unless the base's own `replace_from` picks one.
    new_base_by: tuple | None = _added(None)
    # (card, seat) whose `on_new_base` ability runs once the replacing base is in play, in the
    # order they asked (Lost City's extra minion, even when another ability picked the base).
    on_new_base: list = _added(factory=list)

    @property
    def base(self) -> int:
        """The scoring base's uid."""
        return self.slot.uid

    def redirect(self, minion: int, destination, term: str = "placed") -> bool:
        """Send a minion somewhere other than the discard pile when the base's cards are put
        away (step 7). `term` is what the card calls it: "placed" by default (WWWT "Place": a
        relocation no other term covers, e.g. to the bottom of a deck or into a hand), "returned"
        for a card that says "return" (The Mothership). When two "instead" effects claim the same
        minion, the first one to resolve wins (CR step 9's "the one activated first takes
        precedence", applied here)."""
        if minion in self.instead:
            return False
        self.instead[minion] = destination
        self.terms[minion] = term
        return True

    def claim_new_base(self, card: int, seat: int) -> bool:
        """Let `card` (its `picks_new_base` ability, run by `seat` in step 9) choose the base that
        replaces this one. The first claim wins, as for "instead" (CR step 9), and the scored
        base's own `replace_from` ability, which resolves before any Special after scoring,
        comes first (the WWWT clarification on Lost City: "even if a different ability chooses
        the next base"). Returns whether this card got the choice."""
        if self.new_base_by is not None:
            return False
        self.new_base_by = (card, seat)
        return True

    def after_new_base(self, card: int, seat: int) -> None:
        """Run `card`'s `on_new_base` ability (by `seat`) once the replacing base is in play;
        nothing happens if the base is not replaced (an empty base deck)."""
        self.on_new_base.append((card, seat))

    def winners(self) -> list[int]:
        return [s for s, p in self.places.items() if p == 1]

    def runners_up(self) -> list[int]:
        return [s for s, p in self.places.items() if p == 2]


class _GameEnds(Exception):
    """Internal: a tied lead was broken by a scored base while playing on; the flow stops there."""


# Switches for tests (tests/*/conftest.py), module globals because the compiled Game is a type
# that cannot be patched (game.pxd):
# - VERIFY_POWERS: every power read from the cache is compared with one computed afresh, so a
#   change that forgot `changed()` fails the test that made it.
# - AFTER_APPLY: called with the game after every accepted choice (the card tests check every
#   invariant there).
VERIFY_POWERS = False
AFTER_APPLY = None


class Game:
    """One game of Smash Up. Build it with `new_game`, `replay` or the scenario builder.

    Compiled (native.py), Game is an extension type whose attributes are the C fields game.pxd
    declares: read without a dictionary lookup. Every attribute is set in `__init__` and declared
    there (tests/engine/test_native.py checks both); an instance still takes other attributes (a
    subclass's, a test's) in its `__dict__`, and `state_fields` reads both."""

    def __init__(self, config: dict, seed: int | str, registry: Registry = REGISTRY,
                 rng_version: int | None = None, shared_factions: bool = False):
        self.registry = registry
        self.config = self.normalize(config, registry)
        if not shared_factions:  # a record made before the rule replays as it was played
            require_factions_once(self.config)
        # The seed is the game's secret (version 2, see rng.py): never part of a view.
        self.seed = seed
        self.rng_version = version_for(seed, rng_version)
        self.rng = stream(seed, GAME_STREAM, self.rng_version)
        self.defs: list[CardDef | BaseDef] = []
        self.owner: list[int | None] = []
        self.loc: list[tuple] = []
        self.players: list[PlayerState] = []
        self.bases: list[BaseSlot] = []
        # The bases in play by uid (`slot`), kept by the two places that add or remove one
        # (`new_slot`, `_score_steps`): asked tens of thousands of times a game. Not state.
        self._slot_of: dict[int, BaseSlot] = {}
        self.base_deck: list[int] = []
        self.base_discard: list[int] = []
        self.resolving: list[int] = []  # actions being played, not yet discarded or attached
        self.minion_state: dict[int, MinionState] = {}
        self.action_state: dict[int, ActionState] = {}
        self.lasting: list[Lasting] = []
        # Where a resolving action goes instead of its owner's discard pile (Ctx.after_resolving).
        self.resolving_to: dict[int, str] = {}
        # Indexes of the cards in play (and bases in play, for modifiers and replacements) that
        # have each kind of hook, so that power, an event or a main decision looks only at those
        # (see _INDEXES; kept by `_place_in`, never part of the state).
        self.modifier_sources: dict[int, None] = {}  # with a power modifier
        self.breakpoint_sources: dict[int, None] = {}  # that set or change bases' breakpoints
        self.protectors: dict[int, None] = {}  # that protect cards
        self.reactive: dict[int, None] = {}  # with triggers (bases are read from self.bases)
        self.talented: dict[int, None] = {}  # with a talent
        self.replacers: dict[int, None] = {}  # with an "instead" (replacement)
        self.restrictors: dict[int, None] = {}  # that forbid some plays (Block the Path)
        self.host_cancellers: dict[int, None] = {}  # cancelling their host's abilities (Cuddle)
        # The cards in play whose abilities are cancelled (`cancelled_cards`), per board version.
        self._cancelled: frozenset = frozenset()
        self._cancelled_version = -1
        # Cards that left play with their abilities cancelled (`Ctx._leave_play`): their "last
        # words" (leaves-play triggers) do not fire. Cleared when the card enters play again.
        self.left_cancelled: dict[int, None] = {}
        self.play_offering: dict[int, None] = {}  # offering or widening plays (legal_plays)
        self.wide_readers: dict[int, None] = {}  # power may read beyond a base (_power_locality)
        self._index_kinds: dict[int, tuple] = {}  # def id -> which indexes its cards belong to
        # Generator verbs dropped without `yield from` (effects.Effect); not state: the next
        # step raises EngineError naming them.
        self.dropped_effects: list[str] = []
        # Which digest this game's state hashes use (`digest`): 2, or 1 for a game replayed from
        # a record whose stored hashes were made before version 2 existed.
        self.digest_version = DIGEST_VERSION
        # How reactions are ordered (RESOLUTION): 2, the rules' batches (`react_to_batch`), for
        # every new game; 1 for a game replayed from a record made before batches existed (one
        # event at a time, as those records were played), so that every old record replays.
        self.resolution = RESOLUTION
        self.turn = 0
        self.current = 0
        self.phase = "setup"
        self.turn_state = TurnState(0)
        self.scoring_stack: list[Scoring] = []
        self.winner: int | None = None
        # How the game ends early (tournament play): `bases_scored` counts the bases that scored
        # (VP awarded); `final_turn` is the turn after which the VP decide (set by a time call or
        # the config's `end_after_bases`), `end_reason` says which ("time" or "bases");
        # `play_on_until` is the last turn of a tied lead's play-on; `shared_winners` the tied
        # leaders when the play-on ran out.
        self.bases_scored = 0
        self.time_called_turn: int | None = None
        self.final_turn: int | None = None
        self.end_reason: str | None = None
        self.play_on_until: int | None = None
        self.shared_winners: list[int] = []
        self.choices: list[list] = []
        self.hashes: list[str] = []
        self.track_hashes = False
        self.log_lines: list[tuple[str, tuple | None]] = []
        # What each base scoring gave (`_note_scoring`): for the pages' scoring summaries.
        self.base_scorings: list[dict] = []
        self.decision_seq = 0
        self.pending: Decision | None = None
        self._events: list[Event] = []
        self._depth = 0
        self._chain_counts: dict = {}
        self._next_uid = 0
        self._entries = 0  # serial of minions entering play (MinionState.entered)
        # The windows some card of this game has a Special for, and (zone, window) -> the cards
        # with one (`_index_specials`): derived from the definitions.
        self._window_cards: frozenset = frozenset()
        self._special_cards: dict[tuple, frozenset] = {}
        self._window_cards_of = -1
        self._discard_offers = None  # names of cards offering a play from a discard pile
        self._discard_offerers = (0, ())  # (len(defs), the cards of those names)
        # Every seat whose cards a Special window checked for a usable Special, in order. Not state
        # (no digest covers it): in "fast" mode that check alone tells the table whether a player
        # holds one, so whoever rewinds a choice (live play's undo) must know it happened.
        self.special_checks: list[int] = []
        # Every hidden card shown while it stayed where it was (a revealed or looked-at deck top, a
        # hand looked at): (card id, seats it was shown to, None for everyone). Not state, like
        # `special_checks`: live play's undo must not take back a choice that showed one.
        self.disclosures: list[tuple[int, tuple | None]] = []
        self._flow = None
        self._static_views: dict[int, dict] = {}
        # (card, slot uid, base card, kind, seat) -> Option; from a discard pile also (zone, way)
        self._minion_play_options: dict[tuple, Option] = {}
        # A card's plays from the hand and their Options, per bases in play (PlayFinder.plays):
        # ((uid, base card) of each base, seat) -> card, or (card, kind) for a kind of play not
        # its own -> its Options (`_play_row`). Not state.
        self._play_rows: dict[tuple, dict] = {}
        self._play_plans: dict[int, tuple] = {}  # card -> how it may be played (plays._plan)
        # Power is derived on demand from the whole board (`power`), and asked for thousands of
        # times a game, mostly of a board that has not changed since the last time. `version`
        # moves with every change power can read (`changed`: zones, counters, controllers,
        # attachments, lasting effects, turn flags; whose turn it is only while something power
        # reads depends on it, `_power_reads_turn`); `_powers` keeps the powers counted at
        # `_powers_version`, per base. Not state.
        self.version = 0
        self._powers: dict[int, dict[int, int]] = {}  # base uid -> its minions' powers
        self._powers_version = -1
        # The turn (its TurnState) and whose it was when power was last read (`_note_turn`).
        self._turn_seen = self.turn_state
        self._seat_seen = self.current
        self._modifiers: tuple = ([], {})  # `_modifiers_now` at `_modifiers_version`
        self._totals: dict[int, int] = {}  # base uid -> total_power at `_powers_version`
        self._modifiers_version = -1
        self._bonuses: dict | None = None  # `_lasting_bonuses` at `_powers_version`
        # A card moved on the board changes, most of the time, only the powers on its base: while
        # every version since `_powers_version` was such a change (`_board_moved`,
        # `_lasting_changed`), `_local_upto` follows `version` and the bases touched are listed,
        # so that a new power version forgets only their counts (`_new_power_version`).
        self._local_upto = -1
        self._touched_bases: set[int] = set()
        self._moved_kinds = 0  # _MOVED_* of the cards those changes moved
        self._here_bases: frozenset = frozenset()  # bases a "here" modifier reaches (_modifiers)
        self._localities: dict[int, int] = {}  # id(definition) -> `_power_locality`
        self._protections: list[tuple] = []  # `_working_protections` at `_protections_version`
        self._protections_version = -1
        # Triggers by kind of event and card (`_index_triggers`): derived from the definitions.
        self._trigger_index: dict[str, dict[int, tuple]] = {}
        self._trigger_index_of = -1
        self._base_trigger_kinds: frozenset = frozenset()
        self._turn_start_bases = False
        self._answer = None  # (decision, chosen Options) from `apply` to `ask`: not state
        # A replay sets it (setup.replay): the main decision lists its options only when they
        # are read, and a recorded choice is looked up alone (`_MainOptions`). Not state.
        self.lazy_options = False
        self._digest_static: dict[str, tuple] = {}  # `_digest_v2`'s unchanging parts
        # The digest text of each Option a pending decision held (`_pending_text`): id -> (the
        # Option, fields table, text). An Option never changes once made.
        self._option_texts: dict[int, tuple] = {}
        self._state_names: tuple | None = None  # `state_fields`: (attribute names, state ones)
        self._loc_texts: tuple | None = None  # `_loc_text`: (zones, their texts, loc's text)
        self._card_options: dict[tuple, Option] = {}  # (prefix, card, name) -> Option (_CardOptions)
        self.scenario = None  # set when built by the scenario builder; replays rebuild from it

    # ------------------------------------------------------------------ modes (variants) ------
    # A mode of play (Big Base: bigbase/rules) is a subclass that overrides these hooks, the round
    # loop and scoring; card code is the same in every mode.
    def normalize(self, config: dict, registry: Registry) -> dict:
        """Check this mode's config and fill its defaults (ConfigError when it cannot be played)."""
        return normalize_config(config, registry)

    def deal_bases(self, bases: list[BaseDef]) -> None:
        """Setup: the base deck from these bases, shuffled, and one base per player plus one in
        play (CR "Setup")."""
        needed = len(self.players) + 1
        if len(bases) < needed:
            raise ConfigError(f"{len(self.players)} players need {needed} bases; "
                              f"the chosen sets have {len(bases)}")
        for bdef in bases:
            self.new_card(bdef, None, ("base_deck",))
        self.rng.shuffle(self.base_deck)
        for _ in range(needed):
            self.new_slot(self.base_deck[0])

    def enter_base(self, card: int, uid: int, seat: int):
        """A card of `seat` is about to arrive on base `uid` (played, moved, attached to the base
        or transferred there). Nothing to do in standard play; Big Base places it in a slot."""
        return
        yield

    def batch_extras(self, batch: list[Event]) -> list[tuple]:
        """Abilities of the mode itself that answer this batch of events, as `run_reactions`
        extras (label, card, generator factory): none in standard play (Big Base: slots)."""
        return []

    def swap_base(self, uid: int, new_base: int, old_to: tuple = ("base_deck",)) -> list[int]:
        """Put `new_base` (from the base deck or the base discard pile) in the place of base
        `uid`; everything on it stays. The old base goes to `old_to`: the base deck
        (Terraforming's swap) or the base discard pile (a base destroyed and replaced: Burn It
        Down). Returns the bases in play that now have the new base card: [uid] (Big Base:
        every side)."""
        slot = self.slot(uid)
        old = slot.card
        self.move_card(new_base, ("base", uid))
        slot.card = new_base
        self.changed()
        self.move_card(old, old_to)
        self.log(f"{self.name(new_base)} takes the place of {self.name(old)}.")
        return [uid]

    def add_base(self, new_base: int) -> list[int]:
        """Put `new_base` (from the base deck) into play as one more base, after the others
        (Idaho Smith: it is replaced as usual when it scores, so there stays one base more).
        Returns the bases that now have it: [its uid] (Big Base: every side)."""
        slot = self.new_slot(new_base)
        self.log(f"{self.base_name(slot.uid)} comes into play as an extra base.")
        return [slot.uid]

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

    # ------------------------------------------------------------------ public contract -------
    def start(self, flow=None):
        self.version += 1  # a scenario set the board up by hand
        self._flow = flow if flow is not None else self._main()
        self._advance(None)
        return self

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
        find = decision.option
        for option_id in ids:
            option = find(option_id)
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

    def record(self) -> dict:
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

    # ------------------------------------------------------------------ cards and zones --------
    def new_card(self, defn, owner, zone) -> int:
        cid = len(self.defs)
        self.defs.append(defn)
        self.owner.append(owner)
        if zone[0] in _PILE_ZONES:
            # A new card in a player's pile: in no index (`_place_in` would only remove it).
            self.loc.append(zone)
            getattr(self.players[zone[1]], zone[0]).append(cid)
            return cid
        self.loc.append(None)
        self._place_in(cid, zone, None)
        return cid

    def container(self, zone: tuple) -> list[int]:
        kind = zone[0]
        if kind in ("deck", "hand", "discard"):
            return getattr(self.players[zone[1]], kind)
        if kind == "minion":
            return self.slot(zone[1]).minions
        if kind == "base_action":
            return self.slot(zone[1]).actions
        if kind == "attached":
            return self.minion_state[zone[1]].attached
        if kind == "base_deck":
            return self.base_deck
        if kind == "base_discard":
            return self.base_discard
        if kind == "resolving":
            return self.resolving
        raise EngineError(f"no container for zone {zone!r}")

    def _indexes_of(self, defn) -> tuple:
        key = id(defn)
        kinds = self._index_kinds.get(key)
        if kinds is None:
            kinds = self._index_kinds[key] = tuple(
                (getattr(self, name), bases_too) for name, wanted, bases_too in _INDEXES
                if wanted(defn))
        return kinds

    def _place_in(self, cid: int, zone: tuple, index: int | None) -> None:
        kind = zone[0]
        if kind in _BOARD_ZONES:
            self._board_moved(cid, zone)  # what power reads changed (see `version`)
        if kind != "base":  # bases in play live in their BaseSlot, not in a list
            target = self.container(zone)
            if index is None:
                target.append(cid)
            else:
                target.insert(index, cid)
        self.loc[cid] = zone
        in_play = kind in _IN_PLAY
        if in_play and self.left_cancelled:
            self.left_cancelled.pop(cid, None)
        defn = self.defs[cid]
        kinds = self._index_kinds.get(id(defn))
        if kinds is None:
            kinds = self._indexes_of(defn)
        if kinds:
            is_base = kind == "base"
            for index_map, bases_too in kinds:
                if in_play or (is_base and bases_too):
                    index_map[cid] = None
                else:
                    index_map.pop(cid, None)

    def move_card(self, cid: int, zone: tuple, index: int | None = None) -> None:
        """The one primitive that changes a card's zone; every rule event is built on it."""
        old = self.loc[cid]
        was, kind = old[0], zone[0]
        if was in _PILE_ZONES and kind in _PILE_ZONES:
            # From a player's pile to a player's pile (a draw, a discard from hand, a deck
            # refilled): nothing in play is touched, so no index, state or lasting effect can
            # hold the card (`_place_in` keeps the indexes to cards in play and bases) and
            # nothing power reads changes. Most moves are these.
            players = self.players
            getattr(players[old[1]], was).remove(cid)
            target = getattr(players[zone[1]], kind)
            if index is None:
                target.append(cid)
            else:
                target.insert(index, cid)
            self.loc[cid] = zone
            return
        if was in _BOARD_ZONES:
            self._board_moved(cid, old)  # what power reads changed (`version`); _place_in: the new zone
        if was != "base":
            self.container(old).remove(cid)
        if was == "minion" and kind != "minion":
            self.minion_state.pop(cid, None)
        if was in _ON_CARDS and kind not in _ON_CARDS:
            self.action_state.pop(cid, None)
        if was in _IN_PLAY and kind not in _IN_PLAY:
            # Played again, it is a new card in play with an unused talent (CR "Using Talents":
            # the game does not track the use of each physical copy).
            self.turn_state.talents_used.discard(cid)
            # Likewise a lasting effect on it ends (out of play a minion has its printed power,
            # and played again it is a new card in play, CR "Void Where Prohibited"), and so does
            # one that lasts only while this card is in play (`with_source`).
            if self.lasting:
                self._end_lasting_of(cid)
        elif was == "base" and kind != "base":
            if self.lasting:
                self._end_lasting_of(cid)
        self._place_in(cid, zone, index)

    def _end_lasting_of(self, cid: int) -> None:
        ended = [e for e in self.lasting
                 if (e.on_card and e.target == cid) or (e.with_source and e.source == cid)]
        if ended:
            self._lasting_changed(ended)
            self.lasting = [e for e in self.lasting if not any(e is x for x in ended)]

    def disclose(self, cards, to: tuple | None = None) -> None:
        """Note that hidden `cards` were shown (to the seats `to`, or to everyone) without moving:
        see `disclosures`."""
        self.disclosures.extend((cid, to) for cid in cards)

    def enter_play(self) -> int:
        """A new serial for a minion entering play (see MinionState.entered)."""
        self._entries += 1
        return self._entries

    def slot(self, uid: int) -> BaseSlot:
        found = self._slot_of.get(uid)
        if found is None:
            raise EngineError(f"no base in play with uid {uid}")
        return found

    def slot_or_none(self, uid: int) -> BaseSlot | None:
        return self._slot_of.get(uid)

    def base_def(self, slot: BaseSlot) -> BaseDef:
        return self.defs[slot.card]

    def name(self, cid: int) -> str:
        return self.defs[cid].name

    def base_name(self, uid: int) -> str:
        return self.defs[self.slot(uid).card].name

    def in_play(self, cid: int) -> bool:
        return self.loc[cid][0] in IN_PLAY_ZONES

    def is_minion_in_play(self, cid: int) -> bool:
        return self.loc[cid][0] == "minion"

    def base_of(self, cid: int) -> int | None:
        """The slot uid a card in play is on (an attached action: its host's base)."""
        zone = self.loc[cid]
        if zone[0] in ("minion", "base_action"):
            return zone[1]
        if zone[0] == "attached":
            return self.base_of(zone[1])
        return None

    def controller(self, cid: int) -> int | None:
        state = self.minion_state.get(cid)
        if state is None:
            state = self.action_state.get(cid)
            if state is None:
                return None
        return state.controller

    def all_minions(self) -> list[int]:
        return [m for s in self.bases for m in s.minions]

    def new_slot(self, base_card: int, index: int | None = None) -> BaseSlot:
        self._next_uid += 1
        slot = BaseSlot(self._next_uid, base_card)
        self.version += 1
        if index is None:
            self.bases.append(slot)
        else:
            self.bases.insert(index, slot)
        self._slot_of[slot.uid] = slot
        if self.loc[base_card] is None:
            self._place_in(base_card, ("base", slot.uid), None)
        else:
            self.move_card(base_card, ("base", slot.uid))
        return slot

    # ------------------------------------------------------------------ power ------------------
    def base_active(self, slot: BaseSlot) -> bool:
        """False while the base's abilities are cancelled (Jammed Signal, Infiltrate...)."""
        for a in slot.actions:
            if self.defs[a].cancels_base and self.ability_active(a):
                return False
        for eff in self.lasting:
            if eff.kind == "cancel_base" and eff.target == slot.uid:
                return False
        return True

    def ability_active(self, cid: int, fresh: bool = False) -> bool:
        """The one gate of "is this card's ability working" (WWWT "Cancel": a cancelled ability
        is treated as if it did not exist), read by triggers, power and breakpoint modifiers,
        protections, replacements, restrictions, plays offered, talents and Specials in play.
        A base in play: `base_active`. A card in play: not in `cancelled_cards` (Cuddle, My Only
        Weakness!, Mind Lady). An action attached to a minion keeps its own abilities when the
        minion's are cancelled (WWWT clarification, Cuddle), unless they are abilities it gives
        the minion (`host_ability`: Flighterizer's kind). A card out of play: True (a Special in
        hand is never cancelled). `fresh`: counted afresh (`power_now`)."""
        zone = self.loc[cid]
        if zone[0] == "base":
            return self.base_active(self.slot(zone[1]))
        cancelled = self._cancelled_now() if fresh else self.cancelled_cards()
        if not cancelled:
            return True
        if cid in cancelled:
            return False
        if zone[0] == "attached" and self.defs[cid].host_ability:
            return zone[1] not in cancelled
        return True

    def cancelled_cards(self) -> frozenset:
        """The cards in play whose abilities are cancelled now, kept per board version: hosts of
        an attached action that `cancels_host` (itself working), and targets of an active lasting
        "cancel_abilities" (`Ctx.cancel_abilities`)."""
        if not self.host_cancellers and not self.lasting:
            return _NOTHING
        if self._turn_seen is not self.turn_state or self._seat_seen != self.current:
            self._note_turn()
        if self._cancelled_version != self.version:
            if not self._working_kept(self._cancelled_version, 0):
                self._cancelled = self._cancelled_now()
            self._cancelled_version = self.version
        return self._cancelled

    def _cancelled_now(self) -> frozenset:
        found = set()
        for eff in self.lasting:
            if eff.kind == "cancel_abilities" and self.lasting_active(eff):
                found.add(eff.target)
        for a in self.host_cancellers:
            # A canceller whose own abilities are cancelled cancels nothing.
            state = self.action_state.get(a)
            if state is not None and state.host_kind == "minion" and a not in found:
                found.add(state.host)
        return frozenset(found) if found else _NOTHING

    def note_cancel(self, uid: int | None, was_active: bool, source: int | None,
                    player: int | None, card: int | None = None) -> None:
        """Announce that abilities became cancelled (WWWT "Cancel": treated as if they did not
        exist), as its own event `cancelled` (`card`: the cancelling card), distinct from anything
        done to a card: a base's (`uid`; an attached action such as Jammed Signal, one
        transferred onto it, a lasting cancel such as Infiltrate's) or a card's in play (`card`,
        named in data "target", `base` its base: Cuddle, Mind Lady). Only what was working
        announces it, so a second cancel of something already cancelled is silent."""
        if card is not None:
            if was_active and self.in_play(card) and not self.ability_active(card):
                self.emit(Event("cancelled", card=source, base=self.base_of(card), player=player,
                                data={"target": card}, by_card=source, by_player=player))
            return
        slot = self.slot_or_none(uid)
        if was_active and slot is not None and not self.base_active(slot):
            self.emit(Event("cancelled", card=source, base=uid, player=player, by_card=source,
                            by_player=player))

    def affects(self, source: int | None, source_player: int | None, target: int,
                kind: str = "affect") -> bool:
        """Whether an ability of `source` (controlled by `source_player`; None for a base's or
        the rules') may do `kind` to `target`: "affect" (anything), or "destroy"/"move" (also
        stopped by "cannot be destroyed/moved"). Typed protections (registry.Protection), and
        the cards an ability was told not to affect (`Ctx.unaffected_by`: Hideout)."""
        if self.lasting and source is not None:
            for eff in self.lasting:
                if (eff.kind == "unaffected_by" and eff.target == source
                        and target in eff.data["cards"]):
                    return False
        if not self.protectors:
            return True
        sdef = None
        for prot, ctx, protector_ctrl in self._working_protections():
            if prot.kind != "affect" and prot.kind != kind:
                continue
            if prot.only is not None:
                if sdef is None:
                    sdef = self.defs[source] if source is not None else False
                if not sdef or sdef.kind != (ACTION if prot.only == "actions" else MINION):
                    continue
            if prot.from_ == "other_players":
                if source_player is None or source_player == protector_ctrl:
                    continue
            elif prot.from_ == "not_its_controller":
                if source_player is not None and source_player == self.controller(target):
                    continue
            if prot.covers(ctx, target):
                return False
        return True

    def _working_protections(self) -> list[tuple]:
        """(protection, its card's Ctx, that card's controller) of every protection working now,
        in the order of `protectors`, listed once per `version` like the modifiers (and kept the
        same way, `_working_kept`): what makes
        one work (its card in play and not cancelled, its base's abilities working) and its
        Ctx's player (a base's: the current one, `_power_reads_turn`) are what power reads."""
        if self._turn_seen is not self.turn_state or self._seat_seen != self.current:
            self._note_turn()
        if self._protections_version == self.version:
            return self._protections
        if not self._working_kept(self._protections_version, _MOVED_PROTECTOR):
            found = []
            cancelled = self.cancelled_cards()
            for protector in self.protectors:
                if cancelled and not self.ability_active(protector):
                    continue
                zone = self.loc[protector]
                if zone[0] == "base" and not self.base_active(self.slot(zone[1])):
                    continue  # a cancelled base protects nothing (Converted Cave under Raze)
                ctx = self.card_ctx(protector)
                ctrl = self.controller(protector)
                found.extend((prot, ctx, ctrl) for prot in self.defs[protector].protections)
            self._protections = found
        self._protections_version = self.version
        return self._protections

    def affect_replaced(self, source: int | None, source_player: int | None, target: int,
                        kind: str) -> bool:
        """"If this ability would affect that card, something else happens instead" (Hideout):
        the first card in play whose "affect" replacement applies to this attempt (core.Affect)
        runs it, and the effect does not happen (True). It asks nothing: it runs inside plain
        verbs (add_power, attach) as well as in the destroy/move/return/place pipeline, before
        their own replacements. A base's or the rules' doing (no source) is never replaced."""
        if not self.replacers or source is None:
            return False
        attempt = None
        for cid in list(self.replacers):
            if self.loc[cid][0] not in IN_PLAY_ZONES or not self.ability_active(cid):
                continue
            for rep in self.defs[cid].replacements:
                if rep.event != "affect":
                    continue
                attempt = attempt or Affect(source, source_player, target, kind)
                ctx = self.card_ctx(cid)
                if not rep.applies(ctx, attempt):
                    continue
                result = rep.run(ctx, attempt)
                if _drives(result):
                    raise EngineError(f"{self.name(cid)}: an \"affect\" replacement cannot ask "
                                      "anything (use Ctx.at_once for a verb)")
                if self.dropped_effects:
                    self.check_dropped()
                if result:
                    return True
        return False

    def replace(self, kind: str, target: int, by: Ctx):
        """The replacements ("instead") of `kind` ("destroy", "move", "return", "place") about to
        happen to `target` by `by`'s ability: every card in play and active base with one that
        applies (registry.Replacement). When several apply, the target's controller picks which
        goes first (WWWT: the affected player orders them; each applies once to this event). A
        replacement that declines or returns False lets the next one try. True: the event was
        replaced and does not happen."""
        if not self.replacers:
            return False
        found = []
        applied = by.applied
        for cid in list(self.replacers):
            zone = self.loc[cid]
            if zone[0] == "base":
                if not self.base_active(self.slot(zone[1])):
                    continue
                ctx = Ctx(self, cid, self.current, zone[1])
            elif not self.ability_active(cid):
                continue
            else:
                ctx = self.card_ctx(cid)
            for i, rep in enumerate(self.defs[cid].replacements):
                if (rep.event == kind and (cid, i, target) not in applied
                        and rep.applies(ctx, target)):
                    found.append((cid, i, rep))
        chooser = self.controller(target)
        chooser = self.current if chooser is None else chooser
        while found:
            if len(found) == 1:
                cid, i, rep = found.pop()
            else:
                options = [Option(card_option_id("s", c, index=i), self.name(c), card=c)
                           for c, i, _ in found]
                chosen = yield from self.ask(
                    chooser, "order", "Several effects would happen instead: pick the first",
                    options)
                index = options.index(chosen[0])
                cid, i, rep = found.pop(index)
            if self.loc[target][0] not in IN_PLAY_ZONES:
                return True  # an earlier one took it away already
            zone = self.loc[cid]
            if zone[0] == "base":
                ctx = Ctx(self, cid, self.current, zone[1])
            elif zone[0] in IN_PLAY_ZONES and self.ability_active(cid):
                ctx = self.card_ctx(cid)
            else:
                continue  # its card left play (or was cancelled) meanwhile
            if not rep.applies(ctx, target):
                continue
            if rep.optional_label is not None:
                use = yield from self.ask_yes_no(ctx.me, rep.optional_label, source=cid)
                if not use:
                    continue
            # What it does instead is not replaced by it again (each applies once to an event).
            ctx.applied = applied | {(cid, i, target)}
            replaced = yield from self.run_ability(rep.run, ctx, target)
            if replaced:
                return True
        return False

    def card_ctx(self, cid: int, seat: int | None = None) -> Ctx:
        """The Ctx a card's predicates get: you are its controller (a base: the current player;
        a card out of play: its owner), here is its base."""
        if seat is None:
            # `controller`, inlined: predicates of every card ask for this.
            state = self.minion_state.get(cid)
            if state is None:
                state = self.action_state.get(cid)
            seat = state.controller if state is not None else None
            if seat is None:
                seat = self.owner[cid] if self.owner[cid] is not None else self.current
        return Ctx(self, cid, seat)

    def _note_turn(self) -> None:
        """Whose turn it is, or the turn itself (its flags), changed since power was last read:
        that moves `version` only if something power reads depends on it (`_power_reads_turn`),
        or the turn left behind held flags (Ancient Temple's modifier reads one). Noticed here
        rather than where the turn changes, so that every way of changing it (a mode's round
        loop, Big Base's "nobody's turn", a scenario) is covered."""
        if ((self._turn_seen.flags and (self.modifier_sources or self.protectors))
                or self._power_reads_turn()):
            self.version += 1
        elif self.lasting:
            # Power changes in force only in some turns (Armor Stego's): their minions' bases.
            during = [eff for eff in self.lasting if eff.during is not None]
            if during:
                self._lasting_changed(during)
        self._turn_seen = self.turn_state
        self._seat_seen = self.current

    def _power_reads_turn(self) -> bool:
        """Whether power (and what it reads: cancelled abilities, protections) may read whose turn
        it is now, so that a new turn must count everything afresh (`version`): a lasting effect
        other than a power change in force only in some turns (`Lasting.during`; a power change
        is counted afresh on its minion's base, `_note_turn`), or a base's modifier or protection
        not declared `local` (its Ctx's player is the current one; a `local` one does not read
        it). No card's modifier or protection reads the turn otherwise (their Ctx's player is
        their controller); one that did would be named here. A turn that changes nothing else
        keeps every power known."""
        for eff in self.lasting:
            if eff.during is not None and not (eff.kind == "power" and eff.on_card):
                return True
        loc = self.loc
        for index in (self.modifier_sources, self.protectors):
            for source in index:
                if loc[source][0] == "base":
                    defn = self.defs[source]
                    if defn.power_modifier is not None and not defn.modifier_local:
                        return True
                    for prot in defn.protections:
                        if not prot.local:
                            return True
        return False

    def _lasting_changed(self, effects: list) -> None:
        """These lasting effects began or ended: a new `version`. Power changes on minions in play
        (`Ctx.add_power`) change only the powers on those minions' bases (a `local` modifier reads
        no power change but its minion's), so those bases alone are counted afresh, as after a
        move (`_board_moved`); anything else, everything."""
        uids = []
        loc = self.loc
        for eff in effects:
            if eff.kind != "power" or not eff.on_card:
                uids = None
                break
            zone = loc[eff.target]
            if zone[0] != "minion":
                uids = None
                break
            uids.append(zone[1])
        v = self.version
        self.version = v + 1
        if uids and self._local_upto == v:
            self._local_upto = v + 1
            self._touched_bases.update(uids)

    def _board_moved(self, cid: int, zone: tuple) -> None:
        """`cid` arrived in or left `zone` on the board (or its state there was set): a new
        `version`. While every change since the powers were last synced is such a move of a card
        that reaches only its own base (`_power_locality`), the move is listed, so that only the
        bases touched are counted afresh (`_new_power_version`); anything else (`changed`, a
        base card, a card with a wider reach) moves the version alone and everything is."""
        v = self.version
        self.version = v + 1
        if self._local_upto != v:
            return
        kind = zone[0]
        if kind == "minion" or kind == "base_action":
            uid = zone[1]
        elif kind == "attached":
            uid = self.base_of(zone[1])
            if uid is None:
                return
        else:  # a base card
            return
        defn = self.defs[cid]
        locality = self._localities.get(id(defn))
        if locality is None:
            locality = self._localities[id(defn)] = _power_locality(defn)
        if locality == _MOVES_LOCALLY:
            self._local_upto = v + 1
            self._touched_bases.add(uid)
            if defn.power_modifier is not None:
                self._moved_kinds |= _MOVED_MODIFIER
            if defn.protections:
                self._moved_kinds |= _MOVED_PROTECTOR
            state = self.minion_state.get(cid)
            if state is not None and state.attached:  # its actions moved with it
                self._moved_kinds |= _MOVED_MODIFIER | _MOVED_PROTECTOR

    def changed(self) -> None:
        """Note a change that power may read (see `version`). Moving a card, a choice and an event
        note themselves; code that changes counters, a controller, a host, a base card, a lasting
        effect or whose turn it is calls this."""
        self.version += 1

    def label_version(self) -> int:
        """The board's `version` for labels formatted when read (`effects.board_label`): a new
        turn noted first, as power would note it when the label reads a power, so reading it
        does not move the version the label was asked at."""
        if self._turn_seen is not self.turn_state or self._seat_seen != self.current:
            self._note_turn()
        return self.version

    def power(self, cid: int) -> int:
        """Current power: printed + counters + every active modifier, never below 0 (WWWT).
        Computed once per `version` (`power_now` does the work), a base at a time: a minion's
        power is rarely read alone (a base's total, the powers where a minion entered, the
        minions offered as targets), so its neighbours are counted with it (`_count_base`)."""
        if self._turn_seen is not self.turn_state or self._seat_seen != self.current:
            self._note_turn()
        if self._powers_version != self.version:
            self._new_power_version()
        zone = self.loc[cid]
        if zone[0] != "minion":
            return self._count_power(cid)  # out of a base: printed, rarely asked
        known = self._powers.get(zone[1])
        if known is None:
            self._count_base(self.slot(zone[1]))
            return self._powers[zone[1]][cid]
        value = known[cid]
        if VERIFY_POWERS and value != self.power_now(cid):
            raise EngineError(f"{self.name(cid)}'s power is stale: {value}, now "
                              f"{self.power_now(cid)} (a change that did not call "
                              "Game.changed)")
        return value

    def _new_power_version(self) -> None:
        # What was counted at an older version is forgotten; what every power at this one
        # reads (the modifiers working, the lasting changes in force) is listed on first need.
        # When only cards reaching their own base moved since (`_board_moved`, `_lasting_changed`)
        # and nothing on the board reads beyond a minion's base (`wide_readers`: a card that was
        # in play meanwhile and is no more moved, so was looked at as it moved), only the bases
        # touched are forgotten.
        version = self.version
        if self._local_upto == version and not self.wide_readers:
            powers = self._powers
            totals = self._totals
            for uid in self._touched_bases:
                powers.pop(uid, None)
                totals.pop(uid, None)
            # The lists of what works that such changes leave as they were are kept too.
            if self._working_kept(self._modifiers_version, _MOVED_MODIFIER):
                self._modifiers_version = version
            if self._working_kept(self._protections_version, _MOVED_PROTECTOR):
                self._protections_version = version
            if self._working_kept(self._cancelled_version, 0):
                self._cancelled_version = version
        else:
            self._powers.clear()
            self._totals.clear()
        self._bonuses = None  # a power change may have begun or ended (`_lasting_changed`)
        self._touched_bases.clear()
        self._moved_kinds = 0
        self._powers_version = self._local_upto = version

    def _working_kept(self, since: int, kind: int) -> bool:
        """Whether a list of what works made at version `since` (`_modifiers_now`,
        `_working_protections`, `_cancelled_now`) still holds: every change since was local
        (`_board_moved`, `_lasting_changed`: no controller, cancel, base or other lasting effect
        changed), none moved a card of that `kind` (_MOVED_*), and, for the modifiers, none
        touched a base a "here" modifier reaches (its minions are listed)."""
        if since < self._powers_version or self._local_upto != self.version:
            return False
        if self._moved_kinds & kind:
            return False
        return kind != _MOVED_MODIFIER or not self._touched_bases & self._here_bases

    def _lasting_bonuses(self) -> dict:
        """The lasting power changes in force at this version, summed per minion."""
        bonuses = self._bonuses
        if bonuses is None:
            bonuses = self._bonuses = {}
            for eff in self.lasting:
                if eff.kind == "power" and self.lasting_active(eff):
                    bonuses[eff.target] = bonuses.get(eff.target, 0) + eff.amount
        return bonuses

    def _count_base(self, slot: BaseSlot) -> int:
        """Count (`_count_power`) the power of every minion on `slot`, in one pass, kept for this
        version (`_powers`, `_totals`); returns their total."""
        powers = self._powers[slot.uid] = {}
        defs = self.defs
        states = self.minion_state
        anyone = targeted = None
        if self.modifier_sources:
            anyone, targeted = self._working_modifiers()
        bonuses = self._lasting_bonuses() if self.lasting else None
        total = 0
        for m in slot.minions:
            state = states.get(m)
            if state is None:
                value = defs[m].power
            else:
                value = defs[m].power + state.counters
                if anyone is not None:
                    for source, modifier, ctx, ctrl in (targeted.get(m, anyone)
                                                        if targeted else anyone):
                        delta = modifier(ctx, m)
                        # A change of power is an affect (WWWT "Affect"): a protected minion
                        # ignores it; a base's modifier is nobody's card.
                        if delta and (ctrl is _BASE or self.affects(source, ctrl, m)):
                            value += delta
                if bonuses:
                    value += bonuses.get(m, 0)
                if value < 0:
                    value = 0
            powers[m] = value
            total += value
        self._totals[slot.uid] = total
        return total

    def _count_power(self, cid: int) -> int:
        # power_now, with the modifiers working at this version listed once (_modifiers_now).
        state = self.minion_state.get(cid)
        if state is None:
            return self.defs[cid].power
        total = self.defs[cid].power + state.counters
        if self.modifier_sources:
            anyone, targeted = self._working_modifiers()
            for source, modifier, ctx, ctrl in (targeted.get(cid, anyone) if targeted
                                                else anyone):
                delta = modifier(ctx, cid)
                # A change of power is an affect (WWWT "Affect"): a protected minion ignores it;
                # a base's modifier is nobody's card.
                if delta and (ctrl is _BASE or self.affects(source, ctrl, cid)):
                    total += delta
        if self.lasting:
            total += self._lasting_bonuses().get(cid, 0)
        return total if total > 0 else 0

    def _working_modifiers(self) -> tuple[list, dict]:
        """`_modifiers_now`, listed once per version (kept through a local change that leaves it
        as it was: `_working_kept`)."""
        if self._modifiers_version != self.version:
            if not self._working_kept(self._modifiers_version, _MOVED_MODIFIER):
                self._modifiers = self._modifiers_now()
            self._modifiers_version = self.version
        return self._modifiers

    def _modifiers_now(self) -> tuple[list, dict]:
        """(source, its modifier, its Ctx, its controller or _BASE) of every power modifier working
        now: a card in play's, or an active base's. Split by reach (`CardDef.modifier_to`): those
        that may change any minion, and per minion, those plus the ones that may change only it
        (itself, its host, the minions here); a minion not in that map is changed only by the
        first list."""
        anyone = []
        targeted: dict[int, list] = {}
        here: set = set()  # the bases "here" modifiers reach: their minions are listed
        loc = self.loc
        cancelled = self.cancelled_cards()  # none cancelled: every card in play works
        for source in self.modifier_sources:
            zone = loc[source]
            sdef = self.defs[source]
            modifier = sdef.power_modifier
            if zone[0] == "base":
                if not self.base_active(self.slot(zone[1])):
                    continue
                entry = (source, modifier, Ctx(self, source, self.current, zone[1]), _BASE)
            else:
                if cancelled and not self.ability_active(source):
                    continue
                ctrl = self.controller(source)
                entry = (source, modifier, Ctx(self, source, ctrl), ctrl)
            to = sdef.modifier_to
            if to is None:
                anyone.append(entry)
                for entries in targeted.values():
                    entries.append(entry)
                continue
            if to == "itself":
                reach = (source,) if zone[0] == "minion" else ()
            elif to == "host":
                reach = (zone[1],) if zone[0] == "attached" else ()
            else:  # "here"
                uid = zone[1] if zone[0] != "attached" else self.base_of(zone[1])
                reach = self.slot(uid).minions if uid is not None else ()
                here.add(uid)
            for m in reach:
                entries = targeted.get(m)
                if entries is None:
                    entries = targeted[m] = list(anyone)
                entries.append(entry)
        self._here_bases = frozenset(here)
        return anyone, targeted

    def power_now(self, cid: int) -> int:
        """Power computed afresh from the board (`power` keeps it per `version`; the invariants
        compare both after every step of a simulated game)."""
        defn = self.defs[cid]
        state = self.minion_state.get(cid)
        if state is None:
            return defn.power
        total = defn.power + state.counters
        for source in self.modifier_sources:
            sdef = self.defs[source]
            zone = self.loc[source]
            if zone[0] == "base":
                if self.base_active(self.slot(zone[1])):
                    total += sdef.power_modifier(Ctx(self, source, self.current, zone[1]), cid)
                continue
            if not self.ability_active(source, fresh=True):
                continue
            ctrl = self.controller(source)
            delta = sdef.power_modifier(Ctx(self, source, ctrl), cid)
            # A change of power is an affect (WWWT "Affect"): a protected minion ignores it.
            if delta and self.affects(source, ctrl, cid):
                total += delta
        for eff in self.lasting:
            if eff.kind == "power" and eff.target == cid and self.lasting_active(eff):
                total += eff.amount
        return max(0, total)

    def lasting_active(self, eff: Lasting) -> bool:
        """Whether a lasting effect is in force now: started, and in a turn it covers."""
        if eff.starts is not None:
            return False
        if eff.during is None:
            return True
        return (self.current != eff.player) == (eff.during == "others")

    def player_power(self, uid: int, seat: int) -> int:
        slot = self.slot(uid)
        return sum(self.power(m) for m in slot.minions if self.minion_state[m].controller == seat)

    def total_power(self, slot: BaseSlot) -> int:
        """The power of every minion here, kept per `version` like power (scoring checks every
        base after every turn; `VERIFY_POWERS` checks each power read instead)."""
        if self._turn_seen is not self.turn_state or self._seat_seen != self.current:
            self._note_turn()
        if self._powers_version != self.version:
            self._new_power_version()
        known = self._totals.get(slot.uid)
        if known is None:
            return self._count_base(slot)
        if VERIFY_POWERS:
            fresh = sum([self.power_now(m) for m in slot.minions])
            if known != fresh:
                raise EngineError(f"{self.name(slot.card)}'s total power is stale: {known}, now "
                                  f"{fresh} (a change that did not call Game.changed)")
        return known

    def breakpoint(self, slot: BaseSlot) -> int:
        """A base's breakpoint now, derived on demand like power: its starting value (printed,
        unless a card in play sets another: Turn Up to 11), then every modifier of a card in
        play and every active lasting "breakpoint" change (Rampage), never below 0 (WWWT: "base
        breakpoint is never reduced below zero"; the clarification on Turn Up to 11: the other
        changes still apply, counted from the new start). Scoring readiness, views and cards
        all read it here."""
        value = self.base_def(slot).breakpoint
        if self.breakpoint_sources:
            value, delta = self.starting_breakpoint(slot), 0
            for source in self.breakpoint_sources:
                sdef = self.defs[source]
                if sdef.breakpoint_modifier is not None and self.ability_active(source):
                    delta += sdef.breakpoint_modifier(self.card_ctx(source), slot.uid)
            value += delta
        if self.lasting:
            for eff in self.lasting:
                if (eff.kind == "breakpoint" and eff.target == slot.card
                        and self.lasting_active(eff)):
                    value += eff.amount
        return max(0, value)

    def starting_breakpoint(self, slot: BaseSlot) -> int:
        """A base's starting breakpoint: printed, or what a card in play sets it to. Several
        that set it: the catalog lets the current player choose which prevails; a breakpoint
        is read between questions, so the engine takes the highest, which is every such
        choice within these boxes (only Turn Up to 11 sets one, to 21)."""
        printed = self.base_def(slot).breakpoint
        starts = []
        for source in self.breakpoint_sources:
            sdef = self.defs[source]
            if sdef.starting_breakpoint is not None and self.ability_active(source):
                start = sdef.starting_breakpoint(self.card_ctx(source), slot.uid)
                if start is not None:
                    starts.append(start)
        return max(starts) if starts else printed

    # ------------------------------------------------------------------ log --------------------
    def log(self, text: str, to: tuple | None = None) -> None:
        """A log line; `to` limits who may read it (private lines such as what was drawn)."""
        self.log_lines.append((text, to))

    def pname(self, seat: int) -> str:
        return self.players[seat].name

    # ------------------------------------------------------------------ decisions --------------
    def ask(self, seat, kind, prompt, options, min_count=1, max_count=1, source=None, reveal=None,
            intent=None, subject=None):
        """Ask `seat` a question (generator). Returns the chosen Options.

        A forced answer (every option must be taken) is taken without asking: the log says what
        happened, and people and bots are spared a question with one answer. `intent` and
        `subject`: what the choice does to what is chosen and the card it is about
        (`Decision.intent`, core.INTENTS).
        """
        if intent is not None and intent not in INTENTS:
            raise EngineError(f"a choice's intent is one of {INTENTS} or None, not {intent!r}")
        if self.dropped_effects:
            self.check_dropped()
        count = len(options)
        if max_count > count:
            max_count = count
        if min_count > max_count:
            min_count = max_count
        if max_count == 0:
            return []
        if min_count == max_count == count:
            return list(options)
        self.decision_seq += 1
        decision = Decision(
            f"d{self.decision_seq}", seat, kind, prompt, options, min_count, max_count, source,
            list(reveal or []), intent, subject,
        )
        ids = yield decision
        answer = self._answer
        self._answer = None
        if answer is not None and answer[0] is decision:
            return answer[1]
        return [decision.option(i) for i in ids]

    def ask_yes_no(self, seat, prompt, source=None, yes="Yes", no="No"):
        chosen = yield from self.ask(
            seat, "confirm", prompt, [Option("yes", yes), Option("no", no)], source=source
        )
        return chosen[0].id == "yes"

    # ------------------------------------------------------------------ running abilities -----
    def run_ability(self, fn, *args):
        """Run an ability function (generator): a generator function is followed to its end, a
        plain function is simply called (an ability that asks nothing needs no `yield`); returns
        what it returns. A verb it called without `yield from` raises here (effects.Effect)."""
        result = fn(*args)
        if _drives(result):
            result = yield from result
        if self.dropped_effects:
            self.check_dropped()
        return result

    def check_dropped(self) -> None:
        if self.dropped_effects:
            what = "; ".join(self.dropped_effects)
            self.dropped_effects.clear()
            raise EngineError(f"{what} was called without `yield from`, so it did nothing: "
                              "write `yield from ctx.<verb>(...)` (README, Writing a card)")

    # ------------------------------------------------------------------ events and reactions ---
    def emit(self, event: Event) -> None:
        self._events.append(event)

    def resolve(self, gen, after=None):
        """Run an ability to its end, then (at top level) the reactions it set off.

        Card Resolution Order (WWWT p.5, CR): finish the card played and anything it interrupted
        (steps 1-2); every event it caused is one batch (`react_to_batch`: step 3, the cards in
        play that react, in the order the current player picks; step 4, Specials from hand that
        answer it); then discard the action (`after`, step 5). Resolution version 1 (old
        records): one event at a time (`_legacy_process_events`).
        """
        self._depth += 1
        try:
            result = yield from gen
        finally:
            self._depth -= 1
        reactions = self._top_level_reactions()
        if reactions is not None:
            yield from reactions
        if after is not None:
            after()
        return result

    def _top_level_reactions(self):
        """When a top-level resolution ends (depth 0), the reactions to its batch, to run with
        `yield from`; None when there is nothing to run (most batches: no generator is made)."""
        if self._depth != 0:
            return None
        if self.resolution == 1:
            return self._legacy_process_events() if self._events else None
        work = self._batch_work(self._take_events())
        return self._react(*work) if work is not None else None

    def _take_events(self) -> list[Event]:
        events, self._events = self._events, []
        return events

    def _reactions_to(self, event: Event) -> list[tuple]:
        """Every (card, trigger) in play or base that reacts to `event`; and, for an event that
        took a card out of play, that card's own `leaves_play` triggers (its "last words")."""
        if len(self.defs) != self._trigger_index_of:
            self._index_triggers()
        kind = event.kind
        table = self._trigger_index.get(kind)
        if table is None:
            return []  # no card or base of this game reacts to this kind of event
        found = []
        if kind in self._base_trigger_kinds:
            # Bases are read from their definitions each time: a mode may give a base in play
            # another base's abilities (Big Base's sides take the current base card's).
            for slot in list(self.bases):
                triggers = self.defs[slot.card].triggers
                if not triggers:
                    continue
                active = None  # base_active, read only for a base with a trigger of this kind
                for trig in triggers:
                    if trig.event != kind:
                        continue
                    if active is None:
                        active = self.base_active(slot)
                    if not active:
                        break
                    if trig.applies(self.reaction_ctx(slot.card, trig, event), event):
                        found.append((slot.card, trig))
        cancelled = None  # read only once a card in play has a trigger of this kind
        for cid in self.reactive:
            triggers = table.get(cid)
            if triggers:
                if cancelled is None:
                    cancelled = self.cancelled_cards()
                if cancelled and not self.ability_active(cid):
                    continue
                for trig in triggers:
                    if trig.applies(self.reaction_ctx(cid, trig, event), event):
                        found.append((cid, trig))
        gone = event.card
        if (kind in LEAVES_PLAY_KINDS and gone is not None and gone not in self.reactive
                and gone not in self.left_cancelled):
            for trig in table.get(gone, ()):
                if trig.leaves_play and trig.applies(self.reaction_ctx(gone, trig, event), event):
                    found.append((gone, trig))
        return found

    def _index_triggers(self) -> None:
        """Every card's (and base's) triggers by kind of event, in their order: kind -> card ->
        triggers; the kinds some base of this game reacts to; whether one has a start of turn
        ability. Derived from the definitions
        once per game (again if cards are added): a kind missing from both is never looked for
        (most events of a game: nothing in it could react). A base in play always has the
        triggers of a base of this game (Big Base's sides copy the current base card's)."""
        index: dict[str, dict[int, tuple]] = {}
        base_kinds = set()
        turn_start_bases = False
        for cid, defn in enumerate(self.defs):
            if getattr(defn, "at_turn_start", None) is not None:
                turn_start_bases = True
            triggers = getattr(defn, "triggers", None)
            if not triggers:
                continue
            by_kind: dict[str, list] = {}
            for trig in triggers:
                by_kind.setdefault(trig.event, []).append(trig)
            for kind, found in by_kind.items():
                index.setdefault(kind, {})[cid] = tuple(found)
            if isinstance(defn, BaseDef):
                base_kinds.update(by_kind)
        self._trigger_index = index
        self._base_trigger_kinds = frozenset(base_kinds)
        self._turn_start_bases = turn_start_bases
        self._trigger_index_of = len(self.defs)

    def reaction_ctx(self, cid: int, trig, event: Event) -> Ctx:
        """The Ctx of a trigger: a base's is the base (you: the current player); a card that
        left play (a `leaves_play` trigger about itself) has its last controller and base."""
        zone = self.loc[cid]
        if zone[0] == "base":
            return Ctx(self, cid, self.current, zone[1])
        if trig.leaves_play and event.card == cid and zone[0] not in IN_PLAY_ZONES:
            last = event.data.get("controller", event.player)
            return Ctx(self, cid, last if last is not None else self.owner[cid], event.base)
        ctrl = self.controller(cid)
        return Ctx(self, cid, ctrl if ctrl is not None else self.current)

    def _cards_on(self, slot: BaseSlot):
        for m in slot.minions:
            yield m
            yield from self.minion_state[m].attached
        yield from slot.actions

    def react_to_batch(self, batch: list[Event]):
        """The reactions to one batch of events (the events of one resolution), CR Card
        Resolution Order: step 3, every card in play (or base) that reacts to any event of the
        batch, gathered once and resolved in the order the current player picks, each
        reaction's own events resolving as a child batch right after it (`run_reactions`);
        step 4, Specials from hand that answer an event of the batch (`answer_window`)."""
        work = self._batch_work(batch)
        if work is not None:
            yield from self._react(*work)

    def _batch_work(self, batch: list[Event]) -> tuple | None:
        """What a batch sets off, for `_react`: (reactions, the mode's extras, the batch), or None
        when nothing can happen (no card reacts, no Special could answer an event of it)."""
        if not batch:
            return None
        if len(self.defs) != self._trigger_index_of:
            self._index_triggers()
        reacted = self._trigger_index  # kinds some card or base of this game reacts to
        items = []
        for event in batch:
            if event.kind in reacted:
                found = self._reactions_to(event)
                if found:
                    items.extend([(cid, trig, event) for cid, trig in found])
        extra = self.batch_extras(batch)
        if items or extra:
            return items, extra, batch
        if self._window_cards_of != len(self.defs):
            self._index_specials()
        windows = self._window_cards
        for event in batch:
            if event.kind in windows:
                return items, extra, batch
        return None

    def _react(self, items: list[tuple], extra: list[tuple], batch: list[Event]):
        if items or extra:
            yield from self.run_reactions(items, extra)
        yield from self.answer_window(batch)

    def _run_child(self, gen, reaction=False):
        # A reaction (or a base's step ability) resolves; what it caused is its child batch.
        if self.resolution == 1:
            yield from self._legacy_run_child(gen, reaction)
            return
        self._depth += 1
        try:
            yield from gen
        finally:
            self._depth -= 1
        work = self._batch_work(self._take_events())
        if work is not None:
            yield from self._react(*work)

    # Resolution version 1 (records made before batches): each event's reactions in turn, a
    # reaction resolving as a top-level resolution (which drains the shared queue of events).
    def _legacy_process_events(self):
        while self._events:
            event = self._events.pop(0)
            yield from self.run_reactions(
                [(cid, trig, event) for cid, trig in self._reactions_to(event)])

    def _legacy_run_child(self, gen, reaction):
        if reaction:
            yield from self.resolve(gen)
            return
        self._depth += 1
        try:
            yield from gen
        finally:
            self._depth -= 1
        yield from self._legacy_process_events()

    def run_reactions(self, reactions: list[tuple], extra=()):
        """Resolve simultaneous reactions one by one in the order the current player picks.

        `reactions` are (card, trigger, event) triples; `extra` are (label, card,
        generator-factory) for a base's own ability in the same step (scoring, start of turn).
        Each one's own events resolve (as a child batch) before the next is picked.
        """
        pending = [("t", cid, trig, event) for cid, trig, event in reactions]
        pending += [("x", *e) for e in extra]
        while pending:
            if len(pending) == 1:
                item = pending.pop()
            else:
                options = self._reaction_options(pending)
                chosen = yield from self.ask(
                    self.current, "order", "Several abilities happen now: pick the next one",
                    options,
                )
                item = pending.pop(int(chosen[0].id))
            if item[0] == "x":
                _, label, cid, factory = item
                yield from self._run_child(factory())
                continue
            _, cid, trig, event = item
            if not self._still_reacts(cid, trig, event):
                continue
            key = (cid, trig.index)
            self._chain_counts[key] = self._chain_counts.get(key, 0) + 1
            if self._chain_counts[key] > TRIGGER_LIMIT:
                self.log(f"{self.name(cid)} has reacted {TRIGGER_LIMIT} times in a row and stops.")
                continue
            ctx = self.reaction_ctx(cid, trig, event)
            if trig.optional_label is not None and self.loc[cid][0] != "base":
                use = yield from self.ask_yes_no(ctx.me, trig.optional_label, source=cid)
                if not use:
                    continue
            yield from self._run_child(self.run_ability(trig.run, ctx, event), reaction=True)

    def _reaction_options(self, pending) -> list[Option]:
        """The options of a reaction-order decision: one per pending reaction, its id its place
        in `pending`. A reaction is named by its card; when the reactions answer several events
        the event is named too; identical copies reacting alike (the same words, the same
        controller, the same host) are offered once (issue 9: never two identical options),
        since whichever goes first the outcome is the same."""
        if self.resolution == 1:
            return [Option(str(i), p[1] if p[0] == "x" else self.name(p[1]),
                           card=p[2] if p[0] == "x" else p[1]) for i, p in enumerate(pending)]
        several = len({id(p[3]) for p in pending if p[0] == "t"}) > 1
        options, seen = [], set()
        for i, p in enumerate(pending):
            if p[0] == "x":
                label, key = p[1], ("x", p[1], p[2])
                card = p[2]
            else:
                _, cid, trig, event = p
                label = self.name(cid)
                zone = self.loc[cid]
                if zone[0] == "attached":
                    label += f" (on {self.name(zone[1])})"
                if several:
                    label += f": {self._event_words(event)}"
                key = (label, self.controller(cid), trig.index)
                # A card whose last words react after it went into a hand or a deck (Brownie
                # returned) is named, not pointed at: its id there is hidden from the chooser.
                card = cid if zone[0] not in ("hand", "deck") else None
            if key in seen:
                continue
            seen.add(key)
            options.append(Option(str(i), label, card=card))
        return options

    def _event_words(self, event: Event) -> str:
        """A short description of an event for people ("after Invader is returned")."""
        verb = _EVENT_WORDS.get(event.kind, event.kind.replace("_", " "))
        if event.card is not None:
            text = f"after {self.name(event.card)} {verb}"
        else:
            text = verb
        slot = self.slot_or_none(event.base) if event.base is not None else None
        if slot is not None and slot.card != event.card:  # a base that came in is named once
            text += f" ({self.base_name(event.base)})"
        return text

    def _still_reacts(self, cid, trig, event) -> bool:
        zone = self.loc[cid]
        if zone[0] == "base":
            slot = self.slot_or_none(zone[1])
            return (slot is not None and self.base_active(slot)
                    and trig.applies(self.reaction_ctx(cid, trig, event), event))
        if zone[0] in IN_PLAY_ZONES:
            return (self.ability_active(cid)
                    and trig.applies(self.reaction_ctx(cid, trig, event), event))
        # Its last words: a card that left play by this very event still reacts to it.
        return (trig.leaves_play and event.card == cid and cid not in self.left_cancelled
                and trig.applies(self.reaction_ctx(cid, trig, event), event))

    # ------------------------------------------------------------------ Special windows --------
    def special_window(self, window: str, wctx=None):
        """"Me First!" (WWWT p.6): Specials of cards in play first, in the order the current
        player picks (`_specials_in_play`); then from the current player clockwise, each player
        uses a Special from hand or passes, until every player has passed in a row
        (`_hand_round`). In "fast" mode a player who holds no usable Special is passed for;
        "ask" mode asks everyone so nobody learns who holds one."""
        if not self._window_possible(window):
            return
        if ("play", window) in self._special_cards:
            yield from self._specials_in_play(window, wctx)
        seats = self.seats_from_current()
        ask_all = self.config["specials"] == "ask"
        if not ask_all and ("hand", window) not in self._special_cards:
            # No card of this game is used from a hand here: each player is passed for at once,
            # as `_hand_round` would after finding nothing in their hand.
            self.special_checks.extend(seats)
            return
        yield from self._hand_round(window, wctx, seats, ask_all=ask_all)

    def answer_window(self, batch: list[Event]):
        """CR Card Resolution Order step 4: Specials from hand that answer an event of this
        batch (a Special declared with that event's kind as its window, `usable(ctx, event)`),
        event by event. Only the seats holding a card that can answer take part, in either
        mode: "ask" mode does not question the table after every minion. Nothing else in the
        game could tell who holds one here (a window for a kind of event no card of this game
        answers never opens, `_window_possible`)."""
        for event in batch:
            if not self._window_possible(event.kind):
                continue
            if ("hand", event.kind) not in self._special_cards:
                self.special_checks.extend(self.seats_from_current())
                continue
            able = []
            for seat in self.seats_from_current():
                self.special_checks.append(seat)
                if self._usable_specials(seat, event.kind, event, zone="hand"):
                    able.append(seat)
            if able:
                yield from self._hand_round(event.kind, event, able, ask_all=False)

    def _specials_in_play(self, window, wctx):
        """Specials of cards in play usable in this window, each once, in the order the current
        player picks (public cards: no secret to keep); each card's controller may use it or
        not. Looked for again after each one (a Special may make another usable: the second of
        two alike First Mates); alike copies are one option."""
        done = set()
        holders = self._special_cards.get(("play", window), ())
        loc = self.loc
        while True:
            # Most of the time no card with such a Special is in play: no seat's cards are read.
            if not any(loc[c][0] in _IN_PLAY for c in holders):
                return
            found = [(cid, i, sp) for seat in self.seats_from_current()
                     for cid, i, sp in self._usable_specials(seat, window, wctx, zone="play")
                     if (cid, i) not in done]
            if not found:
                return
            options, seen = [], set()
            for c, j, sp in found:
                key = (self._alike_key(c), j)
                if key not in seen:
                    seen.add(key)
                    options.append(Option(card_option_id("s", c, index=j),
                                          f"{sp.label} ({self.pname(self.controller(c))})",
                                          card=c))
            chosen = yield from self.ask(
                self.current, "order", "Several Specials in play may be used now: pick the "
                "next one", options)
            cid, index = (int(x) for x in chosen[0].id[1:].split(":"))
            done.add((cid, index))
            sp = self.defs[cid].specials[index]
            seat = self.controller(cid)
            use = yield from self.ask_yes_no(seat, f"{sp.label}?", source=cid)
            if use:
                self.log(f"{self.pname(seat)} uses {self.name(cid)}.")
                ctx = Ctx(self, cid, seat, base=self._window_base(wctx))
                yield from self.resolve(self.run_ability(sp.run, ctx, wctx))

    @staticmethod
    def _window_base(wctx):
        slot = getattr(wctx, "slot", None)
        if slot is not None:
            return slot.uid
        return getattr(wctx, "base", None) if isinstance(wctx, Event) else None

    def _hand_round(self, window, wctx, seats, ask_all):
        """From the first of `seats` on, each uses one Special from hand or passes; one who
        passed may use one later; it ends when all of `seats` have passed in a row."""
        n = len(seats)
        passes = 0
        turn = 0
        while passes < n:
            seat = seats[turn % n]
            turn += 1
            self.special_checks.append(seat)
            usable = self._usable_specials(seat, window, wctx, zone="hand")
            if not usable and not ask_all:
                passes += 1
                continue
            # Identical copies (two Shinobis in hand) give one option; the other's id is still
            # accepted (`Option.alike`), so records made before replay.
            options, shown = [], {}
            for cid, i, sp in usable:
                oid = card_option_id("s", cid, index=i)
                first = shown.setdefault((self.alike_key(cid), i), oid)
                options.append(Option(oid, f"{sp.label}", card=cid,
                                      alike=None if first == oid else first))
            options.append(Option("pass", "Pass"))
            prompt = _WINDOW_PROMPTS.get(window) or (
                f"Use a Special now ({self._event_words(wctx)})?" if isinstance(wctx, Event)
                else "Use a Special ability now?")
            chosen = yield from self._ask_window(seat, window, prompt, options)
            if chosen.id == "pass":
                passes += 1
                continue
            passes = 0
            cid, index = chosen.id[1:].split(":")
            cid = int(cid)
            special = self.defs[cid].specials[int(index)]
            ctx = Ctx(self, cid, seat, base=self._window_base(wctx))
            if self.defs[cid].is_action:
                # A Special action is played (revealed, resolved, then discarded), and announces
                # itself once resolved, as a normal play does (`play_action`).
                self.move_card(cid, ("resolving",))
                self.log(f"{self.pname(seat)} plays {self.name(cid)}.")
                self._note_play(seat, cid, ACTION, None, special=True)
                if self.resolution == 1:  # old records: announced before it resolved
                    self.emit(Event("action_played", card=cid, player=seat, by_player=seat,
                                    data={"special": True}))
                    yield from self.resolve(self.run_ability(special.run, ctx, wctx),
                                            after=lambda c=cid: self.finish_action(c))
                    continue
                yield from self.resolve(self._special_action(special, ctx, wctx),
                                        after=lambda c=cid: self.finish_action(c))
            else:
                self.log(f"{self.pname(seat)} uses {self.name(cid)}.")
                yield from self.resolve(self.run_ability(special.run, ctx, wctx))

    def _special_action(self, special, ctx, wctx):
        cid, seat = ctx.card, ctx.me
        result = yield from self.run_ability(special.run, ctx, wctx)
        host = self.action_state[cid].host if cid in self.action_state else None
        self.emit(Event("action_played", card=cid, base=self.base_of(cid), player=seat,
                        by_player=seat, data={"special": True, **({"host": host} if host
                                                                  is not None else {})}))
        return result

    def _ask_window(self, seat, window, prompt, options):
        # Always a real question, even with only "Pass": in "ask" mode that is the point.
        self.decision_seq += 1
        decision = Decision(f"d{self.decision_seq}", seat, "special", prompt, options, 1, 1)
        ids = yield decision
        return decision.option(ids[0])

    def _window_possible(self, window: str) -> bool:
        """Open a window only if some card of this game could ever be used in it."""
        if self._window_cards_of != len(self.defs):
            self._index_specials()
        return window in self._window_cards

    def _index_specials(self) -> None:
        """Which cards of this game have a Special, by (zone, window): a window is looked for
        only in the cards that could be used in it. Derived from the definitions once per game
        (again if cards are added), like `_index_triggers`."""
        cards: dict[tuple, set] = {}
        for cid, defn in enumerate(self.defs):
            for sp in getattr(defn, "specials", ()):
                cards.setdefault((sp.zone, sp.window), set()).add(cid)
        self._special_cards = {key: frozenset(found) for key, found in cards.items()}
        self._window_cards = frozenset(window for _, window in cards)
        self._window_cards_of = len(self.defs)

    def _special_play_forbidden(self, seat, cid, wctx) -> bool:
        """Whether using this card's Special from the hand would be a play that is not allowed:
        a Special action is played; a minion's Special from the hand in a scoring window plays
        it on the scoring base (Shinobi)."""
        if not self.may_restrict():
            return False  # nothing in force could forbid a play (the cheap test of `forbids`)
        defn = self.defs[cid]
        if defn.is_action:
            return bool(self.forbids(Play(seat, cid, ACTION, "hand")))
        if isinstance(wctx, Scoring):
            return bool(self.forbids(Play(seat, cid, MINION, "hand", wctx.base)))
        return False

    def _usable_specials(self, seat, window, wctx, zone="hand"):
        """The Specials `seat` could use now in `window`: from their hand (`zone` "hand") or on
        their cards in play ("play")."""
        found = []
        if not self._window_possible(window):
            return found
        # Only the cards of this game that have a Special of this zone and window are read.
        holders = self._special_cards.get(("hand" if zone == "hand" else "play", window))
        if not holders:
            return found
        if zone == "hand":
            for cid in list(self.players[seat].hand):
                if cid not in holders:
                    continue
                for i, sp in enumerate(self.defs[cid].specials):
                    if (sp.window == window and sp.zone == "hand"
                            and not self._special_play_forbidden(seat, cid, wctx)
                            and sp.usable(Ctx(self, cid, seat), wctx)):
                        found.append((cid, i, sp))
            return found
        for slot in self.bases:
            for cid in self._cards_on(slot):
                if (cid not in holders or self.controller(cid) != seat
                        or not self.ability_active(cid)):
                    continue
                for i, sp in enumerate(self.defs[cid].specials):
                    if (sp.window == window and sp.zone == "play"
                            and sp.usable(Ctx(self, cid, seat), wctx)):
                        found.append((cid, i, sp))
        return found

    # ------------------------------------------------------------------ playing cards ----------
    # One play-legality generator (python-chess's `legal_moves`, plays.py): `legal_plays` lists
    # every legal play from the grants, filtered by `forbids`. The main decision, extra plays,
    # plays by abilities (`Ctx.play_minion`), Specials from the hand and the bots all read it.
    def legal_plays(self, seat: int, grants: list[Grant] | None = None, cards=None,
                    kinds=None, onto: int | None = None) -> list[Play]:
        """Every legal play of `seat` now: with `grants` None, from this turn's grants (only in
        their own turn; plays cards offer each turn only in its Play Cards phase), each play
        matched to a grant so that no play is lost to which grant an earlier play used; else
        from `grants` (a play to make at once). `cards` limits the cards (and lets an effect
        offer cards from anywhere: a revealed deck top); `kinds` the kinds of play. From this
        turn's grants, copies of one card in a discard pile give one play (the main decision
        always offered one); a question asked at once marks them alike instead (`_mark_alike`),
        so a record that chose another copy replays. `onto`: a minion in hand is looked at only
        onto that base (its plays onto the others are not made; cards elsewhere still are)."""
        return PlayFinder(self, seat, grants, cards, kinds).plays(onto=onto)

    def use_grant(self, play: Play) -> tuple:
        """Give `play` (one of `legal_plays(seat)`) the grant it uses, moving earlier plays to
        other grants if that is needed; returns (extra, via, special) for its record."""
        return PlayFinder(self, play.seat).use(play)

    def may_restrict(self) -> bool:
        """Whether anything could forbid a play now (a cheap test before `forbids`: it must
        see everything `forbids` reads)."""
        if self.restrictors:
            return True
        for eff in self.lasting:
            if eff.kind == "cannot_play":
                return True
        return False

    def forbids(self, play: Play) -> str | None:
        """Why `play` is not allowed, or None: the one check of play restrictions. A lasting
        "cannot_play" on that player (data "kind": what the card is or is played as; "base";
        "faction": Mark of Sleep) or a card in play whose restriction forbids it (Block the
        Path, Overrun)."""
        if self.lasting:
            defn = self.defs[play.card]
            for eff in self.lasting:
                if eff.kind != "cannot_play" or eff.target != play.seat:
                    continue
                if not _bars_play(eff.data, play, defn):
                    continue
                if self.lasting_active(eff):
                    kind = eff.data.get("kind")
                    what = f"{kind}s" if kind else "cards"
                    return f"{self.pname(play.seat)} cannot play {what} now ({self.name(eff.source)})"
        if self.restrictors:
            for rid in self.restrictors:
                if not self.ability_active(rid):
                    continue
                ctx = self.card_ctx(rid)
                for forbidden in self.defs[rid].restrictions:
                    if forbidden(ctx, play):
                        return f"{self.name(play.card)} cannot be played there ({self.name(rid)})"
        return None

    def play_barrier(self, seat: int):
        """`forbids` for many plays of `seat` at one moment (a main decision lists dozens): what
        may forbid them is looked up once, and each play is then checked by the predicate this
        returns (true: forbidden). None when nothing may forbid a play of `seat` now."""
        found = self.play_barriers(seat)
        return None if found is None else found[0]

    def play_barriers(self, seat: int):
        """(`play_barrier`'s predicate, where it may forbid a play), or None: where is the set of
        bases (slot uids) when only restrictions declared for their own base (`restriction(
        here=True)`: Block the Path, Overrun) may forbid anything, so a play elsewhere or of no
        base needs no check; None when a play anywhere may be forbidden."""
        defs = self.defs
        lasting = [eff.data for eff in self.lasting
                   if eff.kind == "cannot_play" and eff.target == seat
                   and self.lasting_active(eff)]
        rules = []
        local = []  # (base, ctx, restriction): asked only of plays onto that base
        for rid in self.restrictors:
            if self.ability_active(rid):
                ctx = self.card_ctx(rid)
                defn = defs[rid]
                here_only = defn.restrictions_here
                for forbidden in defn.restrictions:
                    if here_only and forbidden in here_only:
                        local.append((ctx.here, ctx, forbidden))
                    else:
                        rules.append((ctx, forbidden))
        if not lasting and not rules and not local:
            return None

        def barred(play: Play) -> bool:
            if lasting:
                defn = defs[play.card]
                if any(_bars_play(data, play, defn) for data in lasting):
                    return True
            for ctx, forbidden in rules:
                if forbidden(ctx, play):
                    return True
            for here, ctx, forbidden in local:
                if play.base == here and forbidden(ctx, play):
                    return True
            return False

        return barred, (None if lasting or rules else {here for here, _, _ in local})

    def play_forbidden(self, seat: int, cid: int, uid: int | None = None,
                       kind: str | None = None) -> str | None:
        """Why `seat` may not play card `cid` (onto base `uid`, as `kind`) from where it is now,
        or None (`forbids`)."""
        return self.forbids(Play(seat, cid, kind or self.defs[cid].kind, self.loc[cid][0], uid))

    def minion_targets_for_play(self, seat: int, cid: int) -> list[int]:
        """Bases a minion may be played on now (legal plays)."""
        return [p.base for p in self.legal_plays(seat, cards=[cid], kinds=(MINION,))]

    def discard_offers(self) -> frozenset:
        """Names of this game's cards that offer a play from a discard pile (Tenacious Z), so
        a game without one pays nothing for them."""
        if self._discard_offers is None:
            self._discard_offers = frozenset(
                d.name for d in self.defs
                if any(tg.zone == "discard" for tg in getattr(d, "turn_grants", ())))
            # The cards of those names, so a discard pile is not read card by card (`defs`
            # grows only while a game is set up: its length says whether this is still whole).
            self._discard_offerers = (len(self.defs), tuple(
                cid for cid, d in enumerate(self.defs) if d.name in self._discard_offers))
        return self._discard_offers

    def discard_offerers(self, seat: int) -> list[int]:
        """The cards in `seat`'s discard pile whose names offer a play from there
        (`discard_offers`), in the pile's order."""
        names = self.discard_offers()
        if not names:
            return []
        discard = self.players[seat].discard
        size, cards = self._discard_offerers
        if size != len(self.defs):
            return [cid for cid in discard if self.defs[cid].name in names]
        where = ("discard", seat)
        loc = self.loc
        found = []
        for cid in cards:  # a few cards: a loop, not a comprehension's call
            if loc[cid] == where:
                found.append(cid)
        if len(found) > 1:
            found.sort(key=discard.index)
        return found

    def attach_hosts(self, seat: int, cid: int) -> list[int]:
        """Legal hosts for an action that attaches: minion ids or base slot uids."""
        defn = self.defs[cid]
        filt = defn.attach_filter
        ctx = Ctx(self, cid, seat) if filt is not None else None
        if defn.attach == "minion":
            return [
                m
                for m in self.all_minions()
                if (filt is None or filt(ctx, m)) and self.affects(cid, seat, m)
            ]
        if defn.attach == "base":
            return [s.uid for s in self.bases if filt is None or filt(ctx, s.uid)]
        return []

    def has_attach_host(self, seat: int, cid: int) -> bool:
        """Whether `attach_hosts` would name any host (stops at the first)."""
        defn = self.defs[cid]
        filt = defn.attach_filter
        if defn.attach == "minion":
            ctx = Ctx(self, cid, seat) if filt is not None else None
            for slot in self.bases:
                for m in slot.minions:
                    if (filt is None or filt(ctx, m)) and self.affects(cid, seat, m):
                        return True
            return False
        if defn.attach == "base":
            if filt is None:
                return bool(self.bases)
            ctx = Ctx(self, cid, seat)
            return any(filt(ctx, s.uid) for s in self.bases)
        return False

    def _note_play(self, seat: int, cid: int, kind: str, uid: int | None, extra: bool = False,
                   special: bool = False, via: int | None = None, zone: str = "hand") -> None:
        self.turn_state.plays.append(PlayRecord(seat, cid, kind, uid, self.phase, extra, special,
                                                self.turn_state.seat, via, zone))

    def play_minion(self, seat: int, cid: int, uid: int, extra: bool = False,
                    special: bool = False, by_card: int | None = None, via: int | None = None,
                    as_kind: str = MINION):
        """Play a minion from wherever it is onto a base and resolve its on-play ability.
        `extra`: not the turn's free minion; `by_card`: the card whose ability played it; `via`:
        the card whose ability let it come from where it was (PlayRecord.via); `as_kind`: the
        kind of play it used (ACTION: a minion played with an action play, `playable_as`)."""
        zone = self.loc[cid][0]
        if zone == "discard":
            self.log(f"{self.pname(seat)} plays {self.name(cid)} from their discard pile.")
        self.move_card(cid, ("minion", uid))
        entered = self.enter_play()
        self.minion_state[cid] = MinionState(controller=seat, entered=entered)
        self._board_moved(cid, ("minion", uid))  # its controller: power reads it
        self._note_play(seat, cid, as_kind, uid, extra, special, via, zone)
        self.log(f"{self.pname(seat)} plays {self.name(cid)} on {self.base_name(uid)}.")
        # What the base looked like as the minion entered, before its own ability: cards that
        # compare the minion played with theirs ("a minion with less power than this one",
        # Leprechaun) read the powers there, and its serial of entry (MinionState.entered).
        data = {"entered": entered,
                "powers_here": {m: self.power(m) for m in self.slot(uid).minions}}
        defn = self.defs[cid]
        if defn.on_play is not None:
            yield from self.run_ability(defn.on_play, Ctx(self, cid, seat, base=uid))
        self.emit(Event("minion_played", card=cid, base=uid, player=seat, data=data,
                        by_card=by_card, by_player=seat))

    def play_action(self, seat: int, cid: int, host=None, extra: bool = False,
                    by_card: int | None = None, via: int | None = None):
        """Play an action: reveal it, attach it if it attaches, resolve it; the caller discards
        it afterwards (`finish_action`) unless it stayed in play."""
        defn = self.defs[cid]
        zone = self.loc[cid][0]
        self.move_card(cid, ("resolving",))
        # The play counts from the moment the card is revealed, before its target is chosen (as it
        # did when records of digest version 1 were made: their stored hashes count it there).
        self._note_play(seat, cid, ACTION, None, extra, via=via, zone=zone)
        uid = None
        if defn.attach is not None:
            if host is None:
                hosts = self.attach_hosts(seat, cid)
                if defn.attach == "minion":
                    # Alike hosts (two Invaders of one player on one base) are one option.
                    at, describe = self.label_version(), self.describe_minion
                    opts = self._mark_alike([Option(card_option_id("m", m),
                                                    (board_label, self, at, describe, m), card=m)
                                             for m in hosts])
                    prompt = f"Attach {defn.name} to which minion?"
                else:
                    at, describe = self.label_version(), self.base_name
                    opts = [Option(f"b{u}", (board_label, self, at, describe, u), base=u)
                            for u in hosts]
                    prompt = f"Play {defn.name} on which base?"
                chosen = yield from self.ask(seat, "target", prompt, opts, source=cid,
                                             intent=defn.intent)
                host = chosen[0].card if defn.attach == "minion" else chosen[0].base
            if defn.attach == "base":
                yield from self.enter_base(cid, host, seat)
            if not self.attach(cid, seat, host, log_play=True):
                # Something happened instead of attaching it (Hideout): it was played, does
                # nothing, and is discarded when it has resolved.
                self.log(f"{self.pname(seat)} plays {defn.name}, which does not attach.")
                self.emit(Event("action_played", card=cid, player=seat, data={"host": host},
                                by_card=by_card, by_player=seat))
                return
            uid = self.base_of(cid)
        else:
            self.log(f"{self.pname(seat)} plays {defn.name}.")
        if uid is not None:
            self.turn_state.plays[-1].base = uid
        if defn.on_play is not None:
            yield from self.run_ability(defn.on_play, Ctx(self, cid, seat, base=uid))
        data = {"host": host} if defn.attach is not None else {}
        self.emit(Event("action_played", card=cid, base=uid, player=seat, data=data,
                        by_card=by_card, by_player=seat))

    def attach(self, cid: int, seat: int, host: int, log_play: bool = False,
               by_card: int | None = None) -> bool:
        """Put action `cid` in play on `host` (a minion's id or a base's uid, as its `attach`
        says), controlled by `seat`: announced as `attached` (data "host"); an action that
        cancels a base announces `cancelled` too. False if the host cannot take it."""
        defn = self.defs[cid]
        if defn.attach == "minion":
            if not self.is_minion_in_play(host) or not self.affects(by_card or cid, seat, host):
                return False
            if self.affect_replaced(by_card or cid, seat, host, "attach"):
                return False
            was_active = self.ability_active(host)
            self.move_card(cid, ("attached", host))
            self.action_state[cid] = ActionState(seat, "minion", host)
            self._board_moved(cid, ("attached", host))  # its controller and host
            uid = self.base_of(host)
            where = self.name(host)
        elif defn.attach == "base":
            if self.slot_or_none(host) is None:
                return False
            was_active = self.base_active(self.slot(host))
            self.move_card(cid, ("base_action", host))
            self.action_state[cid] = ActionState(seat, "base", host)
            self._board_moved(cid, ("base_action", host))  # its controller and host
            uid = host
            where = self.base_name(host)
        else:
            raise EngineError(f"{defn.name} is not played on a minion or a base")
        if log_play:
            self.log(f"{self.pname(seat)} plays {defn.name} on {where}.")
        else:
            self.log(f"{defn.name} is attached to {where}.")
        self.emit(Event("attached", card=cid, base=uid, player=seat, data={"host": host},
                        by_card=cid if by_card is None else by_card, by_player=seat))
        if defn.attach == "base":
            self.note_cancel(host, was_active, cid, seat)
        elif defn.cancels_host:
            self.note_cancel(None, was_active, cid, seat, card=host)
        return True

    def finish_action(self, cid: int) -> None:
        """CR step 5: an action that did not stay in play goes to its owner's discard pile (or
        where `Ctx.after_resolving` sends it)."""
        if self.loc[cid][0] != "resolving":
            self.resolving_to.pop(cid, None)
            return
        if self.lasting:
            self._end_lasting_of(cid)  # what lasted only while it resolved (Ctx.unaffected_by)
        owner = self.owner[cid]
        dest = self.resolving_to.pop(cid, None)
        if dest is None:
            self.move_card(cid, ("discard", owner))
            return
        if dest == "hand":
            self.move_card(cid, ("hand", owner))
        else:
            self.move_card(cid, ("deck", owner), 0 if dest == "deck_top" else None)
        self.log(f"{self.name(cid)} goes "
                 f"{_DESTINATION_WORDS[dest].format(p=self.pname(owner))}.")
        self.emit(Event("placed", card=cid, player=owner,
                        data={"to": dest, "from": "resolving"}, by_card=cid, by_player=owner))

    def describe_action(self, a: int) -> str:
        """An action in play for people: its name, whose it is and where ("Poison (P2) on
        Invader (3, P1) on Tar Pits")."""
        state = self.action_state[a]
        host = (self.describe_minion(state.host) if state.host_kind == "minion"
                else self.base_name(state.host))
        return f"{self.name(a)} ({self.pname(state.controller)}) on {host}"

    def alike_key(self, cid: int) -> tuple:
        """What a player sees of a card: two cards with the same key are copies nobody can tell
        apart, so a choice offers one of them (`Ctx.one_of_each`, the talents of the main
        decision). In play: the same name, base, controller, owner, power, counters and attached
        cards (an attached action: on alike hosts); elsewhere: the same name, zone and owner."""
        zone = self.loc[cid]
        where = zone[1] if len(zone) > 1 else None
        if zone[0] == "attached":
            where = self.alike_key(where)
        key = (self.defs[cid].name, zone[0], where, self.owner[cid])
        state = self.minion_state.get(cid)
        if state is not None:
            key += (state.controller, self.power(cid), state.counters,
                    tuple(sorted((self.defs[a].name, self.owner[a], self.controller(a))
                                 for a in state.attached)))
            if self.cancelled_cards() and not self.ability_active(cid):
                key += ("cancelled",)  # Mind Lady's cancel shows on the board, not on the card
        elif cid in self.action_state:
            key += (self.action_state[cid].controller,)
        return key

    def describe_minion(self, m: int) -> str:
        uid = self.base_of(m)
        who = self.pname(self.minion_state[m].controller)
        return f"{self.name(m)} ({self.power(m)}, {who}) on {self.base_name(uid)}"

    # ------------------------------------------------------------------ drawing ----------------
    def draw(self, seat: int, count: int) -> list[int]:
        """Draw cards; an empty deck takes the shuffled discard pile first (CR, Phase 4)."""
        drawn = []
        player = self.players[seat]
        deck, hand, loc = player.deck, player.hand, self.loc
        zone = ("hand", seat)
        for _ in range(count):
            if not deck and not self.refill_deck(seat):
                break
            # `move_card` from the top of the deck into the hand (pile to pile), inline.
            cid = deck.pop(0)
            hand.append(cid)
            loc[cid] = zone
            drawn.append(cid)
        if drawn:
            lines = self.log_lines
            lines.append((f"{player.name} draws {counted(len(drawn), 'card')}.", None))
            defs = self.defs
            lines.append((f"You draw {', '.join([defs[c].name for c in drawn])}.", (seat,)))
        return drawn

    def refill_deck(self, seat: int, need: int = 1, from_bottom: bool = False) -> bool:
        """Make the deck hold `need` cards if it can; True if it holds at least one card.

        WWWT Phase 4: to draw, reveal, search for or look at a card with an empty deck, the discard
        pile is shuffled into a new deck. Cards are taken one at a time, so when an ability needs
        `need` cards from one end of the deck and it has fewer, those few count as taken and the
        shuffled discard pile becomes the new deck beyond them: under them when cards are taken
        from the top, above them when taken from the bottom (our reading: the same as drawing
        them one by one). Every draw, look, reveal and search (`draw`, `Ctx.look_at_top`,
        `Ctx.reveal_top`, `Ctx.search_deck`) comes through here."""
        player = self.players[seat]
        if len(player.deck) < need and player.discard:
            left = len(player.deck)
            pile = list(player.discard)
            self.rng.shuffle(pile)
            # What moving them one by one (`move_card`, pile to pile) does, at once.
            player.discard.clear()
            zone = ("deck", seat)
            loc = self.loc
            for cid in pile:
                loc[cid] = zone
            if from_bottom:
                player.deck[:0] = pile
            else:
                player.deck.extend(pile)
            if not left:
                self.log(f"{self.pname(seat)} shuffles their discard pile into a new deck.")
            else:
                where = "above" if from_bottom else "under"
                self.log(f"{self.pname(seat)} shuffles their discard pile into a new deck {where} "
                         f"the {counted(left, 'card')} left.")
        return bool(player.deck)

    def refill_base_deck(self) -> bool:
        """The base deck works like a player's deck (CR, "Build the Base Deck": "this deck and
        discard pile work the same"): an empty base deck takes the shuffled base discard pile
        before a base is drawn or the base deck is searched. True if it holds a base."""
        if not self.base_deck and self.base_discard:
            pile = list(self.base_discard)
            self.rng.shuffle(pile)
            for cid in pile:
                self.move_card(cid, ("base_deck",))
            self.log("The base discard pile is shuffled into a new base deck.")
        return bool(self.base_deck)

    def draw_base(self) -> int | None:
        return self.base_deck[0] if self.refill_base_deck() else None

    # ------------------------------------------------------------------ the flow ---------------
    def _main(self):
        yield from self._mulligans()
        yield from self._turns(start_phase="start")

    def _turns(self, start_phase: str):
        phase = start_phase
        quiet_turns = 0
        while True:
            asked_before = self.decision_seq
            try:
                yield from self.take_turn(phase)
            except _GameEnds:
                return
            if self._game_over():
                return
            quiet_turns = quiet_turns + 1 if self.decision_seq == asked_before else 0
            if quiet_turns >= STALEMATE_TURNS:
                self._stalemate()
                return
            self.current = (self.current + 1) % len(self.players)
            phase = "start"

    def _stalemate(self) -> None:
        # Nobody has had anything to decide for many turns (no cards left anywhere): the game
        # cannot go on. CR "Infinite Loops", the "Game Over" resolution: count the VP; a single
        # leader wins, a tied lead shares nothing (winner stays None).
        top = max(p.vp for p in self.players)
        leaders = [p.seat for p in self.players if p.vp == top]
        self.winner = leaders[0] if len(leaders) == 1 else None
        self.phase = "over"
        self.log("Nothing can happen any more: the game ends on the current VP.")

    def _mulligans(self):
        # CR Setup, Mulligan: a hand without minions may be shown, discarded and redrawn once.
        if not self.config["mulligan"]:
            return
        for i in range(len(self.players)):
            seat = (self.current + i) % len(self.players)
            player = self.players[seat]
            if player.mulliganed or any(self.defs[c].is_minion for c in player.hand):
                continue
            redraw = yield from self.ask_yes_no(
                seat,
                "Your hand has no minion. Show it, discard it and draw 5 new cards?",
                yes="Mulligan",
                no="Keep",
            )
            if redraw:
                player.mulliganed = True
                names = ", ".join(self.name(c) for c in player.hand)
                self.log(f"{player.name} shows a hand without minions ({names}) and redraws.")
                for cid in list(player.hand):
                    self.move_card(cid, ("discard", seat))
                self.draw(seat, STARTING_HAND)

    def new_turn_state(self, seat: int) -> TurnState:
        return TurnState(
            seat, grants=[Grant(MINION, free=True, source="turn"), Grant(ACTION, free=True, source="turn")]
        )

    def take_turn(self, phase: str = "start"):
        seat = self.current
        if phase == "start":
            self.turn += 1
            self.turn_state = self.new_turn_state(seat)
            self.phase = "start"
            self._chain_counts.clear()
            self.log(f"Turn {self.turn}: {self.pname(seat)}.")
            self._expire_at_turn_start(seat)
            yield from self._start_of_turn(seat)
        if phase in ("start", "play"):
            self.phase = "play"
            yield from self._play_phase(seat)
        if phase in ("start", "play", "score"):
            self.phase = "score"
            self._chain_counts.clear()
            yield from self.score_bases()
        if phase in ("start", "play", "score", "draw"):
            self.phase = "draw"
            yield from self._draw_phase(seat)
        self.phase = "end"
        self._chain_counts.clear()
        # Announced as a resolution of its own (`resolve`), without wrapping it in one.
        self.emit(Event("turn_end", player=seat))
        reactions = self._top_level_reactions()
        if reactions is not None:
            yield from reactions
        self._expire_at_turn_end(seat)
        self.turn_state.grants.clear()

    def _emit_gen(self, *events):
        for event in events:
            self.emit(event)
        return
        yield

    def _start_of_turn(self, seat):
        # Base "start of turn" abilities and ongoing triggers; the current player orders them.
        extra = []
        if len(self.defs) != self._trigger_index_of:
            self._index_triggers()
        if self._turn_start_bases:  # some base of this game has one
            for slot in list(self.bases):
                bdef = self.base_def(slot)
                if bdef.at_turn_start is not None and self.base_active(slot):
                    extra.append((bdef.name, slot.card,
                                  self._base_hook(bdef.at_turn_start, slot, seat)))
        self.emit(Event("turn_start", player=seat))
        batch = self._take_events()
        reactions = [(cid, trig, event) for event in batch
                     for cid, trig in self._reactions_to(event)]
        if reactions or extra:
            yield from self.run_reactions(reactions, extra)
        if self._window_possible("turn_start"):
            yield from self.special_window("turn_start")

    def _base_hook(self, fn, slot, *args):
        def factory():
            if self.slot_or_none(slot.uid) is None or not self.base_active(slot):
                return
            yield from self.run_ability(fn, Ctx(self, slot.card, self.current, base=slot.uid),
                                        *args)

        return factory

    def _expire_at_turn_start(self, seat: int) -> None:
        """The start of `seat`'s turn: effects "until your next turn" end, effects "during their
        next turn" begin (core.Lasting)."""
        if not self.lasting:
            return
        ending = ("turn_start", seat)
        kept = [e for e in self.lasting if not (e.ends == ending and e.started)]
        changed = [e for e in self.lasting if e.ends == ending and e.started]
        for e in kept:
            if e.starts == ending:
                e.starts = None
                changed.append(e)
        if changed:
            self._lasting_changed(changed)  # nothing power reads changed when none ended or began
        self.lasting = kept

    def _expire_at_turn_end(self, seat: int) -> None:
        """The end of `seat`'s turn: effects "until the end of the turn" and "until the end of
        your turn" (this player's) end."""
        if not self.lasting:
            return
        ended = [e for e in self.lasting
                 if e.started and e.ends is not None and e.ends[0] == "turn_end"
                 and e.ends[1] in (None, seat)]
        if ended:  # what power reads changed; nothing did when none ended
            self._lasting_changed(ended)
            self.lasting = [e for e in self.lasting if not any(e is x for x in ended)]

    def main_options(self, seat: int, finder: PlayFinder | None = None) -> list[Option]:
        """Every legal play of the Play Cards phase (`legal_plays`), talent, and end."""
        finder = finder or PlayFinder(self, seat)
        options = finder.plays(options=True)
        talents = self._talent_options(seat)
        if talents:
            options.extend(talents)
            if len(talents) > 1:
                options.append(_END)
                return self._mark_alike(options)
        options.append(_END)
        return self._mark_alike_in_hand(options, seat)

    def _mark_alike_in_hand(self, options: list[Option], seat: int) -> list[Option]:
        """`_mark_alike` for the main decision with one talent or none: only plays of two cards
        of one name in the hand may be alike there (a discard pile offers one play per name, and
        a card there is not alike one in hand), and two such cards are alike (`_alike_key`:
        the same name and zone). Most hands hold no two cards of one name."""
        defs = self.defs
        hand = self.players[seat].hand
        names = [defs[c].name for c in hand]
        if len(set(names)) == len(names):
            return options
        # The name of each card in hand that has a copy there.
        copies = {c: name for c, name in zip(hand, names, strict=True) if names.count(name) > 1}
        # A list, not a generator: a third of the marking's cost when compiled.
        return _mark_repeated_keys(options, [
            (i, (opt.value[0], copies[opt.card], opt.base, opt.play.kind))
            for i, opt in enumerate(options) if opt.card in copies])

    def _play_row(self, seat: int, cid: int, kind: str, sig: tuple, onto: int | None = None
                  ) -> tuple:
        """The Options of the main decision for the plays of `cid` from `seat`'s hand as `kind`
        (each holds its play): onto each base of `sig` ((uid, base card) of the bases in play)
        for a minion, or only onto base `onto`. The same play is offered turn after turn: its
        Option is made once (by base card too, since a base swapped in keeps its slot's uid)."""
        made = self._minion_play_options
        found = []
        for uid, base_card in (sig if self.defs[cid].kind == MINION else ((None, None),)):
            if onto is not None and uid != onto and uid is not None:
                continue
            key = (cid, uid, base_card, kind, seat)
            option = made.get(key)
            if option is None:
                option = made[key] = self._play_option(Play(seat, cid, kind, "hand", uid),
                                                       base_card)
            found.append(option)
        return tuple(found)

    def _ask_main_lazily(self, seat: int, finder: PlayFinder):
        """`ask` of the main decision, its options listed only when read (`_MainOptions`): as
        `ask` does, a phase where "end" is the only option ends without asking."""
        if self.dropped_effects:
            self.check_dropped()
        if not finder.plays(first=True) and not self.talents_usable(seat):
            return [_end_option()]
        return (yield from self.ask_lazily(seat, "play", MAIN_PROMPT,
                                           _MainOptions(self, seat, finder), None))

    def ask_lazily(self, seat, kind, prompt, source, count: int | None, min_count=1,
                   max_count=1):
        """`ask` for a replay (`lazy_options`): the decision's options are listed by `source`
        only when read (`Decision.lazy`), and a recorded choice is looked up alone. `count`:
        how many options there are (None: more than one)."""
        if self.dropped_effects:
            self.check_dropped()
        if count is not None:
            if max_count > count:
                max_count = count
            if min_count > max_count:
                min_count = max_count
            if max_count == 0:
                return []
            if min_count == max_count == count:
                return list(source.options())
        self.decision_seq += 1
        # No options yet (None): `source` lists them when read.
        decision = Decision.lazy(source, f"d{self.decision_seq}", seat, kind, prompt, None,
                                 min_count, max_count)
        ids = yield decision
        answer = self._answer
        self._answer = None
        if answer is not None and answer[0] is decision:
            return answer[1]
        return [decision.option(i) for i in ids]

    def _play_option(self, play: Play, base_card: int | None, way=None) -> Option:
        # Made for every card and base offered: the play's fields are read once each.
        cid, zone, kind, base = play.card, play.zone, play.kind, play.base
        defn = self.defs[cid]
        where = " from your discard pile" if zone == "discard" else ""
        if defn.kind == MINION:
            # A minion played with another kind of play (`playable_as`) is its own option.
            other = kind != MINION
            # Names only: formatted when read (bots never read it).
            label = (_minion_play_label, defn.name, where, self.defs[base_card].name,
                     kind if other else None)
            value = ("discard", cid, base, way) if zone == "discard" else ("minion", cid, base)
            return Option(card_option_id("m", cid, at=base, index=1 if other else None),
                          label, card=cid, base=base, value=value, play=play)
        return Option(card_option_id("a", cid), f"Play {defn.name}{where}", card=cid,
                      value=("action", cid), play=play)

    def _mark_alike(self, options: list[Option]) -> list[Option]:
        """Identical copies never give identical options (issue 9): a play of a copy in hand
        alike an earlier one (the same name, the same base), or the talent of a minion alike an
        earlier one (`_alike_key`), is marked as that one's (`Option.alike`): not shown, still
        accepted. Every option stays, with its id, so records and seeded games are unchanged."""
        # Alike options are of two cards with one name (a card's own options differ by base,
        # kind or zone): most questions have none, and need no key read (power included).
        defs = self.defs
        card_of_name: dict = {}
        shared = set()  # names of two cards or more among the options
        last = None
        for opt in options:
            cid = opt.card
            # A card's options come together (its plays onto each base): one look is enough.
            if cid is not None and cid != last:
                last = cid
                name = defs[cid].name
                if card_of_name.setdefault(name, cid) != cid:
                    shared.add(name)
        if not shared:
            return options
        keys: dict = {}  # card -> its `_alike_key`, read once

        def keyed():
            for i, opt in enumerate(options):
                cid = opt.card
                if cid is None or defs[cid].name not in shared:
                    continue
                alike = keys.get(cid)
                if alike is None:
                    alike = keys[cid] = self._alike_key(cid)
                yield i, (opt.value[0] if opt.value else None, alike, opt.base,
                          opt.play.kind if opt.play is not None else None)

        return _mark_repeated_keys(options, keyed())

    def _alike_key(self, cid: int) -> tuple:
        # What a player can tell two copies apart by: out of play its name and zone; in play also
        # its base, controller, power, counters and attached cards (as Ctx.one_of_each).
        zone = self.loc[cid]
        key = (self.defs[cid].name, zone[0], zone[1] if len(zone) > 1 else None)
        state = self.minion_state.get(cid)
        if state is not None:
            key += (state.controller, self.power(cid), state.counters,
                    tuple(sorted((self.defs[a].name, self.owner[a]) for a in state.attached)))
            if self.cancelled_cards() and not self.ability_active(cid):
                key += ("cancelled",)
        return key

    def _talent_options(self, seat: int) -> list[Option]:
        """The talents `seat` may use now. Alike copies (two Enshrouding Mists of one player on
        one base) are offered once: each may be used in turn, so the other one is offered next.
        Copies that differ are labelled apart by where they are."""
        found = self.talents_usable(seat)
        if not found:
            return found
        usable, seen = [], set()
        if len(found) > 1:
            # A key starts with the card's name: only talents sharing a name need theirs.
            named = [self.name(c) for c in found]
            for cid, name in zip(found, named, strict=True):
                if named.count(name) > 1:
                    key = self.alike_key(cid)
                    if key in seen:
                        continue
                    seen.add(key)
                usable.append(cid)
        else:
            usable = found
        names = [self.name(c) for c in usable]
        options = []
        for cid in usable:
            label = f"Use {self.name(cid)}'s talent"
            if names.count(self.name(cid)) > 1:
                host = self.action_state[cid].host if cid in self.action_state else None
                if host is not None and self.action_state[cid].host_kind == "minion":
                    label += f" (on {self.describe_minion(host)})"
                elif cid in self.minion_state:
                    label += f" ({self.describe_minion(cid)})"
                else:
                    label += f" (on {self.base_name(self.base_of(cid))})"
            options.append(Option(card_option_id("t", cid), label, card=cid,
                                  value=("talent", cid)))
        return options

    def talents_usable(self, seat: int) -> list[int]:
        found = []
        if not self.talented:
            return found
        minion_state, action_state = self.minion_state, self.action_state
        used = self.turn_state.talents_used
        for cid in self.talented:
            defn = self.defs[cid]
            # `controller`, inline: a main decision asks this of every card with a talent.
            state = minion_state.get(cid) or action_state.get(cid)
            if (state is None or state.controller != seat or cid in used
                    or not self.ability_active(cid)):
                continue
            if defn.talent_usable is not None and not defn.talent_usable(self.card_ctx(cid)):
                continue
            found.append(cid)
        return found

    def _play_phase(self, seat: int):
        while True:
            # The same finder gives the chosen play its grant: nothing changes in between.
            finder = PlayFinder(self, seat)
            if self.lazy_options:
                chosen = yield from self._ask_main_lazily(seat, finder)
            else:
                options = self.main_options(seat, finder)
                chosen = yield from self.ask(seat, "play", MAIN_PROMPT, options)
            value = chosen[0].value
            self._chain_counts.clear()
            if value[0] == "end":
                return
            if value[0] in ("minion", "discard"):
                play = chosen[0].play
                extra, via, special = finder.use(play)
                yield from self.resolve(self.play_minion(
                    seat, play.card, play.base, extra=extra, special=special, via=via,
                    as_kind=play.kind))
            elif value[0] == "action":
                play = chosen[0].play
                extra, via, _ = finder.use(play)
                yield from self.resolve(
                    self.play_action(seat, play.card, extra=extra, via=via),
                    after=lambda c=play.card: self.finish_action(c)
                )
            elif value[0] == "talent":
                _, cid = value
                yield from self.resolve(self.use_talent(seat, cid))

    def use_talent(self, seat: int, cid: int):
        self.turn_state.talents_used.add(cid)
        self.log(f"{self.pname(seat)} uses the talent of {self.name(cid)}.")
        yield from self.run_ability(self.defs[cid].talent,
                                    Ctx(self, cid, seat, base=self.base_of(cid)))

    def _draw_phase(self, seat: int):
        self.draw(seat, DRAW_PER_TURN)
        player = self.players[seat]
        excess = len(player.hand) - HAND_LIMIT
        if excess > 0:
            # The hand limit applies here and only here (CR Phase 4).
            prompt = f"Discard {counted(excess, 'card')} down to {HAND_LIMIT}"
            if self.lazy_options:
                chosen = yield from self.ask_lazily(
                    seat, "discard", prompt, _CardOptions(self, "c", player.hand),
                    len(player.hand), excess, excess)
            else:
                options = _CardOptions(self, "c", player.hand).options()
                chosen = yield from self.ask(seat, "discard", prompt, options, excess, excess)
            for opt in chosen:
                self.move_card(opt.card, ("discard", seat))
            self.log(f"{player.name} discards {', '.join(self.name(o.card) for o in chosen)} "
                     f"down to {HAND_LIMIT} cards.")
            # A discard like any other (WWWT "Discard"): cards that react to it do.
            yield from self.resolve(self._emit_gen(
                *[Event("discarded", card=o.card, player=seat, data={"from": "hand"},
                        by_player=seat) for o in chosen]))

    def _game_over(self) -> bool:
        # End of turn: 15 VP or more and a single leader wins; a tied lead plays on (WWWT p.8).
        top = max(p.vp for p in self.players)
        leaders = [p.seat for p in self.players if p.vp == top]
        if top >= WIN_VP and len(leaders) == 1:
            self.winner = leaders[0]
            self.phase = "over"
            self.log(f"{self.pname(self.winner)} wins with {top} VP.")
            return True
        if self.final_turn is not None and self.turn >= self.final_turn:
            return self._decide_on_vp(end_of_turn=True)
        return False

    def _decide_on_vp(self, end_of_turn: bool) -> bool:
        """The game ends on the VP (time called, or the base limit reached): a single leader wins.
        A tied lead plays on (see `call_time`); at the end of the last play-on turn the tied
        leaders share the win (`winner` None, `shared_winners` the seats). True: the game is over."""
        top = max(p.vp for p in self.players)
        leaders = [p.seat for p in self.players if p.vp == top]
        why = "time was called" if self.end_reason == "time" else "the base limit was reached"
        if len(leaders) == 1:
            self.winner = leaders[0]
            self.phase = "over"
            self.log(f"{self.pname(self.winner)} wins with {top} VP, the most when {why}.")
            return True
        if not end_of_turn:
            return False
        if self.play_on_until is None:
            self.play_on_until = self.turn + TIE_PLAY_ON_ROUNDS * len(self.players)
            names = " and ".join(self.pname(s) for s in leaders)
            self.log(f"{names} are tied for the lead with {top} VP: play goes on until a scored base "
                     f"breaks the tie, at most until the end of turn {self.play_on_until}.")
            return False
        if self.turn >= self.play_on_until:
            self.shared_winners = leaders
            self.winner = None
            self.phase = "over"
            names = " and ".join(self.pname(s) for s in leaders)
            self.log(f"The tie was not broken: {names} share the win with {top} VP.")
            return True
        return False

    def _count_scored_base(self) -> None:
        """A base scored (its VP were awarded). With the config's `end_after_bases` (tournament
        option: e.g. 5 bases at 3 players, 6 at 4), the turn in which the Nth base scores is the
        last: the rest of it is played (other ready bases score too), then the most VP wins and a
        tie plays on as when time is called."""
        self.bases_scored += 1
        limit = self.config.get("end_after_bases")
        if limit and self.bases_scored >= limit and self.final_turn is None:
            self.final_turn = max(self.turn, 1)
            self.end_reason = "bases"
            self.log(f"{self.bases_scored} bases have scored: this turn is the last; then the most VP "
                     "wins.")

    # ------------------------------------------------------------------ scoring ----------------
    def ready_bases(self) -> list[BaseSlot]:
        """The bases whose total power reaches their breakpoint, checked after every turn: the
        totals are kept per base (`total_power`); with nothing that changes a breakpoint in play
        or lasting, a breakpoint is the printed one (`breakpoint`)."""
        if self.breakpoint_sources or self.lasting:
            return [s for s in self.bases if self.total_power(s) >= self.breakpoint(s)]
        total_power = self.total_power
        defs = self.defs
        return [s for s in self.bases if total_power(s) >= defs[s.card].breakpoint]

    def score_bases(self):
        """CR Phase 3: score ready bases one at a time, re-checking readiness after each."""
        while True:
            ready = self.ready_bases()
            if not ready:
                return
            if len(ready) == 1:
                slot = ready[0]
            else:
                options = [
                    Option(f"b{s.uid}", f"{self.base_name(s.uid)} ({self.total_power(s)}/"
                           f"{self.breakpoint(s)})", base=s.uid)
                    for s in ready
                ]
                chosen = yield from self.ask(
                    self.current, "score", "Several bases are ready: which scores first?", options
                )
                slot = self.slot(chosen[0].base)
            scored_before = self.bases_scored
            yield from self.score_base(slot)
            # Playing on after a tied end: each scored base may break the tie, ending the game
            # at once (the rest of the turn is not played).
            if (self.play_on_until is not None and self.bases_scored > scored_before
                    and self._decide_on_vp(end_of_turn=False)):
                raise _GameEnds

    def score_base(self, slot: BaseSlot):
        sc = Scoring(slot, slot.card)
        self.scoring_stack.append(sc)
        try:
            yield from self._score_steps(sc)
        finally:
            self.scoring_stack.pop()

    def _score_steps(self, sc: Scoring):
        slot = sc.slot
        bdef = self.base_def(slot)
        self.log(f"{bdef.name} scores.")
        # Step 3: "before scoring" abilities in play, then Specials from hand (Me First!).
        yield from self._scoring_step("before_scoring", sc, bdef.before_scoring)
        yield from self.special_window("before_scoring", sc)
        if self.slot_or_none(slot.uid) is None or sc.cancelled:
            return
        # Step 4: award VP by rank, with ties; then "when scoring" abilities.
        self.award_vp(sc)
        self._count_scored_base()
        yield from self._scoring_step("when_scoring", sc, bdef.when_scoring)
        # Step 6: "after scoring" abilities, then Specials from hand.
        yield from self._scoring_step("after_scoring", sc, bdef.after_scoring)
        yield from self.special_window("after_scoring", sc)
        if self.slot_or_none(slot.uid) is None:
            return
        # Step 7: every card on the base goes to its owner's discard pile (or where an
        # "instead" effect sends it). This is not destroying.
        moves = [(m, sc.instead[m][1]) for m in slot.minions if self._moves_instead(sc, m)]
        if moves:
            # ("move", base uid): a real move, with what is attached (WWWT "Move"); its "moved"
            # reactions happen here, and whatever is still on the base afterwards is put away.
            mover = Ctx(self, sc.base_card, self.current, base=slot.uid)
            yield from self.resolve(_move_each(mover, moves))
        # The reactions to these discards happen in this step (CR step 7); should one of them put
        # a card on this base, that card is put away too ("once there are no more cards on the
        # scoring base, go to step 8").
        while slot.minions or slot.actions:
            yield from self.resolve(self._put_away(sc))
        # Steps 8 and 9: discard the base and replace it.
        index = self.bases.index(slot)
        self.bases.remove(slot)
        del self._slot_of[slot.uid]
        self.move_card(slot.card, ("base_discard",))
        new_card = None
        if bdef.replace_from is not None and sc.base_active_at_scoring:
            new_card = yield from self.run_ability(
                bdef.replace_from, Ctx(self, slot.card, self.current, slot.uid), sc)
        if new_card is None and sc.new_base_by is not None:
            # A card claimed the choice after scoring (Lost City): it picks now, in step 9.
            card, seat = sc.new_base_by
            new_card = yield from self.run_ability(self.defs[card].new_base_picker,
                                                   Ctx(self, card, seat), sc)
        if new_card is None:
            new_card = self.draw_base()
        if new_card is None:
            self.log("The base deck is empty: the base is not replaced.")
            return
        new_slot = self.new_slot(new_card, index)
        self.log(f"{self.base_name(new_slot.uid)} replaces {bdef.name}.")
        # The new base's arrival (Crypt Looter answers it) is one batch with what the scored
        # base does after it is replaced (Tortuga), announced once that is done: a question of
        # Tortuga's then finds no event waiting, as in records made before `base_entered`.
        yield from self.resolve(self._replaced(sc, bdef, new_slot))

    def _replaced(self, sc: Scoring, bdef, new_slot: BaseSlot):
        slot = sc.slot
        if bdef.after_replaced is not None and sc.base_active_at_scoring:
            yield from self.run_ability(
                bdef.after_replaced, Ctx(self, slot.card, self.current, slot.uid), sc,
                new_slot.uid)
        for card, seat in sc.on_new_base:
            if self.slot_or_none(new_slot.uid) is None:
                break
            yield from self.run_ability(
                self.defs[card].new_base_follow_up, Ctx(self, card, seat), sc, new_slot.uid)
        self.emit(Event("base_entered", card=new_slot.card, base=new_slot.uid,
                        data={"how": "dealt", "replaced": slot.card}, by_card=slot.card))

    def _put_away(self, sc: Scoring):
        """CR Phase 3 step 7: every card on the scored base goes to its owner's discard pile at
        once, minions where an "instead" sends them. This is not destroying (no `destroyed`).

        Ruling (CR step 7: "some of the cards going to the discard pile have abilities that are
        triggered when they are discarded (e.g. Igor, Jumper, Clyde 2.0), this step triggers them
        as well"): each card put into a discard pile here is a `discarded` event; a minion sent
        elsewhere is announced by its own term (`placed` for Scout's hand and Temple of Goju's
        deck bottom, `returned` for The Mothership's return), and the actions attached to it are
        discarded like the rest. The cards all move first and are announced afterwards, since they
        go simultaneously; then their reactions resolve (the current player orders simultaneous
        ones, `run_reactions`)."""
        slot = sc.slot
        events = []
        # "Instead" onto a deck: several cards onto one end of one deck go in the order their
        # owner chooses (asked before anything moves: the cards go at once).
        to_decks = yield from self.order_deck_placements(
            [(m, sc.instead[m]) for m in slot.minions if sc.instead.get(m) in _DECK_ENDS],
            sc.base_card)

        for m in list(slot.minions):
            for a in list(self.minion_state[m].attached):
                self._discard_scored(a, sc, events)
            dest = sc.instead.get(m, "discard")
            ctrl = self.minion_state[m].controller
            if dest == "hand" or dest in _DECK_ENDS:
                if dest == "hand":
                    self.put_instead(m, dest)
                events.append(Event(sc.terms.get(m, "placed"), card=m, base=slot.uid,
                                    player=ctrl, data={"to": dest, "scored": sc.base_card,
                                                       "from": "play"},
                                    by_card=sc.base_card))
            else:
                self._discard_scored(m, sc, events)
        for m in to_decks:
            self.put_instead(m, sc.instead[m])
        for a in list(slot.actions):
            self._discard_scored(a, sc, events)
        for event in events:
            self.emit(event)

    # A method, not a closure inside `_put_away`: compiled (native.py), a generator keeps its
    # locals in a scope object that a nested function refers back to, a reference cycle that
    # would keep the finished game alive until the cycle collector runs (test_game_freed.py).
    def _discard_scored(self, card: int, sc: Scoring, events: list) -> None:
        owner = self.owner[card]
        ctrl = self.controller(card)
        self.move_card(card, ("discard", owner))
        events.append(Event("discarded", card=card, base=sc.slot.uid, player=owner,
                            data={"scored": sc.base_card, "from": "play", "controller": ctrl},
                            by_card=sc.base_card))

    def put_instead(self, card: int, dest: str) -> None:
        """Put a card where an "instead" sends it: its owner's hand, or the top or bottom of
        their deck."""
        owner = self.owner[card]
        if dest == "hand":
            self.move_card(card, ("hand", owner))
        else:
            self.move_card(card, ("deck", owner), 0 if dest == "deck_top" else None)

    def order_deck_placements(self, pairs, source: int):
        """The cards of `pairs` ((card, "deck_top" or "deck_bottom")) in the order to put them
        there one at a time: where two or more go onto the same end of one deck, their owner
        picks the order (Always Room at Granny's: "in the order you choose"), the first one picked
        going first (so on the top it ends under the later ones). A card alone needs no question."""
        groups: dict[tuple, list] = {}
        for card, dest in pairs:
            groups.setdefault((self.owner[card], dest), []).append(card)
        ordered = []
        for (owner, dest), cards in groups.items():
            if len(cards) > 1:
                where = "on top of" if dest == "deck_top" else "on the bottom of"
                cards = yield from Ctx(self, source, owner).choose_order(
                    cards, f"Your cards go {where} your deck one at a time: which one goes next?",
                    seat=owner)
            ordered.extend(cards)
        return ordered

    def _moves_instead(self, sc: Scoring, m: int) -> bool:
        dest = sc.instead.get(m)
        # The target base must still be in play (else the minion is discarded like the rest).
        return (isinstance(dest, tuple) and dest[0] == "move" and dest[1] != sc.slot.uid
                and self.slot_or_none(dest[1]) is not None)

    def _scoring_step(self, kind: str, sc: Scoring, base_hook):
        """The base's own ability for this step and every card reacting to it, in the order the
        current player picks (CR Card Resolution Order, step 3)."""
        slot = sc.slot
        if self.slot_or_none(slot.uid) is None:
            return
        event = Event(kind, base=slot.uid, data={"scoring": sc})
        active = self.base_active(slot)
        if kind == "when_scoring":
            sc.base_active_at_scoring = active
        extra = []
        if base_hook is not None and active:
            extra.append((self.name(slot.card), slot.card, self._scoring_hook(base_hook, sc)))
        yield from self.run_reactions(
            [(cid, trig, event) for cid, trig in self._reactions_to(event)], extra)

    def _scoring_hook(self, fn, sc):
        def factory():
            yield from self.run_ability(
                fn, Ctx(self, sc.base_card, self.current, base=sc.slot.uid), sc)

        return factory

    def award_vp(self, sc: Scoring) -> None:
        """Rank players by power here. A tie shares the best place it ties for and the next
        place is skipped (WWWT "Tie Fighter"). Eligible: at least one minion or at least 1 power."""
        slot = sc.slot
        powers = {}
        for seat in range(len(self.players)):
            mine = [m for m in slot.minions if self.minion_state[m].controller == seat]
            power = sum(self.power(m) for m in mine)
            if mine or power > 0:
                powers[seat] = power
        sc.powers = powers
        vp = self.base_def(slot).vp
        changes = {}
        for seat, power in powers.items():
            place = 1 + sum(1 for p in powers.values() if p > power)
            if place <= 3:
                sc.places[seat] = place
                if vp[place - 1]:
                    # Cards that change placement VP do so before the VP are given, never
                    # below 0 (IYF: Great Wyrm, Ruins; VP from abilities are not changed).
                    changes[seat] = self.placement_vp_change(sc, seat)
                    if vp[place - 1] + changes[seat] > 0:
                        sc.awards[seat] = vp[place - 1] + changes[seat]
        self._note_scoring(sc, changes)
        for seat in self.seats_from_current():
            if seat in sc.awards:
                self.players[seat].vp += sc.awards[seat]
                change = f", {changes[seat]:+d}" if changes.get(seat) else ""
                self.log(f"{self.pname(seat)} gains {sc.awards[seat]} VP "
                         f"({_ORDINAL[sc.places[seat]]} on {self.name(slot.card)}{change}).")
            elif changes.get(seat):
                self.log(f"{self.pname(seat)} gains no VP ({_ORDINAL[sc.places[seat]]} on "
                         f"{self.name(slot.card)}, {changes[seat]:+d}).")

    def _note_scoring(self, sc: Scoring, changes: dict) -> None:
        """Keep what this scoring gave, as plain public data, for the pages' summaries (the log
        says it in words): who ranked where with what power (and which minions made it), the VP
        each got and the cards that changed them. `choices`: how many choices had been made,
        the one that led here included. Not state: like the log, it changes no future."""
        slot = sc.slot
        minions: dict[str, list] = {}
        for m in slot.minions:
            minions.setdefault(str(self.minion_state[m].controller), []).append([m, self.power(m)])
        changed_by: dict[str, list] = {}
        for seat, amount in changes.items():
            if amount:
                changed_by[str(seat)] = self._placement_vp_parts(sc, seat)
        self.base_scorings.append({
            "turn": self.turn,
            "choices": len(self.choices),
            "base": sc.base_card,
            "vp": list(self.base_def(slot).vp),
            "powers": {str(s): p for s, p in sc.powers.items()},
            "places": {str(s): p for s, p in sc.places.items()},
            "awards": {str(s): v for s, v in sc.awards.items()},
            "minions": minions,
            "vp_changes": changed_by,
        })

    def _placement_vp_parts(self, sc: Scoring, seat: int) -> list:
        """[card, amount] for each card in play that changes `seat`'s placement VP here (the
        parts of `placement_vp_change`)."""
        parts = []
        for slot in self.bases:
            cards = list(slot.actions)
            for m in slot.minions:
                cards.append(m)
                cards.extend(self.minion_state[m].attached)
            for card in cards:
                fn = self.defs[card].placement_vp_modifier
                if fn is not None:
                    amount = fn(self.card_ctx(card), sc, seat)
                    if amount:
                        parts.append([card, amount])
        return parts

    def placement_vp_change(self, sc: Scoring, seat: int) -> int:
        """What the cards in play (`modifies_placement_vp`) add to `seat`'s placement VP from
        the scoring base."""
        total = 0
        for slot in self.bases:
            cards = list(slot.actions)
            for m in slot.minions:
                cards.append(m)
                cards.extend(self.minion_state[m].attached)
            for card in cards:
                fn = self.defs[card].placement_vp_modifier
                if fn is not None:
                    total += fn(self.card_ctx(card), sc, seat)
        return total

    def seats_from_current(self) -> list[int]:
        n = len(self.players)
        return [(self.current + i) % n for i in range(n)]

    # ------------------------------------------------------------------ views ------------------
    def card_view(self, cid: int) -> dict:
        # What never changes about a card is built once; a view gets a fresh copy to extend.
        static = self._static_views.get(cid)
        if static is None:
            defn = self.defs[cid]
            # Card texts are not repeated in every view: `card_texts()` gives them once, by name.
            static = {"id": cid, "name": defn.name, "type": defn.kind}
            if defn.kind == MINION:
                static["printed"] = defn.power
                static["power"] = defn.power
            if hasattr(defn, "faction"):
                static["faction"] = defn.faction
            if self.owner[cid] is not None:
                static["owner"] = self.owner[cid]
            self._static_views[cid] = static
        data = dict(static)
        if cid in self.minion_state:
            data["power"] = self.power(cid)
        return data

    def view(self, seat: int | None) -> dict:
        """What `seat` may know (None: a spectator or the table display). Never a hidden card.

        It is the public part, the same for everyone, plus the part only this seat may see."""
        data = self.public_view()
        data.update(self.private_view(seat))
        return data

    def public_view(self) -> dict:
        """The board, the scores, the discard piles and the counts: what everyone sees."""
        bases = []
        for slot in self.bases:
            bdef = self.base_def(slot)
            minions = []
            for m in slot.minions:
                mv = self.card_view(m)
                state = self.minion_state[m]
                mv["controller"] = state.controller
                mv["counters"] = state.counters
                mv["attached"] = [self._attached_view(a) for a in state.attached]
                if not self.ability_active(m):
                    mv["cancelled"] = True  # its abilities are treated as if they did not exist
                minions.append(mv)
            bases.append({
                "uid": slot.uid,
                "id": slot.card,
                "name": bdef.name,
                "breakpoint": self.breakpoint(slot),
                "vp": list(bdef.vp),
                "active": self.base_active(slot),
                "total_power": self.total_power(slot),
                "power_by_seat": {
                    str(p.seat): self.player_power(slot.uid, p.seat) for p in self.players
                },
                "minions": minions,
                "actions": [self._attached_view(a) for a in slot.actions],
            })
        players = []
        for p in self.players:
            players.append({
                "seat": p.seat,
                "name": p.name,
                "factions": list(p.factions),
                "bot": p.bot,
                "vp": p.vp,
                "hand_count": len(p.hand),
                "deck_count": len(p.deck),
                "discard": [self.card_view(c) for c in p.discard],
            })
        return {
            "turn": self.turn,
            "current": self.current,
            "phase": self.phase,
            "winner": self.winner,
            "players": players,
            "bases": bases,
            "base_deck_count": len(self.base_deck),
            "base_discard": [self.card_view(c) for c in self.base_discard],
            "ending": self.ending_view(),
        }

    def ending_view(self) -> dict:
        """How the game ends early, for pages: time called, the base limit, a tie playing on."""
        return {
            "time_called": self.time_called,
            "time_called_turn": self.time_called_turn,
            "reason": self.end_reason,
            "final_turn": self.final_turn,
            "play_on_until": self.play_on_until,
            "bases_scored": self.bases_scored,
            "end_after_bases": self.config.get("end_after_bases"),
            "shared_winners": list(self.shared_winners),
        }

    def _hidden_from(self, cid: int, seat: int) -> bool:
        """Whether `seat` may not see where card `cid` is now: in a deck or the base deck (unless
        shown face up), or in another player's hand (invariants.hidden_from, for one card)."""
        zone = self.loc[cid]
        if zone[0] in ("deck", "base_deck"):
            return cid not in self.public_deck_cards() and cid not in self.pending.reveal
        return zone[0] == "hand" and zone[1] != seat and cid not in self.pending.reveal

    def private_view(self, seat: int | None) -> dict:
        """The part of a view that depends on the seat: its hand, its decision, its log lines."""
        pending = None
        if self.pending is not None:
            if seat is not None and self.pending.seat == seat:
                pending = self.pending.public()
                pending["reveal"] = [self.card_view(c) for c in self.pending.reveal]
                source = pending["source"]
                if source is not None and self._hidden_from(source, seat):
                    # The card asking has gone out of sight since (Lost City, played after a
                    # scoring, shuffled into a deck before it picks the new base): its id would
                    # say where a hidden card lies.
                    pending["source"] = None
            else:
                pending = {"seat": self.pending.seat, "kind": self.pending.kind}
        log = []
        for text, to in reversed(self.log_lines):
            if to is None or (seat is not None and seat in to):
                log.append(text)
                if len(log) == 60:
                    break
        log.reverse()
        return {
            "seat": seat,
            "hand": [self.card_view(c) for c in self.players[seat].hand] if seat is not None else None,
            "pending": pending,
            "log": log,
        }

    def card_texts(self) -> dict[str, str]:
        """Our own ability text of every card and base in this game, by name."""
        return {d.name: d.text for d in self.defs}

    def _attached_view(self, a: int) -> dict:
        data = self.card_view(a)
        data["controller"] = self.action_state[a].controller
        return data

    def digest(self) -> str:
        """A hash of the whole state, to catch a replay that drifts from what was played: version
        3 (`_digest_v2`, "3-" and 32 hex digits) for every game; a game replayed from a record
        keeps the version its stored hashes have (`digest_version`): 2 ("2-", the state without
        the fields added since, marked `since`), 1 (32 hex digits)."""
        if self.digest_version == 1:
            return self._digest_v1()
        return self._digest_v2(self.digest_version)

    def state_fields(self) -> list[str]:
        """The attributes of this game that are its state: every one but those in NOT_STATE and
        functions (behaviour, e.g. a test recording `emit`, is not state)."""
        # Compiled, most attributes are fields of the type (game.pxd), not in `vars(self)`.
        # The names that are not NOT_STATE, sorted, depend only on which attributes there are:
        # kept until one is added or removed (a digest after every choice asks each time).
        keys = tuple(vars(self))
        known = self._state_names
        if known is None or known[0] != keys:
            names = set(keys).union(GAME_FIELDS)
            self._state_names = known = (keys, [k for k in sorted(names) if k not in NOT_STATE])
        return [k for k in known[1] if not callable(getattr(self, k))]

    def _digest_v2(self, version: int = 3) -> str:
        """Every attribute of the game except NOT_STATE, read structurally (`_plain`): a new
        piece of state is covered without anyone adding it here. Words shown to people (log
        lines, prompts, labels) are not state, so rewording a card keeps old games replaying.
        Version 2 leaves out the dataclass fields added after it (metadata "since"), so the
        records hashed with it still replay."""
        fields = _FIELDS if version >= 3 else _FIELDS_V2
        # The hash is of `repr(parts)`, a list of each field's plain form; it is built part by
        # part (a list's repr joins its items' with ", "), so the parts that never change once
        # the cards are dealt (`_DIGEST_STATIC`: only `new_card` appends to them) are written once.
        texts = []
        static = self._digest_static
        for name in self.state_fields():
            value = getattr(self, name)
            if name == "rng":
                texts.append(repr(repr(value.getstate())))
            elif name == "_events":
                # A waiting `base_entered` is left out: it only ever follows a change of base
                # that the state shows (the base's card, the base piles), and records hashed
                # before it existed (a Terraforming asking for its extra minion) must replay.
                if isinstance(value, list):
                    value = [e for e in value if getattr(e, "kind", None) != "base_entered"]
                texts.append(repr(_plain(value, fields)))
            elif name == "loc" and (text := self._loc_text(value)) is not None:
                texts.append(text)
            elif name == "minion_state" and (text := _minion_states_text(value, fields)):
                texts.append(text)
            elif name == "pending" and type(value) is Decision:
                texts.append(self._pending_text(value, fields))
            elif name == "config":
                # A game's config is replaced, never changed in place (`new_game`, normalize):
                # its text is kept while the same dict is the config.
                known = static.get(name)
                if known is None or known[0] is not value or known[1] is not fields:
                    known = static[name] = (value, fields, repr(_plain(value, fields)))
                texts.append(known[2])
            elif name in _DIGEST_STATIC:
                known = static.get(name)
                if known is None or known[0] != len(value):
                    known = static[name] = (len(value), repr(_plain(value, fields)))
                texts.append(known[1])
            else:
                texts.append(repr(_plain(value, fields)))
        text = "[" + ", ".join(texts) + "]"
        return f"{version}-" + hashlib.blake2b(text.encode(), digest_size=16).hexdigest()

    def _loc_text(self, loc: list) -> str | None:
        """`_zones_text(loc)`, each zone's text kept from the last digest while the zone there
        is the same tuple (a zone is immutable: a move puts a new one in place), so only the
        cards moved since are written. None: the general way."""
        zones = tuple(loc)
        kept = self._loc_texts
        if kept is None or len(kept[0]) != len(zones):
            text = _zones_text(loc)
            if text is not None:
                self._loc_texts = (zones, list(map(_ZONE_TEXTS.__getitem__, zones)), text)
            return text
        moved = list(compress(range(len(zones)), map(is_not, zones, kept[0])))
        if not moved:
            return kept[2]
        texts = list(kept[1])
        for i in moved:
            zone = zones[i]
            if type(zone) is not tuple or not all(type(x) is str or type(x) is int for x in zone):
                self._loc_texts = None
                return _zones_text(loc)
            texts[i] = repr(zone)
        text = "(" + ", ".join(texts) + ")"
        self._loc_texts = (zones, texts, text)
        return text

    def _pending_text(self, decision: Decision, fields: dict) -> str:
        """repr(_plain(decision)), each option's part written once per Option: the main
        decision offers the same Options question after question (`_minion_play_options`)."""
        memo = self._option_texts
        if len(memo) > 4096:  # the Options of questions long gone
            memo.clear()
        parts = []
        for opt in decision.options:
            known = memo.get(id(opt))
            if known is None or known[0] is not opt or known[1] is not fields:
                known = memo[id(opt)] = (opt, fields, repr(_plain(opt, fields)))
            parts.append(known[2])
        # A tuple's text, as repr writes it (one item: "(x,)").
        options = _Text("(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")")
        read = _READERS.get((id(fields), Decision)) or _reader_of(Decision, fields)
        names, values = _fields_of(Decision, fields), read(decision)
        if len(values) != len(names):  # fields added later, read after the others
            return repr(_plain(decision, fields))
        values = [options if name == "options" else value for name, value in zip(names, values, strict=True)]
        return repr((Decision.__name__, tuple([x if type(x) in _SCALARS or type(x) is _Text
                                               else _plain(x, fields) for x in values])))

    def _digest_v1(self) -> str:
        """The digest of records made before version 2 (kept so that they still replay; only
        Aliens, Ninjas and the Core bases existed then)."""
        state = (
            [(p.deck, p.hand, p.discard, p.vp) for p in self.players],
            [(s.uid, s.card, s.minions, s.actions) for s in self.bases],
            sorted((k, v.controller, v.counters, v.attached) for k, v in self.minion_state.items()),
            sorted((k, v.controller, v.host) for k, v in self.action_state.items()),
            self.base_deck, self.base_discard, self.turn, self.current, self.phase,
            self.pending.id if self.pending else None, self.winner,
            [(e.kind, e.target, e.amount, e.player,
              ("turn_end",) if e.ends == ("turn_end", None) else e.ends) for e in self.lasting],
            [(g.kind, g.free, g.max_power, g.base) for g in self.turn_state.grants],
            sorted(map(repr, self.turn_state.flags.items())),
            sorted(self.turn_state.talents_used),
            self.turn_state.minions_played, self.turn_state.actions_played,
        )
        if self.time_called_turn is not None or self.config.get("end_after_bases"):
            # Only for games that can end early, so every record made before these rules existed
            # keeps its stored hashes.
            state += ((self.bases_scored, self.time_called_turn, self.final_turn, self.end_reason,
                       self.play_on_until, self.shared_winners),)
        return hashlib.blake2b(repr(state).encode(), digest_size=16).hexdigest()

    def summary(self) -> dict:
        return {
            "turns": self.turn,
            "over": self.over,
            "winner": self.winner,
            "shared_winners": list(self.shared_winners),
            "time_called": self.time_called,
            "vp": [p.vp for p in self.players],
            "choices": len(self.choices),
            "digest": self.digest(),
        }


_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}
_DECK_ENDS = ("deck_top", "deck_bottom")
_DESTINATION_WORDS = {"hand": "into {p}'s hand", "deck_top": "on top of {p}'s deck",
                      "deck_bottom": "to the bottom of {p}'s deck"}

MAIN_PROMPT = "Play a card, use a talent, or end the Play Cards phase"


def _bars_play(data: dict, play: Play, defn) -> bool:
    """Whether a "cannot play" lasting effect's data (kind, base, faction; each optional) covers
    `play` of the card `defn` (Block the Path, Overrun, Mark of Sleep)."""
    kind = data.get("kind")
    if kind is not None and kind != play.kind and kind != defn.kind:
        return False
    if data.get("base") is not None and data["base"] != play.base:
        return False
    return data.get("faction") is None or data["faction"] == defn.faction


def _end_option() -> Option:
    return Option("end", "End the Play Cards phase", value=("end",))


# The main decision's "end" option, made once (Options are never changed once made).
_END = _end_option()


def _marked(opt: Option, shown: str) -> Option:
    """`opt` marked alike the option `shown` (`Game._mark_alike`): a copy, since cached options
    stay as made; Option's fields, without replace()'s generic checks, since the main decision
    marks options every time it is asked."""
    return Option(opt.id, opt.label_as_made(), opt.card, opt.base, opt.value, shown, opt.play)


def _mark_repeated_keys(options: list[Option], keyed) -> list[Option]:
    """`options` with each option whose key (`keyed`: (index, key) pairs, in order) an earlier
    one had marked alike that one (`_marked`); the same list when none is."""
    first: dict = {}
    marked = options
    for i, key in keyed:
        opt = options[i]
        shown = first.setdefault(key, opt.id)
        if shown != opt.id:
            if marked is options:
                marked = list(options)
            marked[i] = _marked(opt, shown)
    return marked


def _move_each(mover, moves):
    """Scoring's step 7 "instead" moves, one after another (a module function, not a closure in
    the scoring generator: see `Game._discard_scored`)."""
    for m, uid in moves:
        yield from mover.move(m, uid)


_AT_BASE = re.compile(r"@(\d+)")  # the base of a card option id's tail ("@3:1": base 3)


class _MainOptions:
    """The main decision's options for a replay (`Game.lazy_options`): listed in full only when
    read (`main_options`); a recorded choice is looked up alone, with the same answer as the
    full list: the same Option, or None for an id that is not one of them (so a forged choice
    is refused as before). A play of a card in hand is checked by that card's plays alone (a
    card's plays do not depend on the others'); anything else reads the full list."""

    __slots__ = ("game", "seat", "finder")

    def __init__(self, game: Game, seat: int, finder: PlayFinder):
        self.game = game
        self.seat = seat
        self.finder = finder

    def options(self) -> list[Option]:
        return self.game.main_options(self.seat, self.finder)

    def find(self, option_id: str) -> Option | None:
        if option_id == "end":
            return _end_option()
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


class _CardOptions:
    """One option a card (`card_option_id(prefix, card)`, labelled by its name) for each of
    `cards`, listed only when read in a replay (`Game.ask_lazily`): the hand limit's discard."""

    __slots__ = ("game", "prefix", "cards")

    def __init__(self, game: Game, prefix: str, cards: list[int]):
        self.game = game
        self.prefix = prefix
        self.cards = list(cards)

    def option(self, cid: int) -> Option:
        # The same card gives the same Option question after question (the hand limit's
        # discard every turn): made once, as the main decision's plays are.
        game = self.game
        name = game.defs[cid].name
        made = game._card_options
        option = made.get((self.prefix, cid, name))
        if option is None:
            option = made[self.prefix, cid, name] = Option(card_option_id(self.prefix, cid),
                                                           name, card=cid)
        return option

    def options(self) -> list[Option]:
        return [self.option(c) for c in self.cards]

    def find(self, option_id: str) -> Option | None:
        if type(option_id) is not str or option_id[:1] != self.prefix:
            return None
        digits = option_id[1:]
        if not (digits.isascii() and digits.isdigit()):
            return None
        cid = int(digits)
        # The id as this card's option spells it ("c07" is no option).
        if cid in self.cards and option_id == f"{self.prefix}{cid}":
            return self.option(cid)
        return None


DIGEST_VERSION = 3
RESOLUTION = 2


def _minion_play_label(name: str, where: str, base_name: str, kind: str | None) -> str:
    """The label of the main decision's play of a minion (`Game._play_option`)."""
    label = f"Play {name}{where} on {base_name}"
    return label if kind is None else f"{label} as an {kind}"


# Every attribute `Game.__init__` sets. Compiled, they are the fields of the type (game.pxd), not
# in an instance's `__dict__`, and `state_fields` finds them here; tests/engine/test_native.py
# checks that this list, game.pxd and `__init__` agree.
GAME_FIELDS = (
    "_answer", "_base_trigger_kinds", "_bonuses", "_cancelled", "_cancelled_version",
    "_card_options", "_chain_counts", "_depth", "_digest_static", "_discard_offerers",
    "_discard_offers", "_entries", "_events", "_flow", "_here_bases", "_index_kinds",
    "_loc_texts", "_local_upto", "_localities", "_minion_play_options", "_modifiers",
    "_modifiers_version", "_moved_kinds", "_next_uid", "_option_texts", "_play_plans",
    "_play_rows", "_powers", "_powers_version", "_protections", "_protections_version",
    "_seat_seen", "_slot_of", "_special_cards", "_state_names", "_static_views", "_totals",
    "_touched_bases", "_trigger_index", "_trigger_index_of", "_turn_seen", "_turn_start_bases",
    "_window_cards", "_window_cards_of", "action_state", "base_deck", "base_discard", "bases",
    "bases_scored", "breakpoint_sources", "choices", "config", "current", "decision_seq",
    "defs", "digest_version", "disclosures", "dropped_effects", "end_reason", "final_turn",
    "hashes", "host_cancellers", "lasting", "lazy_options", "left_cancelled", "loc",
    "log_lines", "minion_state", "modifier_sources", "owner", "pending", "phase",
    "play_offering", "play_on_until", "players", "protectors", "reactive", "registry",
    "replacers", "resolution", "resolving", "resolving_to", "restrictors", "rng", "rng_version",
    "scenario", "scoring_stack", "seed", "shared_winners", "special_checks", "talented",
    "time_called_turn", "track_hashes", "turn", "turn_state", "version", "wide_readers",
    "winner",
    "base_scorings",
)
# Attributes of a Game that are not its state, and why (everything else is hashed by `digest`):
NOT_STATE = frozenset({
    "registry", "scenario",  # where the cards come from and the record a scenario started from
    "choices", "hashes", "track_hashes", "digest_version",  # the record itself
    "log_lines",  # words for people: rewording a line must not break stored hashes
    "base_scorings",  # what each scoring gave, for the pages: the log's facts, as data
    "_flow",  # the running generator: replaying the record rebuilds it
    "special_checks",  # which hands a Special window looked at (live play's undo, not state)
    "disclosures",  # hidden cards shown where they lay (live play's undo, not state)
    "dropped_effects",  # a programming error about to be raised
    # indexes and caches, derived from the zones and the definitions
    "modifier_sources", "breakpoint_sources", "protectors", "reactive", "talented", "replacers",
    "restrictors", "host_cancellers", "wide_readers",
    "_cancelled", "_cancelled_version",  # `cancelled_cards`
    "left_cancelled",  # what `Ctx._leave_play` saw, read by the batch of that very event
    "_index_kinds", "_slot_of",
    "play_offering", "_discard_offers", "_discard_offerers",
    "_static_views", "_minion_play_options", "_play_rows", "_play_plans", "_window_cards",
    "_window_cards_of", "_special_cards",  # `_index_specials`
    "_base_trigger_kinds", "_turn_start_bases",  # `_index_triggers`
    "version", "_powers", "_powers_version", "_turn_seen", "_seat_seen",  # `power`
    "_modifiers", "_modifiers_version", "_totals", "_bonuses",
    "_local_upto", "_touched_bases", "_localities", "_moved_kinds", "_here_bases",  # `_board_moved`
    "_protections", "_protections_version",  # `affects`
    "_trigger_index", "_trigger_index_of",  # `_reactions_to`
    "_answer",  # the options `apply` found, handed to `ask`
    "lazy_options",  # how a replay lists the main decision's options (`_MainOptions`)
    "_digest_static", "_option_texts",  # `_digest_v2`
    "_card_options",  # `_CardOptions`
    "_state_names",  # `state_fields`
    "_loc_texts",  # `_loc_text`
})


def digest_version_of(state_hash: str) -> int:
    """Which digest made a stored state hash: 3 ("3-..."), 2 ("2-..."), else 1."""
    if state_hash[1:2] == "-" and state_hash[:1] in ("2", "3"):
        return int(state_hash[0])
    return 1


# The fields of each state dataclass the digest reads: all but words (version 3), and without
# those added after version 2 (metadata "since") for version 2.
_FIELDS: dict[type, tuple] = {}
_FIELDS_V2: dict[type, tuple] = {}
_SCALARS = frozenset({int, str, bool, float, bytes, type(None)})
# Per dataclass, its fields added after digest 3 and the value that leaves them out (core._added).
_UNSET_FIELDS: dict[type, tuple] = {}
# (fields table, dataclass) -> its digested fields' values as a tuple, in one call.
_READERS: dict[tuple, Callable] = {}
# State fields that only `new_card` changes (it appends): their plain form is kept by length.
_DIGEST_STATIC = frozenset({"defs", "owner"})


def _reader_of(cls, fields: dict) -> Callable:
    names = _fields_of(cls, fields)
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        reader = lambda obj: (one(obj),)  # noqa: E731
    else:
        reader = operator.attrgetter(*names) if names else (lambda obj: ())
    unset = _UNSET_FIELDS.get(cls) if fields is _FIELDS else None
    if unset:
        # Fields added after digest 3 (core._added): read as (name, value) after the others,
        # and only while they hold something, so the digest of a record made before them is
        # what it was.
        reader = _with_set_fields(reader, unset)
    _READERS[(id(fields), cls)] = reader
    return reader


def _with_set_fields(read: Callable, unset: tuple) -> Callable:
    def reader(obj):
        values = read(obj)
        extra = tuple([(name, getattr(obj, name)) for name, default in unset
                       if getattr(obj, name) != default])
        return values + extra if extra else values

    return reader


def _fields_of(cls, fields: dict) -> tuple:
    names = fields.get(cls)
    if names is None:
        kept = [f for f in dataclasses.fields(cls) if not f.metadata.get("words")]
        _UNSET_FIELDS[cls] = tuple((f.name, f.metadata["unset"]) for f in kept
                                   if "unset" in f.metadata)
        _FIELDS[cls] = tuple(f.name for f in kept if "unset" not in f.metadata)
        _FIELDS_V2[cls] = tuple(f.name for f in kept if "since" not in f.metadata)
        names = fields[cls]
    return names


class _Text:
    """A part of a digest already written out: its repr is that text (`Game._pending_text`)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


# The text of each zone seen in `loc` (`_zones_text`): a zone is a tuple of strings and ints.
_ZONE_TEXTS: dict[tuple, str] = {}
_ZONE_ITEM_TYPES = frozenset({str, int})


def _zones_text(loc: list) -> str | None:
    """repr(_plain(loc)), the largest part of a digest, from the text of each zone: the same
    text (for a tuple of tuples of strings and ints, the plain form is the tuple itself), each
    zone written once. None when `loc` holds anything else: the general way then.
    Only strings and ints: equal values of those always have equal texts (1 and True do not)."""
    if (len(loc) < 2 or set(map(type, loc)) != {tuple}
            or not set(map(type, chain.from_iterable(loc))) <= _ZONE_ITEM_TYPES):
        return None
    texts = _ZONE_TEXTS
    try:
        return "(" + ", ".join(map(texts.__getitem__, loc)) + ")"
    except KeyError:
        for zone in loc:
            if zone not in texts:
                texts[zone] = repr(zone)
        return "(" + ", ".join(map(texts.__getitem__, loc)) + ")"


_MINION_STATE_FIELDS = ("controller", "counters", "attached", "entered", "memory")


def _minion_states_text(states: dict, fields: dict) -> str | None:
    """repr(_plain(states)) for the minions in play, written out field by field: the same
    text, without the general walk (a digest after every choice writes every minion). None
    (the general way) for anything but int keys, plain numbers, a list of plain card ids and an
    empty memory, or if MinionState's digested fields are not the ones written here."""
    if type(states) is not dict:
        return None
    if (_fields_of(MinionState, fields) != _MINION_STATE_FIELDS
            or _UNSET_FIELDS.get(MinionState)):
        return None
    parts = []
    for cid, st in states.items():
        if type(st) is not MinionState or type(cid) not in _SCALARS:
            return None
        controller, counters, attached, entered = st.controller, st.counters, st.attached, st.entered
        if (type(controller) not in _SCALARS or type(counters) not in _SCALARS
                or type(entered) not in _SCALARS or type(attached) is not list or st.memory
                or type(st.memory) is not dict
                or not set(map(type, attached)) <= _SCALARS):
            return None
        parts.append(f"({cid!r}, ('MinionState', ({controller!r}, {counters!r}, "
                     f"{tuple(attached)!r}, {entered!r}, ('d', ()))))")
    # A tuple's text, as repr writes it (one item: "(x,)").
    return "('d', (" + ", ".join(parts) + ("," if len(parts) == 1 else "") + "))"


def _plain(obj, fields: dict = _FIELDS):
    """`obj` as nested tuples of plain values, for the digest: dataclasses field by field (but
    fields marked as words), a card or base definition by its name, dicts in their (replayed,
    so deterministic) order, sets sorted. Anything else is refused: the state must be plain."""
    # Plain values are kept as they are without a call (the digest reads thousands of them).
    t = type(obj)
    if t in _SCALARS:
        return obj
    if t is tuple:
        for x in obj:
            if type(x) not in _SCALARS:
                break
        else:
            return obj  # a tuple of plain values is its own plain form (zones: loc)
    if t is list or t is tuple:
        return tuple([x if type(x) in _SCALARS else _plain(x, fields) for x in obj])
    if t is dict:
        return ("d", tuple([(k if type(k) in _SCALARS else _plain(k, fields),
                             v if type(v) in _SCALARS else _plain(v, fields))
                            for k, v in obj.items()]))
    if t is set or t is frozenset:
        return ("s", tuple(sorted((_plain(x, fields) for x in obj), key=repr)))
    if t is CardDef or t is BaseDef:
        return obj.name
    read = _READERS.get((id(fields), t))
    if read is not None or dataclasses.is_dataclass(obj):
        if read is None:
            read = _reader_of(t, fields)
        return (t.__name__, tuple([x if type(x) in _SCALARS else _plain(x, fields)
                                   for x in read(obj)]))
    if isinstance(obj, (CardDef, BaseDef)):
        return obj.name
    raise EngineError(f"the game state holds a {t.__name__} ({obj!r:.60}): the digest reads only "
                      "plain data (numbers, strings, lists, dicts, sets and dataclasses)")
_EVENT_WORDS = {
    "minion_played": "is played", "action_played": "is played", "destroyed": "is destroyed",
    "returned": "is returned", "moved": "is moved", "placed": "is placed",
    "discarded": "is discarded", "transferred": "is transferred", "cancelled": "cancels a base",
    "base_entered": "comes into play",
    "attached": "is attached", "power_changed": "changes power",
    "counters_changed": "gets counters", "occupied": "takes a slot",
    "turn_start": "start of the turn",
    "turn_end": "end of the turn", "before_scoring": "before scoring",
    "when_scoring": "when scoring", "after_scoring": "after scoring",
}

_WINDOW_PROMPTS = {
    "before_scoring": "A base is about to score: use a Special?",
    "after_scoring": "A base has scored: use a Special?",
    "turn_start": "Start of turn: use a Special?",
}


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


def require_factions_once(config: dict) -> None:
    """Each faction is in a game once (issue 9: the app has one copy of every faction, so two
    players never hold the same one). ConfigError naming both players otherwise."""
    holder: dict[str, int] = {}
    for i, player in enumerate(config["players"]):
        for f in player["factions"]:
            if f in holder:
                raise ConfigError(f"{f} is held by player {holder[f]} and player {i}: "
                                  "each faction is in a game once")
            holder[f] = i


def normalize_config(config: dict, registry: Registry) -> dict:
    """Check a game config and fill its defaults. Raises ConfigError with a clear message."""
    if not isinstance(config, dict):
        raise ConfigError("config must be a mapping")
    seats = config.get("players")
    if not isinstance(seats, list) or not 2 <= len(seats) <= 4:
        raise ConfigError("a game has 2 to 4 players")
    players = []
    for i, seat in enumerate(seats):
        factions = seat.get("factions") if isinstance(seat, dict) else None
        if not isinstance(factions, list) or len(factions) != 2:
            raise ConfigError(f"player {i} needs exactly two factions")
        if not all(isinstance(f, str) for f in factions):
            raise ConfigError(f"player {i}: a faction is given by its name")
        if factions[0] == factions[1]:
            raise ConfigError(f"player {i} has the same faction twice")
        for f in factions:
            registry.faction(f)
        bot = seat.get("bot")
        if bot not in (None, "random", "heuristic"):
            raise ConfigError(f"player {i}: unknown bot {bot!r}")
        players.append({"name": str(seat.get("name") or f"Player {i + 1}"),
                        "factions": list(factions), "bot": bot})
    mode = config.get("mode", "standard")
    if mode != "standard":
        raise ConfigError(f"unknown mode {mode!r}")
    specials = config.get("specials", "fast")
    if specials not in ("fast", "ask"):
        raise ConfigError("specials must be 'fast' or 'ask'")
    base_sets = config.get("base_sets", "factions")
    if base_sets not in ("factions", "all") and not (
        isinstance(base_sets, list) and all(isinstance(s, str) for s in base_sets)
    ):
        raise ConfigError("base_sets is 'factions', 'all' or a list of set names")
    if isinstance(base_sets, list):
        known_sets = {b.set for b in registry.bases.values()}
        unknown = [s for s in base_sets if s not in known_sets]
        if unknown or not base_sets:
            raise ConfigError(f"unknown base set {unknown[0]!r} (known: {', '.join(sorted(known_sets))})"
                              if unknown else "base_sets names at least one set")
        base_sets = list(base_sets)  # the game's own: its config is never changed in place
    bases = config.get("bases")  # the base deck by name (written by new_game; see setup.py)
    if bases is not None:
        if not isinstance(bases, list) or not bases or not all(isinstance(b, str) for b in bases):
            raise ConfigError("bases is a list of base names")
        if len(set(bases)) != len(bases):
            raise ConfigError("bases names each base once")
        unknown = [b for b in bases if b not in registry.bases]
        if unknown:
            raise ConfigError(f"unknown base {unknown[0]!r}")
    first = config.get("first_player")
    # bool is an int in Python; True is not a seat number.
    if first is not None and (
        not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(players)
    ):
        raise ConfigError("first_player must be a seat number")
    mulligan = config.get("mulligan", True)
    if not isinstance(mulligan, bool):
        raise ConfigError("mulligan must be true or false")
    end_after_bases = config.get("end_after_bases")
    if end_after_bases is not None and (
        not isinstance(end_after_bases, int) or isinstance(end_after_bases, bool)
        or not 1 <= end_after_bases <= MAX_END_AFTER_BASES
    ):
        raise ConfigError(f"end_after_bases is a number of bases from 1 to {MAX_END_AFTER_BASES}")
    out = {
        "mode": mode,
        "players": players,
        "specials": specials,
        "base_sets": base_sets,
        "first_player": first,
        "mulligan": mulligan,
        "end_after_bases": end_after_bases,
    }
    if bases is not None:  # only when named, so older records' configs keep their shape
        out["bases"] = list(bases)
    return out


# Compiled, effects.py and plays.py read Game's fields directly (effects.pxd and plays.pxd declare
# their `game` a Game), so they are loaded once Game exists: here, at the end.
from .effects import Ctx, Effect, board_label  # noqa: E402
from .plays import GRANT_CONDITIONS, PlayFinder  # noqa: E402, F401 (game.GRANT_CONDITIONS, as before)
