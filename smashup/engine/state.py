"""A game's state, and the primitives every rule is built on.

`GameState` holds every field of a game (the players' piles, the bases in play, the cards' zones,
the turn, the lasting effects, the open question) and the few operations the rule modules share:
moving a card between zones (`move_card`, the only primitive that changes where a card is), the
indexes of cards in play by hook, the board `version` that power and the other caches are kept
by, the log and the queue of events. `Game` (game.py) is this class with the rules attached.

Rules implemented here: WWWT "Terms and Restrictions" (a card is in exactly one place: a deck, a
hand, a discard pile, in play on a base or on a minion; "in play" is on a base or attached; moved,
a card in play is a new card: CR "Void Where Prohibited"), and the community page's "Setup" (each
player's deck, hand and discard pile; the base deck and its discard pile).

Compiled (native.py), GameState is an extension type whose attributes are the C fields state.pxd
declares, read by the rule modules (which type their `game` as a GameState) without a lookup.
"""
from __future__ import annotations

import cython

from .config import require_factions_once
from .core import (
    _MADE,
    ActionState,
    Decision,
    EngineError,
    Event,
    Lasting,
    MinionState,
    Option,
    _BaseSlotFields,
    _PlayerStateFields,
    _text,
    _values,
)
from .hooks import INDEXES, MOVES_LOCALLY, indexes_wanted, power_locality, reach_confined
from .knowledge import HIDDEN, Knowledge
from .registry import REGISTRY, BaseDef, CardDef, Registry, _Declares
from .rng import GAME_STREAM, stream, version_for
from .turn_state import TurnState

IN_PLAY_ZONES = ("minion", "base_action", "attached")
# The controller of a base's power modifier (Game._modifiers_now): nobody's card, never "affects".
_BASE = object()
_NOTHING: frozenset = frozenset()
# What a local change moved (`Game._moved_kinds`): a card with a modifier, or with a protection
# (a minion carrying actions counts as both), so the lists of those working are made afresh.
_MOVED_MODIFIER = 1
_MOVED_PROTECTOR = 2


# The zones power can read (`Game.version`): cards in play and the bases in play.
_BOARD_ZONES = frozenset(IN_PLAY_ZONES + ("base",))
_IN_PLAY = frozenset(IN_PLAY_ZONES)
_ON_CARDS = frozenset(("attached", "base_action"))  # where an action has an ActionState
# A player's piles, out of play: a card moved between them touches nothing else (`move_card`).
_PILE_ZONES = frozenset(("deck", "hand", "discard"))
# Where a card is hidden from some seat: a move from or to one is noted by `knowledge` when a
# game tracks it.
_HIDDEN_ZONES = HIDDEN



class BaseSlot:
    """A base in play. `uid` names the place; Terraforming swaps the card and keeps the place.

    The dataclass of `_BaseSlotFields` (the same fields, init, repr and equality), written out
    so that compiled it is an extension type (state.pxd), as core.py's `Event`: the rules read
    a base's minions and card thousands of times a game, as C fields where the slot is typed."""

    __slots__ = ("uid", "card", "minions", "actions")
    __dataclass_fields__ = _BaseSlotFields.__dataclass_fields__
    __dataclass_params__ = _BaseSlotFields.__dataclass_params__
    __match_args__ = ("uid", "card", "minions", "actions")
    __hash__ = None

    def __init__(self, uid: int, card: int, minions=_MADE, actions=_MADE):
        self.uid = uid
        self.card = card
        self.minions = [] if minions is _MADE else minions
        self.actions = [] if actions is _MADE else actions

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self) == _values(other)

    def __repr__(self) -> str:
        return _text(self)


