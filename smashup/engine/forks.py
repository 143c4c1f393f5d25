"""Forks: an independent copy of a game at its open decision, with the same future.

A game runs as a generator (game.py), which cannot be copied. So a game is copied at a **quiet
point**, where the flow holds nothing the state lacks, and its flow is started again there:

- A quiet point is the main decision of a Play Cards phase asked at top level: no ability
  resolving (`_depth` 0, nothing in `resolving`), no base scoring (`scoring_stack` empty), no
  event waiting for its reactions (`_events` empty). About half the decisions of a game are.
  `Game._advance` notes the number of choices made when the game last stood at one
  (`_quiet_at`). There the flow is `_turns("play")` (a mode's `_flow_from_play_phase`: Big Base
  `_rounds("play")`): asked again, it asks the same question (its id is the next one, so the
  copy's `decision_seq` goes back by one first). The loop's other locals are rebuilt alike:
  `_turns` counts turns in which nobody was asked anything, and this turn asks.
- `copy_state` copies a game's state at a quiet point: every field of GAME_FIELDS (and a mode's)
  has a way, checked by tests/engine/test_forks.py: shared (immutable, or the card definitions'
  registry and the config, never changed in place), copied (the state), or made fresh (caches:
  those that hold a `Ctx`, an `Option` whose label reads the game, or the game's own indexes must
  not be shared; the others are rebuilt on first need). The random generator is copied at its
  point of the stream.
- `fork()` at a quiet point is `copy_state` and the flow started again. At any other point it is
  the copy of the game at its last quiet point (a **snapshot**) with the choices made since
  replayed (1.2 on average in random games, at most a few dozen). The snapshot is made when first
  needed, from the previous snapshot and the choices since, else from the record (`REBUILD`), and
  kept (a flow-less copy nobody plays, shared by the forks made from it): normal play pays
  nothing for it but noting `_quiet_at`.

A fork shares nothing mutable with its game (the card definitions and the registry are
immutable); its future is the same: the same options, the same digest after every choice, the
same results. `determinize` (knowledge.py) deals the hidden cards of a fork again.

No rules here: the project's contract (DESIGN.md section 3, "Clone like an OpenSpiel state").
"""
from __future__ import annotations

import copy
import dataclasses
import operator

from .core import EngineError
from .registry import BaseDef, CardDef
from .state import GAME_FIELDS, BaseSlot, PlayerState
from .turn_state import TurnState

# How a game is rebuilt from its record (setup.replay, with `knowledge` to track what each seat
# knows from the start): set by setup.py, which builds games and so sits above this module.
REBUILD = None

# Every field of GAME_FIELDS and what a copy does with it (tests/engine/test_forks.py checks
# that the three cover GAME_FIELDS exactly):
# shared: immutable values (numbers, strings, tuples, frozensets), or objects never changed in
# place (the registry; the config, replaced, never changed; a scenario's data; caches replaced
# whole, never changed: `_special_cards`, `_trigger_index`, `_loc_texts`, `_state_names`).
SHARED = frozenset({
    "registry", "config", "scenario", "seed", "rng_version", "digest_version", "resolution",
    "track_hashes", "lazy_options", "turn", "current", "phase", "winner", "bases_scored",
    "time_called_turn", "final_turn", "end_reason", "play_on_until", "decision_seq",
    "_depth", "_counting", "_breakpoints_read", "_next_uid", "_entries", "version",
    "_powers_version", "_local_upto",
    "_moved_kinds", "_here_bases", "_cancelled", "_cancelled_version", "_seat_seen",
    "_trigger_index", "_trigger_index_of", "_base_trigger_kinds", "_turn_start_bases",
    "_window_cards", "_window_cards_of", "_special_cards", "_discard_offers",
    "_discard_offerers", "_loc_texts", "_state_names", "_quiet_at", "determinized_for",
})
# made fresh: what the flow holds (`_flow`, `pending`, `_answer`: asked again), caches that hold
# a Ctx or an Option (whose label may read its game), the indexes' own table (`_index_kinds`
# holds the game's index dicts), the digest's texts of Options, and what is never shared (a
# programming error about to be raised).
FRESH = {
    "_flow": lambda: None,
    "pending": lambda: None,
    "_answer": lambda: None,
    "_modifiers": lambda: ([], {}),
    "_modifiers_version": lambda: -1,
    "_protections": lambda: [],
    "_protections_version": lambda: -1,
    "_bonuses": lambda: None,
    # a fork's board leaves the original's at the same version number: its own answers
    "_controls_known": lambda: (-1, None),
    "_index_kinds": dict,
    "_option_texts": dict,
    "dropped_effects": list,
}
# copied: the state, and caches of plain values (copied, so the copy keeps their speed).
COPIED = frozenset(GAME_FIELDS) - SHARED - set(FRESH)

# Types whose values are immutable: shared by `plain_copy`.
_ATOMIC = frozenset({int, str, bool, float, bytes, type(None), frozenset, range})
_SHARE = object()  # `_COPIERS`' mark of an immutable type (a frozen dataclass)
_COPIERS: dict = {}  # dataclass -> its copier (`_copier`)


