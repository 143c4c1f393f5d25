"""A game's state as a hash (`digest`): what a replay compares after every choice to find a
game that drifts from what was played.

Rules implemented here: none of the game's; the project's record format (DESIGN.md section 3):
version 3 ("3-" and 32 hex digits) reads every attribute of the game but NOT_STATE, structurally
(`_plain`), so a new piece of state is covered without anyone adding it here; words shown to
people (log lines, prompts, labels) are not state. A game replayed from a record keeps the
version its stored hashes have: 2 (the fields added since marked `since` left out), 1 (records
made before version 2). The parts that never change once the cards are dealt, and each Option's
text, are written once (`_digest_static`, `_option_texts`).

Compiled, `game` is typed GameState (digests.pxd).
"""
from __future__ import annotations

import dataclasses
import hashlib
import operator
from collections.abc import Callable
from itertools import chain, compress
from operator import is_not

import cython

from .core import Decision, EngineError, MinionState
from .registry import BaseDef, CardDef
from .state import GAME_FIELDS, GameState

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
    "_controls_known",  # `Ctx.controls`
    "_power_flags", "_counting",  # `Ctx.flag`
    "_breakpoints_read",  # `powers.breakpoint`
    "_local_upto", "_touched_bases", "_localities", "_moved_kinds", "_here_bases",  # `_board_moved`
    "_protections", "_protections_version",  # `affects`
    "_trigger_index", "_trigger_index_of",  # `_reactions_to`
    "_answer",  # the options `apply` found, handed to `ask`
    "lazy_options",  # how a replay lists the main decision's options (`_MainOptions`)
    "_digest_static", "_option_texts",  # `_digest_v2`
    "_card_options",  # `_CardOptions`
    "_state_names",  # `state_fields`
    "_loc_texts",  # `_loc_text`
    "_quiet_at", "_snapshot",  # forks.py: where the game last stood at a quiet point, its copy
    "knowledge",  # what each seat knows (knowledge.py): it changes no future
    "determinized_for",  # the seat a determinized game was dealt for (knowledge.py)
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


@cython.locals(game=GameState)
def digest(game) -> str:
    """A hash of the whole state, to catch a replay that drifts from what was played: version
    3 (`_digest_v2`, "3-" and 32 hex digits) for every game; a game replayed from a record
    keeps the version its stored hashes have (`digest_version`): 2 ("2-", the state without
    the fields added since, marked `since`), 1 (32 hex digits)."""
    if game.digest_version == 1:
        return _digest_v1(game)
    return _digest_v2(game, game.digest_version)


@cython.locals(game=GameState)
def state_fields(game) -> list[str]:
    """The attributes of this game that are its state: every one but those in NOT_STATE and
    functions (behaviour, e.g. a test recording `emit`, is not state)."""
    # Compiled, most attributes are fields of the type (game.pxd), not in `vars(game)`.
    # The names that are not NOT_STATE, sorted, depend only on which attributes there are:
    # kept until one is added or removed (a digest after every choice asks each time).
    keys = tuple(vars(game))
    known = game._state_names
    if known is None or known[0] != keys:
        names = set(keys).union(GAME_FIELDS)
        game._state_names = known = (keys, [k for k in sorted(names) if k not in NOT_STATE])
    return [k for k in known[1] if not callable(getattr(game, k))]


@cython.locals(game=GameState)
def _digest_v2(game, version: int = 3) -> str:
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
    static = game._digest_static
    for name in game.state_fields():
        value = getattr(game, name)
        if name == "rng":
            texts.append(repr(repr(value.getstate())))
        elif name == "_events":
            # A waiting `base_entered` is left out: it only ever follows a change of base
            # that the state shows (the base's card, the base piles), and records hashed
            # before it existed (a Terraforming asking for its extra minion) must replay.
            if isinstance(value, list):
                value = [e for e in value if getattr(e, "kind", None) != "base_entered"]
            texts.append(repr(_plain(value, fields)))
        elif name == "loc" and (text := _loc_text(game, value)) is not None:
            texts.append(text)
        elif name == "minion_state" and (text := _minion_states_text(value, fields)):
            texts.append(text)
        elif name == "pending" and type(value) is Decision:
            texts.append(_pending_text(game, value, fields))
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


@cython.locals(game=GameState)
def _loc_text(game, loc: list) -> str | None:
    """`_zones_text(loc)`, each zone's text kept from the last digest while the zone there
    is the same tuple (a zone is immutable: a move puts a new one in place), so only the
    cards moved since are written. None: the general way."""
    zones = tuple(loc)
    kept = game._loc_texts
    if kept is None or len(kept[0]) != len(zones):
        text = _zones_text(loc)
        if text is not None:
            game._loc_texts = (zones, list(map(_ZONE_TEXTS.__getitem__, zones)), text)
        return text
    moved = list(compress(range(len(zones)), map(is_not, zones, kept[0])))
    if not moved:
        return kept[2]
    texts = list(kept[1])
    for i in moved:
        zone = zones[i]
        if type(zone) is not tuple or not all(type(x) is str or type(x) is int for x in zone):
            game._loc_texts = None
            return _zones_text(loc)
        texts[i] = repr(zone)
    text = "(" + ", ".join(texts) + ")"
    game._loc_texts = (zones, texts, text)
    return text


@cython.locals(game=GameState)
def _pending_text(game, decision: Decision, fields: dict) -> str:
    """repr(_plain(decision)), each option's part written once per Option: the main
    decision offers the same Options question after question (`_minion_play_options`)."""
    memo = game._option_texts
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


@cython.locals(game=GameState)
def _digest_v1(game) -> str:
    """The digest of records made before version 2 (kept so that they still replay; only
    Aliens, Ninjas and the Core bases existed then)."""
    state = (
        [(p.deck, p.hand, p.discard, p.vp) for p in game.players],
        [(s.uid, s.card, s.minions, s.actions) for s in game.bases],
        sorted((k, v.controller, v.counters, v.attached) for k, v in game.minion_state.items()),
        sorted((k, v.controller, v.host) for k, v in game.action_state.items()),
        game.base_deck, game.base_discard, game.turn, game.current, game.phase,
        game.pending.id if game.pending else None, game.winner,
        [(e.kind, e.target, e.amount, e.player,
          ("turn_end",) if e.ends == ("turn_end", None) else e.ends) for e in game.lasting],
        [(g.kind, g.free, g.max_power, g.base) for g in game.turn_state.grants],
        sorted(map(repr, game.turn_state.flags.items())),
        sorted(game.turn_state.talents_used),
        game.turn_state.minions_played, game.turn_state.actions_played,
    )
    if game.time_called_turn is not None or game.config.get("end_after_bases"):
        # Only for games that can end early, so every record made before these rules existed
        # keeps its stored hashes.
        state += ((game.bases_scored, game.time_called_turn, game.final_turn, game.end_reason,
                   game.play_on_until, game.shared_winners),)
    return hashlib.blake2b(repr(state).encode(), digest_size=16).hexdigest()