class PlayerState:
    """A player's piles and points. The dataclass of `_PlayerStateFields`, written out so that
    compiled it is an extension type (state.pxd), as `BaseSlot`."""

    __slots__ = ("seat", "name", "factions", "bot", "deck", "hand", "discard", "vp",
                 "mulliganed")
    __dataclass_fields__ = _PlayerStateFields.__dataclass_fields__
    __dataclass_params__ = _PlayerStateFields.__dataclass_params__
    __match_args__ = ("seat", "name", "factions", "bot", "deck", "hand", "discard", "vp",
                      "mulliganed")
    __hash__ = None

    def __init__(self, seat: int, name: str, factions, bot: str | None = None, deck=_MADE,
                 hand=_MADE, discard=_MADE, vp: int = 0, mulliganed: bool = False):
        self.seat = seat
        self.name = name
        self.factions = factions
        self.bot = bot
        self.deck = [] if deck is _MADE else deck
        self.hand = [] if hand is _MADE else hand
        self.discard = [] if discard is _MADE else discard
        self.vp = vp
        self.mulliganed = mulliganed

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self) == _values(other)

    def __repr__(self) -> str:
        return _text(self)


# A switch (a module global, as the compiled GameState is a type that cannot be patched): every
# game made while it is True tracks from its setup what each seat knows of the hidden cards
# (`GameState.knowledge`, knowledge.py). `Game.track_knowledge` turns it on for one game.
TRACK_KNOWLEDGE = False

# Which digest a new game's state hashes use (Game.digest_version) and which rules of resolution a
# new game plays by (Game.resolution, core.EXACT_CORNERS); a game replayed from an older record
# takes the record's.
DIGEST_VERSION = 3
RESOLUTION = 3


# Every attribute `GameState.__init__` sets. Compiled, they are the fields of the type (state.pxd),
# not in an instance's `__dict__`, and `state_fields` finds them here; tests/engine/test_native.py
# checks that this list, state.pxd and `__init__` agree.
GAME_FIELDS = (
    "_answer", "_base_trigger_kinds", "_bonuses", "_breakpoints_read", "_cancelled", "_cancelled_version",
    "_card_options", "_chain_counts", "_controls_known", "_counting", "_depth", "_digest_static",
    "_discard_offerers",
    "_discard_offers", "_entries", "_events", "_flow", "_here_bases", "_index_kinds",
    "_loc_texts", "_local_upto", "_localities", "_minion_play_options", "_modifiers",
    "_modifiers_version", "_moved_kinds", "_next_uid", "_option_texts", "_play_plans",
    "_play_rows", "_power_flags", "_powers", "_powers_version", "_protections", "_protections_version",
    "_quiet_at", "_seat_seen", "_snapshot", "_slot_of", "_special_cards", "_state_names",
    "_static_views", "_totals",
    "_touched_bases", "_trigger_index", "_trigger_index_of", "_turn_seen", "_turn_start_bases",
    "_window_cards", "_window_cards_of", "action_state", "base_deck", "base_discard", "base_scorings",
    "bases",
    "bases_scored", "breakpoint_sources", "choices", "config", "current", "decision_seq",
    "defs", "determinized_for", "digest_version", "disclosures", "dropped_effects", "end_reason",
    "final_turn",
    "hashes", "host_cancellers", "knowledge", "lasting", "lazy_options", "left_cancelled", "loc",
    "log_lines", "minion_state", "modifier_sources", "owner", "pending", "phase",
    "play_offering", "play_on_until", "players", "protectors", "reactive", "registry",
    "replacers", "resolution", "resolving", "resolving_to", "restrictors", "rng", "rng_version",
    "scenario", "scoring_stack", "seed", "shared_winners", "special_checks", "talented",
    "time_called_turn", "track_hashes", "turn", "turn_state", "version", "wide_readers",
    "winner",
)