def plain_copy(value, memo: dict | None = None):
    """A copy of plain state (what the digest reads: numbers, strings, lists, tuples, dicts,
    sets, dataclasses, card definitions), sharing only what is immutable (card definitions,
    frozen dataclasses, values of _ATOMIC). `memo` keeps objects met twice one object (a
    base in `bases` and in a Scoring)."""
    t = type(value)
    if t in _ATOMIC:
        return value
    if t is tuple:
        for x in value:
            if type(x) not in _ATOMIC:
                return tuple([plain_copy(x, memo) for x in value])
        return value
    if memo is not None:
        known = memo.get(id(value))
        if known is not None:
            return known
    if t is list:
        out = [x if type(x) in _ATOMIC else plain_copy(x, memo) for x in value]
    elif t is dict:
        out = {k: v if type(v) in _ATOMIC else plain_copy(v, memo) for k, v in value.items()}
    elif t is set:
        out = set(value)
    elif t is CardDef or t is BaseDef or isinstance(value, (CardDef, BaseDef)):
        return value
    else:
        copier = _COPIERS.get(t)
        if copier is None:
            copier = _copier(t, value)
        if copier is _SHARE:
            return value
        out = copier(value, memo)
    if memo is not None:
        memo[id(value)] = out
    return out


def _copier(t: type, value):
    """How `plain_copy` copies a dataclass: a frozen one is shared; any other is made again by
    its constructor from its fields (each copied), in one call."""
    if not dataclasses.is_dataclass(value):
        raise EngineError(f"a fork copies plain state only, not a {t.__name__} ({value!r:.60})")
    if t.__dataclass_params__.frozen:
        _COPIERS[t] = _SHARE
        return _SHARE
    fields = dataclasses.fields(t)
    if not all(f.init for f in fields):
        raise EngineError(f"{t.__name__} has a field its constructor does not take")
    read = operator.attrgetter(*[f.name for f in fields])
    if len(fields) == 1:
        one = read
        read = lambda obj: (one(obj),)  # noqa: E731

    def copier(obj, memo):
        return t(*[x if type(x) in _ATOMIC else plain_copy(x, memo) for x in read(obj)])

    _COPIERS[t] = copier
    return copier


def _copy_turn(ts: TurnState) -> TurnState:
    # Grants are matched by identity (plays.py: `_remove`, `_is_free`): a grant held both in
    # `grants` and in a `Spent` stays one object.
    return plain_copy(ts, {})


def is_quiet(game) -> bool:
    """Whether the game stands at a quiet point (see the module's docstring) now."""
    return game.pending is not None and game._quiet_at == len(game.choices)


def copy_state(game):
    """A copy of `game`'s state with no flow: at a quiet point (or a game over), for `fork` and
    the snapshots. Shares nothing mutable with it."""
    if game._depth or game.scoring_stack or game.resolving or game._events:
        if game.pending is not None:
            raise EngineError("a game is copied at a quiet point only (forks.py)")
    cls = type(game)
    new = cls.__new__(cls)
    for name in SHARED:
        setattr(new, name, getattr(game, name))
    for name, fresh in FRESH.items():
        setattr(new, name, fresh())
    memo: dict = {}
    # The zones: a player's piles and the bases in play, by list copies.
    new.defs = list(game.defs)
    new.owner = list(game.owner)
    new.loc = list(game.loc)
    new.players = [_copy_player(p) for p in game.players]
    bases = []
    for slot in game.bases:
        copied = BaseSlot(slot.uid, slot.card, list(slot.minions), list(slot.actions))
        memo[id(slot)] = copied
        bases.append(copied)
    new.bases = bases
    new._slot_of = {slot.uid: slot for slot in bases}
    new.base_deck = list(game.base_deck)
    new.base_discard = list(game.base_discard)
    new.resolving = list(game.resolving)
    new.minion_state = {m: plain_copy(st) for m, st in game.minion_state.items()}
    new.action_state = {a: plain_copy(st) for a, st in game.action_state.items()}
    new.lasting = [plain_copy(e) for e in game.lasting]
    new.resolving_to = dict(game.resolving_to)
    new.turn_state = _copy_turn(game.turn_state)
    seen = game._turn_seen
    new._turn_seen = new.turn_state if seen is game.turn_state else _copy_turn(seen)
    new.scoring_stack = plain_copy(game.scoring_stack, memo)
    new._events = plain_copy(game._events, memo)
    new._chain_counts = dict(game._chain_counts)
    new.shared_winners = list(game.shared_winners)
    # The indexes of cards in play (card -> None), and caches of plain values.
    for name in ("modifier_sources", "breakpoint_sources", "protectors", "reactive", "talented",
                 "replacers", "restrictors", "host_cancellers", "play_offering", "wide_readers",
                 "left_cancelled", "_localities", "_static_views", "_play_plans",
                 "_digest_static", "_totals"):
        setattr(new, name, dict(getattr(game, name)))
    new._powers = {uid: dict(powers) for uid, powers in game._powers.items()}
    # The main decision's Options, made once a game (options.py): an Option never changes once
    # made, and these hold no game (their labels are formatted from names): the tables are
    # copied, the Options shared.
    new._minion_play_options = dict(game._minion_play_options)
    new._card_options = dict(game._card_options)
    new._play_rows = {key: dict(rows) for key, rows in game._play_rows.items()}
    new._touched_bases = set(game._touched_bases)
    new._power_flags = set(game._power_flags)  # what the powers copied were counted from
    # The record and what was said: lists of values nobody changes once made.
    new.choices = [[seat, decision_id, list(ids)] for seat, decision_id, ids in game.choices]
    new.hashes = list(game.hashes)
    new.log_lines = list(game.log_lines)
    new.base_scorings = plain_copy(game.base_scorings)
    new.special_checks = list(game.special_checks)
    new.disclosures = list(game.disclosures)
    new.rng = copy.copy(game.rng)
    new.knowledge = game.knowledge.copy() if game.knowledge is not None else None
    new._snapshot = game._snapshot  # a snapshot is never changed: shared by its forks
    # A mode's own fields (Big Base: the board, the slots, the round) and any other attribute.
    for name, value in vars(game).items():
        if name in _ALL_FIELDS:
            continue
        way = cls.FORK_FIELDS.get(name)
        if way == "shared":
            setattr(new, name, value)
        elif way == "fresh":
            setattr(new, name, type(value)())
        else:
            setattr(new, name, plain_copy(value, memo))
    return new