class GameState:
    """The state of one game of Smash Up and its primitives (see the module's docstring); `Game`
    (game.py) is this class with the rules attached. Build a game with `new_game`, `replay` or the
    scenario builder.

    Compiled (native.py), GameState is an extension type whose attributes are the C fields
    state.pxd declares: read without a dictionary lookup. Every attribute is set in `__init__`
    and declared there (tests/engine/test_native.py checks both); an instance still takes other
    attributes (a subclass's, a test's) in its `__dict__`, and `state_fields` reads both."""

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
        # (see hooks.INDEXES; kept by `_place_in`, never part of the state).
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
        self.wide_readers: dict[int, None] = {}  # power may read beyond a base (hooks.power_locality)
        self._index_kinds: dict[int, tuple] = {}  # def id -> which indexes its cards belong to
        # Generator verbs dropped without `yield from` (effects.Effect); not state: the next
        # step raises EngineError naming them.
        self.dropped_effects: list[str] = []
        # Which digest this game's state hashes use (`digest`): 2, or 1 for a game replayed from
        # a record whose stored hashes were made before version 2 existed.
        self.digest_version = DIGEST_VERSION
        # The rules of resolution a game plays by (RESOLUTION): 3 for every new game (issue 24's
        # corners, core.EXACT_CORNERS); 2 for a game replayed from a record made before them (the
        # rules' batches, `react_to_batch`); 1 for one made before batches existed (one event at
        # a time): every old record replays as it was played.
        self.resolution = RESOLUTION
        self.turn = 0
        self.current = 0
        self.phase = "setup"
        self.turn_state = TurnState(0)
        self.scoring_stack: list = []  # the bases scoring now (scoring.Scoring), innermost last
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
        # What each base scoring gave (`scoring.note_scoring`): for the pages' scoring summaries.
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
        # (version, {(name, seat): answer}): `Ctx.controls` asked at that board version. A power
        # modifier asks it for every minion counted (Microbot Fixer: is its controller's Microbot
        # Alpha working?), and its answer reads only what moves `version`.
        self._controls_known: tuple = (-1, None)
        # The turn flags ((key, seat), `Ctx.flag`) a power count has read (Ancient Temple's
        # modifier), and whether a count is running now (`_counting`, powers.py): setting one of
        # those, or a new turn leaving one behind, moves `version`; any other flag changes no
        # power (most are "once per turn" notes of triggers).
        self._power_flags: set = set()
        self._counting = 0
        # Whether a power count has read a breakpoint (`powers.breakpoint`; no modifier does
        # yet): until one has, a lasting breakpoint change (Rampage) changes no power.
        self._breakpoints_read = False
        # A card moved on the board changes, most of the time, only the powers on its base: while
        # every version since `_powers_version` was such a change (`_board_moved`,
        # `_lasting_changed`), `_local_upto` follows `version` and the bases touched are listed,
        # so that a new power version forgets only their counts (`_new_power_version`).
        self._local_upto = -1
        self._touched_bases: set[int] = set()
        self._moved_kinds = 0  # _MOVED_* of the cards those changes moved
        self._here_bases: frozenset = frozenset()  # bases a "here" modifier reaches (_modifiers)
        self._localities: dict[int, int] = {}  # id(definition) -> `power_locality`
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
        # (prefix, card, name) -> Option: `_CardOptions`, a talent labelled by its name alone
        self._card_options: dict[tuple, Option] = {}
        self.scenario = None  # set when built by the scenario builder; replays rebuild from it
        # Forks (forks.py): the number of choices made when the game last stood at a quiet point
        # (-1: none yet), and the copy of the game there once a fork needed it ((choices, copy)).
        # Not state.
        self._quiet_at = -1
        self._snapshot = None
        # What each seat knows of the hidden cards (knowledge.py), when tracked (TRACK_KNOWLEDGE,
        # `Game.track_knowledge`); None otherwise. Not state: it changes no future.
        self.knowledge = Knowledge() if TRACK_KNOWLEDGE else None
        # The seat a determinized game was dealt for (`Game.determinize`); None for a real game.
        self.determinized_for = None

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

    @cython.locals(player=PlayerState, s=BaseSlot, state=MinionState)
    def container(self, zone: tuple) -> list[int]:
        # Each kind read by name as a field (typed: C fields when compiled), not by getattr.
        kind = zone[0]
        if kind in ("deck", "hand", "discard"):
            player = self.players[zone[1]]
            if kind == "hand":
                return player.hand
            return player.deck if kind == "deck" else player.discard
        if kind == "minion":
            s = self.slot(zone[1])
            return s.minions
        if kind == "base_action":
            s = self.slot(zone[1])
            return s.actions
        if kind == "attached":
            state = self.minion_state[zone[1]]
            return state.attached
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
            found = []  # a loop, not a generator: asked of each definition of every new game
            for (name, _wanted, bases_too), wanted in zip(INDEXES, indexes_wanted(defn), strict=True):
                if wanted:
                    found.append((getattr(self, name), bases_too))
            kinds = self._index_kinds[key] = tuple(found)
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
        if self.knowledge is not None and (was in _HIDDEN_ZONES or kind in _HIDDEN_ZONES):
            self.knowledge.moved(self, cid, old, zone, index)
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
        if self.knowledge is not None:
            self.knowledge.shown(self, cards, to)

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

    @cython.locals(s=BaseSlot)
    def base_def(self, slot: BaseSlot) -> BaseDef:
        s = slot
        return self.defs[s.card]

    @cython.locals(d=_Declares)
    def name(self, cid: int) -> str:
        d = self.defs[cid]
        return d.name

    @cython.locals(s=BaseSlot, d=_Declares)
    def base_name(self, uid: int) -> str:
        s = self.slot(uid)
        d = self.defs[s.card]
        return d.name

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

    @cython.locals(minion=MinionState)
    def controller(self, cid: int) -> int | None:
        state = self.minion_state.get(cid)
        if state is None:
            state = self.action_state.get(cid)
            if state is None:
                return None
            return state.controller
        minion = state
        return minion.controller

    def all_minions(self) -> list[int]:
        return [m for s in self.bases for m in s.minions]

    def new_slot(self, base_card: int, index: int | None = None) -> BaseSlot:
        self._next_uid += 1
        slot = BaseSlot(self._next_uid, base_card)
        self._powers_changed_on([slot.uid])  # a new place, with no minion yet
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

    # ------------------------------------------------------------------ the board version ------
    # What power (power.py), the protections working and the cancelled abilities (protections.py)
    # are kept by: `version` moves with every change they can read.
    def _lasting_changed(self, effects: list) -> None:
        """These lasting effects began or ended: a new `version`. Power changes on minions in play
        (`Ctx.add_power`) change only the powers on those minions' bases (a `local` modifier reads
        no power change but its minion's), so those bases alone are counted afresh, as after a
        move (`_board_moved`); a breakpoint change, none while no power count has read a
        breakpoint (`_breakpoints_read`); anything else, everything."""
        uids = []
        loc = self.loc
        for eff in effects:
            if eff.kind == "breakpoint" and not self._breakpoints_read:
                continue  # no power count has read a breakpoint: it changes no power
            if eff.kind != "power" or not eff.on_card:
                uids = None
                break
            zone = loc[eff.target]
            if zone[0] != "minion":
                uids = None
                break
            uids.append(zone[1])
        if uids is None:
            self.version += 1
        else:
            self._powers_changed_on(uids)

    def _powers_changed_on(self, uids: list) -> None:
        """The powers of minions on these bases changed, and nothing else power reads (a power
        change or a counter on a minion in play: `_lasting_changed`, `Ctx.add_counters`): a new
        `version`, after which only these bases are counted afresh while every change since the
        last count is as local (`_board_moved`). A `local` modifier or protection reads no power
        change or counter but on its minion's base, and any other one counts everything afresh
        (`wide_readers`)."""
        v = self.version
        self.version = v + 1
        if self._local_upto == v:
            self._local_upto = v + 1
            self._touched_bases.update(uids)

    @cython.locals(defn=_Declares)
    def _board_moved(self, cid: int, zone: tuple) -> None:
        """`cid` arrived in or left `zone` on the board (or its state there was set): a new
        `version`. While every change since the powers were last synced is such a move of a card
        that reaches only its own base (`power_locality`), the move is listed, so that only the
        bases touched are counted afresh (`_new_power_version`; a base card, new in play or
        leaving it, reaches its own place); anything else (`changed`, a card with a wider reach)
        moves the version alone and everything is."""
        v = self.version
        self.version = v + 1
        if self._local_upto != v:
            return
        kind = zone[0]
        if kind == "minion" or kind == "base_action" or kind == "base":
            uid = zone[1]  # a base card: its place, new or left (its minions move on their own)
        elif kind == "attached":
            uid = self.base_of(zone[1])
            if uid is None:
                return
        else:
            return
        defn = self.defs[cid]
        locality = self._localities.get(id(defn))
        if locality is None:
            locality = self._localities[id(defn)] = power_locality(defn)
        if locality == MOVES_LOCALLY:
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

    def _note_turn(self) -> None:
        """Whose turn it is, or the turn itself (its flags), changed since power was last read:
        that moves `version` only if something power reads depends on it (`_power_reads_turn`),
        or the turn left behind held flags (Ancient Temple's modifier reads one). Noticed here
        rather than where the turn changes, so that every way of changing it (a mode's round
        loop, Big Base's "nobody's turn", a scenario) is covered."""
        if self._left_power_flags() or self._power_reads_turn():
            self.version += 1
        elif self.lasting:
            # Power changes in force only in some turns (Armor Stego's): their minions' bases.
            during = [eff for eff in self.lasting if eff.during is not None]
            if during:
                self._lasting_changed(during)
        self._turn_seen = self.turn_state
        self._seat_seen = self.current

    def _left_power_flags(self) -> bool:
        """Whether the turn left behind held a flag that a power count has read
        (`_power_flags`)."""
        flags = self._turn_seen.flags
        if flags and self._power_flags:
            for key in flags:
                if key in self._power_flags:
                    return True
        return False

    @cython.locals(defn=_Declares)
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

    def label_version(self) -> int:
        """The board's `version` for labels formatted when read (`effects.board_label`): a new
        turn noted first, as power would note it when the label reads a power, so reading it
        does not move the version the label was asked at."""
        if self._turn_seen is not self.turn_state or self._seat_seen != self.current:
            self._note_turn()
        return self.version

    def _new_power_version(self) -> None:
        # What was counted at an older version is forgotten; what every power at this one
        # reads (the modifiers working, the lasting changes in force) is listed on first need.
        # When only cards reaching their own base moved since (`_board_moved`, `_lasting_changed`)
        # and nothing on the board reads beyond a minion's base (`wide_readers`: a card that was
        # in play meanwhile and is no more moved, so was looked at as it moved), only the bases
        # touched are forgotten.
        version = self.version
        local = self._local_upto == version
        if local and self.wide_readers:
            local = self._wide_reach_touched()
        if local:
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

    def _wide_reach_touched(self) -> bool:
        """With every change since the last count local, whether each card in play that reads
        beyond its base (`wide_readers`) changes only powers on its own base (`reach_confined`:
        Microbot Alpha counts every Microbot in play, for itself alone): then its base is
        counted afresh with the bases touched (`_touched_bases`), whatever those changes were,
        and the other bases are kept; False when one may change powers elsewhere."""
        loc = self.loc
        defs = self.defs
        for cid in self.wide_readers:
            if not reach_confined(defs[cid]):
                return False
            zone = loc[cid]
            uid = self.base_of(zone[1]) if zone[0] == "attached" else zone[1]
            if uid is not None:
                self._touched_bases.add(uid)
        return True

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

    def lasting_active(self, eff: Lasting) -> bool:
        """Whether a lasting effect is in force now: started, and in a turn it covers."""
        if eff.starts is not None:
            return False
        if eff.during is None:
            return True
        return (self.current != eff.player) == (eff.during == "others")

    # ------------------------------------------------------------------ log and events ---------
    def log(self, text: str, to: tuple | None = None) -> None:
        """A log line; `to` limits who may read it (private lines such as what was drawn)."""
        self.log_lines.append((text, to))

    @cython.locals(player=PlayerState)
    def pname(self, seat: int) -> str:
        player = self.players[seat]
        return player.name

    def emit(self, event: Event) -> None:
        self._events.append(event)

    def _take_events(self) -> list[Event]:
        events, self._events = self._events, []
        return events

    def seats_from_current(self) -> list[int]:
        n = len(self.players)
        return [(self.current + i) % n for i in range(n)]