_ALL_FIELDS = frozenset(GAME_FIELDS)


def _copy_player(p: PlayerState) -> PlayerState:
    return PlayerState(p.seat, p.name, list(p.factions), p.bot, list(p.deck), list(p.hand),
                       list(p.discard), p.vp, p.mulliganed)


def start_at_quiet_point(new) -> None:
    """Start the flow of a copy made at a quiet point: it asks the main decision again."""
    new.decision_seq -= 1
    new._flow = new._flow_from_play_phase()
    new._advance(None)


def replay_choices(game, choices) -> None:
    """Apply recorded choices as a replay does (each looked up alone: `lazy_options`)."""
    lazy, hashes = game.lazy_options, game.track_hashes
    game.lazy_options, game.track_hashes = True, False
    try:
        for seat, decision_id, ids in choices:
            game.apply(seat, decision_id, ids)
    finally:
        game.lazy_options, game.track_hashes = lazy, hashes


def fork(game):
    """An independent game at the same decision whose future is the same: the same options,
    the same digest after every choice, the same results (see the module's docstring)."""
    if game.pending is None:
        return copy_state(game)
    if is_quiet(game):
        new = copy_state(game)
        start_at_quiet_point(new)
        return new
    new = _at_last_quiet_point(game)
    replay_choices(new, game.choices[len(new.choices):])
    new.hashes = list(game.hashes)
    new.log_lines = list(game.log_lines)  # the same lines: the originals, not new strings
    return new


def _at_last_quiet_point(game):
    """A new game at `game`'s last quiet point (at its first decision when it has passed none),
    its flow started: from the snapshot there, made now if missing (and kept)."""
    snapshot = last_snapshot(game)
    if snapshot is None:
        return _rebuilt(game, 0)
    new = copy_state(snapshot[1])
    new._snapshot = snapshot
    start_at_quiet_point(new)
    return new


def last_snapshot(game) -> tuple | None:
    """(choices, copy) of `game` at its last quiet point, made now if missing (from the previous
    snapshot and the choices since, else from the record) and kept; None before the first."""
    at = game._quiet_at
    if at < 0:
        return None
    snapshot = game._snapshot
    if snapshot is None or snapshot[0] != at:
        if snapshot is not None and snapshot[0] < at:
            made = copy_state(snapshot[1])
            start_at_quiet_point(made)
            replay_choices(made, game.choices[snapshot[0]:at])
        else:
            made = _rebuilt(game, at)
        if not is_quiet(made):
            raise EngineError("a replay of this game did not reach its last quiet point")
        snapshot = game._snapshot = (at, _pristine(made))
    return snapshot


def take_snapshot(game) -> None:
    """Keep a copy of `game` at the quiet point it stands at (a game that cannot be rebuilt from
    its record, a determinized one, keeps one as it passes its first quiet point)."""
    game._snapshot = (len(game.choices), _pristine(game))


def _pristine(game):
    """A snapshot: a copy of the game nobody plays (it holds no older snapshot)."""
    copied = copy_state(game)
    copied._snapshot = None
    return copied


def _rebuilt(game, choices: int):
    """The game rebuilt from its record cut at `choices` choices."""
    if game.determinized_for is not None:
        raise EngineError("a determinized game is rebuilt from its snapshots only: it was "
                          "forked before passing a quiet point")
    record = game.record()
    record["choices"] = record["choices"][:choices]
    record.pop("hashes", None)
    new = REBUILD(record, knowledge=game.knowledge is not None)
    new.lazy_options = game.lazy_options
    return new
